"""
Calling a JIT-compiled function on numpy arrays: memref descriptors, no copies.

A function with `llvm.emit_c_interface`, bufferized with identity layouts and its
results turned into out-parameters, is called by the JIT's packed wrapper
`_mlir__mlir_ciface_NAME(void **args)`: `args[i]` points at a pointer to argument
`i`'s memref descriptor

    { T *allocated; T *aligned; int64 offset; int64 sizes[rank]; int64 strides[rank] }

(strides in elements), the inputs first, then one descriptor per result, which the
function writes through. Every descriptor lives in one int64 array made once; a call
writes only the data pointers of the arrays that changed since the last call (a
model's weights are the same arrays at every step), so a decode step with ~550
arguments costs microseconds to bind, not a millisecond.

The element type does not matter to a descriptor, only the bytes: bf16 (ml_dtypes)
and i1 (numpy's one-byte bool, as LLVM stores an `i1` in memory) arrays pass as they
are. A scalar argument or result has no descriptor: `prepare` gives the entry
rank-0 memrefs for them (see docs/native.md).
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Slot:
    """One memref argument or result: its shape and element type, fixed by the IR."""

    shape: tuple[int, ...]
    dtype: np.dtype[Any]


def _c_strides(shape: tuple[int, ...]) -> list[int]:
    out = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        out[i] = out[i + 1] * shape[i + 1]
    return out


class Caller:
    """Calls the packed wrapper at `address` with arrays for `ins`, returning new
    arrays for `outs`."""

    def __init__(self, address: int, ins: Sequence[Slot], outs: Sequence[Slot]):
        self.ins = tuple(ins)
        self.outs = tuple(outs)
        slots = (*self.ins, *self.outs)
        self.offsets: list[int] = []
        size = 0
        for s in slots:
            self.offsets.append(size)
            size += 3 + 2 * len(s.shape)
        self.desc = np.zeros(max(size, 1), np.int64)
        for s, off in zip(slots, self.offsets):
            r = len(s.shape)
            self.desc[off + 3 : off + 3 + r] = s.shape
            self.desc[off + 3 + r : off + 3 + 2 * r] = _c_strides(s.shape)
        base = self.desc.ctypes.data
        n = len(slots)
        self.pointers = (ctypes.c_void_p * max(n, 1))(*(base + 8 * off for off in self.offsets))
        self.packed = (ctypes.c_void_p * max(n, 1))(
            *(ctypes.addressof(self.pointers) + 8 * i for i in range(n))
        )
        self.fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)
        self.bound: list[Any] = [None] * n
        """The array each descriptor points at now (kept alive while it does)."""

    def _bind(self, i: int, a: np.ndarray) -> None:
        p = a.ctypes.data
        off = self.offsets[i]
        self.desc[off] = p
        self.desc[off + 1] = p
        self.bound[i] = a

    def __call__(self, arrays: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
        """`arrays` of the inputs' shapes and types (C-contiguous ones are read in
        place, others copied once); the results, freshly allocated."""
        bound = self.bound
        for i, a in enumerate(arrays):
            if a is not bound[i]:
                if not a.flags.c_contiguous:
                    a = np.ascontiguousarray(a)
                self._bind(i, a)
        k = len(self.ins)
        outs = tuple(np.empty(s.shape, s.dtype) for s in self.outs)
        for j, o in enumerate(outs):
            self._bind(k + j, o)
        self.fn(ctypes.addressof(self.packed))
        for j in range(len(outs)):
            bound[k + j] = None
        return outs
