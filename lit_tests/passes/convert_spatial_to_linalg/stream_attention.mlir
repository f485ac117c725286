// convert-spatial-to-linalg of attention's scores marked `kernel = "stream"` (by
// spatial-native-kernels{kind=loop}): a sum of several rows (2 KV heads x 2 query
// heads) that reads its pages' elements as they are, not widened. Each cached key is
// read once a query head, so a copy into the page would move every key once more:
// the keys' page (and the queries') are read where the tensors lie, through views of
// them at the item's tiles (`pages.InPlace`), and only the result's page is copied
// out. Unmarked, both pages are copied first. The queries' page, the same for every
// item, is taken once, before the items' loop. The same sums in the same order
// (tests/test_kernels.py, test_attention_reads_its_cache_in_place).
// RUN: xdsl-opt -p 'spatial-lower-ops,spatial-native-kernels{kind=loop},convert-spatial-to-linalg' %s | filecheck %s
// RUN: xdsl-opt -p 'spatial-lower-ops,convert-spatial-to-linalg' %s | filecheck %s --check-prefix=PLAIN

func.func @scores(%q: tensor<2x2x1x64xf32>, %kc: tensor<2x64x64xf32>) -> tensor<2x2x1x64xf32> {
  %c0 = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<2x2x1x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<2x2x1x64xf32>) -> tensor<2x2x1x64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %kc : tensor<2x2x1x64xf32>, tensor<2x64x64xf32>) outs(%z : tensor<2x2x1x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %u = arith.addf %acc, %t : f32
    linalg.yield %u : f32
  } -> tensor<2x2x1x64xf32>
  func.return %s : tensor<2x2x1x64xf32>
}

// CHECK-LABEL: func.func @scores(
// CHECK:       %[[Q:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<4x64xf32> to memref<4x64xf32>
// CHECK-NEXT:  %[[K:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<128x64xf32> to memref<128x64xf32>
// CHECK-NOT:   linalg.copy
// CHECK:       memref.reinterpret_cast %[[Q]] to offset: [%{{.*}}], sizes: [1], strides: [1]
// CHECK-NOT:   linalg.copy
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:     linalg.copy
// CHECK:         memref.reinterpret_cast %[[K]] to offset: [%{{.*}}], sizes: [1], strides: [1]
// CHECK-NOT:     linalg.copy
// CHECK:         memref.reinterpret_cast %[[K]] to offset: [%{{.*}}], sizes: [2, 32, 32], strides: [2048, 64, 1]
// CHECK-NOT:     linalg.copy
// CHECK:         linalg.generic
// CHECK:         linalg.copy ins(%{{.*}} : memref<1x4x32xf32, strided<[32, 32, 1], offset: ?>>) outs(%{{.*}} : memref<1x4x32xf32, strided<[2048, 64, 1], offset: ?>>)
// CHECK-NOT:     linalg.copy

// PLAIN-LABEL: func.func @scores(
// PLAIN:       linalg.copy ins(%{{.*}} : memref<1x4x64xf32, strided<[2048, 64, 1], offset: ?>>)
// PLAIN:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// PLAIN:         linalg.copy ins(%{{.*}} : memref<32x4x32xf32, strided<[64, 2048, 1], offset: ?>>)
// PLAIN:         linalg.generic
// PLAIN:         linalg.copy ins(%{{.*}} : memref<1x4x32xf32, strided<[32, 32, 1], offset: ?>>)
