"""spatial-viz: every picture of the bundled examples, read back as SVG or PNG, holds
what it must; refused programs are drawn with their offending tiles marked."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from xdsl_spatial.analysis.ownership import SHARED, ownership
from xdsl_spatial.core.ir_io import apply_pipeline, parse_module
from xdsl_spatial.interpreters.traffic_io import TrafficFileError, from_json, read_json
from xdsl_spatial.tools import spatial_run, spatial_viz
from xdsl_spatial.tools.spatial_gguf import q8_matmul_func
from xdsl_spatial.viz import pictures as viz
from xdsl_spatial.viz.pictures import graphs

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "gemv_q8.mlir"
BAD = ROOT / "examples" / "bad"
FOLD = "q8_gemv_2048x4096_w8"
VIEW = "q8_view_1x2048_from0"
SVG_NS = "{http://www.w3.org/2000/svg}"

DOTS = list(viz.DOT_PROGRAMS)


def svg_text(path: Path) -> tuple[ET.Element, str]:
    """The SVG's root and all of its text, joined (it must parse as XML)."""
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG_NS}svg"
    text = " ".join(t for el in root.iter() for t in (el.text, el.tail) if t and t.strip())
    return root, re.sub(r"\s+", " ", text)


def svg_ids(root: ET.Element) -> set[str]:
    return {i for el in root.iter() if (i := el.get("id"))}


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG that decodes whole (Pillow comes with matplotlib)."""
    from PIL import Image

    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(path) as im:
        im.load()
        assert im.format == "PNG"
        assert struct.unpack(">II", data[16:24]) == im.size
        return im.size


def draw(*args: str) -> int:
    return spatial_viz.main(list(args))


@pytest.fixture(scope="module")
def lowered():
    m = parse_module(EXAMPLE.read_text())
    apply_pipeline(m, "q8-lower")
    return m


# --------------------------------------------------------------------------------------
# Dataflow
# --------------------------------------------------------------------------------------


def test_fold_graph_holds_its_stages_buffers_loop_and_carry(tmp_path, capsys):
    out = tmp_path / "fold.svg"
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--graph", FOLD, "-o", str(out)) == 0, (
        capsys.readouterr().err
    )
    root, text = svg_text(out)
    for stage in ("init_sum", "block", "fold_sum", "result"):
        assert stage in text
    for buf in ("in_x", "in_q8", "in_scale", "run_sum", "out"):
        assert buf in text
    for tensor in ("x__q8_rows0", "W__q8", "W__q8_scale", "y"):
        assert tensor in text
    # loads and stores with origin, block, stride and repeat; buffers with size
    assert "[kb * 4096 + item * 8]" in text
    assert "block 32x8 · stride 128 · repeat 2" in text
    assert "256 tiles i8 · depth 2" in text and "512 KiB" in text
    assert "sum 32 × par 256 × sum 32" in text and "(contraction)" in text
    assert "param · 2048x4096 i8" in text
    assert "16 items" in text and "740 KiB of 1.5 MiB" in text
    # the K loop is a box (a Graphviz cluster) around what it repeats
    clusters = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "cluster"]
    assert len(clusters) == 1
    ctext = " ".join(t.text or "" for t in clusters[0].iter(f"{SVG_NS}text"))
    assert "k_loop %kb = 0 to 2: 2 trips, carrying run_sum" in ctext
    # the carry is a red back edge from fold_sum to run_sum
    assert "k_yield: carry to the next trip" in text
    red = [
        e
        for e in root.iter(f"{SVG_NS}g")
        if e.get("class") == "edge"
        and any(p.get("stroke") == viz.CARRY_COLOR for p in e.iter(f"{SVG_NS}path"))
    ]
    assert len(red) == 2  # run_sum -> fold_sum (acc) and fold_sum -> run_sum (k_yield)


@pytest.mark.parametrize("dot", DOTS)
def test_each_graphviz_program_draws_the_fold(lowered, dot, tmp_path):
    """Both layout programs spatial-viz looks for give the same content; CI has at
    least graphviz-pure (from the test extra), so at most one of these skips."""
    try:
        exe = viz.find_dot(dot)
    except viz.VizError:
        pytest.skip(f"no '{dot}' on this machine")
    program = viz.find_program(lowered, "fold")
    for fmt in ("svg", "png"):
        data = viz.render_graph(viz.program_graph(program), fmt, exe)
        (tmp_path / f"g.{fmt}").write_bytes(data)
    _, text = svg_text(tmp_path / "g.svg")
    assert "fold_sum" in text and "run_sum" in text
    w, h = png_size(tmp_path / "g.png")
    assert w > 400 and h > 400


def test_some_graphviz_program_is_found():
    assert Path(viz.find_dot()).exists()


def test_function_graph_has_the_view_the_fold_and_the_tensors_between(tmp_path):
    out = tmp_path / "f.svg"
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--graph", "-o", str(out)) == 0
    _, text = svg_text(out)
    for name in (
        VIEW,
        FOLD,
        "%x",
        "%W__q8",
        "%W__q8_scale",
        "%x__q8_rows0",
        "64x32 bf16",
        "%y",
        "func @gemv",
    ):
        assert name in text
    out2 = tmp_path / "f2.svg"
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--graph", "@gemv", "-o", str(out2)) == 0
    assert svg_text(out2)[1] == text


def test_function_graph_of_the_unlowered_module(tmp_path):
    out = tmp_path / "f.svg"
    assert draw(str(EXAMPLE), "--graph", "-o", str(out)) == 0
    _, text = svg_text(out)
    assert "q8.dequantize" in text and "linalg.matmul" in text


def test_view_graph_png(tmp_path):
    out = tmp_path / "v.png"
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--graph", "view", "-o", str(out)) == 0
    w, h = png_size(out)
    assert w > 200 and h > 300


def test_refused_program_graph_shows_the_refusal(tmp_path):
    out = tmp_path / "g.svg"
    assert (
        draw(str(BAD / "buffers_beyond_local_memory.mlir"), "--graph", "fold", "-o", str(out)) == 0
    )
    _, text = svg_text(out)
    assert "refused: buffers need 757760 bytes of local memory but a site has 524288" in text
    assert "740 KiB of 512 KiB" in text


# --------------------------------------------------------------------------------------
# Tiles
# --------------------------------------------------------------------------------------


def test_fold_ownership_is_16_column_groups(lowered):
    own = ownership(viz.find_program(lowered, "fold"))
    y = own.maps[0]
    assert (y.name, y.access, y.grid) == ("y", "write", (1, 128))
    assert np.array_equal(y.owner[0], np.repeat(np.arange(16), 8))
    assert not (y.overlap.any() or y.unwritten.any() or y.outside.any())
    assert y.padded.all() and y.pad_text() == "rows 1..31 of the last tile row"
    w = next(m for m in own.maps if m.name == "W__q8")
    assert w.access == "read" and w.grid == (64, 128)
    assert np.array_equal(w.owner, np.broadcast_to(np.repeat(np.arange(16), 8), (64, 128)))
    x = next(m for m in own.maps if m.name == "x__q8_rows0")
    assert (x.owner == SHARED).all() and (x.count == 16).all()
    assert own.owned.tolist()[:2] == [[0, 0, 1, 8], [0, 8, 1, 8]]
    assert own.strays() == []


def test_view_ownership(lowered):
    own = ownership(viz.find_program(lowered, "view"))
    out = own.maps[0]
    assert out.name == "x__q8_rows0" and out.owner.tolist() == [[0], [1]]
    x = own.maps[1]
    assert x.name == "x" and np.array_equal(x.owner[0], np.repeat([0, 1], 32))


def test_fold_tile_map_names_every_item_and_tensor(tmp_path):
    out = tmp_path / "t.svg"
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--tiles", "fold", "-o", str(out)) == 0
    root, text = svg_text(out)
    ids = svg_ids(root)
    for i in range(16):
        assert f"item {i}" in text
        assert f"label-y-item-{i}" in ids
        assert f"owns-item-{i}" in ids
    for tensor in ("y:", "x__q8_rows0:", "W__q8:", "W__q8_scale:"):
        assert tensor in text
    assert "read by all 16 items" in text
    assert "pad-y-rows" in ids
    assert not any(i.startswith(("overlap-", "unwritten-", "outside-", "stray-")) for i in ids)
    assert "refused" not in text.replace("refused tile", "")


def test_view_tile_map_png(tmp_path):
    out = tmp_path / "t.png"
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--tiles", VIEW, "-o", str(out)) == 0
    w, h = png_size(out)
    assert w > 1000 and h > 300


def bad_tiles(tmp_path, name: str) -> tuple[set[str], str]:
    out = tmp_path / f"{name}.svg"
    assert draw(str(BAD / f"{name}.mlir"), "--tiles", "fold", "-o", str(out)) == 0
    root, text = svg_text(out)
    return svg_ids(root), text


def marks(ids: set[str], kind: str) -> set[str]:
    return {i for i in ids if i.startswith(kind + "-")}


def test_overlapping_items_mark_the_shared_and_the_unwritten_tiles(tmp_path):
    ids, text = bad_tiles(tmp_path, "overlapping_items")
    assert "refused by the verifier: items 0 and 1 both write tile (0, 4) of 'y'" in text
    assert marks(ids, "overlap") == {f"overlap-y-0-{c}" for c in range(4, 8)}
    assert marks(ids, "unwritten") == {f"unwritten-y-0-{c}" for c in range(12, 16)}
    assert marks(ids, "stray") == {f"stray-y-0-{c}-item-1" for c in range(4, 8)}
    assert marks(ids, "outside") == set()
    assert "items 0 and 1 both write these" in text
    assert "4 tiles written by two or more items; 4 tiles written by no item" in text


def test_unwritten_output_tiles_are_marked(tmp_path):
    ids, text = bad_tiles(tmp_path, "unwritten_output_tiles")
    assert "tile (0, 8) of output 'y' is written by no item" in text
    assert marks(ids, "unwritten") == {f"unwritten-y-0-{c}" for c in range(8, 16)}
    assert marks(ids, "overlap") == set() and marks(ids, "outside") == set()


def test_a_load_outside_its_tensor_is_marked_past_its_edge(tmp_path):
    ids, text = bad_tiles(tmp_path, "load_outside_its_tensor")
    assert "runs outside tensor 'W__q8' (32x16 tiles) for item 1" in text
    assert marks(ids, "outside") == {f"outside-W__q8-{r}-16" for r in range(32)}
    assert "outside 'W__q8': item 1" in text
    assert marks(ids, "overlap") == set() and marks(ids, "unwritten") == set()


def test_buffers_beyond_local_memory_mark_no_tile(tmp_path):
    ids, text = bad_tiles(tmp_path, "buffers_beyond_local_memory")
    assert "refused by the verifier: buffers need 757760 bytes" in text
    assert not any(marks(ids, k) for k in ("overlap", "unwritten", "outside", "stray"))
    assert "item 0" in text and "item 1" in text


@pytest.mark.parametrize(
    "name, args, message",
    [
        ("scales_rows", [], "scales must have K/32 = 64 rows, got 65"),
        ("inexact_weight", ["-p", "q8-lower"], "is not exact Q8_0"),
    ],
)
def test_bad_examples_with_no_program_are_one_error(tmp_path, capsys, name, args, message):
    out = tmp_path / "t.svg"
    assert draw(str(BAD / f"{name}.mlir"), *args, "--tiles", "fold", "-o", str(out)) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists()


def test_every_bad_program_is_covered():
    """Each example of a refused spatial program has a tile-map test above."""
    spatial = {p.stem for p in BAD.glob("*.mlir") if "spatial." in p.read_text()}
    assert spatial == {
        "overlapping_items",
        "unwritten_output_tiles",
        "load_outside_its_tensor",
        "buffers_beyond_local_memory",
    }


TWO_D_VIEW = """
func.func @view(%x: tensor<2x64xbf16>) -> tensor<64x32xbf16> {
  %v = spatial.view "q8_view_2x64" grid [1, 2] owns (d0, d1) -> (d0 * 2 + d1, 0) size [1, 1]
      target #spatial.target<"tensix">
      plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%x : tensor<2x64xbf16>) -> tensor<64x32xbf16> {
  ^bb0(%kb: index, %r: index, %x_in: tensor<2x64xbf16>):
    %xt = spatial.tensor "x" external(%x_in : tensor<2x64xbf16>) : !spatial.tensor<2x64xbf16, input>
    %view = spatial.tensor "x__q8_rows0" zero : !spatial.tensor<64x32xbf16, output>
    %lanes = spatial.tensor "lanes" values dense<7> : tensor<1x64xi16> : !spatial.tensor<1x64xi16, param>
    %in_block = spatial.buffer "in_block" : !spatial.buffer<2xbf16, depth 2>
    %in_lanes = spatial.buffer "in_lanes" : !spatial.buffer<1xi16, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xbf16, depth 2>
    %pb = spatial.load %xt[%kb * 32] block 1x2 stride 2 repeat 1 into %in_block : !spatial.tensor<2x64xbf16, input> -> !spatial.page<2xbf16>
    %pl = spatial.load %lanes[%r] block 1x1 stride 2 repeat 1 into %in_lanes : !spatial.tensor<1x64xi16, param> -> !spatial.page<1xi16>
    %lift = spatial.stage "lift_rows" iters(par 2, par 32)
        ins(%pb[d0 * 32 + s0 | s0 = in1], %pl[d1]) into %out[d0 * 32 + d1] : (!spatial.page<2xbf16>, !spatial.page<1xi16>) -> !spatial.page<1xbf16> {
    ^bb0(%e: bf16, %lane: i16):
      spatial.yield %e : bf16
    }
    spatial.store %lift to %view[%kb * 2 + %r] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<64x32xbf16, output>
    spatial.return %view : !spatial.tensor<64x32xbf16, output>
  }
  func.return %v : tensor<64x32xbf16>
}
"""


def test_ownership_over_a_two_dimensional_item_grid():
    program = viz.find_program(parse_module(TWO_D_VIEW), "view")
    own = ownership(program)
    assert own.grid == (1, 2) and own.num_items == 2
    out, x, lanes = own.maps
    assert (out.name, out.owner.tolist()) == ("x__q8_rows0", [[0], [1]])
    assert own.owned.tolist() == [[0, 0, 1, 1], [1, 0, 1, 1]]
    assert x.name == "x" and (x.owner == SHARED).all() and x.padded.all()
    assert lanes.name == "lanes" and lanes.owner.tolist() == [[0, 1]]
    assert own.strays() == [] and not out.unwritten.any()


def two_d_view_drawn(tmp_path: Path, picture: str) -> tuple[ET.Element, str]:
    """TWO_D_VIEW's program drawn as `--graph` or `--tiles`: the SVG's root and text."""
    p = tmp_path / "v.mlir"
    p.write_text(TWO_D_VIEW)
    out = tmp_path / "v.svg"
    assert draw(str(p), picture, "view", "-o", str(out)) == 0
    return svg_text(out)


def test_graph_of_an_indirect_stage(tmp_path):
    _, text = two_d_view_drawn(tmp_path, "--graph")
    assert "[d0 * 32] s0 = in1" in text or "[d0 * 32 + s0] s0 = in1" in text
    assert "[kb * 2 + r]" in text and "constant values" in text
    assert "k_loop" not in text


def test_tiles_of_a_two_dimensional_item_grid(tmp_path):
    root, text = two_d_view_drawn(tmp_path, "--tiles")
    assert "grid [1x2]" in text and "read by items 0 and 1" in text
    assert {"owns-item-0", "owns-item-1"} <= svg_ids(root)


# --------------------------------------------------------------------------------------
# Traffic
# --------------------------------------------------------------------------------------


def test_traffic_chart_names_every_program_and_tensor(tmp_path):
    out = tmp_path / "tr.svg"
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--traffic", "-o", str(out)) == 0
    _, text = svg_text(out)
    for name in (VIEW, FOLD, "x", "x__q8_rows0", "W__q8", "W__q8_scale", "y"):
        assert name in text
    assert "8 MiB" in text and "W__q8_scale 1 MiB" in text
    assert "1.1328 B/weight (57% of bf16)" in text
    assert "the same weight as a bf16 copy" in text


def test_stats_json_round_trips_and_draws_the_same_chart(tmp_path, capsys):
    stats = tmp_path / "s.json"
    assert (
        spatial_run.main(
            [str(EXAMPLE), "-p", "q8-lower", "--seed", "0", "--stats-json", str(stats)]
        )
        == 0
    )
    runs = read_json(str(stats))
    assert [r.entry for r in runs] == ["gemv"]
    fold = runs[0].programs[1]
    assert fold.name == FOLD and fold.items == 16
    assert fold.loaded == {"W__q8": 8388608, "W__q8_scale": 1048576, "x__q8_rows0": 65536}
    assert fold.stored == {"y": 524288} and fold.weight_elems == 2048 * 4096
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    assert draw("--traffic", str(stats), "-o", str(a)) == 0
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--traffic", "-o", str(b)) == 0
    assert a.read_bytes() == b.read_bytes()


def layers_module(tmp_path: Path) -> Path:
    """Two layers of two matmuls each, named as spatial-gguf names a model's."""
    funcs = [
        q8_matmul_func(f"blk_{layer}_{w}", f"blk.{layer}.{w}.weight", 576, n, 1, "bf16", "f16")
        for layer in (0, 1)
        for w, n in (("attn_q", 576), ("ffn_up", 1536))
    ]
    p = tmp_path / "layers.mlir"
    p.write_text("builtin.module {\n" + "".join(funcs) + "}\n")
    return p


