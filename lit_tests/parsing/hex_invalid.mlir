// RUN: spatial-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// MLIR's two refusals of a hexadecimal float, at the number.

// CHECK:      hex_invalid.mlir:[[# @LINE + 4]]:31
// CHECK-NEXT: dense<[-0x7F800000, 1.0]>
// CHECK:      a hexadecimal float literal cannot have a leading minus
func.func @minus() -> tensor<2xf32> {
  %a = arith.constant dense<[-0x7F800000, 1.0]> : tensor<2xf32>
  func.return %a : tensor<2xf32>
}

// -----

// CHECK:      hex_invalid.mlir:[[# @LINE + 3]]:29
// CHECK:      hexadecimal float constant out of range for type f16
func.func @too_wide() -> tensor<2xf16> {
  %a = arith.constant dense<0x1FC00> : tensor<2xf16>
  func.return %a : tensor<2xf16>
}

// -----

// CHECK:      hex_invalid.mlir:[[# @LINE + 3]]:29
// CHECK:      hexadecimal float constant out of range for type f32
func.func @too_wide_f32() -> tensor<2xf32> {
  %a = arith.constant dense<0x1FF800000> : tensor<2xf32>
  func.return %a : tensor<2xf32>
}
