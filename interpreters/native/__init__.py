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

import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType

from xdsl_spatial.core.ir_io import op_location
from xdsl_spatial.core.memory import collector_paused
from xdsl_spatial.core.progress import Progress, quiet
from xdsl_spatial.core.tile_columns import TileColumns
from xdsl_spatial.interpreters.executable import (
    CompileError,
    Executable,
    Execution,
    compile_function,
)
from xdsl_spatial.interpreters.native import jit
from xdsl_spatial.interpreters.native.cache import CACHE_ENV, CompileCache
from xdsl_spatial.interpreters.native.call import Caller, Slot
from xdsl_spatial.interpreters.native.donate import updated_states
from xdsl_spatial.interpreters.native.host import (
    Kernels,
    KernelsError,
    amx_available,
    choose_kernels,
)
from xdsl_spatial.interpreters.native.jit import (
    OPT_LEVEL,
    JitError,
    NativeUnavailable,
    bindings,
    lower_to_llvm,
    pipeline,
)
from xdsl_spatial.interpreters.native.objects import ObjectError, load_object
from xdsl_spatial.interpreters.native.openmp import openmp_runtime
from xdsl_spatial.interpreters.native.prepare import PrepareError, convert, prepare, strips
from xdsl_spatial.interpreters.traffic import ProgramTraffic, Traffic
from xdsl_spatial.interpreters.values import numpy_dtype
from xdsl_spatial.passes.convert_spatial_to_linalg import PlanError

