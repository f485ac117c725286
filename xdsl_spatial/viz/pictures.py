"""
Pictures of spatial programs: the dataflow of a program or a function, the tiles each
work item owns, and the bytes a run moved. What `spatial-viz` draws.

Graphs are DOT, built with the `graphviz` package and laid out by Graphviz's `dot`
(the system's when it is on PATH, else the `graphviz-pure` program the `[viz]` extra
installs); tile maps and traffic charts are matplotlib figures. Every picture is SVG
or PNG, by the output's extension, and text in an SVG stays text (searchable, and
what the tests read).

```python
from xdsl_spatial.viz import pictures as viz
from xdsl_spatial.analysis.ownership import ownership

fold = viz.find_program(module, "fold")
svg = viz.render_graph(viz.program_graph(fold), "svg")
png = viz.figure_bytes(viz.tiles_figure(ownership(fold)), "png")
```
"""

from __future__ import annotations

import functools
import html
import importlib
import io
import math
import os
import re
import shutil
import subprocess
import sysconfig
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, ParamSpec, cast

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from xdsl_spatial.analysis.chip_time import stage_kind
from xdsl_spatial.analysis.ownership import SHARED, Ownership, TileMap
from xdsl_spatial.dialects.q8 import Q8Part, stored_part
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    KLoopOp,
    KYieldOp,
    LoadOp,
    ProgramOp,
    Role,
    StageOp,
    StoreOp,
    TensorOp,
    YieldOp,
    element_name,
    format_linear,
)
from xdsl_spatial.interpreters.stats import first_layer
from xdsl_spatial.interpreters.traffic import ProgramTraffic
from xdsl_spatial.interpreters.traffic_io import TrafficRun

if TYPE_CHECKING:
    import graphviz
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

P = ParamSpec("P")

EXTRA = "viz"
INSTALL_HINT = "pip install -e '.[viz]'"
FORMATS = ("svg", "png")
DOT_PROGRAMS = ("dot", "graphviz-pure")
"""Graphviz layout programs tried in turn: the system's, then the extra's."""
PNG_DPI = 110
FONT = "DejaVu Sans"
"""The pictures' one font: Debian ships it (fonts-dejavu-core), matplotlib bundles it,
and Graphviz lays a label out with its metrics, so a box sized for its text holds it
wherever the SVG is shown; `text_inches` measures with the same metrics."""


class VizError(Exception):
    """A picture that cannot be made; the message says why."""


class MissingExtra(VizError):
    def __init__(self, module: str):
        super().__init__(
            f"spatial-viz needs the optional extra [{EXTRA}] (the Python module "
            f"'{module}' is not installed): {INSTALL_HINT}"
        )
        self.module = module


def require(module: str) -> ModuleType:
    """Import a module of the `[viz]` extra, or say which extra brings it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(module.split(".")[0]) from None


def check_extra() -> None:
    """Fail now, naming the extra, if any of its Python modules is missing."""
    for m in ("graphviz", "matplotlib"):
        require(m)


def output_format(path: str) -> str:
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise VizError(f"cannot tell the picture's format from '{path}': name it .svg or .png")
    return ext


# --------------------------------------------------------------------------------------
# Words and numbers
# --------------------------------------------------------------------------------------


def human_bytes(n: float) -> str:
    """`512 KiB`, `8 MiB`, `1.13 MiB`: binary units, three significant digits."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(n) >= scale:
            v = n / scale
            return f"{v:.3g} {unit}"
    return f"{int(n)} B"


@functools.cache
def _font(size: float, bold: bool) -> Any:
    fm = require("matplotlib.font_manager")
    return fm.FontProperties(family=FONT, size=size, weight="bold" if bold else "normal")


def text_inches(text: str, size: float, bold: bool = False) -> float:
    """The width of `text`'s longest line in `FONT` at `size` points, in inches, from
    the font's own metrics."""
    measure = require("matplotlib.textpath").TextToPath().get_text_width_height_descent
    return (
        max(
            (measure(line, _font(size, bold), ismath=False)[0] for line in text.splitlines()),
            default=0.0,
        )
        / 72.0
    )


