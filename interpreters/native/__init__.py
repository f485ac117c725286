"""
The native engine: a function compiled by upstream MLIR and LLVM, run as machine code.

```python
exe = compile_native(fn)          # prepare, lower, JIT (or load from the cache)
result = exe(x, q, s)             # .outputs, .traffic, as the other engines give them
```

`prepare.py` converts the function to upstream dialects (`convert-spatial-to-linalg`,
`convert-q8-to-linalg`) and outlines it into kernels; `jit.py` lowers it with
upstream's passes and JITs it; `call.py` binds numpy arrays to memref descriptors;
`cache.py` keeps the machine code on disk and `objects.py` loads it back. The traffic of each call is what its
programs move, known from the IR (`traffic.program_traffic`), the same numbers the
other engines count while they run.
"""

from __future__ import annotations

import gc
import os
import pickle
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType

from xdsl_spatial.interpreters.executable import Execution
from xdsl_spatial.interpreters.native.cache import CACHE_ENV, CompileCache
from xdsl_spatial.interpreters.native.call import Caller, Slot
from xdsl_spatial.interpreters.native.host import KernelsError, amx_available, choose_kernels
from xdsl_spatial.interpreters.native.jit import (
    OPT_LEVEL,
    JitError,
    NativeUnavailable,
    bindings,
    lower_to_llvm,
    pipeline,
)
from xdsl_spatial.interpreters.native.objects import ObjectError
from xdsl_spatial.interpreters.native.openmp import openmp_runtime
from xdsl_spatial.interpreters.native.prepare import PrepareError, convert, prepare
from xdsl_spatial.interpreters.traffic import ProgramTraffic, Traffic
from xdsl_spatial.interpreters.values import numpy_dtype
from xdsl_spatial.passes.convert_spatial_to_linalg import PlanError

__all__ = [
    "NATIVE_ERRORS",
    "CompileCache",
    "JitError",
    "KernelsError",
    "NativeExecutable",
    "NativeUnavailable",
    "PrepareError",
    "bindings",
    "compile_native",
]

NATIVE_ERRORS = (NativeUnavailable, PrepareError, JitError, PlanError, KernelsError)
"""What compiling natively may refuse with: each message names the op or the extra."""


def _slot(t: Any, what: str) -> Slot:
    if not isinstance(t, TensorType):
        raise PrepareError(f"{what} is {t}: the native engine passes tensors only")
    tt = cast(TensorType[Any], t)
    shape = tuple(tt.get_shape())
    if any(d < 0 for d in shape):
        raise PrepareError(f"{what} is {t}: the native engine needs static shapes")
    return Slot(shape, numpy_dtype(tt.element_type))


@dataclass
class NativeExecutable:
    """A function compiled to machine code: call it on arrays of its argument types."""

    name: str
    programs: tuple[ProgramTraffic, ...]
    """The programs a call runs, in order: their traffic (static). Nothing of the IR is
    held: a module that was compiled is freed when it is dropped."""
    code: Any
    """What holds the code: the JIT's `ExecutionEngine`, or the cache's loaded image
    (kept alive while this is)."""
    caller: Caller
    cached: bool = False
    """Whether the code came from the compile cache."""
    seconds: dict[str, float] = field(default_factory=dict)
    """How long each step of compiling took (prepare, lower, jit or load)."""
    kept: tuple[CompileCache, str, int] | None = None
    """Where the compile cache keeps this code (the cache, its key, the threads it was
    compiled for), if it does: what a pickle of this holds in place of the code."""

    def __reduce__(self) -> tuple[Any, ...]:
        """A pickle that loads the code from the compile cache again (`restore`): a
        built model kept on disk (`model_cache.py`) holds its functions so."""
        if self.kept is None:
            raise pickle.PicklingError(
                f"@{self.name}'s machine code is in no compile cache ({CACHE_ENV}=off)"
            )
        return (restore, (self.name, self.programs, self.caller.ins, self.caller.outs, self.kept))

    @property
    def arity(self) -> int:
        return len(self.caller.ins)

    def __call__(self, *arrays: Any) -> Execution:
        if len(arrays) != self.arity:
            raise TypeError(f"@{self.name} takes {self.arity} arguments, got {len(arrays)}")
        outs = self.caller([np.asarray(a) for a in arrays])
        traffic = Traffic([_copy(p) for p in self.programs])
        return Execution(outs, traffic)


