"""
A whole step's time on the chip, beyond its spatial programs (`chip_time.py` times
those): the ops of the step not yet lowered to programs, estimated as programs would
run them; the traffic between the chips of a tensor-parallel step; and the costs each
token pays once, outside the chip. Numbers in and numbers out; docs/chip_time.md says
where each figure comes from.

```python
t = host_op_time(op, chip, users=8, caches=cache_values)   # ProgramTime, or None: free
t = exchange_time(Exchange.ALL_REDUCE, 262_144, chips=8, links=system.links)
costs = token_costs(rows=1, vocab=128256, users=1, system=system)
```

**Ops not yet lowered** (norms, RoPE, attention, residual adds, the KV cache's update)
are each timed as a program of one item per site, the work shared evenly: a launch,
then the largest of the DRAM time of what must live in DRAM (the KV cache: read by
attention once per user, each user's cache its own; written a slice a step), the NoC
time of the rest (activations, which stay in the sites' memories between programs) and
the arithmetic on the vector unit (a contraction on the matrix unit at the bf16 rate).
Tensors move as whole 32 x 32 tiles of the target's activation precision (bf16), as
the chip holds them. Reshapes, slices, fills and constants cost nothing: they name
memory, they do not move it. This is an estimate of programs that do not exist yet,
labelled as such wherever it is printed.

**Between chips**, each gather of the chips' column shares (`tensor.concat` of their
folds) is an all-gather and each sum of their partial sums (`arith.addf` of their folds)
an all-reduce, timed by the fitted model of the measured collectives: a start-up, a cost
a hop and the bytes through the busiest link at the measured rate, on a line of chips up
to 4 and a ring from 8.

**Per token**, outside the step: the logits of the step's rows back to the host over
PCIe (bf16, whole tiles), sampling them on the host, and the host's dispatch of the
step (one replay of a recorded trace).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import auto

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IntegerType, ShapedType, TensorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.analysis.chip_time import ChipFigures, ProgramTime, Work, program_time
from xdsl_spatial.dialects.spatial import LinkFigures, SystemFigures

TILE = 32
"""Rows and columns of the tiles the chip moves."""

ACT_BYTES = 2
"""Bytes of an activation or KV cache element on the chip (bf16)."""

_FREE = frozenset(
    (
        "arith.constant",
        "arith.index_cast",
        "func.return",
        "linalg.fill",
        "tensor.collapse_shape",
        "tensor.empty",
        "tensor.expand_shape",
        "tensor.extract",
        "tensor.extract_slice",
    )
)
"""Ops that name memory (or a scalar) and move none."""

_ARITHMETIC = frozenset(
    (
        "arith.addf",
        "arith.subf",
        "arith.mulf",
        "arith.divf",
        "arith.maximumf",
        "arith.minimumf",
        "arith.negf",
        "math.exp",
        "math.rsqrt",
        "math.sqrt",
        "math.cos",
        "math.sin",
        "math.tanh",
    )
)
"""Body ops that take a lane of the vector unit a point each."""


def tile_bytes(shape: Sequence[int], elem: int) -> int:
    """Bytes of a tensor as whole tiles over its last two dimensions."""
    dims = list(shape) or [1]
    rows = dims[-2] if len(dims) > 1 else 1
    lead = math.prod(dims[:-2])
    return lead * -(-rows // TILE) * TILE * -(-dims[-1] // TILE) * TILE * elem


def chip_bytes(t: Attribute) -> int:
    """Bytes a tensor takes on the chip: whole tiles of bf16 for a float tensor, of its
    own width for an integer one; 0 for a scalar."""
    if not isinstance(t, TensorType):
        return 0
    shaped: ShapedType = t
    elem = t.element_type
    width = elem.width.data // 8 if isinstance(elem, IntegerType) else ACT_BYTES
    return tile_bytes(shaped.get_shape(), max(width, 1))


def _work(op: Operation, chip: ChipFigures) -> Work:
    """The work of a dense op, shared over the chip's sites (per site)."""
    if isinstance(op, GenericOp):
        points = math.prod(_domain(op))
        body = [o.name for o in op.body.block.ops]
        if any(str(t) == "reduction" for t in op.iterator_types.data) and "arith.mulf" in body:
            return Work(points / chip.sites, 0, 0)
        lanes = sum(1 for n in body if n in _ARITHMETIC)
        return Work(0, 0, points * lanes / chip.sites)
    if op.name in _ARITHMETIC:
        out = op.results[0].type
        n = math.prod(out.get_shape()) if isinstance(out, TensorType) else 1
        return Work(0, 0, n / chip.sites)
    return Work(0, 0, 0)


