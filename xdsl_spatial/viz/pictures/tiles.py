"""Tile maps: which work item of a program owns each tile of its output, with the tiles
the verifier refused marked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from xdsl_spatial.analysis.ownership import SHARED, Ownership, TileMap
from xdsl_spatial.viz.pictures.render import (
    in_font,
    new_figure,
    require,
    short_refusal,
    text_inches,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def item_colors(n: int) -> np.ndarray:
    """(n, 3) RGB: neighbouring items get far-apart colours."""
    colors = require("matplotlib.colors")
    cm = require("matplotlib")
    if n <= 20:
        tab = np.asarray(cm.colormaps["tab20"].colors)
        order = list(range(0, 20, 2)) + list(range(1, 20, 2))
        return tab[order[:n]]
    hues = (np.arange(n) * 0.61803398875) % 1.0
    sat = np.where(np.arange(n) % 2 == 0, 0.65, 0.45)
    val = np.where(np.arange(n) % 3 == 0, 0.95, 0.8)
    return colors.hsv_to_rgb(np.stack([hues, sat, val], axis=1))


SHARED_RGB = (0.62, 0.62, 0.62)
UNTOUCHED_RGB = (1.0, 1.0, 1.0)
OUTSIDE_RGB = (0.97, 0.85, 0.85)
MARK_RED = "#c00000"
STRAY = "#ff8c00"
MAX_MARKS = 4096
"""Offending tiles drawn one by one (each with its own id in an SVG); beyond that only
the first ones are, and the panel's title counts them all."""


def _item_list(items: Sequence[int], n: int) -> str:
    items = sorted(set(items))
    if not items:
        return "no item"
    if len(items) == n and n > 2:
        return f"all {n} items"
    if len(items) > 4:
        return f"{len(items)} items"
    if len(items) == 1:
        return f"item {items[0]}"
    return "items " + ", ".join(map(str, items[:-1])) + f" and {items[-1]}"


@in_font
def tiles_figure(own: Ownership, refusal: str = "") -> Figure:
    """Each tensor the program moves as its tile grid, a tile coloured by the item that
    writes (or reads) it; tiles the verifier refuses marked in red."""
    patches = require("matplotlib.patches")
    mlines = require("matplotlib.lines")
    n = own.num_items
    colors = item_colors(n)
    width = 12.0
    layout: list[tuple[TileMap, float, float]] = []
    for m in own.maps:
        _, _, h, w = m.extent
        cell = min(width / w, 4.2 / h, 0.55)
        layout.append((m, w * cell, max(h * cell, 0.55)))
    refusal_lines = short_refusal(refusal)
    head = 0.6 + 0.26 * len(refusal_lines)
    legend_h = 0.3 + 0.22 * math.ceil((min(n, 40) + 5) / 8)
    above = 0.5

    def below(m: TileMap) -> float:
        return 0.85 if (m.overlap | m.unwritten | m.outside).any() else 0.6

    total = head + sum(ph + above + below(m) for m, _, ph in layout) + legend_h
    fig = new_figure(width + 1.4, total)
    grid = "x".join(map(str, own.grid))
    fig.text(
        0.5,
        1 - 0.15 / total,
        f"{own.kind} {own.program}: which of its {n} work items (grid [{grid}], "
        "numbered row-major) moves which tile",
        ha="center",
        va="top",
        fontsize=13,
        weight="bold",
    )
    for j, line in enumerate(refusal_lines):
        fig.text(
            0.5,
            1 - (0.5 + 0.26 * j) / total,
            ("refused by the verifier: " if j == 0 else "") + line,
            ha="center",
            va="top",
            fontsize=11,
            color=MARK_RED,
        )
    y = total - head
    left = 0.75
    for idx, (m, pw, ph) in enumerate(layout):
        y -= above + ph
        ax = fig.add_axes(
            (left / fig.get_figwidth(), y / total, pw / fig.get_figwidth(), ph / total)
        )
        _draw_tile_map(ax, m, own, colors, patches, is_primary=idx == 0)
        y -= below(m)

    handles = [
        patches.Patch(facecolor=colors[i], edgecolor="none", label=f"item {i}")
        for i in range(min(n, 40))
    ]
    if n > 40:
        handles.append(patches.Patch(facecolor="white", edgecolor="none", label=f"… {n} items"))
    handles += [
        patches.Patch(facecolor=SHARED_RGB, label="moved by several items"),
        patches.Patch(facecolor="white", edgecolor="#888888", hatch="////", label="holds padding"),
        mlines.Line2D([], [], color="black", linestyle="--", label="what an item owns"),
        patches.Patch(facecolor="none", edgecolor=MARK_RED, hatch="xx", label="refused tile"),
    ]
    fig.legend(
        handles=handles,
        loc="lower center",
        ncol=8,
        fontsize=9,
        frameon=False,
        bbox_to_anchor=(0.5, 0.02 / total),
    )
    return fig


