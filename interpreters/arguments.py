"""
What a function is given and what it will allocate, checked before it runs.

- `coerce_args(fn, arrays)`: each array as the argument's type takes it. The shape
  must match; an int8 (or other integer) argument takes integer or bool arrays whose
  every value fits, a bool (`i1`) one only 0 and 1; a float argument takes floats
  (float32 for bf16, rounded to nearest-even). Anything else is a `RunError` naming
  the argument. A float argument holding NaN or inf is run (NaN propagation is
  legitimate) after one warning (`warnings.warn`, category `NonFiniteInput`) naming
  it; so is a value the conversion takes beyond the type's range.
- `check_allocations(fn, limit_bytes)`: every tensor the function takes or makes
  (arguments, op results, a program's tensors), and all of them together, fit
  `limit_bytes`, else a `RunError` naming the op (or argument) and the bytes it
  would need.

```python
from xdsl_spatial.interpreters.arguments import check_allocations, coerce_args
check_allocations(fn, 1 << 30)
x, q, s = coerce_args(fn, [x, q, s])
```
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Sequence
from typing import Any, cast

import ml_dtypes
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, TensorType
from xdsl.ir import Attribute, Operation

from xdsl_spatial.core.ir_io import op_location, op_text
from xdsl_spatial.core.memory import format_bytes, limit_text, memory_limit
from xdsl_spatial.dialects.spatial import TensorHandleType
from xdsl_spatial.interpreters.errors import RunError as RunError
from xdsl_spatial.interpreters.values import SpatialRuntimeError, numpy_dtype


class NonFiniteInput(UserWarning):
    """A float argument holds NaN or inf (the run goes on)."""


def arg_name(fn: func.FuncOp, i: int) -> str:
    """`arg1 (%W__q8)`: the argument as `--inputs` keys it, and its name in the IR."""
    a = fn.body.block.args[i]
    return f"arg{i} (%{a.name_hint})" if a.name_hint else f"arg{i}"


ArgKinds = tuple[tuple[tuple[int, ...], np.dtype[Any]] | None, ...]


@functools.lru_cache(maxsize=256)
def _arg_kinds(ft: FunctionType) -> ArgKinds:
    """The shape and numpy type of each argument (None: not a tensor), per function
    type (types are immutable and hashable: the same type, the same kinds)."""
    return tuple(
        (tuple(t.get_shape()), numpy_dtype(t.element_type)) if isinstance(t, TensorType) else None
        for t in ft.inputs.data
    )


def coerce_args(
    fn: func.FuncOp, arrays: Sequence[Any], positions: Sequence[int] | None = None
) -> list[np.ndarray]:
    """Each argument as the function's type takes it: shape and element type checked;
    float32 for a bf16 argument is rounded to bf16 (nearest-even). `positions`: which
    arguments `arrays` are (default: all of them, in order)."""
    kinds = _arg_kinds(cast(FunctionType, fn.properties["function_type"]))
    if positions is None and len(arrays) != len(kinds):
        raise RunError(f"@{fn.sym_name.data} takes {len(kinds)} arguments, got {len(arrays)}")
    at = range(len(kinds)) if positions is None else positions
    out = []
    for i, a in zip(at, arrays):
        kind = kinds[i]
        if kind is None:
            t = fn.function_type.inputs.data[i]
            raise RunError(f"{arg_name(fn, i)}: only tensor arguments are supported, got {t}")
        shape, want = kind
        arr = np.asarray(a)
        if arr.shape != shape:
            raise RunError(
                f"{arg_name(fn, i)} must have shape {'x'.join(map(str, shape))}, got "
                f"{'x'.join(map(str, arr.shape)) or 'a scalar'}"
            )
        got = arr if arr.dtype == want else _as_dtype(arr, want, fn, i)
        if _is_float(want):
            _warn_non_finite(arr, got, fn, i)
        out.append(got)
    return out


_BF16 = np.dtype(ml_dtypes.bfloat16)
_FROM_FLOAT = (np.dtype(np.float32), np.dtype(np.float64))
_EXPONENT_16 = {np.dtype(np.float16): 0x7C00, _BF16: 0x7F80}
"""The exponent bits of the 16-bit floats: all set means inf or NaN."""


def _is_float(d: np.dtype[Any]) -> bool:
    return d.kind == "f" or d == _BF16


def _non_finite(a: np.ndarray) -> np.ndarray | None:
    """Where `a` (a float array) is NaN or inf, or None when it is finite throughout
    (one pass; 16-bit floats read as their bits, which numpy tests faster)."""
    mask = _EXPONENT_16.get(a.dtype)
    if mask is not None:
        bad = (a.view(np.uint16) & mask) == mask
    elif a.dtype.kind == "f":
        bad = ~np.isfinite(a)
    else:
        return None
    return bad if bad.any() else None


def _warn_non_finite(given: np.ndarray, got: np.ndarray, fn: func.FuncOp, i: int) -> None:
    bad = _non_finite(got)
    if bad is None:
        return
    n = int(np.count_nonzero(bad))
    before = _non_finite(given) if given is not got else bad
    made = n - (int(np.count_nonzero(before)) if before is not None else 0)
    what = f"{n:,} of its {got.size:,} values are NaN or inf"
    if made > 0:
        what += f" ({made:,} of them finite values beyond {got.dtype}'s range)"
    warnings.warn(
        f"{arg_name(fn, i)}: {what}; the run goes on and they propagate",
        NonFiniteInput,
        stacklevel=3,
    )


def _as_dtype(arr: np.ndarray, want: np.dtype[Any], fn: func.FuncOp, i: int) -> np.ndarray:
    if want.kind in "iub":
        if arr.dtype.kind not in "iub":
            raise RunError(f"{arg_name(fn, i)} is {want} but the array holds {arr.dtype}")
        lo, hi = (0, 1) if want.kind == "b" else (np.iinfo(want).min, np.iinfo(want).max)
        if arr.size and (arr.min() < lo or arr.max() > hi):
            bad = int(np.count_nonzero((arr < lo) | (arr > hi)))
            raise RunError(
                f"{arg_name(fn, i)} is {'i1 (bool)' if want.kind == 'b' else want} but "
                f"{bad:,} of its {arr.dtype} values leave [{lo}, {hi}] (e.g. "
                f"{arr.min() if arr.min() < lo else arr.max()})"
            )
        return arr.astype(want)
    if _is_float(want):
        if not _is_float(arr.dtype):
            raise RunError(f"{arg_name(fn, i)} is {want} but the array holds {arr.dtype}")
        if want == _BF16 and arr.dtype not in _FROM_FLOAT:
            raise RunError(f"{arg_name(fn, i)} is bf16: give float32 values, got {arr.dtype}")
        with np.errstate(over="ignore", invalid="ignore"):
            return arr.astype(want)
    raise RunError(f"{arg_name(fn, i)}: unsupported element type {want}")


# --------------------------------------------------------------------------------------
# Allocations
# --------------------------------------------------------------------------------------


def _shape_and_type(t: Attribute) -> tuple[tuple[int, ...], Attribute] | None:
    """The static shape and element type of a tensor the interpreter allocates (a
    builtin tensor or a program's `!spatial.tensor`), or None."""
    if isinstance(t, TensorType):
        return tuple(t.get_shape()), t.element_type
    if isinstance(t, TensorHandleType):
        return tuple(d.data for d in t.shape), t.element_type
    return None


def _nbytes(shape: tuple[int, ...], element_type: Attribute) -> int:
    try:
        size = numpy_dtype(element_type).itemsize
    except (SpatialRuntimeError, KeyError):
        size = 8
    return math.prod(shape) * size if -1 not in shape else 0  # dynamic: sized at run time


def _fmt_type(shape: tuple[int, ...], element_type: Attribute) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{element_type}>"


def _too_large(what: str, shape, element_type, need: int, limit: int) -> str:
    return (
        f"{what} {_fmt_type(shape, element_type)} needs {format_bytes(need)}, more than "
        f"{limit_text(limit)}"
    )


def _op_run_error(op: Operation, message: str) -> RunError:
    return RunError(f"'{op.name}' op {message}\n  {op_text(op)}", op_location(op))


def check_allocations(fn: func.FuncOp, limit_bytes: int | None = None) -> None:
    """Refuse, before anything runs, a function whose tensors do not fit
    `limit_bytes` (default: `memory.memory_limit()`, the machine's physical memory):
    an argument or op result larger than the limit, or all of them together (the
    interpreter holds every value until the function returns). The `RunError` names
    the op (or argument) and the bytes it would need."""
    limit = memory_limit() if limit_bytes is None else limit_bytes
    total = 0
    largest: tuple[int, int | Operation, tuple[int, ...], Attribute] | None = None
    for i, t in enumerate(fn.function_type.inputs.data):
        st = _shape_and_type(t)
        if st is not None:
            need = _nbytes(*st)
            if need > limit:
                raise RunError(_too_large(f"{arg_name(fn, i)}:", *st, need, limit))
            total += need
            if largest is None or need > largest[0]:
                largest = (need, i, *st)
    for op in fn.walk():
        for r in op.results:
            st = _shape_and_type(r.type)
            if st is None:
                continue
            need = _nbytes(*st)
            if need > limit:
                raise _op_run_error(op, _too_large("result", *st, need, limit))
            total += need
            if largest is None or need > largest[0]:
                largest = (need, op, *st)
    if total > limit and largest is not None:
        need, what, shape, elem = largest
        if isinstance(what, int):
            where, name = None, f"{arg_name(fn, what)} {_fmt_type(shape, elem)}"
        else:
            where, name = op_location(what), f"'{what.name}' op result {_fmt_type(shape, elem)}"
        raise RunError(
            f"@{fn.sym_name.data} holds {format_bytes(total)} of tensors at once, more "
            f"than {limit_text(limit)}; the largest is {name}"
            + (f" at {where}" if where else "")
            + f", {format_bytes(need)}",
            op_location(fn),
        )
