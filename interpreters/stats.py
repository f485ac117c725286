"""
What `--stats` prints: the bytes each program moved and its estimated time on the chip
(`analysis/chip_time.py`), program by program, or, for a run whose programs belong to
several layers of a model (their tensors named `blk.N.*`), one row per layer.

```python
print(report(result.traffic))                 # per layer for a model, else per program
print(report(result.traffic, Detail.FULL))    # every program and tensor
step = chip_seconds(result.traffic)           # the run's time on the chip
```

A run's time is its programs' in sequence; over the chips of a tensor-parallel
deployment, each chip's in sequence and the chips at once: the slowest chip's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import auto

from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.analysis.chip_time import Bound, ProgramTime, in_sequence, over_chips
from xdsl_spatial.core.memory import plural
from xdsl_spatial.core.program_names import OpKind, op_kind
from xdsl_spatial.core.tables import text_table
from xdsl_spatial.interpreters.traffic import ProgramTraffic, Traffic


class Detail(StrEnum):
    """How much `--stats` prints."""

    SUMMARY = auto()
    """Per layer when the programs belong to several layers, else per program."""
    FULL = auto()
    """Every program and tensor, and every program's time."""


_LAYER = re.compile(r"blk[._](\d+)(?![0-9])")


def layer_number(text: str) -> int | None:
    """N for a name with `blk.N.` or `blk_N_` in it (a llama model's layer N)."""
    m = _LAYER.search(text)
    return int(m.group(1)) if m is not None else None


def first_layer(names: Iterable[str]) -> int | None:
    """The layer the first of `names` that names one names."""
    return next((n for t in names if (n := layer_number(t)) is not None), None)


def program_layer(p: ProgramTraffic) -> int | None:
    """The layer a program works for: the first of its tensors that names one."""
    return first_layer([*p.loaded, *p.stored])


def by_layer(programs: Sequence[ProgramTraffic]) -> bool:
    """Whether a summary groups `programs` by layer: they belong to more than one."""
    return len({n for p in programs if (n := program_layer(p)) is not None}) > 1


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f}"


def _duration(seconds: float) -> str:
    return f"{seconds * 1e3:.3g} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.3g} us"


def _chip_label(c: int | None) -> str:
    return "" if c is None else str(c)


def times_table(programs: Sequence[ProgramTraffic]) -> str:
    """One row per program that says what it computes: its time's terms, its time and
    what bounds it."""
    chipped = any(p.chip is not None for p in programs)
    header = ["chip"] * chipped + [
        "program",
        "bound",
        "items",
        "DRAM us",
        "NoC us",
        "compute us",
        "launch us",
        "time us",
    ]
    rows = []
    for p in sorted(programs, key=lambda p: -1 if p.chip is None else p.chip):
        t = p.chip_time()
        if t is None:
            continue
        rows.append(
            [_chip_label(p.chip)] * chipped
            + [
                p.name,
                str(t.bound),
                str(p.items),
                _us(t.dram),
                _us(t.noc),
                _us(t.compute),
                _us(t.launch),
                _us(t.total),
            ]
        )
    return text_table(header, rows, right=6)


def _bounds(times: Sequence[ProgramTime]) -> str:
    """`launch 10, dram 2`: how many programs each term bounds, the most first."""
    counts = Counter(t.bound for t in times)
    return ", ".join(f"{b} {n}" for b, n in counts.most_common())


def _chips(programs: Sequence[ProgramTraffic]) -> list[int | None]:
    return sorted({p.chip for p in programs}, key=lambda c: -1 if c is None else c)


def layers_table(programs: Sequence[ProgramTraffic]) -> str:
    """One row per layer (and one per program outside the layers), with its bytes, its
    time (per chip, over chips) and how many of its programs each term bounds; then the
    total."""
    groups: dict[str, list[ProgramTraffic]] = {}
    for p in programs:
        n = program_layer(p)
        groups.setdefault(p.name if n is None else f"layer {n}", []).append(p)
    chips = _chips(programs)
    timed = ["time us"] if chips == [None] else [f"chip {c} us" for c in chips]
    header = ["layer", "bound (programs)", "programs", "loaded B", "stored B", "DRAM B", *timed]

    def row(label: str, ps: Sequence[ProgramTraffic]) -> list[str]:
        times = [t for p in ps if (t := p.chip_time()) is not None]
        per = [in_sequence(t for p in ps if p.chip == c and (t := p.chip_time())) for c in chips]
        return [
            label,
            _bounds(times),
            str(len(ps)),
            f"{sum(p.load_bytes for p in ps):,}",
            f"{sum(p.store_bytes for p in ps):,}",
            f"{sum(p.dram_bytes for p in ps):,}",
            *(_us(s) for s in per),
        ]

    rows = [row(k, ps) for k, ps in groups.items()]
    rows.append(row("total", programs))
    return text_table(header, rows, right=4 + len(timed))


