// torch-mlir export (repeat_interleave of f32 scales); written by examples/torch/export.py
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @main(%arg0: tensor<2x128xf32>, %arg1: tensor<64x128xi8>, %arg2: tensor<64x4xf32>) -> tensor<2x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<64x128xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<64x128xi8>) outs(%0 : tensor<64x128xf32>) {
    ^bb0(%in: i8, %out: f32):
      %9 = arith.sitofp %in : i8 to f32
      linalg.yield %9 : f32
    } -> tensor<64x128xf32>
    %2 = tensor.empty() : tensor<64x4x32xf32>
    %3 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg2 : tensor<64x4xf32>) outs(%2 : tensor<64x4x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x4x32xf32>
    %collapsed = tensor.collapse_shape %3 [[0], [1, 2]] : tensor<64x4x32xf32> into tensor<64x128xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %collapsed : tensor<64x128xf32>, tensor<64x128xf32>) outs(%0 : tensor<64x128xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %9 = arith.mulf %in, %in_0 : f32
      linalg.yield %9 : f32
    } -> tensor<64x128xf32>
    %5 = tensor.empty() : tensor<128x64xf32>
    %transposed = linalg.transpose ins(%4 : tensor<64x128xf32>) outs(%5 : tensor<128x64xf32>) permutation = [1, 0] 
    %6 = tensor.empty() : tensor<2x64xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<2x64xf32>) -> tensor<2x64xf32>
    %8 = linalg.matmul ins(%arg0, %transposed : tensor<2x128xf32>, tensor<128x64xf32>) outs(%7 : tensor<2x64xf32>) -> tensor<2x64xf32>
    return %8 : tensor<2x64xf32>
  }
}
