"""
The K loop, as the compiled engine runs it.

The loads of a loop and the stages that do not read its carry run once for all its
trips (their values carry a trip axis). A loop whose only carry-dependent stage adds
them into the carry (`carry' = carry + f(...)`, the carry read where it is written)
sums `f` over the trips instead of running trip by trip (and when `f` is a sum of its
inputs and rows of them, sums the inputs first). Any other loop runs its
carry-dependent stages and its stores once a trip, on the carried pages laid out in
full.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
from xdsl.ir import BlockArgument, Operation, SSAValue

from xdsl_spatial.dialects.spatial import (
    BufferOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    PageType,
    StageOp,
    StoreOp,
)
from xdsl_spatial.interpreters.layout import Dense, Env, Lead, Step, Values, c_strides
from xdsl_spatial.interpreters.stages import StageEval, broadcast, map_offsets
from xdsl_spatial.interpreters.values import numpy_dtype

if TYPE_CHECKING:
    from xdsl_spatial.interpreters.program import ProgramCompiler

    _Base = ProgramCompiler
else:
    _Base = object


class LoopCompiling(_Base):
    """The K loop's part of `ProgramCompiler`."""

    def k_loop(self, o: KLoopOp, steps: list[Step]) -> None:
        body = o.body.block
        trips = o.trips.data
        want = (trips, self.items)
        carry = list(body.args[1:])
        depends: set[SSAValue] = set(carry)
        hoisted: list[Operation] = []
        dependent: list[Operation] = []
        for b in body.ops:
            if isinstance(b, KYieldOp | BufferOp):
                continue
            if isinstance(b, StoreOp) or any(v in depends for v in b.operands):
                dependent.append(b)
                depends.update(b.results)
            else:
                hoisted.append(b)
        # What does not read the carry runs once, for every trip.
        self.ops(hoisted, steps, want, o, False)
        yields = list(cast(KYieldOp, body.last_op).values)
        if self.accumulate(o, dependent, carry, yields, steps):
            return
        # Anything else: the carry-dependent stages and the stores once a trip, on
        # the carried pages laid out in full.
        slots = []
        for c, init in zip(carry, o.inits):
            size = self.tile[0] * self.tile[1] * cast(PageType, c.type).tiles.data
            d = Dense(self.slot(), (1, self.items), size)
            steps.append(self.fill(d, init, (1, self.items), False))
            self.layout[c] = d
            slots.append(d)
        per_trip: list[Step] = []
        self.ops(dependent, per_trip, want, o, True)
        nexts = [Dense(self.slot(), d.lead, d.size) for d in slots]
        fills = [self.fill(n, y, want, True) for n, y in zip(nexts, yields)]

        def run(env: Env, trip: int | None) -> None:
            for t in range(trips):
                for st in per_trip:
                    st(env, t)
                for f in fills:
                    f(env, t)
                for d, n in zip(slots, nexts):
                    env[d.slot] = env[n.slot]

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

    def accumulate(
        self,
        o: KLoopOp,
        dependent: list[Operation],
        carry: list[BlockArgument],
        yields: list[SSAValue],
        steps: list[Step],
    ) -> bool:
        """A loop whose carry only accumulates (`carry' = carry + f(...)`, the carry
        read where it is written, f of what runs for every trip): the result is the
        initial carry plus f summed over the trips, computed once. When f is a sum of
        its inputs and rows of them, the inputs are summed over the trips first."""
        if (
            not self.fast
            or len(carry) != 1
            or len(dependent) != 1
            or not isinstance(dependent[0], StageOp)
        ):
            return False
        st = dependent[0]
        if yields != [st.result] or any(k == IterKind.SUM for k in st.iter_kinds):
            return False
        reads = [i for i, v in enumerate(st.ins) if v is carry[0]]
        if len(reads) != 1:
            return False
        j = reads[0]
        arg = st.body.block.args[j]
        if (
            st.indirect_of[j] >= 0
            or j in st.indirect_of
            or st.in_maps[j] != st.out_map
            or st.ins[j].type != st.result.type
            or not arg.has_one_use()
            or numpy_dtype(cast(PageType, st.result.type).element_type) != np.float32
        ):
            return False
        ext = st.iter_extents
        want = (o.trips.data, self.items)
        accs = [
            None if i == j else self.operand(st, i, ext, want, None) for i in range(len(st.ins))
        ]
        ones = (1,) * (2 + len(ext))
        shapes = [ones if a is None else a.access.shape for a in accs]
        ev = StageEval(st, shapes, 2, 0)
        terms = ev.body.terms
        if not terms or terms[0].slot != j or terms[0].rows:
            return False
        linear = not ev.body.steps and all(t.slot < len(st.ins) for t in terms)
        init_acc = self.access(
            self.layout[o.inits[0]], map_offsets(st.in_maps[j], ext), (1, self.items), o.inits[0]
        )
        stacked: list[Any] = []
        if linear:
            summed = [ones if a is None else (1, *a.access.shape[1:]) for a in accs]
            summed[j] = init_acc.access.shape
            ev = StageEval(st, summed, 2, 0)
            accs, stacked = self.stack_row_groups(ev, accs, False)
        else:
            ev = StageEval(st, shapes, 2, 0, drop_first=True)
        out = self.slot()
        shape = broadcast(init_acc.access.shape, ev.shape if linear else (1, *ev.shape[1:]))
        o_map = map_offsets(st.out_map, ext)
        o_map = np.broadcast_to(o_map, ext)
        size = self.tile[0] * self.tile[1] * cast(PageType, st.result.type).tiles.data

        def summed_over_trips(v: np.ndarray) -> np.ndarray:
            return v.sum(axis=0, keepdims=True, dtype=np.float32) if v.shape[0] > 1 else v

        def run(env: Env, trip: int | None) -> None:
            ops: list[Any] = []
            for a in accs:
                if a is None:
                    ops.append(np.float32(0))
                    continue
                v = a.read(env)
                ops.append(summed_over_trips(v) if linear else v)
            init = init_acc.read(env)
            if linear:
                ops[j] = init
                total = ev.run(ops, [summed_over_trips(r.read(env)) for r in stacked])
            else:
                f = ev.run(ops)
                if f.shape[0] > 1:
                    f = f.sum(axis=0, keepdims=True, dtype=np.float32)
                total = np.add(init, f, dtype=np.float32)
            env[out] = np.ascontiguousarray(
                np.broadcast_to(total, shape), dtype=np.float32
            ).reshape(-1)

        steps.append(run)
        self.layout[o.results[0]] = Values(out, shape, 0, c_strides(shape), o_map, size)
        return True
