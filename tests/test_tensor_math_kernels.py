"""Kernels of the tensor dialect's data movement and of the math dialect, run through
`run` on small functions and called directly on arrays (as a generic body does)."""

from __future__ import annotations

from typing import TypeVar

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import math, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters import kernels
from xdsl_spatial.interpreters.runner import RunError, run

OpT = TypeVar("OpT", bound=Operation)


def module(body: str) -> ModuleOp:
    return parse_module("builtin.module {\n" + body + "\n}\n")


def first(m: Operation, cls: type[OpT]) -> OpT:
    return next(op for op in m.walk() if isinstance(op, cls))


SLICES = module(
    """
  func.func @slices(%x: tensor<4x6xf32>, %i: tensor<1xi32>) -> (tensor<2x3xf32>, tensor<6xf32>, tensor<4x6xf32>, tensor<2x2xf32>) {
    %c0 = arith.constant 0 : index
    %p = tensor.extract %i[%c0] : tensor<1xi32>
    %o = arith.index_cast %p : i32 to index
    %a = tensor.extract_slice %x[1, 2] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
    %row = tensor.extract_slice %x[%o, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<6xf32>
    %z = arith.constant dense<0.0> : tensor<1x6xf32>
    %ins = tensor.insert_slice %z into %x[%o, 0] [1, 6] [1, 1] : tensor<1x6xf32> into tensor<4x6xf32>
    %st = tensor.extract_slice %x[0, 1] [2, 2] [2, 3] : tensor<4x6xf32> to tensor<2x2xf32>
    func.return %a, %row, %ins, %st : tensor<2x3xf32>, tensor<6xf32>, tensor<4x6xf32>, tensor<2x2xf32>
  }
"""
)


def test_slices_static_dynamic_strided_and_rank_reduced():
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    keep = x.copy()
    a, row, ins, st = run(SLICES, "slices", x, np.array([2], np.int32))
    assert np.array_equal(a, x[1:3, 2:5])
    assert np.array_equal(row, x[2])
    want = x.copy()
    want[2] = 0
    assert np.array_equal(ins, want)
    assert np.array_equal(st, x[0:3:2, 1:5:3])
    assert np.array_equal(x, keep), "an insert writes a new tensor, never its operand"


def test_a_dynamic_offset_outside_the_tensor_is_an_error_naming_the_op():
    x = np.zeros((4, 6), np.float32)
    with pytest.raises(
        RunError, match=r"tensor.extract_slice: dimension 0: offset 4, size 1.*4 elements"
    ):
        run(SLICES, "slices", x, np.array([4], np.int32))


RESHAPES = module(
    """
  func.func @reshapes(%x: tensor<2x6xf32>, %y: tensor<2x2xf32>) -> (tensor<2x2x3xf32>, tensor<12xf32>, tensor<2x8xf32>, tensor<3x2xf32>, tensor<2x6xf32>) {
    %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [2, 2, 3] : tensor<2x6xf32> into tensor<2x2x3xf32>
    %c = tensor.collapse_shape %x [[0, 1]] : tensor<2x6xf32> into tensor<12xf32>
    %cat = tensor.concat dim(1) %x, %y : (tensor<2x6xf32>, tensor<2x2xf32>) -> tensor<2x8xf32>
    %one = arith.constant 1.5 : f32
    %two = arith.constant 2.5 : f32
    %f = tensor.from_elements %one, %two, %one, %two, %one, %two : tensor<3x2xf32>
    %s = tensor.splat %two : tensor<2x6xf32>
    func.return %e, %c, %cat, %f, %s : tensor<2x2x3xf32>, tensor<12xf32>, tensor<2x8xf32>, tensor<3x2xf32>, tensor<2x6xf32>
  }
"""
)


def test_reshapes_concat_from_elements_and_splat():
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    y = -np.arange(4, dtype=np.float32).reshape(2, 2)
    e, c, cat, f, s = run(RESHAPES, "reshapes", x, y)
    assert np.array_equal(e, x.reshape(2, 2, 3))
    assert np.array_equal(c, x.reshape(12))
    assert np.array_equal(cat, np.concatenate([x, y], axis=1))
    assert np.array_equal(f, np.array([[1.5, 2.5]] * 3, np.float32))
    assert np.array_equal(s, np.full((2, 6), 2.5, np.float32)) and s.dtype == np.float32


ELEMENTS = module(
    """
  func.func @elements(%x: tensor<3x4xi8>, %i: tensor<2xi32>) -> (i8, tensor<3x4xi8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = tensor.extract %i[%c0] : tensor<2xi32>
    %b = tensor.extract %i[%c1] : tensor<2xi32>
    %r = arith.index_cast %a : i32 to index
    %k = arith.index_cast %b : i32 to index
    %v = tensor.extract %x[%r, %k] : tensor<3x4xi8>
    %w = tensor.insert %v into %x[%c0, %c0] : tensor<3x4xi8>
    func.return %v, %w : i8, tensor<3x4xi8>
  }
"""
)


