"""
The native engine: a function compiled by upstream MLIR and LLVM, run as machine code.

```python
from xdsl_spatial.interpreters.native.compiler import compile_native
exe = compile_native(fn)          # prepare, lower, JIT (or load from the cache)
result = exe(x, q, s)             # .outputs, .traffic, as the other engines give them
```

The package is in two halves. This module is the half that runs: `NativeExecutable`
(the code and how to call it) and `restore` (a pickled one, its code loaded from the
compile cache); with `call.py` (numpy arrays bound to memref descriptors), `cache.py`
(the machine code kept on disk) and `objects.py` (loaded back), it imports nothing of
xDSL, so that a model read from the disk cache starts without the compiler. The other
half makes the code: `compiler.py` (`compile_native`, `start_native`), `prepare.py`
(the function converted to upstream dialects, `convert-spatial-to-linalg` and
`convert-q8-to-linalg`, and outlined into kernels) and `jit.py` (upstream's passes and
the JIT). The traffic of each call is what its programs move, known from the IR
(`counting.program_traffic`), the same numbers the other engines count while they run.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from xdsl_spatial.core.tile_columns import TileColumns
from xdsl_spatial.interpreters.errors import RunError
from xdsl_spatial.interpreters.native.cache import CACHE_ENV, CompileCache
from xdsl_spatial.interpreters.native.call import Caller, Slot
from xdsl_spatial.interpreters.native.host import amx_available
from xdsl_spatial.interpreters.native.jit import NativeUnavailable, bindings
from xdsl_spatial.interpreters.native.objects import ObjectError
from xdsl_spatial.interpreters.native.openmp import openmp_runtime
from xdsl_spatial.interpreters.traffic import Execution, ProgramTraffic, Traffic

if TYPE_CHECKING:
    from xdsl_spatial.interpreters.executable import Executable

__all__ = ["NativeExecutable", "native_available", "plain_arguments", "restore"]


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


def native_available() -> None:
    """Nothing, or `RunError` naming the extra the native engine needs."""
    try:
        bindings()
    except NativeUnavailable as e:
        raise RunError(str(e)) from None
