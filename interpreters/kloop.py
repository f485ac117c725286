"""
The K loop, as the compiled engine runs it: its body once a trip, in order.

Its loads are placed for every trip when the program is compiled (a load's page
stays in its tensor: `layout.Placed`, one row of block origins a trip), so a trip
only runs its stages and stores, reading its own trip of each load. The carried
pages are laid out in full; a trip hands its yielded page to the next without a copy
when the stage that made it computed the whole page in order.

What a loop does the same every trip, and a loop whose carry only accumulates, are
rewritten before the engine sees them, by `spatial-hoist` and `spatial-sum-trips`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np
from xdsl.ir import SSAValue

from xdsl_spatial.dialects.spatial import BufferOp, KLoopOp, KYieldOp, PageType
from xdsl_spatial.interpreters.layout import Dense, Env, Layout, Lead, Step, Values, c_strides

if TYPE_CHECKING:
    from xdsl_spatial.interpreters.program import ProgramCompiler

    _Base = ProgramCompiler
else:
    _Base = object


def in_full(v: Layout, lead: Lead) -> bool:
    """Whether the values `v` are a page laid out in full for `lead`: every element of
    the page, in order, in one contiguous array of their own."""
    return (
        isinstance(v, Values)
        and v.index is None
        and v.offset == 0
        and v.shape == (*lead, *v.out.shape)
        and v.strides == c_strides(v.shape)
        and v.out.size == v.size
        and bool((v.out.reshape(-1) == np.arange(v.size)).all())
    )


class LoopCompiling(_Base):
    """The K loop's part of `ProgramCompiler`."""

    def k_loop(self, o: KLoopOp, steps: list[Step]) -> None:
        body = o.body.block
        trips = o.trips.data
        want = (trips, self.items)
        lead = (1, self.items)
        slots = []
        for c, init in zip(body.args[1:], o.inits):
            size = self.tile[0] * self.tile[1] * cast(PageType, c.type).tiles.data
            d = Dense(self.slot(), lead, size)
            steps.append(self.fill(d, init, lead, False))
            self.layout[c] = d
            slots.append(d)
        per_trip: list[Step] = []
        ops = [b for b in body.ops if not isinstance(b, KYieldOp | BufferOp)]
        self.ops(ops, per_trip, want, o, True)
        yields = list(cast(KYieldOp, body.last_op).values)
        sources: list[int] = []
        fills: list[Step] = []
        for d, y in zip(slots, yields):
            v = self.layout[y]
            if in_full(v, lead):
                sources.append(cast(Values, v).slot)
            else:
                nxt = Dense(self.slot(), lead, d.size)
                fills.append(self.fill(nxt, y, want, True))
                sources.append(nxt.slot)

        def run(env: Env, trip: int | None) -> None:
            for t in range(trips):
                for st in per_trip:
                    st(env, t)
                for f in fills:
                    f(env, t)
                carried = [env[s] for s in sources]
                for d, value in zip(slots, carried):
                    env[d.slot] = value

        steps.append(run)
        for r, d in zip(o.results, slots):
            self.layout[r] = d

    def fill(self, d: Dense, page: SSAValue, want: Lead, per_trip: bool) -> Step:
        """A step that lays `page` out in full into the dense page `d` (1, items)."""
        acc = self.access(self.layout[page], np.arange(d.size, dtype=np.int64), want, page)
        shape = (*d.lead, d.size)

        def run(env: Env, trip: int | None) -> None:
            v = acc.read(env) if trip is None else acc.read_trip(env, trip)
            env[d.slot] = np.ascontiguousarray(np.broadcast_to(v, shape)).reshape(-1)

        return run
