// The forms q8-raise raises to linalg.matmul over q8.dequantize, one function each:
// the dequantising and contracting generics are gone, a weight stored N x K or
// N x G x 32 reaches K x N through explicit transposes and reshapes made right
// after its dequantisation, and the q8.dequantize names the source layout.
//
// RUN: spatial-opt %s -p q8-raise | filecheck %s
// RUN: spatial-opt %s -p 'q8-raise{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: spatial-opt %s -p q8-raise | spatial-opt --print-op-generic | spatial-opt | filecheck %s

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#kblock = affine_map<(d0, d1) -> (d0 floordiv 32, d1)>
#nblock = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>

// K x N (MLIR's sub-channel quant lowering): the generic becomes q8.dequantize of
// the same tensors, the matmul is kept.
// CHECK-LABEL: func.func @kn(
// CHECK-SAME:      %[[X:.*]]: tensor<1x64xf32>, %[[Q:.*]]: tensor<64x32xi8>, %[[S:.*]]: tensor<2x32xf16>)
// CHECK-NEXT:    %[[W:.*]] = q8.dequantize %[[Q]], %[[S]] : tensor<64x32xi8>, tensor<2x32xf16> -> tensor<64x32xf32>
// CHECK:         %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<1x64xf32>, tensor<64x32xf32>)
// CHECK-NEXT:    func.return %[[Y]]
// REPORT: q8-raise: linalg.matmul %y: raised to linalg.matmul over q8.dequantize: 1x64x32; values 64x32 i8 (KxN), f16 scales 2x32
func.func @kn(%x: tensor<1x64xf32>, %q: tensor<64x32xi8>, %s: tensor<2x32xf16>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, #kblock, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x32xi8>, tensor<2x32xf16>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f16, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.extf %b : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// The scale first, the values sign-extended before sitofp, and MLIR's all-zero
// zero point (`(q - 0) * s`, the zero points a dense zero constant): still Q8_0.
// CHECK-LABEL: func.func @kn_zero_point_zero(
// CHECK-NOT:     linalg.generic
// CHECK:         q8.dequantize %{{.*}}, %{{.*}} : tensor<64x32xi8>, tensor<2x32xf32> -> tensor<64x32xf32>
// CHECK-NOT:     arith.constant dense<0> : tensor<2x32xi8>
// CHECK:         linalg.matmul
// REPORT: q8-raise: linalg.matmul %y: raised to linalg.matmul over q8.dequantize: 3x64x32; values 64x32 i8 (KxN), f32 scales 2x32
func.func @kn_zero_point_zero(%x: tensor<3x64xf32>, %q: tensor<64x32xi8>, %s: tensor<2x32xf32>) -> tensor<3x32xf32> {
  %zp = arith.constant dense<0> : tensor<2x32xi8>
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id2, #kblock, #kblock, #id2], iterator_types = ["parallel", "parallel"]} ins(%q, %s, %zp : tensor<64x32xi8>, tensor<2x32xf32>, tensor<2x32xi8>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: i8, %b: f32, %z: i8, %o: f32):
    %0 = arith.extsi %a : i8 to i32
    %1 = arith.sitofp %0 : i32 to f32
    %2 = arith.sitofp %z : i8 to f32
    %3 = arith.subf %1, %2 : f32
    %4 = arith.mulf %b, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<64x32xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<3x32xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<3x32xf32>) -> tensor<3x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<3x64xf32>, tensor<64x32xf32>) outs(%z0 : tensor<3x32xf32>) -> tensor<3x32xf32>
  func.return %y : tensor<3x32xf32>
}

