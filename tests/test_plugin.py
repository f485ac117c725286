"""The plugin adds to xDSL and changes nothing of it: `xdsl-opt` reads, verifies and
prints every upstream input the same with the package's universe loaded (and all of
its dialects and passes imported) as with xDSL's universe alone.

Each input runs through xDSL's own `xDSLOptMain` twice, in fresh processes: once as
installed (the `xdsl.universe` entry points, this package's among them) and once with
xDSL's universe alone; stdout, stderr and the exit code must be the same. The inputs
are upstream IR that this package's contexts read differently from xDSL's (a
mixed-precision matmul, `linalg.batch_matmul`, a parenthesised generic result list,
`x86.amx`), the frontend examples (upstream dialects only) and a few passes of xDSL's.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp
from xdsl.universe import XDSL_UNIVERSE, Universe

ROOT = Path(__file__).resolve().parents[1]

DRIVER = """
import sys
from xdsl.universe import Universe, XDSL_UNIVERSE
mode, *args = sys.argv[1:]
if mode == "stock":
    Universe.get_multiverse = staticmethod(lambda: XDSL_UNIVERSE)
else:
    # Everything the plugin has, loaded before the input is read.
    verse = Universe.get_multiverse()
    for make in (*verse.all_dialects.values(), *verse.all_passes.values()):
        make()
    from xdsl_spatial.core.ir_io import make_context
    make_context()
from xdsl.xdsl_opt_main import xDSLOptMain
xDSLOptMain(args=args).run()
"""

MIXED = """
func.func @f(%x: tensor<4x64xbf16>, %w: tensor<64x32xbf16>, %a: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x64xbf16>, tensor<64x32xbf16>) outs(%a : tensor<4x32xf32>) -> tensor<4x32xf32>
  func.return %y : tensor<4x32xf32>
}
"""

SAME_TYPE = """
func.func @f(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>, %a: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x32xf32>) outs(%a : tensor<4x32xf32>) -> tensor<4x32xf32>
  %z = arith.addf %y, %y : tensor<4x32xf32>
  func.return %z : tensor<4x32xf32>
}
"""

PAREN_RESULTS = """
func.func @f(%x: tensor<2x4xf32>, %m: tensor<2xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x4xf32>) outs(%m, %i : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%a: f32, %b: f32, %c: i64):
    linalg.yield %a, %c : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)
  func.return %r#0 : tensor<2xf32>
}
"""

TEXTS = {"mixed": MIXED, "same_type": SAME_TYPE, "paren_results": PAREN_RESULTS}
FILES = [
    *sorted((ROOT / "examples" / "frontends").glob("*.mlir")),
    ROOT / "lit_tests" / "dialects" / "linalg" / "batch_matmul.mlir",
    ROOT / "lit_tests" / "dialects" / "x86_amx" / "ops.mlir",
    ROOT / "lit_tests" / "dialects" / "x86_avx512" / "ops.mlir",
]


def run(mode: str, args: list[str], text: str) -> tuple[int, str, str]:
    p = subprocess.run(
        [sys.executable, "-c", DRIVER, mode, *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return p.returncode, p.stdout, p.stderr


def same(args: list[str], text: str) -> None:
    stock = run("stock", args, text)
    plugin = run("plugin", args, text)
    assert plugin == stock


@pytest.mark.parametrize("name", sorted(TEXTS))
@pytest.mark.parametrize("args", [[], ["--print-op-generic"], ["-p", "canonicalize,cse"]])
def test_xdsl_opt_reads_upstream_ir_as_without_the_plugin(name: str, args: list[str]):
    same(args, TEXTS[name])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_xdsl_opt_reads_the_frontend_inputs_as_without_the_plugin(path: Path):
    same([], path.read_text())


def test_the_project_reads_what_xdsl_does_not():
    """The project's context reads MLIR's mixed matmul, batch_matmul, x86.amx and
    x86.avx512.dot."""
    from xdsl_spatial.core.ir_io import make_context
    from xdsl_spatial.dialects.linalg_extra import BatchMatmulOp, ResultsGenericOp
    from xdsl_spatial.dialects.linalg_mixed import MixedMatmulOp

    ctx = make_context()
    assert ctx.get_op("linalg.matmul") is MixedMatmulOp
    assert ctx.get_op("linalg.generic") is ResultsGenericOp
    assert ctx.get_op("linalg.batch_matmul") is BatchMatmulOp
    assert ctx.get_optional_op("x86.amx.tile_mulf") is not None
    assert ctx.get_optional_op("x86.avx512.dot") is not None


def test_the_plugin_changes_no_class_or_dialect_of_xdsl():
    """Importing the package and loading its universe leaves xDSL's `linalg` and `x86`
    dialects, `linalg.matmul`'s body and `linalg.generic`'s parser as xDSL made them."""
    before = {
        "matmul": MatmulOp.__dict__["get_hidden_region"],
        "generic": GenericOp.__dict__["parse"],
        "dialects": dict(XDSL_UNIVERSE.all_dialects),
    }
    verse = Universe.get_multiverse()
    for make in (*verse.all_dialects.values(), *verse.all_passes.values()):
        make()
    from xdsl_spatial.core.ir_io import make_context

    ctx = make_context()
    assert ctx.get_op("linalg.matmul") is not MatmulOp
    assert MatmulOp.__dict__["get_hidden_region"] is before["matmul"]
    assert GenericOp.__dict__["parse"] is before["generic"]
    assert dict(XDSL_UNIVERSE.all_dialects) == before["dialects"]
    for name in ("linalg", "x86"):
        assert verse.all_dialects[name] is XDSL_UNIVERSE.all_dialects[name]
