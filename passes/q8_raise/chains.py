"""
q8-raise: a Q8_0 weight dequantised by a chain of ops, as torch-mlir exports a
weight-only linear written in PyTorch.

```python
w = (q.reshape(N, K // 32, 32).float() * s.float().unsqueeze(-1)).reshape(N, K)
y = x @ w.t()
```

becomes, in torch-mlir's `linalg-on-tensors` output, each step an op of its own:

```mlir
%e = tensor.expand_shape %q [[0], [1, 2]] output_shape [N, G, 32] : tensor<NxKxi8> into tensor<NxGx32xi8>
%f = linalg.generic {...["parallel", "parallel", "parallel"]} ins(%e) ... { arith.sitofp }
%g = linalg.generic {...["parallel", "parallel"]} ins(%s : tensor<NxGxf16>) ... { arith.extf }
%h = tensor.expand_shape %g [[0], [1, 2]] output_shape [N, G, 1] : ... into tensor<NxGx1xf32>
%m = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d1, d2), (d0, d1, d2) -> (d0, d1, 0), ...]}
       ins(%f, %h) ... { arith.mulf }
%c = tensor.collapse_shape %m [[0], [1, 2]] : tensor<NxGx32xf32> into tensor<NxKxf32>
%t = linalg.transpose ins(%c) ... permutation = [1, 0]
%y = linalg.matmul ins(%x, %t : ...)                 // or linalg.batch_matmul of a [1, K, N] weight
```

The chain is read backwards from the product's weight operand: reshapes and
transposes (`collapse_shape`, `expand_shape`, `linalg.transpose`) down to the
multiply; from each of its two inputs, elementwise cast generics and one reshape down
to a tensor: the values (signed `i8`, converted by `sitofp`, an `extsi` first
allowed) and the scales (f32, or f16/bf16 widened by `extf`), in either order. The
multiply's own maps say which axis is N, which the block of 32 and which the lane
(`dequant.layout_roles`, the rule the fused forms follow), and the reshapes carry
those roles to the two source tensors and to the product's weight operand, which
must be K x N (after the transposes) with K the axis the product contracts. The
sources become a `Dequant` with the roles of the tensors as stored (N x K for
PyTorch's layout), raised as every other form is (`build.raise_weight`).

Three more steps are followed, as torch-mlir writes them for other spellings:

- a scale repeated along its block by a broadcasting generic (a body of one
  `linalg.yield` of its input, reading it without the lane loop) and flattened to
  N x K by a `collapse_shape`: `s.repeat_interleave(32, -1)`; the multiply reads it
  per element, and the scale's map over the multiply's loops is the composition of
  the three (`(n, k) -> (n, k floordiv 32)`, `_through_broadcast`);
- a zero point subtracted from the values by a generic of its own (`arith.subf`, as
  torchao's weight-only int8 writes even its symmetric groups): raised only when the
  zero point is a constant whose elements are all zero (proven by reading them), since
  then `q - 0` is `q` exactly;
- an `arith.extf` of either factor inside the multiply's own body (torch-mlir puts an
  f16 or bf16 scale's there).

Anything else is declined with the reason: unsigned values (`uitofp`), a zero point
that is not all zeros or cannot be read, groups of 64 or 16, one scale per row, a
scale read per element, a scale that is computed rather than read, a reshape that
splits K's blocks, a weight rounded to f16 or bf16 after the multiply.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp, TransposeOp, YieldOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from xdsl_spatial.dialects.linalg_extra import BatchMatmulOp
from xdsl_spatial.dialects.spatial import element_name
from xdsl_spatial.passes.q8_raise.build import constant_array
from xdsl_spatial.passes.q8_raise.dequant import (
    BLOCK,
    GROUP,
    LANE,
    UNIT,
    Dequant,
    K,
    N,
    _elem,
    is_dequant_candidate,
    layout_roles,
)

_CASTS = (
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.ExtFOp,
    arith.TruncFOp,
)
"""Body ops of an elementwise cast generic."""


@dataclass(frozen=True)
class Chain:
    """A weight operand proven Q8_0 through a chain of ops."""

    dequant: Dequant
    """The values and scales as stored, with their axes' roles; `op` is the multiply."""
    roles: tuple[str, ...]
    """The role of each axis of the product's weight operand (K, N, or UNIT)."""
    ops: tuple[Operation, ...]
    """Every op of the chain, from the product's side to the sources."""