_WHY = {
    Bound.DRAM: "the chip's memory bandwidth",
    Bound.NOC: "few items: their sites' links to the NoC",
    Bound.COMPUTE: "the sites' arithmetic",
    Bound.LAUNCH: "moves and work shorter than a launch",
}


def chip_seconds(traffic: Traffic) -> float | None:
    """The run's estimated time on the chip (None when a program does not say what it
    computes, as in traffic read from an older file)."""
    per: dict[int | None, list[ProgramTime]] = {}
    for p in traffic.programs:
        t = p.chip_time()
        if t is None:
            return None
        per.setdefault(p.chip, []).append(t)
    return over_chips(per)


def chip_line(traffic: Traffic) -> str:
    """What the run would take on the chip, on which figures, and what bounds it."""
    programs = traffic.programs
    seconds = chip_seconds(traffic)
    if not programs or seconds is None:
        return "no estimate of the time on the chip: no program says what it computes"
    figures = {p.figures for p in programs if p.figures is not None}
    on = figures.pop().describe() if len(figures) == 1 else "the programs' several targets"
    times = [t for p in programs if (t := p.chip_time()) is not None]
    share: dict[Bound, float] = {}
    for t in times:
        share[t.bound] = share.get(t.bound, 0.0) + t.total
    why = "; ".join(
        f"{b} ({_WHY[b]}) {plural(sum(1 for t in times if t.bound == b), 'program')}, "
        f"{_duration(s)} ({s / sum(share.values()):.0%})"
        for b, s in sorted(share.items(), key=lambda kv: -kv[1])
    )
    chips = _chips(programs)
    if chips == [None]:
        how = f"{plural(len(programs), 'program')} in sequence"
    else:
        per = ", ".join(
            f"chip {_chip_label(c) or '-'} "
            + _duration(in_sequence(t for p in programs if p.chip == c and (t := p.chip_time())))
            for c in chips
        )
        how = f"{len(chips)} chips at once, each chip's programs in sequence ({per}): the slowest"
    return (
        f"on the chip: {_duration(seconds)}, {how} ({on}; Q8_0 scales moved as f16, a "
        f"product over fewer rows than the matrix unit's least as that many)\nbound by: {why}"
    )


def report(traffic: Traffic, detail: Detail = Detail.SUMMARY) -> str:
    """The bytes and the time on the chip of a run's programs (see `Detail`)."""
    programs = traffic.programs
    if not programs:
        return traffic.table()
    if detail == Detail.SUMMARY and by_layer(programs):
        parts = [layers_table(programs), kinds_table(programs)]
    else:
        parts = [traffic.table()]
        if any(p.chip_time() is not None for p in programs):
            parts.append(times_table(programs))
    parts.append(chip_line(traffic))
    return "\n".join(parts)


def decode_line(traffic: Traffic, host_ops: int | None = None, users: int = 1) -> str:
    """A decode step's tokens a second on the chip, from the step's traffic (of
    `users` sequences decoded together: in total and per user); what it leaves out
    when `host_ops` ops of the step compute on the host (None: not known)."""
    seconds = chip_seconds(traffic)
    if not seconds:
        return "no estimate of a decode step on the chip: no program says what it computes"
    if host_ops == 0:
        what = "every op of the step is a spatial program"
    elif host_ops is None:
        what = "its spatial programs alone; the ops between them are not counted"
    else:
        what = f"its spatial programs alone; the {host_ops} ops left on the host are not counted"
    rate = f"{1 / seconds:,.0f} tokens a second"
    if users > 1:
        rate = f"{users / seconds:,.0f} tokens a second in total, {1 / seconds:,.0f} per user"
    return (
        f"a decode step on the chip: {_duration(seconds)}, {rate} "
        f"({what}; the traffic between chips and each token's costs outside the chip are what "
        "spatial-estimate adds)"
    )


def kinds_table(programs: Sequence[ProgramTraffic]) -> str:
    """One row per op kind (products, attention, norms, elementwise, cache,
    embedding; `core/program_names.py`), with its programs, bytes and time."""
    groups: dict[str, list[ProgramTraffic]] = {}
    for p in programs:
        k = op_kind(p.name)
        groups.setdefault(str(k) if k is not None else "other", []).append(p)
    total = chip_seconds(Traffic(list(programs))) or 0.0
    header = ["op kind", "programs", "loaded B", "DRAM B", "time us", "share"]
    rows = []
    order = [str(k) for k in OpKind] + ["other"]
    for k in sorted(groups, key=order.index):
        ps = groups[k]
        t = sum(x.total for p in ps if (x := p.chip_time()) is not None)
        rows.append(
            [
                k,
                str(len(ps)),
                f"{sum(p.load_bytes for p in ps):,}",
                f"{sum(p.dram_bytes for p in ps):,}",
                _us(t),
                f"{t / total:.0%}" if total else "",
            ]
        )
    return text_table(header, rows, right=5)
