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

// Each cache's write is a cache write of every row (`cache.match_row_write`), not a
// map over the whole cache: an item a sequence and head (r, b), its window loaded
// through entry r of the `at` table (a row's window first tile), merged and stored
// back; the lane and r itself (the row's place in the new values' page: a column of
// %k's 192 x 2, a row of %v's 2 x 192) read from tile r of the lane table.
// CHECK-LABEL: func.func @rows(
// CHECK:         %[[AT:.*]] = spatial.map "cache_index_at_1x2" grid [1]
// CHECK:         %[[LANE:.*]] = spatial.map "cache_index_lane_2x32" grid [1]
// CHECK:           ins(%{{.*}} : tensor<1x2xi32>) -> tensor<1x64xi32>
// CHECK:         spatial.map "cache_write_3x64x2" grid [2, 3] owns (d0, d1) -> (d0 * 6 + d1 * 2, 0) size [2, 2]
// CHECK:           ins(%{{.*}}, %{{.*}}, %[[AT]], %[[LANE]] : tensor<384x64xf32>, tensor<192x2xf32>, tensor<1x2xi32>, tensor<1x64xi32>) -> tensor<384x64xf32> {
// CHECK:           %[[W:.*]] = spatial.load %{{.*}}[%[[R:.*]] * 12 + %[[B:.*]] * 4 + %{{.*}}[%[[R]]]] block 2x1 stride 2 repeat 1 into
// CHECK:           spatial.load %{{.*}}[%[[B]] * 2] block 2x1 stride 1 repeat 1 into
// CHECK:           %[[L:.*]] = spatial.load %{{.*}}[%[[R]]] block 1x1 stride 2 repeat 1 into
// CHECK:           spatial.stage "write"
// CHECK-NEXT:        ins(%[[W]][d1 * 64 + d0 * 32 + d2], %{{.*}}[d1 * 64 + d0 * 32 + s0 | s0 = in3], %[[L]][0], %[[L]][1])
// CHECK:           spatial.store %{{.*}} to %{{.*}}[%[[R]] * 12 + %[[B]] * 4 + %{{.*}}[%[[R]]]] block 2x1 stride 2 repeat 1
// The values' window a tile row of the head's positions; its own `at` table (a
// window's first tile counted in tiles of the cache's rows), the lane table shared.
// CHECK:         %[[AT2:.*]] = spatial.map "cache_index_at_1x2" grid [1]
// CHECK:         spatial.map "cache_write_3x2x64" grid [2, 3] owns (d0, d1) -> (d0 * 6 + d1 * 2, 0) size [2, 2]
// CHECK:           ins(%{{.*}}, %v, %[[AT2]], %[[LANE]] : tensor<384x64xf32>, tensor<2x192xf32>, tensor<1x2xi32>, tensor<1x64xi32>) -> tensor<384x64xf32> {
// CHECK:           spatial.load %{{.*}}[%[[R2:.*]] * 12 + %[[B2:.*]] * 4 + %{{.*}}[%[[R2]]]] block 1x2 stride 2 repeat 1 into
// CHECK:           spatial.load %{{.*}}[%[[B2]] * 2] block 1x2 stride 6 repeat 1 into
// CHECK:           spatial.stage "write"
// CHECK-NEXT:        %{{.*}}[s0 * 64 + d1 | s0 = in3]
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.transpose
