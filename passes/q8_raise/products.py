"""q8-raise: the products of an activation and a proven Q8_0 weight (`linalg.matmul` over a dequantising generic, contraction generics, fused bodies)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerType,
    TensorType,
    f32,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp, TransposeOp, YieldOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineMap,
)

from xdsl_spatial.dialects.spatial import element_name
from xdsl_spatial.passes.q8_raise.chains import cast_generic
from xdsl_spatial.passes.q8_raise.dequant import (
    GROUP,
    LANE,
    Dequant,
    K,
    N,
    _dim,
    _elem,
    _float_input,
    _reaches_int,
    _tensor,
    _values_factor,
    is_dequant_candidate,
    layout_roles,
    match_dequant,
)

# --------------------------------------------------------------------------------------
# The product
# --------------------------------------------------------------------------------------


@dataclass
class Product:
    """A product of an activation and a proven Q8_0 weight, as the raise rebuilds it."""

    op: Operation
    """The `linalg.matmul` or contraction `linalg.generic`."""
    dequant: Dequant
    via: TransposeOp | None
    """A `linalg.transpose` between the dequantisation and a `linalg.matmul`."""
    x: SSAValue
    """The activation (bf16 behind an `arith.extf`, whether on the tensor or in the body)."""
    widen: bool
    """The product reads the activation widened to f32."""
    m_shape: tuple[int, ...]
    """The activation's row axes (none for a vector)."""
    init: SSAValue
    """The accumulator."""
    chain: tuple[Operation, ...] = ()
    """The ops of a chain that dequantises the weight (`chains.py`), product side first."""


def _dequant_label(gen: GenericOp) -> str:
    hint = gen.res[0].name_hint
    return (
        f"the weight's dequantization (linalg.generic %{hint})"
        if hint
        else "the weight's dequantization"
    )


def _weight_source(v: SSAValue) -> tuple[GenericOp | None, TransposeOp | None]:
    """The generic behind a matmul's weight operand, and a transpose between them."""
    o = v.owner
    if isinstance(o, TransposeOp) and list(o.permutation.get_values()) == [1, 0]:
        inner = o.inputs[0].owner
        return (inner if isinstance(inner, GenericOp) else None), o
    return (o if isinstance(o, GenericOp) else None), None


def match_matmul(op: MatmulOp) -> Product | str | None:
    """A `linalg.matmul` over a dequantising generic (None: not a candidate)."""
    if len(op.inputs) != 2 or len(op.res) != 1:
        return None
    gen, via = _weight_source(op.inputs[1])
    if not is_dequant_candidate(gen):
        return None
    assert gen is not None
    if op.indexing_maps != MatmulOp.get_irdl_definition().properties["indexing_maps"].default_value:
        return "the matmul has transposed or broadcast indexing maps"
    d = match_dequant(gen)
    if isinstance(d, str):
        return f"{_dequant_label(gen)} is not Q8_0: {d}"
    if GROUP in d.roles:
        return "a grouped weight reaches the matmul without a reshape to K x N"
    # The matmul contracts its weight's first axis (after the transpose, if any).
    contracted = d.roles[1] if via is not None else d.roles[0]
    if contracted != K:
        return (
            "the scale is blocked along one axis of the weight and the product "
            "contracts the other (a scale map on the wrong axis)"
        )
    x, widen = op.inputs[0], False
    xt = _tensor(x)
    if xt is None or xt.get_num_dims() != 2:
        return "the activation is not a matrix"
    return Product(op, d, via, x, widen, (xt.get_shape()[0],), op.outputs[0])


def _product_loops(
    xmap: AffineMap, wmap: AffineMap, omap: AffineMap, roles: Sequence[str], iters: Sequence[bool]
) -> list[int] | str:
    """The activation's row loops of a contraction `y = x . w` over the maps that
    read x, the weight (axes in `roles`) and y, or why it is no such product."""
    xdims = [cast(int, _dim(e)) for e in xmap.results]
    wdims = [cast(int, _dim(e)) for e in wmap.results]
    odims = [cast(int, _dim(e)) for e in omap.results]
    red = {i for i, r in enumerate(iters) if r}
    # The weight's K axes are the product's reduction loops, its N axis a parallel one.
    k_loops = [lp for lp, r in zip(wdims, roles) if r in (K, GROUP, LANE)]
    n_loop = wdims[roles.index(N)]
    if set(k_loops) != red:
        return (
            "the product does not contract the weight's K axes (the one its scale is "
            "blocked along): a scale map on the wrong axis"
        )
    if n_loop not in odims or n_loop in xdims:
        return "the weight's N axis is not a column of the result"
    m_loops = [lp for lp in xdims if lp not in red]
    if xdims != m_loops + k_loops:
        return "the activation is not laid out as rows then K, in the weight's K order"
    if odims != [*m_loops, n_loop]:
        return "the result is not laid out as the activation's rows then N"
    if len(set(xdims) | set(wdims) | set(odims)) != len(iters):
        return "the product has a loop neither operand reads"
    return m_loops


