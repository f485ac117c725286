// RUN: spatial-opt %s | filecheck %s
// RUN: spatial-run %s --print | filecheck %s --check-prefix=EXEC

// f64 bit patterns in a dense literal: -inf, a quiet NaN, -0.0 and 1.0, in a list
// and as a splat.

// CHECK-LABEL: func.func @f64
// CHECK-NEXT:    %d = arith.constant dense<[0xfff0000000000000, 0x7ff8000000000000, -0.000000e+00, 1.000000e+00]> : tensor<4xf64>
// CHECK-NEXT:    %s = arith.constant dense<0x7ff0000000000000> : tensor<2xf64>
// EXEC:      res0 =
// EXEC-NEXT: [-inf  nan  -0.   1.]
// EXEC:      res1 =
// EXEC-NEXT: [inf inf]
func.func @f64() -> (tensor<4xf64>, tensor<2xf64>) {
  %d = arith.constant dense<[0xFFF0000000000000, 0x7FF8000000000000, 0x8000000000000000, 0x3FF0000000000000]> : tensor<4xf64>
  %s = arith.constant dense<0x7FF0000000000000> : tensor<2xf64>
  func.return %d, %s : tensor<4xf64>, tensor<2xf64>
}
