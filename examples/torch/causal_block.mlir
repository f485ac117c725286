// torch-mlir export (a llama decoder block, causal mask); written by examples/torch/causal_block.py
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0) -> (d0)>
#map5 = affine_map<(d0, d1) -> (0, d1)>
#map6 = affine_map<(d0, d1) -> ()>
#map7 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map8 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map9 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @main(%arg0: tensor<5x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<32x32xf32>, %arg3: tensor<32x32xf32>, %arg4: tensor<32x32xf32>, %arg5: tensor<64x32xf32>, %arg6: tensor<64x32xf32>, %arg7: tensor<32x64xf32>, %arg8: tensor<32xf32>, %arg9: tensor<32xf32>) -> tensor<5x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<5x5xf32>
    %cst_4 = arith.constant 1.000000e-05 : f64
    %cst_5 = arith.constant 3.200000e+01 : f32
    %cst_6 = arith.constant 4.000000e+00 : f32
    %0 = tensor.empty() : tensor<5x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<5x32xf32>) outs(%0 : tensor<5x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %64 : f32
    } -> tensor<5x32xf32>
    %2 = tensor.empty() : tensor<5x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<5x1xf32>) -> tensor<5x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<5x32xf32>) outs(%3 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.addf %in, %out : f32
      linalg.yield %64 : f32
    } -> tensor<5x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<5x1xf32>) outs(%2 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.divf %in, %cst_5 : f32
      linalg.yield %64 : f32
    } -> tensor<5x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<5x1xf32>) outs(%2 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.truncf %cst_4 : f64 to f32
      %65 = arith.addf %in, %64 : f32
      linalg.yield %65 : f32
    } -> tensor<5x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<5x1xf32>) outs(%2 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.rsqrt %in : f32
      linalg.yield %64 : f32
    } -> tensor<5x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %7 : tensor<5x32xf32>, tensor<5x1xf32>) outs(%0 : tensor<5x32xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.mulf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<5x32xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg8 : tensor<5x32xf32>, tensor<32xf32>) outs(%0 : tensor<5x32xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.mulf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<5x32xf32>
    %10 = tensor.empty() : tensor<32x32xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %11 = linalg.fill ins(%cst : f32) outs(%0 : tensor<5x32xf32>) -> tensor<5x32xf32>
    %12 = linalg.matmul ins(%9, %transposed : tensor<5x32xf32>, tensor<32x32xf32>) outs(%11 : tensor<5x32xf32>) -> tensor<5x32xf32>
    %expanded = tensor.expand_shape %12 [[0], [1, 2]] output_shape [5, 2, 16] : tensor<5x32xf32> into tensor<5x2x16xf32>
    %13 = tensor.empty() : tensor<2x5x16xf32>
    %transposed_7 = linalg.transpose ins(%expanded : tensor<5x2x16xf32>) outs(%13 : tensor<2x5x16xf32>) permutation = [1, 0, 2] 
    %transposed_8 = linalg.transpose ins(%arg2 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %14 = linalg.matmul ins(%9, %transposed_8 : tensor<5x32xf32>, tensor<32x32xf32>) outs(%11 : tensor<5x32xf32>) -> tensor<5x32xf32>
    %expanded_9 = tensor.expand_shape %14 [[0], [1, 2]] output_shape [5, 2, 16] : tensor<5x32xf32> into tensor<5x2x16xf32>
    %transposed_10 = linalg.transpose ins(%arg3 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %15 = linalg.matmul ins(%9, %transposed_10 : tensor<5x32xf32>, tensor<32x32xf32>) outs(%11 : tensor<5x32xf32>) -> tensor<5x32xf32>
    %expanded_11 = tensor.expand_shape %15 [[0], [1, 2]] output_shape [5, 2, 16] : tensor<5x32xf32> into tensor<5x2x16xf32>
    %transposed_12 = linalg.transpose ins(%expanded_11 : tensor<5x2x16xf32>) outs(%13 : tensor<2x5x16xf32>) permutation = [1, 0, 2] 
    %16 = tensor.empty() : tensor<2x16x5xf32>
    %transposed_13 = linalg.transpose ins(%expanded_9 : tensor<5x2x16xf32>) outs(%16 : tensor<2x16x5xf32>) permutation = [1, 2, 0] 
    %17 = tensor.empty() : tensor<2x5x5xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %19 = linalg.batch_matmul ins(%transposed_7, %transposed_13 : tensor<2x5x16xf32>, tensor<2x16x5xf32>) outs(%18 : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %20 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19 : tensor<2x5x5xf32>) outs(%17 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.divf %in, %cst_6 : f32
      linalg.yield %64 : f32
    } -> tensor<2x5x5xf32>
    %21 = tensor.empty() : tensor<5xi64>
    %22 = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel"]} outs(%21 : tensor<5xi64>) {
    ^bb0(%out: i64):
      %64 = linalg.index 0 : index
      %65 = arith.index_cast %64 : index to i64
      linalg.yield %65 : i64
    } -> tensor<5xi64>
    %expanded_14 = tensor.expand_shape %22 [[0, 1]] output_shape [1, 5] : tensor<5xi64> into tensor<1x5xi64>
    %expanded_15 = tensor.expand_shape %22 [[0, 1]] output_shape [5, 1] : tensor<5xi64> into tensor<5x1xi64>
    %23 = tensor.empty() : tensor<5x5xi64>
    %24 = linalg.generic {indexing_maps = [#map5, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded_14, %expanded_15 : tensor<1x5xi64>, tensor<5x1xi64>) outs(%23 : tensor<5x5xi64>) {
    ^bb0(%in: i64, %in_22: i64, %out: i64):
      %64 = arith.subi %in, %in_22 : i64
      linalg.yield %64 : i64
    } -> tensor<5x5xi64>
    %25 = tensor.empty() : tensor<5x5xi1>
    %26 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%24 : tensor<5x5xi64>) outs(%25 : tensor<5x5xi1>) {
    ^bb0(%in: i64, %out: i1):
      %64 = arith.cmpi sge, %in, %c1_i64 : i64
      linalg.yield %64 : i1
    } -> tensor<5x5xi1>
    %27 = tensor.empty() : tensor<5x5xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map, #map6, #map], iterator_types = ["parallel", "parallel"]} ins(%26, %cst_3, %cst_2 : tensor<5x5xi1>, tensor<5x5xf32>, tensor<f32>) outs(%27 : tensor<5x5xf32>) {
    ^bb0(%in: i1, %in_22: f32, %in_23: f32, %out: f32):
      %64 = arith.select %in, %in_22, %in_23 : f32
      linalg.yield %64 : f32
    } -> tensor<5x5xf32>
    %29 = linalg.generic {indexing_maps = [#map3, #map7, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %28 : tensor<2x5x5xf32>, tensor<5x5xf32>) outs(%17 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.addf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<2x5x5xf32>
    %30 = tensor.empty() : tensor<2x5xi64>
    %31 = linalg.fill ins(%c0_i64 : i64) outs(%30 : tensor<2x5xi64>) -> tensor<2x5xi64>
    %32 = tensor.empty() : tensor<2x5xf32>
    %33 = linalg.fill ins(%cst_0 : f32) outs(%32 : tensor<2x5xf32>) -> tensor<2x5xf32>
    %34:2 = linalg.generic {indexing_maps = [#map3, #map8, #map8], iterator_types = ["parallel", "parallel", "reduction"]} ins(%29 : tensor<2x5x5xf32>) outs(%33, %31 : tensor<2x5xf32>, tensor<2x5xi64>) {
    ^bb0(%in: f32, %out: f32, %out_22: i64):
      %64 = linalg.index 2 : index
      %65 = arith.index_cast %64 : index to i64
      %66 = arith.maximumf %in, %out : f32
      %67 = arith.cmpf ogt, %in, %out : f32
      %68 = arith.select %67, %65, %out_22 : i64
      linalg.yield %66, %68 : f32, i64
    } -> (tensor<2x5xf32>, tensor<2x5xi64>)
    %expanded_16 = tensor.expand_shape %34#0 [[0], [1, 2]] output_shape [2, 5, 1] : tensor<2x5xf32> into tensor<2x5x1xf32>
    %35 = linalg.generic {indexing_maps = [#map3, #map9, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%29, %expanded_16 : tensor<2x5x5xf32>, tensor<2x5x1xf32>) outs(%17 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.subf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<2x5x5xf32>
    %36 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%35 : tensor<2x5x5xf32>) outs(%17 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.exp %in : f32
      linalg.yield %64 : f32
    } -> tensor<2x5x5xf32>
    %37 = tensor.empty() : tensor<2x5x1xf32>
    %38 = linalg.fill ins(%cst : f32) outs(%37 : tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
    %39 = linalg.generic {indexing_maps = [#map3, #map9], iterator_types = ["parallel", "parallel", "reduction"]} ins(%36 : tensor<2x5x5xf32>) outs(%38 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.addf %in, %out : f32
      linalg.yield %64 : f32
    } -> tensor<2x5x1xf32>
    %40 = linalg.generic {indexing_maps = [#map3, #map9, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%36, %39 : tensor<2x5x5xf32>, tensor<2x5x1xf32>) outs(%17 : tensor<2x5x5xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.divf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<2x5x5xf32>
    %41 = linalg.fill ins(%cst : f32) outs(%13 : tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
    %42 = linalg.batch_matmul ins(%40, %transposed_12 : tensor<2x5x5xf32>, tensor<2x5x16xf32>) outs(%41 : tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
    %43 = tensor.empty() : tensor<5x2x16xf32>
    %transposed_17 = linalg.transpose ins(%42 : tensor<2x5x16xf32>) outs(%43 : tensor<5x2x16xf32>) permutation = [1, 0, 2] 
    %collapsed = tensor.collapse_shape %transposed_17 [[0], [1, 2]] : tensor<5x2x16xf32> into tensor<5x32xf32>
    %transposed_18 = linalg.transpose ins(%arg4 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %44 = linalg.matmul ins(%collapsed, %transposed_18 : tensor<5x32xf32>, tensor<32x32xf32>) outs(%11 : tensor<5x32xf32>) -> tensor<5x32xf32>
    %45 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %44 : tensor<5x32xf32>, tensor<5x32xf32>) outs(%0 : tensor<5x32xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.addf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<5x32xf32>
    %46 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%45 : tensor<5x32xf32>) outs(%0 : tensor<5x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %64 : f32
    } -> tensor<5x32xf32>
    %47 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%46 : tensor<5x32xf32>) outs(%3 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.addf %in, %out : f32
      linalg.yield %64 : f32
    } -> tensor<5x1xf32>
    %48 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%47 : tensor<5x1xf32>) outs(%2 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.divf %in, %cst_5 : f32
      linalg.yield %64 : f32
    } -> tensor<5x1xf32>
    %49 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%48 : tensor<5x1xf32>) outs(%2 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.truncf %cst_4 : f64 to f32
      %65 = arith.addf %in, %64 : f32
      linalg.yield %65 : f32
    } -> tensor<5x1xf32>
    %50 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%49 : tensor<5x1xf32>) outs(%2 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.rsqrt %in : f32
      linalg.yield %64 : f32
    } -> tensor<5x1xf32>
    %51 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%45, %50 : tensor<5x32xf32>, tensor<5x1xf32>) outs(%0 : tensor<5x32xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.mulf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<5x32xf32>
    %52 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%51, %arg9 : tensor<5x32xf32>, tensor<32xf32>) outs(%0 : tensor<5x32xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.mulf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<5x32xf32>
    %53 = tensor.empty() : tensor<32x64xf32>
    %transposed_19 = linalg.transpose ins(%arg5 : tensor<64x32xf32>) outs(%53 : tensor<32x64xf32>) permutation = [1, 0] 
    %54 = tensor.empty() : tensor<5x64xf32>
    %55 = linalg.fill ins(%cst : f32) outs(%54 : tensor<5x64xf32>) -> tensor<5x64xf32>
    %56 = linalg.matmul ins(%52, %transposed_19 : tensor<5x32xf32>, tensor<32x64xf32>) outs(%55 : tensor<5x64xf32>) -> tensor<5x64xf32>
    %57 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%56 : tensor<5x64xf32>) outs(%54 : tensor<5x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.negf %in : f32
      %65 = math.exp %64 : f32
      %66 = arith.addf %65, %cst_1 : f32
      %67 = arith.divf %cst_1, %66 : f32
      linalg.yield %67 : f32
    } -> tensor<5x64xf32>
    %58 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%56, %57 : tensor<5x64xf32>, tensor<5x64xf32>) outs(%54 : tensor<5x64xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.mulf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<5x64xf32>
    %transposed_20 = linalg.transpose ins(%arg6 : tensor<64x32xf32>) outs(%53 : tensor<32x64xf32>) permutation = [1, 0] 
    %59 = linalg.matmul ins(%52, %transposed_20 : tensor<5x32xf32>, tensor<32x64xf32>) outs(%55 : tensor<5x64xf32>) -> tensor<5x64xf32>
    %60 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%58, %59 : tensor<5x64xf32>, tensor<5x64xf32>) outs(%54 : tensor<5x64xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.mulf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<5x64xf32>
    %61 = tensor.empty() : tensor<64x32xf32>
    %transposed_21 = linalg.transpose ins(%arg7 : tensor<32x64xf32>) outs(%61 : tensor<64x32xf32>) permutation = [1, 0] 
    %62 = linalg.matmul ins(%60, %transposed_21 : tensor<5x64xf32>, tensor<64x32xf32>) outs(%11 : tensor<5x32xf32>) -> tensor<5x32xf32>
    %63 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%45, %62 : tensor<5x32xf32>, tensor<5x32xf32>) outs(%0 : tensor<5x32xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %64 = arith.addf %in, %in_22 : f32
      linalg.yield %64 : f32
    } -> tensor<5x32xf32>
    return %63 : tensor<5x32xf32>
  }
}