def _activation(x: SSAValue, widen: bool) -> tuple[SSAValue, bool] | str:
    """The activation as the view should read it: the bf16 value behind a tensor
    `arith.extf`, and whether the product widens it."""
    if not widen:
        if isinstance(x.owner, arith.ExtFOp) and isinstance(_elem(x.owner.input), BFloat16Type):
            x, widen = x.owner.input, True
        elif (
            (found := cast_generic(x.owner)) is not None
            and [type(o) for o in found[1]] == [arith.ExtFOp]
            and isinstance(_elem(found[0]), BFloat16Type)
        ):
            x, widen = found[0], True  # torch-mlir's elementwise generic of one extf
    if not isinstance(_elem(x), Float32Type | BFloat16Type):
        return f"the activation is {element_name(_elem(x))}; bf16 or f32 expected"
    return x, widen


def match_contraction(op: GenericOp) -> Product | str | None:
    """A contraction generic of an activation and a dequantising generic (None: not a
    candidate)."""
    if len(op.inputs) != 2 or len(op.res) != 1 or len(op.outputs) != 1:
        return None
    iters = [it.data == IteratorType.REDUCTION for it in op.iterator_types]
    if not any(iters):
        return None
    w_index = next((i for i in (1, 0) if is_dequant_candidate(op.inputs[i].owner)), None)
    if w_index is None:
        return None
    gen = cast(GenericOp, op.inputs[w_index].owner)
    d = match_dequant(gen)
    if isinstance(d, str):
        return f"{_dequant_label(gen)} is not Q8_0: {d}"
    x_index = 1 - w_index
    maps = [m.data for m in op.indexing_maps]
    if any(_dim(e) is None for m in maps for e in m.results):
        return "the product's maps are not projected permutations"
    m_loops = _product_loops(maps[x_index], maps[w_index], maps[-1], d.roles, iters)
    if isinstance(m_loops, str):
        return m_loops
    # The body: addf(out, mulf(x', w')), x' and w' the elements or their arith.extf.
    body = op.body.block
    y = body.last_op
    assert isinstance(y, YieldOp)
    add = y.operands[0].owner
    out_arg = body.args[2]
    if not isinstance(add, arith.AddfOp) or out_arg not in add.operands:
        return "the product's body is not an accumulation (arith.addf of its output)"
    mul = (add.rhs if add.lhs is out_arg else add.lhs).owner
    if not isinstance(mul, arith.MulfOp):
        return "the product's body adds something other than a product"
    if not isinstance(_elem(op.res[0]), Float32Type):
        return (
            f"the product accumulates in {element_name(_elem(op.res[0]))}; the fold accumulates f32"
        )
    widened = {}
    for v in mul.operands:
        base = v.owner.input if isinstance(v.owner, arith.ExtFOp) else v
        if not (isinstance(base, BlockArgument) and base.block is body and base.index < 2):
            return "the product's body does more than multiply the two elements"
        widened[base.index] = base is not v
    if set(widened) != {0, 1} or len(list(body.ops)) != 3 + sum(widened.values()):
        return "the product's body does more than multiply the two elements and add"
    act = _activation(op.inputs[x_index], widened[x_index])
    if isinstance(act, str):
        return act
    x, widen = act
    if widened[w_index] and not isinstance(d.weight_type, BFloat16Type):
        return "the product widens an f32 weight"
    xshape = cast(TensorType[Attribute], x.type).get_shape()
    return Product(op, d, None, x, widen, tuple(xshape[: len(m_loops)]), op.outputs[0])


