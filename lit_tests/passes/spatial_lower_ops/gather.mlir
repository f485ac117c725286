// RUN: xdsl-opt %s -p spatial-lower-ops | filecheck %s

// The embedding of one decode step: the token's column of the Q8_0 embedding (576 x
// 1024 int8 values, 18 x 1024 f16 scales), dequantised.

func.func @gather(%tokens: tensor<1xi32>, %w: tensor<576x1024xi8>, %s: tensor<18x1024xf16>) -> tensor<1x576xf32> {
  %e = tensor.empty() : tensor<1x576xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%tokens : tensor<1xi32>) outs(%e : tensor<1x576xf32>) {
  ^bb0(%t: i32, %o: f32):
    %col = arith.index_cast %t : i32 to index
    %kk = linalg.index 1 : index
    %c32 = arith.constant 32 : index
    %b = arith.divui %kk, %c32 : index
    %q = tensor.extract %w[%kk, %col] : tensor<576x1024xi8>
    %sc = tensor.extract %s[%b, %col] : tensor<18x1024xf16>
    %qf = arith.sitofp %q : i8 to f32
    %sf = arith.extf %sc : f16 to f32
    %v = arith.mulf %qf, %sf : f32
    linalg.yield %v : f32
  } -> tensor<1x576xf32>
  func.return %y : tensor<1x576xf32>
}

// The token's tile column and its lane (t div 32, t mod 32 in a tile of its own) are
// computed on the chip from %tokens; the gather loads the token's column of tiles of
// both tensors through the tile table and reads its lane through the lane's page (s0).
// CHECK-LABEL: func.func @gather(
// CHECK:         %[[TILES:.*]] = spatial.map "embd_index_tiles_1" grid [1]
// CHECK:             arith.divui
// CHECK:         %[[LANES:.*]] = spatial.map "embd_index_lanes_1x32" grid [1]
// CHECK:             arith.remui
// CHECK:         %y = spatial.map "embd_gather_1x576" grid [1] owns (d0) -> (0, 0) size [1, 18]
// CHECK:           numerics exact
// CHECK-NEXT:      ins(%w, %s, %[[TILES]], %[[LANES]] : tensor<576x1024xi8>, tensor<18x1024xf16>, tensor<1x1xi32>, tensor<1x32xi32>) -> tensor<1x576xf32> {
// CHECK:           %[[T:.*]] = spatial.tensor "token_tiles" external
// CHECK:           %[[Q:.*]] = spatial.load %{{.*}}[%[[T]][0]] block 18x1 stride 32 repeat 1 into
// CHECK-NEXT:      %[[S:.*]] = spatial.load %{{.*}}[%[[T]][0]] block 1x1 stride 32 repeat 1 into
// CHECK-NEXT:      %[[L:.*]] = spatial.load %{{.*}}[0] block 1x1 stride 1 repeat 1 into
// CHECK-NEXT:      spatial.stage "gather" iters(par 18, par 32)
// CHECK-NEXT:        ins(%[[Q]][d1 * 576 + d0 * 32 + s0 | s0 = in2], %[[S]][d0 * 32 + s0 | s0 = in2], %[[L]][0]) into %{{.*}}[d0 * 32 + d1]
// CHECK:             arith.sitofp
// CHECK:             arith.extf
// CHECK-NOT:         tensor.extract
// CHECK:         func.return %y : tensor<1x576xf32>
