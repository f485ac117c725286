// torch-mlir export (F.linear with a bias); written by examples/torch/export.py
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<2x128xf32>, %arg1: tensor<64x128xi8>, %arg2: tensor<64x4xf16>, %arg3: tensor<64xf32>) -> tensor<2x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<64x128xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<64x128xi8>) outs(%0 : tensor<64x128xf32>) {
    ^bb0(%in: i8, %out: f32):
      %12 = arith.sitofp %in : i8 to f32
      linalg.yield %12 : f32
    } -> tensor<64x128xf32>
    %2 = tensor.empty() : tensor<64x4xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<64x4xf16>) outs(%2 : tensor<64x4xf32>) {
    ^bb0(%in: f16, %out: f32):
      %12 = arith.extf %in : f16 to f32
      linalg.yield %12 : f32
    } -> tensor<64x4xf32>
    %4 = tensor.empty() : tensor<64x4x32xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<64x4xf32>) outs(%4 : tensor<64x4x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x4x32xf32>
    %collapsed = tensor.collapse_shape %5 [[0], [1, 2]] : tensor<64x4x32xf32> into tensor<64x128xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %collapsed : tensor<64x128xf32>, tensor<64x128xf32>) outs(%0 : tensor<64x128xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %12 = arith.mulf %in, %in_0 : f32
      linalg.yield %12 : f32
    } -> tensor<64x128xf32>
    %7 = tensor.empty() : tensor<128x64xf32>
    %transposed = linalg.transpose ins(%6 : tensor<64x128xf32>) outs(%7 : tensor<128x64xf32>) permutation = [1, 0] 
    %8 = tensor.empty() : tensor<2x64xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<2x64xf32>) -> tensor<2x64xf32>
    %10 = linalg.matmul ins(%arg0, %transposed : tensor<2x128xf32>, tensor<128x64xf32>) outs(%9 : tensor<2x64xf32>) -> tensor<2x64xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%10, %arg3 : tensor<2x64xf32>, tensor<64xf32>) outs(%8 : tensor<2x64xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %12 = arith.addf %in, %in_0 : f32
      linalg.yield %12 : f32
    } -> tensor<2x64xf32>
    return %11 : tensor<2x64xf32>
  }
}