def restore(
    name: str,
    programs: tuple[ProgramTraffic, ...],
    ins: Sequence[Slot],
    outs: Sequence[Slot],
    kept: tuple[CompileCache, str, int],
) -> NativeExecutable:
    """A pickled `NativeExecutable`, its code loaded from the compile cache; an
    `ObjectError` when the cache no longer holds it (the pickle's owner builds anew)."""
    cache, key, threads = kept
    bindings()
    if threads > 1:
        openmp_runtime()
    amx_available()  # the tiles' permission, should the code use them
    image = cache.load(key, f"_mlir_{name}")
    if image is None:
        raise ObjectError(f"@{name}'s machine code is no longer in the compile cache")
    return NativeExecutable(
        name, programs, image, Caller(image.symbol(f"_mlir_{name}"), ins, outs), True, {}, kept
    )


def _copy(p: ProgramTraffic) -> ProgramTraffic:
    return p.copy()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic collector off while a step builds many IR objects: its full
    passes walk every object a process holds (a whole model's IR, twice), which made
    preparing SmolLM2's decode step 2-3x slower beside two loaded models."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def compile_native(
    fn: func.FuncOp,
    cache: CompileCache | None = None,
    threads: int = 1,
    kernels: str | None = None,
) -> NativeExecutable:
    """`fn` (verified, one block, tensors in and out) as machine code for this host,
    from the compile cache (`cache.py`; by default `CompileCache.default()`) when it
    holds it, else compiled and kept there. With `threads` > 1 each program's items
    run on that many OpenMP threads (`openmp.py`). `kernels` names how a Q8_0
    product's sums are laid out (`host.choose_kernels`: by default
    `XDSL_SPATIAL_KERNELS`, else what this CPU has)."""
    _, _, execution_engine = bindings()
    chosen = choose_kernels(kernels)
    if threads < 1:
        raise JitError(f"@{fn.sym_name.data}: threads must be at least 1, not {threads}")
    runtime = [openmp_runtime()] if threads > 1 else []
    cache = CompileCache.default() if cache is None else cache
    name = fn.sym_name.data
    ins = [_slot(t, f"@{name}'s argument #{i}") for i, t in enumerate(fn.function_type.inputs)]
    outs = [_slot(t, f"@{name}'s result #{i}") for i, t in enumerate(fn.function_type.outputs)]
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    with collector_paused():
        prepared = prepare(fn)
    seconds["prepare"] = time.perf_counter() - t0
    symbol = f"_mlir_{name}"
    steps = pipeline(threads, chosen.amx)
    key = cache.key(prepared.source, f"{steps} kernels={chosen.name}")
    t0 = time.perf_counter()
    kept = (cache, key, threads) if cache.folder is not None else None
    image = cache.load(key, symbol)
    if image is not None:
        seconds["load"] = time.perf_counter() - t0
        caller = Caller(image.symbol(symbol), ins, outs)
        return NativeExecutable(name, prepared.programs, image, caller, True, seconds, kept)
    t0 = time.perf_counter()
    with collector_paused():
        text = convert(prepared, threads > 1, chosen.amx, chosen.stream)
    seconds["convert"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    module = lower_to_llvm(text, threads, chosen.amx)
    seconds["lower"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    with module.context:
        try:
            engine = execution_engine.ExecutionEngine(
                module, opt_level=OPT_LEVEL, shared_libs=runtime
            )
        except RuntimeError as e:
            raise JitError(f"@{name}: LLVM could not compile it: {e}") from None
        address = engine.raw_lookup(name)
    if not address:
        raise JitError(f"@{name}: the JIT has no entry point for it")
    seconds["jit"] = time.perf_counter() - t0
    if cache.folder is not None:
        with tempfile.TemporaryDirectory() as tmp:
            obj = os.path.join(tmp, "code.o")
            engine.dump_to_object_file(obj)
            with open(obj, "rb") as f:
                cache.store(key, symbol, f.read())
    return NativeExecutable(
        name, prepared.programs, engine, Caller(address, ins, outs), False, seconds, kept
    )