def test_a_model_run_is_drawn_per_layer(tmp_path):
    out = tmp_path / "layers.svg"
    assert draw(str(layers_module(tmp_path)), "-p", "q8-lower", "--traffic", "-o", str(out)) == 0
    root, text = svg_text(out)
    assert "bytes moved by 4 runs" in text and "per layer" in text
    assert "layer 0" in text and "layer 1" in text
    for cat in viz.CATEGORIES:
        assert cat in text
    assert "a bf16 copy: 2 B/weight" in text
    ids = svg_ids(root)
    assert "bar-layer 0-weight values" in ids and "bar-layer 1-weight scales" in ids


def test_several_stats_files_are_several_runs(tmp_path):
    module = layers_module(tmp_path)
    files = []
    for fn in ("blk_0_attn_q", "blk_1_attn_q"):
        f = tmp_path / f"{fn}.json"
        assert (
            spatial_run.main(
                [
                    str(module),
                    "--entry",
                    fn,
                    "-p",
                    "q8-lower",
                    "--seed",
                    "1",
                    "--stats-json",
                    str(f),
                ]
            )
            == 0
        )
        files.append(str(f))
    out = tmp_path / "t.png"
    assert draw("--traffic", *files, "-o", str(out)) == 0
    png_size(out)


def test_layer_names():
    from xdsl_spatial.interpreters.traffic_io import TrafficRun

    assert viz.layer_of(TrafficRun("blk_12_attn_q", [])) == "layer 12"
    assert viz.layer_of(TrafficRun("token_embd", [])) == "token_embd"


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "is not JSON"),
        ('{"format": "other"}', "is not a traffic file"),
        ('{"format": "spatial-traffic", "version": 9, "runs": []}', "has version 9"),
        (
            '{"format": "spatial-traffic", "version": 1, "runs": [{"entry": "f"}]}',
            "runs[0] has no 'programs'",
        ),
        (
            '{"format": "spatial-traffic", "version": 1, "runs": [{"entry": "f", "programs": '
            '[{"name": "p", "kind": "fold", "items": 1, "local_mem": 1, "loaded": {"a": -1}, '
            '"stored": {}, "weight_elems": 0}]}]}',
            "loaded['a'] must be a byte count",
        ),
    ],
)
def test_bad_traffic_files_are_named(text, message):
    with pytest.raises(TrafficFileError, match=re.escape(message)):
        from_json(text, "t.json")


