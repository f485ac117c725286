// RUN: spatial-opt %s | filecheck %s
// RUN: spatial-run %s --print | filecheck %s --check-prefix=EXEC

// bf16 bit patterns in a dense literal: ±inf, a quiet NaN, a NaN with every payload
// bit set, -0.0, 1.0 and the smallest subnormal; xDSL 0.75's own parser reads 0xFF80
// as 65280.0.

// CHECK-LABEL: func.func @bf16
// CHECK-NEXT:    %b = arith.constant dense<[0x7f80, 0xff80, 0x7fc0, 0xffff, -0.000000e+00, 1.000000e+00, 9.183550e-41]> : tensor<7xbf16>
// CHECK-NEXT:    %s = arith.constant dense<0xff80> : tensor<2x3xbf16>
// EXEC:      res0 =
// EXEC-NEXT: [inf -inf nan nan -0 1 9.18355e-41]
// EXEC:      res1 =
// EXEC-NEXT: {{\[\[}}-inf -inf -inf]
// EXEC-NEXT:  [-inf -inf -inf]]
func.func @bf16() -> (tensor<7xbf16>, tensor<2x3xbf16>) {
  %b = arith.constant dense<[0x7F80, 0xFF80, 0x7FC0, 0xFFFF, 0x8000, 0x3F80, 0x0001]> : tensor<7xbf16>
  %s = arith.constant dense<0xFF80> : tensor<2x3xbf16>
  func.return %b, %s : tensor<7xbf16>, tensor<2x3xbf16>
}
