// RUN: xdsl-opt %s -p spatial-lower-ops | filecheck %s

// RoPE of one decode step's keys (3 KV heads of 64: SmolLM2's), read as pairs through
// an expand and written heads first for the transposed cache (collapsed back). The
// expand is only a rename: the program reads %x itself.

func.func @rope(%x: tensor<1x192xf32>, %cos: tensor<1x32xf32>, %sin: tensor<1x32xf32>) -> tensor<3x64x1xf32> {
  %pairs = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [1, 3, 32, 2] : tensor<1x192xf32> into tensor<1x3x32x2xf32>
  %e = tensor.empty() : tensor<3x32x2x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 1)>, affine_map<(d0, d1, d2, d3) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d3, d0)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pairs, %pairs, %cos, %sin : tensor<1x3x32x2xf32>, tensor<1x3x32x2xf32>, tensor<1x32xf32>, tensor<1x32xf32>) outs(%e : tensor<3x32x2x1xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %s: f32, %o: f32):
    %ac = arith.mulf %a, %c : f32
    %bs = arith.mulf %b, %s : f32
    %re = arith.subf %ac, %bs : f32
    %as = arith.mulf %a, %s : f32
    %bc = arith.mulf %b, %c : f32
    %im = arith.addf %as, %bc : f32
    %j = linalg.index 3 : index
    %z = arith.constant 0 : index
    %first = arith.cmpi eq, %j, %z : index
    %v = arith.select %first, %re, %im : f32
    linalg.yield %v : f32
  } -> tensor<3x32x2x1xf32>
  %t = tensor.collapse_shape %r [[0], [1, 2], [3]] : tensor<3x32x2x1xf32> into tensor<3x64x1xf32>
  func.return %t : tensor<3x64x1xf32>
}

// CHECK-LABEL: func.func @rope(
// CHECK-NEXT:    %[[R:.*]] = spatial.map "ew_map_1x3x32x2" grid [1] owns (d0) -> (0, 0) size [1, 2]
// CHECK:           numerics exact
// CHECK-NEXT:      ins(%x, %cos, %sin : tensor<1x192xf32>, tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<3x64xf32> {
// The pair's two elements are two reads of one page of %x, 2 d1 and 2 d1 + 1 of head d0;
// the result is written as 3 rows (heads) of 64, the layout its reader collapses to.
// CHECK:           %[[P:.*]] = spatial.load %{{.*}}[0] block 1x6 stride 6 repeat 1 into
// CHECK:           spatial.stage "map" iters(par 3, par 32, par 2)
// CHECK-NEXT:        ins(%[[P]][d0 * 64 + d1 * 2], %[[P]][d0 * 64 + d1 * 2 + 1], %{{.*}}[d1], %{{.*}}[d1]) into %{{.*}}[d0 * 64 + d1 * 2 + d2]
// CHECK:             %[[J:.*]] = spatial.index 2 : index
// CHECK:             arith.cmpi eq, %[[J]], %{{.*}} : index
// CHECK:         %[[B:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [3, 32, 2, 1] : tensor<3x64xf32> into tensor<3x32x2x1xf32>
// CHECK-NEXT:    %[[T:.*]] = tensor.collapse_shape %[[B]]
// CHECK-NEXT:    func.return %[[T]] : tensor<3x64x1xf32>