def _in_font(draw: Callable[P, Figure]) -> Callable[P, Figure]:
    """`draw` with its text in `FONT` (a figure's text takes the font it is made in)."""

    @functools.wraps(draw)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> Figure:
        with require("matplotlib").rc_context({"font.family": [FONT]}):
            return draw(*args, **kwargs)

    return drawn


def _type_str(t: Attribute) -> str:
    if isinstance(t, TensorType):
        shape = "x".join(str(d) for d in t.get_shape())
        return f"{shape} {element_name(t.element_type)}"
    return str(t)


def _value_name(v: SSAValue) -> str:
    return f"%{v.name_hint}" if v.name_hint else ""


def _h(s: object) -> str:
    return html.escape(str(s), quote=False)


def _label(title: str, *lines: str, note: str = "", kind: str = "") -> str:
    """An HTML-like DOT label: a bold first line (`title` is escaped already), then
    plain lines, then a small one."""
    head = f"<b>{title}</b>" + (f" <i>({_h(kind)})</i>" if kind else "")
    out = [head] + [_h(x) for x in lines if x]
    if note:
        out.append(f'<font point-size="10">{_h(note)}</font>')
    return "<" + "<br/>".join(out) + ">"


# --------------------------------------------------------------------------------------
# Dataflow: one program
# --------------------------------------------------------------------------------------

ROLE_FILL = {
    Role.INPUT: "#dbe9f6",
    Role.PARAM: "#fff2cc",
    Role.OUTPUT: "#d9ead3",
    Role.STATE: "#f4cccc",
}
CARRY_COLOR = "#c00000"
BODY_OPS_SHOWN = 6
"""A stage body of more ops is shown as counts of each."""
REFUSED_COLOR = "#c00000"


def _body_ops(stage: StageOp) -> str:
    """The body's ops in order, `extf · sitofp · mulf · mulf`; a constant with its value."""
    out = []
    for o in stage.body.block.ops:
        if isinstance(o, YieldOp):
            continue
        name = o.name.removeprefix("arith.")
        if isinstance(o, arith.ConstantOp) and isinstance(o.value, IntegerAttr | FloatAttr):
            name = f"{name} {o.value.value.data:g}"
        out.append(name)
    if len(out) <= BODY_OPS_SHOWN:
        return " · ".join(out)
    counts = Counter(o.split(" ")[0] for o in out)
    return f"{len(out)} ops: " + " · ".join(f"{k} ×{v}" if v > 1 else k for k, v in counts.items())


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def _iters(stage: StageOp) -> str:
    return " × ".join(f"{k} {e}" for k, e in zip(stage.iter_kinds, stage.iter_extents))


def _map_str(m: Any) -> str:
    dims = [f"d{i}" for i in range(m.num_dims)]
    return format_linear(m.results[0], dims, ["s0"][: m.num_symbols])


def origin_text(move: LoadOp | StoreOp) -> str:
    """`[kb * 4096 + item * 8]`, the origin as the op prints it."""
    names = [_value_name(v).lstrip("%") or f"v{i}" for i, v in enumerate(move.origin_vars)]
    text = format_linear(move.origin.data.results[0], (), names)
    if move.table is not None and move.table_at is not None:
        tname = _tensor_name(move.table)
        at = format_linear(move.table_at.data.results[0], (), names)
        text = f"{text} + {tname}[{at}]" if text != "0" else f"{tname}[{at}]"
    return f"[{text}]"


def _tensor_name(v: SSAValue) -> str:
    return v.owner.tensor_name.data if isinstance(v.owner, TensorOp) else _value_name(v)


def _move_lines(move: LoadOp | StoreOp) -> tuple[str, str]:
    h, w = move.block_shape
    return origin_text(
        move
    ), f"block {h}x{w} · stride {move.stride.data} · repeat {move.repeat.data}"