def _product_factors(v: SSAValue, body, used: set[Operation]) -> list[SSAValue]:
    """The factors of a tree of f32 `arith.mulf`s rooted at `v` (its inner products
    used once), the multiplies added to `used`."""
    o = v.owner
    if not (isinstance(o, arith.MulfOp) and o.parent is body and v.has_one_use()):
        return [v]
    used.add(o)
    return [f for x in o.operands for f in _product_factors(x, body, used)]


def match_fused(op: GenericOp) -> Product | str | None:
    """A contraction generic whose own body dequantises its weight (what linalg's
    elementwise-op fusion makes of a dequantising generic and its product):
    `out + x' * sitofp(q) * s'` in any order and association, over maps that read the
    values as stored and the scale by block (None: not a candidate)."""
    n_in = len(op.inputs)
    if len(op.res) != 1 or len(op.outputs) != 1 or n_in < 3:
        return None
    iters = [it.data == IteratorType.REDUCTION for it in op.iterator_types]
    ints = [i for i, v in enumerate(op.inputs) if isinstance(_elem(v), IntegerType)]
    if not any(iters) or not ints:
        return None
    body = op.body.block
    y = body.last_op
    assert isinstance(y, YieldOp)
    add, out_arg = y.operands[0].owner, body.args[n_in]
    if not isinstance(add, arith.AddfOp) or out_arg not in add.operands:
        return "the product's body is not an accumulation (arith.addf of its output)"
    if not isinstance(_elem(op.res[0]), Float32Type):
        return (
            f"the product accumulates in {element_name(_elem(op.res[0]))}; the fold accumulates f32"
        )
    used: set[Operation] = {add}
    factors = _product_factors(add.rhs if add.lhs is out_arg else add.lhs, body, used)
    q_factor = [f for f in factors if _reaches_int(f, body)]
    if len(factors) != 3 or len(q_factor) != 1:
        return "the body does not multiply the activation, the converted values and a scale"
    values = _values_factor(q_factor[0], op, used)
    if isinstance(values, str):
        return f"the weight the body dequantises is not Q8_0: {values}"
    v_index, zero_inputs = values
    a, b = (f for f in factors if f is not q_factor[0])
    widened = {}
    for f in (a, b):
        i = _float_input(f, op, used, "scale")
        if isinstance(i, str):
            return f"the weight the body dequantises is not Q8_0: {i}"
        widened[i] = isinstance(f.owner, arith.ExtFOp)
    if len(widened) != 2:
        return "the body does not multiply the activation, the converted values and a scale"
    ia, ib = widened
    extra = [o for o in body.ops if o is not y and o not in used]
    if extra:
        return f"the body does more than dequantise and multiply-add: {extra[0].name}"
    if set(range(n_in)) - {v_index, ia, ib} - zero_inputs:
        return "the body reads inputs besides the activation, the values and the scales"
    maps = [m.data for m in op.indexing_maps]
    red = {i for i, r in enumerate(iters) if r}
    # The activation reads every reduction loop as it is; the scale reads K by block.
    reads_k = [
        i for i in (ia, ib) if red <= {d for e in maps[i].results if (d := _dim(e)) is not None}
    ]
    if len(reads_k) != 1:
        return "cannot tell the scale from the activation: one of them must read K only by block"
    x_index = reads_k[0]
    s_index = ib if x_index == ia else ia
    shape = lambda i: cast(TensorType[Attribute], op.inputs[i].type).get_shape()
    roles = layout_roles(maps[v_index], maps[s_index], shape(v_index), shape(s_index))
    if isinstance(roles, str):
        return f"the weight the body dequantises is not Q8_0: {roles}"
    if not isinstance(_elem(op.inputs[s_index]), Float32Type | Float16Type | BFloat16Type):
        return (
            f"the scales are {element_name(_elem(op.inputs[s_index]))}; f32, f16 or bf16 expected"
        )
    if any(_dim(e) is None for e in maps[x_index].results):
        return "the activation's map is not a projected permutation"
    m_loops = _product_loops(maps[x_index], maps[v_index], maps[-1], roles[0], iters)
    if isinstance(m_loops, str):
        return m_loops
    act = _activation(op.inputs[x_index], widened[x_index])
    if isinstance(act, str):
        return act
    x, widen = act
    d = Dequant(op, op.inputs[v_index], op.inputs[s_index], roles[0], roles[1], f32, fused=True)
    xshape = cast(TensorType[Attribute], x.type).get_shape()
    return Product(op, d, None, x, widen, tuple(xshape[: len(m_loops)]), op.outputs[0])
