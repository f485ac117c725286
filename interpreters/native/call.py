"""
Calling a JIT-compiled function on numpy arrays: pointers to their data, no copies.

Every memref at a function boundary has a static shape and the identity layout, so
the pipeline passes it as a bare pointer to its first element
(`use-bare-ptr-memref-call-conv`), and the JIT's packed wrapper
`_mlir_NAME(void **args)` takes, in `args[i]`, the address of argument `i`'s pointer:
the inputs first, then one pointer per result, which the function writes through
(`buffer-results-to-out-params`). The pointers live in one array made once; a call
writes only those of the arrays that changed since the last call (a model's weights
are the same arrays at every step), so binding a decode step's ~550 arguments costs
microseconds.

The element type does not matter to a pointer, only the bytes: bf16 (ml_dtypes) and
i1 (numpy's one-byte bool, as LLVM stores an `i1` in memory) arrays pass as they
are. A scalar argument or result has no pointer: the engine refuses a function that
takes or gives one (see docs/native.md).
"""

from __future__ import annotations

import ctypes
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from xdsl_spatial.core.memory import aligned_empty
from xdsl_spatial.core.tile_columns import TileColumns


@dataclass(frozen=True)
class Slot:
    """One memref argument or result: its shape and element type, fixed by the IR."""

    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    strip: int = 0
    """For an argument the code reads laid in tile columns (`prepare.strips`), their
    width: it is passed a `TileColumns` of that width, or an array laid so at each
    call (a copy). 0: laid in rows."""

    def laid(self, a: Any, what: str) -> np.ndarray:
        """The array whose data a call passes for this argument, given `a`: the data of
        a `TileColumns` of this slot's width, shape and type, or `a` (an array of the
        shape) laid now."""
        if not isinstance(a, TileColumns):
            return TileColumns.lay(a, self.strip).data
        if a.width != self.strip or a.shape != self.shape or a.dtype != self.dtype:
            raise ValueError(
                f"{what} is read laid in tile columns {self.strip} wide as {self.dtype} "
                f"{self.shape}, got tile columns {a.width} wide of {a.dtype} {a.shape}"
            )
        return a.data


class Caller:
    """Calls the packed wrapper at `address` with arrays for `ins`, returning new
    arrays for `outs` (or, donated, the arrays given for the arguments that `states`
    pairs with results)."""

    def __init__(
        self,
        address: int,
        ins: Sequence[Slot],
        outs: Sequence[Slot],
        states: Sequence[tuple[int, int]] = (),
    ):
        self.ins = tuple(ins)
        self.outs = tuple(outs)
        self.states = tuple(states)
        """(result, argument): a result the code may write into its argument's array
        (`donate.updated_states`)."""
        n = len(self.ins) + len(self.outs)
        self.pointers = (ctypes.c_void_p * max(n, 1))()
        base = ctypes.addressof(self.pointers)
        self.packed = (ctypes.c_void_p * max(n, 1))(*(base + 8 * i for i in range(n)))
        self.fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)
        self.bound: list[Any] = [None] * n
        """The array each pointer points into now (kept alive while it does)."""

    def __call__(self, arrays: Sequence[Any], donate: bool = False) -> tuple[np.ndarray, ...]:
        """`arrays` of the inputs' shapes and types (C-contiguous ones are read in
        place, others copied at each call; for an argument read laid in tile columns,
        a `TileColumns`, or an array laid at each call: `Slot.laid`); the results,
        freshly allocated, each starting on a cache line (`memory.aligned_empty`: a
        result is often the next call's input).
        With `donate`, a result `states` pairs with an argument is written into that
        argument's array and returned as it, when the array can take it (writable,
        C-contiguous, the result's shape and type, given for no other argument)."""
        bound, pointers = self.bound, self.pointers
        for i, a in enumerate(arrays):
            if a is not bound[i]:
                strip = self.ins[i].strip
                if strip:
                    data = self.ins[i].laid(a, f"argument #{i}")
                elif isinstance(a, TileColumns):
                    data = a.plain()
                elif not a.flags.c_contiguous:
                    data = np.ascontiguousarray(a)
                else:
                    data = a
                pointers[i] = data.ctypes.data
                # a copy made here is kept alive, and made again at the next call (what
                # it was made from may change); else what was given is bound
                own = data is a or (strip and isinstance(a, TileColumns))
                bound[i] = a if own else data
        k = len(self.ins)
        given = self.donated(arrays) if donate else {}
        outs = tuple(
            given[j] if j in given else aligned_empty(s.shape, s.dtype)
            for j, s in enumerate(self.outs)
        )
        for j, o in enumerate(outs):
            pointers[k + j] = o.ctypes.data
        self.fn(ctypes.addressof(self.packed))
        return outs

    def donated(self, arrays: Sequence[np.ndarray]) -> dict[int, np.ndarray]:
        """The results to write into the arrays given for their arguments."""
        given: dict[int, np.ndarray] = {}
        starts = self.pointers[: len(self.ins)]  # (the arrays' data, set above)
        # How many arguments start at each address, counted once: a count per state
        # (SmolLM2's 60 caches among 550 arguments) took 0.4 ms a step.
        uses = Counter(starts)
        for j, i in self.states:
            a, want = arrays[i], self.outs[j]
            if (
                a is self.bound[i]
                and a.flags.writeable
                and a.shape == want.shape
                and a.dtype == want.dtype
                and uses[starts[i]] == 1
            ):
                given[j] = a
        return given
