"""Dataflow graphs (DOT): one program's stages, loads, stores and buffers, and the
programs of functions with the tensors between them.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from xdsl_spatial.analysis.program_work import stage_kind
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
from xdsl_spatial.viz.pictures.find import Selection, op_names
from xdsl_spatial.viz.pictures.render import FONT, VizError, human_bytes, require, short_refusal

if TYPE_CHECKING:
    import graphviz


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
MOVE_FILL = {"load": "#e3ecfa", "store": "#e2f0d9"}
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
            i = loop.res.index(page)
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

    def move_node(op: LoadOp | StoreOp) -> str:
        node = nid(op)
        where(op).node(
            node,
            _label(f"{op.KIND} {_h(_tensor_name(op.moved_tensor))}", *_move_lines(op)),
            shape="box",
            style="rounded,filled",
            fillcolor=MOVE_FILL[op.KIND],
        )
        return node

    for op in _walk_program(program):
        if isinstance(op, LoadOp):
            node = move_node(op)
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
            node = move_node(op)
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
            v = _yielded(loop, loop.res.index(v))
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
    for j, x in enumerate(short_refusal(refusal) if refusal else []):
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
