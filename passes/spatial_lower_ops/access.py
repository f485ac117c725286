"""
Where an operand of an op lives on the chip: which 2-d tensor a program reads it from,
and the element's row and column there as linear forms of the op's dims.

The chip stores 2-d tensors. Ops that only rename a layout (`tensor.expand_shape`,
`tensor.collapse_shape`) keep the elements where they are (every ranked tensor is its
elements in row-major order), `linalg.transpose` only renames dims and a static
`tensor.extract_slice` only moves them by its offsets; a program reads
*through* them, from the tensor below (the *root*): a program's 2-d result, or an
argument or host value, which a program reads as the 2-d tensor of its rows (all dims
but the last) and its last dim. Two modes:

- *per dim*: the element's index along each dim of the value, linear in the op's dims
  (what a `linalg.generic`'s indexing map gives; `expand_shape` and `transpose` keep it);
- *linear*: its row-major offset `L` in the root's elements (after a `collapse_shape`,
  whose dims' indices are no longer linear: the row and column are then cut from `L`,
  `row = L div C`, `col = L mod C`, see `axes.cut`).

```mlir
%pairs = tensor.expand_shape %q [[0], [1, 2, 3, 4]] output_shape [1, 3, 3, 32, 2] : tensor<1x576xf32> into tensor<1x3x3x32x2xf32>
```

read at `(d0, d1, d2, d3, 0)` is row `d0`, column `192 d1 + 64 d2 + 2 d3` of `%q`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.linalg.ops import TransposeOp
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineMap

from xdsl_spatial.core.geometry import LinearForm, linear_form


def shape_of(v: SSAValue) -> tuple[int, ...]:
    return tuple(cast(TensorType[Attribute], v.type).get_shape())


def element_of(v: SSAValue) -> Attribute:
    return cast(TensorType[Attribute], v.type).element_type


def row_major(shape: Sequence[int]) -> tuple[int, ...]:
    """The strides of a row-major tensor of `shape`."""
    out, s = [], 1
    for e in reversed(shape):
        out.append(s)
        s *= e
    return tuple(reversed(out))


def chip_shape(shape: Sequence[int]) -> tuple[int, int]:
    """The 2-d tensor the chip holds a tensor of `shape` as: its rows (every dim but
    the last, row-major) and its last dim; a vector is one row."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return 1, shape[0]
    return math.prod(shape[:-1]), shape[-1]


def combine(forms: Sequence[LinearForm], strides: Sequence[int], ndims: int) -> LinearForm:
    """`sum(forms[k] * strides[k])`."""
    const = sum(f.const * s for f, s in zip(forms, strides))
    dims = [0] * ndims
    for f, s in zip(forms, strides):
        for d, c in enumerate(f.dims):
            dims[d] += c * s
    return LinearForm(const, tuple(dims), ())


def map_forms(m: AffineMap) -> list[LinearForm] | None:
    """An indexing map's results as linear forms of its dims (None: one is not)."""
    forms = [linear_form(e, m.num_dims, m.num_symbols) for e in m.results]
    if any(f is None or f.syms for f in forms):
        return None
    return cast(list[LinearForm], forms)


@dataclass(frozen=True)
class Access:
    """An operand read (or the result written) by an op, as the chip addresses it."""

    root: SSAValue | None
    """The tensor the program binds: 2-d, or a tensor `reshaped` to its chip shape
    (None: a result, which the program makes)."""
    dims: tuple[int, int]
    """Its rows and columns on the chip."""
    index: tuple[LinearForm, LinearForm] | None
    """Per dim: (row, column) as forms of the op's dims."""
    offset: LinearForm | None
    """Linear: the row-major offset in the root, cut by `dims[1]` for row and column."""

    @property
    def bound(self) -> SSAValue:
        """The value an input binds (every input's root is one)."""
        assert self.root is not None, "an input's root is a value"
        return self.root

    @property
    def reshaped(self) -> bool:
        """Whether the root is not 2-d: a program reads it through a reshape to `dims`."""
        return self.root is not None and len(shape_of(self.root)) != 2


def _slice_offsets(op: tensor.ExtractSliceOp) -> list[int] | None:
    """A slice's static offsets, when it is read through: static offsets and sizes,
    strides 1, the source's rank (None: it is not)."""
    offsets = list(op.static_offsets.get_values())
    sizes = list(op.static_sizes.get_values())
    strides = list(op.static_strides.get_values())
    if op.offsets or op.sizes or op.strides or any(s != 1 for s in strides):
        return None
    if len(shape_of(op.result)) != len(shape_of(op.source)) or DYNAMIC_INDEX in sizes:
        return None
    return offsets


def resolve(value: SSAValue, index: Sequence[LinearForm], ndims: int) -> Access | str:
    """Where `value`'s element at `index` (forms of the op's `ndims` dims) lives, read
    through the layout-only ops that made `value`; or why it cannot be addressed."""
    per_dim: list[LinearForm] | None = list(index)
    offset: LinearForm | None = None
    v = value
    while True:
        op = v.owner
        shape = shape_of(v)
        if isinstance(op, tensor.ExpandShapeOp):
            if per_dim is not None:
                groups = [[int(i.value.data) for i in g] for g in op.reassociation]
                src: list[LinearForm] = []
                for g in groups:
                    sub = [shape[j] for j in g]
                    src.append(combine([per_dim[j] for j in g], row_major(sub), ndims))
                per_dim = src
            v = op.src
        elif isinstance(op, tensor.CollapseShapeOp):
            if per_dim is not None:
                offset = combine(per_dim, row_major(shape), ndims)
                per_dim = None
            v = op.src
        elif isinstance(op, tensor.ExtractSliceOp):
            at = _slice_offsets(op)
            if at is None:
                return "a slice at run-time offsets, of other strides or of a lower rank"
            if per_dim is None:
                return "a slice of a collapsed tensor is not a linear address"
            per_dim = [
                LinearForm(f.const + o, f.dims, f.syms) for f, o in zip(per_dim, at, strict=True)
            ]
            v = op.source
        elif isinstance(op, TransposeOp) and len(op.inputs) == 1:
            if per_dim is None:
                return "a transpose of a collapsed tensor is not a linear address"
            perm = op.permutation.get_values()
            src = [LinearForm(0, (0,) * ndims, ())] * len(perm)
            for k, p in enumerate(perm):
                src[p] = per_dim[k]
            per_dim = src
            v = op.inputs[0]
        else:
            break
    root_shape = shape_of(v)
    dims = chip_shape(root_shape)
    if per_dim is not None and len(root_shape) == 2:
        return Access(v, dims, (per_dim[0], per_dim[1]), None)
    if per_dim is not None:
        offset = combine(per_dim, row_major(root_shape), ndims)
    assert offset is not None
    return Access(v, dims, None, offset)