def test_extract_and_insert_an_element():
    x = np.arange(12, dtype=np.int8).reshape(3, 4)
    v, w = run(ELEMENTS, "elements", x, np.array([2, 1], np.int32))
    assert v == 9 and np.asarray(v).dtype == np.int8
    want = x.copy()
    want[0, 0] = 9
    assert np.array_equal(w, want)
    with pytest.raises(RunError, match=r"tensor.extract: index 3 of dimension 0 is outside 0..2"):
        run(ELEMENTS, "elements", x, np.array([3, 1], np.int32))


def test_extract_gathers_with_arrays_of_indices():
    """A generic body's extract at computed indices: one numpy gather."""
    kern = kernels.prepare(first(ELEMENTS, tensor.ExtractOp))
    table = np.arange(2, 5, dtype=np.int32)  # the op reads a 2-element i32 tensor
    (g,) = kern([table[:2], np.array([[1, 0], [0, 1]])])
    assert np.array_equal(g, [[3, 2], [2, 3]])


MATH = module(
    """
  func.func @math(%x: tensor<64xf32>, %h: tensor<64xbf16>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xbf16>, tensor<64xf32>) {
    %e = math.exp %x : tensor<64xf32>
    %r = math.rsqrt %x : tensor<64xf32>
    %s = math.sin %x : tensor<64xf32>
    %c = math.cos %x : tensor<64xf32>
    %t = math.tanh %x : tensor<64xf32>
    %hb = math.exp %h : tensor<64xbf16>
    %p = math.powf %x, %x : tensor<64xf32>
    func.return %e, %r, %s, %c, %t, %hb, %p : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xbf16>, tensor<64xf32>
  }
"""
)


def test_math_ops_within_a_few_ulps_of_fp64():
    x = np.linspace(0.05, 6.0, 64).astype(np.float32)
    h = x.astype(ml_dtypes.bfloat16)
    e, r, s, c, t, hb, p = run(MATH, "math", x, x)
    x64 = x.astype(np.float64)
    for got, want in (
        (e, np.exp(x64)),
        (r, 1 / np.sqrt(x64)),
        (s, np.sin(x64)),
        (c, np.cos(x64)),
        (t, np.tanh(x64)),
        (p, x64**x64),
    ):
        assert got.dtype == np.float32
        # a few ulps of the result (or of 1, for sin and cos near their zeros)
        ulp = np.spacing(np.maximum(np.abs(want), 1.0).astype(np.float32)).astype(np.float64)
        assert np.all(np.abs(got - want) <= 4 * ulp)
    # a bf16 op computes in fp32 and rounds once
    assert hb.dtype == ml_dtypes.bfloat16
    want = np.exp(h.astype(np.float32)).astype(ml_dtypes.bfloat16)
    assert np.array_equal(hb.astype(np.float32), want.astype(np.float32))


@pytest.mark.parametrize(
    ("cls", "x", "want"),
    [
        (math.RoundOp, [0.5, 1.5, 2.5, -0.5, -2.5, 2.4, 0.49999997], [1, 2, 3, -1, -3, 2, 0]),
        (math.RoundEvenOp, [0.5, 1.5, 2.5, -0.5, -2.5, 2.4], [0, 2, 2, -0, -2, 2]),
        (math.TruncOp, [1.7, -1.7], [1, -1]),
        (math.FloorOp, [1.7, -1.7], [1, -2]),
        (math.CeilOp, [1.2, -1.2], [2, -1]),
        (math.SqrtOp, [4.0, -1.0], [2, np.nan]),
        (math.LogOp, [1.0, 0.0], [0, -np.inf]),
    ],
)
def test_rounding_and_special_values(cls, x, want):
    m = module(
        f"""
  func.func @f(%x: tensor<{len(x)}xf32>) -> tensor<{len(x)}xf32> {{
    %y = {cls.name} %x : tensor<{len(x)}xf32>
    func.return %y : tensor<{len(x)}xf32>
  }}
"""
    )
    (y,) = run(m, "f", np.array(x, np.float32))
    assert np.array_equal(y, np.array(want, np.float32), equal_nan=True)


def test_scalar_math_in_a_body_and_integer_ops():
    m = module(
        """
  func.func @f(%a: f32, %b: f32, %c: f32, %i: i32, %n: i32) -> (f32, i32, i32, f32) {
    %fma = math.fma %a, %b, %c : f32
    %p = math.ipowi %i, %n : i32
    %pop = math.ctpop %i : i32
    %e = math.exp %a : f32
    func.return %fma, %p, %pop, %e : f32, i32, i32, f32
  }
"""
    )
    fn = {type(op): kernels.prepare(op) for op in m.walk() if op.name.startswith("math.")}
    (fma,) = fn[math.FmaOp]([np.float32(3), np.float32(1 / 3), np.float32(-1)])
    assert fma == np.float32(np.float64(np.float32(1 / 3)) * 3 - 1)
    (p,) = fn[math.IPowIOp](
        [np.array([2, 1, -1, 3], np.int32), np.array([10, -3, -3, -1], np.int32)]
    )
    assert np.array_equal(p, [1024, 1, -1, 0])
    (pop,) = fn[math.CtPopOp]([np.array([0, 7, -1], np.int32)])
    assert np.array_equal(pop, [0, 3, 32])
    (e,) = fn[math.ExpOp]([np.float32(1.0)])
    assert type(e) is np.float32 and abs(float(e) - np.e) < 1e-6