def owns_text(program: ProgramOp) -> str:
    owns = program.owns.data
    dims = [f"d{i}" for i in range(owns.num_dims)]
    rc = ", ".join(format_linear(e, dims, ()) for e in owns.results)
    size = "x".join(str(s) for s in program.owns_size.get_values())
    return f"owns ({', '.join(dims)}) -> ({rc}) size {size}"


def _walk_program(program: ProgramOp) -> Iterable[Operation]:
    for op in program.entry.ops:
        yield op
        if isinstance(op, KLoopOp):
            yield from op.body.block.ops


def program_graph(program: ProgramOp, refusal: str = "") -> graphviz.Digraph:
    """One work item's body: tensors, loads, buffers, stages and stores, the K loop as
    a box around what it repeats, and its carry as a red back edge."""
    gv = require("graphviz")
    tile = program.target.tile_elems
    used = program.buffer_bytes()
    local = program.target.local_mem.data
    title = [
        f"{program.KIND} {program.program_name.data}: one work item's body, run by "
        f"{program.num_items} items (grid [{', '.join(map(str, program.grid_shape))}])",
        f"{owns_text(program)} · buffers {human_bytes(used)} of {human_bytes(local)} local memory",
    ]
    g = _digraph(
        program.program_name.data, _graph_title(title, refusal), nodesep="0.35", ranksep="0.45"
    )
    nid = _node_ids()

    loops = [op for op in program.body.walk() if isinstance(op, KLoopOp)]
    loop = loops[0] if loops else None
    in_loop: set[Operation] = set(loop.body.block.ops) if loop is not None else set()

    # Buffers every one of whose writers is inside the loop live for one trip: they
    # are drawn inside its box; a buffer written outside it too holds the carry.
    writers: dict[SSAValue, list[Operation]] = {}
    for op in _walk_program(program):
        if isinstance(op, LoadOp | StageOp):
            writers.setdefault(op.buffer, []).append(op)

    def buffer_in_loop(b: SSAValue) -> bool:
        ws = writers.get(b, [])
        return bool(ws) and all(w in in_loop for w in ws)

    top = g
    cluster = None
    if loop is not None:
        cluster = gv.Digraph(f"cluster_{nid(loop)}")
        carried = ", ".join(_buffer_name(_page_buffer(v, loop)) for v in loop.inits)
        cluster.attr(
            label=f"k_loop {_value_name(loop.induction_var) or '%k'} = 0 to "
            f"{loop.trips.data}: {loop.trips.data} trip{'s' if loop.trips.data != 1 else ''}"
            + (f", carrying {carried}" if carried else ""),
            style="rounded,dashed",
            color="#444444",
            fontsize="13",
            labeljust="l",
        )

    def where(op_or_buf: Operation | SSAValue) -> graphviz.Digraph:
        if cluster is None:
            return top
        if isinstance(op_or_buf, SSAValue):
            return cluster if buffer_in_loop(op_or_buf) else top
        return cluster if op_or_buf in in_loop else top

    for t in program.tensors():
        h = t.handle
        r, c = h.dims
        tr, tc = -(-r // program.target.tile[0]), -(-c // program.target.tile[1])
        init = {"external": "", "zero": "starts at zero", "values": "constant values"}[t.init]
        repack = f"repack {t.repack.text()}" if t.repack is not None else ""
        top.node(
            nid(t.result),
            _label(
                _h(t.tensor_name.data),
                f"{h.role.data} · {r}x{c} {element_name(h.element_type)}",
                f"{tr}x{tc} tile{'s' if tr * tc != 1 else ''}",
                note=" · ".join(x for x in (init, repack) if x),
            ),
            shape="cylinder",
            style="filled",
            fillcolor=ROLE_FILL.get(h.role.data, "white"),
        )

    for b in program.buffers():
        bt = cast(BufferType, b.result.type)
        where(b.result).node(
            nid(b.result),
            _label(
                _h(b.buffer_name.data),
                f"{_tiles(bt.tiles.data)} {element_name(bt.element_type)} · depth {bt.depth.data}",
                human_bytes(bt.bytes(tile)),
            ),
            shape="box3d",
            style="filled",
            fillcolor="#eeeeee",
        )

    def page_buffer(v: SSAValue) -> SSAValue:
        return _page_buffer(v, loop)

    carry_args = set(loop.body.block.args[1:]) if loop is not None else set()
    yields: dict[SSAValue, int] = {}
    if loop is not None and isinstance(loop.body.block.last_op, KYieldOp):
        yields = {v: i for i, v in enumerate(loop.body.block.last_op.values)}
    producer: dict[SSAValue, str] = {}

    def read_edge(page: SSAValue, to: str, label: str = "") -> None:
        if page in carry_args and loop is not None:
            i = list(loop.body.block.args).index(cast(BlockArgument, page)) - 1
            init, last = loop.inits[i], _yielded(loop, i)
            g.edge(
                nid(page_buffer(init)),
                to,
                label=_join(label, "acc: the carry"),
                color=CARRY_COLOR,
                fontcolor=CARRY_COLOR,
            )
            if page_buffer(last) is not page_buffer(init):
                g.edge(
                    nid(page_buffer(last)),
                    to,
                    label="carry: the previous trip's",
                    color=CARRY_COLOR,
                    fontcolor=CARRY_COLOR,
                    style="bold",
                    constraint="false",
                )
            return
        if loop is not None and page in loop.res:
            i = list(loop.res).index(page)
            last = _yielded(loop, i)
            g.edge(nid(page_buffer(last)), to, label=_join(label, "after the last trip"))
            if last in producer:
                g.edge(producer[last], to, style="invis")
            return
        g.edge(nid(page_buffer(page)), to, label=label)

    def write_edge(op: LoadOp | StageOp, node: str, label: str = "") -> None:
        page = op.result
        i = yields.get(page)
        if loop is not None and i is not None and page_buffer(loop.inits[i]) is op.buffer:
            g.edge(
                node,
                nid(op.buffer),
                label=_join(label, "k_yield: carry to the next trip"),
                color=CARRY_COLOR,
                fontcolor=CARRY_COLOR,
                style="bold",
                constraint="false",
            )
        else:
            g.edge(node, nid(op.buffer), label=label)

    for op in _walk_program(program):
        if isinstance(op, LoadOp):
            node = nid(op)
            origin, block = _move_lines(op)
            where(op).node(
                node,
                _label(f"load {_h(_tensor_name(op.tensor))}", origin, block),
                shape="box",
                style="rounded,filled",
                fillcolor="#e3ecfa",
            )
            g.edge(nid(op.tensor), node)
            producer[op.result] = node
            write_edge(op, node)
        elif isinstance(op, StageOp):
            node = nid(op)
            where(op).node(
                node,
                _label(_h(op.stage_name.data), _iters(op), note=_body_ops(op), kind=stage_kind(op)),
                shape="box",
                style="filled,bold",
                fillcolor="#fde9d9",
            )
            for i, v in enumerate(op.ins):
                via = op.indirect_of[i]
                read_edge(
                    v, node, f"[{_map_str(op.in_maps[i])}]" + (f" s0 = in{via}" if via >= 0 else "")
                )
            producer[op.result] = node
            write_edge(op, node, f"[{_map_str(op.out_map)}]")
        elif isinstance(op, StoreOp):
            node = nid(op)
            origin, block = _move_lines(op)
            where(op).node(
                node,
                _label(f"store {_h(_tensor_name(op.tensor))}", origin, block),
                shape="box",
                style="rounded,filled",
                fillcolor="#e2f0d9",
            )
            read_edge(op.page, node)
            g.edge(node, nid(op.tensor))
    if cluster is not None:
        g.subgraph(cluster)
    return g


def _join(a: str, b: str) -> str:
    return f"{a} {b}" if a else b


def _yielded(loop: KLoopOp, i: int) -> SSAValue:
    term = loop.body.block.last_op
    assert isinstance(term, KYieldOp)
    return term.values[i]


def _page_buffer(v: SSAValue, loop: KLoopOp | None) -> SSAValue:
    """The buffer a page is in: its maker's, or for a carried page its start's."""
    for _ in range(8):
        owner = v.owner
        if isinstance(owner, LoadOp | StageOp):
            return owner.buffer
        if (
            loop is not None
            and isinstance(v, BlockArgument)
            and v.owner is loop.body.block
            and v.index > 0
        ):
            v = loop.inits[v.index - 1]
        elif loop is not None and owner is loop:
            v = _yielded(loop, list(loop.res).index(v))
        else:
            break
    raise VizError(f"cannot tell which buffer the page {_value_name(v) or v} is in")


def _buffer_name(b: SSAValue) -> str:
    return b.owner.buffer_name.data if isinstance(b.owner, BufferOp) else _value_name(b)


def _digraph(name: str, label: str, **spacing: str) -> graphviz.Digraph:
    """A top-to-bottom graph titled `label`, in the pictures' one style."""
    g = require("graphviz").Digraph(name)
    g.attr(rankdir="TB", labelloc="t", fontname=FONT, fontsize="16", label=label, **spacing)
    g.attr("node", fontname=FONT, fontsize="12", margin="0.12,0.06")
    g.attr("edge", fontname=FONT, fontsize="10", color="#555555")
    return g


def _node_ids() -> Callable[[object], str]:
    """A namer of graph nodes: the same id for the same key, a new one for a new key."""
    ids: dict[object, str] = {}

    def nid(key: object) -> str:
        if key not in ids:
            ids[key] = f"n{len(ids)}"
        return ids[key]

    return nid


def _graph_title(lines: Sequence[str], refusal: str) -> str:
    out = [_h(x) for x in lines]
    for j, x in enumerate(_short_refusal(refusal) if refusal else []):
        out.append(
            f'<font color="{REFUSED_COLOR}">{"refused: " if j == 0 else ""}{_h(x.strip())}</font>'
        )
    return "<" + "<br/>".join(out) + "<br/> >"


# --------------------------------------------------------------------------------------
# Dataflow: functions of programs
# --------------------------------------------------------------------------------------


def _program_summary(p: ProgramOp) -> str:
    size = "x".join(str(s) for s in p.owns_size.get_values())
    trips = p.plan.k_blocks.data
    return _label(
        f"{p.KIND} {_h(p.program_name.data)}",
        f"{p.num_items} items · grid [{', '.join(map(str, p.grid_shape))}] · owns {size} tiles",
        f"K loop: {trips} trip{'s' if trips != 1 else ''} · buffers {human_bytes(p.buffer_bytes())}",
        note=f"numerics {p.numerics.kind.data}"
        + (f": {p.numerics.reason.data}" if p.numerics.reason.data else ""),
    )


MAX_GRAPH_NODES = 1500
"""Nodes a function graph may have: Graphviz lays out a few hundred in seconds, but a
whole model's decode step (thousands) in no time one waits for."""

_NO_DATA = ("tensor.empty", "arith.constant")
"""Ops whose results carry no data a picture of a part of a function needs to show."""


def function_graph(
    functions: Sequence[func.FuncOp], refusal: str = "", select: Selection | None = None
) -> graphviz.Digraph:
    """Views, folds and other ops of each function, with the tensors between them; with
    `select`, only the selected ops, and what they read from the others as inputs."""
    gv = require("graphviz")
    select = select or Selection()
    names = ", ".join(f"@{f.sym_name.data}" for f in functions)
    part = f" ({select.describe()})" if select else ""
    g = _digraph(
        "functions",
        _graph_title([f"the programs of {names}{part} and the tensors between them"], refusal),
        nodesep="0.3",
    )
    nid = _node_ids()
    nodes = 0

    for f in functions:
        ops = [op for op in f.body.block.ops if not select or select.takes(op_names(op))]
        if not ops:
            continue
        sub = gv.Digraph(f"cluster_{nid(f)}")
        sub.attr(label=f"func @{f.sym_name.data}", style="rounded", color="#888888", fontsize="13")
        source: dict[SSAValue, str] = {}
        kept = set(ops)
        for a in f.body.block.args:
            if select and not any(u.operation in kept for u in a.uses):
                continue
            sub.node(
                nid(a),
                _label(_h(_value_name(a) or f"arg{a.index}"), _type_str(a.type)),
                shape="ellipse",
                style="filled",
                fillcolor=ROLE_FILL[Role.INPUT],
            )
            source[a] = nid(a)
        for op in ops:
            node = nid(op)
            for v in op.operands:  # read from an op left out: an input of the part
                owner = v.owner
                if v in source or not isinstance(owner, Operation) or owner.name in _NO_DATA:
                    continue
                sub.node(
                    nid(v),
                    _label(_h(_value_name(v) or owner.name), _type_str(v.type)),
                    shape="ellipse",
                    style="dashed,filled",
                    fillcolor="#ffffff",
                )
                source[v] = nid(v)
                nodes += 1
            if isinstance(op, ProgramOp):
                sub.node(
                    node,
                    _program_summary(op),
                    shape="box",
                    style="filled,bold",
                    fillcolor="#fde9d9" if op.KIND == "fold" else "#e3ecfa",
                )
            elif isinstance(op, func.ReturnOp):
                sub.node(node, "return", shape="box", style="rounded")
            else:
                sub.node(node, op.name, shape="box", style="rounded,filled", fillcolor="#f3f3f3")
            nodes += 1
            for v in op.operands:
                if v in source:
                    g.edge(source[v], node)
            for r in op.results:
                if isinstance(r.type, TensorType):
                    returned = any(isinstance(u.operation, func.ReturnOp) for u in r.uses)
                    fill = ROLE_FILL[Role.OUTPUT] if returned else "#f3f3f3"
                    sub.node(
                        nid(r),
                        _label(_h(_value_name(r) or "tensor"), _type_str(r.type)),
                        shape="ellipse",
                        style="filled",
                        fillcolor=fill,
                    )
                    nodes += 1
                    g.edge(node, nid(r))
                    source[r] = nid(r)
                else:
                    source[r] = node
        g.subgraph(sub)
        if nodes > MAX_GRAPH_NODES:
            raise VizError(
                f"the graph of {names}{part} has more than {MAX_GRAPH_NODES:,} nodes, more "
                "than Graphviz lays out in a time worth waiting for: draw a part of it, a "
                "layer (--layer N) or what a name holds (--match TEXT, e.g. attn_q)"
            )
    if nodes == 0 and select:
        raise VizError(f"no op of {names} is of {select.describe()}")
    return g


def render_graph(g: graphviz.Digraph, fmt: str, dot: str | None = None) -> bytes:
    """The graph laid out by Graphviz, as SVG or PNG bytes."""
    exe = find_dot(dot)
    cmd = [exe, f"-T{fmt}"] + ([f"-Gdpi={PNG_DPI}"] if fmt == "png" else [])
    try:
        done = subprocess.run(cmd, input=g.source.encode(), capture_output=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise VizError(f"cannot run {exe}: {e}") from None
    if done.returncode != 0 or not done.stdout:
        err = done.stderr.decode(errors="replace").strip()
        raise VizError(f"{exe} failed (exit code {done.returncode}): {err}")
    return done.stdout


def find_dot(dot: str | None = None) -> str:
    """The Graphviz layout program: `dot` named by the caller, else the system's
    `dot`, else `graphviz-pure` (installed by the `[viz]` extra beside Python)."""
    scripts = sysconfig.get_path("scripts")
    names = (dot,) if dot else DOT_PROGRAMS
    for name in names:
        found = shutil.which(name) or shutil.which(name, path=scripts)
        if found:
            return found
    if dot:
        raise VizError(f"--dot: no program '{dot}' found")
    raise VizError(
        "no Graphviz layout program found (looked for "
        + " and ".join(f"'{n}'" for n in DOT_PROGRAMS)
        + f"): {INSTALL_HINT} brings graphviz-pure, or install Graphviz (apt-get install graphviz)"
    )


# --------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------


def _figure(width: float, height: float) -> Figure:
    mfig = require("matplotlib.figure")
    return mfig.Figure(figsize=(width, height), layout=None)


def figure_bytes(fig: Figure, fmt: str) -> bytes:
    """SVG with its text kept as text, or PNG; no date, so a picture remakes the same."""
    mpl = require("matplotlib")
    buf = io.BytesIO()
    rc = {"svg.fonttype": "none", "svg.hashsalt": "spatial-viz"}
    meta = {"Date": None} if fmt == "svg" else {"Software": None}
    with mpl.rc_context(rc):
        fig.savefig(buf, format=fmt, dpi=PNG_DPI, metadata=meta)
    return buf.getvalue()


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


def _short_refusal(refusal: str) -> list[str]:
    """The verifier's message, and the op it is about cut to a line."""
    lines = refusal.splitlines()
    if len(lines) > 1 and re.match(r'\s*at: %[^=]*= "spatial\.(fold|view)"', lines[1]):
        lines = lines[:1]  # the program itself, which the title names
    if len(lines) > 1 and len(lines[1]) > 100:
        lines[1] = lines[1][:97].rstrip() + "..."
    return lines[:2]


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


@_in_font
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
    refusal_lines = _short_refusal(refusal)
    head = 0.6 + 0.26 * len(refusal_lines)
    legend_h = 0.3 + 0.22 * math.ceil((min(n, 40) + 5) / 8)
    above = 0.5

    def below(m: TileMap) -> float:
        return 0.85 if (m.overlap | m.unwritten | m.outside).any() else 0.6

    total = head + sum(ph + above + below(m) for m, _, ph in layout) + legend_h
    fig = _figure(width + 1.4, total)
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
    fig = ax.get_figure()
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
    cw = ax.get_position().width * ax.figure.get_figwidth() / w
    chh = ax.get_position().height * ax.figure.get_figheight() / h
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
        mid_y = r_lo + (rr.min() + rr.max() + 1) / 2
        if (cc.max() - cc.min() + 1) * cw > text_inches(text + "  ", 9):
            ax.text(
                c_lo + (cc.min() + cc.max() + 1) / 2,
                mid_y,
                text,
                ha="center",
                va="center",
                fontsize=9,
                color="black",
            )
        else:  # too narrow: beside the tiles
            ax.text(
                c_lo + cc.max() + 1.15,
                mid_y,
                text,
                ha="left",
                va="center",
                fontsize=9,
                color="black",
                clip_on=False,
            )

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
        mid_y = r_lo + (rr.min() + rr.max() + 1) / 2
        box = {"boxstyle": "round,pad=0.2", "fc": "white", "ec": MARK_RED, "alpha": 0.9}
        if kind == "outside":  # past the tensor's edge, where nothing else is drawn
            ax.text(
                c_lo + cc.max() + 1.2,
                mid_y,
                text,
                ha="left",
                va="center",
                fontsize=9,
                color=MARK_RED,
                weight="bold",
                bbox=box,
                clip_on=False,
            )
        else:
            ax.text(
                c_lo + (cc.min() + cc.max() + 1) / 2,
                mid_y,
                text,
                ha="center",
                va="center",
                fontsize=9,
                color=MARK_RED,
                weight="bold",
                bbox=box,
            )


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
# Traffic
# --------------------------------------------------------------------------------------

BF16_BYTES = 2.0
"""Bytes a weight takes as a bf16 copy: what Q8_0 is measured against."""
CATEGORIES = ("weight values", "weight scales", "activations and views", "stored")
CATEGORY_COLORS = ("#4472c4", "#ed7d31", "#a5a5a5", "#70ad47")
BAR_WIDTH = 0.64
"""Width of a traffic chart's bars' axes, as a fraction of the figure's 12 inches."""
XPAD = 1.3
"""The longest bar's share of its axes' width is 1 / XPAD: room for the labels after it."""


@dataclass(frozen=True)
class Selection:
    """Which part of a model to draw: the programs (and ops) of its layer N, and those a
    name of which holds some text (a program's name, its tensors', its results')."""

    layer: int | None = None
    match: str | None = None

    def __bool__(self) -> bool:
        return self.layer is not None or bool(self.match)

    def takes(self, names: Sequence[str]) -> bool:
        """Whether a program or op of these names (its tensors' first) is selected."""
        if self.layer is not None and first_layer(names) != self.layer:
            return False
        return not self.match or any(self.match in n for n in names)

    def describe(self) -> str:
        parts = [f"layer {self.layer}"] * (self.layer is not None)
        parts += [f"matching '{self.match}'"] * bool(self.match)
        return ", ".join(parts)


def op_names(op: Operation) -> list[str]:
    """What an op is known by: a program's tensors (its weights' names first), its name
    and its results'; another op's results'."""
    names = []
    if isinstance(op, ProgramOp):
        names += [t.tensor_name.data for t in op.body.walk() if isinstance(t, TensorOp)]
        names.append(op.program_name.data)
    return names + [r.name_hint for r in op.results if r.name_hint]


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


@_in_font
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
    fig = _figure(12.0, total)
    fig.text(
        0.5,
        1 - 0.15 / total,
        f"bytes moved by {source}, per program and tensor (whole tiles, as the chip moves them)",
        ha="center",
        va="top",
        fontsize=13,
        weight="bold",
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
        acc = dict.fromkeys(CATEGORIES, 0)
        fold_acc = dict.fromkeys(CATEGORIES[:3], 0)
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
    fig = _figure(12.0, total)
    nprog = sum(len(r.programs) for r in runs)
    ran = [r for r in runs if r.programs]
    source = f"@{ran[0].entry}" if len(ran) == 1 else f"{len(ran)} runs"
    fig.text(
        0.5,
        1 - 0.15 / total,
        f"bytes moved by {source} ({nprog} programs{', ' + what if what else ''}), per layer",
        ha="center",
        va="top",
        fontsize=13,
        weight="bold",
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
# Finding things in a module
# --------------------------------------------------------------------------------------


def functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]


def programs(module: ModuleOp) -> list[tuple[str, ProgramOp]]:
    """(function name, program) of every program in the module, in order."""
    out = []
    for f in functions(module):
        for op in f.body.walk():
            if isinstance(op, ProgramOp):
                out.append((f.sym_name.data, op))
    return out


LISTED = 8
"""Programs an error lists when the one asked for is not there."""


def find_program(
    module: ModuleOp, name: str, entry: str | None = None, select: Selection | None = None
) -> ProgramOp:
    """The program named `name` (or the only `view`/`fold`, when `name` is the kind),
    among the selected ones."""
    select = select or Selection()
    found = [
        (fn, p)
        for fn, p in programs(module)
        if (entry is None or fn == entry) and select.takes(op_names(p))
    ]
    hits = [(fn, p) for fn, p in found if p.program_name.data == name]
    if not hits:
        hits = [(fn, p) for fn, p in found if name == p.KIND]
    if len(hits) == 1:
        return hits[0][1]
    shown = [f"{p.program_name.data} ({p.KIND}, @{fn})" for fn, p in found[:LISTED]]
    if len(found) > LISTED:
        shown.append(f"and {len(found) - LISTED} more (name a function with --entry)")
    listing = ", ".join(shown) or "none"
    where = (f" in @{entry}" if entry else "") + (f" of {select.describe()}" if select else "")
    if not hits:
        raise VizError(f"no program '{name}'{where}; the module has: {listing}")
    raise VizError(
        f"{len(hits)} programs{where} answer to '{name}' (in "
        + ", ".join(f"@{fn}" for fn, _ in hits)
        + "); pick one with --entry FUNC"
    )


def select_functions(module: ModuleOp, name: str | None) -> list[func.FuncOp]:
    fns = functions(module)
    if name is None:
        if not fns:
            raise VizError("the module has no function")
        return fns
    hits = [f for f in fns if f.sym_name.data == name]
    if not hits:
        have = ", ".join(f"@{f.sym_name.data}" for f in fns) or "none"
        raise VizError(f"no function @{name} in the module (it has: {have})")
    return hits