// N x K (Linear, GGUF) through a contraction generic that widens its bf16
// activation: the values and scales are transposed (named after the weight, as the
// chip stores them), the activation is widened as a tensor, and a matmul replaces
// the contraction.
// CHECK-LABEL: func.func @nk(
// CHECK-SAME:      %[[X:.*]]: tensor<2x64xbf16>, %[[W:.*]]: tensor<32x64xi8>, %[[WS:.*]]: tensor<32x2xf32>)
// CHECK-NEXT:    %[[E0:.*]] = tensor.empty() : tensor<64x32xi8>
// CHECK-NEXT:    %[[Q:.*]] = linalg.transpose ins(%[[W]]:tensor<32x64xi8>) outs(%[[E0]]:tensor<64x32xi8>) permutation = [1, 0]
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<2x32xf32>
// CHECK-NEXT:    %[[S:.*]] = linalg.transpose ins(%[[WS]]:tensor<32x2xf32>) outs(%[[E1]]:tensor<2x32xf32>) permutation = [1, 0]
// CHECK-NEXT:    %[[DQ:.*]] = q8.dequantize %[[Q]], %[[S]] source "NxK" : tensor<64x32xi8>, tensor<2x32xf32> -> tensor<64x32xf32>
// CHECK:         %[[Z:.*]] = linalg.fill
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %[[X]] : tensor<2x64xbf16> to tensor<2x64xf32>
// CHECK-NEXT:    %[[Y:.*]] = linalg.matmul ins(%[[XF]], %[[DQ]] : tensor<2x64xf32>, tensor<64x32xf32>) outs(%[[Z]] : tensor<2x32xf32>) -> tensor<2x32xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<2x32xf32>
// CHECK-NOT:     linalg.generic
// REPORT: q8-raise: linalg.generic %y: raised to linalg.matmul over q8.dequantize: 2x64x32; values 32x64 i8 (NxK), f32 scales 32x2
func.func @nk(%x: tensor<2x64xbf16>, %W: tensor<32x64xi8>, %W_scale: tensor<32x2xf32>) -> tensor<2x32xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %w = linalg.generic {indexing_maps = [#id2, #nblock, #id2], iterator_types = ["parallel", "parallel"]} ins(%W, %W_scale : tensor<32x64xi8>, tensor<32x2xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.mulf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<32x64xf32>
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<2x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x64xbf16>, tensor<32x64xf32>) outs(%z : tensor<2x32xf32>) {
  ^bb0(%a: bf16, %b: f32, %o: f32):
    %0 = arith.extf %a : bf16 to f32
    %1 = arith.mulf %0, %b : f32
    %2 = arith.addf %o, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<2x32xf32>
  func.return %y : tensor<2x32xf32>
}

// N x K dequantised to bf16 (MLIR's mixed form), then linalg.transpose and the mixed
// bf16 x bf16 -> f32 matmul: the q8.dequantize result stays bf16, the transpose of the
// weight is gone, and the decision says every weight rounds to bf16.
// CHECK-LABEL: func.func @nk_bf16_transpose(
// CHECK:         %[[DQ:.*]] = q8.dequantize %{{.*}}, %{{.*}} source "NxK" : tensor<64x32xi8>, tensor<2x32xbf16> -> tensor<64x32xbf16>
// CHECK-NOT:     linalg.transpose ins(%[[DQ]]
// CHECK:         linalg.matmul ins(%{{.*}}, %[[DQ]] : tensor<1x64xbf16>, tensor<64x32xbf16>) outs(%{{.*}} : tensor<1x32xf32>)
// REPORT: q8-raise: linalg.matmul %y: raised to linalg.matmul over q8.dequantize: 1x64x32; values 32x64 i8 (NxK), bf16 scales 32x2; dequantised to bf16: unlowered, every weight q*s is rounded to bf16 (relative error up to 2^-8); the fold multiplies the exact q*s, so the two differ by up to 2^-8 sum|x||w|
func.func @nk_bf16_transpose(%x: tensor<1x64xbf16>, %W: tensor<32x64xi8>, %W_scale: tensor<32x2xbf16>) -> tensor<1x32xf32> {
  %e = tensor.empty() : tensor<32x64xbf16>
  %w = linalg.generic {indexing_maps = [#id2, #nblock, #id2], iterator_types = ["parallel", "parallel"]} ins(%W, %W_scale : tensor<32x64xi8>, tensor<32x2xbf16>) outs(%e : tensor<32x64xbf16>) {
  ^bb0(%a: i8, %b: bf16, %o: bf16):
    %0 = arith.sitofp %a : i8 to bf16
    %1 = arith.mulf %0, %b : bf16
    linalg.yield %1 : bf16
  } -> tensor<32x64xbf16>
  %et = tensor.empty() : tensor<64x32xbf16>
  %wt = linalg.transpose ins(%w : tensor<32x64xbf16>) outs(%et : tensor<64x32xbf16>) permutation = [1, 0]
  %c0 = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<1x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y : tensor<1x32xf32>
}

// IREE's grouped matvec: an activation of G x 32 and N x G scales; the result, a
// vector of N, is the matmul's single row collapsed.
// CHECK-LABEL: func.func @grouped_vector(
// CHECK-SAME:      %[[W:.*]]: tensor<32x2x32xi8>, %[[X:.*]]: tensor<2x32xf32>, %[[S:.*]]: tensor<32x2xf16>)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[QC:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<32x2x32xi8> into tensor<32x64xi8>
// CHECK-NEXT:    tensor.empty() : tensor<64x32xi8>
// CHECK-NEXT:    %[[Q:.*]] = linalg.transpose ins(%[[QC]]:tensor<32x64xi8>)
// CHECK-NEXT:    tensor.empty() : tensor<2x32xf16>
// CHECK-NEXT:    %[[ST:.*]] = linalg.transpose ins(%[[S]]:tensor<32x2xf16>)
// CHECK-NEXT:    %[[DQ:.*]] = q8.dequantize %[[Q]], %[[ST]] source "NxGx32" : tensor<64x32xi8>, tensor<2x32xf16> -> tensor<64x32xf32>
// CHECK-NEXT:    %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0 : i64, 1 : i64]] : tensor<2x32xf32> into tensor<64xf32>
// CHECK-NEXT:    %[[XE:.*]] = tensor.expand_shape %[[XC]] {{\[}}[0 : i64, 1 : i64]] output_shape [1, 64] : tensor<64xf32> into tensor<1x64xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x32xf32>
// CHECK-NEXT:    %[[Z:.*]] = linalg.fill ins(%[[C0]] : f32) outs(%[[E]] : tensor<1x32xf32>)
// CHECK-NEXT:    %[[Y:.*]] = linalg.matmul ins(%[[XE]], %[[DQ]] : tensor<1x64xf32>, tensor<64x32xf32>) outs(%[[Z]] : tensor<1x32xf32>)
// CHECK-NEXT:    %[[R:.*]] = tensor.collapse_shape %[[Y]] {{\[}}[0 : i64, 1 : i64]] : tensor<1x32xf32> into tensor<32xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<32xf32>
// REPORT: q8-raise: linalg.generic #{{[0-9]+}}: raised to linalg.matmul over q8.dequantize: 1x64x32; values 32x2x32 i8 (NxGx32), f16 scales 32x2
func.func @grouped_vector(%arg0: tensor<32x2x32xi8>, %arg1: tensor<2x32xf32>, %arg2: tensor<32x2xf16>) -> tensor<32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<32xf32>
  %1 = tensor.empty() : tensor<32x2x32xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32xf32>) -> tensor<32xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg2 : tensor<32x2x32xi8>, tensor<32x2xf16>) outs(%1 : tensor<32x2x32xf32>) {
  ^bb0(%in: i8, %in_0: f16, %out: f32):
    %5 = arith.sitofp %in : i8 to f32
    %6 = arith.extf %in_0 : f16 to f32
    %7 = arith.mulf %5, %6 : f32
    linalg.yield %7 : f32
  } -> tensor<32x2x32xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%arg1, %3 : tensor<2x32xf32>, tensor<32x2x32xf32>) outs(%2 : tensor<32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.mulf %in, %in_0 : f32
    %6 = arith.addf %5, %out : f32
    linalg.yield %6 : f32
  } -> tensor<32xf32>
  func.return %4 : tensor<32xf32>
}