def _draw_tile_map(
    ax: Axes, m: TileMap, own: Ownership, colors: np.ndarray, patches: Any, is_primary: bool
) -> None:
    r_lo, c_lo, h, w = m.extent
    owner = m.owner
    rgb = np.empty((h, w, 3))
    rgb[:] = UNTOUCHED_RGB
    rgb[~m.inside] = OUTSIDE_RGB
    mine = owner >= 0
    rgb[mine] = colors[owner[mine]]
    rgb[owner == SHARED] = SHARED_RGB
    x0, x1, y1, y0 = c_lo, c_lo + w, r_lo + h, r_lo
    ax.imshow(rgb, extent=(x0, x1, y1, y0), interpolation="nearest", aspect="auto")
    ax.set_xlim(x0, x1)
    ax.set_ylim(y1, y0)
    r, c = m.dims
    verb = "written" if m.access == "write" else "read"
    title = (
        f"{m.name}: {m.role} {r}x{c}, {m.grid[0]}x{m.grid[1]} tiles of "
        f"{m.tile[0]}x{m.tile[1]}, {verb} by the items"
    )
    if m.unknown:
        title += f" (some tiles unknown before a run: {m.unknown})"
    ax.set_title(title, loc="left", fontsize=11)
    notes = []
    if m.overlap.any():
        notes.append(f"{int(m.overlap.sum())} tiles written by two or more items")
    if m.unwritten.any():
        notes.append(f"{int(m.unwritten.sum())} tiles written by no item")
    if m.outside.any():
        notes.append(f"{int(m.outside.sum())} tiles outside '{m.name}'")
    if notes:  # under the axis label
        ax.annotate(
            "refused: " + "; ".join(notes),
            xy=(0, 0),
            xycoords="axes fraction",
            xytext=(0, -36),
            textcoords="offset points",
            ha="left",
            va="top",
            fontsize=10,
            color=MARK_RED,
            weight="bold",
            annotation_clip=False,
        )
    # The tensor's own edge, when moves reach past it.
    if m.outside.any():
        ax.add_patch(
            patches.Rectangle((0, 0), m.grid[1], m.grid[0], fill=False, lw=2.0, ec="black")
        )
    pos = ax.get_position()
    fig = cast("Figure", ax.get_figure())  # the map's axes are the figure's own, no subfigure
    _ticks(ax, x0, x1, y0, y1, pos.width * fig.get_figwidth(), pos.height * fig.get_figheight())
    if w <= 64 and h <= 64:
        ax.set_xticks(np.arange(x0, x1 + 1), minor=True)
        ax.set_yticks(np.arange(y0, y1 + 1), minor=True)
        ax.grid(which="minor", color="white", linewidth=0.6)
        ax.tick_params(which="minor", length=0)

    if m.padded.any():
        fr = (m.dims[0] % m.tile[0]) / m.tile[0]
        fc = (m.dims[1] % m.tile[1]) / m.tile[1]
        # The padded part of the last tile row (and column), as one band each.
        if fr:
            row = m.grid[0] - 1
            ax.add_patch(
                patches.Rectangle(
                    (0, row + fr),
                    m.grid[1],
                    1 - fr,
                    fill=False,
                    hatch="////",
                    ec=(1, 1, 1, 0.55),
                    lw=0,
                    gid=f"pad-{m.name}-rows",
                )
            )
        if fc:
            col = m.grid[1] - 1
            ax.add_patch(
                patches.Rectangle(
                    (col + fc, 0),
                    1 - fc,
                    m.grid[0],
                    fill=False,
                    hatch="\\\\\\\\",
                    ec=(1, 1, 1, 0.55),
                    lw=0,
                    gid=f"pad-{m.name}-cols",
                )
            )

    # Labels: each item at the middle of the tiles it alone moves, when they fit.
    cw = ax.get_position().width * fig.get_figwidth() / w
    chh = ax.get_position().height * fig.get_figheight() / h
    for i in np.unique(owner[owner >= 0]):
        rr, cc = np.nonzero(owner == i)
        wi, hi = (cc.max() - cc.min() + 1) * cw, (rr.max() - rr.min() + 1) * chh
        label = f"item {i}"
        if wi < text_inches(label + " ", 9):
            label = str(i)
        if wi < text_inches(label + " ", 9) or hi < 0.14:
            continue
        ax.text(
            c_lo + (cc.min() + cc.max() + 1) / 2,
            r_lo + (rr.min() + rr.max() + 1) / 2,
            label,
            ha="center",
            va="center",
            fontsize=9,
            color="black",
            gid=f"label-{m.name}-item-{i}",
        )
    if (owner == SHARED).any() and not m.overlap.any():
        rr, cc = np.nonzero(owner == SHARED)
        readers = np.unique(
            m.touches.items[
                np.isin((m.touches.rows - r_lo) * w + (m.touches.cols - c_lo), rr * w + cc)
            ]
        )
        text = _item_list(readers.tolist(), own.num_items)
        text = f"read by {text}" if m.access == "read" else text
        fits = (cc.max() - cc.min() + 1) * cw > text_inches(text + "  ", 9)
        # centred on the tiles, or beside them when they are too narrow for it
        _note(ax, text, (r_lo + rr, c_lo + cc), None if fits else 1.15, color="black")

    if is_primary and m.access == "write" and own.owned.size:
        for i, (r0, c0, oh, ow) in enumerate(own.owned.tolist()):
            ax.add_patch(
                patches.Rectangle(
                    (c0, r0), ow, oh, fill=False, ls="--", lw=1.0, ec="black", gid=f"owns-item-{i}"
                )
            )
        for i, rr, cc in own.strays()[:MAX_MARKS]:
            ax.add_patch(
                patches.Rectangle(
                    (cc, rr),
                    1,
                    1,
                    fill=False,
                    lw=2.2,
                    ec=STRAY,
                    gid=f"stray-{m.name}-{rr}-{cc}-item-{i}",
                )
            )

    marks = 0
    for kind, mask in (("overlap", m.overlap), ("unwritten", m.unwritten), ("outside", m.outside)):
        for rr, cc in zip(*np.nonzero(mask)):
            if marks >= MAX_MARKS:
                break
            marks += 1
            tr, tc = int(rr) + r_lo, int(cc) + c_lo
            ax.add_patch(
                patches.Rectangle(
                    (tc, tr),
                    1,
                    1,
                    fill=False,
                    hatch="xx",
                    ec=MARK_RED,
                    lw=1.5,
                    gid=f"{kind}-{m.name}-{tr}-{tc}",
                )
            )
    _mark_notes(ax, m, own)


