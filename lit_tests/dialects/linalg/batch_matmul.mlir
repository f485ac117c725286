// RUN: spatial-opt %s | spatial-opt | filecheck %s
// RUN: spatial-opt %s --print-op-generic | spatial-opt | filecheck %s
// RUN: not xdsl-opt %s 2>&1 | filecheck %s --check-prefix=STOCK

// What torch-mlir prints that xDSL 0.75 does not read by itself, read by the project's
// context (dialects/linalg_extra.py; spatial-opt): linalg.batch_matmul, with MLIR's
// body (each narrower input widened to the accumulator), and a linalg.generic of
// several results, whose result types are in parentheses. Stock xdsl-opt, plugin
// installed or not, still refuses them.

// STOCK: Operation linalg.batch_matmul is not registered

// CHECK-LABEL: func.func @batch_matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<2x8x64xf32>, %[[B:.*]]: tensor<2x64x16xf32>, %[[C:.*]]: tensor<2x8x16xf32>)
// CHECK-NEXT:    %[[Y:.*]] = linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<2x8x64xf32>, tensor<2x64x16xf32>) outs(%[[C]] : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<2x8x16xf32>
func.func @batch_matmul(%a: tensor<2x8x64xf32>, %b: tensor<2x64x16xf32>, %c: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x8x64xf32>, tensor<2x64x16xf32>) outs(%c : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  func.return %y : tensor<2x8x16xf32>
}

// CHECK-LABEL: func.func @mixed
// CHECK-NEXT:    linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x4x64xbf16>, tensor<1x64x32xbf16>) outs(%{{.*}} : tensor<1x4x32xf32>) -> tensor<1x4x32xf32>
func.func @mixed(%a: tensor<1x4x64xbf16>, %b: tensor<1x64x32xbf16>, %c: tensor<1x4x32xf32>) -> tensor<1x4x32xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<1x4x64xbf16>, tensor<1x64x32xbf16>) outs(%c : tensor<1x4x32xf32>) -> tensor<1x4x32xf32>
  func.return %y : tensor<1x4x32xf32>
}

// torch.max(x, dim) with its index: two results.
// CHECK-LABEL: func.func @max_with_index
// CHECK:         %{{.*}}, %{{.*}} = linalg.generic
// CHECK:         } -> (tensor<2xf32>, tensor<2xi64>)
func.func @max_with_index(%x: tensor<2x16xf32>, %m: tensor<2xf32>, %i: tensor<2xi64>) -> (tensor<2xf32>, tensor<2xi64>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x16xf32>) outs(%m, %i : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%in: f32, %out: f32, %out_1: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ji, %out_1 : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)
  func.return %r#0, %r#1 : tensor<2xf32>, tensor<2xi64>
}
