"""`linalg-masked-map` (`passes/masked_map.py`): a map whose body yields `select(ok,
value, c)`, `ok` varying along its innermost loop, computed only in the vectors of that
loop where `ok` keeps some point, on the native engine for every kernel choice but
`generic` (the plain path, which keeps the generic's loops). Each element computed runs
the body's ops, each element not computed is `c`: the bits of the plain path, whatever
the inputs hold where `ok` fails. What it takes and the code it makes are pinned by
`lit_tests/passes/linalg_masked_map/`."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch_mlir", reason="the [native] extra (torch-mlir) is not installed")

from xdsl.dialects.linalg.ops import GenericOp

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.native.prepare import convert, prepare
from xdsl_spatial.interpreters.options import Engine
from xdsl_spatial.interpreters.runner import compile_module, find_function
from xdsl_spatial.passes.masked_map import masked_map

KEYS = 256


def softmax_exp(window: int) -> str:
    """A step of 8 sequences' `exp(s - max)` where the row sees the key (its own
    position; with a `window`, fewer than that many keys back), +0.0 where not."""
    shapes = "tensor<3x3x8x256xf32>, tensor<3x3x8xf32>, tensor<8xi32>"
    ok = "%ok = arith.cmpi ule, %j, %qi : index"
    if window:
        ok = f"""%near = arith.cmpi ule, %j, %qi : index
    %w = arith.constant {window} : index
    %end = arith.addi %j, %w : index
    %far = arith.cmpi ult, %qi, %end : index
    %ok = arith.andi %near, %far : i1"""
    return f"""
func.func @f(%s: tensor<3x3x8x256xf32>, %m: tensor<3x3x8xf32>, %pos: tensor<8xi32>) -> tensor<3x3x8x256xf32> {{
  %e = tensor.empty() : tensor<3x3x8x256xf32>
  %p = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%s, %m, %pos : {shapes}) outs(%e : tensor<3x3x8x256xf32>) {{
  ^bb0(%x: f32, %mx: f32, %q: i32, %o: f32):
    %j = linalg.index 3 : index
    %qi = arith.index_cast %q : i32 to index
    {ok}
    %d = arith.subf %x, %mx : f32
    %v = math.exp %d : f32
    %zero = arith.constant 0.000000e+00 : f32
    %r = arith.select %ok, %v, %zero : f32
    linalg.yield %r : f32
  }} -> tensor<3x3x8x256xf32>
  func.return %p : tensor<3x3x8x256xf32>
}}
"""


@pytest.mark.parametrize("window", [0, 40], ids=["causal", "window"])
def test_the_plain_loops_bits_and_nothing_hidden_read(window: int):
    """Positions from 0 (15 of a row's 16 vectors hidden) to the last, some inside a
    vector; the scores past each position (and before its window) NaN: the kernels
    that take the map (`loop`) and the plain path (`generic`) give the same bits, +0.0
    where a row does not see the key and e^(s - max) within an ulp where it does (the
    difference rounded to f32, as the body's `subf`)."""
    text = softmax_exp(window)
    fn = find_function(parse_module(text), "f")
    (generic,) = [o for o in fn.walk() if isinstance(o, GenericOp)]
    assert masked_map(generic) is not None
    taken = convert(prepare(fn), kind="loop")
    assert "linalg.generic" not in taken and "scf.if" in taken
    assert "linalg.generic" in convert(prepare(fn), kind="generic")
    rng = np.random.default_rng(5)
    s = rng.standard_normal((3, 3, 8, KEYS)).astype(np.float32) * 4
    m = s.max(axis=3)
    pos = np.array([0, 15, 16, 17, 100, 200, 254, 255], np.int32)
    keys = np.arange(KEYS)
    seen = keys[None, :] <= pos[:, None]
    if window:
        seen &= pos[:, None] < keys[None, :] + window
    hidden = np.broadcast_to(~seen[None, None], s.shape)
    s[hidden] = np.nan
    outs = {}
    for kernels in ("loop", "generic"):
        exe = compile_module(parse_module(text), "f", Engine.NATIVE, kernels=kernels)
        outs[kernels] = exe(s, m, pos).outputs[0]
    got = outs["loop"]
    assert np.array_equal(got.view(np.uint32), outs["generic"].view(np.uint32))
    assert not got[hidden].view(np.uint32).any()  # +0.0, not a NaN read
    want = np.exp((s - m[..., None]).astype(np.float64))  # the difference rounded, as the body
    ulp = np.spacing(want.astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(got[~hidden] - want[~hidden]) <= ulp[~hidden])
