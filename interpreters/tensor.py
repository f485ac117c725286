"""
Kernels of the `tensor` dialect: reading an element (`tensor.extract`: one element, or,
inside a `linalg.generic` body, a gather with index arrays), reshapes
(`collapse_shape`, `expand_shape`, `reshape`, `cast`: the row-major order of the
elements is unchanged, so no element moves), slices (`extract_slice`,
`insert_slice`), `concat`, `insert`, `from_elements`, `splat` and `dim`.

A kernel never writes into an operand: `tensor.insert_slice` and `tensor.insert`
return a new array (value semantics), a slice or a reshape may return a view of its
operand. Offsets given as values are checked when the op runs: a slice or an element
outside its tensor is an error naming the op, never numpy's wrap-around or clipping.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from xdsl_spatial.interpreters.kernels import Kernel, KernelError, kernel
from xdsl_spatial.interpreters.values import numpy_dtype


@kernel(tensor.ExtractOp)
def _extract(op: tensor.ExtractOp) -> Kernel:
    """`t[i, j, ...]`; index arrays (from a generic's body) gather all at once. An
    index outside the tensor is an error, not numpy's wrap-around."""
    shape = tuple(cast(TensorType[Any], op.tensor.type).get_shape())
    name = op.name

    def run(args: Any) -> tuple[Any, ...]:
        t, index = args[0], tuple(args[1:])
        for axis, (i, size) in enumerate(zip(index, shape)):
            if isinstance(i, np.ndarray):
                if i.size and (i.min() < 0 or i.max() >= size):
                    bad = i.min() if i.min() < 0 else i.max()
                    raise KernelError(
                        name, f"index {bad} of dimension {axis} is outside 0..{size - 1}"
                    )
            elif not 0 <= i < size:
                raise KernelError(name, f"index {i} of dimension {axis} is outside 0..{size - 1}")
        return (t[index],)

    return run


@kernel(tensor.CollapseShapeOp, tensor.ExpandShapeOp)
def _reshape(op: tensor.CollapseShapeOp | tensor.ExpandShapeOp) -> Kernel:
    t = cast(TensorType[Any], op.result.type)
    shape = tuple(t.get_shape())
    if any(d < 0 for d in shape):
        raise KernelError(op, f"the result has a dynamic shape ({t}); only static shapes run")
    return lambda args: (np.reshape(args[0], shape),)


def _shape(v: SSAValue | Attribute, op: Operation) -> tuple[int, ...]:
    t = v.type if isinstance(v, SSAValue) else v
    if not isinstance(t, TensorType):
        raise KernelError(op, f"expected a tensor, got {t}")
    shape = tuple(cast(TensorType[Any], t).get_shape())
    if any(d < 0 for d in shape):
        raise KernelError(op, f"dynamic shape {t} is not supported")
    return shape


def _dtype(v: SSAValue, op: Operation) -> np.dtype[Any]:
    return numpy_dtype(cast(TensorType[Any], v.type).element_type)


def _mixed(
    static: DenseArrayBase, n_dynamic: int, first: int
) -> tuple[list[int], list[tuple[int, int]]]:
    """The static values, and for each dynamic one (position, operand index)."""
    values = [int(v) for v in static.get_values()]
    dynamic = [i for i, v in enumerate(values) if v == DYNAMIC_INDEX]
    assert len(dynamic) == n_dynamic, "the verifier matches dynamic entries to operands"
    return values, [(pos, first + j) for j, pos in enumerate(dynamic)]


class _Slice:
    """The offsets, sizes and strides of a slice op, resolved against its operands."""

    def __init__(
        self, op: tensor.ExtractSliceOp | tensor.InsertSliceOp, first: int, full: tuple[int, ...]
    ):
        self.op_name = op.name
        self.full = full
        self.offsets, self.dyn_offsets = _mixed(op.static_offsets, len(op.offsets), first)
        first += len(op.offsets)
        self.sizes, dyn_sizes = _mixed(op.static_sizes, len(op.sizes), first)
        first += len(op.sizes)
        self.strides, dyn_strides = _mixed(op.static_strides, len(op.strides), first)
        if dyn_sizes or dyn_strides:
            raise KernelError(op, "dynamic sizes or strides are not supported")
        if len(self.offsets) != len(full):
            raise KernelError(op, f"{len(self.offsets)} offsets for a rank-{len(full)} tensor")
        if any(s <= 0 for s in self.strides):
            raise KernelError(op, f"strides must be positive, got {self.strides}")
        if not self.dyn_offsets:
            self._check(self.offsets)
            self.static = self._index(self.offsets)

    def _check(self, offsets: Sequence[int]) -> None:
        for d, (o, n, s, dim) in enumerate(zip(offsets, self.sizes, self.strides, self.full)):
            if o < 0 or (n > 0 and o + (n - 1) * s >= dim):
                raise KernelError(
                    self.op_name,
                    f"dimension {d}: offset {o}, size {n}, stride {s} leaves the tensor's "
                    f"{dim} elements",
                )

    def _index(self, offsets: Sequence[int]) -> tuple[slice, ...]:
        return tuple(
            slice(o, o + (n - 1) * s + 1, s) for o, n, s in zip(offsets, self.sizes, self.strides)
        )

    def index(self, args: Sequence[Any]) -> tuple[slice, ...]:
        if not self.dyn_offsets:
            return self.static
        offsets = list(self.offsets)
        for pos, i in self.dyn_offsets:
            offsets[pos] = int(args[i])
        self._check(offsets)
        return self._index(offsets)


@kernel(tensor.ExtractSliceOp)
def _extract_slice(op: tensor.ExtractSliceOp) -> Kernel:
    sl = _Slice(op, 1, _shape(op.source, op))
    out = _shape(op.result, op)
    return lambda a: (a[0][sl.index(a)].reshape(out),)


@kernel(tensor.InsertSliceOp)
def _insert_slice(op: tensor.InsertSliceOp) -> Kernel:
    sl = _Slice(op, 2, _shape(op.dest, op))
    # A rank-reduced source fills the slice's shape, its unit dimensions restored.
    block = tuple(sl.sizes)

    def run(a: Sequence[Any]) -> tuple[Any, ...]:
        out = np.array(a[1], copy=True)
        out[sl.index(a)] = np.reshape(a[0], block)
        return (out,)

    return run


def _reshape_kernel(op: Operation, src: SSAValue, res: SSAValue) -> Kernel:
    shape = _shape(res, op)
    if int(np.prod(shape)) != int(np.prod(_shape(src, op))):
        raise KernelError(op, f"{src.type} and {res.type} hold different numbers of elements")
    return lambda a: (np.reshape(a[0], shape),)


@kernel(tensor.CastOp)
def _cast(op: tensor.CastOp) -> Kernel:
    return _reshape_kernel(op, op.source, op.dest)


@kernel(tensor.ReshapeOp)
def _tensor_reshape(op: tensor.ReshapeOp) -> Kernel:
    shape = _shape(op.result, op)
    n = int(np.prod(_shape(op.source, op)))

    def run(a: Sequence[Any]) -> tuple[Any, ...]:
        want = tuple(int(d) for d in np.asarray(a[1]).reshape(-1))
        if want != shape:
            raise KernelError(op, f"the shape operand is {want}, the result type {shape}")
        return (np.reshape(a[0], shape),)

    if int(np.prod(shape)) != n:
        raise KernelError(
            op, f"{op.source.type} and {op.result.type} hold different numbers of elements"
        )
    return run


@kernel(tensor.ConcatOp)
def _concat(op: tensor.ConcatOp) -> Kernel:
    dim = op.dim.value.data
    return lambda a: (np.concatenate(list(a), axis=dim),)


@kernel(tensor.DimOp)
def _dim(op: tensor.DimOp) -> Kernel:
    shape = _shape(op.source, op)
    name = op.name

    def run(a: Sequence[Any]) -> tuple[Any, ...]:
        i = int(a[1])
        if not 0 <= i < len(shape):
            raise KernelError(name, f"dimension {i} of a rank-{len(shape)} tensor")
        return (np.int64(shape[i]),)

    return run


def _check_indices(op: str, shape: tuple[int, ...], idx: Sequence[Any]) -> None:
    for d, (i, n) in enumerate(zip(idx, shape)):
        i = np.asarray(i)
        if i.size and (i.min() < 0 or i.max() >= n):
            bad = int(i.min()) if i.min() < 0 else int(i.max())
            raise KernelError(op, f"index {bad} of dimension {d} is outside 0..{n - 1}")


@kernel(tensor.InsertOp)
def _insert(op: tensor.InsertOp) -> Kernel:
    shape = _shape(op.dest, op)
    name = op.name

    def run(a: Sequence[Any]) -> tuple[Any, ...]:
        idx = a[2:]
        _check_indices(name, shape, idx)
        out = np.array(a[1], copy=True)
        out[tuple(int(i) for i in idx)] = a[0]
        return (out,)

    return run


@kernel(tensor.FromElementsOp)
def _from_elements(op: tensor.FromElementsOp) -> Kernel:
    shape, dt = _shape(op.result, op), _dtype(op.result, op)
    return lambda a: (np.array(list(a), dtype=dt).reshape(shape),)


@kernel(tensor.SplatOp)
def _splat(op: tensor.SplatOp) -> Kernel:
    if op.dynamicSizes:
        raise KernelError(op, "dynamic sizes are not supported")
    shape, dt = _shape(op.result, op), _dtype(op.result, op)
    return lambda a: (np.full(shape, a[0], dtype=dt),)
