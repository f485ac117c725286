// RUN: spatial-opt %s | filecheck %s
// RUN: spatial-run %s --print | filecheck %s --check-prefix=EXEC

// f16 bit patterns in a dense literal: ±inf, a quiet NaN, a NaN with every payload
// bit set (above 65519 as an integer: xDSL 0.75's own parser fails to pack it), -0.0,
// 1.0 and the smallest subnormal. xDSL's printer writes every f16 NaN as 0x7e00 or
// 0xfe00 (its payload is not printed); tests/test_hex_literals.py checks the bits.

// CHECK-LABEL: func.func @f16
// CHECK-NEXT:    %h = arith.constant dense<[0x7c00, 0xfc00, 0x7e00, 0xfe00, -0.000000e+00, 1.000000e+00, 5.960460e-08]> : tensor<7xf16>
// CHECK-NEXT:    %s = arith.constant dense<0xfc00> : tensor<2x3xf16>
// EXEC:      res0 =
// EXEC-NEXT: [    inf    -inf     nan     nan -0.e+00  1.e+00  6.e-08]
// EXEC:      res1 =
// EXEC-NEXT: {{\[\[}}-inf -inf -inf]
// EXEC-NEXT:  [-inf -inf -inf]]
func.func @f16() -> (tensor<7xf16>, tensor<2x3xf16>) {
  %h = arith.constant dense<[0x7C00, 0xFC00, 0x7E00, 0xFFFF, 0x8000, 0x3C00, 0x0001]> : tensor<7xf16>
  %s = arith.constant dense<0xFC00> : tensor<2x3xf16>
  func.return %h, %s : tensor<7xf16>, tensor<2x3xf16>
}
