"""
The few things every builder of the model's functions needs from xDSL: one function's
block with fresh value names (`Func`), one-result `linalg.generic`s built from a body
function (`Func.generic`), shared constants, empty and filled tensors, and the types
and maps those take.

```python
f = Func([("x", ty((4, 8), "f32"))])
y = f.generic("y", 2, (), [In(f.args["x"], amap(2, [0, 1]))],
              (f.empty((4, 8), "f32"), [0, 1]), lambda a: arith.NegfOp(a[0]).result)
```
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.builder import Builder, ImplicitBuilder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    f32,
    i8,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint

ELEMENTS: dict[str, Attribute] = {
    "f32": f32,
    "f16": Float16Type(),
    "bf16": BFloat16Type(),
    "i8": i8,
    "i32": i32,
}
"""The element types the model's tensors have, by name."""


def ty(shape: Sequence[int], elem: str) -> TensorType[Attribute]:
    return TensorType(ELEMENTS[elem], shape)


def amap(n: int, results: Iterable[int | str]) -> AffineMapAttr:
    """The map from `n` dimensions to `results`: a dimension's index, or a constant
    given as a string ("0")."""
    exprs = [
        AffineExpr.constant(int(r)) if isinstance(r, str) else AffineExpr.dimension(r)
        for r in results
    ]
    return AffineMapAttr(AffineMap(n, 0, tuple(exprs)))


def as_f32(v: float) -> float:
    """`v` as an f32 constant holds it: rounded to f32, then to the 10 digits that
    name that f32 (the value the IR has always carried)."""
    return float(f"{float(np.float32(v)):.9e}")


def reassociation(groups: Sequence[Sequence[int]]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def collapse(
    x: SSAValue, groups: Sequence[Sequence[int]], shape: Sequence[int], elem: str = "f32"
) -> Operation:
    return tensor.CollapseShapeOp(
        operands=[x],
        result_types=[ty(shape, elem)],
        properties={"reassociation": reassociation(groups)},
    )


def expand(
    x: SSAValue, groups: Sequence[Sequence[int]], shape: Sequence[int], elem: str = "f32"
) -> Operation:
    return tensor.ExpandShapeOp(x, [], reassociation(groups), list(shape), ty(shape, elem))


Body = Callable[[list[SSAValue]], SSAValue]
"""A generic's body: given its block arguments (the inputs' elements, then the
accumulator), builds its ops and returns the value it yields."""


@dataclass
class In:
    """A generic's input: the value and its indexing map."""

    value: SSAValue
    map: AffineMapAttr


def index(dim: int) -> SSAValue:
    """Inside a generic body: the iteration index of dimension `dim`."""
    return IndexOp(dim).result


def const_index(v: int) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(v, IndexType())).result


def const_f32(v: float) -> SSAValue:
    return arith.ConstantOp(FloatAttr(v, f32)).result


class Func:
    """The ops of one function, appended to its block, with fresh value names and one
    constant, zero or empty tensor per shape however often it is used."""

    def __init__(self, params: Sequence[tuple[str, TensorType[Attribute]]]) -> None:
        self.block = Block(arg_types=[t for _, t in params])
        self.args: dict[str, SSAValue] = {}
        for (name, _), arg in zip(params, self.block.args):
            arg.name_hint = name
            self.args[name] = arg
        self.builder = Builder(InsertPoint.at_end(self.block))
        self.used: set[str] = set(self.args)
        self.shared: dict[tuple[Any, ...], SSAValue] = {}

    def fresh(self, hint: str) -> str:
        name, i = hint, 0
        while name in self.used:
            i += 1
            name = f"{hint}.{i}"
        self.used.add(name)
        return name

    def op(self, hint: str, op: Operation) -> SSAValue:
        """`op` appended, its result named after `hint`."""
        self.builder.insert(op)
        v = op.results[0]
        v.name_hint = self.fresh(hint)
        return v

    def const(
        self, key: Any, value: IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr
    ) -> SSAValue:
        if ("const", key) not in self.shared:
            self.shared[("const", key)] = self.op("c", arith.ConstantOp(value))
        return self.shared[("const", key)]

    def empty(self, shape: Sequence[int], elem: str) -> SSAValue:
        key = ("empty", tuple(shape), elem)
        if key not in self.shared:
            self.shared[key] = self.op("empty", tensor.EmptyOp([], ty(shape, elem)))
        return self.shared[key]

    def filled(self, shape: Sequence[int], value: float, hint: str = "zero") -> SSAValue:
        key = ("fill", tuple(shape), value)
        if key not in self.shared:
            c = self.const(("f32", value), FloatAttr(value, f32))
            e = self.empty(shape, "f32")
            self.shared[key] = self.op(hint, FillOp((c,), (e,), (e.type,)))
        return self.shared[key]

    def generic(
        self,
        hint: str,
        n_dims: int,
        reduce: Sequence[int],
        ins: Sequence[In],
        out: tuple[SSAValue, Sequence[int]],
        body: Body,
    ) -> SSAValue:
        """A one-result `linalg.generic`: `out` is (init value, result map's
        dimensions); `body` builds its body's ops (named b1, b2, ... in order)."""
        init, out_map = out
        elems = [
            cast(TensorType[Attribute], v.type).element_type
            for v in (*(i.value for i in ins), init)
        ]
        block = Block(arg_types=elems)
        for i, a in enumerate(block.args):
            a.name_hint = f"a{i}" if i < len(ins) else "acc"
        with ImplicitBuilder(block):
            YieldOp(body(list(block.args)))
        for i, op in enumerate(list(block.ops)[:-1]):
            op.results[0].name_hint = f"b{i + 1}"
        iterators = [
            IteratorTypeAttr.reduction() if d in reduce else IteratorTypeAttr.parallel()
            for d in range(n_dims)
        ]
        return self.op(
            hint,
            GenericOp(
                [i.value for i in ins],
                [init],
                Region(block),
                [i.map for i in ins] + [amap(n_dims, out_map)],
                iterators,
                [init.type],
            ),
        )