def _domain(op: GenericOp) -> list[int]:
    """The generic's iteration extents, from its operands' shapes and maps."""
    extents: dict[int, int] = {}
    for v, m in zip(op.operands, op.indexing_maps.data):
        t = v.type
        if not isinstance(t, TensorType):
            continue
        for r, size in zip(m.data.results, t.get_shape()):
            pos = getattr(r, "position", None)
            if pos is not None:
                extents.setdefault(pos, size)
    return [extents.get(i, 1) for i in range(op.indexing_maps.data[0].data.num_dims)]


def host_op_time(
    op: Operation, chip: ChipFigures, users: int = 1, caches: Collection[SSAValue] = ()
) -> ProgramTime | None:
    """The estimated time of a dense op as a program of one item a site (see the
    module's docstring), or None for an op that moves nothing. `caches` are the values
    that are KV caches: an op reading one reads it once per user."""
    if op.name in _FREE or op.name.startswith("shard.") or not op.results:
        return None
    if isinstance(op, tensor.InsertSliceOp):
        written = chip_bytes(op.source.type)
        return program_time(chip.sites, written, written, Work(0, 0, 0), chip)
    dram = noc = 0
    for v in op.operands:
        b = chip_bytes(v.type)
        if v in caches:
            dram += b * users
        else:
            noc += b
    noc += sum(chip_bytes(r.type) for r in op.results)
    return program_time(chip.sites, dram, noc + dram, _work(op, chip), chip)


# --------------------------------------------------------------------------------------
# Between chips
# --------------------------------------------------------------------------------------


class Exchange(StrEnum):
    """What the chips of a tensor-parallel step exchange."""

    ALL_GATHER = auto()
    """Every chip's columns to every chip (after a product split on N)."""
    ALL_REDUCE = auto()
    """Every chip's partial sums added, the sum on every chip (after a split on K)."""


def exchange_of(op: Operation, chip_of: dict[SSAValue, int]) -> Exchange | None:
    """What the chips exchange for `op`: a `tensor.concat` of folds of different chips
    is an all-gather; the first `arith.addf` of two chips' partial sums starts an
    all-reduce (the rest of its chain adds what the all-reduce brought)."""
    ins = list(op.operands)
    if isinstance(op, tensor.ConcatOp) and len({chip_of.get(v) for v in ins}) > 1:
        return Exchange.ALL_GATHER if all(v in chip_of for v in ins) else None
    if isinstance(op, arith.AddfOp) and all(v in chip_of for v in ins):
        return Exchange.ALL_REDUCE if chip_of[ins[0]] != chip_of[ins[1]] else None
    return None


def exchange_time(kind: Exchange, nbytes: int, chips: int, links: LinkFigures) -> float:
    """Seconds for `chips` chips to exchange a result of `nbytes` bytes (the whole
    tensor on one chip): the fitted model of the measured collective, a line of chips
    below 8, a ring from 8."""
    if chips < 2:
        return 0.0
    ring = chips >= 8
    fit = links.fit(str(kind), ring)
    hops = chips / 2 if ring else chips - 1
    if kind == Exchange.ALL_GATHER:
        through = (chips - 1) * nbytes / chips  # each chip's share, from every other chip
    else:
        through = 2 * (chips - 1) / chips * nbytes
    return (fit.start_us + fit.hop_us * hops) * 1e-6 + through / (fit.gb_s * 1e9)


# --------------------------------------------------------------------------------------
# Per token
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TokenCosts:
    """What each step pays outside the chip, in seconds."""

    logits: float
    """The step's logits back to the host over PCIe."""
    sampling: float
    """The host choosing each user's next token from its logits."""
    dispatch: float
    """The host starting the step (one replay of the step's recorded trace)."""

    @property
    def total(self) -> float:
        return self.logits + self.sampling + self.dispatch


def token_costs(rows: int, vocab: int, users: int, system: SystemFigures) -> TokenCosts:
    """The per-step costs of a step of `rows` rows (whole tiles of them cross PCIe)
    whose logits `users` users sample from."""
    logits = tile_bytes((rows, vocab), ACT_BYTES)
    return TokenCosts(
        logits=logits / (system.pcie_gb_s * 1e9),
        sampling=users * vocab * system.sample_ns * 1e-9,
        dispatch=system.host_op_us * 1e-6,
    )
