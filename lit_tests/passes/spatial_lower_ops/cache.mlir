// RUN: xdsl-opt %s -p spatial-lower-ops | filecheck %s

// One layer's KV cache writes of a decode step at the run-time position %pos (a 256
// position cache of 3 KV heads of 64): the keys into the cache's columns (cached
// transposed), the values into its rows (heads first, through a transpose).

func.func @cache(%k: tensor<3x64x1xf32>, %v: tensor<1x192xf32>, %kc: tensor<3x64x256xf32>, %vc: tensor<3x256x64xf32>, %pos: tensor<1xi32>) -> (tensor<3x64x256xf32>, tensor<3x256x64xf32>) {
  %c0 = arith.constant 0 : index
  %p0 = tensor.extract %pos[%c0] : tensor<1xi32>
  %off = arith.index_cast %p0 : i32 to index
  %rows = tensor.expand_shape %v [[0], [1, 2]] output_shape [1, 3, 64] : tensor<1x192xf32> into tensor<1x3x64xf32>
  %e = tensor.empty() : tensor<3x1x64xf32>
  %heads = linalg.transpose ins(%rows : tensor<1x3x64xf32>) outs(%e : tensor<3x1x64xf32>) permutation = [1, 0, 2]
  %k2 = tensor.insert_slice %k into %kc[0, 0, %off] [3, 64, 1] [1, 1, 1] : tensor<3x64x1xf32> into tensor<3x64x256xf32>
  %v2 = tensor.insert_slice %heads into %vc[0, %off, 0] [3, 1, 64] [1, 1, 1] : tensor<3x1x64xf32> into tensor<3x256x64xf32>
  func.return %k2, %v2 : tensor<3x64x256xf32>, tensor<3x256x64xf32>
}

// Where the write lands is computed from %pos on the chip, once for every write at
// that position: the first tile of the window along the position's dim (an offset
// past the cache gives 48, one past the cache's tiles, which the load refuses), and
// the lane, the offset's place in that tile.
// CHECK-LABEL: func.func @cache(
// CHECK:         %[[POS:.*]] = tensor.expand_shape %pos {{\[\[}}0 : i64, 1 : i64]] output_shape [1, 1] : tensor<1xi32> into tensor<1x1xi32>
// CHECK-NEXT:    %[[AT:.*]] = spatial.map "cache_index_at_1x1" grid [1]
// CHECK:             arith.cmpi sge
// CHECK:             arith.cmpi sle, %{{.*}}, %{{.*}} : index
// CHECK:             %[[T0:.*]] = arith.divui
// CHECK:             arith.minsi %[[T0]]
// CHECK:             %[[BAD:.*]] = arith.constant 48 : index
// CHECK-NEXT:        arith.select %{{.*}}, %{{.*}}, %[[BAD]] : index
// CHECK:         %[[LANE:.*]] = spatial.map "cache_index_lane_1x1" grid [1]
// The keys' write: the cache a state (it stays in DRAM; only the window moves), an
// item per head (its 64 rows, 2 tile rows of the 192), the window one tile column at
// the table's tile, read, merged with the new column at the lane, and written back.
// CHECK:         %[[K2:.*]] = spatial.map "cache_write_3x64x1" grid [3] owns (d0) -> (d0 * 2, 0) size [2, 8]
// CHECK:           numerics exact
// CHECK-NEXT:      ins(%{{.*}}, %{{.*}}, %[[AT]], %[[LANE]] : tensor<192x256xf32>, tensor<192x1xf32>, tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<192x256xf32> {
// CHECK:           %[[C:.*]] = spatial.tensor "kc" external(%{{.*}} : tensor<192x256xf32>) : !spatial.tensor<192x256xf32, state>
// CHECK:           %[[AT2:.*]] = spatial.tensor "at" external
// CHECK:           %[[OLD:.*]] = spatial.load %[[C]][%[[I:.*]] * 16 + %[[AT2]][0]] block 2x1 stride 8 repeat 1 into
// CHECK:           spatial.stage "write" iters(par 2, par 32, par 32)
// CHECK:             %[[X:.*]] = spatial.index 2 : index
// CHECK:             arith.subi %[[X]], %{{.*}} : index
// CHECK:             arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           spatial.store %{{.*}} to %[[C]][%[[I]] * 16 + %[[AT2]][0]] block 2x1 stride 8 repeat 1
// CHECK-NEXT:      spatial.return %[[C]] : !spatial.tensor<192x256xf32, state>
// CHECK:         %[[K3:.*]] = tensor.expand_shape %[[K2]] {{.*}} : tensor<192x256xf32> into tensor<3x64x256xf32>
// The values' write: the window is a tile row of each head's 256 positions (the
// table holds the tile times the cache's 2 tiles a row); an item per head, which owns
// its head's 8 tile rows, the new row read from %v itself (the transpose is only a
// rename).
// CHECK:         %[[AT3:.*]] = spatial.map "cache_index_at_1x1" grid [1]
// CHECK:         %[[V2:.*]] = spatial.map "cache_write_3x1x64" grid [3] owns (d0) -> (d0 * 8, 0) size [8, 2]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%{{.*}}, %v, %[[AT3]], %[[LANE]] : tensor<768x64xf32>, tensor<1x192xf32>, tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<768x64xf32> {
// CHECK:           spatial.load %{{.*}}[%[[J:.*]] * 16 + %{{.*}}[0]] block 1x2 stride 2 repeat 1 into
// CHECK-NEXT:      spatial.load %{{.*}}[%[[J]] * 2] block 1x2 stride 6 repeat 1 into
// CHECK:         func.return %[[K3]], %{{.*}} : tensor<3x64x256xf32>, tensor<3x256x64xf32>
// CHECK-NOT:     tensor.insert_slice