def test_traffic_of_an_unlowered_module_is_an_error(tmp_path, capsys):
    assert draw(str(EXAMPLE), "--traffic", "-o", str(tmp_path / "t.svg")) == 1
    assert "no spatial program ran" in capsys.readouterr().err


# --------------------------------------------------------------------------------------
# The tool
# --------------------------------------------------------------------------------------


def test_a_failed_run_leaves_an_existing_picture_as_it_was(tmp_path, capsys):
    out = tmp_path / "p.svg"
    out.write_text("old")
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--graph", "nope", "-o", str(out)) == 1
    err = capsys.readouterr().err
    assert f"no program 'nope'; the module has: {VIEW} (view, @gemv), {FOLD} (fold, @gemv)" in err
    assert out.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["p.svg"]


def test_an_unknown_extension_is_a_usage_error(tmp_path, capsys):
    assert draw(str(EXAMPLE), "--graph", "-o", str(tmp_path / "p.pdf")) == 2
    assert "name it .svg or .png" in capsys.readouterr().err


def test_usage_errors(tmp_path, capsys):
    assert draw("--graph", "-o", str(tmp_path / "p.svg")) == 2
    assert "give FILE" in capsys.readouterr().err
    # argparse's own usage error (no picture asked for): one line, exit code 2.
    assert draw(str(EXAMPLE), "-o", str(tmp_path / "p.svg")) == 2
    assert "one of the arguments --graph --tiles --traffic is required" in capsys.readouterr().err
    assert draw(str(EXAMPLE), "--traffic", "x.json", "-o", str(tmp_path / "p.svg")) == 2


