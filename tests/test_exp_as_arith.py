"""`math-exp-as-arith` (`passes/exp_as_arith.py`): every `math.exp` of f32 values as
`arith` ops in f64, on the native engine: e^x rounded once to f32 (the bits of numpy's
f64 exp rounded to f32) over a sweep of f32 values and at the special ones. The pass's
IR is pinned by `lit_tests/passes/math_exp_as_arith/exp.mlir`; the native engine's
maps and softmax with it, against the unlowered ops, by `test_lower_ops.py`."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch_mlir", reason="the [native] extra (torch-mlir) is not installed")

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.native.prepare import convert, prepare
from xdsl_spatial.interpreters.options import Engine
from xdsl_spatial.interpreters.runner import compile_module, find_function

N = 1 << 18

EXP = f"""
func.func @e(%x: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  %y = math.exp %x : tensor<{N}xf32>
  func.return %y : tensor<{N}xf32>
}}
"""


def rounded(x: np.ndarray) -> np.ndarray:
    """e^x rounded once to f32, from numpy's exp in the widest float it has (x86's
    80-bit long double: about 1e-19 of the result off), where numpy's f64 exp may take
    another path on another CPU."""
    with np.errstate(over="ignore"):
        return np.exp(x.astype(np.longdouble)).astype(np.float32)


def ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a.view(np.int32).astype(np.int64) - b.view(np.int32).astype(np.int64))


def test_exp_is_e_to_the_x_rounded_once():
    """Every 991st f32 from -110 to 95 (e^x from 0 through the subnormals to +inf), and
    the special values: e^x rounded once to f32, but where e^x lies within about 1e-12
    of a rounding boundary (at most one value in 100,000: none here on the machine of
    docs/native.md, where libm's `expf` misses one in 14,000), and one ulp off
    at most anywhere; NaN for NaN."""
    exe = compile_module(parse_module(EXP), "e", Engine.NATIVE)
    top = np.float32(95).view(np.uint32)
    bottom = np.float32(-110).view(np.uint32)
    sweep = np.concatenate(
        [
            np.arange(0, top, 991, dtype=np.uint32).view(np.float32),
            np.arange(np.float32(-0.0).view(np.uint32), bottom, 991, dtype=np.uint32).view(
                np.float32
            ),
        ]
    )
    specials = np.array(
        [
            0.0,
            -0.0,
            1.0,
            -1.0,
            np.inf,
            -np.inf,
            88.72283,
            88.72284,
            -87.33655,
            -103.97208,
            -103.97209,
            -104.0,
            89.0,
            np.finfo(np.float32).max,
            -np.finfo(np.float32).max,
            np.finfo(np.float32).tiny,
            np.float32(1e-45),
        ],
        np.float32,
    )
    values = np.concatenate([sweep, specials])
    differ = 0
    for i in range(0, len(values), N):
        part = values[i : i + N]
        x = np.zeros(N, np.float32)
        x[: len(part)] = part
        got = exe(x).outputs[0][: len(part)]
        want = rounded(part)
        assert ulps(got, want).max() <= 1
        differ += int((got.view(np.uint32) != want.view(np.uint32)).sum())
    assert differ <= len(values) // 100_000
    nan = np.full(N, np.nan, np.float32)
    assert np.isnan(exe(nan).outputs[0]).all()
    assert len(values) > 2_000_000


def test_the_native_engine_compiles_no_exp_call():
    """What the native engine hands upstream MLIR holds no `math.exp` (which LLVM
    would make a call of libm's `expf` an element)."""
    text = convert(prepare(find_function(parse_module(EXP), "e")))
    assert "math.exp" not in text and "arith.truncf" in text