def cast_generic(op: object) -> tuple[SSAValue, list[Operation]] | None:
    """An all-parallel generic of one input and one output, both read as they are,
    whose body only converts the element: its input and the body's ops."""
    if not (isinstance(op, GenericOp) and len(op.inputs) == 1 and len(op.outputs) == 1):
        return None
    if any(it.data != IteratorType.PARALLEL for it in op.iterator_types):
        return None
    maps = [m.data for m in op.indexing_maps]
    if any(m != AffineMap.identity(m.num_dims) for m in maps):
        return None
    body = [o for o in op.body.block.ops if not isinstance(o, YieldOp)]
    if not body or not all(isinstance(o, _CASTS) for o in body):
        return None
    return op.inputs[0], body


def _binary_generic(
    op: object, kind: type[Operation]
) -> tuple[GenericOp, Operation, dict[int, arith.ExtFOp]] | None:
    """An all-parallel generic of two inputs whose body is one `kind` op (`arith.mulf`,
    `arith.subf`) of them, either optionally widened by an `arith.extf` in the body:
    the generic, the op, and the body's `extf` of each widened input."""
    if not (isinstance(op, GenericOp) and len(op.inputs) == 2 and len(op.outputs) == 1):
        return None
    if any(it.data != IteratorType.PARALLEL for it in op.iterator_types):
        return None
    body = op.body.block
    ops = list(body.ops)
    if len(ops) < 2 or not isinstance(ops[-1], YieldOp) or not isinstance(ops[-2], kind):
        return None
    main = ops[-2]
    if ops[-1].operands[0] is not main.results[0]:
        return None
    widened: dict[int, arith.ExtFOp] = {}
    for o in ops[:-2]:
        if not (isinstance(o, arith.ExtFOp) and o.input in body.args[:2]):
            return None
        widened[cast(BlockArgument, o.input).index] = o
    read = []
    for v in main.operands:
        o = v.owner
        base = o.input if isinstance(o, arith.ExtFOp) and o in widened.values() else v
        if not (isinstance(base, BlockArgument) and base.block is body and base.index < 2):
            return None
        read.append(base.index)
    if sorted(read) != [0, 1] or len(widened) != len(ops) - 2:
        return None
    return op, main, widened


def _input_index(op: GenericOp, v: SSAValue) -> int:
    """The input a body value of `_binary_generic`'s op reads (through its `extf`)."""
    if isinstance(v.owner, arith.ExtFOp):
        v = v.owner.input
    return cast(BlockArgument, v).index


def _broadcast_generic(op: object) -> GenericOp | None:
    """An all-parallel generic that only repeats its input along the loops its input map
    leaves out (a body of one `linalg.yield` of the input, the output read as it is):
    how torch-mlir writes `repeat_interleave` or `expand`."""
    if not (isinstance(op, GenericOp) and len(op.inputs) == 1 and len(op.outputs) == 1):
        return None
    if any(it.data != IteratorType.PARALLEL for it in op.iterator_types):
        return None
    in_map, out_map = (m.data for m in op.indexing_maps)
    if out_map != AffineMap.identity(out_map.num_dims) or in_map == out_map:
        return None
    if not all(isinstance(e, AffineDimExpr | AffineConstantExpr) for e in in_map.results):
        return None
    ops = list(op.body.block.ops)
    if len(ops) != 1 or ops[0].operands[0] is not op.body.block.args[0]:
        return None
    return op


@dataclass
class _Side:
    """One input of the multiply traced to its source tensor."""

    source: SSAValue
    casts: list[Operation]
    """The body ops converting the element, source side first."""
    reshape: tensor.ExpandShapeOp | tensor.CollapseShapeOp | None
    ops: list[Operation]
    offset: GenericOp | None = None
    """A generic on the way subtracts something from it (a zero point)."""
    zero_point: SSAValue | None = None
    """What `offset` subtracts, when it is a zero point of the values."""
    broadcast: GenericOp | None = None
    """A generic repeating it along K, between `reshape` (if any) and the casts."""