// The grouped form over m = 3 rows of a bf16 activation widened outside the
// contraction: the rows are collapsed in bf16, then widened (the view can hold bf16).
// CHECK-LABEL: func.func @grouped_rows(
// CHECK-SAME:      %[[X:.*]]: tensor<3x2x32xbf16>
// CHECK:         q8.dequantize {{.*}} source "NxGx32" : tensor<64x32xi8>, tensor<2x32xf32> -> tensor<64x32xf32>
// CHECK-NEXT:    %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<3x2x32xbf16> into tensor<3x64xbf16>
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %[[XC]] : tensor<3x64xbf16> to tensor<3x64xf32>
// CHECK:         linalg.matmul ins(%[[XF]], %{{.*}} : tensor<3x64xf32>, tensor<64x32xf32>)
// CHECK-NOT:     linalg.generic
func.func @grouped_rows(%x: tensor<3x2x32xbf16>, %arg0: tensor<32x2x32xi8>, %arg2: tensor<32x2x1xf32>) -> tensor<3x32xf32> {
  %xf = arith.extf %x : tensor<3x2x32xbf16> to tensor<3x2x32xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<3x32xf32>
  %1 = tensor.empty() : tensor<32x2x32xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3x32xf32>) -> tensor<3x32xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg2 : tensor<32x2x32xi8>, tensor<32x2x1xf32>) outs(%1 : tensor<32x2x32xf32>) {
  ^bb0(%in: i8, %in_0: f32, %out: f32):
    %5 = arith.sitofp %in : i8 to f32
    %6 = arith.mulf %in_0, %5 : f32
    linalg.yield %6 : f32
  } -> tensor<32x2x32xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(m, n, g, l) -> (m, g, l)>, affine_map<(m, n, g, l) -> (n, g, l)>, affine_map<(m, n, g, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%xf, %3 : tensor<3x2x32xf32>, tensor<32x2x32xf32>) outs(%2 : tensor<3x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.mulf %in, %in_0 : f32
    %6 = arith.addf %5, %out : f32
    linalg.yield %6 : f32
  } -> tensor<3x32xf32>
  func.return %4 : tensor<3x32xf32>
}

