// torch-mlir export (a scale per element, not a per-block broadcast); written by examples/torch/export.py
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<1x2048xf32>, %arg1: tensor<1024x2048xi8>, %arg2: tensor<1024x2048xf16>) -> tensor<1x1024xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1024x2048xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<1024x2048xi8>) outs(%0 : tensor<1024x2048xf32>) {
    ^bb0(%in: i8, %out: f32):
      %8 = arith.sitofp %in : i8 to f32
      linalg.yield %8 : f32
    } -> tensor<1024x2048xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<1024x2048xf16>) outs(%0 : tensor<1024x2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %8 = arith.extf %in : f16 to f32
      linalg.yield %8 : f32
    } -> tensor<1024x2048xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %2 : tensor<1024x2048xf32>, tensor<1024x2048xf32>) outs(%0 : tensor<1024x2048xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %8 = arith.mulf %in, %in_0 : f32
      linalg.yield %8 : f32
    } -> tensor<1024x2048xf32>
    %4 = tensor.empty() : tensor<2048x1024xf32>
    %transposed = linalg.transpose ins(%3 : tensor<1024x2048xf32>) outs(%4 : tensor<2048x1024xf32>) permutation = [1, 0] 
    %5 = tensor.empty() : tensor<1x1024xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %7 = linalg.matmul ins(%arg0, %transposed : tensor<1x2048xf32>, tensor<2048x1024xf32>) outs(%6 : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    return %7 : tensor<1x1024xf32>
  }
}
