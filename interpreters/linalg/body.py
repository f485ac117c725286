"""
The kernel of a structured op: its body's ops run once over the whole iteration
space, each output taken from the yielded values (or reduced).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith, cf, tensor
from xdsl.dialects.builtin import (
    TensorType,
)
from xdsl.dialects.linalg.ops import (
    IndexOp,
    YieldOp,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import (
    AffineConstantExpr,
    AffineDimExpr,
)

from xdsl_spatial.interpreters.kernels import (
    Kernel,
    KernelError,
    captured_values,
    prepare,
)
from xdsl_spatial.interpreters.linalg.operands import loop_grids, make_reader
from xdsl_spatial.interpreters.linalg.reductions import (
    ArgReduce,
    Reduce,
    plan_arg_reduction,
    plan_reduction,
    run_arg_reduce,
    run_reduce,
)
from xdsl_spatial.interpreters.linalg.structure import (
    MAX_SPACE_ELEMENTS,
    Structured,
    loop_ranges,
    shape_of,
)
from xdsl_spatial.interpreters.values import numpy_dtype

_BODY_TYPES = (tensor.ExtractOp, IndexOp, cf.AssertOp)
"""Body ops besides `arith` and `math` ones (which are all elementwise). A `cf.assert`
(torch-mlir's bounds checks of an embedding's gather) checks its condition at every
point of the space at once, before the ops after it run."""


@dataclass
class _Step:
    kernel: Kernel
    ins: tuple[int, ...]
    out: int
    """The slot of the first result."""


@dataclass(frozen=True)
class _Output:
    slot: int | None
    """The yielded value's slot (parallel outputs)."""
    reduce: Reduce | ArgReduce | None
    dims: tuple[int, ...]
    """The loop of each output axis."""
    dtype: np.dtype[Any]
    n: int
    """Loops of the iteration space."""
    select: tuple[Any, ...]
    """From a value over every loop, the parallel ones (index 0 along the others)."""
    over_parallel: tuple[int, ...]
    """The parallel loops' extents."""
    order: tuple[int, ...] | None
    """From the parallel loops to the output's axes (None: the same order)."""
    shape: tuple[int, ...]
    """The output tensor's shape."""


def _output(
    slot: int | None,
    reduce: Reduce | ArgReduce | None,
    dims: tuple[int, ...],
    dtype: np.dtype[Any],
    ranges: Sequence[int],
    reduction: Sequence[bool],
    shape: tuple[int, ...],
) -> _Output:
    n = len(ranges)
    parallel = tuple(d for d in range(n) if not reduction[d])
    order = tuple(parallel.index(d) for d in dims)
    return _Output(
        slot,
        reduce,
        dims,
        dtype,
        n,
        tuple(slice(None) if d in parallel else 0 for d in range(n)),
        tuple(ranges[d] for d in parallel),
        None if order == tuple(range(len(order))) else order,
        shape,
    )


def _deps(
    s: Structured, body_ops: Sequence[Operation], captures: Sequence[SSAValue]
) -> dict[SSAValue, frozenset[int]]:
    """The loops each body value depends on."""
    deps: dict[SSAValue, frozenset[int]] = {}
    for i, a in enumerate(s.body.args):
        deps[a] = frozenset(s.maps[i].used_dims()) if i < len(s.maps) else frozenset()
    for v in captures:
        deps[v] = frozenset()
    for op in body_ops:
        for v in op.operands:
            if isinstance(v.owner, arith.ConstantOp) and v not in deps:
                deps[v] = frozenset()
        if any(v not in deps for v in op.operands):
            break
        if isinstance(op, IndexOp):
            d: frozenset[int] = frozenset({op.dim.value.data})
        elif isinstance(op, tensor.ExtractOp):
            d = frozenset().union(*(deps[v] for v in op.indices))
        else:
            d = frozenset().union(*(deps[v] for v in op.operands))
        for r in op.results:
            deps[r] = d
    return deps


