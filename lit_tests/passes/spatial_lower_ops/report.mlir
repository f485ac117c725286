// `report=true` prints one line per op the pass looked at to stderr: lowered, as which
// program and with what plan, or left as it was and why. Without it the pass prints
// nothing. An op it leaves stays in the IR, unchanged.
//
// RUN: xdsl-opt %s -p 'spatial-lower-ops{report=true}' 2>&1 >/dev/null | filecheck %s
// RUN: xdsl-opt %s -p spatial-lower-ops 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty
// RUN: xdsl-opt %s -p spatial-lower-ops | filecheck %s --check-prefix=IR

// QUIET-NOT: spatial-lower-ops

func.func @declines(%x: tensor<4x64xf32>, %acc: tensor<4xf32>, %k: tensor<2x64x1xf32>, %v: tensor<1x128xf32>, %kc: tensor<2x64x40xf32>, %vc: tensor<2x40x64xf32>, %pos: tensor<1xi32>) -> (tensor<4xf32>, tensor<2x32xf32>, tensor<2x64x40xf32>, tensor<2x40x64xf32>) {
  // A reduction into a tensor that is no constant fill (an update: acc + sum).
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %o, %a : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  // A map that is not linear (every other row): no address the chip computes.
  %e = tensor.empty() : tensor<2x32xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 2, d1 floordiv 2)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%e : tensor<2x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x32xf32>
  // KV cache writes at a run-time position: the keys (columns) are lowered; the
  // values of a 40-position cache are not, a head's positions not being whole tiles.
  %c0 = arith.constant 0 : index
  %p0 = tensor.extract %pos[%c0] : tensor<1xi32>
  %off = arith.index_cast %p0 : i32 to index
  %rows = tensor.expand_shape %v [[0], [1, 2]] output_shape [1, 2, 64] : tensor<1x128xf32> into tensor<1x2x64xf32>
  %e2 = tensor.empty() : tensor<2x1x64xf32>
  %heads = linalg.transpose ins(%rows : tensor<1x2x64xf32>) outs(%e2 : tensor<2x1x64xf32>) permutation = [1, 0, 2]
  %k2 = tensor.insert_slice %k into %kc[0, 0, %off] [2, 64, 1] [1, 1, 1] : tensor<2x64x1xf32> into tensor<2x64x40xf32>
  %v2 = tensor.insert_slice %heads into %vc[0, %off, 0] [2, 1, 64] [1, 1, 1] : tensor<2x1x64xf32> into tensor<2x40x64xf32>
  func.return %s, %h, %k2, %v2 : tensor<4xf32>, tensor<2x32xf32>, tensor<2x64x40xf32>, tensor<2x40x64xf32>
}

// CHECK:      spatial-lower-ops: linalg.generic %s: not lowered: a reduction's output must start as a linalg.fill of a constant
// CHECK-NEXT: spatial-lower-ops: linalg.generic %h: not lowered: an indexing map is not linear
// CHECK-NEXT: spatial-lower-ops: tensor.insert_slice %k2 2x64x1: lowered: cache_write_2x64x1
// CHECK-NEXT: spatial-lower-ops: tensor.insert_slice %v2 2x1x64: not lowered: the cache's 40 positions a head are not whole tiles of 32 rows
// The transpose the values' write reads is then a copy on the chip (the write could
// not read through it); the position's scalar only serves the write left on the host.
// CHECK-NEXT: spatial-lower-ops: linalg.transpose %heads 2x1x64: lowered: ew_transpose_2x1x64, items = 2
// CHECK-NEXT: spatial-lower-ops: tensor.extract %p0: not lowered: it only feeds ops left on the host (arith.index_cast)
// CHECK-NEXT: spatial-lower-ops: arith.index_cast %off: not lowered: it only feeds ops left on the host (tensor.insert_slice)

// What is not lowered stays.
// IR-LABEL: func.func @declines(
// IR:         %s = linalg.generic
// IR:         %h = linalg.generic
// IR:         %heads = spatial.view "ew_transpose_2x1x64"
// IR:         %k2 = spatial.map "cache_write_2x64x1"
// IR:         %v2 = tensor.insert_slice %{{.*}} into %vc