def _trace(v: SSAValue) -> _Side:
    """Back from a multiply's input through cast generics, at most one reshape, a
    generic that subtracts (a zero point, recorded for the caller to prove zero) and a
    broadcasting generic (recorded to be composed into the scale's map)."""
    side = _Side(v, [], None, [])
    while True:
        o = v.owner
        found = cast_generic(o)
        if found is not None:
            v, body = found
            side.casts = body + side.casts
            side.ops.append(cast(Operation, o))
        elif (
            isinstance(o, tensor.ExpandShapeOp | tensor.CollapseShapeOp)
            and side.reshape is None
            and side.broadcast is None
        ):
            side.reshape = o
            side.ops.append(o)
            v = o.src
        elif (sub := _binary_generic(o, arith.SubfOp)) is not None and side.offset is None:
            gen, op, widened = sub
            side.offset = gen
            side.ops.append(gen)
            q, z = (_input_index(gen, x) for x in op.operands)
            side.zero_point = gen.inputs[z]
            side.casts = ([widened[q]] if q in widened else []) + side.casts
            v = gen.inputs[q]
        elif (bc := _broadcast_generic(o)) is not None and side.broadcast is None:
            side.broadcast = bc
            side.ops.append(bc)
            v = bc.inputs[0]
        elif isinstance(o, GenericOp) and o.inputs and _subtracts(o):
            side.offset = o
            side.ops.append(o)
            v = o.inputs[0]
        else:
            side.source = v
            return side


def _subtracts(op: GenericOp) -> bool:
    return any(isinstance(o, arith.SubfOp | arith.SubiOp) for o in op.body.block.ops)


def _zero_point(side: _Side, ctx: Context | None) -> str | None:
    """Why the zero point the values side subtracts is not proven all zeros (None: it
    is, so `q - z` is `q` exactly); its ops are added to the side's."""
    if side.zero_point is None:
        return "the values are offset by a zero point (arith.subf); Q8_0 has none"
    zp = _trace(side.zero_point)
    if zp.offset is not None:
        return "the values are offset by a computed zero point (arith.subf); Q8_0 has none"
    values = constant_array(zp.source, ctx)
    if values is None:
        what = (
            f"computed by {zp.source.owner.name}"
            if isinstance(zp.source.owner, Operation)
            else "that is a function argument"
        )
        return (
            f"the values are offset by a zero point (arith.subf) {what}; Q8_0 has none, "
            "and only a constant zero point can be proven all zeros"
        )
    if values.any():
        return "the values are offset by a zero point that is not all zeros (arith.subf); Q8_0 has none"
    side.ops += zp.ops
    return None


def _values_side(side: _Side) -> str | None:
    """Why the traced input is not Q8_0 values (None: it is)."""
    names = [o.name for o in side.casts]
    if any(isinstance(o, arith.UIToFPOp | arith.ExtUIOp) for o in side.casts):
        kind = ", ".join(n for n in names if n in ("arith.extui", "arith.uitofp"))
        return f"the values are read as unsigned ({kind}); Q8_0 values are signed int8"
    t = _elem(side.source)
    if not (isinstance(t, IntegerType) and t.width.data == 8):
        return f"the values are {element_name(t)}; Q8_0 stores signed i8"
    first_float = next((i for i, o in enumerate(side.casts) if isinstance(o, arith.SIToFPOp)), None)
    if first_float is None or any(
        not isinstance(o, arith.ExtSIOp) for o in side.casts[:first_float]
    ):
        return f"the values reach the multiply through {', '.join(names) or 'no conversion'}"
    if any(not isinstance(o, arith.ExtFOp) for o in side.casts[first_float + 1 :]):
        return f"the converted values are rounded ({', '.join(names)}) before the multiply"
    return None


def _scales_side(side: _Side) -> str | None:
    t = _elem(side.source)
    if not isinstance(t, Float32Type | Float16Type | BFloat16Type):
        return f"the scales are {element_name(t)}; f32, f16 or bf16 expected"
    if side.offset is not None:
        return "the scale is computed (arith.subf), not read from a tensor"
    if any(isinstance(o, arith.TruncFOp) for o in side.casts):
        return "the scale is rounded (arith.truncf) before the multiply"
    if any(not isinstance(o, arith.ExtFOp) for o in side.casts):
        return "the scales reach the multiply through integer conversions"
    return None