def _output_dims(s: Structured, j: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The loop of each output axis that a loop indexes (a size-1 axis indexed by the
    constant 0, as a `keepdim` reduction writes, takes none)."""
    m = s.maps[s.n_inputs + j]
    dims = []
    for e, size in zip(m.results, shape):
        if isinstance(e, AffineConstantExpr) and e.value == 0 and size == 1:
            continue
        if not isinstance(e, AffineDimExpr):
            raise KernelError(s.op, f"output #{j}'s map {m} is not a permutation of loops")
        dims.append(e.position)
    parallel = [d for d, r in enumerate(s.reduction) if not r]
    if sorted(dims) != parallel:
        raise KernelError(
            s.op,
            f"output #{j}'s map {m} must use each parallel loop once and no reduction loop",
        )
    return tuple(dims)


def structured_kernel(s: Structured) -> Kernel:
    """The kernel of a structured op (see the module docstring)."""
    op = s.op
    operands = op.operands
    if not s.results or len(s.results) != len(operands) - s.n_inputs:
        raise KernelError(op, "only the tensor form runs (one result per output)")
    shapes = [shape_of(op, v, f"operand #{i}") for i, v in enumerate(operands)]
    if len(s.maps) != len(operands):
        raise KernelError(op, f"{len(s.maps)} indexing maps for {len(operands)} operands")
    ranges = loop_ranges(s, shapes)
    n = len(ranges)
    readers = [make_reader(op, i, m, shapes[i], ranges) for i, m in enumerate(s.maps)]
    captures = captured_values(op)
    body = s.body
    body_ops = list(body.ops)
    yield_op = body_ops.pop()
    if not isinstance(yield_op, YieldOp) or len(yield_op.operands) != len(s.results):
        raise KernelError(op, "the body must end in a linalg.yield of one value per output")
    for b in body_ops:
        if b.regions or not (isinstance(b, _BODY_TYPES) or b.dialect_name() in ("arith", "math")):
            raise KernelError(op, f"{b.name} in the body is not an elementwise op")
        tensors = [v for v in b.operands if isinstance(v.type, TensorType)]
        if tensors and not (isinstance(b, tensor.ExtractOp) and tensors == [b.operands[0]]):
            raise KernelError(op, f"{b.name} in the body takes a tensor")
    deps = _deps(s, body_ops, captures)
    if any(v not in deps for b in body_ops for v in b.operands):
        raise KernelError(
            op, "the body reads a value that is neither an operand, a capture nor its own"
        )

    # Slots: block arguments, captured values, then every body op's results.
    if len(body.args) != len(operands):
        raise KernelError(
            op, f"the body takes {len(body.args)} arguments for {len(operands)} operands"
        )
    slot: dict[SSAValue, int] = {a: i for i, a in enumerate(body.args)}
    for i, v in enumerate(captures):
        slot[v] = len(operands) + i
    # Constants defined above the body are read now, as attributes are (the body's
    # own constants are body ops, with slots of their own below).
    const: dict[int, Any] = {}
    for b in [*body_ops, yield_op]:
        for v in b.operands:
            if (
                v not in slot
                and isinstance(c := v.owner, arith.ConstantOp)
                and c.parent is not body
            ):
                slot[v] = len(slot)
                const[slot[v]] = prepare(c)(())[0]
    for b in body_ops:
        for r in b.results:
            slot[r] = len(slot)
    n_slots = len(slot)
    skip: set[Operation] = set()
    reduces = any(s.reduction)
    outputs: list[_Output] = []
    # An output keeping another's arg-max reads that one's argument in its compare
    # (skipped, so that argument is still read by its combiner alone).
    arg_outputs = {
        j: a
        for j, y in enumerate(yield_op.operands)
        if reduces
        and (a := plan_arg_reduction(s, j, y, body.args[s.n_inputs + j], slot, skip, ranges))
    }
    for j, y in enumerate(yield_op.operands):
        o = body.args[s.n_inputs + j]
        shape = shapes[s.n_inputs + j]
        dims = _output_dims(s, j, shape)
        dt = numpy_dtype(cast(TensorType[Attribute], operands[s.n_inputs + j].type).element_type)
        if not reduces:
            outputs.append(_output(slot[y], None, dims, dt, ranges, s.reduction, shape))
            continue
        arg = arg_outputs.get(j)
        r = arg if arg is not None else plan_reduction(s, j, y, o, deps, slot, skip, ranges)
        outputs.append(_output(None, r, dims, dt, ranges, s.reduction, shape))

    steps: list[_Step] = []
    for b in body_ops:
        if b in skip:
            continue
        for r in b.results:
            size = math.prod(ranges[d] for d in deps[r])
            if size > MAX_SPACE_ELEMENTS:
                raise KernelError(
                    op,
                    f"{b.name} in the body spans {size} elements of the iteration space "
                    f"(the limit is {MAX_SPACE_ELEMENTS}); write it as a contraction",
                )
        if isinstance(b, IndexOp):
            d = b.dim.value.data
            if d >= n:
                raise KernelError(op, f"linalg.index {d} of a {n}-loop space")
            const[slot[b.result]] = loop_grids(ranges)[d]
            continue
        out = slot[b.results[0]] if b.results else 0  # a cf.assert writes no slot
        steps.append(_Step(prepare(b), tuple(slot[v] for v in b.operands), out))
    n_ops, n_captures = len(operands), len(captures)
    arg_reads = [(i, readers[i]) for i in range(n_ops) if body.args[i].first_use is not None]
    out_reads = [(s.n_inputs + j, readers[s.n_inputs + j]) for j in range(len(outputs))]
    n_inputs = s.n_inputs  # not `s`: the kernel holds no IR (it is cached on disk)

    def run(args: Sequence[Any]) -> tuple[Any, ...]:
        env: list[Any] = [None] * n_slots
        for i, read in arg_reads:
            env[i] = read(args[i])
        for i in range(n_ops, n_ops + n_captures):
            env[i] = args[i]
        for k, v in const.items():
            env[k] = v
        for st in steps:
            vals = st.kernel([env[i] for i in st.ins])
            env[st.out : st.out + len(vals)] = vals
        results = []
        for out, (i, read) in zip(outputs, out_reads):
            if out.reduce is None:
                v = env[cast(int, out.slot)]
            elif isinstance(out.reduce, ArgReduce):
                k = n_inputs + out.reduce.of
                v = run_arg_reduce(out.reduce, env, read(args[i]), readers[k](args[k]))
            else:
                v = run_reduce(out.reduce, env, read(args[i]))
            results.append(_write(v, out))
        return tuple(results)

    return run


def _write(v: Any, out: _Output) -> np.ndarray:
    """The output tensor: the value over the parallel loops, in the output's axis
    order, as a new array (never a view of an operand)."""
    v = np.asarray(v)
    if v.ndim:
        if v.ndim < out.n:
            v = v.reshape((1,) * (out.n - v.ndim) + v.shape)
        v = v[out.select]
        if v.shape != out.over_parallel:
            v = np.broadcast_to(v, out.over_parallel)
        if out.order is not None:
            v = v.transpose(out.order)
        if v.ndim != len(out.shape):
            v = v.reshape(out.shape)
    if v.shape != out.shape:
        v = np.broadcast_to(v, out.shape)
    return np.array(v, dtype=out.dtype, order="C")
