// convert-q8-to-linalg: q8.dequantize and q8.quantize as linalg.generics; exact
// quantisation (a run-time refusal no generic can make) is left as it is.
// RUN: xdsl-opt %s -p convert-q8-to-linalg | filecheck %s

// CHECK-LABEL: func.func @dequantize(
// CHECK-SAME:      %[[Q:.*]]: tensor<64x128xi8>, %[[S:.*]]: tensor<2x128xf16>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<64x128xbf16>
// CHECK-NEXT:    %[[W:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ((d0 floordiv 32), d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[Q]], %[[S]] : tensor<64x128xi8>, tensor<2x128xf16>) outs(%[[E]] : tensor<64x128xbf16>) {
// CHECK-NEXT:    ^bb0(%[[V:.*]]: i8, %[[D:.*]]: f16, %{{.*}}: bf16):
// CHECK-NEXT:      %[[VF:.*]] = arith.sitofp %[[V]] : i8 to f32
// CHECK-NEXT:      %[[DF:.*]] = arith.extf %[[D]] : f16 to f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[VF]], %[[DF]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[P]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[R]] : bf16
// CHECK-NEXT:    } -> tensor<64x128xbf16>
// CHECK-NEXT:    func.return %[[W]] : tensor<64x128xbf16>
// CHECK-NOT:     q8.dequantize
func.func @dequantize(%q: tensor<64x128xi8>, %s: tensor<2x128xf16>) -> tensor<64x128xbf16> {
  %w = q8.dequantize %q, %s : tensor<64x128xi8>, tensor<2x128xf16> -> tensor<64x128xbf16>
  func.return %w : tensor<64x128xbf16>
}

// GGML's rule: the blocks' amax (a reduction over the 32 rows), d = amax / 127 and
// id = 1 / d (0 for d = 0), then round(w * id) halves away from zero.
// CHECK-LABEL: func.func @quantize(
// CHECK-SAME:      %[[WIN:.*]]: tensor<64x96xf32>)
// CHECK-NEXT:    %[[B:.*]] = tensor.expand_shape %[[WIN]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [2, 32, 96] : tensor<64x96xf32> into tensor<2x32x96xf32>
// CHECK:         %[[AMAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[B]] : tensor<2x32x96xf32>)
// CHECK:           math.absf
// CHECK-NEXT:      arith.maximumf
// CHECK:         %[[SC:.*]], %[[INV:.*]] = linalg.generic {{.*}} ins(%[[AMAX]] : tensor<2x96xf32>)
// CHECK:           arith.divf
// CHECK:           arith.cmpf oeq
// CHECK:           arith.select
// CHECK:         %[[QV:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[INV]] : tensor<2x32x96xf32>, tensor<2x96xf32>)
// CHECK:           arith.mulf
// CHECK-NEXT:      math.round
// CHECK-NEXT:      arith.fptosi
// CHECK:         %[[VALS:.*]] = tensor.collapse_shape %[[QV]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<2x32x96xi8> into tensor<64x96xi8>
// CHECK-NEXT:    func.return %[[VALS]], %[[SC]] : tensor<64x96xi8>, tensor<2x96xf32>
func.func @quantize(%w: tensor<64x96xf32>) -> (tensor<64x96xi8>, tensor<2x96xf32>) {
  %q, %s = q8.quantize %w : tensor<64x96xf32> -> tensor<64x96xi8>, tensor<2x96xf32>
  func.return %q, %s : tensor<64x96xi8>, tensor<2x96xf32>
}

// CHECK-LABEL: func.func @exact(
// CHECK-NEXT:    %{{.*}}, %{{.*}} = q8.quantize %{{.*}} exact
func.func @exact(%w: tensor<64x96xf32>) -> (tensor<64x96xi8>, tensor<2x96xf32>) {
  %q, %s = q8.quantize %w exact : tensor<64x96xf32> -> tensor<64x96xi8>, tensor<2x96xf32>
  func.return %q, %s : tensor<64x96xi8>, tensor<2x96xf32>
}