__all__ = [
    "NATIVE_ERRORS",
    "CompileCache",
    "Compiling",
    "JitError",
    "KernelsError",
    "NativeExecutable",
    "NativeUnavailable",
    "PrepareError",
    "bindings",
    "compile_native",
    "start_native",
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
    checks: Executable | None = None
    """The function's `cf.assert`s, run by the compiled engine before each call
    (`asserts.py`): a false one is a `KernelError` naming it, and the code is not run."""

    def __reduce__(self) -> tuple[Any, ...]:
        """A pickle that loads the code from the compile cache again (`restore`): a
        built model kept on disk (`model_cache.py`) holds its functions so."""
        if self.kept is None:
            raise pickle.PicklingError(
                f"@{self.name}'s machine code is in no compile cache ({CACHE_ENV}=off)"
            )
        return (
            restore,
            (
                self.name,
                self.programs,
                self.caller.ins,
                self.caller.outs,
                self.kept,
                self.checks,
                self.caller.states,
            ),
        )

    @property
    def arity(self) -> int:
        return len(self.caller.ins)

    def lay(self, arrays: Sequence[Any], first: int = 0) -> tuple[Any, ...]:
        """`arrays` (one per argument from argument `first` on) with each the code
        reads laid in tile columns (`call.Slot.strip`) laid so once, a `TileColumns`:
        what to pass at every call where the same arrays are passed again and again
        (a model's weights), which a call would otherwise lay anew each time."""
        return tuple(
            TileColumns.lay(a, s.strip) if s.strip and not isinstance(a, TileColumns) else a
            for a, s in zip(arrays, self.caller.ins[first:])
        )

    def __call__(self, *arrays: Any, donate: bool = False) -> Execution:
        """The results of the function on `arrays`. With `donate`, the caller gives
        up the arrays of the states the function updates (`donate.updated_states`: a
        KV cache), and each such result is written into its argument's array, which
        is returned as it, where a new array would be filled with a copy of it first;
        the arrays must share memory with no other argument."""
        if len(arrays) != self.arity:
            raise TypeError(f"@{self.name} takes {self.arity} arguments, got {len(arrays)}")
        arrays = tuple(a if isinstance(a, TileColumns) else np.asarray(a) for a in arrays)
        if self.checks is not None:
            self.checks(*plain_arguments(self.checks, arrays))
        outs = self.caller(arrays, donate)
        return Execution(outs, Traffic.copies(self.programs))


def plain_arguments(checks: Executable, arrays: Sequence[Any]) -> list[Any]:
    """`arrays` as the checks (`asserts.py`) take them: each `TileColumns` laid in
    rows where they read it, else a stand-in of its shape and type (no copy)."""
    read = {i for st in checks.steps for i in st.ins} | set(checks.results)
    return [
        (a.plain() if i in read else np.broadcast_to(np.zeros((), a.dtype), a.shape))
        if isinstance(a, TileColumns)
        else a
        for i, a in enumerate(arrays)
    ]


def restore(
    name: str,
    programs: tuple[ProgramTraffic, ...],
    ins: Sequence[Slot],
    outs: Sequence[Slot],
    kept: tuple[CompileCache, str, int],
    checks: Executable | None = None,
    states: tuple[tuple[int, int], ...] = (),
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
    caller = Caller(image.symbol(f"_mlir_{name}"), ins, outs, states)
    return NativeExecutable(name, programs, image, caller, True, {}, kept, checks)


def compile_native(
    fn: func.FuncOp,
    cache: CompileCache | None = None,
    threads: int = 1,
    kernels: str | None = None,
    progress: Progress | None = None,
) -> NativeExecutable:
    """`fn` (verified, one block, tensors in and out) as machine code for this host,
    from the compile cache (`cache.py`; by default `CompileCache.default()`) when it
    holds it, else compiled and kept there. With `threads` > 1 each program's items
    run on that many OpenMP threads (`openmp.py`; the count checked where it was given,
    `options.RunOptions`). `kernels` names how a Q8_0
    product's sums are laid out (`host.choose_kernels`: by default
    `XDSL_SPATIAL_KERNELS`, else what this CPU has). `progress` is told each step
    (converting, upstream MLIR and LLVM)."""
    return start_native(fn, cache, threads, kernels, progress=progress, background=False).result()


def start_native(
    fn: func.FuncOp,
    cache: CompileCache | None = None,
    threads: int = 1,
    kernels: str | None = None,
    *,
    progress: Progress | None = None,
    background: bool = True,
) -> Compiling:
    """`compile_native` begun: `fn` prepared and converted here, then its machine code
    loaded from the compile cache, or made (and kept there) by another process, `python
    jit.py` (`background`; the bindings hold Python's lock while they compile, so a
    thread would not run beside them), or by this one. `result()` gives the executable,
    waiting for the other process first."""
    say = progress or quiet
    bindings()
    chosen = choose_kernels(kernels)
    runtime = [openmp_runtime()] if threads > 1 else []
    cache = CompileCache.default() if cache is None else cache
    name = fn.sym_name.data
    ins = [_slot(t, f"@{name}'s argument #{i}") for i, t in enumerate(fn.function_type.inputs)]
    outs = [_slot(t, f"@{name}'s result #{i}") for i, t in enumerate(fn.function_type.outputs)]
    seconds: dict[str, float] = {}
    say(f"compiling @{fn.sym_name.data}: outlining its programs into kernels")
    t0 = time.perf_counter()
    with collector_paused():
        prepared = prepare(fn)
        try:
            checks = None if prepared.checks is None else compile_function(prepared.checks)
        except CompileError as e:
            raise PrepareError(f"@{name}'s asserts: {e}") from None
    ins = [replace(s, strip=w) for s, w in zip(ins, strips(prepared, chosen.name))]
    seconds["prepare"] = time.perf_counter() - t0
    steps = pipeline(threads, chosen.x86, chosen.soft_bf16)
    key = cache.key(prepared.source, f"{steps} kernels={chosen.name}")
    kept = (cache, key, threads) if cache.folder is not None else None
    job = Compiling(
        name,
        prepared.programs,
        ins,
        outs,
        cache,
        key,
        seconds,
        kept,
        op_location(fn),
        checks,
        states=updated_states(fn),
    )
    t0 = time.perf_counter()
    image = cache.load(key, job.symbol)
    if image is not None:
        seconds["load"] = time.perf_counter() - t0
        job.done = job.executable(image, True)
        return job
    say(f"compiling @{name}: converting to upstream dialects")
    t0 = time.perf_counter()
    with collector_paused():
        text = convert(prepared, threads > 1, chosen.name)
    seconds["convert"] = time.perf_counter() - t0
    if background:
        job.start(text, threads, chosen, runtime)
        return job
    job.done = job.here(text, threads, chosen, runtime, say)
    return job


@dataclass
class Compiling:
    """A function's machine code on its way (`start_native`): `result()` gives it."""

    name: str
    programs: tuple[ProgramTraffic, ...]
    ins: list[Slot]
    outs: list[Slot]
    cache: CompileCache
    key: str
    seconds: dict[str, float]
    kept: tuple[CompileCache, str, int] | None
    location: object | None = None
    checks: Executable | None = None
    states: tuple[tuple[int, int], ...] = ()
    """The results the code may write over their arguments (`Caller.states`)."""
    done: NativeExecutable | None = None
    process: subprocess.Popen[bytes] | None = None
    folder: tempfile.TemporaryDirectory[str] | None = None
    started: float = 0.0

    @property
    def symbol(self) -> str:
        return f"_mlir_{self.name}"

    def executable(self, code: Any, cached: bool, address: int | None = None) -> NativeExecutable:
        """The executable of `code` (a loaded image, or the JIT's engine at `address`)."""
        where = code.symbol(self.symbol) if address is None else address
        caller = Caller(where, self.ins, self.outs, self.states)
        return NativeExecutable(
            self.name, self.programs, code, caller, cached, self.seconds, self.kept, self.checks
        )

    def refused(self, e: JitError) -> JitError:
        """Upstream's refusal of the converted code, located at the user's function."""
        return JitError(
            f"upstream MLIR refused @{self.name} as converted for it: {e}", self.location
        )

    def here(
        self, text: str, threads: int, chosen: Kernels, runtime: list[str], say: Progress = quiet
    ) -> NativeExecutable:
        """Compiled by this process's JIT, the object kept in the compile cache."""
        _, _, execution_engine = bindings()
        say(f"compiling @{self.name}: upstream MLIR's passes to LLVM")
        t0 = time.perf_counter()
        try:
            module = lower_to_llvm(text, threads, chosen.x86, chosen.soft_bf16)
        except JitError as e:
            raise self.refused(e) from None
        self.seconds["lower"] = time.perf_counter() - t0
        say(f"compiling @{self.name}: LLVM -O{OPT_LEVEL}")
        t0 = time.perf_counter()
        with module.context:
            try:
                engine = execution_engine.ExecutionEngine(
                    module, opt_level=OPT_LEVEL, shared_libs=runtime
                )
            except RuntimeError as e:
                raise JitError(f"@{self.name}: LLVM could not compile it: {e}") from None
            address = engine.raw_lookup(self.name)
        if not address:
            raise JitError(f"@{self.name}: the JIT has no entry point for it")
        self.seconds["jit"] = time.perf_counter() - t0
        if self.cache.folder is not None:
            with tempfile.TemporaryDirectory() as tmp:
                obj = os.path.join(tmp, "code.o")
                engine.dump_to_object_file(obj)
                with open(obj, "rb") as f:
                    self.cache.store(self.key, self.symbol, f.read())
        return self.executable(engine, False, address)

    def start(self, text: str, threads: int, chosen: Kernels, runtime: list[str]) -> None:
        """Hand `text` to another process (`jit.py` run as a script) to compile."""
        self.folder = tempfile.TemporaryDirectory(prefix="xdsl-spatial-jit-")
        where = self.folder.name
        with open(os.path.join(where, "module.mlir"), "w", encoding="utf-8") as f:
            f.write(text)
        request = {
            "name": self.name,
            "threads": threads,
            "x86": chosen.x86,
            "soft_bf16": chosen.soft_bf16,
            "libs": runtime,
        }
        with open(os.path.join(where, "request.json"), "w", encoding="utf-8") as f:
            json.dump(request, f)
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, jit.__file__, where],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def result(self) -> NativeExecutable:
        """The executable, once the other process has made its code (loaded from
        the object it wrote, which the compile cache keeps)."""
        if self.done is not None:
            return self.done
        assert self.process is not None and self.folder is not None
        _, err = self.process.communicate()
        self.seconds["jit"] = time.perf_counter() - self.started  # its passes and LLVM
        try:
            if self.process.returncode:
                why = err.decode(errors="replace").strip().splitlines()
                last = why[-1] if why else f"exit code {self.process.returncode}"
                raise JitError(last.removeprefix("JitError: "))
            with open(os.path.join(self.folder.name, "code.o"), "rb") as f:
                data = f.read()
        finally:
            self.close()
        self.cache.store(self.key, self.symbol, data)
        try:
            image = load_object(data)
        except ObjectError as e:
            raise JitError(f"@{self.name}: cannot load the code it compiled: {e}") from None
        self.done = self.executable(image, False)
        return self.done

    def close(self) -> None:
        """Stop the other process, if it still runs, and remove its files."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None
