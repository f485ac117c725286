// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALL

// One verifier error a case, in order. A case that verified would print its module
// in the custom form, so ALL checks that every case failed.
// ALL-NOT: {{^}}builtin.module

func.func @k_not_a_block(%q: tensor<48x96xi8>, %s: tensor<2x96xf32>) {
  %w = q8.dequantize %q, %s : tensor<48x96xi8>, tensor<2x96xf32> -> tensor<48x96xf32>
  func.return
}
// CHECK: Operation does not verify: K must be a multiple of the Q8_0 block (32), got K = 48

// -----

func.func @scale_rows(%q: tensor<64x96xi8>, %s: tensor<3x96xf32>) {
  %w = q8.dequantize %q, %s : tensor<64x96xi8>, tensor<3x96xf32> -> tensor<64x96xf32>
  func.return
}
// CHECK: scales must have K/32 = 2 rows, got 3

// -----

func.func @scale_columns(%q: tensor<64x96xi8>, %s: tensor<2x32xf32>) {
  %w = q8.dequantize %q, %s : tensor<64x96xi8>, tensor<2x32xf32> -> tensor<64x96xf32>
  func.return
}
// CHECK: scales must have N = 96 columns, got 32

// -----

func.func @values_not_i8(%q: tensor<64x96xi16>, %s: tensor<2x96xf32>) {
  %w = q8.dequantize %q, %s : tensor<64x96xi16>, tensor<2x96xf32> -> tensor<64x96xf32>
  func.return
}
// CHECK: values must have element type i8, got i16

// -----

func.func @scales_f64(%q: tensor<64x96xi8>, %s: tensor<2x96xf64>) {
  %w = q8.dequantize %q, %s : tensor<64x96xi8>, tensor<2x96xf64> -> tensor<64x96xf32>
  func.return
}
// CHECK: scales must have element type f32, f16 or bf16, got f64

// -----

func.func @result_f16(%q: tensor<64x96xi8>, %s: tensor<2x96xf32>) {
  %w = q8.dequantize %q, %s : tensor<64x96xi8>, tensor<2x96xf32> -> tensor<64x96xf16>
  func.return
}
// CHECK: result must have element type f32 or bf16, got f16

// -----

func.func @result_shape(%q: tensor<64x96xi8>, %s: tensor<2x96xf32>) {
  %w = q8.dequantize %q, %s : tensor<64x96xi8>, tensor<2x96xf32> -> tensor<64x64xf32>
  func.return
}
// CHECK: result must have the shape of values, 64x96, got 64x64

// -----

func.func @values_rank(%q: tensor<6144xi8>, %s: tensor<2x96xf32>) {
  %w = q8.dequantize %q, %s : tensor<6144xi8>, tensor<2x96xf32> -> tensor<64x96xf32>
  func.return
}
// CHECK: values must be a 2-d tensor (K x N), got rank 1

// -----

func.func @result_rank(%q: tensor<64x96xi8>, %s: tensor<2x96xf32>) {
  %w = q8.dequantize %q, %s : tensor<64x96xi8>, tensor<2x96xf32> -> tensor<1x64x96xf32>
  func.return
}
// CHECK: result must be a 2-d tensor (K x N), got rank 3

// -----

func.func @dynamic_values(%q: tensor<?x96xi8>, %s: tensor<2x96xf32>) {
  %w = q8.dequantize %q, %s : tensor<?x96xi8>, tensor<2x96xf32> -> tensor<64x96xf32>
  func.return
}
// CHECK: values must have a static shape, got tensor<?x96xi8>

// -----

func.func @quantize_k(%w: tensor<40x96xf32>) {
  %q, %s = q8.quantize %w : tensor<40x96xf32> -> tensor<40x96xi8>, tensor<1x96xf32>
  func.return
}
// CHECK: K must be a multiple of the Q8_0 block (32), got K = 40

// -----

func.func @quantize_input_f16(%w: tensor<64x96xf16>) {
  %q, %s = q8.quantize %w : tensor<64x96xf16> -> tensor<64x96xi8>, tensor<2x96xf16>
  func.return
}
// CHECK: input must have element type f32 or bf16, got f16

// -----

func.func @quantize_input_shape(%w: tensor<32x96xf32>) {
  %q, %s = q8.quantize %w exact : tensor<32x96xf32> -> tensor<64x96xi8>, tensor<2x96xf32>
  func.return
}
// CHECK: input must have the shape of values, 64x96, got 32x96

// -----

func.func @quantize_values_i4(%w: tensor<64x96xf32>) {
  %q, %s = q8.quantize %w : tensor<64x96xf32> -> tensor<64x96xi4>, tensor<2x96xf32>
  func.return
}
// CHECK: values must have element type i8, got i4

// -----

func.func @quantize_scales_i8(%w: tensor<64x96xf32>) {
  %q, %s = q8.quantize %w : tensor<64x96xf32> -> tensor<64x96xi8>, tensor<2x96xi8>
  func.return
}
// CHECK: scales must have element type f32, f16 or bf16, got i8

// -----

func.func @quantize_scale_rows(%w: tensor<64x96xf32>) {
  %q, %s = q8.quantize %w : tensor<64x96xf32> -> tensor<64x96xi8>, tensor<64x96xf32>
  func.return
}
// CHECK: scales must have K/32 = 2 rows, got 64

// -----

func.func @quantize_scales_rank(%w: tensor<64x96xf32>) {
  %q, %s = q8.quantize %w : tensor<64x96xf32> -> tensor<64x96xi8>, tensor<192xf32>
  func.return
}
// CHECK: scales must be a 2-d tensor (K x N), got rank 1