def _mark_notes(ax: Axes, m: TileMap, own: Ownership) -> None:
    """Beside the first refused tile of each kind: which items, and why."""
    r_lo, c_lo, _, w = m.extent
    t = m.touches
    cells = (t.rows - r_lo) * w + (t.cols - c_lo)
    for kind, mask in (("overlap", m.overlap), ("unwritten", m.unwritten), ("outside", m.outside)):
        if not mask.any():
            continue
        rr, cc = np.nonzero(mask)
        first = rr[0] * w + cc[0]
        who = t.items[cells == first].tolist()
        who_text = _item_list(who, own.num_items)
        if kind == "overlap":
            text = f"{who_text} {'all' if len(set(who)) > 2 else 'both'} write these"
        elif kind == "unwritten":
            text = "written by no item"
        else:
            text = f"outside '{m.name}': {who_text}"
        box = {"boxstyle": "round,pad=0.2", "fc": "white", "ec": MARK_RED, "alpha": 0.9}
        # a note on tiles outside the tensor goes past its edge, where nothing else is drawn
        beside = 1.2 if kind == "outside" else None
        _note(ax, text, (r_lo + rr, c_lo + cc), beside, color=MARK_RED, weight="bold", bbox=box)


def _note(
    ax: Axes, text: str, tiles: tuple[np.ndarray, np.ndarray], beside: float | None, **style: Any
) -> None:
    """`text` on the tiles (rows, columns): centred on them, or `beside` tiles past
    their right edge."""
    rows, cols = tiles
    y = (rows.min() + rows.max() + 1) / 2
    if beside is None:
        x = (cols.min() + cols.max() + 1) / 2
        ax.text(x, y, text, ha="center", va="center", fontsize=9, **style)
    else:
        x = cols.max() + beside
        ax.text(x, y, text, ha="left", va="center", fontsize=9, clip_on=False, **style)


def _ticks(ax: Axes, x0: int, x1: int, y0: int, y1: int, w_in: float, h_in: float) -> None:
    """Tile numbers every 1, 2, 4, ... tiles: at most 16, and 0.3 inches apart."""

    def steps(lo: int, hi: int, inches: float) -> np.ndarray:
        most = max(1.0, min(16.0, inches / 0.3))
        step = 1
        while (hi - lo) / step > most:
            step *= 2
        return np.arange(lo - lo % step, hi, step)

    xs, ys = steps(x0, x1, w_in), steps(y0, y1, h_in)
    ax.set_xticks(xs + 0.5, [str(v) for v in xs], fontsize=8)
    ax.set_yticks(ys + 0.5, [str(v) for v in ys], fontsize=8)
    ax.set_xlabel("tile column", fontsize=9)
    ax.set_ylabel("tile row", fontsize=9)
    ax.tick_params(length=2)


# --------------------------------------------------------------------------------------
