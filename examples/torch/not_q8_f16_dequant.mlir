// torch-mlir export (dequantised in f16 (each weight rounded to f16)); written by examples/torch/export.py
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @main(%arg0: tensor<2x128xf32>, %arg1: tensor<64x128xi8>, %arg2: tensor<64x4xf16>) -> tensor<2x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<64x128xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<64x128xi8>) outs(%0 : tensor<64x128xf16>) {
    ^bb0(%in: i8, %out: f16):
      %11 = arith.sitofp %in : i8 to f16
      linalg.yield %11 : f16
    } -> tensor<64x128xf16>
    %2 = tensor.empty() : tensor<64x4x32xf16>
    %3 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg2 : tensor<64x4xf16>) outs(%2 : tensor<64x4x32xf16>) {
    ^bb0(%in: f16, %out: f16):
      linalg.yield %in : f16
    } -> tensor<64x4x32xf16>
    %collapsed = tensor.collapse_shape %3 [[0], [1, 2]] : tensor<64x4x32xf16> into tensor<64x128xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %collapsed : tensor<64x128xf16>, tensor<64x128xf16>) outs(%0 : tensor<64x128xf16>) {
    ^bb0(%in: f16, %in_0: f16, %out: f16):
      %11 = arith.mulf %in, %in_0 : f16
      linalg.yield %11 : f16
    } -> tensor<64x128xf16>
    %5 = tensor.empty() : tensor<64x128xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<64x128xf16>) outs(%5 : tensor<64x128xf32>) {
    ^bb0(%in: f16, %out: f32):
      %11 = arith.extf %in : f16 to f32
      linalg.yield %11 : f32
    } -> tensor<64x128xf32>
    %7 = tensor.empty() : tensor<128x64xf32>
    %transposed = linalg.transpose ins(%6 : tensor<64x128xf32>) outs(%7 : tensor<128x64xf32>) permutation = [1, 0] 
    %8 = tensor.empty() : tensor<2x64xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<2x64xf32>) -> tensor<2x64xf32>
    %10 = linalg.matmul ins(%arg0, %transposed : tensor<2x128xf32>, tensor<128x64xf32>) outs(%9 : tensor<2x64xf32>) -> tensor<2x64xf32>
    return %10 : tensor<2x64xf32>
  }
}
