"""
Running a module's function on numpy arrays, before `q8-lower` (q8, linalg, arith,
tensor, func) and after it (spatial programs), with the traffic every program moved.

```python
from xdsl_spatial.interpreters.runner import execute, run
(y,) = run(module, "gemv", x, q, s)
result = execute(module, "gemv", [x, q, s], engine=Engine.REFERENCE)
```

Three engines give one semantics: `reference` runs the module op by op through xDSL's
interpreter (`reference.py`: what a program means), `compiled` (the default) reads
the function once into an executable and runs that (`executable.py`: numpy), and
`native` has upstream MLIR and LLVM compile it to machine code (`native/`: the
`native` extra). To run a function many times, compile it once:
`exe = compile_module(module, "gemv")` (or `Engine.NATIVE`), then `exe(*arrays)`
(arguments already of the function's types: `coerce_args`).

The engine and its threads are checked where they are made (`options.RunOptions`;
a string names an engine too). A function lowered over chips runs the same way on
one host, or with `distributed="ray"` with each chip's programs in a Ray actor of its own
(`distributed.py`); `distribute(module, "gemv", arrays)` makes the actors once, with
the weights, for many calls on the activations.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.interpreter import Interpreter
from xdsl.utils.exceptions import InterpretationError, VerifyException

from xdsl_spatial.core.memory import collector_paused
from xdsl_spatial.core.progress import Progress
from xdsl_spatial.interpreters.arguments import (  # noqa: F401 - RunError, arg_name: re-exported
    RunError,
    arg_name,
    check_allocations,
    coerce_args,
)
from xdsl_spatial.interpreters.executable import (
    CompileError,
    Executable,
    Execution,
    compile_function,
)
from xdsl_spatial.interpreters.kernels import KernelError, dense_functions
from xdsl_spatial.interpreters.native import compiler
from xdsl_spatial.interpreters.native import native_available as native_available
from xdsl_spatial.interpreters.options import (  # noqa: F401 - ENGINES, DISTRIBUTIONS: re-exported
    DISTRIBUTIONS,
    ENGINES,
    Distribution,
    Engine,
    RunOptions,
    distribution_of,
    engine_of,
)
from xdsl_spatial.interpreters.reference import SpatialReference
from xdsl_spatial.interpreters.traffic import Traffic
from xdsl_spatial.interpreters.values import SpatialRuntimeError, numpy_dtype


def _functions(module: ModuleOp) -> Iterator[func.FuncOp]:
    """The defined functions of `module` and of the modules nested in it."""
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp) and op.body.blocks:
            yield op
        elif isinstance(op, ModuleOp):
            yield from _functions(op)


def find_function(module: ModuleOp, entry: str | None) -> func.FuncOp:
    funcs = list(_functions(module))
    if entry is not None:
        for f in funcs:
            if f.sym_name.data == entry:
                return f
    names = [f.sym_name.data for f in funcs]
    if entry is None:
        if len(funcs) != 1:
            raise RunError(
                f"the module has {len(funcs)} functions ({', '.join(names) or 'none'}); "
                "name one with --entry"
            )
        return funcs[0]
    raise RunError(f"no function @{entry} in the module (it has: {', '.join(names) or 'none'})")


def make_interpreter(module: ModuleOp, traffic: Traffic) -> Interpreter:
    """xDSL's interpreter with the reference engine's functions registered."""
    # Imported here, not at the start: xdsl.interpreters' package imports every
    # interpreter xDSL has (RISC-V's among them), which the native engine never needs.
    from xdsl.interpreters.func import FuncFunctions

    interp = Interpreter(module)
    for fns in (FuncFunctions(), dense_functions(), SpatialReference(traffic)):
        interp.register_implementations(fns, override=False)
    return interp


def verified(module: ModuleOp, entry: str | None, verify: bool = True) -> func.FuncOp:
    """The function `entry`, verified: the engines run only what the verifier takes
    (a module changed after it was parsed is checked again). `verify=False`: the
    caller verified the module as it is now (a tool, once, after its passes), and it
    is not verified again; its allocations are checked either way."""
    fn = find_function(module, entry)
    if verify:
        try:
            # (the collector paused: SmolLM2's lowered @decode verified in 2.3 s, 3.7 with it)
            with collector_paused():
                fn.verify()
        except VerifyException as e:
            raise RunError(f"@{fn.sym_name.data} does not verify: {e}") from None
    check_allocations(fn)
    return fn


def argument_types(fn: func.FuncOp) -> list[tuple[tuple[int, ...], np.dtype[Any]]]:
    """The shape and element type of each argument of `fn` (tensors)."""
    types = [cast(TensorType[Any], t) for t in fn.function_type.inputs]
    return [(tuple(t.get_shape()), numpy_dtype(t.element_type)) for t in types]


def compile_module(
    module: ModuleOp,
    entry: str | None,
    engine: Engine | str = Engine.COMPILED,
    threads: int = 1,
    progress: Progress | None = None,
    *,
    verify: bool = True,
    kernels: str | None = None,
) -> Executable | Any:
    """The executable of `entry`: the compiled engine's (see `executable.py`) or, with
    `Engine.NATIVE`, machine code (`native/`; `threads`: the OpenMP threads its
    programs' items run on; `kernels`: `RunOptions.kernels`). Either is called on
    arrays of the function's types and gives an `Execution`. `progress` is told each
    step of compiling; `verify=False`: the caller verified the module (`verified`)."""
    options = RunOptions(engine_of(engine), threads, kernels)
    if options.engine is Engine.REFERENCE:
        raise RunError(f"compile_module compiles with 'compiled' or 'native', not '{engine}'")
    fn = verified(module, entry, verify)
    if options.engine is Engine.NATIVE:
        return compile_native_function(fn, threads, progress, kernels)
    try:
        return compile_function(fn, progress=progress)
    except CompileError as e:
        raise RunError(str(e)) from None


_COMPILED: weakref.WeakKeyDictionary[
    ModuleOp, dict[tuple[str | None, RunOptions], tuple[int, Any, weakref.ref[func.FuncOp]]]
]
_COMPILED = weakref.WeakKeyDictionary()
"""What `compiled` made, per module (held weakly: a module let go takes its executables
with it), entry and options (engine, threads, kernels), with the module's fingerprint when it was made. The function is
held weakly too: through its parent it would hold the module itself."""


def fingerprint(module: ModuleOp) -> int:
    """A hash of what `module` is now: every op (its identity), its operands, result
    types, properties and attributes (by value). A rewrite replaces ops, operands or
    attributes (xDSL's attributes are immutable), so any change to the module changes
    it; the walk costs microseconds per op, far less than verifying and compiling."""
    h = []
    for op in module.walk():
        h.append(
            (
                id(op),
                tuple(id(v) for v in op.operands),
                tuple(r.type for r in op.results),
                tuple(op.properties.items()),
                tuple(op.attributes.items()),
            )
        )
    return hash(tuple(h))


def compiled(
    module: ModuleOp, entry: str | None, options: RunOptions, verify: bool = True
) -> tuple[Any, func.FuncOp]:
    """`entry`'s executable and function for `options.engine` (compiled or native):
    compiled (and verified) once per module, and again only when the module has changed
    since (`fingerprint`). Nothing is stored on the IR: the executables are held beside
    it, in a weak dictionary keyed by the module object."""
    now = fingerprint(module)
    per = _COMPILED.setdefault(module, {})
    key = (entry, RunOptions(options.engine, options.threads, options.kernels))
    hit = per.get(key)
    fn = hit[2]() if hit is not None else None
    if hit is not None and fn is not None and hit[0] == now:
        return hit[1], fn
    fn = verified(module, entry, verify)
    if options.engine is Engine.NATIVE:
        exe = compile_native_function(fn, options.threads, kernels=options.kernels)
    else:
        try:
            exe = compile_function(fn)
        except CompileError as e:
            raise RunError(str(e)) from None
    per[key] = (now, exe, weakref.ref(fn))
    return exe, fn


class NativeCompiling:
    """A function the native engine is compiling in another process
    (`compiler.start_native`): `result()` waits for its executable; the engine's
    refusals are `RunError`s."""

    def __init__(self, job: Any):
        self.job = job

    def result(self) -> Any:
        try:
            return self.job.result()
        except compiler.NATIVE_ERRORS as e:
            raise RunError(str(e), getattr(e, "location", None)) from None

    def close(self) -> None:
        self.job.close()


def start_compile(
    module: ModuleOp,
    entry: str | None,
    threads: int = 1,
    *,
    verify: bool = True,
    progress: Progress | None = None,
    kernels: str | None = None,
) -> NativeCompiling:
    """`compile_module(module, entry, Engine.NATIVE, threads)` begun: the function prepared
    and converted here, its machine code made by another process (or loaded from the
    compile cache) while this one goes on, and verified meanwhile: the other process
    compiles while this one verifies, and nothing runs the code before the function
    has verified (it is not returned otherwise)."""
    RunOptions(Engine.NATIVE, threads, kernels)
    fn = verified(module, entry, verify=False)
    try:
        job = compiler.start_native(fn, threads=threads, kernels=kernels, progress=progress)
    except compiler.NATIVE_ERRORS as e:
        if verify:
            verified(module, entry)  # a function that does not verify says so first
        raise RunError(str(e), getattr(e, "location", None)) from None
    except Exception:
        if verify:
            verified(module, entry)  # what made preparing it fail, named at its op
        raise
    if verify:
        try:
            verified(module, entry)
        except RunError:
            job.close()
            raise
    return NativeCompiling(job)


def compile_native_function(
    fn: func.FuncOp,
    threads: int = 1,
    progress: Progress | None = None,
    kernels: str | None = None,
) -> Any:
    """`fn` (verified) compiled by the native engine (its threads and kernels checked
    by the caller's `RunOptions`); its refusals as `RunError`."""
    try:
        return compiler.compile_native(fn, threads=threads, kernels=kernels, progress=progress)
    except compiler.NATIVE_ERRORS as e:
        raise RunError(str(e), getattr(e, "location", None)) from None


def call(exe: Executable | Any, fn: func.FuncOp, arrays: Sequence[Any]) -> Execution:
    """One call of a compiled function on `arrays` (checked and converted to the
    function's types); the engine's refusals as `RunError`."""
    args = coerce_args(fn, arrays)
    try:
        return exe(*args)
    except (SpatialRuntimeError, KernelError) as e:
        raise RunError(str(e)) from None


def execute(
    module: ModuleOp,
    entry: str | None,
    arrays: Sequence[Any],
    *,
    engine: Engine | str = Engine.COMPILED,
    distributed: Distribution | str = Distribution.LOCAL,
    address: str | None = None,
    threads: int = 1,
    kernels: str | None = None,
    verify: bool = True,
    options: RunOptions | None = None,
) -> Execution:
    """Run `entry` on `arrays` with `engine`; the outputs and the traffic of every
    program that ran. `distributed="ray"` runs each chip's programs in a Ray actor (the
    compiled engine; `address`: a Ray cluster to join, else a local instance).
    `threads`, `kernels`: the native engine's OpenMP threads (a program's items at
    once) and kernels. `options`, when given, stands for all four (`RunOptions`).
    `verify=False`: the caller verified the module as it is (`verified`)."""
    if options is None:
        options = RunOptions(
            engine_of(engine),
            threads,
            kernels,
            distributed=distribution_of(distributed),
            address=address,
        )
    if options.distributed is Distribution.RAY:
        with distribute(module, entry, arrays, address=options.address, verify=verify) as chips:
            return chips.call(arrays)
    if options.compiles:
        exe, fn = compiled(module, entry, options, verify)
        return call(exe, fn, arrays)
    fn = verified(module, entry, verify)
    args = coerce_args(fn, arrays)
    try:
        traffic = Traffic()
        with np.errstate(all="ignore"):
            outs = make_interpreter(module, traffic).call_op(fn, tuple(args))
        return Execution(tuple(np.asarray(o) for o in outs), traffic)
    except (SpatialRuntimeError, KernelError) as e:
        raise RunError(str(e)) from None
    except InterpretationError as e:
        raise RunError(str(e).strip()) from None


def run(
    module: ModuleOp, entry: str | None, *arrays: Any, engine: Engine | str = Engine.COMPILED
) -> tuple[np.ndarray, ...]:
    """The outputs of `entry` on `arrays`."""
    return execute(module, entry, arrays, engine=engine).outputs


class Chips:
    """A function lowered over chips, each chip's programs in a Ray actor holding its
    weight shards (`distributed.Distributed`): call it on the activations."""

    def __init__(self, fn: func.FuncOp, chips: Any):
        self.fn = fn
        """Read for the arguments' types and names (as `coerce_args` reads them)."""
        self.chips = chips
        self.inputs: tuple[int, ...] = chips.inputs
        """The arguments each call takes (the others are the weights, bound once)."""

    def __call__(self, *activations: Any) -> Execution:
        """Run on the activations (the arguments `inputs` names, in order)."""
        if len(activations) != len(self.inputs):
            raise RunError(
                f"@{self.fn.sym_name.data} on chips takes {len(self.inputs)} activations "
                f"(arguments {', '.join(map(str, self.inputs))}), got {len(activations)}"
            )
        args = coerce_args(self.fn, activations, self.inputs)
        from xdsl_spatial.interpreters.distributed import DistributedError

        try:
            return self.chips(*args)
        except (DistributedError, SpatialRuntimeError, KernelError) as e:
            raise RunError(str(e)) from None

    def call(self, arrays: Sequence[Any]) -> Execution:
        """Run on all of the function's arguments, taking the activations among them."""
        return self(*(arrays[i] for i in self.inputs))

    def close(self) -> None:
        self.chips.close()

    def __enter__(self) -> Chips:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def distribute(
    module: ModuleOp,
    entry: str | None,
    arrays: Sequence[Any],
    *,
    address: str | None = None,
    verify: bool = True,
) -> Chips:
    """`entry` compiled, its chips' programs each in a Ray actor that holds its weight
    shards, cut from `arrays` (the function's arguments; only the weights are read:
    the arguments no dense op but a chip's cut reads)."""
    from xdsl_spatial.interpreters.distributed import Distributed, DistributedError

    fn = verified(module, entry, verify)
    args = coerce_args(fn, arrays)
    try:
        exe = compile_function(fn)
    except CompileError as e:
        raise RunError(str(e)) from None
    try:
        return Chips(fn, Distributed.make(exe, args, address))
    except (DistributedError, SpatialRuntimeError, KernelError) as e:
        raise RunError(str(e)) from None
