"""
The native engine's compile half: a function (verified, one block, tensors in and out)
prepared and converted here (`prepare.py`), then its machine code loaded from the
compile cache or made by upstream MLIR and LLVM (`jit.py`), in this process or in
another one while this one goes on. What it makes is a `NativeExecutable` (the
package's run-time half, `__init__.py`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from typing import Any, cast

from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType

from xdsl_spatial.core.ir_io import op_location
from xdsl_spatial.core.memory import collector_paused
from xdsl_spatial.core.progress import Progress, quiet
from xdsl_spatial.interpreters.executable import CompileError, Executable, compile_function
from xdsl_spatial.interpreters.native import NativeExecutable, jit
from xdsl_spatial.interpreters.native.cache import CompileCache
from xdsl_spatial.interpreters.native.call import Caller, Slot
from xdsl_spatial.interpreters.native.donate import updated_states
from xdsl_spatial.interpreters.native.host import Kernels, KernelsError, choose_kernels
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
from xdsl_spatial.interpreters.traffic import ProgramTraffic
from xdsl_spatial.interpreters.values import numpy_dtype
from xdsl_spatial.passes.convert_spatial_to_linalg import PlanError

__all__ = [
    "NATIVE_ERRORS",
    "Compiling",
    "JitError",
    "KernelsError",
    "NativeUnavailable",
    "PrepareError",
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
