// Qwen2ForCausalLM (random weights) exported by examples/hf/export.py
builtin.module {
  func.func @main(%input_ids: tensor<1x6xi64>, %model.embed_tokens.weight: tensor<128x64xf32>, %model.layers.0.self_attn.q_proj.weight: tensor<64x64xf32>, %model.layers.0.self_attn.q_proj.bias: tensor<64xf32>, %model.layers.0.self_attn.k_proj.weight: tensor<32x64xf32>, %model.layers.0.self_attn.k_proj.bias: tensor<32xf32>, %model.layers.0.self_attn.v_proj.weight: tensor<32x64xf32>, %model.layers.0.self_attn.v_proj.bias: tensor<32xf32>, %model.layers.0.self_attn.o_proj.weight: tensor<64x64xf32>, %model.layers.0.mlp.gate_proj.weight: tensor<128x64xf32>, %model.layers.0.mlp.up_proj.weight: tensor<128x64xf32>, %model.layers.0.mlp.down_proj.weight: tensor<64x128xf32>, %model.layers.0.input_layernorm.weight: tensor<64xf32>, %model.layers.0.post_attention_layernorm.weight: tensor<64xf32>, %model.layers.1.self_attn.q_proj.weight: tensor<64x64xf32>, %model.layers.1.self_attn.q_proj.bias: tensor<64xf32>, %model.layers.1.self_attn.k_proj.weight: tensor<32x64xf32>, %model.layers.1.self_attn.k_proj.bias: tensor<32xf32>, %model.layers.1.self_attn.v_proj.weight: tensor<32x64xf32>, %model.layers.1.self_attn.v_proj.bias: tensor<32xf32>, %model.layers.1.self_attn.o_proj.weight: tensor<64x64xf32>, %model.layers.1.mlp.gate_proj.weight: tensor<128x64xf32>, %model.layers.1.mlp.up_proj.weight: tensor<128x64xf32>, %model.layers.1.mlp.down_proj.weight: tensor<64x128xf32>, %model.layers.1.input_layernorm.weight: tensor<64xf32>, %model.layers.1.post_attention_layernorm.weight: tensor<64xf32>, %model.norm.weight: tensor<64xf32>, %lm_head.weight: tensor<128x64xf32>) -> tensor<1x6x128xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %c1_i64 = arith.constant 1 : i64
    %c6_i64 = arith.constant 6 : i64
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
    %expanded = tensor.expand_shape %7 [[0 : i64, 1 : i64]] output_shape [1, 6] : tensor<6xi64> into tensor<1x6xi64>
    %extracted_slice = tensor.extract_slice %expanded[0, 0] [1, 1] [1, 1] : tensor<1x6xi64> to tensor<1x1xi64>
    %10 = tensor.empty() : tensor<1x1xi64>
    %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice : tensor<1x1xi64>) outs(%10 : tensor<1x1xi64>) {
    ^bb0(%in_1: i64, %out_2: i64):
      %12 = arith.subi %in_1, %c1_i64 : i64
      linalg.yield %12 : i64
    } -> tensor<1x1xi64>
    %concat = tensor.concat dim(1) %11, %expanded : (tensor<1x1xi64>, tensor<1x6xi64>) -> tensor<1x7xi64>
    %extracted_slice_1 = tensor.extract_slice %concat[0, 0] [1, 6] [1, 1] : tensor<1x7xi64> to tensor<1x6xi64>
    %extracted_slice_2 = tensor.extract_slice %concat[0, 1] [1, 6] [1, 1] : tensor<1x7xi64> to tensor<1x6xi64>
    %13 = tensor.empty() : tensor<1x6xi64>
    %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_2, %extracted_slice_1 : tensor<1x6xi64>, tensor<1x6xi64>) outs(%13 : tensor<1x6xi64>) {
    ^bb0(%in_2: i64, %in_3: i64, %out_3: i64):
      %15 = arith.subi %in_2, %in_3 : i64
      linalg.yield %15 : i64
    } -> tensor<1x6xi64>
    %16 = tensor.empty() : tensor<1x6xi1>
    %17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%14 : tensor<1x6xi64>) outs(%16 : tensor<1x6xi1>) {
    ^bb0(%in_4: i64, %out_4: i1):
      %18 = arith.cmpi ne, %in_4, %c1_i64 : i64
      linalg.yield %18 : i1
    } -> tensor<1x6xi1>
    %19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%17 : tensor<1x6xi1>) outs(%13 : tensor<1x6xi64>) {
    ^bb0(%in_5: i1, %out_5: i64):
      %20 = arith.extui %in_5 : i1 to i64
      linalg.yield %20 : i64
    } -> tensor<1x6xi64>
    %21 = linalg.fill ins(%c0_i64 : i64) outs(%13 : tensor<1x6xi64>) -> tensor<1x6xi64>
    %22 = tensor.empty() : tensor<1xi64>
    %23 = linalg.fill ins(%c0_i64 : i64) outs(%22 : tensor<1xi64>) -> tensor<1xi64>
    %24, %25 = tm_tensor.scan dimension(1) inclusive(true) ins(%19 : tensor<1x6xi64>) outs(%21, %23 : tensor<1x6xi64>, tensor<1xi64>) {
    ^bb0(%arg28: i64, %arg29: i64):
      %26 = arith.addi %arg28, %arg29 : i64
      tm_tensor.yield %26 : i64
    } -> tensor<1x6xi64>, tensor<1xi64>
    %27 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%22 : tensor<1xi64>) {
    ^bb0(%out_6: i64):
      linalg.yield %c0_i64 : i64
    } -> tensor<1xi64>
    %expanded_1 = tensor.expand_shape %27 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, 1, 1] : tensor<1xi64> into tensor<1x1x1x1xi64>
    %expanded_2 = tensor.expand_shape %7 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, 6, 1] : tensor<6xi64> into tensor<1x1x6x1xi64>
    %expanded_3 = tensor.expand_shape %7 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, 1, 6] : tensor<6xi64> into tensor<1x1x1x6xi64>
    %28 = tensor.empty() : tensor<1x1x6x1xi64>
    %29 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, 0, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_1, %expanded_2 : tensor<1x1x1x1xi64>, tensor<1x1x6x1xi64>) outs(%28 : tensor<1x1x6x1xi64>) {
    ^bb0(%in_6: i64, %in_7: i64, %out_7: i64):
      %30 = arith.cmpi slt, %in_6, %c0_i64 : i64
      %31 = arith.addi %in_6, %c1_i64 : i64
      %32 = arith.select %30, %31, %in_6 : i64
      %33 = arith.index_cast %32 : i64 to index
      %34 = arith.cmpi slt, %in_7, %c0_i64 : i64
      %35 = arith.addi %in_7, %c6_i64 : i64
      %36 = arith.select %34, %35, %in_7 : i64
      %37 = arith.index_cast %36 : i64 to index
      %extracted_1 = tensor.extract %expanded[%33, %37] : tensor<1x6xi64>
      linalg.yield %extracted_1 : i64
    } -> tensor<1x1x6x1xi64>
    %38 = tensor.empty() : tensor<1x1x1x6xi64>
    %39 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_1, %expanded_3 : tensor<1x1x1x1xi64>, tensor<1x1x1x6xi64>) outs(%38 : tensor<1x1x1x6xi64>) {
    ^bb0(%in_8: i64, %in_9: i64, %out_8: i64):
      %40 = arith.cmpi slt, %in_8, %c0_i64 : i64
      %41 = arith.addi %in_8, %c1_i64 : i64
      %42 = arith.select %40, %41, %in_8 : i64
      %43 = arith.index_cast %42 : i64 to index
      %44 = arith.cmpi slt, %in_9, %c0_i64 : i64
      %45 = arith.addi %in_9, %c6_i64 : i64
      %46 = arith.select %44, %45, %in_9 : i64
      %47 = arith.index_cast %46 : i64 to index
      %extracted_2 = tensor.extract %expanded[%43, %47] : tensor<1x6xi64>
      linalg.yield %extracted_2 : i64
    } -> tensor<1x1x1x6xi64>
    %48 = tensor.empty() : tensor<1x1x6x6xi1>
    %49 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39, %29 : tensor<1x1x1x6xi64>, tensor<1x1x6x1xi64>) outs(%48 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_10: i64, %in_11: i64, %out_9: i1):
      %50 = arith.cmpi sle, %in_10, %in_11 : i64
      linalg.yield %50 : i1
    } -> tensor<1x1x6x6xi1>
    %51 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_6, %49 : tensor<i1>, tensor<1x1x6x6xi1>) outs(%48 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_12: i1, %in_13: i1, %out_10: i1):
      %52 = arith.andi %in_12, %in_13 : i1
      linalg.yield %52 : i1
    } -> tensor<1x1x6x6xi1>
    %53 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, 0, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_1, %expanded_2 : tensor<1x1x1x1xi64>, tensor<1x1x6x1xi64>) outs(%28 : tensor<1x1x6x1xi64>) {
    ^bb0(%in_14: i64, %in_15: i64, %out_11: i64):
      %54 = arith.cmpi slt, %in_14, %c0_i64 : i64
      %55 = arith.addi %in_14, %c1_i64 : i64
      %56 = arith.select %54, %55, %in_14 : i64
      %57 = arith.index_cast %56 : i64 to index
      %58 = arith.cmpi slt, %in_15, %c0_i64 : i64
      %59 = arith.addi %in_15, %c6_i64 : i64
      %60 = arith.select %58, %59, %in_15 : i64
      %61 = arith.index_cast %60 : i64 to index
      %extracted_3 = tensor.extract %24[%57, %61] : tensor<1x6xi64>
      linalg.yield %extracted_3 : i64
    } -> tensor<1x1x6x1xi64>
    %62 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_1, %expanded_3 : tensor<1x1x1x1xi64>, tensor<1x1x1x6xi64>) outs(%38 : tensor<1x1x1x6xi64>) {
    ^bb0(%in_16: i64, %in_17: i64, %out_12: i64):
      %63 = arith.cmpi slt, %in_16, %c0_i64 : i64
      %64 = arith.addi %in_16, %c1_i64 : i64
      %65 = arith.select %63, %64, %in_16 : i64
      %66 = arith.index_cast %65 : i64 to index
      %67 = arith.cmpi slt, %in_17, %c0_i64 : i64
      %68 = arith.addi %in_17, %c6_i64 : i64
      %69 = arith.select %67, %68, %in_17 : i64
      %70 = arith.index_cast %69 : i64 to index
      %extracted_4 = tensor.extract %24[%66, %70] : tensor<1x6xi64>
      linalg.yield %extracted_4 : i64
    } -> tensor<1x1x1x6xi64>
    %71 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%53, %62 : tensor<1x1x6x1xi64>, tensor<1x1x1x6xi64>) outs(%48 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_18: i64, %in_19: i64, %out_13: i1):
      %72 = arith.cmpi eq, %in_18, %in_19 : i64
      linalg.yield %72 : i1
    } -> tensor<1x1x6x6xi1>
    %73 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%51, %71 : tensor<1x1x6x6xi1>, tensor<1x1x6x6xi1>) outs(%48 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_20: i1, %in_21: i1, %out_14: i1):
      %74 = arith.andi %in_20, %in_21 : i1
      linalg.yield %74 : i1
    } -> tensor<1x1x6x6xi1>
    %expanded_4 = tensor.expand_shape %7 [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 6, 1] : tensor<6xi64> into tensor<1x6x1xi64>
    %75 = tensor.empty() : tensor<1x6x1xf32>
    %76 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_4 : tensor<1x6x1xi64>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_22: i64, %out_15: f32):
      %77 = arith.sitofp %in_22 : i64 to f32
      linalg.yield %77 : f32
    } -> tensor<1x6x1xf32>
    %78 = tensor.empty() : tensor<1x6x8xf32>
    %79 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%76, %cst_9 : tensor<1x6x1xf32>, tensor<8xf32>) outs(%78 : tensor<1x6x8xf32>) {
    ^bb0(%in_23: f32, %in_24: f32, %out_16: f32):
      %80 = arith.mulf %in_23, %in_24 : f32
      linalg.yield %80 : f32
    } -> tensor<1x6x8xf32>
    %concat_1 = tensor.concat dim(2) %79, %79 : (tensor<1x6x8xf32>, tensor<1x6x8xf32>) -> tensor<1x6x16xf32>
    %81 = tensor.empty() : tensor<1x6x16xf32>
    %82 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_1 : tensor<1x6x16xf32>) outs(%81 : tensor<1x6x16xf32>) {
    ^bb0(%in_25: f32, %out_17: f32):
      %83 = math.cos %in_25 : f32
      linalg.yield %83 : f32
    } -> tensor<1x6x16xf32>
    %84 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_1 : tensor<1x6x16xf32>) outs(%81 : tensor<1x6x16xf32>) {
    ^bb0(%in_26: f32, %out_18: f32):
      %85 = math.sin %in_26 : f32
      linalg.yield %85 : f32
    } -> tensor<1x6x16xf32>
    %86 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_27: f32, %out_19: f32):
      %87 = math.fpowi %in_27, %c2_i64 : f32, i64
      linalg.yield %87 : f32
    } -> tensor<1x6x64xf32>
    %88 = linalg.fill ins(%cst : f32) outs(%75 : tensor<1x6x1xf32>) -> tensor<1x6x1xf32>
    %89 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%86 : tensor<1x6x64xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_28: f32, %out_20: f32):
      %90 = arith.addf %in_28, %out_20 : f32
      linalg.yield %90 : f32
    } -> tensor<1x6x1xf32>
    %91 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%89 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_29: f32, %out_21: f32):
      %92 = arith.divf %in_29, %cst_10 : f32
      linalg.yield %92 : f32
    } -> tensor<1x6x1xf32>
    %93 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_30: f32, %out_22: f32):
      %94 = arith.truncf %cst_8 : f64 to f32
      %95 = arith.addf %in_30, %94 : f32
      linalg.yield %95 : f32
    } -> tensor<1x6x1xf32>
    %96 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%93 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_31: f32, %out_23: f32):
      %97 = math.rsqrt %in_31 : f32
      linalg.yield %97 : f32
    } -> tensor<1x6x1xf32>
    %98 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %96 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_32: f32, %in_33: f32, %out_24: f32):
      %99 = arith.mulf %in_32, %in_33 : f32
      linalg.yield %99 : f32
    } -> tensor<1x6x64xf32>
    %100 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.0.input_layernorm.weight, %98 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_34: f32, %in_35: f32, %out_25: f32):
      %101 = arith.mulf %in_34, %in_35 : f32
      linalg.yield %101 : f32
    } -> tensor<1x6x64xf32>
    %collapsed = tensor.collapse_shape %100 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %102 = tensor.empty() : tensor<64x64xf32>
    %transposed = linalg.transpose ins(%model.layers.0.self_attn.q_proj.weight:tensor<64x64xf32>) outs(%102:tensor<64x64xf32>) permutation = [1, 0]
    %103 = tensor.empty() : tensor<6x64xf32>
    %104 = linalg.fill ins(%cst : f32) outs(%103 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %105 = linalg.matmul ins(%collapsed, %transposed : tensor<6x64xf32>, tensor<64x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %106 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%105, %model.layers.0.self_attn.q_proj.bias : tensor<6x64xf32>, tensor<64xf32>) outs(%103 : tensor<6x64xf32>) {
    ^bb0(%in_36: f32, %in_37: f32, %out_26: f32):
      %107 = arith.addf %in_36, %in_37 : f32
      linalg.yield %107 : f32
    } -> tensor<6x64xf32>
    %expanded_5 = tensor.expand_shape %106 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 4, 16] : tensor<6x64xf32> into tensor<1x6x4x16xf32>
    %108 = tensor.empty() : tensor<1x4x6x16xf32>
    %transposed_1 = linalg.transpose ins(%expanded_5:tensor<1x6x4x16xf32>) outs(%108:tensor<1x4x6x16xf32>) permutation = [0, 2, 1, 3]
    %109 = tensor.empty() : tensor<64x32xf32>
    %transposed_2 = linalg.transpose ins(%model.layers.0.self_attn.k_proj.weight:tensor<32x64xf32>) outs(%109:tensor<64x32xf32>) permutation = [1, 0]
    %110 = tensor.empty() : tensor<6x32xf32>
    %111 = linalg.fill ins(%cst : f32) outs(%110 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %112 = linalg.matmul ins(%collapsed, %transposed_2 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%111 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %113 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%112, %model.layers.0.self_attn.k_proj.bias : tensor<6x32xf32>, tensor<32xf32>) outs(%110 : tensor<6x32xf32>) {
    ^bb0(%in_38: f32, %in_39: f32, %out_27: f32):
      %114 = arith.addf %in_38, %in_39 : f32
      linalg.yield %114 : f32
    } -> tensor<6x32xf32>
    %expanded_6 = tensor.expand_shape %113 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %115 = tensor.empty() : tensor<1x2x6x16xf32>
    %transposed_3 = linalg.transpose ins(%expanded_6:tensor<1x6x2x16xf32>) outs(%115:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_4 = linalg.transpose ins(%model.layers.0.self_attn.v_proj.weight:tensor<32x64xf32>) outs(%109:tensor<64x32xf32>) permutation = [1, 0]
    %116 = linalg.matmul ins(%collapsed, %transposed_4 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%111 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %117 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%116, %model.layers.0.self_attn.v_proj.bias : tensor<6x32xf32>, tensor<32xf32>) outs(%110 : tensor<6x32xf32>) {
    ^bb0(%in_40: f32, %in_41: f32, %out_28: f32):
      %118 = arith.addf %in_40, %in_41 : f32
      linalg.yield %118 : f32
    } -> tensor<6x32xf32>
    %expanded_7 = tensor.expand_shape %117 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_5 = linalg.transpose ins(%expanded_7:tensor<1x6x2x16xf32>) outs(%115:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %expanded_8 = tensor.expand_shape %82 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 16] : tensor<1x6x16xf32> into tensor<1x1x6x16xf32>
    %expanded_9 = tensor.expand_shape %84 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 16] : tensor<1x6x16xf32> into tensor<1x1x6x16xf32>
    %119 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_1, %expanded_8 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%108 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_42: f32, %in_43: f32, %out_29: f32):
      %120 = arith.mulf %in_42, %in_43 : f32
      linalg.yield %120 : f32
    } -> tensor<1x4x6x16xf32>
    %extracted_slice_3 = tensor.extract_slice %transposed_1[0, 0, 0, 0] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %extracted_slice_4 = tensor.extract_slice %transposed_1[0, 0, 0, 8] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %121 = tensor.empty() : tensor<1x4x6x8xf32>
    %122 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_4 : tensor<1x4x6x8xf32>) outs(%121 : tensor<1x4x6x8xf32>) {
    ^bb0(%in_44: f32, %out_30: f32):
      %123 = arith.negf %in_44 : f32
      linalg.yield %123 : f32
    } -> tensor<1x4x6x8xf32>
    %concat_2 = tensor.concat dim(3) %122, %extracted_slice_3 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x16xf32>
    %124 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_2, %expanded_9 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%108 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_45: f32, %in_46: f32, %out_31: f32):
      %125 = arith.mulf %in_45, %in_46 : f32
      linalg.yield %125 : f32
    } -> tensor<1x4x6x16xf32>
    %126 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%119, %124 : tensor<1x4x6x16xf32>, tensor<1x4x6x16xf32>) outs(%108 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_47: f32, %in_48: f32, %out_32: f32):
      %127 = arith.addf %in_47, %in_48 : f32
      linalg.yield %127 : f32
    } -> tensor<1x4x6x16xf32>
    %128 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_3, %expanded_8 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%115 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_49: f32, %in_50: f32, %out_33: f32):
      %129 = arith.mulf %in_49, %in_50 : f32
      linalg.yield %129 : f32
    } -> tensor<1x2x6x16xf32>
    %extracted_slice_5 = tensor.extract_slice %transposed_3[0, 0, 0, 0] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %extracted_slice_6 = tensor.extract_slice %transposed_3[0, 0, 0, 8] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %130 = tensor.empty() : tensor<1x2x6x8xf32>
    %131 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_6 : tensor<1x2x6x8xf32>) outs(%130 : tensor<1x2x6x8xf32>) {
    ^bb0(%in_51: f32, %out_34: f32):
      %132 = arith.negf %in_51 : f32
      linalg.yield %132 : f32
    } -> tensor<1x2x6x8xf32>
    %concat_3 = tensor.concat dim(3) %131, %extracted_slice_5 : (tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x16xf32>
    %133 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_3, %expanded_9 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%115 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_52: f32, %in_53: f32, %out_35: f32):
      %134 = arith.mulf %in_52, %in_53 : f32
      linalg.yield %134 : f32
    } -> tensor<1x2x6x16xf32>
    %135 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%128, %133 : tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) outs(%115 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_54: f32, %in_55: f32, %out_36: f32):
      %136 = arith.addf %in_54, %in_55 : f32
      linalg.yield %136 : f32
    } -> tensor<1x2x6x16xf32>
    %137 = tensor.empty() : tensor<1x2x2x6x16xf32>
    %138 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%135 : tensor<1x2x6x16xf32>) outs(%137 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_56: f32, %out_37: f32):
      linalg.yield %in_56 : f32
    } -> tensor<1x2x2x6x16xf32>
    %collapsed_1 = tensor.collapse_shape %138 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<1x4x6x16xf32>
    %139 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_5 : tensor<1x2x6x16xf32>) outs(%137 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_57: f32, %out_38: f32):
      linalg.yield %in_57 : f32
    } -> tensor<1x2x2x6x16xf32>
    %140 = tensor.empty() : tensor<1x1x6x6xf32>
    %141 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73, %cst_4, %cst_5 : tensor<1x1x6x6xi1>, tensor<f32>, tensor<f32>) outs(%140 : tensor<1x1x6x6xf32>) {
    ^bb0(%in_58: i1, %in_59: f32, %in_60: f32, %out_39: f32):
      %142 = arith.select %in_58, %in_59, %in_60 : f32
      linalg.yield %142 : f32
    } -> tensor<1x1x6x6xf32>
    %143 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%126 : tensor<1x4x6x16xf32>) outs(%108 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_61: f32, %out_40: f32):
      %144 = arith.mulf %in_61, %cst_11 : f32
      linalg.yield %144 : f32
    } -> tensor<1x4x6x16xf32>
    %145 = tensor.empty() : tensor<1x4x16x6xf32>
    %transposed_6 = linalg.transpose ins(%collapsed_1:tensor<1x4x6x16xf32>) outs(%145:tensor<1x4x16x6xf32>) permutation = [0, 1, 3, 2]
    %146 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_6 : tensor<1x4x16x6xf32>) outs(%145 : tensor<1x4x16x6xf32>) {
    ^bb0(%in_62: f32, %out_41: f32):
      %147 = arith.mulf %in_62, %cst_11 : f32
      linalg.yield %147 : f32
    } -> tensor<1x4x16x6xf32>
    %collapsed_2 = tensor.collapse_shape %143 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x16xf32> into tensor<4x6x16xf32>
    %collapsed_3 = tensor.collapse_shape %146 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x16x6xf32> into tensor<4x16x6xf32>
    %148 = tensor.empty() : tensor<4x6x6xf32>
    %149 = linalg.fill ins(%cst : f32) outs(%148 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %150 = linalg.batch_matmul ins(%collapsed_2, %collapsed_3 : tensor<4x6x16xf32>, tensor<4x16x6xf32>) outs(%149 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %expanded_10 = tensor.expand_shape %150 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 6] : tensor<4x6x6xf32> into tensor<1x4x6x6xf32>
    %151 = tensor.empty() : tensor<1x4x6x6xf32>
    %152 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_10, %141 : tensor<1x4x6x6xf32>, tensor<1x1x6x6xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_63: f32, %in_64: f32, %out_42: f32):
      %153 = arith.addf %in_63, %in_64 : f32
      linalg.yield %153 : f32
    } -> tensor<1x4x6x6xf32>
    %154 = tensor.empty() : tensor<1x4x6xi64>
    %155 = linalg.fill ins(%c0_i64 : i64) outs(%154 : tensor<1x4x6xi64>) -> tensor<1x4x6xi64>
    %156 = tensor.empty() : tensor<1x4x6xf32>
    %157 = linalg.fill ins(%cst_1 : f32) outs(%156 : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
    %158, %159 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%152 : tensor<1x4x6x6xf32>) outs(%157, %155 : tensor<1x4x6xf32>, tensor<1x4x6xi64>) {
    ^bb0(%in_65: f32, %out_43: f32, %out_44: i64):
      %160 = linalg.index 3 : index
      %161 = arith.index_cast %160 : index to i64
      %162 = arith.maximumf %in_65, %out_43 : f32
      %163 = arith.cmpf ogt, %in_65, %out_43 : f32
      %164 = arith.select %163, %161, %out_44 : i64
      linalg.yield %162, %164 : f32, i64
    } -> (tensor<1x4x6xf32>, tensor<1x4x6xi64>)
    %expanded_11 = tensor.expand_shape %158 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 6, 1] : tensor<1x4x6xf32> into tensor<1x4x6x1xf32>
    %165 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%152, %expanded_11 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_66: f32, %in_67: f32, %out_45: f32):
      %166 = arith.subf %in_66, %in_67 : f32
      linalg.yield %166 : f32
    } -> tensor<1x4x6x6xf32>
    %167 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%165 : tensor<1x4x6x6xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_68: f32, %out_46: f32):
      %168 = math.exp %in_68 : f32
      linalg.yield %168 : f32
    } -> tensor<1x4x6x6xf32>
    %169 = tensor.empty() : tensor<1x4x6x1xf32>
    %170 = linalg.fill ins(%cst : f32) outs(%169 : tensor<1x4x6x1xf32>) -> tensor<1x4x6x1xf32>
    %171 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%167 : tensor<1x4x6x6xf32>) outs(%170 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_69: f32, %out_47: f32):
      %172 = arith.addf %in_69, %out_47 : f32
      linalg.yield %172 : f32
    } -> tensor<1x4x6x1xf32>
    %173 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%167, %171 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_70: f32, %in_71: f32, %out_48: f32):
      %174 = arith.divf %in_70, %in_71 : f32
      linalg.yield %174 : f32
    } -> tensor<1x4x6x6xf32>
    %175 = tensor.empty() : tensor<1x4x6x6xi1>
    %176 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%152 : tensor<1x4x6x6xf32>) outs(%175 : tensor<1x4x6x6xi1>) {
    ^bb0(%in_72: f32, %out_49: i1):
      %177 = arith.extf %in_72 : f32 to f64
      %178 = arith.cmpf oeq, %177, %cst_7 : f64
      linalg.yield %178 : i1
    } -> tensor<1x4x6x6xi1>
    %179 = tensor.empty() : tensor<1x4x6x1xi1>
    %180 = linalg.fill ins(%true : i1) outs(%179 : tensor<1x4x6x1xi1>) -> tensor<1x4x6x1xi1>
    %181 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%176 : tensor<1x4x6x6xi1>) outs(%180 : tensor<1x4x6x1xi1>) {
    ^bb0(%in_73: i1, %out_50: i1):
      %182 = arith.andi %in_73, %out_50 : i1
      linalg.yield %182 : i1
    } -> tensor<1x4x6x1xi1>
    %183 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%181, %cst_3, %173 : tensor<1x4x6x1xi1>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_74: i1, %in_75: f32, %in_76: f32, %out_51: f32):
      %184 = arith.select %in_74, %in_75, %in_76 : f32
      linalg.yield %184 : f32
    } -> tensor<1x4x6x6xf32>
    %collapsed_4 = tensor.collapse_shape %183 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x6xf32> into tensor<4x6x6xf32>
    %collapsed_5 = tensor.collapse_shape %139 [[0 : i64, 1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<4x6x16xf32>
    %185 = tensor.empty() : tensor<4x6x16xf32>
    %186 = linalg.fill ins(%cst : f32) outs(%185 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %187 = linalg.batch_matmul ins(%collapsed_4, %collapsed_5 : tensor<4x6x6xf32>, tensor<4x6x16xf32>) outs(%186 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %expanded_12 = tensor.expand_shape %187 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 16] : tensor<4x6x16xf32> into tensor<1x4x6x16xf32>
    %188 = tensor.empty() : tensor<1x6x4x16xf32>
    %transposed_7 = linalg.transpose ins(%expanded_12:tensor<1x4x6x16xf32>) outs(%188:tensor<1x6x4x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_8 = linalg.transpose ins(%model.layers.0.self_attn.o_proj.weight:tensor<64x64xf32>) outs(%102:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_6 = tensor.collapse_shape %transposed_7 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x6x4x16xf32> into tensor<6x64xf32>
    %189 = linalg.matmul ins(%collapsed_6, %transposed_8 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_13 = tensor.expand_shape %189 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %190 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %expanded_13 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_77: f32, %in_78: f32, %out_52: f32):
      %191 = arith.addf %in_77, %in_78 : f32
      linalg.yield %191 : f32
    } -> tensor<1x6x64xf32>
    %192 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%190 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_79: f32, %out_53: f32):
      %193 = math.fpowi %in_79, %c2_i64 : f32, i64
      linalg.yield %193 : f32
    } -> tensor<1x6x64xf32>
    %194 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%192 : tensor<1x6x64xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_80: f32, %out_54: f32):
      %195 = arith.addf %in_80, %out_54 : f32
      linalg.yield %195 : f32
    } -> tensor<1x6x1xf32>
    %196 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%194 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_81: f32, %out_55: f32):
      %197 = arith.divf %in_81, %cst_10 : f32
      linalg.yield %197 : f32
    } -> tensor<1x6x1xf32>
    %198 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%196 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_82: f32, %out_56: f32):
      %199 = arith.truncf %cst_8 : f64 to f32
      %200 = arith.addf %in_82, %199 : f32
      linalg.yield %200 : f32
    } -> tensor<1x6x1xf32>
    %201 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%198 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_83: f32, %out_57: f32):
      %202 = math.rsqrt %in_83 : f32
      linalg.yield %202 : f32
    } -> tensor<1x6x1xf32>
    %203 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%190, %201 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_84: f32, %in_85: f32, %out_58: f32):
      %204 = arith.mulf %in_84, %in_85 : f32
      linalg.yield %204 : f32
    } -> tensor<1x6x64xf32>
    %205 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.0.post_attention_layernorm.weight, %203 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_86: f32, %in_87: f32, %out_59: f32):
      %206 = arith.mulf %in_86, %in_87 : f32
      linalg.yield %206 : f32
    } -> tensor<1x6x64xf32>
    %207 = tensor.empty() : tensor<64x128xf32>
    %transposed_9 = linalg.transpose ins(%model.layers.0.mlp.gate_proj.weight:tensor<128x64xf32>) outs(%207:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_7 = tensor.collapse_shape %205 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %208 = tensor.empty() : tensor<6x128xf32>
    %209 = linalg.fill ins(%cst : f32) outs(%208 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %210 = linalg.matmul ins(%collapsed_7, %transposed_9 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%209 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_14 = tensor.expand_shape %210 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %211 = tensor.empty() : tensor<1x6x128xf32>
    %212 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_14 : tensor<1x6x128xf32>) outs(%211 : tensor<1x6x128xf32>) {
    ^bb0(%in_88: f32, %out_60: f32):
      %213 = arith.negf %in_88 : f32
      %214 = math.exp %213 : f32
      %215 = arith.addf %214, %cst_2 : f32
      %216 = arith.divf %cst_2, %215 : f32
      linalg.yield %216 : f32
    } -> tensor<1x6x128xf32>
    %217 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_14, %212 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%211 : tensor<1x6x128xf32>) {
    ^bb0(%in_89: f32, %in_90: f32, %out_61: f32):
      %218 = arith.mulf %in_89, %in_90 : f32
      linalg.yield %218 : f32
    } -> tensor<1x6x128xf32>
    %transposed_10 = linalg.transpose ins(%model.layers.0.mlp.up_proj.weight:tensor<128x64xf32>) outs(%207:tensor<64x128xf32>) permutation = [1, 0]
    %219 = linalg.matmul ins(%collapsed_7, %transposed_10 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%209 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_15 = tensor.expand_shape %219 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %220 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%217, %expanded_15 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%211 : tensor<1x6x128xf32>) {
    ^bb0(%in_91: f32, %in_92: f32, %out_62: f32):
      %221 = arith.mulf %in_91, %in_92 : f32
      linalg.yield %221 : f32
    } -> tensor<1x6x128xf32>
    %222 = tensor.empty() : tensor<128x64xf32>
    %transposed_11 = linalg.transpose ins(%model.layers.0.mlp.down_proj.weight:tensor<64x128xf32>) outs(%222:tensor<128x64xf32>) permutation = [1, 0]
    %collapsed_8 = tensor.collapse_shape %220 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x128xf32> into tensor<6x128xf32>
    %223 = linalg.matmul ins(%collapsed_8, %transposed_11 : tensor<6x128xf32>, tensor<128x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_16 = tensor.expand_shape %223 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %224 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%190, %expanded_16 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_93: f32, %in_94: f32, %out_63: f32):
      %225 = arith.addf %in_93, %in_94 : f32
      linalg.yield %225 : f32
    } -> tensor<1x6x64xf32>
    %226 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%224 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_95: f32, %out_64: f32):
      %227 = math.fpowi %in_95, %c2_i64 : f32, i64
      linalg.yield %227 : f32
    } -> tensor<1x6x64xf32>
    %228 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%226 : tensor<1x6x64xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_96: f32, %out_65: f32):
      %229 = arith.addf %in_96, %out_65 : f32
      linalg.yield %229 : f32
    } -> tensor<1x6x1xf32>
    %230 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%228 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_97: f32, %out_66: f32):
      %231 = arith.divf %in_97, %cst_10 : f32
      linalg.yield %231 : f32
    } -> tensor<1x6x1xf32>
    %232 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%230 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_98: f32, %out_67: f32):
      %233 = arith.truncf %cst_8 : f64 to f32
      %234 = arith.addf %in_98, %233 : f32
      linalg.yield %234 : f32
    } -> tensor<1x6x1xf32>
    %235 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%232 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_99: f32, %out_68: f32):
      %236 = math.rsqrt %in_99 : f32
      linalg.yield %236 : f32
    } -> tensor<1x6x1xf32>
    %237 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%224, %235 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_100: f32, %in_101: f32, %out_69: f32):
      %238 = arith.mulf %in_100, %in_101 : f32
      linalg.yield %238 : f32
    } -> tensor<1x6x64xf32>
    %239 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.1.input_layernorm.weight, %237 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_102: f32, %in_103: f32, %out_70: f32):
      %240 = arith.mulf %in_102, %in_103 : f32
      linalg.yield %240 : f32
    } -> tensor<1x6x64xf32>
    %collapsed_9 = tensor.collapse_shape %239 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %transposed_12 = linalg.transpose ins(%model.layers.1.self_attn.q_proj.weight:tensor<64x64xf32>) outs(%102:tensor<64x64xf32>) permutation = [1, 0]
    %241 = linalg.matmul ins(%collapsed_9, %transposed_12 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %242 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%241, %model.layers.1.self_attn.q_proj.bias : tensor<6x64xf32>, tensor<64xf32>) outs(%103 : tensor<6x64xf32>) {
    ^bb0(%in_104: f32, %in_105: f32, %out_71: f32):
      %243 = arith.addf %in_104, %in_105 : f32
      linalg.yield %243 : f32
    } -> tensor<6x64xf32>
    %expanded_17 = tensor.expand_shape %242 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 4, 16] : tensor<6x64xf32> into tensor<1x6x4x16xf32>
    %transposed_13 = linalg.transpose ins(%expanded_17:tensor<1x6x4x16xf32>) outs(%108:tensor<1x4x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_14 = linalg.transpose ins(%model.layers.1.self_attn.k_proj.weight:tensor<32x64xf32>) outs(%109:tensor<64x32xf32>) permutation = [1, 0]
    %244 = linalg.matmul ins(%collapsed_9, %transposed_14 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%111 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %245 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%244, %model.layers.1.self_attn.k_proj.bias : tensor<6x32xf32>, tensor<32xf32>) outs(%110 : tensor<6x32xf32>) {
    ^bb0(%in_106: f32, %in_107: f32, %out_72: f32):
      %246 = arith.addf %in_106, %in_107 : f32
      linalg.yield %246 : f32
    } -> tensor<6x32xf32>
    %expanded_18 = tensor.expand_shape %245 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_15 = linalg.transpose ins(%expanded_18:tensor<1x6x2x16xf32>) outs(%115:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_16 = linalg.transpose ins(%model.layers.1.self_attn.v_proj.weight:tensor<32x64xf32>) outs(%109:tensor<64x32xf32>) permutation = [1, 0]
    %247 = linalg.matmul ins(%collapsed_9, %transposed_16 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%111 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %248 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%247, %model.layers.1.self_attn.v_proj.bias : tensor<6x32xf32>, tensor<32xf32>) outs(%110 : tensor<6x32xf32>) {
    ^bb0(%in_108: f32, %in_109: f32, %out_73: f32):
      %249 = arith.addf %in_108, %in_109 : f32
      linalg.yield %249 : f32
    } -> tensor<6x32xf32>
    %expanded_19 = tensor.expand_shape %248 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_17 = linalg.transpose ins(%expanded_19:tensor<1x6x2x16xf32>) outs(%115:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %250 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_13, %expanded_8 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%108 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_110: f32, %in_111: f32, %out_74: f32):
      %251 = arith.mulf %in_110, %in_111 : f32
      linalg.yield %251 : f32
    } -> tensor<1x4x6x16xf32>
    %extracted_slice_7 = tensor.extract_slice %transposed_13[0, 0, 0, 0] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %extracted_slice_8 = tensor.extract_slice %transposed_13[0, 0, 0, 8] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %252 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_8 : tensor<1x4x6x8xf32>) outs(%121 : tensor<1x4x6x8xf32>) {
    ^bb0(%in_112: f32, %out_75: f32):
      %253 = arith.negf %in_112 : f32
      linalg.yield %253 : f32
    } -> tensor<1x4x6x8xf32>
    %concat_4 = tensor.concat dim(3) %252, %extracted_slice_7 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x16xf32>
    %254 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_4, %expanded_9 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%108 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_113: f32, %in_114: f32, %out_76: f32):
      %255 = arith.mulf %in_113, %in_114 : f32
      linalg.yield %255 : f32
    } -> tensor<1x4x6x16xf32>
    %256 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%250, %254 : tensor<1x4x6x16xf32>, tensor<1x4x6x16xf32>) outs(%108 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_115: f32, %in_116: f32, %out_77: f32):
      %257 = arith.addf %in_115, %in_116 : f32
      linalg.yield %257 : f32
    } -> tensor<1x4x6x16xf32>
    %258 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_15, %expanded_8 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%115 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_117: f32, %in_118: f32, %out_78: f32):
      %259 = arith.mulf %in_117, %in_118 : f32
      linalg.yield %259 : f32
    } -> tensor<1x2x6x16xf32>
    %extracted_slice_9 = tensor.extract_slice %transposed_15[0, 0, 0, 0] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %extracted_slice_10 = tensor.extract_slice %transposed_15[0, 0, 0, 8] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %260 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_10 : tensor<1x2x6x8xf32>) outs(%130 : tensor<1x2x6x8xf32>) {
    ^bb0(%in_119: f32, %out_79: f32):
      %261 = arith.negf %in_119 : f32
      linalg.yield %261 : f32
    } -> tensor<1x2x6x8xf32>
    %concat_5 = tensor.concat dim(3) %260, %extracted_slice_9 : (tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x16xf32>
    %262 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_5, %expanded_9 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%115 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_120: f32, %in_121: f32, %out_80: f32):
      %263 = arith.mulf %in_120, %in_121 : f32
      linalg.yield %263 : f32
    } -> tensor<1x2x6x16xf32>
    %264 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%258, %262 : tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) outs(%115 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_122: f32, %in_123: f32, %out_81: f32):
      %265 = arith.addf %in_122, %in_123 : f32
      linalg.yield %265 : f32
    } -> tensor<1x2x6x16xf32>
    %266 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%264 : tensor<1x2x6x16xf32>) outs(%137 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_124: f32, %out_82: f32):
      linalg.yield %in_124 : f32
    } -> tensor<1x2x2x6x16xf32>
    %collapsed_10 = tensor.collapse_shape %266 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<1x4x6x16xf32>
    %267 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_17 : tensor<1x2x6x16xf32>) outs(%137 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_125: f32, %out_83: f32):
      linalg.yield %in_125 : f32
    } -> tensor<1x2x2x6x16xf32>
    %268 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%256 : tensor<1x4x6x16xf32>) outs(%108 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_126: f32, %out_84: f32):
      %269 = arith.mulf %in_126, %cst_11 : f32
      linalg.yield %269 : f32
    } -> tensor<1x4x6x16xf32>
    %transposed_18 = linalg.transpose ins(%collapsed_10:tensor<1x4x6x16xf32>) outs(%145:tensor<1x4x16x6xf32>) permutation = [0, 1, 3, 2]
    %270 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_18 : tensor<1x4x16x6xf32>) outs(%145 : tensor<1x4x16x6xf32>) {
    ^bb0(%in_127: f32, %out_85: f32):
      %271 = arith.mulf %in_127, %cst_11 : f32
      linalg.yield %271 : f32
    } -> tensor<1x4x16x6xf32>
    %collapsed_11 = tensor.collapse_shape %268 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x16xf32> into tensor<4x6x16xf32>
    %collapsed_12 = tensor.collapse_shape %270 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x16x6xf32> into tensor<4x16x6xf32>
    %272 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<4x6x16xf32>, tensor<4x16x6xf32>) outs(%149 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %expanded_20 = tensor.expand_shape %272 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 6] : tensor<4x6x6xf32> into tensor<1x4x6x6xf32>
    %273 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_20, %141 : tensor<1x4x6x6xf32>, tensor<1x1x6x6xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_128: f32, %in_129: f32, %out_86: f32):
      %274 = arith.addf %in_128, %in_129 : f32
      linalg.yield %274 : f32
    } -> tensor<1x4x6x6xf32>
    %275, %276 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%273 : tensor<1x4x6x6xf32>) outs(%157, %155 : tensor<1x4x6xf32>, tensor<1x4x6xi64>) {
    ^bb0(%in_130: f32, %out_87: f32, %out_88: i64):
      %277 = linalg.index 3 : index
      %278 = arith.index_cast %277 : index to i64
      %279 = arith.maximumf %in_130, %out_87 : f32
      %280 = arith.cmpf ogt, %in_130, %out_87 : f32
      %281 = arith.select %280, %278, %out_88 : i64
      linalg.yield %279, %281 : f32, i64
    } -> (tensor<1x4x6xf32>, tensor<1x4x6xi64>)
    %expanded_21 = tensor.expand_shape %275 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 6, 1] : tensor<1x4x6xf32> into tensor<1x4x6x1xf32>
    %282 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%273, %expanded_21 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_131: f32, %in_132: f32, %out_89: f32):
      %283 = arith.subf %in_131, %in_132 : f32
      linalg.yield %283 : f32
    } -> tensor<1x4x6x6xf32>
    %284 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%282 : tensor<1x4x6x6xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_133: f32, %out_90: f32):
      %285 = math.exp %in_133 : f32
      linalg.yield %285 : f32
    } -> tensor<1x4x6x6xf32>
    %286 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%284 : tensor<1x4x6x6xf32>) outs(%170 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_134: f32, %out_91: f32):
      %287 = arith.addf %in_134, %out_91 : f32
      linalg.yield %287 : f32
    } -> tensor<1x4x6x1xf32>
    %288 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%284, %286 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_135: f32, %in_136: f32, %out_92: f32):
      %289 = arith.divf %in_135, %in_136 : f32
      linalg.yield %289 : f32
    } -> tensor<1x4x6x6xf32>
    %290 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%273 : tensor<1x4x6x6xf32>) outs(%175 : tensor<1x4x6x6xi1>) {
    ^bb0(%in_137: f32, %out_93: i1):
      %291 = arith.extf %in_137 : f32 to f64
      %292 = arith.cmpf oeq, %291, %cst_7 : f64
      linalg.yield %292 : i1
    } -> tensor<1x4x6x6xi1>
    %293 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%290 : tensor<1x4x6x6xi1>) outs(%180 : tensor<1x4x6x1xi1>) {
    ^bb0(%in_138: i1, %out_94: i1):
      %294 = arith.andi %in_138, %out_94 : i1
      linalg.yield %294 : i1
    } -> tensor<1x4x6x1xi1>
    %295 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%293, %cst_3, %288 : tensor<1x4x6x1xi1>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%151 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_139: i1, %in_140: f32, %in_141: f32, %out_95: f32):
      %296 = arith.select %in_139, %in_140, %in_141 : f32
      linalg.yield %296 : f32
    } -> tensor<1x4x6x6xf32>
    %collapsed_13 = tensor.collapse_shape %295 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x6xf32> into tensor<4x6x6xf32>
    %collapsed_14 = tensor.collapse_shape %267 [[0 : i64, 1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<4x6x16xf32>
    %297 = linalg.batch_matmul ins(%collapsed_13, %collapsed_14 : tensor<4x6x6xf32>, tensor<4x6x16xf32>) outs(%186 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %expanded_22 = tensor.expand_shape %297 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 16] : tensor<4x6x16xf32> into tensor<1x4x6x16xf32>
    %transposed_19 = linalg.transpose ins(%expanded_22:tensor<1x4x6x16xf32>) outs(%188:tensor<1x6x4x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_20 = linalg.transpose ins(%model.layers.1.self_attn.o_proj.weight:tensor<64x64xf32>) outs(%102:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_15 = tensor.collapse_shape %transposed_19 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x6x4x16xf32> into tensor<6x64xf32>
    %298 = linalg.matmul ins(%collapsed_15, %transposed_20 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_23 = tensor.expand_shape %298 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %299 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%224, %expanded_23 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_142: f32, %in_143: f32, %out_96: f32):
      %300 = arith.addf %in_142, %in_143 : f32
      linalg.yield %300 : f32
    } -> tensor<1x6x64xf32>
    %301 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%299 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_144: f32, %out_97: f32):
      %302 = math.fpowi %in_144, %c2_i64 : f32, i64
      linalg.yield %302 : f32
    } -> tensor<1x6x64xf32>
    %303 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%301 : tensor<1x6x64xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_145: f32, %out_98: f32):
      %304 = arith.addf %in_145, %out_98 : f32
      linalg.yield %304 : f32
    } -> tensor<1x6x1xf32>
    %305 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%303 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_146: f32, %out_99: f32):
      %306 = arith.divf %in_146, %cst_10 : f32
      linalg.yield %306 : f32
    } -> tensor<1x6x1xf32>
    %307 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%305 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_147: f32, %out_100: f32):
      %308 = arith.truncf %cst_8 : f64 to f32
      %309 = arith.addf %in_147, %308 : f32
      linalg.yield %309 : f32
    } -> tensor<1x6x1xf32>
    %310 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%307 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_148: f32, %out_101: f32):
      %311 = math.rsqrt %in_148 : f32
      linalg.yield %311 : f32
    } -> tensor<1x6x1xf32>
    %312 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%299, %310 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_149: f32, %in_150: f32, %out_102: f32):
      %313 = arith.mulf %in_149, %in_150 : f32
      linalg.yield %313 : f32
    } -> tensor<1x6x64xf32>
    %314 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.1.post_attention_layernorm.weight, %312 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_151: f32, %in_152: f32, %out_103: f32):
      %315 = arith.mulf %in_151, %in_152 : f32
      linalg.yield %315 : f32
    } -> tensor<1x6x64xf32>
    %transposed_21 = linalg.transpose ins(%model.layers.1.mlp.gate_proj.weight:tensor<128x64xf32>) outs(%207:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_16 = tensor.collapse_shape %314 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %316 = linalg.matmul ins(%collapsed_16, %transposed_21 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%209 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_24 = tensor.expand_shape %316 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %317 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24 : tensor<1x6x128xf32>) outs(%211 : tensor<1x6x128xf32>) {
    ^bb0(%in_153: f32, %out_104: f32):
      %318 = arith.negf %in_153 : f32
      %319 = math.exp %318 : f32
      %320 = arith.addf %319, %cst_2 : f32
      %321 = arith.divf %cst_2, %320 : f32
      linalg.yield %321 : f32
    } -> tensor<1x6x128xf32>
    %322 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24, %317 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%211 : tensor<1x6x128xf32>) {
    ^bb0(%in_154: f32, %in_155: f32, %out_105: f32):
      %323 = arith.mulf %in_154, %in_155 : f32
      linalg.yield %323 : f32
    } -> tensor<1x6x128xf32>
    %transposed_22 = linalg.transpose ins(%model.layers.1.mlp.up_proj.weight:tensor<128x64xf32>) outs(%207:tensor<64x128xf32>) permutation = [1, 0]
    %324 = linalg.matmul ins(%collapsed_16, %transposed_22 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%209 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_25 = tensor.expand_shape %324 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %325 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%322, %expanded_25 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%211 : tensor<1x6x128xf32>) {
    ^bb0(%in_156: f32, %in_157: f32, %out_106: f32):
      %326 = arith.mulf %in_156, %in_157 : f32
      linalg.yield %326 : f32
    } -> tensor<1x6x128xf32>
    %transposed_23 = linalg.transpose ins(%model.layers.1.mlp.down_proj.weight:tensor<64x128xf32>) outs(%222:tensor<128x64xf32>) permutation = [1, 0]
    %collapsed_17 = tensor.collapse_shape %325 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x128xf32> into tensor<6x128xf32>
    %327 = linalg.matmul ins(%collapsed_17, %transposed_23 : tensor<6x128xf32>, tensor<128x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_26 = tensor.expand_shape %327 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %328 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%299, %expanded_26 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_158: f32, %in_159: f32, %out_107: f32):
      %329 = arith.addf %in_158, %in_159 : f32
      linalg.yield %329 : f32
    } -> tensor<1x6x64xf32>
    %330 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%328 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_160: f32, %out_108: f32):
      %331 = math.fpowi %in_160, %c2_i64 : f32, i64
      linalg.yield %331 : f32
    } -> tensor<1x6x64xf32>
    %332 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%330 : tensor<1x6x64xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_161: f32, %out_109: f32):
      %333 = arith.addf %in_161, %out_109 : f32
      linalg.yield %333 : f32
    } -> tensor<1x6x1xf32>
    %334 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%332 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_162: f32, %out_110: f32):
      %335 = arith.divf %in_162, %cst_10 : f32
      linalg.yield %335 : f32
    } -> tensor<1x6x1xf32>
    %336 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%334 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_163: f32, %out_111: f32):
      %337 = arith.truncf %cst_8 : f64 to f32
      %338 = arith.addf %in_163, %337 : f32
      linalg.yield %338 : f32
    } -> tensor<1x6x1xf32>
    %339 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%336 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_164: f32, %out_112: f32):
      %340 = math.rsqrt %in_164 : f32
      linalg.yield %340 : f32
    } -> tensor<1x6x1xf32>
    %341 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%328, %339 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_165: f32, %in_166: f32, %out_113: f32):
      %342 = arith.mulf %in_165, %in_166 : f32
      linalg.yield %342 : f32
    } -> tensor<1x6x64xf32>
    %343 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.norm.weight, %341 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_167: f32, %in_168: f32, %out_114: f32):
      %344 = arith.mulf %in_167, %in_168 : f32
      linalg.yield %344 : f32
    } -> tensor<1x6x64xf32>
    %transposed_24 = linalg.transpose ins(%lm_head.weight:tensor<128x64xf32>) outs(%207:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_18 = tensor.collapse_shape %343 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %345 = linalg.matmul ins(%collapsed_18, %transposed_24 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%209 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_27 = tensor.expand_shape %345 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    func.return %expanded_27 : tensor<1x6x128xf32>
  }
}
