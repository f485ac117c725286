"""Element types and errors shared by the interpreter's parts."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute

from xdsl_spatial.core.ir_io import dense_array
from xdsl_spatial.interpreters.errors import SpatialRuntimeError as SpatialRuntimeError

_DTYPES: dict[Attribute, np.dtype[Any]] = {}


def numpy_dtype(t: Attribute) -> np.dtype[Any]:
    """The numpy type that holds values of element type `t`."""
    dt = _DTYPES.get(t)
    if dt is None:
        dt = _DTYPES[t] = _numpy_dtype(t)
    return dt


def _numpy_dtype(t: Attribute) -> np.dtype[Any]:
    if isinstance(t, BFloat16Type):
        return np.dtype(ml_dtypes.bfloat16)
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, Float32Type):
        return np.dtype(np.float32)
    if isinstance(t, Float64Type):
        return np.dtype(np.float64)
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    if isinstance(t, IntegerType):
        w = t.width.data
        if w == 1:
            return np.dtype(np.bool_)
        return np.dtype({8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[w])
    raise SpatialRuntimeError(f"no numpy type for {t}")


def dense_values(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """A dense attribute's elements as the numpy array the chip's type holds."""
    dt = numpy_dtype(attr.type.element_type)
    return dense_array(attr).astype(dt, copy=False)


_F16_AS_F32 = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float32)
_F16_AS_F32.flags.writeable = False
"""numpy's f32 value of every f16 bit pattern (256 KiB)."""


def as_f32(a: Any) -> np.ndarray:
    """`np.asarray(a, dtype=np.float32)`. An f16 array is widened by looking its bits up
    in the table of numpy's own conversion of every f16 value: the same bits for every
    input, by construction (tests/test_interpreter.py checks all 65,536), and about
    2.5x faster than numpy's conversion, which widens f16 an element at a time. The
    Q8_0 scales GGUF stores are f16, and a decode step widens 3.6 million of them."""
    if isinstance(a, np.ndarray) and a.dtype == np.float16:
        return np.take(_F16_AS_F32, a.view(np.uint16))
    return np.asarray(a, dtype=np.float32)
