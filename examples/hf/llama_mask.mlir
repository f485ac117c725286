// LlamaForCausalLM (random weights) exported by examples/hf/export.py
builtin.module {
  func.func @main(%input_ids: tensor<1x6xi64>, %attention_mask: tensor<1x6xi64>, %model.embed_tokens.weight: tensor<128x64xf32>, %model.layers.0.self_attn.q_proj.weight: tensor<64x64xf32>, %model.layers.0.self_attn.k_proj.weight: tensor<32x64xf32>, %model.layers.0.self_attn.v_proj.weight: tensor<32x64xf32>, %model.layers.0.self_attn.o_proj.weight: tensor<64x64xf32>, %model.layers.0.mlp.gate_proj.weight: tensor<128x64xf32>, %model.layers.0.mlp.up_proj.weight: tensor<128x64xf32>, %model.layers.0.mlp.down_proj.weight: tensor<64x128xf32>, %model.layers.0.input_layernorm.weight: tensor<64xf32>, %model.layers.0.post_attention_layernorm.weight: tensor<64xf32>, %model.layers.1.self_attn.q_proj.weight: tensor<64x64xf32>, %model.layers.1.self_attn.k_proj.weight: tensor<32x64xf32>, %model.layers.1.self_attn.v_proj.weight: tensor<32x64xf32>, %model.layers.1.self_attn.o_proj.weight: tensor<64x64xf32>, %model.layers.1.mlp.gate_proj.weight: tensor<128x64xf32>, %model.layers.1.mlp.up_proj.weight: tensor<128x64xf32>, %model.layers.1.mlp.down_proj.weight: tensor<64x128xf32>, %model.layers.1.input_layernorm.weight: tensor<64xf32>, %model.layers.1.post_attention_layernorm.weight: tensor<64xf32>, %model.norm.weight: tensor<64xf32>) -> tensor<1x6x128xf32> {
    %c2_i64 = arith.constant 2 : i64
    %c1_i64 = arith.constant 1 : i64
    %c6_i64 = arith.constant 6 : i64
    %c0_i64 = arith.constant 0 : i64
    %c128 = arith.constant 128 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xff800000 : f32
    %true = arith.constant true
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<1x4x6x6xf32>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_5 = arith.constant dense<0xff800000> : tensor<f32>
    %cst_6 = arith.constant dense<true> : tensor<i1>
    %cst_7 = arith.constant 0xfff0000000000000 : f64
    %cst_8 = arith.constant 1.000000e-06 : f64
    %cst_9 = arith.constant dense<[1.000000e+00, 0.316227764, 1.000000e-01, 0.0316227786, 1.000000e-02, 0.00316227786, 1.000000e-03, 0.000316227786]> : tensor<8xf32>
    %cst_10 = arith.constant 6.400000e+01 : f32
    %cst_11 = arith.constant 5.000000e-01 : f32
    %0 = tensor.empty() : tensor<1x6x64xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%input_ids : tensor<1x6xi64>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in: i64, %out: f32):
      %2 = arith.index_cast %in : i64 to index
      %3 = linalg.index 2 : index
      %4 = arith.cmpi slt, %2, %c128 : index
      cf.assert %4, "index must be smaller than dim size"
      %5 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %5, "index must be larger or equal to 0"
      %extracted = tensor.extract %model.embed_tokens.weight[%2, %3] : tensor<128x64xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x6x64xf32>
    %6 = tensor.empty() : tensor<6xi64>
    %7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%6 : tensor<6xi64>) {
    ^bb0(%out_1: i64):
      %8 = linalg.index 0 : index
      %9 = arith.index_cast %8 : index to i64
      linalg.yield %9 : i64
    } -> tensor<6xi64>
    %10 = tensor.empty() : tensor<1x6xi1>
    %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%attention_mask : tensor<1x6xi64>) outs(%10 : tensor<1x6xi1>) {
    ^bb0(%in_1: i64, %out_2: i1):
      %12 = arith.cmpi ne, %in_1, %c0_i64 : i64
      linalg.yield %12 : i1
    } -> tensor<1x6xi1>
    %13 = tensor.empty() : tensor<1xi64>
    %14 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%13 : tensor<1xi64>) {
    ^bb0(%out_3: i64):
      linalg.yield %c0_i64 : i64
    } -> tensor<1xi64>
    %expanded = tensor.expand_shape %14 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, 1, 1] : tensor<1xi64> into tensor<1x1x1x1xi64>
    %expanded_1 = tensor.expand_shape %7 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, 6, 1] : tensor<6xi64> into tensor<1x1x6x1xi64>
    %expanded_2 = tensor.expand_shape %7 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, 1, 6] : tensor<6xi64> into tensor<1x1x1x6xi64>
    %15 = tensor.empty() : tensor<1x1x6x6xi1>
    %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_2, %expanded_1 : tensor<1x1x1x6xi64>, tensor<1x1x6x1xi64>) outs(%15 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_2: i64, %in_3: i64, %out_4: i1):
      %17 = arith.cmpi sle, %in_2, %in_3 : i64
      linalg.yield %17 : i1
    } -> tensor<1x1x6x6xi1>
    %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_6, %16 : tensor<i1>, tensor<1x1x6x6xi1>) outs(%15 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_4: i1, %in_5: i1, %out_5: i1):
      %19 = arith.andi %in_4, %in_5 : i1
      linalg.yield %19 : i1
    } -> tensor<1x1x6x6xi1>
    %20 = tensor.empty() : tensor<1x1x1x6xi1>
    %21 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_2 : tensor<1x1x1x1xi64>, tensor<1x1x1x6xi64>) outs(%20 : tensor<1x1x1x6xi1>) {
    ^bb0(%in_6: i64, %in_7: i64, %out_6: i1):
      %22 = arith.cmpi slt, %in_6, %c0_i64 : i64
      %23 = arith.addi %in_6, %c1_i64 : i64
      %24 = arith.select %22, %23, %in_6 : i64
      %25 = arith.index_cast %24 : i64 to index
      %26 = arith.cmpi slt, %in_7, %c0_i64 : i64
      %27 = arith.addi %in_7, %c6_i64 : i64
      %28 = arith.select %26, %27, %in_7 : i64
      %29 = arith.index_cast %28 : i64 to index
      %extracted_1 = tensor.extract %11[%25, %29] : tensor<1x6xi1>
      linalg.yield %extracted_1 : i1
    } -> tensor<1x1x1x6xi1>
    %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %21 : tensor<1x1x6x6xi1>, tensor<1x1x1x6xi1>) outs(%15 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_8: i1, %in_9: i1, %out_7: i1):
      %31 = arith.andi %in_8, %in_9 : i1
      linalg.yield %31 : i1
    } -> tensor<1x1x6x6xi1>
    %expanded_3 = tensor.expand_shape %7 [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 6, 1] : tensor<6xi64> into tensor<1x6x1xi64>
    %32 = tensor.empty() : tensor<1x6x1xf32>
    %33 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_3 : tensor<1x6x1xi64>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_10: i64, %out_8: f32):
      %34 = arith.sitofp %in_10 : i64 to f32
      linalg.yield %34 : f32
    } -> tensor<1x6x1xf32>
    %35 = tensor.empty() : tensor<1x6x8xf32>
    %36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%33, %cst_9 : tensor<1x6x1xf32>, tensor<8xf32>) outs(%35 : tensor<1x6x8xf32>) {
    ^bb0(%in_11: f32, %in_12: f32, %out_9: f32):
      %37 = arith.mulf %in_11, %in_12 : f32
      linalg.yield %37 : f32
    } -> tensor<1x6x8xf32>
    %concat = tensor.concat dim(2) %36, %36 : (tensor<1x6x8xf32>, tensor<1x6x8xf32>) -> tensor<1x6x16xf32>
    %38 = tensor.empty() : tensor<1x6x16xf32>
    %39 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat : tensor<1x6x16xf32>) outs(%38 : tensor<1x6x16xf32>) {
    ^bb0(%in_13: f32, %out_10: f32):
      %40 = math.cos %in_13 : f32
      linalg.yield %40 : f32
    } -> tensor<1x6x16xf32>
    %41 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat : tensor<1x6x16xf32>) outs(%38 : tensor<1x6x16xf32>) {
    ^bb0(%in_14: f32, %out_11: f32):
      %42 = math.sin %in_14 : f32
      linalg.yield %42 : f32
    } -> tensor<1x6x16xf32>
    %43 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_15: f32, %out_12: f32):
      %44 = math.fpowi %in_15, %c2_i64 : f32, i64
      linalg.yield %44 : f32
    } -> tensor<1x6x64xf32>
    %45 = linalg.fill ins(%cst : f32) outs(%32 : tensor<1x6x1xf32>) -> tensor<1x6x1xf32>
    %46 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%43 : tensor<1x6x64xf32>) outs(%45 : tensor<1x6x1xf32>) {
    ^bb0(%in_16: f32, %out_13: f32):
      %47 = arith.addf %in_16, %out_13 : f32
      linalg.yield %47 : f32
    } -> tensor<1x6x1xf32>
    %48 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%46 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_17: f32, %out_14: f32):
      %49 = arith.divf %in_17, %cst_10 : f32
      linalg.yield %49 : f32
    } -> tensor<1x6x1xf32>
    %50 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%48 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_18: f32, %out_15: f32):
      %51 = arith.truncf %cst_8 : f64 to f32
      %52 = arith.addf %in_18, %51 : f32
      linalg.yield %52 : f32
    } -> tensor<1x6x1xf32>
    %53 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%50 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_19: f32, %out_16: f32):
      %54 = math.rsqrt %in_19 : f32
      linalg.yield %54 : f32
    } -> tensor<1x6x1xf32>
    %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %53 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_20: f32, %in_21: f32, %out_17: f32):
      %56 = arith.mulf %in_20, %in_21 : f32
      linalg.yield %56 : f32
    } -> tensor<1x6x64xf32>
    %57 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.0.input_layernorm.weight, %55 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_22: f32, %in_23: f32, %out_18: f32):
      %58 = arith.mulf %in_22, %in_23 : f32
      linalg.yield %58 : f32
    } -> tensor<1x6x64xf32>
    %59 = tensor.empty() : tensor<64x64xf32>
    %transposed = linalg.transpose ins(%model.layers.0.self_attn.q_proj.weight:tensor<64x64xf32>) outs(%59:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed = tensor.collapse_shape %57 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %60 = tensor.empty() : tensor<6x64xf32>
    %61 = linalg.fill ins(%cst : f32) outs(%60 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %62 = linalg.matmul ins(%collapsed, %transposed : tensor<6x64xf32>, tensor<64x64xf32>) outs(%61 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_4 = tensor.expand_shape %62 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 4, 16] : tensor<6x64xf32> into tensor<1x6x4x16xf32>
    %63 = tensor.empty() : tensor<1x4x6x16xf32>
    %transposed_1 = linalg.transpose ins(%expanded_4:tensor<1x6x4x16xf32>) outs(%63:tensor<1x4x6x16xf32>) permutation = [0, 2, 1, 3]
    %64 = tensor.empty() : tensor<64x32xf32>
    %transposed_2 = linalg.transpose ins(%model.layers.0.self_attn.k_proj.weight:tensor<32x64xf32>) outs(%64:tensor<64x32xf32>) permutation = [1, 0]
    %65 = tensor.empty() : tensor<6x32xf32>
    %66 = linalg.fill ins(%cst : f32) outs(%65 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %67 = linalg.matmul ins(%collapsed, %transposed_2 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%66 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_5 = tensor.expand_shape %67 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %68 = tensor.empty() : tensor<1x2x6x16xf32>
    %transposed_3 = linalg.transpose ins(%expanded_5:tensor<1x6x2x16xf32>) outs(%68:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_4 = linalg.transpose ins(%model.layers.0.self_attn.v_proj.weight:tensor<32x64xf32>) outs(%64:tensor<64x32xf32>) permutation = [1, 0]
    %69 = linalg.matmul ins(%collapsed, %transposed_4 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%66 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_6 = tensor.expand_shape %69 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_5 = linalg.transpose ins(%expanded_6:tensor<1x6x2x16xf32>) outs(%68:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %expanded_7 = tensor.expand_shape %39 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 16] : tensor<1x6x16xf32> into tensor<1x1x6x16xf32>
    %expanded_8 = tensor.expand_shape %41 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 16] : tensor<1x6x16xf32> into tensor<1x1x6x16xf32>
    %70 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_1, %expanded_7 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%63 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_24: f32, %in_25: f32, %out_19: f32):
      %71 = arith.mulf %in_24, %in_25 : f32
      linalg.yield %71 : f32
    } -> tensor<1x4x6x16xf32>
    %extracted_slice = tensor.extract_slice %transposed_1[0, 0, 0, 0] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %extracted_slice_1 = tensor.extract_slice %transposed_1[0, 0, 0, 8] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %72 = tensor.empty() : tensor<1x4x6x8xf32>
    %73 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_1 : tensor<1x4x6x8xf32>) outs(%72 : tensor<1x4x6x8xf32>) {
    ^bb0(%in_26: f32, %out_20: f32):
      %74 = arith.negf %in_26 : f32
      linalg.yield %74 : f32
    } -> tensor<1x4x6x8xf32>
    %concat_1 = tensor.concat dim(3) %73, %extracted_slice : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x16xf32>
    %75 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_1, %expanded_8 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%63 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_27: f32, %in_28: f32, %out_21: f32):
      %76 = arith.mulf %in_27, %in_28 : f32
      linalg.yield %76 : f32
    } -> tensor<1x4x6x16xf32>
    %77 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%70, %75 : tensor<1x4x6x16xf32>, tensor<1x4x6x16xf32>) outs(%63 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_29: f32, %in_30: f32, %out_22: f32):
      %78 = arith.addf %in_29, %in_30 : f32
      linalg.yield %78 : f32
    } -> tensor<1x4x6x16xf32>
    %79 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_3, %expanded_7 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%68 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_31: f32, %in_32: f32, %out_23: f32):
      %80 = arith.mulf %in_31, %in_32 : f32
      linalg.yield %80 : f32
    } -> tensor<1x2x6x16xf32>
    %extracted_slice_2 = tensor.extract_slice %transposed_3[0, 0, 0, 0] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %extracted_slice_3 = tensor.extract_slice %transposed_3[0, 0, 0, 8] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %81 = tensor.empty() : tensor<1x2x6x8xf32>
    %82 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_3 : tensor<1x2x6x8xf32>) outs(%81 : tensor<1x2x6x8xf32>) {
    ^bb0(%in_33: f32, %out_24: f32):
      %83 = arith.negf %in_33 : f32
      linalg.yield %83 : f32
    } -> tensor<1x2x6x8xf32>
    %concat_2 = tensor.concat dim(3) %82, %extracted_slice_2 : (tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x16xf32>
    %84 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_2, %expanded_8 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%68 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_34: f32, %in_35: f32, %out_25: f32):
      %85 = arith.mulf %in_34, %in_35 : f32
      linalg.yield %85 : f32
    } -> tensor<1x2x6x16xf32>
    %86 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%79, %84 : tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) outs(%68 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_36: f32, %in_37: f32, %out_26: f32):
      %87 = arith.addf %in_36, %in_37 : f32
      linalg.yield %87 : f32
    } -> tensor<1x2x6x16xf32>
    %88 = tensor.empty() : tensor<1x2x2x6x16xf32>
    %89 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%86 : tensor<1x2x6x16xf32>) outs(%88 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_38: f32, %out_27: f32):
      linalg.yield %in_38 : f32
    } -> tensor<1x2x2x6x16xf32>
    %collapsed_1 = tensor.collapse_shape %89 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<1x4x6x16xf32>
    %90 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_5 : tensor<1x2x6x16xf32>) outs(%88 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_39: f32, %out_28: f32):
      linalg.yield %in_39 : f32
    } -> tensor<1x2x2x6x16xf32>
    %91 = tensor.empty() : tensor<1x1x6x6xf32>
    %92 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %cst_4, %cst_5 : tensor<1x1x6x6xi1>, tensor<f32>, tensor<f32>) outs(%91 : tensor<1x1x6x6xf32>) {
    ^bb0(%in_40: i1, %in_41: f32, %in_42: f32, %out_29: f32):
      %93 = arith.select %in_40, %in_41, %in_42 : f32
      linalg.yield %93 : f32
    } -> tensor<1x1x6x6xf32>
    %94 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%77 : tensor<1x4x6x16xf32>) outs(%63 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_43: f32, %out_30: f32):
      %95 = arith.mulf %in_43, %cst_11 : f32
      linalg.yield %95 : f32
    } -> tensor<1x4x6x16xf32>
    %96 = tensor.empty() : tensor<1x4x16x6xf32>
    %transposed_6 = linalg.transpose ins(%collapsed_1:tensor<1x4x6x16xf32>) outs(%96:tensor<1x4x16x6xf32>) permutation = [0, 1, 3, 2]
    %97 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_6 : tensor<1x4x16x6xf32>) outs(%96 : tensor<1x4x16x6xf32>) {
    ^bb0(%in_44: f32, %out_31: f32):
      %98 = arith.mulf %in_44, %cst_11 : f32
      linalg.yield %98 : f32
    } -> tensor<1x4x16x6xf32>
    %collapsed_2 = tensor.collapse_shape %94 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x16xf32> into tensor<4x6x16xf32>
    %collapsed_3 = tensor.collapse_shape %97 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x16x6xf32> into tensor<4x16x6xf32>
    %99 = tensor.empty() : tensor<4x6x6xf32>
    %100 = linalg.fill ins(%cst : f32) outs(%99 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %101 = linalg.batch_matmul ins(%collapsed_2, %collapsed_3 : tensor<4x6x16xf32>, tensor<4x16x6xf32>) outs(%100 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %expanded_9 = tensor.expand_shape %101 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 6] : tensor<4x6x6xf32> into tensor<1x4x6x6xf32>
    %102 = tensor.empty() : tensor<1x4x6x6xf32>
    %103 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %92 : tensor<1x4x6x6xf32>, tensor<1x1x6x6xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_45: f32, %in_46: f32, %out_32: f32):
      %104 = arith.addf %in_45, %in_46 : f32
      linalg.yield %104 : f32
    } -> tensor<1x4x6x6xf32>
    %105 = tensor.empty() : tensor<1x4x6xi64>
    %106 = linalg.fill ins(%c0_i64 : i64) outs(%105 : tensor<1x4x6xi64>) -> tensor<1x4x6xi64>
    %107 = tensor.empty() : tensor<1x4x6xf32>
    %108 = linalg.fill ins(%cst_1 : f32) outs(%107 : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
    %109, %110 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%103 : tensor<1x4x6x6xf32>) outs(%108, %106 : tensor<1x4x6xf32>, tensor<1x4x6xi64>) {
    ^bb0(%in_47: f32, %out_33: f32, %out_34: i64):
      %111 = linalg.index 3 : index
      %112 = arith.index_cast %111 : index to i64
      %113 = arith.maximumf %in_47, %out_33 : f32
      %114 = arith.cmpf ogt, %in_47, %out_33 : f32
      %115 = arith.select %114, %112, %out_34 : i64
      linalg.yield %113, %115 : f32, i64
    } -> (tensor<1x4x6xf32>, tensor<1x4x6xi64>)
    %expanded_10 = tensor.expand_shape %109 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 6, 1] : tensor<1x4x6xf32> into tensor<1x4x6x1xf32>
    %116 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%103, %expanded_10 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_48: f32, %in_49: f32, %out_35: f32):
      %117 = arith.subf %in_48, %in_49 : f32
      linalg.yield %117 : f32
    } -> tensor<1x4x6x6xf32>
    %118 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%116 : tensor<1x4x6x6xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_50: f32, %out_36: f32):
      %119 = math.exp %in_50 : f32
      linalg.yield %119 : f32
    } -> tensor<1x4x6x6xf32>
    %120 = tensor.empty() : tensor<1x4x6x1xf32>
    %121 = linalg.fill ins(%cst : f32) outs(%120 : tensor<1x4x6x1xf32>) -> tensor<1x4x6x1xf32>
    %122 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%118 : tensor<1x4x6x6xf32>) outs(%121 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_51: f32, %out_37: f32):
      %123 = arith.addf %in_51, %out_37 : f32
      linalg.yield %123 : f32
    } -> tensor<1x4x6x1xf32>
    %124 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%118, %122 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_52: f32, %in_53: f32, %out_38: f32):
      %125 = arith.divf %in_52, %in_53 : f32
      linalg.yield %125 : f32
    } -> tensor<1x4x6x6xf32>
    %126 = tensor.empty() : tensor<1x4x6x6xi1>
    %127 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%103 : tensor<1x4x6x6xf32>) outs(%126 : tensor<1x4x6x6xi1>) {
    ^bb0(%in_54: f32, %out_39: i1):
      %128 = arith.extf %in_54 : f32 to f64
      %129 = arith.cmpf oeq, %128, %cst_7 : f64
      linalg.yield %129 : i1
    } -> tensor<1x4x6x6xi1>
    %130 = tensor.empty() : tensor<1x4x6x1xi1>
    %131 = linalg.fill ins(%true : i1) outs(%130 : tensor<1x4x6x1xi1>) -> tensor<1x4x6x1xi1>
    %132 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%127 : tensor<1x4x6x6xi1>) outs(%131 : tensor<1x4x6x1xi1>) {
    ^bb0(%in_55: i1, %out_40: i1):
      %133 = arith.andi %in_55, %out_40 : i1
      linalg.yield %133 : i1
    } -> tensor<1x4x6x1xi1>
    %134 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%132, %cst_3, %124 : tensor<1x4x6x1xi1>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_56: i1, %in_57: f32, %in_58: f32, %out_41: f32):
      %135 = arith.select %in_56, %in_57, %in_58 : f32
      linalg.yield %135 : f32
    } -> tensor<1x4x6x6xf32>
    %collapsed_4 = tensor.collapse_shape %134 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x6xf32> into tensor<4x6x6xf32>
    %collapsed_5 = tensor.collapse_shape %90 [[0 : i64, 1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<4x6x16xf32>
    %136 = tensor.empty() : tensor<4x6x16xf32>
    %137 = linalg.fill ins(%cst : f32) outs(%136 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %138 = linalg.batch_matmul ins(%collapsed_4, %collapsed_5 : tensor<4x6x6xf32>, tensor<4x6x16xf32>) outs(%137 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %expanded_11 = tensor.expand_shape %138 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 16] : tensor<4x6x16xf32> into tensor<1x4x6x16xf32>
    %139 = tensor.empty() : tensor<1x6x4x16xf32>
    %transposed_7 = linalg.transpose ins(%expanded_11:tensor<1x4x6x16xf32>) outs(%139:tensor<1x6x4x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_8 = linalg.transpose ins(%model.layers.0.self_attn.o_proj.weight:tensor<64x64xf32>) outs(%59:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_6 = tensor.collapse_shape %transposed_7 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x6x4x16xf32> into tensor<6x64xf32>
    %140 = linalg.matmul ins(%collapsed_6, %transposed_8 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%61 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_12 = tensor.expand_shape %140 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %141 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %expanded_12 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_59: f32, %in_60: f32, %out_42: f32):
      %142 = arith.addf %in_59, %in_60 : f32
      linalg.yield %142 : f32
    } -> tensor<1x6x64xf32>
    %143 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%141 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_61: f32, %out_43: f32):
      %144 = math.fpowi %in_61, %c2_i64 : f32, i64
      linalg.yield %144 : f32
    } -> tensor<1x6x64xf32>
    %145 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%143 : tensor<1x6x64xf32>) outs(%45 : tensor<1x6x1xf32>) {
    ^bb0(%in_62: f32, %out_44: f32):
      %146 = arith.addf %in_62, %out_44 : f32
      linalg.yield %146 : f32
    } -> tensor<1x6x1xf32>
    %147 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%145 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_63: f32, %out_45: f32):
      %148 = arith.divf %in_63, %cst_10 : f32
      linalg.yield %148 : f32
    } -> tensor<1x6x1xf32>
    %149 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%147 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_64: f32, %out_46: f32):
      %150 = arith.truncf %cst_8 : f64 to f32
      %151 = arith.addf %in_64, %150 : f32
      linalg.yield %151 : f32
    } -> tensor<1x6x1xf32>
    %152 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%149 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_65: f32, %out_47: f32):
      %153 = math.rsqrt %in_65 : f32
      linalg.yield %153 : f32
    } -> tensor<1x6x1xf32>
    %154 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%141, %152 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_66: f32, %in_67: f32, %out_48: f32):
      %155 = arith.mulf %in_66, %in_67 : f32
      linalg.yield %155 : f32
    } -> tensor<1x6x64xf32>
    %156 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.0.post_attention_layernorm.weight, %154 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_68: f32, %in_69: f32, %out_49: f32):
      %157 = arith.mulf %in_68, %in_69 : f32
      linalg.yield %157 : f32
    } -> tensor<1x6x64xf32>
    %158 = tensor.empty() : tensor<64x128xf32>
    %transposed_9 = linalg.transpose ins(%model.layers.0.mlp.gate_proj.weight:tensor<128x64xf32>) outs(%158:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_7 = tensor.collapse_shape %156 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %159 = tensor.empty() : tensor<6x128xf32>
    %160 = linalg.fill ins(%cst : f32) outs(%159 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %161 = linalg.matmul ins(%collapsed_7, %transposed_9 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%160 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_13 = tensor.expand_shape %161 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %162 = tensor.empty() : tensor<1x6x128xf32>
    %163 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_13 : tensor<1x6x128xf32>) outs(%162 : tensor<1x6x128xf32>) {
    ^bb0(%in_70: f32, %out_50: f32):
      %164 = arith.negf %in_70 : f32
      %165 = math.exp %164 : f32
      %166 = arith.addf %165, %cst_2 : f32
      %167 = arith.divf %cst_2, %166 : f32
      linalg.yield %167 : f32
    } -> tensor<1x6x128xf32>
    %168 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_13, %163 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%162 : tensor<1x6x128xf32>) {
    ^bb0(%in_71: f32, %in_72: f32, %out_51: f32):
      %169 = arith.mulf %in_71, %in_72 : f32
      linalg.yield %169 : f32
    } -> tensor<1x6x128xf32>
    %transposed_10 = linalg.transpose ins(%model.layers.0.mlp.up_proj.weight:tensor<128x64xf32>) outs(%158:tensor<64x128xf32>) permutation = [1, 0]
    %170 = linalg.matmul ins(%collapsed_7, %transposed_10 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%160 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_14 = tensor.expand_shape %170 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %171 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%168, %expanded_14 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%162 : tensor<1x6x128xf32>) {
    ^bb0(%in_73: f32, %in_74: f32, %out_52: f32):
      %172 = arith.mulf %in_73, %in_74 : f32
      linalg.yield %172 : f32
    } -> tensor<1x6x128xf32>
    %173 = tensor.empty() : tensor<128x64xf32>
    %transposed_11 = linalg.transpose ins(%model.layers.0.mlp.down_proj.weight:tensor<64x128xf32>) outs(%173:tensor<128x64xf32>) permutation = [1, 0]
    %collapsed_8 = tensor.collapse_shape %171 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x128xf32> into tensor<6x128xf32>
    %174 = linalg.matmul ins(%collapsed_8, %transposed_11 : tensor<6x128xf32>, tensor<128x64xf32>) outs(%61 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_15 = tensor.expand_shape %174 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %175 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%141, %expanded_15 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_75: f32, %in_76: f32, %out_53: f32):
      %176 = arith.addf %in_75, %in_76 : f32
      linalg.yield %176 : f32
    } -> tensor<1x6x64xf32>
    %177 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%175 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_77: f32, %out_54: f32):
      %178 = math.fpowi %in_77, %c2_i64 : f32, i64
      linalg.yield %178 : f32
    } -> tensor<1x6x64xf32>
    %179 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%177 : tensor<1x6x64xf32>) outs(%45 : tensor<1x6x1xf32>) {
    ^bb0(%in_78: f32, %out_55: f32):
      %180 = arith.addf %in_78, %out_55 : f32
      linalg.yield %180 : f32
    } -> tensor<1x6x1xf32>
    %181 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%179 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_79: f32, %out_56: f32):
      %182 = arith.divf %in_79, %cst_10 : f32
      linalg.yield %182 : f32
    } -> tensor<1x6x1xf32>
    %183 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%181 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_80: f32, %out_57: f32):
      %184 = arith.truncf %cst_8 : f64 to f32
      %185 = arith.addf %in_80, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<1x6x1xf32>
    %186 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%183 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_81: f32, %out_58: f32):
      %187 = math.rsqrt %in_81 : f32
      linalg.yield %187 : f32
    } -> tensor<1x6x1xf32>
    %188 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%175, %186 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_82: f32, %in_83: f32, %out_59: f32):
      %189 = arith.mulf %in_82, %in_83 : f32
      linalg.yield %189 : f32
    } -> tensor<1x6x64xf32>
    %190 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.1.input_layernorm.weight, %188 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_84: f32, %in_85: f32, %out_60: f32):
      %191 = arith.mulf %in_84, %in_85 : f32
      linalg.yield %191 : f32
    } -> tensor<1x6x64xf32>
    %transposed_12 = linalg.transpose ins(%model.layers.1.self_attn.q_proj.weight:tensor<64x64xf32>) outs(%59:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_9 = tensor.collapse_shape %190 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %192 = linalg.matmul ins(%collapsed_9, %transposed_12 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%61 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_16 = tensor.expand_shape %192 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 4, 16] : tensor<6x64xf32> into tensor<1x6x4x16xf32>
    %transposed_13 = linalg.transpose ins(%expanded_16:tensor<1x6x4x16xf32>) outs(%63:tensor<1x4x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_14 = linalg.transpose ins(%model.layers.1.self_attn.k_proj.weight:tensor<32x64xf32>) outs(%64:tensor<64x32xf32>) permutation = [1, 0]
    %193 = linalg.matmul ins(%collapsed_9, %transposed_14 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%66 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_17 = tensor.expand_shape %193 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_15 = linalg.transpose ins(%expanded_17:tensor<1x6x2x16xf32>) outs(%68:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_16 = linalg.transpose ins(%model.layers.1.self_attn.v_proj.weight:tensor<32x64xf32>) outs(%64:tensor<64x32xf32>) permutation = [1, 0]
    %194 = linalg.matmul ins(%collapsed_9, %transposed_16 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%66 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_18 = tensor.expand_shape %194 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_17 = linalg.transpose ins(%expanded_18:tensor<1x6x2x16xf32>) outs(%68:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %195 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_13, %expanded_7 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%63 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_86: f32, %in_87: f32, %out_61: f32):
      %196 = arith.mulf %in_86, %in_87 : f32
      linalg.yield %196 : f32
    } -> tensor<1x4x6x16xf32>
    %extracted_slice_4 = tensor.extract_slice %transposed_13[0, 0, 0, 0] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %extracted_slice_5 = tensor.extract_slice %transposed_13[0, 0, 0, 8] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %197 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_5 : tensor<1x4x6x8xf32>) outs(%72 : tensor<1x4x6x8xf32>) {
    ^bb0(%in_88: f32, %out_62: f32):
      %198 = arith.negf %in_88 : f32
      linalg.yield %198 : f32
    } -> tensor<1x4x6x8xf32>
    %concat_3 = tensor.concat dim(3) %197, %extracted_slice_4 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x16xf32>
    %199 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_3, %expanded_8 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%63 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_89: f32, %in_90: f32, %out_63: f32):
      %200 = arith.mulf %in_89, %in_90 : f32
      linalg.yield %200 : f32
    } -> tensor<1x4x6x16xf32>
    %201 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%195, %199 : tensor<1x4x6x16xf32>, tensor<1x4x6x16xf32>) outs(%63 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_91: f32, %in_92: f32, %out_64: f32):
      %202 = arith.addf %in_91, %in_92 : f32
      linalg.yield %202 : f32
    } -> tensor<1x4x6x16xf32>
    %203 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_15, %expanded_7 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%68 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_93: f32, %in_94: f32, %out_65: f32):
      %204 = arith.mulf %in_93, %in_94 : f32
      linalg.yield %204 : f32
    } -> tensor<1x2x6x16xf32>
    %extracted_slice_6 = tensor.extract_slice %transposed_15[0, 0, 0, 0] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %extracted_slice_7 = tensor.extract_slice %transposed_15[0, 0, 0, 8] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %205 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_7 : tensor<1x2x6x8xf32>) outs(%81 : tensor<1x2x6x8xf32>) {
    ^bb0(%in_95: f32, %out_66: f32):
      %206 = arith.negf %in_95 : f32
      linalg.yield %206 : f32
    } -> tensor<1x2x6x8xf32>
    %concat_4 = tensor.concat dim(3) %205, %extracted_slice_6 : (tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x16xf32>
    %207 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_4, %expanded_8 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%68 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_96: f32, %in_97: f32, %out_67: f32):
      %208 = arith.mulf %in_96, %in_97 : f32
      linalg.yield %208 : f32
    } -> tensor<1x2x6x16xf32>
    %209 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%203, %207 : tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) outs(%68 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_98: f32, %in_99: f32, %out_68: f32):
      %210 = arith.addf %in_98, %in_99 : f32
      linalg.yield %210 : f32
    } -> tensor<1x2x6x16xf32>
    %211 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%209 : tensor<1x2x6x16xf32>) outs(%88 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_100: f32, %out_69: f32):
      linalg.yield %in_100 : f32
    } -> tensor<1x2x2x6x16xf32>
    %collapsed_10 = tensor.collapse_shape %211 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<1x4x6x16xf32>
    %212 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_17 : tensor<1x2x6x16xf32>) outs(%88 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_101: f32, %out_70: f32):
      linalg.yield %in_101 : f32
    } -> tensor<1x2x2x6x16xf32>
    %213 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%201 : tensor<1x4x6x16xf32>) outs(%63 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_102: f32, %out_71: f32):
      %214 = arith.mulf %in_102, %cst_11 : f32
      linalg.yield %214 : f32
    } -> tensor<1x4x6x16xf32>
    %transposed_18 = linalg.transpose ins(%collapsed_10:tensor<1x4x6x16xf32>) outs(%96:tensor<1x4x16x6xf32>) permutation = [0, 1, 3, 2]
    %215 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_18 : tensor<1x4x16x6xf32>) outs(%96 : tensor<1x4x16x6xf32>) {
    ^bb0(%in_103: f32, %out_72: f32):
      %216 = arith.mulf %in_103, %cst_11 : f32
      linalg.yield %216 : f32
    } -> tensor<1x4x16x6xf32>
    %collapsed_11 = tensor.collapse_shape %213 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x16xf32> into tensor<4x6x16xf32>
    %collapsed_12 = tensor.collapse_shape %215 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x16x6xf32> into tensor<4x16x6xf32>
    %217 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<4x6x16xf32>, tensor<4x16x6xf32>) outs(%100 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %expanded_19 = tensor.expand_shape %217 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 6] : tensor<4x6x6xf32> into tensor<1x4x6x6xf32>
    %218 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_19, %92 : tensor<1x4x6x6xf32>, tensor<1x1x6x6xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_104: f32, %in_105: f32, %out_73: f32):
      %219 = arith.addf %in_104, %in_105 : f32
      linalg.yield %219 : f32
    } -> tensor<1x4x6x6xf32>
    %220, %221 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%218 : tensor<1x4x6x6xf32>) outs(%108, %106 : tensor<1x4x6xf32>, tensor<1x4x6xi64>) {
    ^bb0(%in_106: f32, %out_74: f32, %out_75: i64):
      %222 = linalg.index 3 : index
      %223 = arith.index_cast %222 : index to i64
      %224 = arith.maximumf %in_106, %out_74 : f32
      %225 = arith.cmpf ogt, %in_106, %out_74 : f32
      %226 = arith.select %225, %223, %out_75 : i64
      linalg.yield %224, %226 : f32, i64
    } -> (tensor<1x4x6xf32>, tensor<1x4x6xi64>)
    %expanded_20 = tensor.expand_shape %220 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 6, 1] : tensor<1x4x6xf32> into tensor<1x4x6x1xf32>
    %227 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%218, %expanded_20 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_107: f32, %in_108: f32, %out_76: f32):
      %228 = arith.subf %in_107, %in_108 : f32
      linalg.yield %228 : f32
    } -> tensor<1x4x6x6xf32>
    %229 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%227 : tensor<1x4x6x6xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_109: f32, %out_77: f32):
      %230 = math.exp %in_109 : f32
      linalg.yield %230 : f32
    } -> tensor<1x4x6x6xf32>
    %231 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%229 : tensor<1x4x6x6xf32>) outs(%121 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_110: f32, %out_78: f32):
      %232 = arith.addf %in_110, %out_78 : f32
      linalg.yield %232 : f32
    } -> tensor<1x4x6x1xf32>
    %233 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%229, %231 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_111: f32, %in_112: f32, %out_79: f32):
      %234 = arith.divf %in_111, %in_112 : f32
      linalg.yield %234 : f32
    } -> tensor<1x4x6x6xf32>
    %235 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%218 : tensor<1x4x6x6xf32>) outs(%126 : tensor<1x4x6x6xi1>) {
    ^bb0(%in_113: f32, %out_80: i1):
      %236 = arith.extf %in_113 : f32 to f64
      %237 = arith.cmpf oeq, %236, %cst_7 : f64
      linalg.yield %237 : i1
    } -> tensor<1x4x6x6xi1>
    %238 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%235 : tensor<1x4x6x6xi1>) outs(%131 : tensor<1x4x6x1xi1>) {
    ^bb0(%in_114: i1, %out_81: i1):
      %239 = arith.andi %in_114, %out_81 : i1
      linalg.yield %239 : i1
    } -> tensor<1x4x6x1xi1>
    %240 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%238, %cst_3, %233 : tensor<1x4x6x1xi1>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%102 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_115: i1, %in_116: f32, %in_117: f32, %out_82: f32):
      %241 = arith.select %in_115, %in_116, %in_117 : f32
      linalg.yield %241 : f32
    } -> tensor<1x4x6x6xf32>
    %collapsed_13 = tensor.collapse_shape %240 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x6xf32> into tensor<4x6x6xf32>
    %collapsed_14 = tensor.collapse_shape %212 [[0 : i64, 1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<4x6x16xf32>
    %242 = linalg.batch_matmul ins(%collapsed_13, %collapsed_14 : tensor<4x6x6xf32>, tensor<4x6x16xf32>) outs(%137 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %expanded_21 = tensor.expand_shape %242 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 16] : tensor<4x6x16xf32> into tensor<1x4x6x16xf32>
    %transposed_19 = linalg.transpose ins(%expanded_21:tensor<1x4x6x16xf32>) outs(%139:tensor<1x6x4x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_20 = linalg.transpose ins(%model.layers.1.self_attn.o_proj.weight:tensor<64x64xf32>) outs(%59:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_15 = tensor.collapse_shape %transposed_19 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x6x4x16xf32> into tensor<6x64xf32>
    %243 = linalg.matmul ins(%collapsed_15, %transposed_20 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%61 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_22 = tensor.expand_shape %243 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %244 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%175, %expanded_22 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_118: f32, %in_119: f32, %out_83: f32):
      %245 = arith.addf %in_118, %in_119 : f32
      linalg.yield %245 : f32
    } -> tensor<1x6x64xf32>
    %246 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%244 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_120: f32, %out_84: f32):
      %247 = math.fpowi %in_120, %c2_i64 : f32, i64
      linalg.yield %247 : f32
    } -> tensor<1x6x64xf32>
    %248 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%246 : tensor<1x6x64xf32>) outs(%45 : tensor<1x6x1xf32>) {
    ^bb0(%in_121: f32, %out_85: f32):
      %249 = arith.addf %in_121, %out_85 : f32
      linalg.yield %249 : f32
    } -> tensor<1x6x1xf32>
    %250 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%248 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_122: f32, %out_86: f32):
      %251 = arith.divf %in_122, %cst_10 : f32
      linalg.yield %251 : f32
    } -> tensor<1x6x1xf32>
    %252 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%250 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_123: f32, %out_87: f32):
      %253 = arith.truncf %cst_8 : f64 to f32
      %254 = arith.addf %in_123, %253 : f32
      linalg.yield %254 : f32
    } -> tensor<1x6x1xf32>
    %255 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%252 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_124: f32, %out_88: f32):
      %256 = math.rsqrt %in_124 : f32
      linalg.yield %256 : f32
    } -> tensor<1x6x1xf32>
    %257 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%244, %255 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_125: f32, %in_126: f32, %out_89: f32):
      %258 = arith.mulf %in_125, %in_126 : f32
      linalg.yield %258 : f32
    } -> tensor<1x6x64xf32>
    %259 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.1.post_attention_layernorm.weight, %257 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_127: f32, %in_128: f32, %out_90: f32):
      %260 = arith.mulf %in_127, %in_128 : f32
      linalg.yield %260 : f32
    } -> tensor<1x6x64xf32>
    %transposed_21 = linalg.transpose ins(%model.layers.1.mlp.gate_proj.weight:tensor<128x64xf32>) outs(%158:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_16 = tensor.collapse_shape %259 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %261 = linalg.matmul ins(%collapsed_16, %transposed_21 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%160 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_23 = tensor.expand_shape %261 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %262 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_23 : tensor<1x6x128xf32>) outs(%162 : tensor<1x6x128xf32>) {
    ^bb0(%in_129: f32, %out_91: f32):
      %263 = arith.negf %in_129 : f32
      %264 = math.exp %263 : f32
      %265 = arith.addf %264, %cst_2 : f32
      %266 = arith.divf %cst_2, %265 : f32
      linalg.yield %266 : f32
    } -> tensor<1x6x128xf32>
    %267 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_23, %262 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%162 : tensor<1x6x128xf32>) {
    ^bb0(%in_130: f32, %in_131: f32, %out_92: f32):
      %268 = arith.mulf %in_130, %in_131 : f32
      linalg.yield %268 : f32
    } -> tensor<1x6x128xf32>
    %transposed_22 = linalg.transpose ins(%model.layers.1.mlp.up_proj.weight:tensor<128x64xf32>) outs(%158:tensor<64x128xf32>) permutation = [1, 0]
    %269 = linalg.matmul ins(%collapsed_16, %transposed_22 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%160 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_24 = tensor.expand_shape %269 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %270 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%267, %expanded_24 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%162 : tensor<1x6x128xf32>) {
    ^bb0(%in_132: f32, %in_133: f32, %out_93: f32):
      %271 = arith.mulf %in_132, %in_133 : f32
      linalg.yield %271 : f32
    } -> tensor<1x6x128xf32>
    %transposed_23 = linalg.transpose ins(%model.layers.1.mlp.down_proj.weight:tensor<64x128xf32>) outs(%173:tensor<128x64xf32>) permutation = [1, 0]
    %collapsed_17 = tensor.collapse_shape %270 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x128xf32> into tensor<6x128xf32>
    %272 = linalg.matmul ins(%collapsed_17, %transposed_23 : tensor<6x128xf32>, tensor<128x64xf32>) outs(%61 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_25 = tensor.expand_shape %272 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %273 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%244, %expanded_25 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_134: f32, %in_135: f32, %out_94: f32):
      %274 = arith.addf %in_134, %in_135 : f32
      linalg.yield %274 : f32
    } -> tensor<1x6x64xf32>
    %275 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%273 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_136: f32, %out_95: f32):
      %276 = math.fpowi %in_136, %c2_i64 : f32, i64
      linalg.yield %276 : f32
    } -> tensor<1x6x64xf32>
    %277 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%275 : tensor<1x6x64xf32>) outs(%45 : tensor<1x6x1xf32>) {
    ^bb0(%in_137: f32, %out_96: f32):
      %278 = arith.addf %in_137, %out_96 : f32
      linalg.yield %278 : f32
    } -> tensor<1x6x1xf32>
    %279 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%277 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_138: f32, %out_97: f32):
      %280 = arith.divf %in_138, %cst_10 : f32
      linalg.yield %280 : f32
    } -> tensor<1x6x1xf32>
    %281 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%279 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_139: f32, %out_98: f32):
      %282 = arith.truncf %cst_8 : f64 to f32
      %283 = arith.addf %in_139, %282 : f32
      linalg.yield %283 : f32
    } -> tensor<1x6x1xf32>
    %284 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%281 : tensor<1x6x1xf32>) outs(%32 : tensor<1x6x1xf32>) {
    ^bb0(%in_140: f32, %out_99: f32):
      %285 = math.rsqrt %in_140 : f32
      linalg.yield %285 : f32
    } -> tensor<1x6x1xf32>
    %286 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%273, %284 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_141: f32, %in_142: f32, %out_100: f32):
      %287 = arith.mulf %in_141, %in_142 : f32
      linalg.yield %287 : f32
    } -> tensor<1x6x64xf32>
    %288 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.norm.weight, %286 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_143: f32, %in_144: f32, %out_101: f32):
      %289 = arith.mulf %in_143, %in_144 : f32
      linalg.yield %289 : f32
    } -> tensor<1x6x64xf32>
    %transposed_24 = linalg.transpose ins(%model.embed_tokens.weight:tensor<128x64xf32>) outs(%158:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_18 = tensor.collapse_shape %288 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %290 = linalg.matmul ins(%collapsed_18, %transposed_24 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%160 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_26 = tensor.expand_shape %290 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    func.return %expanded_26 : tensor<1x6x128xf32>
  }
}
