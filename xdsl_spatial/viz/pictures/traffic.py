"""Traffic charts: the bytes a run loaded and stored, per program and tensor or per
layer, and each weight's bytes per element against a bf16 copy.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from xdsl_spatial.dialects.q8 import Q8Part, stored_part
from xdsl_spatial.interpreters.stats import first_layer
from xdsl_spatial.interpreters.traffic import ProgramTraffic
from xdsl_spatial.interpreters.traffic_io import TrafficRun
from xdsl_spatial.viz.pictures.find import Selection
from xdsl_spatial.viz.pictures.render import (
    VizError,
    human_bytes,
    in_font,
    new_figure,
    require,
    text_inches,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


BF16_BYTES = 2.0
"""Bytes a weight takes as a bf16 copy: what Q8_0 is measured against."""
CATEGORIES = ("weight values", "weight scales", "activations and views", "stored")
CATEGORY_COLORS = ("#4472c4", "#ed7d31", "#a5a5a5", "#70ad47")
BAR_WIDTH = 0.64
"""Width of a traffic chart's bars' axes, as a fraction of the figure's 12 inches."""
XPAD = 1.3
"""The longest bar's share of its axes' width is 1 / XPAD: room for the labels after it."""


def program_names(p: ProgramTraffic, entry: str) -> list[str]:
    """What a program's traffic is known by: its tensors, its name, its function's."""
    return [*p.loaded, *p.stored, p.name, entry]


def tensor_category(name: str) -> str:
    part = stored_part(name)
    if part is not None:
        return "weight values" if part[1] == Q8Part.VALUES else "weight scales"
    return "activations and views"


def layer_of(run: TrafficRun) -> str:
    """`layer 3` for runs of `blk_3_*` (or over tensors `blk.3.*`), else the entry."""
    n = first_layer([run.entry] + [t for p in run.programs for t in p.loaded])
    return run.entry if n is None else f"layer {n}"


def _group(p: ProgramTraffic, entry: str) -> str:
    """The row of a per-layer chart a program's bytes go to."""
    n = first_layer(program_names(p, entry))
    return entry if n is None else f"layer {n}"


def _unit(max_bytes: float) -> tuple[str, float]:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if max_bytes >= 4 * scale:
            return unit, float(scale)
    return "B", 1.0


@in_font
def traffic_figure(runs: Sequence[TrafficRun], select: Selection | None = None) -> Figure:
    """Bytes loaded and stored per program and tensor, or per layer when the programs
    belong to several, and each weight's bytes per element against a bf16 copy; of the
    selected programs only, with `select`."""
    select = select or Selection()
    if not any(r.programs for r in runs):
        raise VizError(
            "no spatial program ran, so there is no traffic to draw "
            "(lower the module first, e.g. -p q8-lower)"
        )
    runs = [
        TrafficRun(r.entry, [p for p in r.programs if select.takes(program_names(p, r.entry))])
        for r in runs
    ]
    if not any(r.programs for r in runs):
        raise VizError(f"no program that ran is of {select.describe()}")
    groups = {_group(p, r.entry) for r in runs for p in r.programs}
    what = select.describe()
    if len(groups) == 1:
        programs = [p for r in runs for p in r.programs]
        names = ", ".join(f"@{r.entry}" for r in runs if r.programs)
        return _traffic_per_program(programs, f"{names} ({what})" if what else names)
    return _traffic_per_layer(runs, what)


def _chart(height: float, title: str) -> Figure:
    """A traffic chart's figure, 12 inches wide, with its title at the top."""
    fig = new_figure(12.0, height)
    fig.text(0.5, 1 - 0.15 / height, title, ha="center", va="top", fontsize=13, weight="bold")
    return fig


