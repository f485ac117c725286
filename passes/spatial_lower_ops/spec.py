"""
What an op computes, in the terms a program is built from (`OpSpec`): its dims and
which are reduced, each operand's access (`access.resolve`), the scalar body a stage
runs, the reduction's combiner and its initial value, and the op's kind. Made from a
`linalg.generic` (`spec_of_generic`) or from an `arith`/`math` op on tensors
(`spec_of_elementwise`); each says why it declines, as a string.

A `linalg.generic` reduction keeps its combiner in its body (`acc + v`, `max(acc, v)`):
the spec splits it into the value `v` a stage yields at every point and the combiner
its reduced axes apply (`sum` in fp32, `max`), so that the chip folds the reduced axis
as it likes. Its initial value, the constant its `outs` are filled with, is applied once
at the end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import auto
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import BODY_OPS
from xdsl_spatial.passes.spatial_lower_ops.access import (
    Access,
    combine,
    map_forms,
    resolve,
    row_major,
    shape_of,
)
from xdsl_spatial.passes.spatial_lower_ops.access import (
    element_of as element_of_value,
)

BODY_TYPES: tuple[type[Operation], ...] = tuple(
    t for t in BODY_OPS if not t.name.startswith("spatial.")
)
"""The scalar ops a stage body runs (the dialect's `BODY_OPS` without its own)."""

EXACT_TYPES: tuple[type[Operation], ...] = tuple(
    t for t in BODY_TYPES if not t.name.startswith("math.")
)
"""Ops every engine and the chip compute to the same bits (IEEE-rounded or exact):
a map of these alone is bit-exact to its source."""


class Combiner(StrEnum):
    """How a reduced axis folds the values a body yields."""

    SUM = auto()
    """Added, in fp32."""
    MAX = auto()
    """Their largest (`arith.maximumf`: a NaN wins)."""


class Kind(StrEnum):
    """What an op is, as the lowering builds it."""

    MAP = auto()
    """Elementwise: every output element from the inputs' elements at its point."""
    COPY = auto()
    """A map that only moves elements (a transpose, a relayout)."""
    REDUCE = auto()
    """A reduction: reduced dims folded by the combiner, an fp32 carry."""
    CONTRACT = auto()
    """A sum of products of two activations (attention's q . k and p . v): a product
    in the target's activation precision, summed in fp32."""


IDENTITY = {Combiner.SUM: 0.0, Combiner.MAX: float("-inf")}


@dataclass
class Body:
    """The scalar body a stage runs: the source's ops (their block arguments are the
    inputs' elements), its `linalg.index` ops (the dims they read) and the value it
    yields at a point (for a reduction, before the combiner)."""

    block: Block
    args: list[SSAValue]
    """What a stage input stands for, in input order: the source block's arguments
    (or, in a gather, the elements its `tensor.extract`s read)."""
    value: SSAValue
    skip: set[Operation] = field(default_factory=set)
    """Ops not copied (the combiner, the terminator)."""
    rounded: dict[SSAValue, Attribute] = field(default_factory=dict)
    """Inputs rounded to a narrower float before use (a contraction's factors)."""
    element: Attribute | None = None
    """The element type it yields, when no op's result says (a body made here)."""

    def index_dims(self) -> set[int]:
        return {int(o.dim.value.data) for o in self.block.ops if isinstance(o, linalg.IndexOp)}

    def exact(self) -> bool:
        """Whether the chip computes it to the source's bits."""
        return not self.rounded and all(
            isinstance(o, (*EXACT_TYPES, linalg.IndexOp, linalg.YieldOp)) or o in self.skip
            for o in self.block.ops
        )

    def emit(self, args: Sequence[SSAValue], index: Callable[[int], SSAValue]) -> SSAValue:
        """The body's ops, made where the implicit builder is, block argument `k` read
        as `args[k]`, a `linalg.index d` as `index(d)`: the value it yields."""
        mapping: dict[SSAValue, SSAValue] = {}
        for a, v in zip(self.args, args):
            if a in self.rounded:
                v = arith.ExtFOp(arith.TruncFOp(v, self.rounded[a]).result, a.type).result
            mapping[a] = v
        for o in self.block.ops:
            if o in self.skip or isinstance(o, linalg.YieldOp):
                continue
            if isinstance(o, linalg.IndexOp):
                mapping[o.result] = index(int(o.dim.value.data))
                continue
            mapping[o.results[0]] = o.clone(value_mapper=mapping).results[0]
        return mapping.get(self.value, self.value)


@dataclass
class OpSpec:
    """An op as a program computes it."""

    op: Operation
    kind: Kind
    extents: tuple[int, ...]
    reduced: frozenset[int]
    ins: list[Access]
    """One per stage input, in the body's argument order."""
    out: Access
    body: Body
    combiner: Combiner | None = None
    init: float | None = None
    """The reduction's initial value (None: the combiner's identity)."""

    @property
    def element(self) -> Attribute:
        """The result's element type."""
        return (
            self.body.element
            if self.body.element is not None
            else element_of_value(self.op.results[0])
        )


def defined_in(v: SSAValue, block: Block) -> bool:
    if isinstance(v, BlockArgument):
        return v.owner is block
    return cast(Operation, v.owner).parent_block() is block


def loop_extents(op: linalg.GenericOp) -> tuple[int, ...] | None:
    """Each dim's extent: the size of an operand dim its map reads it at alone."""
    n = op.indexing_maps.data[0].data.num_dims
    out: list[int | None] = [None] * n
    for v, m in zip((*op.inputs, *op.outputs), op.indexing_maps):
        shape = shape_of(v)
        for k, e in enumerate(m.data.results):
            if isinstance(e, AffineDimExpr) and out[e.position] is None:
                out[e.position] = shape[k]
    if any(e is None for e in out):
        return None
    return tuple(cast(list[int], out))


def fill_value(v: SSAValue) -> float | None:
    """The constant a `linalg.fill` fills `v` with (None: `v` is no such fill)."""
    op = v.owner
    if not isinstance(op, linalg.FillOp) or len(op.inputs) != 1:
        return None
    c = op.inputs[0].owner
    if isinstance(c, arith.ConstantOp) and isinstance(c.value, FloatAttr | IntegerAttr):
        return float(c.value.value.data)
    return None


def masked_term(v: SSAValue, combiner: Combiner = Combiner.SUM) -> tuple[SSAValue, SSAValue] | None:
    """`(ok, term)` when `v` is `select(ok, term, e)`, `e` the `combiner`'s identity
    (`IDENTITY`, its sign too): a term that changes nothing where `ok` fails (+0.0 in
    a sum changes only a -0.0, to +0.0; -inf in a largest, nothing); else None."""
    sel = v.owner
    if not isinstance(sel, arith.SelectOp):
        return None
    c = sel.rhs.owner
    e = IDENTITY[combiner]
    same = (
        isinstance(c, arith.ConstantOp)
        and isinstance(f := c.value, FloatAttr)
        and f.value.data == e
        and math.copysign(1.0, f.value.data) == math.copysign(1.0, e)
    )
    return (sel.cond, sel.lhs) if same else None


def _depends_on(v: SSAValue, arg: BlockArgument) -> bool:
    seen: set[SSAValue] = set()
    stack = [v]
    while stack:
        x = stack.pop()
        if x is arg:
            return True
        if x in seen or isinstance(x, BlockArgument):
            continue
        seen.add(x)
        stack.extend(cast(Operation, x.owner).operands)
    return False


def _combiner(
    block: Block, acc: BlockArgument, kinds: Sequence[str]
) -> tuple[Combiner | None, SSAValue, set[Operation]] | str:
    """(combiner, the value combined, ops not to copy) of a body; why not."""
    y = cast(linalg.YieldOp, block.last_op).operands[0]
    if "reduction" not in kinds:
        if acc.first_use is not None:
            return "the body reads its output's element (an update, not a map)"
        return None, y, set()
    o = y.owner
    table = {arith.AddfOp: Combiner.SUM, arith.MaximumfOp: Combiner.MAX}
    kind = table.get(type(o)) if isinstance(o, Operation) else None
    if kind is None or not isinstance(y.type, Float32Type):
        return "a reduction's body must end in an f32 `arith.addf` or `arith.maximumf` of its accumulator"
    o = cast(Operation, o)
    lhs, rhs = o.operands
    v = rhs if lhs is acc else lhs if rhs is acc else None
    if v is None or sum(1 for _ in acc.uses) != 1 or _depends_on(v, acc):
        return "a reduction's body reads its accumulator elsewhere than in its combiner"
    return kind, v, {o}


def _contraction(body: Body, ins: Sequence[Access], act: Attribute) -> bool:
    """A sum of `a * b` of two distinct inputs (neither an index nor a constant), or
    of `select(ok, a * b, +0.0)` with `ok` read from neither (a batched step's
    attention, summing only the keys a row sees): the factors are rounded to `act`
    when that is narrower than theirs."""
    masked = masked_term(body.value)
    ok, o = (None, body.value.owner) if masked is None else (masked[0], masked[1].owner)
    if not isinstance(o, arith.MulfOp):
        return False
    a, b = o.operands
    if ok is not None and any(isinstance(f, BlockArgument) and _depends_on(ok, f) for f in (a, b)):
        return False
    if not (isinstance(a, BlockArgument) and isinstance(b, BlockArgument)) or a is b:
        return False
    if a.owner is not body.block or b.owner is not body.block:
        return False
    if isinstance(act, AnyFloat) and isinstance(a.type, Float32Type) and act != a.type:
        body.rounded = {a: act, b: act}
    return True


def spec_of_generic(op: linalg.GenericOp, act: Attribute) -> OpSpec | str:
    """The spec of a one-result `linalg.generic` on static tensors; why not."""
    if len(op.outputs) != 1 or len(op.res) != 1:
        return "a generic of one result only"
    types = [v.type for v in (*op.inputs, *op.outputs)]
    if not all(isinstance(t, TensorType) and t.has_static_shape() for t in types):
        return "an operand is no static tensor"
    kinds = [str(k.data) for k in op.iterator_types]
    maps = [m.data for m in op.indexing_maps]
    extents = loop_extents(op)
    if extents is None:
        return "a dim no operand spans alone (its extent is not known)"
    block = op.body.block
    for o in block.ops:
        if not isinstance(o, (*BODY_TYPES, linalg.IndexOp, linalg.YieldOp)):
            return f"its body runs {o.name}, which a stage does not"
        if not all(defined_in(v, block) for v in o.operands):
            return f"its body reads a value from outside ({o.name})"
    nin = len(op.inputs)
    acc = block.args[nin]
    found = _combiner(block, acc, kinds)
    if isinstance(found, str):
        return found
    combiner, value, skip = found
    ndims = len(extents)
    ins: list[Access] = []
    for v, m in zip(op.inputs, maps[:nin]):
        forms = map_forms(m)
        if forms is None:
            return "an indexing map is not linear"
        a = resolve(v, forms, ndims)
        if isinstance(a, str):
            return a
        ins.append(a)
    out_forms = map_forms(maps[nin])
    if out_forms is None:
        return "the output map is not linear"
    out = result_access(shape_of(op.res[0]), out_forms, ndims, read_as(op.res[0]))
    reduced = frozenset(d for d, k in enumerate(kinds) if k == "reduction")
    body = Body(block, list(block.args[:nin]), value, skip)
    init = None
    if combiner is not None:
        init = fill_value(op.outputs[0])
        if init is None:
            return "a reduction's output must start as a linalg.fill of a constant"
        if init == IDENTITY[combiner]:
            init = None
    kind = Kind.MAP
    if combiner is not None:
        kind = Kind.REDUCE
        if combiner == Combiner.SUM and _contraction(body, ins, act):
            kind = Kind.CONTRACT
    elif isinstance(value, BlockArgument) and value.owner is block and not body.index_dims():
        kind = Kind.COPY
    return OpSpec(op, kind, extents, reduced, ins, out, body, combiner, init)


def read_as(v: SSAValue) -> list[tuple[int, int]]:
    """The 2-d shapes `v`'s readers reshape it to (through reshapes only)."""
    out: list[tuple[int, int]] = []
    todo = [v]
    while todo:
        x = todo.pop()
        for u in x.uses:
            o = u.operation
            if isinstance(o, tensor.ExpandShapeOp | tensor.CollapseShapeOp):
                shape = shape_of(o.results[0])
                if len(shape) == 2:
                    out.append((shape[0], shape[1]))
                todo.append(o.results[0])
    return out


def output_shape(shape: Sequence[int], wanted: Sequence[tuple[int, int]] = ()) -> tuple[int, int]:
    """The 2-d tensor a program writes a result of `shape` as: the first of `wanted`
    (the 2-d shapes its readers reshape it to) that cuts it after a run of trailing
    dims, else its row-major elements cut after the shortest run of trailing dims at
    least a tile wide (so that a result laid out (..., 32, 2) is 64 columns wide, not
    2), else one row."""
    total = 1
    for e in shape:
        total *= e
    trailing = {1}
    width = 1
    for e in reversed(shape):
        width *= e
        trailing.add(width)
    for r, c in wanted:
        if r * c == total and c in trailing:
            return r, c
    width = 1
    for e in reversed(shape):
        width *= e
        if width >= 32:
            return total // width, width
    return 1, total


def result_access(
    shape: Sequence[int],
    index: Sequence[LinearForm],
    ndims: int,
    wanted: Sequence[tuple[int, int]] = (),
) -> Access:
    """Where the program writes a result of `shape`'s element at `index`: its 2-d
    result, the elements in row-major order cut at `output_shape`."""
    dims = output_shape(shape, wanted)
    if len(shape) == 2 and dims == tuple(shape):
        return Access(None, dims, (index[0], index[1]), None)
    return Access(None, dims, None, combine(index, row_major(shape), ndims))


ELEMENTWISE: tuple[type[Operation], ...] = tuple(
    t
    for t in BODY_TYPES
    if t not in (arith.ConstantOp, arith.SelectOp, arith.CmpiOp, arith.CmpfOp, arith.IndexCastOp)
)
"""The `arith` and `math` ops lowered when they act on whole tensors."""


def spec_of_elementwise(op: Operation) -> OpSpec | str:
    """The spec of an `arith`/`math` op on static tensors of one shape, as the map
    that applies it to every element."""
    types = [v.type for v in (*op.operands, *op.results)]
    if len(op.results) != 1 or not all(
        isinstance(t, TensorType) and t.has_static_shape() for t in types
    ):
        return "not an op on static tensors"
    shape = shape_of(op.results[0])
    if any(shape_of(v) != shape for v in op.operands):
        return "operands of different shapes"
    ndims = len(shape)
    ident = [
        LinearForm(0, tuple(1 if j == d else 0 for j in range(ndims)), ()) for d in range(ndims)
    ]
    ins: list[Access] = []
    for v in op.operands:
        a = resolve(v, ident, ndims)
        if isinstance(a, str):
            return a
        ins.append(a)
    elems = [cast(TensorType[Attribute], v.type).element_type for v in op.operands]
    block = Block(arg_types=elems)
    scalar = type(op).create(
        operands=list(block.args),
        result_types=[cast(TensorType[Attribute], op.results[0].type).element_type],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    block.add_op(scalar)
    block.add_op(linalg.YieldOp(scalar.results[0]))
    body = Body(block, list(block.args), scalar.results[0])
    out = result_access(shape, ident, ndims, read_as(op.results[0]))
    return OpSpec(op, Kind.MAP, tuple(shape), frozenset(), ins, out, body)


def synthetic(
    arg_types: Sequence[Attribute],
    element: Attribute,
    build: Callable[[Sequence[SSAValue], Callable[[int], SSAValue]], SSAValue],
) -> Body:
    """A body made here rather than read from an op: `build(args, index)` makes its
    ops (`index(d)`, the index along dim `d`) and gives the value it yields."""
    from xdsl.builder import ImplicitBuilder

    block = Block(arg_types=arg_types)
    with ImplicitBuilder(block):
        value = build(block.args, lambda d: linalg.IndexOp(d).result)
        linalg.YieldOp(value)
    return Body(block, list(block.args), value, element=element)


def spec_of_transpose(op: linalg.TransposeOp) -> OpSpec | str:
    """The spec of a `linalg.transpose` whose result something on the host still reads:
    a copy (a view program) of its input to its result's layout."""
    if len(op.inputs) != 1 or not op.res:
        return "a transpose of one tensor into one result"
    shape = shape_of(op.res[0])
    ndims = len(shape)
    perm = op.permutation.get_values()
    unit = [
        LinearForm(0, tuple(1 if j == d else 0 for j in range(ndims)), ()) for d in range(ndims)
    ]
    index = [unit[0]] * ndims
    for i, p in enumerate(perm):
        index[p] = unit[i]
    src = resolve(op.inputs[0], index, ndims)
    if isinstance(src, str):
        return src
    elem = element_of_value(op.res[0])
    body = synthetic([elem], elem, lambda args, _: args[0])
    out = result_access(shape, unit, ndims, read_as(op.res[0]))
    return OpSpec(op, Kind.COPY, tuple(shape), frozenset(), [src], out, body)


def index_value(terms: Sequence[tuple[SSAValue, int]]) -> SSAValue:
    """`sum(scale * v)` of index values, in `index` arithmetic (0 for none), made where
    the implicit builder is."""
    acc: SSAValue | None = None
    for v, scale in terms:
        if scale != 1:
            c = arith.ConstantOp(IntegerAttr(scale, IndexType())).result
            v = arith.MuliOp(v, c).result
        acc = v if acc is None else arith.AddiOp(acc, v).result
    if acc is None:
        acc = arith.ConstantOp(IntegerAttr(0, IndexType())).result
    return acc
