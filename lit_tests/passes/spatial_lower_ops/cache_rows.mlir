// RUN: xdsl-opt %s -p spatial-lower-ops | filecheck %s

// A batched decode step's KV cache writes as `@decode_batch` builds them: one map a
// cache for all the sequences, row r of the new cache the old one with row r's key or
// value at its own position %pos[r] (2 sequences, 3 KV heads of 64, 64 positions).

#k_new = affine_map<(r, b, d, j) -> (b, d, r)>
#v_new = affine_map<(r, b, j, d) -> (b, r, d)>
#row = affine_map<(r, b, i, j) -> (r)>
#id = affine_map<(r, b, i, j) -> (r, b, i, j)>

func.func @rows(%k: tensor<3x64x2xf32>, %v: tensor<2x192xf32>, %kc: tensor<2x3x64x64xf32>, %vc: tensor<2x3x64x64xf32>, %pos: tensor<2xi32>) -> (tensor<2x3x64x64xf32>, tensor<2x3x64x64xf32>) {
  %e = tensor.empty() : tensor<2x3x64x64xf32>
  %k2 = linalg.generic {indexing_maps = [#k_new, #row, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k, %pos, %kc : tensor<3x64x2xf32>, tensor<2xi32>, tensor<2x3x64x64xf32>) outs(%e : tensor<2x3x64x64xf32>) {
  ^bb0(%new: f32, %p: i32, %old: f32, %acc: f32):
    %at = arith.index_cast %p : i32 to index
    %j = linalg.index 3 : index
    %here = arith.cmpi eq, %j, %at : index
    %w = arith.select %here, %new, %old : f32
    linalg.yield %w : f32
  } -> tensor<2x3x64x64xf32>
  %rows = tensor.expand_shape %v [[0], [1, 2]] output_shape [2, 3, 64] : tensor<2x192xf32> into tensor<2x3x64xf32>
  %e2 = tensor.empty() : tensor<3x2x64xf32>
  %heads = linalg.transpose ins(%rows : tensor<2x3x64xf32>) outs(%e2 : tensor<3x2x64xf32>) permutation = [1, 0, 2]
  %v2 = linalg.generic {indexing_maps = [#v_new, #row, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heads, %pos, %vc : tensor<3x2x64xf32>, tensor<2xi32>, tensor<2x3x64x64xf32>) outs(%e : tensor<2x3x64x64xf32>) {
  ^bb0(%new: f32, %p: i32, %old: f32, %acc: f32):
    %at = arith.index_cast %p : i32 to index
    %j = linalg.index 2 : index
    %here = arith.cmpi eq, %j, %at : index
    %w = arith.select %here, %new, %old : f32
    linalg.yield %w : f32
  } -> tensor<2x3x64x64xf32>
  func.return %k2, %v2 : tensor<2x3x64x64xf32>, tensor<2x3x64x64xf32>
}

// The keys: one item whose 12 x 2 tiles are the whole cache (the sequences' rows of
// the new keys a column each of %k's 192 x 2 rows, so the sequences are a stage axis).
// CHECK-LABEL: func.func @rows(
// CHECK:         %[[K2:.*]] = spatial.map "ew_map_2x3x64x64" grid [1] owns (d0) -> (0, 0) size [12, 2]
// CHECK:           ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<192x2xf32>, tensor<1x2xi32>, tensor<384x64xf32>) -> tensor<384x64xf32> {
// CHECK:           spatial.stage "map" iters(par 2, par 3, par 2, par 32, par 64)
// CHECK:           spatial.store %{{.*}} to %{{.*}}[0] block 12x2 stride 2 repeat 1
// The values: a row of %v (read through the transpose to the heads) a sequence, one
// row apart, so the sequences are a stage axis, and the heads, whose rows of the
// result lie inside each sequence's, are one too: an item a column tile of every row.
// CHECK:         %[[V2:.*]] = spatial.map "ew_map_2x3x64x64" grid [2] owns (d0) -> (0, d0) size [12, 1]
// CHECK:           ins(%v, %{{.*}}, %{{.*}} : tensor<2x192xf32>, tensor<1x2xi32>, tensor<384x64xf32>) -> tensor<384x64xf32> {
// CHECK:           spatial.load %{{.*}}[%[[I:.*]]] block 12x1 stride 2 repeat 1 into
// CHECK:           spatial.store %{{.*}} to %{{.*}}[%[[I]]] block 12x1 stride 2 repeat 1
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.transpose
