// torch-mlir export (one scale per row); written by examples/torch/export.py
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @main(%arg0: tensor<1x2048xf32>, %arg1: tensor<1024x2048xi8>, %arg2: tensor<1024x64xf16>) -> tensor<1x1024xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1024x2048xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<1024x2048xi8>) outs(%0 : tensor<1024x2048xf32>) {
    ^bb0(%in: i8, %out: f32):
      %9 = arith.sitofp %in : i8 to f32
      linalg.yield %9 : f32
    } -> tensor<1024x2048xf32>
    %2 = tensor.empty() : tensor<1024x64xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<1024x64xf16>) outs(%2 : tensor<1024x64xf32>) {
    ^bb0(%in: f16, %out: f32):
      %9 = arith.extf %in : f16 to f32
      linalg.yield %9 : f32
    } -> tensor<1024x64xf32>
    %extracted_slice = tensor.extract_slice %3[0, 0] [1024, 1] [1, 1] : tensor<1024x64xf32> to tensor<1024x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %extracted_slice : tensor<1024x2048xf32>, tensor<1024x1xf32>) outs(%0 : tensor<1024x2048xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %9 = arith.mulf %in, %in_0 : f32
      linalg.yield %9 : f32
    } -> tensor<1024x2048xf32>
    %5 = tensor.empty() : tensor<2048x1024xf32>
    %transposed = linalg.transpose ins(%4 : tensor<1024x2048xf32>) outs(%5 : tensor<2048x1024xf32>) permutation = [1, 0] 
    %6 = tensor.empty() : tensor<1x1024xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %8 = linalg.matmul ins(%arg0, %transposed : tensor<1x2048xf32>, tensor<2048x1024xf32>) outs(%7 : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    return %8 : tensor<1x1024xf32>
  }
}
