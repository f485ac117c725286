"""
The ops the conversion emits, each inserted by the builder it is given (xDSL's
`Builder`, or the pattern's rewriter): index arithmetic folded where it is constant,
strided views of buffers, fills, copies and the element-wise generics.

```python
b = Builder(InsertPoint.at_end(block))
first = add(b, mul(b, item, 256), 32)        # item * 256 + 32, a constant folded
page = view(b, buffer, first, (32, 256), (256, 1))
copy(b, tensor_view, page)
```
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    f32,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import CopyOp, FillOp, GenericOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import PageType

DYNAMIC = None
"""A dynamic stride or offset in a `StridedLayoutAttr`."""

INDEX = IndexType()

CONTRACT = arith.FastMathFlagsAttr([FastMathFlag.ALLOW_CONTRACT])
"""On a sum's `arith.addf` and the `arith.mulf` whose product it adds: LLVM may fuse
them into one multiply-add (one rounding where there were two, as a MAC unit does;
exact where both were, so integer-exact inputs keep their bits)."""


def inside(block: Block) -> Builder:
    """A builder appending to `block`."""
    return Builder(InsertPoint.at_end(block))


def counted(b: Builder, extent: int, first: int = 0) -> tuple[Builder, SSAValue]:
    """An `scf.for` from `first` to `first + extent` by 1 without results: a builder
    into its body (the caller ends it with `scf.yield`) and its induction variable."""
    blk = Block(arg_types=[INDEX])
    b.insert(scf.ForOp(idx(b, first), idx(b, first + extent), idx(b, 1), [], blk))
    return inside(blk), blk.args[0]


def idx(b: Builder, v: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(v, INDEX))).result


def constant(v: SSAValue) -> int | None:
    """The value of an index constant, or None."""
    if isinstance(v.owner, arith.ConstantOp) and isinstance(v.owner.value, IntegerAttr):
        return v.owner.value.value.data
    return None


def add(b: Builder, x: SSAValue, y: SSAValue | int) -> SSAValue:
    """`x + y`, folded when either is a constant 0 or both are constants."""
    if isinstance(y, SSAValue) and (c := constant(y)) is not None:
        y = c
    if isinstance(y, int):
        if y == 0:
            return x
        if (c := constant(x)) is not None:
            return idx(b, c + y)
        y = idx(b, y)
    elif constant(x) == 0:
        return y
    return b.insert(arith.AddiOp(x, y)).result


def mul(b: Builder, x: SSAValue, c: int) -> SSAValue:
    """`x * c`, folded when `c` is 1 or `x` a constant."""
    if (k := constant(x)) is not None:
        return idx(b, k * c)
    return x if c == 1 else b.insert(arith.MuliOp(x, idx(b, c))).result


def linear(b: Builder, form: LinearForm, values: Sequence[SSAValue]) -> SSAValue:
    """`const + sum(syms[j] * values[j])` as index arithmetic."""
    acc: SSAValue | None = None
    for c, v in zip(form.syms, values):
        if c:
            term = mul(b, v, c)
            acc = term if acc is None else add(b, acc, term)
    if acc is None:
        return idx(b, form.const)
    return add(b, acc, form.const)


def strided_type(elem: Attribute, sizes: Sequence[int], strides: Sequence[int]) -> MemRefType:
    return MemRefType(elem, sizes, StridedLayoutAttr(strides, DYNAMIC))


def view(
    b: Builder,
    mem: SSAValue,
    offset: SSAValue | int,
    sizes: Sequence[int],
    strides: Sequence[int],
) -> SSAValue:
    """Elements `offset + sum(i_k * strides[k])` of `mem` (offset in elements from
    where `mem` starts), as a `sizes` memref over the same storage: a
    `memref.reinterpret_cast` of the buffer `mem` is or views (its offset read from
    the IR when `mem` is a page a loop carries)."""
    t = cast(MemRefType[Attribute], mem.type)
    base, start = storage(b, mem, offset)
    cast_op = memref.ReinterpretCastOp(
        base,
        [start],
        [],
        [],
        [DYNAMIC_INDEX],
        list(sizes),
        list(strides),
        strided_type(t.element_type, sizes, strides),
    )
    return b.insert(cast_op).result


def storage(b: Builder, mem: SSAValue, offset: SSAValue | int) -> tuple[SSAValue, SSAValue]:
    """The buffer `mem` is or views, and where element `offset` of `mem` is in it."""
    t = cast(MemRefType[Attribute], mem.type)
    owner = mem.owner
    if isinstance(owner, memref.ReinterpretCastOp) and len(owner.offsets) == 1:
        return owner.source, add(b, owner.offsets[0], offset)
    if isinstance(t.layout, NoneAttr):
        return mem, offset if isinstance(offset, SSAValue) else idx(b, offset)
    meta = b.insert(memref.ExtractStridedMetaDataOp(mem))
    return meta.base_buffer, add(b, meta.offset, offset)


def dense(b: Builder, mem: SSAValue, offset: int, shape: Sequence[int]) -> SSAValue:
    """`shape` elements of `mem` from `offset` on, row-major (a scratch's view)."""
    return view(b, mem, offset, shape, [math.prod(shape[j + 1 :]) for j in range(len(shape))])


def page_type(tiles: int, elem: Attribute, tile: tuple[int, int]) -> MemRefType:
    """A page: `tile rows x tiles * tile cols`, anywhere in its buffer."""
    w = tiles * tile[1]
    return strided_type(elem, (tile[0], w), (w, 1))


def fill(b: Builder, value: float | int, elem: Attribute, out: SSAValue) -> None:
    attr = (
        IntegerAttr(int(value), elem)
        if isinstance(elem, IntegerType)
        else FloatAttr(float(value), cast(AnyFloat, elem))
    )
    zero = b.insert(arith.ConstantOp(attr)).result
    b.insert(FillOp((zero,), (out,), ()))


def copy(b: Builder, src: SSAValue, dst: SSAValue) -> None:
    b.insert(CopyOp([src], [dst], ()))


def copy_unless_same(b: Builder, src: SSAValue, dst: SSAValue) -> None:
    """`copy`, made only when `dst` is not `src`'s buffer itself: a caller may hand a
    state's own array for its result (the native engine's `donate`), which holds the
    state already."""
    at = [
        b.insert(memref.ExtractAlignedPointerAsIndexOp.get(v)).aligned_pointer for v in (src, dst)
    ]
    apart = b.insert(arith.CmpiOp(at[0], at[1], "ne")).result
    blk = Block()
    b.insert(scf.IfOp(apart, [], [blk]))
    then = inside(blk)
    copy(then, src, dst)
    then.insert(scf.YieldOp())


def dims_map(n: int, picks: Sequence[int]) -> AffineMapAttr:
    """The map from `n` loops to the ones in `picks`."""
    return AffineMapAttr(AffineMap(n, 0, tuple(AffineExpr.dimension(p) for p in picks)))


def element(v: SSAValue) -> Attribute:
    t = v.type
    assert isinstance(t, MemRefType | TensorType | PageType)
    return cast(Attribute, t.element_type)


def drop(v: SSAValue) -> None:
    """Erase the unused op that made `v`."""
    assert not v.uses
    op = cast(Operation, v.owner)
    op.detach()
    op.erase()


def convert(
    b: Builder, src: SSAValue, dst: SSAValue, op: type[arith.ExtFOp] | type[arith.SIToFPOp]
) -> None:
    """`dst = op(src)` element by element: a parallel `linalg.generic`."""
    blk = Block(arg_types=[element(src), f32])
    body = inside(blk)
    body.insert(LinalgYieldOp(body.insert(op(blk.args[0], f32)).result))
    rank = len(cast(MemRefType[Attribute], dst.type).get_shape())
    every = AffineMapAttr(AffineMap.identity(rank))
    b.insert(
        GenericOp([src], [dst], Region(blk), [every, every], [IteratorTypeAttr.parallel()] * rank)
    )


def accumulate(b: Builder, acc: SSAValue, v: SSAValue) -> SSAValue:
    """`acc + v`, a sum's step; the product `v` is, when it is one, fused into the add
    (`CONTRACT`)."""
    if isinstance(acc.type, IntegerType):
        return b.insert(arith.AddiOp(acc, v)).result
    product = v.owner
    if isinstance(product, arith.MulfOp):
        product.fastmath = CONTRACT
        return b.insert(arith.AddfOp(acc, v, CONTRACT)).result
    return b.insert(arith.AddfOp(acc, v)).result