def _source_roles(side: _Side, roles: Sequence[str]) -> tuple[str, ...] | str:
    """The roles of the source tensor's axes, from those of the multiply's input
    (`roles`) through the side's reshape: an axis expanded into a group and its lanes
    is K; size-1 axes are dropped or added."""
    r = side.reshape
    if r is None:
        return tuple(roles)
    groups = [[int(i.value.data) for i in g] for g in r.reassociation]
    out: list[str] = []
    if isinstance(r, tensor.ExpandShapeOp):
        # source axis i became the input's axes groups[i]
        for g in groups:
            kinds = [roles[a] for a in g if roles[a] != UNIT]
            if kinds in ([GROUP, LANE], [BLOCK]):
                out.append(K if kinds == [GROUP, LANE] else BLOCK)
            elif len(kinds) == 1 and kinds[0] in (K, N, BLOCK):
                out.append(kinds[0])
            elif not kinds:
                out.append(UNIT)
            else:
                return "a reshape splits the weight's axes other than K into its blocks"
        return tuple(out)
    return "a reshape merges the weight's axes before the multiply"


Reshaping = TransposeOp | tensor.CollapseShapeOp | tensor.ExpandShapeOp
"""The ops `match_chain` follows from a product's operand back to its weight."""


def _forward(roles: list[str], op: Reshaping) -> list[str] | str:
    """The roles after `op` (a reshape or a transpose on the product's side)."""
    if isinstance(op, TransposeOp):
        perm = [int(p) for p in op.permutation.get_values()]
        return [roles[p] for p in perm]
    groups = [[int(i.value.data) for i in g] for g in op.reassociation]
    if isinstance(op, tensor.CollapseShapeOp):
        out = []
        for g in groups:
            kinds = [roles[a] for a in g if roles[a] != UNIT]
            if kinds in ([GROUP, LANE], [K]):
                out.append(K)
            elif kinds == [N]:
                out.append(N)
            elif not kinds:
                out.append(UNIT)
            else:
                return "a reshape merges N with K, or splits K's blocks"
        return out
    shape = cast(TensorType[Attribute], op.results[0].type).get_shape()
    out = []
    for src, g in enumerate(groups):
        big = [a for a in g if shape[a] != 1]
        if len(big) > 1:
            return "a reshape splits an axis of the weight"
        out += [roles[src] if a in big else UNIT for a in g]
    return out


def _through_broadcast(side: _Side, smap: AffineMap) -> tuple[AffineMap, list[int]] | str:
    """The map from the multiply's loops to the scales behind the side's broadcasting
    generic (and the `collapse_shape` above it, if any), and their shape: the
    multiply's map composed with the collapse's split of each axis into its group's
    axes and the broadcast's own input map (`(n, k) -> (n, k floordiv 32)` for
    `s.repeat_interleave(32, -1)`)."""
    bc = cast(GenericOp, side.broadcast)
    exprs: list[AffineExpr] = list(smap.results)
    r = side.reshape
    if r is not None:
        if not isinstance(r, tensor.CollapseShapeOp):
            return "a reshape splits the repeated scales"
        shape = cast(TensorType[Attribute], r.src.type).get_shape()
        groups = [[int(i.value.data) for i in g] for g in r.reassociation]
        split: list[AffineExpr] = []
        for e, g in zip(exprs, groups):
            sizes = [shape[a] for a in g]
            for i, size in enumerate(sizes):
                inner = math.prod(sizes[i + 1 :])
                x = e // inner if inner > 1 else e
                split.append(AffineExpr.constant(0) if size == 1 else x % size if i else x)
        exprs = split
    in_map = bc.indexing_maps.data[0].data
    composed = in_map.compose(AffineMap(smap.num_dims, 0, tuple(exprs)))
    return composed, list(cast(TensorType[Attribute], bc.inputs[0].type).get_shape())


