// Products q8-raise leaves exactly as they were because their weight is not proven
// Q8_0, each with its reason: q8-lower then finds no q8.dequantize and lowers
// nothing. The module after q8-lower is the module before it, op for op.
//
// RUN: spatial-opt %s -o %t.before.mlir
// RUN: spatial-opt %s -p q8-lower -o %t.after.mlir
// RUN: diff %t.before.mlir %t.after.mlir
// RUN: spatial-opt %s -p 'q8-lower{report=true}' 2>&1 >/dev/null | filecheck %s

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// One scale per 64 K-rows: not Q8_0's block of 32.
// CHECK: q8-raise: linalg.matmul %y: not raised: the weight's dequantization (linalg.generic %w) is not Q8_0: one scale per 64 values along K (floordiv 64); Q8_0's block is 32
func.func @group64(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0 floordiv 64, d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<1x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.mulf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// One scale per 16 K-rows.
// CHECK: q8-raise: linalg.matmul %y: not raised: {{.*}}: one scale per 16 values along K (floordiv 16); Q8_0's block is 32
func.func @group16(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<4x32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0 floordiv 16, d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<4x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.mulf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// The scale blocked along N, a matmul contracting K: the scale map is on the wrong axis.
// CHECK: q8-raise: linalg.matmul %y: not raised: the scale is blocked along one axis of the weight and the product contracts the other (a scale map on the wrong axis)
func.func @wrong_axis(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<64x1xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<64x1xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.mulf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// One scale per column (per-channel quantisation).
// CHECK: q8-raise: linalg.matmul %y: not raised: {{.*}}: one scale per column (per-channel), not one per 32 values along K
func.func @per_channel(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.mulf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// Unsigned values, widened with extui and converted with uitofp.
// CHECK: q8-raise: linalg.matmul %y: not raised: {{.*}}: the values are read as unsigned (arith.extui, arith.uitofp); Q8_0 values are signed int8
func.func @unsigned(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<2x32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0 floordiv 32, d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<2x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.extui %a : i8 to i32
    %1 = arith.uitofp %0 : i32 to f32
    %2 = arith.mulf %1, %b : f32
    linalg.yield %2 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// Unsigned values converted with uitofp alone.
// CHECK: q8-raise: linalg.matmul %y: not raised: {{.*}}: the values are read as unsigned (arith.uitofp); Q8_0 values are signed int8
func.func @uitofp(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<2x32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0 floordiv 32, d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<2x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.uitofp %a : i8 to f32
    %1 = arith.mulf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// A zero point per block (asymmetric quantisation).
// CHECK: q8-raise: linalg.matmul %y: not raised: {{.*}}: the values are offset by a zero point (arith.subf); Q8_0 has none
func.func @zero_point(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<2x32xf32>, %zps: tensor<2x32xi8>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0 floordiv 32, d1)>, affine_map<(d0, d1) -> (d0 floordiv 32, d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s, %zps : tensor<64x32xi8>, tensor<2x32xf32>, tensor<2x32xi8>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %zp: i8, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.sitofp %zp : i8 to f32
    %2 = arith.subf %0, %1 : f32
    %3 = arith.mulf %2, %b : f32
    linalg.yield %3 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// Extra arithmetic after the scale: a bias.
// CHECK: q8-raise: linalg.matmul %y: not raised: {{.*}}: the body does more than convert and scale: it yields arith.addf, not arith.mulf
func.func @bias(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<2x32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0 floordiv 32, d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<2x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.mulf %0, %b : f32
    %2 = arith.addf %1, %b : f32
    linalg.yield %2 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// Extra arithmetic: a second factor.
// CHECK: q8-raise: linalg.matmul %y: not raised: {{.*}}: the body does more than convert and scale: the scale is computed by arith.mulf
func.func @second_factor(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<2x32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0 floordiv 32, d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<2x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.mulf %b, %b : f32
    %2 = arith.mulf %0, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// Four-bit values.
// CHECK: q8-raise: linalg.matmul %y: not raised: {{.*}}: the values are i4; Q8_0 stores signed i8
func.func @i4(%x: tensor<1x64xf32>, %q: tensor<64x32xi4>, %s: tensor<2x32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0 floordiv 32, d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi4>, tensor<2x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i4, %b: f32, %o: f32):
    %0 = arith.sitofp %a : i4 to f32
    %1 = arith.mulf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// A bf16 weight whose f32 scale is rounded to bf16 first.
// CHECK: q8-raise: linalg.matmul %y: not raised: {{.*}}: the scale is rounded (arith.truncf) before the multiply
func.func @truncf_scale(%x: tensor<1x64xbf16>, %q: tensor<64x32xi8>, %s: tensor<2x32xf32>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xbf16>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0 floordiv 32, d1)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<2x32xf32>) outs(%e : tensor<64x32xbf16>) {
  ^bb0(%a: i8, %b: f32, %o: bf16):
    %0 = arith.sitofp %a : i8 to bf16
    %1 = arith.truncf %b : f32 to bf16
    %2 = arith.mulf %0, %1 : bf16
    linalg.yield %2 : bf16
  } -> tensor<64x32xbf16>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// IREE's grouped layout with its usual groups of 128 lanes.
// CHECK: q8-raise: linalg.generic #{{[0-9]+}}: not raised: the weight's dequantization is not Q8_0: one scale per group of 128 values along K; Q8_0's block is 32
func.func @grouped_128(%arg0: tensor<16x2x128xi8>, %arg1: tensor<1x1x2x128xf32>, %arg2: tensor<16x2x1xf32>) -> tensor<1x1x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x16xf32>
  %1 = tensor.empty() : tensor<16x2x128xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
  %3 = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg2 : tensor<16x2x128xi8>, tensor<16x2x1xf32>) outs(%1 : tensor<16x2x128xf32>) {
  ^bb0(%in: i8, %in_0: f32, %out: f32):
    %5 = arith.sitofp %in : i8 to f32
    %6 = arith.mulf %5, %in_0 : f32
    linalg.yield %6 : f32
  } -> tensor<16x2x128xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg1, %3 : tensor<1x1x2x128xf32>, tensor<16x2x128xf32>) outs(%2 : tensor<1x1x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.mulf %in, %in_0 : f32
    %6 = arith.addf %5, %out : f32
    linalg.yield %6 : f32
  } -> tensor<1x1x16xf32>
  func.return %4 : tensor<1x1x16xf32>
}

// A proven Q8_0 weight, but a product that accumulates in bf16.
// CHECK: q8-raise: linalg.generic %y: not raised: the product accumulates in bf16; the fold accumulates f32
func.func @bf16_accumulator(%x: tensor<1x64xbf16>, %W: tensor<32x64xi8>, %W_scale: tensor<32x2xbf16>, %acc: tensor<1x32xbf16>) -> tensor<1x32xbf16> {
  %e = tensor.empty() : tensor<32x64xbf16>
  %w = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, #id2], iterator_types = ["parallel", "parallel"]} ins(%W, %W_scale : tensor<32x64xi8>, tensor<32x2xbf16>) outs(%e : tensor<32x64xbf16>) {
  ^bb0(%a: i8, %b: bf16, %o: bf16):
    %0 = arith.sitofp %a : i8 to bf16
    %1 = arith.mulf %0, %b : bf16
    linalg.yield %1 : bf16
  } -> tensor<32x64xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x64xbf16>, tensor<32x64xbf16>) outs(%acc : tensor<1x32xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %0 = arith.mulf %a, %b : bf16
    %1 = arith.addf %o, %0 : bf16
    linalg.yield %1 : bf16
  } -> tensor<1x32xbf16>
  func.return %y : tensor<1x32xbf16>
}

// The fused form with unsigned values, and with one scale per 64 values.
// CHECK: q8-raise: linalg.generic %y: not raised: the weight the body dequantises is not Q8_0: the values are read as unsigned (arith.uitofp); Q8_0 values are signed int8
// CHECK: q8-raise: linalg.generic %y: not raised: the weight the body dequantises is not Q8_0: one scale per 64 values along K (floordiv 64); Q8_0's block is 32
func.func @fused_unsigned(%x: tensor<2x64xf32>, %W: tensor<32x64xi8>, %W_scale: tensor<32x2xf32>, %acc: tensor<2x32xf32>) -> tensor<2x32xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, k floordiv 32)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %W, %W_scale : tensor<2x64xf32>, tensor<32x64xi8>, tensor<32x2xf32>) outs(%acc : tensor<2x32xf32>) {
  ^bb0(%a: f32, %q: i8, %s: f32, %o: f32):
    %1 = arith.uitofp %q : i8 to f32
    %3 = arith.mulf %1, %s : f32
    %4 = arith.mulf %a, %3 : f32
    %5 = arith.addf %o, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<2x32xf32>
  func.return %y : tensor<2x32xf32>
}
func.func @fused_group64(%x: tensor<2x64xf32>, %W: tensor<32x64xi8>, %W_scale: tensor<32x1xf32>, %acc: tensor<2x32xf32>) -> tensor<2x32xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, k floordiv 64)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %W, %W_scale : tensor<2x64xf32>, tensor<32x64xi8>, tensor<32x1xf32>) outs(%acc : tensor<2x32xf32>) {
  ^bb0(%a: f32, %q: i8, %s: f32, %o: f32):
    %1 = arith.sitofp %q : i8 to f32
    %3 = arith.mulf %1, %s : f32
    %4 = arith.mulf %a, %3 : f32
    %5 = arith.addf %o, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<2x32xf32>
  func.return %y : tensor<2x32xf32>
}

// Then q8-lower, over the eleven matmuls the raise left:
// CHECK-COUNT-11: q8-lower: linalg.matmul %y: not lowered: the weight is not a q8.dequantize
// CHECK-NOT: raised
// CHECK-NOT: lowered: wb
