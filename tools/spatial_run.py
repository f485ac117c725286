"""
`spatial-run`: run a function of an MLIR module on numpy arrays, before or after
`q8-lower`, and show the bytes every tensor moved.

    spatial-run gemv.mlir --entry gemv --inputs in.npz --outputs out.npz
    spatial-run gemv.mlir -p q8-lower --seed 0 --stats
    spatial-run gemv.mlir --seed 0 --compare --stats
    spatial-run gemv.mlir -p 'q8-lower{chips=4}' --seed 0 --distributed ray --stats

`in.npz` holds one array per function argument, `arg0`, `arg1`, ...; `out.npz`
receives `res0`, `res1`, ... A bf16 argument takes a float32 array, rounded to bf16
(nearest-even); an int8 argument given floats or values beyond int8, or a float
argument given integers, is refused; NaN or inf in an input is warned about. A
tensor larger than the memory limit (the machine's memory, or
XDSL_SPATIAL_MEMORY_LIMIT) is refused before anything is allocated.
Exit codes: 0 success, 1 an error (one diagnostic on stderr), 2 a usage error.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
import warnings
import zipfile
from collections.abc import Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType

from xdsl_spatial.core.disk_cache import HELP
from xdsl_spatial.core.ir_io import apply_pipeline, make_context, parse_module
from xdsl_spatial.dialects.q8 import Q8Part, stored_part
from xdsl_spatial.dialects.spatial import ProgramOp
from xdsl_spatial.interpreters.arguments import check_allocations
from xdsl_spatial.interpreters.distributed import compare_bits
from xdsl_spatial.interpreters.native import NativeExecutable
from xdsl_spatial.interpreters.options import (
    Distribution,
    Engine,
    RunOptions,
    add_run_options,
    from_args,
)
from xdsl_spatial.interpreters.runner import (
    Execution,
    RunError,
    coerce_args,
    compile_module,
    distribute,
    execute,
    find_function,
    native_available,
)
from xdsl_spatial.interpreters.stats import report
from xdsl_spatial.interpreters.traffic_io import TrafficRun, to_json
from xdsl_spatial.interpreters.values import numpy_dtype
from xdsl_spatial.passes.q8_lower import OPTIMIZED
from xdsl_spatial.tools import cli
from xdsl_spatial.tools.cli import ToolError


def _parser() -> argparse.ArgumentParser:
    p = cli.ArgumentParser(
        prog="spatial-run",
        description="Run a function of an MLIR module (before or after q8-lower) "
        "on numpy arrays, counting the bytes each spatial program moves.",
        epilog="A .npz cannot hold bf16 portably: give float32 for a bf16 argument; "
        "it is rounded to bf16 (nearest-even). Outputs are written whole or not at all. " + HELP,
    )
    p.add_argument("file", help="the .mlir module")
    p.add_argument("--entry", help="the function to run (default: the only one)")
    p.add_argument("--inputs", help=".npz with arg0, arg1, ... (one per argument)")
    p.add_argument("--outputs", help=".npz to write res0, res1, ... into")
    p.add_argument("-p", "--pipeline", help="xdsl-opt passes to apply first, e.g. q8-lower")
    p.add_argument(
        "--seed",
        type=cli.non_negative_int,
        help="draw arguments missing from --inputs at random with this seed (>= 0)",
    )
    p.add_argument(
        "--weights",
        help="a GGUF checkpoint: bind every argument named after a stored weight "
        "(NAME__q8, NAME__q8_scale) from its tensor NAME",
    )
    p.add_argument(
        "--requantize",
        action="store_true",
        help="with --weights: allow non-Q8_0 tensors, dequantised and re-quantised to Q8_0",
    )
    add_run_options(p)
    p.add_argument(
        "--compare",
        action="store_true",
        help=f"run before and after {OPTIMIZED} (or -p) on the same inputs and print the "
        "difference",
    )
    p.add_argument("--print", dest="print_outputs", action="store_true", help="print the outputs")
    return p


def _arg_types(
    module: ModuleOp, entry: str | None
) -> tuple[str, list[tuple[str | None, TensorType]]]:
    fn = find_function(module, entry)
    out = []
    for a, t in zip(fn.body.block.args, fn.function_type.inputs.data):
        if not isinstance(t, TensorType):
            raise RunError(f"argument %{a.name_hint or a.index} is {t}; only tensors can be given")
        out.append((a.name_hint, cast(TensorType, t)))
    return fn.sym_name.data, out


def _load_inputs(path: str) -> dict[str, np.ndarray]:
    try:
        if not zipfile.is_zipfile(path):
            kind = "a .npy file" if _is_npy(path) else "not an .npz archive"
            raise ToolError(
                f"cannot read inputs '{path}': {kind}; --inputs takes an .npz "
                "(np.savez(path, arg0=..., arg1=...)), one array per argument"
            )
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except IsADirectoryError:
        raise ToolError(f"cannot read inputs '{path}': it is a directory") from None
    except OSError as e:
        raise ToolError(f"cannot read inputs '{path}': {e.strerror or e}") from None
    except (ValueError, zipfile.BadZipFile, EOFError) as e:
        raise ToolError(f"cannot read inputs '{path}': {e}") from None


def _is_npy(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(6) == b"\x93NUMPY"


def _draw(name: str | None, t: TensorType, rng: np.random.Generator) -> np.ndarray:
    shape = tuple(t.get_shape())
    dt = numpy_dtype(t.element_type)
    parsed = stored_part(name) if name else None
    part = parsed[1] if parsed else None
    if dt.kind in "iu" and dt.itemsize > 1:
        # Token ids, positions, indices: 0 and 1 are in range wherever any value is.
        return rng.integers(0, 2, size=shape).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, -127), min(info.max, 127)
        return rng.integers(lo, hi + 1, size=shape).astype(dt)
    if part is Q8Part.SCALES:
        return rng.uniform(0.001, 0.02, size=shape).astype(np.float32)
    return rng.standard_normal(shape).astype(np.float32)


def gather_arguments(
    module: ModuleOp,
    entry: str | None,
    inputs: dict[str, np.ndarray],
    seed: int | None,
    bound: dict[str, np.ndarray],
) -> list[np.ndarray]:
    _, args = _arg_types(module, entry)
    check_allocations(find_function(module, entry))  # before drawing any argument
    extra = set(inputs) - {f"arg{i}" for i in range(len(args))}
    if extra:
        raise ToolError(
            f"inputs hold {', '.join(sorted(extra))}, which name no argument "
            f"(the function takes arg0..arg{len(args) - 1})"
        )
    rng = np.random.default_rng(seed)
    out = []
    for i, (name, t) in enumerate(args):
        key = f"arg{i}"
        if key in inputs:
            out.append(inputs[key])
        elif name is not None and name in bound:
            out.append(bound[name])
        elif seed is not None:
            out.append(_draw(name, t, rng))
        else:
            label = f"{key} (%{name})" if name else key
            raise ToolError(
                f"{label} is missing: give it in --inputs, bind it with --weights, "
                "or pass --seed to draw it at random"
            )
    return out


def _bind_weights(
    module: ModuleOp, entry: str | None, path: str, requantize: bool
) -> dict[str, np.ndarray]:
    from xdsl_spatial.frontends.gguf_io import GGUFError, NotQ8Error, bind_weights

    _, args = _arg_types(module, entry)
    wanted = {
        name: (tuple(t.get_shape()), numpy_dtype(t.element_type))
        for name, t in args
        if name is not None and stored_part(name) is not None
    }
    if not wanted:
        raise ToolError(
            "--weights binds arguments named NAME__q8 / NAME__q8_scale; the function has none"
        )
    try:
        return bind_weights(
            path,
            wanted,
            requantize=requantize,
            on_requantize=lambda err: print(f"spatial-run: note: {err}", file=sys.stderr),
        )
    except NotQ8Error as e:
        raise ToolError(e.with_hint("spatial-run --requantize")) from None
    except GGUFError as e:
        raise ToolError(str(e)) from None


def _write_outputs(path: str, outputs: Sequence[np.ndarray]) -> None:
    arrays = {
        f"res{i}": (
            o.astype(np.float32) if o.dtype.kind == "V" or str(o.dtype) == "bfloat16" else o
        )
        for i, o in enumerate(outputs)
    }
    with cli.atomic_write(path, "wb", option="--outputs") as f:
        np.savez(f, **arrays)  # pyright: ignore[reportArgumentType]  (numpy's stub reads **kwds as its keyword options)


def _timed(
    module: ModuleOp, entry: str | None, arrays: list[np.ndarray], options: RunOptions
) -> tuple[Execution, float]:
    """Run and time one call (with the compiled engine: of the executable, compiled
    first, and after one untimed call that maps the buffers later calls reuse; on Ray,
    of the chips, made first with their weights). The module was verified when it
    was read and after its pipeline: the engines do not verify it again."""
    if options.distributed is Distribution.RAY:
        with distribute(module, entry, arrays, address=options.address, verify=False) as chips:
            chips.call(arrays)
            t = time.perf_counter()
            result = chips.call(arrays)
            return result, time.perf_counter() - t
    if options.engine is Engine.REFERENCE:
        t = time.perf_counter()
        result = execute(module, entry, arrays, options=options, verify=False)
        return result, time.perf_counter() - t
    o = options
    exe = compile_module(module, entry, o.engine, o.threads, verify=False, kernels=o.kernels)
    args = coerce_args(find_function(module, entry), arrays)
    if isinstance(exe, NativeExecutable):  # its weights laid once, as a model's are
        args = list(exe.lay(args))
    exe(*args)
    t = time.perf_counter()
    result = exe(*args)
    return result, time.perf_counter() - t


def _describe(outputs: Sequence[np.ndarray]) -> str:
    return ", ".join(
        f"res{i}: {'x'.join(map(str, o.shape))} {o.dtype}" for i, o in enumerate(outputs)
    )


def _compare(before: Execution, after: Execution) -> str:
    lines = []
    for i, (a, b) in enumerate(zip(before.outputs, after.outputs)):
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        diff = np.abs(a64 - b64)
        scale = np.abs(a64).max() if a64.size else 0.0
        rel = diff.max() / scale if diff.size and scale else 0.0
        lines.append(
            f"res{i}: max |before - after| = {diff.max() if diff.size else 0.0:.6g}, "
            f"relative to max |before| = {rel:.3g}"
        )
    return "\n".join(lines)


def rounding_notes(module: ModuleOp) -> list[str]:
    """The lowered programs whose numerics claim a rounding the unlowered module does
    not make, or the other way round: where before and after may differ by more than
    the fp32 summation bound."""
    notes = []
    for op in module.walk():
        if isinstance(op, ProgramOp) and "round" in op.numerics.reason.data:
            note = f"note: {op.program_name.data}: {op.numerics.reason.data}"
            if note not in notes:
                notes.append(note)
    return notes


def _warn_non_finite(outputs: Sequence[np.ndarray]) -> None:
    for i, o in enumerate(outputs):
        if o.dtype.kind == "f" and o.size and not np.isfinite(o).all():
            n = int(np.count_nonzero(~np.isfinite(o)))
            warnings.warn(f"res{i}: {n:,} of its {o.size:,} values are NaN or inf", stacklevel=2)


def main(argv: Sequence[str] | None = None) -> int:
    return cli.run(_parser(), _main, argv)


def _main(args: argparse.Namespace) -> int:
    options = from_args(args)
    if options.engine is Engine.NATIVE:
        native_available()  # before the file is read and the inputs drawn
    text = cli.read_text(args.file)
    cli.check_output_path(args.outputs, "--outputs")  # both before any work
    cli.check_output_path(options.stats_json, "--stats-json")
    ctx = make_context()
    module = parse_module(text, args.file, ctx)
    inputs = _load_inputs(args.inputs) if args.inputs else {}
    bound = _bind_weights(module, args.entry, args.weights, args.requantize) if args.weights else {}
    arrays = gather_arguments(module, args.entry, inputs, args.seed, bound)

    before = None
    local = None
    t_before = t_after = 0.0
    # NaN and inf in the inputs were warned about, once each; what they do inside
    # the arithmetic is legitimate and not warned about again.
    with np.errstate(all="ignore"):
        if args.compare:
            here = dataclasses.replace(options, distributed=Distribution.LOCAL, address=None)
            before, t_before = _timed(module.clone(), args.entry, arrays, here)
        pipeline = args.pipeline or (OPTIMIZED if args.compare else None)
        if pipeline:
            apply_pipeline(module, pipeline, ctx)
        if args.compare:
            after, t_after = _timed(module, args.entry, arrays, options)
            if options.distributed is Distribution.RAY:
                local = execute(module, args.entry, arrays, verify=False)
        else:
            after = execute(module, args.entry, arrays, options=options, verify=False)
    _warn_non_finite(after.outputs)

    print(_describe(after.outputs))
    if args.print_outputs:
        for i, o in enumerate(after.outputs):
            print(f"res{i} =\n{np.array2string(o, threshold=sys.maxsize, max_line_width=100)}")
    if before is not None:
        print(
            f"before: {t_before * 1e3:.1f} ms, after {pipeline}: {t_after * 1e3:.1f} ms "
            + (
                "(one call of each compiled function, after a first; after on Ray actors)"
                if options.distributed is Distribution.RAY
                else "(one call of each compiled function, after a first)"
                if options.compiles
                else f"(one run each, {options.engine} engine)"
            )
        )
        print(_compare(before, after))
        for note in rounding_notes(module):
            print(note)
    if local is not None:
        chips = sorted({p.chip for p in after.traffic.programs if p.chip is not None})
        print(
            f"on {len(chips)} Ray actors (chips {', '.join(map(str, chips))}) vs on this "
            f"host: {compare_bits(after.outputs, local.outputs)}"
        )
    if options.stats is not None:
        print(report(after.traffic, options.stats))
    if options.stats_json:
        entry = find_function(module, args.entry).sym_name.data
        with cli.atomic_write(options.stats_json, "w", option="--stats-json") as f:
            f.write(to_json([TrafficRun(entry, after.traffic.programs)]) + "\n")
    if args.outputs:
        _write_outputs(args.outputs, after.outputs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