// One weight read by two products: one q8.dequantize, shared.
// CHECK-LABEL: func.func @shared(
// CHECK-COUNT-1: q8.dequantize
// CHECK-NOT:     q8.dequantize
// CHECK:         linalg.matmul
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.generic
func.func @shared(%x: tensor<1x64xf32>, %x2: tensor<2x64xf32>, %W: tensor<32x64xi8>, %W_scale: tensor<32x2xf32>) -> (tensor<1x32xf32>, tensor<2x32xf32>) {
  %e = tensor.empty() : tensor<32x64xf32>
  %w = linalg.generic {indexing_maps = [#id2, #nblock, #id2], iterator_types = ["parallel", "parallel"]} ins(%W, %W_scale : tensor<32x64xi8>, tensor<32x2xf32>) outs(%e : tensor<32x64xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.mulf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<32x64xf32>
  %et = tensor.empty() : tensor<64x32xf32>
  %wt = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%et : tensor<64x32xf32>) permutation = [1, 0]
  %c0 = arith.constant 0.000000e+00 : f32
  %e1 = tensor.empty() : tensor<1x32xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y1 = linalg.matmul ins(%x, %wt : tensor<1x64xf32>, tensor<64x32xf32>) outs(%z1 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %e2 = tensor.empty() : tensor<2x32xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %y2 = linalg.matmul ins(%x2, %wt : tensor<2x64xf32>, tensor<64x32xf32>) outs(%z2 : tensor<2x32xf32>) -> tensor<2x32xf32>
  func.return %y1, %y2 : tensor<1x32xf32>, tensor<2x32xf32>
}

// The N x K form after linalg's elementwise fusion: one generic that dequantises in
// its own body (`out + x * (sitofp(q) * s)`); the same canonical form comes out.
// CHECK-LABEL: func.func @fused(
// CHECK-SAME:      %[[X:.*]]: tensor<2x64xbf16>, %[[W:.*]]: tensor<32x64xi8>, %[[WS:.*]]: tensor<32x2xf16>)
// CHECK:         %[[Q:.*]] = linalg.transpose ins(%[[W]]:tensor<32x64xi8>)
// CHECK:         %[[S:.*]] = linalg.transpose ins(%[[WS]]:tensor<32x2xf16>)
// CHECK-NEXT:    %[[DQ:.*]] = q8.dequantize %[[Q]], %[[S]] source "NxK" : tensor<64x32xi8>, tensor<2x32xf16> -> tensor<64x32xf32>
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %[[X]] : tensor<2x64xbf16> to tensor<2x64xf32>
// CHECK-NEXT:    %[[Y:.*]] = linalg.matmul ins(%[[XF]], %[[DQ]] : tensor<2x64xf32>, tensor<64x32xf32>)
// CHECK-NEXT:    func.return %[[Y]]
// REPORT: q8-raise: linalg.generic %y: raised to linalg.matmul over q8.dequantize: 2x64x32; values 32x64 i8 (NxK), f16 scales 32x2, dequantised in the product's own body
func.func @fused(%x: tensor<2x64xbf16>, %W: tensor<32x64xi8>, %W_scale: tensor<32x2xf16>) -> tensor<2x32xf32> {
  %c0 = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<2x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<2x32xf32>) -> tensor<2x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, k floordiv 32)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %W, %W_scale : tensor<2x64xbf16>, tensor<32x64xi8>, tensor<32x2xf16>) outs(%z : tensor<2x32xf32>) {
  ^bb0(%a: bf16, %q: i8, %s: f16, %o: f32):
    %0 = arith.extf %a : bf16 to f32
    %1 = arith.sitofp %q : i8 to f32
    %2 = arith.extf %s : f16 to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.mulf %0, %3 : f32
    %5 = arith.addf %o, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<2x32xf32>
  func.return %y : tensor<2x32xf32>
}