def test_an_unknown_dot_program_is_named(tmp_path, capsys):
    assert draw(str(EXAMPLE), "--graph", "--dot", "no-such-dot", "-o", str(tmp_path / "p.svg")) == 1
    assert "--dot: no program 'no-such-dot' found" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["matplotlib", "graphviz"])
def test_without_the_extra_the_tool_names_it(tmp_path, capsys, monkeypatch, module):
    """A module missing from the environment: None in sys.modules makes every import
    of it (and of its submodules) fail as if it were not installed."""
    for m in [m for m in sys.modules if m.startswith(module + ".")]:
        monkeypatch.setitem(sys.modules, m, None)
    monkeypatch.setitem(sys.modules, module, None)
    out = tmp_path / "p.svg"
    assert draw(str(EXAMPLE), "--graph", "-o", str(out)) == 1
    err = capsys.readouterr().err
    assert "optional extra [viz]" in err and f"'{module}'" in err
    assert "pip install -e '.[viz]'" in err
    assert not out.exists()


def test_the_console_script_is_installed(tmp_path):
    exe = Path(sys.executable).parent / "spatial-viz"
    out = tmp_path / "t.png"
    r = subprocess.run(
        [str(exe), str(EXAMPLE), "-p", "q8-lower", "--tiles", "fold", "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    png_size(out)


def test_the_documented_pictures_are_what_the_tool_makes(tmp_path):
    """docs/images/ holds what docs/viz.md's commands make (SVG, compared as text), and
    the page shows each."""
    page = (ROOT / "docs" / "viz.md").read_text()
    commands = re.findall(r"^spatial-viz (examples/\S+ .*-o (docs/images/\S+\.svg))$", page, re.M)
    assert len(commands) == 5
    for _, target in commands:
        assert f"]({target.removeprefix('docs/')})" in page
    for cmd, target in commands:
        args = cmd.split()
        got = tmp_path / Path(target).name
        args[args.index("-o") + 1] = str(got)
        args[0] = str(ROOT / args[0])
        assert draw(*args) == 0
        committed = ROOT / target
        assert committed.exists(), target
        _, want_text = svg_text(committed)
        _, got_text = svg_text(got)
        assert got_text == want_text, target


# --------------------------------------------------------------------------------------
# Text that fits its boxes; a part of a model
# --------------------------------------------------------------------------------------


def _numbers(text: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", text)]


def _shape_x_range(group: ET.Element, y: float) -> tuple[float, float]:
    """The horizontal extent of a Graphviz node's or cluster's shape at height `y` (an
    ellipse's chord there; a box's, a cylinder's or a rounded box's whole width)."""
    for el in group:
        tag = el.tag.removeprefix(SVG_NS)
        if tag == "ellipse":
            cx, cy, rx, ry = (float(el.get(k, 0)) for k in ("cx", "cy", "rx", "ry"))
            half = rx * max(0.0, 1 - ((y - cy) / ry) ** 2) ** 0.5
            return cx - half, cx + half
        if tag in ("polygon", "path"):
            xs = _numbers(el.get("points") or el.get("d") or "")[0::2]
            return min(xs), max(xs)
    raise AssertionError("a node without a shape")


def _text_x_range(t: ET.Element) -> tuple[float, float, float]:
    """Where a Graphviz text element starts and ends, by the font's own metrics, and
    its height's middle."""
    size = float(t.get("font-size", "14"))
    assert t.get("font-family") == viz.FONT
    w = viz.text_inches(t.text or "", size, bold=t.get("font-weight") == "bold") * 72
    x, y = float(t.get("x", 0)), float(t.get("y", 0))
    anchor = t.get("text-anchor", "start")
    x0 = x if anchor == "start" else x - w / 2 if anchor == "middle" else x - w
    return x0, x0 + w, y - size / 3


def assert_graph_text_fits(path: Path) -> int:
    """Every line of text of every node and cluster lies within its shape, its width
    measured in the font the SVG names; how many lines were checked."""
    root = ET.parse(path).getroot()
    checked = 0
    for g in root.iter(f"{SVG_NS}g"):
        if g.get("class") not in ("node", "cluster"):
            continue
        for t in g.iter(f"{SVG_NS}text"):
            x0, x1, ym = _text_x_range(t)
            lo, hi = _shape_x_range(g, ym)
            assert lo - 0.5 <= x0 and x1 <= hi + 0.5, (t.text, (x0, x1), (lo, hi))
            checked += 1
    return checked


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """The tiny llama's model (prefill of 2, decode), as spatial-gguf --emit-model
    writes it."""
    pytest.importorskip("gguf")
    from tiny_llama import write_tiny_llama

    from xdsl_spatial.tools import spatial_gguf

    d = tmp_path_factory.mktemp("tiny")
    gguf = write_tiny_llama(d / "tiny.gguf")
    out = d / "model.mlir"
    args = [str(gguf), "--emit-model", "--batch", "2", "--context", "16", "-o", str(out)]
    assert spatial_gguf.main(args) == 0
    return out


@pytest.mark.parametrize("dot", DOTS)
def test_graph_text_fits_its_boxes(tmp_path, dot):
    """Every label of the fold's, the function's and a model layer's graphs, measured
    with DejaVu Sans's metrics (the font the SVG names), inside its box."""
    try:
        viz.find_dot(dot)
    except viz.VizError:
        pytest.skip(f"no {dot}")
    for args in (["--graph", "fold"], ["--graph"]):
        out = tmp_path / f"g{len(args)}.svg"
        assert draw(str(EXAMPLE), "-p", "q8-lower", *args, "--dot", dot, "-o", str(out)) == 0
        assert assert_graph_text_fits(out) > 10


def test_a_layers_graph_text_fits_and_holds_that_layer_only(tmp_path, tiny_model):
    out = tmp_path / "l1.svg"
    args = ["-p", "q8-lower", "--entry", "decode", "--graph", "--layer", "1", "-o", str(out)]
    assert draw(str(tiny_model), *args) == 0
    assert assert_graph_text_fits(out) > 50
    _, text = svg_text(out)
    assert "the programs of @decode (layer 1)" in text
    root = ET.parse(out).getroot()
    mine, read = set(), set()
    for g in root.iter(f"{SVG_NS}g"):
        if g.get("class") != "node":
            continue
        words = " ".join(t.text or "" for t in g.iter(f"{SVG_NS}text"))
        dashed = any(el.get("stroke-dasharray") for el in g)  # what the layer reads
        (read if dashed else mine).update(int(n) for n in re.findall(r"blk\.(\d+)\.", words))
    assert mine == {1} and read == {0}  # its ops, and layer 0's output it reads
    # the layer's seven products, each a fold, and their views
    assert text.count("fold q8_gemv_") == 7
    for w in ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"):
        assert f"%blk.1.{w}.weight__q8_scale" in text
    assert "view q8_view_" in text


def test_match_picks_the_products_a_name_holds(tmp_path, tiny_model):
    out = tmp_path / "q.svg"
    args = ["-p", "q8-lower", "--entry", "decode", "--graph", "--match", "attn_q", "-o", str(out)]
    assert draw(str(tiny_model), *args) == 0
    _, text = svg_text(out)
    assert text.count("fold q8_gemv_") == 2  # layer 0's and layer 1's
    assert "%blk.0.attn_q.weight__q8" in text and "%blk.1.attn_q.weight__q8" in text
    assert "attn_k" not in text
    out = tmp_path / "q1.svg"
    args = ["-p", "q8-lower", "--entry", "decode", "--layer", "1", "--match", "attn_q"]
    assert draw(str(tiny_model), *args, "--tiles", "fold", "-o", str(out)) == 0
    _, text = svg_text(out)
    assert "blk.1.attn_q.weight__q8" in text and "blk.0." not in text


def test_a_models_traffic_is_drawn_per_layer_and_one_layer_per_program(tmp_path, tiny_model):
    out = tmp_path / "step.svg"
    args = ["-p", "q8-lower", "--entry", "decode", "--traffic", "-o", str(out)]
    assert draw(str(tiny_model), *args) == 0
    _, text = svg_text(out)
    assert "bytes moved by @decode (" in text and "per layer" in text
    assert "layer 0" in text and "layer 1" in text and "@decode outside the layers" in text
    out = tmp_path / "step1.svg"
    assert draw(str(tiny_model), *args[:-1], str(out), "--layer", "1") == 0
    _, text = svg_text(out)
    assert "bytes moved by @decode (layer 1), per program and tensor" in text
    assert "blk.1.attn_q.weight__q8" in text and "blk.0." not in text


def test_a_part_with_nothing_in_it_is_an_error(tmp_path, tiny_model, capsys):
    out = tmp_path / "x.svg"
    base = [str(tiny_model), "-p", "q8-lower", "--entry", "decode", "-o", str(out)]
    assert draw(*base, "--graph", "--layer", "7") == 1
    assert "no op of @decode is of layer 7" in capsys.readouterr().err
    assert draw(*base, "--traffic", "--match", "nothing_is_called_this") == 1
    assert "no program that ran is of matching 'nothing_is_called_this'" in capsys.readouterr().err
    assert not out.exists()


def test_a_graph_too_large_to_lay_out_is_refused_naming_the_options(
    tmp_path, tiny_model, capsys, monkeypatch
):
    monkeypatch.setattr(graphs, "MAX_GRAPH_NODES", 100)
    out = tmp_path / "all.svg"
    args = [str(tiny_model), "-p", "q8-lower", "--entry", "decode", "--graph", "-o", str(out)]
    assert draw(*args) == 1
    err = capsys.readouterr().err
    assert "has more than 100 nodes" in err and "--layer N" in err and "--match TEXT" in err


def test_traffic_labels_fit_their_bars(tmp_path):
    """A tensor's name and bytes are written inside its bar only where they fit (their
    width measured with the font's metrics)."""
    out = tmp_path / "t.svg"
    assert draw(str(EXAMPLE), "-p", "q8-lower", "--traffic", "-o", str(out)) == 0
    root = ET.parse(out).getroot()
    groups = {i: g for g in root.iter(f"{SVG_NS}g") if (i := g.get("id"))}
    labels = [k for k in groups if k.startswith("label-")]
    assert labels
    for k in labels:
        bar = groups["bar-" + k.removeprefix("label-")]
        xs = _numbers(next(bar.iter(f"{SVG_NS}path")).get("d", ""))[0::2]
        for t in groups[k].iter(f"{SVG_NS}text"):
            style = t.get("style", "")
            font = re.search(r"font-size: ([\d.]+)px", style)
            assert font is not None
            size = float(font.group(1))
            x = _numbers(t.get("transform", ""))[0]
            w = viz.text_inches(t.text or "", size, bold="font-weight: 700" in style) * 72
            assert min(xs) <= x and x + w <= max(xs), (t.text, x, w, xs)
