// torch-mlir export (gate and up share one view); written by examples/torch/export.py
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @main(%arg0: tensor<2x256xf32>, %arg1: tensor<512x256xi8>, %arg2: tensor<512x8xf16>, %arg3: tensor<512x256xi8>, %arg4: tensor<512x8xf16>, %arg5: tensor<256x512xi8>, %arg6: tensor<256x16xf16>) -> tensor<2x256xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x256xbf16>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<2x256xf32>) outs(%0 : tensor<2x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %31 = arith.truncf %in : f32 to bf16
      linalg.yield %31 : bf16
    } -> tensor<2x256xbf16>
    %2 = tensor.empty() : tensor<2x256xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<2x256xbf16>) outs(%2 : tensor<2x256xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %31 = arith.extf %in : bf16 to f32
      linalg.yield %31 : f32
    } -> tensor<2x256xf32>
    %expanded = tensor.expand_shape %arg1 [[0], [1, 2]] output_shape [512, 8, 32] : tensor<512x256xi8> into tensor<512x8x32xi8>
    %4 = tensor.empty() : tensor<512x8x32xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<512x8x32xi8>) outs(%4 : tensor<512x8x32xf32>) {
    ^bb0(%in: i8, %out: f32):
      %31 = arith.sitofp %in : i8 to f32
      linalg.yield %31 : f32
    } -> tensor<512x8x32xf32>
    %6 = tensor.empty() : tensor<512x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<512x8xf16>) outs(%6 : tensor<512x8xf32>) {
    ^bb0(%in: f16, %out: f32):
      %31 = arith.extf %in : f16 to f32
      linalg.yield %31 : f32
    } -> tensor<512x8xf32>
    %expanded_1 = tensor.expand_shape %7 [[0], [1, 2]] output_shape [512, 8, 1] : tensor<512x8xf32> into tensor<512x8x1xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %expanded_1 : tensor<512x8x32xf32>, tensor<512x8x1xf32>) outs(%4 : tensor<512x8x32xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %31 = arith.mulf %in, %in_10 : f32
      linalg.yield %31 : f32
    } -> tensor<512x8x32xf32>
    %collapsed = tensor.collapse_shape %8 [[0], [1, 2]] : tensor<512x8x32xf32> into tensor<512x256xf32>
    %9 = tensor.empty() : tensor<256x512xf32>
    %transposed = linalg.transpose ins(%collapsed : tensor<512x256xf32>) outs(%9 : tensor<256x512xf32>) permutation = [1, 0] 
    %10 = tensor.empty() : tensor<2x512xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<2x512xf32>) -> tensor<2x512xf32>
    %12 = linalg.matmul ins(%3, %transposed : tensor<2x256xf32>, tensor<256x512xf32>) outs(%11 : tensor<2x512xf32>) -> tensor<2x512xf32>
    %expanded_2 = tensor.expand_shape %arg3 [[0], [1, 2]] output_shape [512, 8, 32] : tensor<512x256xi8> into tensor<512x8x32xi8>
    %13 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_2 : tensor<512x8x32xi8>) outs(%4 : tensor<512x8x32xf32>) {
    ^bb0(%in: i8, %out: f32):
      %31 = arith.sitofp %in : i8 to f32
      linalg.yield %31 : f32
    } -> tensor<512x8x32xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg4 : tensor<512x8xf16>) outs(%6 : tensor<512x8xf32>) {
    ^bb0(%in: f16, %out: f32):
      %31 = arith.extf %in : f16 to f32
      linalg.yield %31 : f32
    } -> tensor<512x8xf32>
    %expanded_3 = tensor.expand_shape %14 [[0], [1, 2]] output_shape [512, 8, 1] : tensor<512x8xf32> into tensor<512x8x1xf32>
    %15 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13, %expanded_3 : tensor<512x8x32xf32>, tensor<512x8x1xf32>) outs(%4 : tensor<512x8x32xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %31 = arith.mulf %in, %in_10 : f32
      linalg.yield %31 : f32
    } -> tensor<512x8x32xf32>
    %collapsed_4 = tensor.collapse_shape %15 [[0], [1, 2]] : tensor<512x8x32xf32> into tensor<512x256xf32>
    %transposed_5 = linalg.transpose ins(%collapsed_4 : tensor<512x256xf32>) outs(%9 : tensor<256x512xf32>) permutation = [1, 0] 
    %16 = linalg.matmul ins(%3, %transposed_5 : tensor<2x256xf32>, tensor<256x512xf32>) outs(%11 : tensor<2x512xf32>) -> tensor<2x512xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<2x512xf32>) outs(%10 : tensor<2x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.negf %in : f32
      %32 = math.exp %31 : f32
      %33 = arith.addf %32, %cst_0 : f32
      %34 = arith.divf %cst_0, %33 : f32
      linalg.yield %34 : f32
    } -> tensor<2x512xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%12, %17 : tensor<2x512xf32>, tensor<2x512xf32>) outs(%10 : tensor<2x512xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %31 = arith.mulf %in, %in_10 : f32
      linalg.yield %31 : f32
    } -> tensor<2x512xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %16 : tensor<2x512xf32>, tensor<2x512xf32>) outs(%10 : tensor<2x512xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %31 = arith.mulf %in, %in_10 : f32
      linalg.yield %31 : f32
    } -> tensor<2x512xf32>
    %20 = tensor.empty() : tensor<2x512xbf16>
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%19 : tensor<2x512xf32>) outs(%20 : tensor<2x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %31 = arith.truncf %in : f32 to bf16
      linalg.yield %31 : bf16
    } -> tensor<2x512xbf16>
    %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%21 : tensor<2x512xbf16>) outs(%10 : tensor<2x512xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %31 = arith.extf %in : bf16 to f32
      linalg.yield %31 : f32
    } -> tensor<2x512xf32>
    %expanded_6 = tensor.expand_shape %arg5 [[0], [1, 2]] output_shape [256, 16, 32] : tensor<256x512xi8> into tensor<256x16x32xi8>
    %23 = tensor.empty() : tensor<256x16x32xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_6 : tensor<256x16x32xi8>) outs(%23 : tensor<256x16x32xf32>) {
    ^bb0(%in: i8, %out: f32):
      %31 = arith.sitofp %in : i8 to f32
      linalg.yield %31 : f32
    } -> tensor<256x16x32xf32>
    %25 = tensor.empty() : tensor<256x16xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg6 : tensor<256x16xf16>) outs(%25 : tensor<256x16xf32>) {
    ^bb0(%in: f16, %out: f32):
      %31 = arith.extf %in : f16 to f32
      linalg.yield %31 : f32
    } -> tensor<256x16xf32>
    %expanded_7 = tensor.expand_shape %26 [[0], [1, 2]] output_shape [256, 16, 1] : tensor<256x16xf32> into tensor<256x16x1xf32>
    %27 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%24, %expanded_7 : tensor<256x16x32xf32>, tensor<256x16x1xf32>) outs(%23 : tensor<256x16x32xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %31 = arith.mulf %in, %in_10 : f32
      linalg.yield %31 : f32
    } -> tensor<256x16x32xf32>
    %collapsed_8 = tensor.collapse_shape %27 [[0], [1, 2]] : tensor<256x16x32xf32> into tensor<256x512xf32>
    %28 = tensor.empty() : tensor<512x256xf32>
    %transposed_9 = linalg.transpose ins(%collapsed_8 : tensor<256x512xf32>) outs(%28 : tensor<512x256xf32>) permutation = [1, 0] 
    %29 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x256xf32>) -> tensor<2x256xf32>
    %30 = linalg.matmul ins(%22, %transposed_9 : tensor<2x512xf32>, tensor<512x256xf32>) outs(%29 : tensor<2x256xf32>) -> tensor<2x256xf32>
    return %30 : tensor<2x256xf32>
  }
}