def _traffic_per_program(programs: Sequence[ProgramTraffic], source: str) -> Figure:
    tensors: list[str] = []
    for p in programs:
        for t in list(p.loaded) + list(p.stored):
            if t not in tensors:
                tensors.append(t)
    palette = _tensor_palette(tensors)
    folds = [p for p in programs if p.weight_elems]
    h_top = 0.5 + 0.45 * 2 * len(programs)
    h_bot = 0.5 + 0.45 * 2 * len(folds) if folds else 0.0
    legend_h = 0.35 + 0.25 * math.ceil(len(tensors) / 6)
    head, gap_top, xlabel, title = 0.55, 0.3, 0.6, 0.45
    total = head + gap_top + h_top + xlabel + legend_h + (title + h_bot + xlabel if folds else 0.0)
    fig = _chart(
        total,
        f"bytes moved by {source}, per program and tensor (whole tiles, as the chip moves them)",
    )
    y_top = total - head - gap_top - h_top
    ax = fig.add_axes((0.3, y_top / total, BAR_WIDTH, h_top / total))
    biggest = max(max(p.load_bytes, p.store_bytes) for p in programs) or 1
    unit, scale = _unit(biggest)
    labels, ys = [], []
    for j, p in enumerate(programs):
        for k, (what, moved) in enumerate((("loaded", p.loaded), ("stored", p.stored))):
            yv = 2 * j + k
            ys.append(yv)
            labels.append(f"{p.kind} {p.name}\n{what}: {human_bytes(sum(moved.values()))}")
            left, small = 0.0, []
            for t in tensors:
                b = moved.get(t, 0)
                if not b:
                    continue
                ax.barh(
                    yv,
                    b / scale,
                    left=left,
                    color=palette[t],
                    edgecolor="white",
                    height=0.8,
                    gid=f"bar-{p.name}-{what}-{t}",
                )
                inches = b / biggest / XPAD * BAR_WIDTH * 12.0
                size = human_bytes(b)
                if inches > text_inches(f"{t}\n{size}", 8, bold=True) + 0.05:
                    ax.text(
                        left + b / scale / 2,
                        yv,
                        f"{t}\n{size}",
                        ha="center",
                        va="center",
                        fontsize=8,
                        color="white",
                        weight="bold",
                        gid=f"label-{p.name}-{what}-{t}",
                    )
                else:
                    small.append(f"{t} {human_bytes(b)}")
                left += b / scale
            if small:
                ax.text(
                    left + biggest / scale * 0.01,
                    yv,
                    "\n".join(small),
                    va="center",
                    fontsize=8.5 if len(small) < 3 else 7,
                )
    ax.set_yticks(ys, labels, fontsize=9)
    ax.set_ylim(len(ys) - 0.4, -0.6)
    ax.set_xlim(0, biggest / scale * XPAD)
    ax.set_xlabel(f"bytes moved ({unit})", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    patches = require("matplotlib.patches")
    fig.legend(
        handles=[patches.Patch(color=palette[t], label=t) for t in tensors],
        loc="upper center",
        ncol=6,
        fontsize=9,
        frameon=False,
        bbox_to_anchor=(0.6, (y_top - xlabel) / total),
    )
    if folds:
        bx = fig.add_axes((0.3, xlabel / total, BAR_WIDTH, h_bot / total))
        _bytes_per_weight(bx, [(p.name, p) for p in folds], palette, per_tensor=True)
    return fig


def _tensor_palette(tensors: Sequence[str]) -> dict[str, Any]:
    tab = require("matplotlib").colormaps["tab10"].colors
    # tab10 less its blue and orange (the weight's parts) and its red (refusals).
    others = [tab[i] for i in (2, 4, 5, 6, 8, 9, 7)]
    fixed = {"weight values": CATEGORY_COLORS[0], "weight scales": CATEGORY_COLORS[1]}
    out: dict[str, Any] = {}
    for t in tensors:
        cat = tensor_category(t)
        if cat in fixed:
            out[t] = fixed[cat]
        else:
            out[t] = others[len([u for u in out if tensor_category(u) not in fixed]) % len(others)]
    return out


def _bytes_per_weight(
    ax: Axes, folds: Sequence[tuple[str, ProgramTraffic]], palette: dict[str, Any], per_tensor: bool
) -> None:
    """Each fold's bytes per weight, split by what it loads, over a bf16 copy's 2."""
    ys, labels = [], []
    for j, (label, p) in enumerate(folds):
        y = 2 * j
        left = 0.0
        keys = p.loaded if per_tensor else _by_category(p.loaded)
        for t, b in keys.items():
            v = b / p.weight_elems
            ax.barh(y, v, left=left, color=palette[t], edgecolor="white", height=0.8)
            left += v
        parts = ", ".join(
            f"{t} {b / p.weight_elems:.3g}" for t, b in sorted(keys.items(), key=lambda kv: -kv[1])
        )
        ax.text(
            left + 0.02,
            y,
            f"{left:.4f} B/weight ({left / BF16_BYTES:.0%} of bf16)\n{parts}",
            va="center",
            fontsize=8.5,
        )
        ax.barh(y + 1, BF16_BYTES, color="#d9d9d9", edgecolor="#999999", height=0.8, hatch="//")
        ax.text(BF16_BYTES + 0.02, y + 1, "2 B/weight", va="center", fontsize=9)
        ys += [y, y + 1]
        labels += [f"{label}\n{p.weight_elems:,} weights as Q8_0", "the same weight as a bf16 copy"]
    ax.set_yticks(ys, labels, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, BF16_BYTES * 1.35)
    ax.set_xlabel("bytes loaded per weight", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("bytes per weight against a bf16 copy", loc="left", fontsize=11)


def _by_category(moved: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t, b in moved.items():
        c = tensor_category(t)
        out[c] = out.get(c, 0) + b
    return out


def _traffic_per_layer(runs: Sequence[TrafficRun], what: str) -> Figure:
    groups: dict[str, list[ProgramTraffic]] = {}
    for r in runs:
        keys = [_group(p, r.entry) for p in r.programs]
        layered = any(k != r.entry for k in keys)
        for k, p in zip(keys, r.programs):
            rest = k == r.entry and layered  # a model's programs of no layer: its head
            groups.setdefault(f"@{k} outside the layers" if rest else k, []).append(p)

    def order(k: str) -> tuple[int, int, str]:
        m = re.fullmatch(r"layer (\d+)", k)
        return (0, int(m.group(1)), "") if m else (1, 0, k)

    keys = sorted(groups, key=order)
    moved: dict[str, dict[str, int]] = {}
    folded: dict[str, tuple[dict[str, int], int]] = {}
    for k in keys:
        acc: dict[str, int] = dict.fromkeys(CATEGORIES, 0)
        fold_acc: dict[str, int] = dict.fromkeys(CATEGORIES[:3], 0)
        welems = 0
        for p in groups[k]:
            for c, b in _by_category(p.loaded).items():
                acc[c] += b
                if p.weight_elems:
                    fold_acc[c] += b
            acc["stored"] += p.store_bytes
            welems += p.weight_elems
        moved[k] = acc
        folded[k] = (fold_acc, welems)
    n = len(keys)
    h = 0.4 + 0.45 * n
    head, xlabel, legend_h, title = 0.55, 0.6, 0.45, 0.45
    total = head + 0.3 + h + xlabel + legend_h + title + h + xlabel
    nprog = sum(len(r.programs) for r in runs)
    ran = [r for r in runs if r.programs]
    source = f"@{ran[0].entry}" if len(ran) == 1 else f"{len(ran)} runs"
    fig = _chart(
        total, f"bytes moved by {source} ({nprog} programs{', ' + what if what else ''}), per layer"
    )
    y_top = total - head - 0.3 - h
    ax = fig.add_axes((0.2, y_top / total, 0.7, h / total))
    biggest = max(sum(a.values()) for a in moved.values()) or 1
    unit, scale = _unit(biggest)
    for y, k in enumerate(keys):
        left = 0.0
        for c, color in zip(CATEGORIES, CATEGORY_COLORS):
            b = moved[k][c]
            if b:
                ax.barh(
                    y,
                    b / scale,
                    left=left,
                    color=color,
                    edgecolor="white",
                    height=0.8,
                    gid=f"bar-{k}-{c}",
                )
                left += b / scale
        ax.text(left, y, f" {human_bytes(sum(moved[k].values()))}", va="center", fontsize=8.5)
    ax.set_yticks(range(n), keys, fontsize=9)
    ax.set_ylim(n - 0.4, -0.6)
    ax.set_xlim(0, biggest / scale * 1.15)
    ax.set_xlabel(f"bytes moved ({unit}): loaded, then stored", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    patches = require("matplotlib.patches")
    fig.legend(
        handles=[
            patches.Patch(color=c, label=name) for name, c in zip(CATEGORIES, CATEGORY_COLORS)
        ],
        loc="upper center",
        ncol=4,
        fontsize=9,
        frameon=False,
        bbox_to_anchor=(0.55, (y_top - xlabel) / total),
    )
    bx = fig.add_axes((0.2, xlabel / total, 0.7, h / total))
    for y, k in enumerate(keys):
        acc, welems = folded[k]
        if not welems:
            continue
        left = 0.0
        for c, color in zip(CATEGORIES[:3], CATEGORY_COLORS):
            v = acc[c] / welems
            bx.barh(y, v, left=left, color=color, edgecolor="white", height=0.8)
            left += v
        bx.text(
            left + 0.02,
            y,
            f"{left:.4f} ({left / BF16_BYTES:.0%} of bf16)",
            va="center",
            fontsize=8.5,
        )
    bx.axvline(BF16_BYTES, color="#555555", ls="--", lw=1.2)
    bx.text(
        BF16_BYTES + 0.02,
        n - 0.6,
        "a bf16 copy: 2 B/weight",
        fontsize=9,
        va="bottom",
        color="#555555",
    )
    bx.set_yticks(range(n), keys, fontsize=9)
    bx.set_ylim(n - 0.4, -0.6)
    bx.set_xlim(0, BF16_BYTES * 1.35)
    bx.set_xlabel("bytes the folds load per weight", fontsize=10)
    bx.set_title("bytes per weight against a bf16 copy", loc="left", fontsize=11)
    bx.grid(axis="x", alpha=0.3)
    return fig


# --------------------------------------------------------------------------------------
