// RUN: xdsl-opt %s -p spatial-lower-ops | filecheck %s

// KV cache writes into one sequence's row of batched caches: the caches hold a row a
// sequence (2 sequences, 3 KV heads of 64, 256 positions), and sequence 1 writes its
// key and value into its row at its own position %pos[1], each read through a static
// slice of the step's keys (column 1 of the 2 rows' keys) and values (row 1, heads
// first). (The model's batched step writes every row with one map a cache instead,
// which lowers to one write of every row's window: cache_rows.mlir.)

func.func @batched(%k: tensor<3x64x2xf32>, %v: tensor<2x192xf32>, %kc: tensor<2x3x64x256xf32>, %vc: tensor<2x3x256x64xf32>, %pos: tensor<2xi32>) -> (tensor<2x3x64x256xf32>, tensor<2x3x256x64xf32>) {
  %c1 = arith.constant 1 : index
  %p1 = tensor.extract %pos[%c1] : tensor<2xi32>
  %off = arith.index_cast %p1 : i32 to index
  %ks = tensor.extract_slice %k[0, 0, 1] [3, 64, 1] [1, 1, 1] : tensor<3x64x2xf32> to tensor<3x64x1xf32>
  %rows = tensor.expand_shape %v [[0], [1, 2]] output_shape [2, 3, 64] : tensor<2x192xf32> into tensor<2x3x64xf32>
  %e = tensor.empty() : tensor<3x2x64xf32>
  %heads = linalg.transpose ins(%rows : tensor<2x3x64xf32>) outs(%e : tensor<3x2x64xf32>) permutation = [1, 0, 2]
  %vs = tensor.extract_slice %heads[0, 1, 0] [3, 1, 64] [1, 1, 1] : tensor<3x2x64xf32> to tensor<3x1x64xf32>
  %k1 = tensor.expand_shape %ks [[0, 1], [2], [3]] output_shape [1, 3, 64, 1] : tensor<3x64x1xf32> into tensor<1x3x64x1xf32>
  %v1 = tensor.expand_shape %vs [[0, 1], [2], [3]] output_shape [1, 3, 1, 64] : tensor<3x1x64xf32> into tensor<1x3x1x64xf32>
  %k2 = tensor.insert_slice %k1 into %kc[1, 0, 0, %off] [1, 3, 64, 1] [1, 1, 1, 1] : tensor<1x3x64x1xf32> into tensor<2x3x64x256xf32>
  %v2 = tensor.insert_slice %v1 into %vc[1, 0, %off, 0] [1, 3, 1, 64] [1, 1, 1, 1] : tensor<1x3x1x64xf32> into tensor<2x3x256x64xf32>
  func.return %k2, %v2 : tensor<2x3x64x256xf32>, tensor<2x3x256x64xf32>
}

// The position is element 1 of %pos. The keys' write: an item per head of row 1, its
// 2 tile rows of the 384 (row 1's heads start at tile row 6), the new column read from
// column 1 of %k's 192 x 2 rows.
// CHECK-LABEL: func.func @batched(
// CHECK:         %[[AT:.*]] = spatial.map "cache_index_at_1x1" grid [1]
// CHECK:           ins(%{{.*}}[1]) into
// CHECK:         %[[LANE:.*]] = spatial.map "cache_index_lane_1x1" grid [1]
// CHECK:         %[[K2:.*]] = spatial.map "cache_write_1x3x64x1" grid [3] owns (d0) -> (d0 * 2 + 6, 0) size [2, 8]
// CHECK:           ins(%{{.*}}, %{{.*}}, %[[AT]], %[[LANE]] : tensor<384x256xf32>, tensor<192x2xf32>, tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<384x256xf32> {
// CHECK:           spatial.load %{{.*}}[%[[I:.*]] * 16 + 48 + %{{.*}}[0]] block 2x1 stride 8 repeat 1 into
// CHECK:           spatial.store %{{.*}}[%[[I]] * 16 + 48 + %{{.*}}[0]] block 2x1 stride 8 repeat 1
// The values' write: row 1's heads own tile rows 24 to 47 of the 1536 rows, 8 a head
// (tile 48 at 2 tiles a row); the new values are row 1 of %v itself.
// CHECK:         spatial.map "cache_write_1x3x1x64" grid [3] owns (d0) -> (d0 * 8 + 24, 0) size [8, 2]
// CHECK:           ins(%{{.*}}, %v, %{{.*}}, %[[LANE]] : tensor<1536x64xf32>, tensor<2x192xf32>, tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1536x64xf32> {
// CHECK:           spatial.load %{{.*}}[%[[J:.*]] * 16 + 48 + %{{.*}}[0]] block 1x2 stride 2 repeat 1 into
// CHECK-NEXT:      spatial.load %{{.*}}[%[[J]] * 2] block 1x2 stride 6 repeat 1 into
// CHECK-NOT:     tensor.insert_slice
// CHECK-NOT:     tensor.extract_slice
