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

Anything else is declined with the reason: unsigned values (`uitofp`), a zero point
(`subf`), groups of 64 or 16, one scale per row, a scale read per element, a scale
that is computed rather than read, a reshape that splits K's blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

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
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap

from xdsl_spatial.dialects.linalg_extra import BatchMatmulOp
from xdsl_spatial.dialects.spatial import element_name
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


def _mul_generic(op: object) -> GenericOp | None:
    """An all-parallel generic of two inputs whose body is one `arith.mulf` of them."""
    if not (isinstance(op, GenericOp) and len(op.inputs) == 2 and len(op.outputs) == 1):
        return None
    if any(it.data != IteratorType.PARALLEL for it in op.iterator_types):
        return None
    body = op.body.block
    ops = list(body.ops)
    if len(ops) != 2 or not isinstance(ops[0], arith.MulfOp):
        return None
    if set(ops[0].operands) != set(body.args[:2]) or ops[1].operands[0] is not ops[0].result:
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
    offset: bool = False
    """A generic on the way subtracts something (a zero point)."""


def _trace(v: SSAValue) -> _Side:
    """Back from a multiply's input through cast generics, at most one reshape, and
    a generic that subtracts a constant (a zero point, recorded to be declined)."""
    side = _Side(v, [], None, [])
    while True:
        o = v.owner
        found = cast_generic(o)
        if found is not None:
            v, body = found
            side.casts = body + side.casts
            side.ops.append(cast(Operation, o))
        elif isinstance(o, tensor.ExpandShapeOp | tensor.CollapseShapeOp) and side.reshape is None:
            side.reshape = o
            side.ops.append(o)
            v = o.src
        elif isinstance(o, GenericOp) and o.inputs and _subtracts(o):
            side.offset = True
            side.ops.append(o)
            v = o.inputs[0]
        else:
            side.source = v
            return side


def _subtracts(op: GenericOp) -> bool:
    return any(isinstance(o, arith.SubfOp | arith.SubiOp) for o in op.body.block.ops)


def _values_side(side: _Side) -> str | None:
    """Why the traced input is not Q8_0 values (None: it is)."""
    names = [o.name for o in side.casts]
    if side.offset:
        return "the values are offset by a zero point (arith.subf); Q8_0 has none"
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
    if side.offset:
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
    groups = [[int(i.value.data) for i in g] for g in r.reassociation]  # pyright: ignore
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


def _forward(roles: list[str], op: Operation) -> list[str] | str:
    """The roles after `op` (a reshape or a transpose on the product's side)."""
    if isinstance(op, TransposeOp):
        perm = [int(p) for p in op.permutation.get_values()]
        return [roles[p] for p in perm]
    groups = [[int(i.value.data) for i in g] for g in op.reassociation]  # pyright: ignore
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


def match_chain(w: SSAValue) -> Chain | str | None:
    """The Q8_0 weight behind the product operand `w`, through a chain of ops; None
    when no chain from an integer tensor makes it (a weight that is not quantised)."""
    after: list[Operation] = []
    v = w
    while isinstance(v.owner, TransposeOp | tensor.CollapseShapeOp | tensor.ExpandShapeOp):
        after.append(v.owner)
        v = v.owner.operands[0]
    mul = _mul_generic(v.owner)
    if mul is None or is_dequant_candidate(mul):
        return None
    sides = [_trace(i) for i in mul.inputs]
    ints = [i for i, s in enumerate(sides) if isinstance(_elem(s.source), IntegerType)]
    if len(ints) != 1:
        return None
    vi = ints[0]
    vside, sside = sides[vi], sides[1 - vi]
    why = _values_side(vside) or _scales_side(sside)
    if why is not None:
        return why
    if sside.casts == [] and sside.reshape is None and isinstance(sside.source.owner, GenericOp):
        return f"the scale is computed by {sside.source.owner.name}, not read from a tensor"
    wtype = _elem(mul.res[0])
    if not isinstance(wtype, Float32Type | BFloat16Type):
        return f"it dequantises to {element_name(wtype)}; q8.dequantize gives f32 or bf16"
    maps = [m.data for m in mul.indexing_maps]
    space = cast(TensorType[Attribute], mul.inputs[vi].type).get_shape()
    if maps[vi] != AffineMap.identity(len(space)) or maps[-1] != maps[vi]:
        return "the values are not read in the result's layout"
    sshape = cast(TensorType[Attribute], mul.inputs[1 - vi].type).get_shape()
    found = layout_roles(maps[vi], maps[1 - vi], space, sshape)
    if isinstance(found, str):
        return found
    roles, scale_roles = found
    vroles = _source_roles(vside, roles)
    sroles = _source_roles(sside, scale_roles)
    if isinstance(vroles, str) or isinstance(sroles, str):
        return cast(str, vroles if isinstance(vroles, str) else sroles)
    if N not in vroles or N not in sroles:
        return "the weight has no N axis"
    out_roles: list[str] | str = list(roles)
    for op in reversed(after):
        out_roles = _forward(cast(list[str], out_roles), op)
        if isinstance(out_roles, str):
            return out_roles
    d = Dequant(mul, vside.source, sside.source, vroles, sroles, wtype)
    ops = (*after, mul, *vside.ops, *sside.ops)
    return Chain(d, tuple(out_roles), ops)


def match_chain_product(op: MatmulOp | BatchMatmulOp) -> Chain | str | None:
    """A `linalg.matmul` or `linalg.batch_matmul` (of a batch of 1) over a chain's
    weight: (the chain, the rows of the activation) or why not (None: no chain)."""
    if len(op.inputs) != 2 or len(op.res) != 1:
        return None
    chain = match_chain(op.inputs[1])
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