def _after_multiply(w: SSAValue) -> tuple[list[Operation], list[Operation], SSAValue]:
    """From a product's weight operand back to the multiply: the reshapes and
    transposes (product side first), the cast generics among them, and the multiply's
    result."""
    after: list[Operation] = []
    casts: list[Operation] = []
    v = w
    while True:
        o = v.owner
        if isinstance(o, TransposeOp | tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            after.append(o)
            v = o.operands[0]
        elif (found := cast_generic(o)) is not None:
            casts.append(cast(Operation, o))
            v = found[0]
        else:
            return after, casts, v


def match_chain(w: SSAValue, ctx: Context | None = None) -> Chain | str | None:
    """The Q8_0 weight behind the product operand `w`, through a chain of ops; None
    when no chain from an integer tensor makes it (a weight that is not quantised).
    `ctx` holds the blobs of `dense_resource` constants (a zero point's)."""
    after, after_casts, v = _after_multiply(w)
    found = _binary_generic(v.owner, arith.MulfOp)
    if found is None or is_dequant_candidate(found[0]):
        return None
    mul, _, widened = found
    sides = [_trace(i) for i in mul.inputs]
    ints = [i for i, s in enumerate(sides) if isinstance(_elem(s.source), IntegerType)]
    if len(ints) != 1:
        return None
    vi = ints[0]
    for i, ext in widened.items():
        sides[i].casts.append(ext)
    vside, sside = sides[vi], sides[1 - vi]
    why = _values_side(vside) or _scales_side(sside)
    if why is None and vside.offset is not None:
        why = _zero_point(vside, ctx)
    if why is None and vside.broadcast is not None:
        why = "the values are repeated along an axis (a broadcasting generic)"
    if why is not None:
        return why
    if sside.casts == [] and sside.reshape is None and isinstance(sside.source.owner, GenericOp):
        return f"the scale is computed by {sside.source.owner.name}, not read from a tensor"
    wtype = _elem(mul.res[0])
    if not isinstance(wtype, Float32Type | BFloat16Type):
        return (
            f"it dequantises in {element_name(wtype)}: each weight q*s is rounded to "
            f"{element_name(wtype)}, where Q8_0 multiplies the exact q*s (widen the values "
            "and the scales to f32 before the multiply)"
        )
    if after_casts:
        names = ", ".join(o.name for c in after_casts for o in cast_generic(c)[1])  # type: ignore[index]
        return f"the dequantised weight is converted ({names}) before the product"
    maps = [m.data for m in mul.indexing_maps]
    space = cast(TensorType[Attribute], mul.inputs[vi].type).get_shape()
    if maps[vi] != AffineMap.identity(len(space)) or maps[-1] != maps[vi]:
        return "the values are not read in the result's layout"
    smap = maps[1 - vi]
    sshape = list(cast(TensorType[Attribute], mul.inputs[1 - vi].type).get_shape())
    if sside.broadcast is not None:
        through = _through_broadcast(sside, smap)
        if isinstance(through, str):
            return through
        smap, sshape = through
    found_roles = layout_roles(maps[vi], smap, space, sshape)
    if isinstance(found_roles, str):
        return found_roles
    roles, scale_roles = found_roles
    vroles = _source_roles(vside, roles)
    sroles = (
        tuple(scale_roles) if sside.broadcast is not None else _source_roles(sside, scale_roles)
    )
    if isinstance(vroles, str) or isinstance(sroles, str):
        return cast(str, vroles if isinstance(vroles, str) else sroles)
    if N not in vroles or N not in sroles:
        return "the weight has no N axis"
    out_roles: list[str] | str = list(roles)
    for op in reversed(after):
        out_roles = _forward(cast(list[str], out_roles), cast(Reshaping, op))
        if isinstance(out_roles, str):
            return out_roles
    d = Dequant(mul, vside.source, sside.source, vroles, sroles, wtype)
    ops = (*after, mul, *vside.ops, *sside.ops)
    return Chain(d, tuple(out_roles), ops)


def match_chain_product(
    op: MatmulOp | BatchMatmulOp, ctx: Context | None = None
) -> Chain | str | None:
    """A `linalg.matmul` or `linalg.batch_matmul` (of a batch of 1) over a chain's
    weight: (the chain, the rows of the activation) or why not (None: no chain)."""
    if len(op.inputs) != 2 or len(op.res) != 1:
        return None
    chain = match_chain(op.inputs[1], ctx)
    if not isinstance(chain, Chain):
        return chain
    want = (K, N) if isinstance(op, MatmulOp) else (UNIT, K, N)
    if chain.roles != want:
        if isinstance(op, BatchMatmulOp) and chain.roles[1:] == (K, N):
            return "a batch_matmul over a batch of more than 1 weight"
        return (
            "the scale is blocked along one axis of the weight and the product "
            "contracts the other (a scale map on the wrong axis)"
        )
    default = type(op).get_irdl_definition().properties["indexing_maps"].default_value
    if op.indexing_maps != default:
        return "the product has transposed or broadcast indexing maps"
    xt = cast(TensorType[Attribute], op.inputs[0].type).get_shape()
    if isinstance(op, BatchMatmulOp) and xt[0] != 1:
        return "a batch_matmul over a batch of more than 1"
    return chain
