// LlamaForCausalLM (random weights) exported by examples/hf/export.py
builtin.module {
  func.func @main(%input_ids: tensor<1x6xi64>, %model.embed_tokens.weight: tensor<128x64xf32>, %model.layers.0.self_attn.q_proj.weight: tensor<64x64xf32>, %model.layers.0.self_attn.k_proj.weight: tensor<32x64xf32>, %model.layers.0.self_attn.v_proj.weight: tensor<32x64xf32>, %model.layers.0.self_attn.o_proj.weight: tensor<64x64xf32>, %model.layers.0.mlp.gate_proj.weight: tensor<128x64xf32>, %model.layers.0.mlp.up_proj.weight: tensor<128x64xf32>, %model.layers.0.mlp.down_proj.weight: tensor<64x128xf32>, %model.layers.0.input_layernorm.weight: tensor<64xf32>, %model.layers.0.post_attention_layernorm.weight: tensor<64xf32>, %model.layers.1.self_attn.q_proj.weight: tensor<64x64xf32>, %model.layers.1.self_attn.k_proj.weight: tensor<32x64xf32>, %model.layers.1.self_attn.v_proj.weight: tensor<32x64xf32>, %model.layers.1.self_attn.o_proj.weight: tensor<64x64xf32>, %model.layers.1.mlp.gate_proj.weight: tensor<128x64xf32>, %model.layers.1.mlp.up_proj.weight: tensor<128x64xf32>, %model.layers.1.mlp.down_proj.weight: tensor<64x128xf32>, %model.layers.1.input_layernorm.weight: tensor<64xf32>, %model.layers.1.post_attention_layernorm.weight: tensor<64xf32>, %model.norm.weight: tensor<64xf32>) -> tensor<1x6x128xf32> {
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
    ^bb0(%arg21: i64, %arg22: i64):
      %26 = arith.addi %arg21, %arg22 : i64
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
    %102 = tensor.empty() : tensor<64x64xf32>
    %transposed = linalg.transpose ins(%model.layers.0.self_attn.q_proj.weight:tensor<64x64xf32>) outs(%102:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed = tensor.collapse_shape %100 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %103 = tensor.empty() : tensor<6x64xf32>
    %104 = linalg.fill ins(%cst : f32) outs(%103 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %105 = linalg.matmul ins(%collapsed, %transposed : tensor<6x64xf32>, tensor<64x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_5 = tensor.expand_shape %105 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 4, 16] : tensor<6x64xf32> into tensor<1x6x4x16xf32>
    %106 = tensor.empty() : tensor<1x4x6x16xf32>
    %transposed_1 = linalg.transpose ins(%expanded_5:tensor<1x6x4x16xf32>) outs(%106:tensor<1x4x6x16xf32>) permutation = [0, 2, 1, 3]
    %107 = tensor.empty() : tensor<64x32xf32>
    %transposed_2 = linalg.transpose ins(%model.layers.0.self_attn.k_proj.weight:tensor<32x64xf32>) outs(%107:tensor<64x32xf32>) permutation = [1, 0]
    %108 = tensor.empty() : tensor<6x32xf32>
    %109 = linalg.fill ins(%cst : f32) outs(%108 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %110 = linalg.matmul ins(%collapsed, %transposed_2 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%109 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_6 = tensor.expand_shape %110 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %111 = tensor.empty() : tensor<1x2x6x16xf32>
    %transposed_3 = linalg.transpose ins(%expanded_6:tensor<1x6x2x16xf32>) outs(%111:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_4 = linalg.transpose ins(%model.layers.0.self_attn.v_proj.weight:tensor<32x64xf32>) outs(%107:tensor<64x32xf32>) permutation = [1, 0]
    %112 = linalg.matmul ins(%collapsed, %transposed_4 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%109 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_7 = tensor.expand_shape %112 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_5 = linalg.transpose ins(%expanded_7:tensor<1x6x2x16xf32>) outs(%111:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %expanded_8 = tensor.expand_shape %82 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 16] : tensor<1x6x16xf32> into tensor<1x1x6x16xf32>
    %expanded_9 = tensor.expand_shape %84 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 16] : tensor<1x6x16xf32> into tensor<1x1x6x16xf32>
    %113 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_1, %expanded_8 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%106 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_36: f32, %in_37: f32, %out_26: f32):
      %114 = arith.mulf %in_36, %in_37 : f32
      linalg.yield %114 : f32
    } -> tensor<1x4x6x16xf32>
    %extracted_slice_3 = tensor.extract_slice %transposed_1[0, 0, 0, 0] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %extracted_slice_4 = tensor.extract_slice %transposed_1[0, 0, 0, 8] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %115 = tensor.empty() : tensor<1x4x6x8xf32>
    %116 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_4 : tensor<1x4x6x8xf32>) outs(%115 : tensor<1x4x6x8xf32>) {
    ^bb0(%in_38: f32, %out_27: f32):
      %117 = arith.negf %in_38 : f32
      linalg.yield %117 : f32
    } -> tensor<1x4x6x8xf32>
    %concat_2 = tensor.concat dim(3) %116, %extracted_slice_3 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x16xf32>
    %118 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_2, %expanded_9 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%106 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_39: f32, %in_40: f32, %out_28: f32):
      %119 = arith.mulf %in_39, %in_40 : f32
      linalg.yield %119 : f32
    } -> tensor<1x4x6x16xf32>
    %120 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%113, %118 : tensor<1x4x6x16xf32>, tensor<1x4x6x16xf32>) outs(%106 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_41: f32, %in_42: f32, %out_29: f32):
      %121 = arith.addf %in_41, %in_42 : f32
      linalg.yield %121 : f32
    } -> tensor<1x4x6x16xf32>
    %122 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_3, %expanded_8 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%111 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_43: f32, %in_44: f32, %out_30: f32):
      %123 = arith.mulf %in_43, %in_44 : f32
      linalg.yield %123 : f32
    } -> tensor<1x2x6x16xf32>
    %extracted_slice_5 = tensor.extract_slice %transposed_3[0, 0, 0, 0] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %extracted_slice_6 = tensor.extract_slice %transposed_3[0, 0, 0, 8] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %124 = tensor.empty() : tensor<1x2x6x8xf32>
    %125 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_6 : tensor<1x2x6x8xf32>) outs(%124 : tensor<1x2x6x8xf32>) {
    ^bb0(%in_45: f32, %out_31: f32):
      %126 = arith.negf %in_45 : f32
      linalg.yield %126 : f32
    } -> tensor<1x2x6x8xf32>
    %concat_3 = tensor.concat dim(3) %125, %extracted_slice_5 : (tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x16xf32>
    %127 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_3, %expanded_9 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%111 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_46: f32, %in_47: f32, %out_32: f32):
      %128 = arith.mulf %in_46, %in_47 : f32
      linalg.yield %128 : f32
    } -> tensor<1x2x6x16xf32>
    %129 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%122, %127 : tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) outs(%111 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_48: f32, %in_49: f32, %out_33: f32):
      %130 = arith.addf %in_48, %in_49 : f32
      linalg.yield %130 : f32
    } -> tensor<1x2x6x16xf32>
    %131 = tensor.empty() : tensor<1x2x2x6x16xf32>
    %132 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%129 : tensor<1x2x6x16xf32>) outs(%131 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_50: f32, %out_34: f32):
      linalg.yield %in_50 : f32
    } -> tensor<1x2x2x6x16xf32>
    %collapsed_1 = tensor.collapse_shape %132 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<1x4x6x16xf32>
    %133 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_5 : tensor<1x2x6x16xf32>) outs(%131 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_51: f32, %out_35: f32):
      linalg.yield %in_51 : f32
    } -> tensor<1x2x2x6x16xf32>
    %134 = tensor.empty() : tensor<1x1x6x6xf32>
    %135 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73, %cst_4, %cst_5 : tensor<1x1x6x6xi1>, tensor<f32>, tensor<f32>) outs(%134 : tensor<1x1x6x6xf32>) {
    ^bb0(%in_52: i1, %in_53: f32, %in_54: f32, %out_36: f32):
      %136 = arith.select %in_52, %in_53, %in_54 : f32
      linalg.yield %136 : f32
    } -> tensor<1x1x6x6xf32>
    %137 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%120 : tensor<1x4x6x16xf32>) outs(%106 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_55: f32, %out_37: f32):
      %138 = arith.mulf %in_55, %cst_11 : f32
      linalg.yield %138 : f32
    } -> tensor<1x4x6x16xf32>
    %139 = tensor.empty() : tensor<1x4x16x6xf32>
    %transposed_6 = linalg.transpose ins(%collapsed_1:tensor<1x4x6x16xf32>) outs(%139:tensor<1x4x16x6xf32>) permutation = [0, 1, 3, 2]
    %140 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_6 : tensor<1x4x16x6xf32>) outs(%139 : tensor<1x4x16x6xf32>) {
    ^bb0(%in_56: f32, %out_38: f32):
      %141 = arith.mulf %in_56, %cst_11 : f32
      linalg.yield %141 : f32
    } -> tensor<1x4x16x6xf32>
    %collapsed_2 = tensor.collapse_shape %137 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x16xf32> into tensor<4x6x16xf32>
    %collapsed_3 = tensor.collapse_shape %140 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x16x6xf32> into tensor<4x16x6xf32>
    %142 = tensor.empty() : tensor<4x6x6xf32>
    %143 = linalg.fill ins(%cst : f32) outs(%142 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %144 = linalg.batch_matmul ins(%collapsed_2, %collapsed_3 : tensor<4x6x16xf32>, tensor<4x16x6xf32>) outs(%143 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %expanded_10 = tensor.expand_shape %144 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 6] : tensor<4x6x6xf32> into tensor<1x4x6x6xf32>
    %145 = tensor.empty() : tensor<1x4x6x6xf32>
    %146 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_10, %135 : tensor<1x4x6x6xf32>, tensor<1x1x6x6xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_57: f32, %in_58: f32, %out_39: f32):
      %147 = arith.addf %in_57, %in_58 : f32
      linalg.yield %147 : f32
    } -> tensor<1x4x6x6xf32>
    %148 = tensor.empty() : tensor<1x4x6xi64>
    %149 = linalg.fill ins(%c0_i64 : i64) outs(%148 : tensor<1x4x6xi64>) -> tensor<1x4x6xi64>
    %150 = tensor.empty() : tensor<1x4x6xf32>
    %151 = linalg.fill ins(%cst_1 : f32) outs(%150 : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
    %152, %153 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%146 : tensor<1x4x6x6xf32>) outs(%151, %149 : tensor<1x4x6xf32>, tensor<1x4x6xi64>) {
    ^bb0(%in_59: f32, %out_40: f32, %out_41: i64):
      %154 = linalg.index 3 : index
      %155 = arith.index_cast %154 : index to i64
      %156 = arith.maximumf %in_59, %out_40 : f32
      %157 = arith.cmpf ogt, %in_59, %out_40 : f32
      %158 = arith.select %157, %155, %out_41 : i64
      linalg.yield %156, %158 : f32, i64
    } -> (tensor<1x4x6xf32>, tensor<1x4x6xi64>)
    %expanded_11 = tensor.expand_shape %152 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 6, 1] : tensor<1x4x6xf32> into tensor<1x4x6x1xf32>
    %159 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%146, %expanded_11 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_60: f32, %in_61: f32, %out_42: f32):
      %160 = arith.subf %in_60, %in_61 : f32
      linalg.yield %160 : f32
    } -> tensor<1x4x6x6xf32>
    %161 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%159 : tensor<1x4x6x6xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_62: f32, %out_43: f32):
      %162 = math.exp %in_62 : f32
      linalg.yield %162 : f32
    } -> tensor<1x4x6x6xf32>
    %163 = tensor.empty() : tensor<1x4x6x1xf32>
    %164 = linalg.fill ins(%cst : f32) outs(%163 : tensor<1x4x6x1xf32>) -> tensor<1x4x6x1xf32>
    %165 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%161 : tensor<1x4x6x6xf32>) outs(%164 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_63: f32, %out_44: f32):
      %166 = arith.addf %in_63, %out_44 : f32
      linalg.yield %166 : f32
    } -> tensor<1x4x6x1xf32>
    %167 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%161, %165 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_64: f32, %in_65: f32, %out_45: f32):
      %168 = arith.divf %in_64, %in_65 : f32
      linalg.yield %168 : f32
    } -> tensor<1x4x6x6xf32>
    %169 = tensor.empty() : tensor<1x4x6x6xi1>
    %170 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%146 : tensor<1x4x6x6xf32>) outs(%169 : tensor<1x4x6x6xi1>) {
    ^bb0(%in_66: f32, %out_46: i1):
      %171 = arith.extf %in_66 : f32 to f64
      %172 = arith.cmpf oeq, %171, %cst_7 : f64
      linalg.yield %172 : i1
    } -> tensor<1x4x6x6xi1>
    %173 = tensor.empty() : tensor<1x4x6x1xi1>
    %174 = linalg.fill ins(%true : i1) outs(%173 : tensor<1x4x6x1xi1>) -> tensor<1x4x6x1xi1>
    %175 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%170 : tensor<1x4x6x6xi1>) outs(%174 : tensor<1x4x6x1xi1>) {
    ^bb0(%in_67: i1, %out_47: i1):
      %176 = arith.andi %in_67, %out_47 : i1
      linalg.yield %176 : i1
    } -> tensor<1x4x6x1xi1>
    %177 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%175, %cst_3, %167 : tensor<1x4x6x1xi1>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_68: i1, %in_69: f32, %in_70: f32, %out_48: f32):
      %178 = arith.select %in_68, %in_69, %in_70 : f32
      linalg.yield %178 : f32
    } -> tensor<1x4x6x6xf32>
    %collapsed_4 = tensor.collapse_shape %177 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x6xf32> into tensor<4x6x6xf32>
    %collapsed_5 = tensor.collapse_shape %133 [[0 : i64, 1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<4x6x16xf32>
    %179 = tensor.empty() : tensor<4x6x16xf32>
    %180 = linalg.fill ins(%cst : f32) outs(%179 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %181 = linalg.batch_matmul ins(%collapsed_4, %collapsed_5 : tensor<4x6x6xf32>, tensor<4x6x16xf32>) outs(%180 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %expanded_12 = tensor.expand_shape %181 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 16] : tensor<4x6x16xf32> into tensor<1x4x6x16xf32>
    %182 = tensor.empty() : tensor<1x6x4x16xf32>
    %transposed_7 = linalg.transpose ins(%expanded_12:tensor<1x4x6x16xf32>) outs(%182:tensor<1x6x4x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_8 = linalg.transpose ins(%model.layers.0.self_attn.o_proj.weight:tensor<64x64xf32>) outs(%102:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_6 = tensor.collapse_shape %transposed_7 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x6x4x16xf32> into tensor<6x64xf32>
    %183 = linalg.matmul ins(%collapsed_6, %transposed_8 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_13 = tensor.expand_shape %183 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %184 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %expanded_13 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_71: f32, %in_72: f32, %out_49: f32):
      %185 = arith.addf %in_71, %in_72 : f32
      linalg.yield %185 : f32
    } -> tensor<1x6x64xf32>
    %186 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_73: f32, %out_50: f32):
      %187 = math.fpowi %in_73, %c2_i64 : f32, i64
      linalg.yield %187 : f32
    } -> tensor<1x6x64xf32>
    %188 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%186 : tensor<1x6x64xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_74: f32, %out_51: f32):
      %189 = arith.addf %in_74, %out_51 : f32
      linalg.yield %189 : f32
    } -> tensor<1x6x1xf32>
    %190 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%188 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_75: f32, %out_52: f32):
      %191 = arith.divf %in_75, %cst_10 : f32
      linalg.yield %191 : f32
    } -> tensor<1x6x1xf32>
    %192 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%190 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_76: f32, %out_53: f32):
      %193 = arith.truncf %cst_8 : f64 to f32
      %194 = arith.addf %in_76, %193 : f32
      linalg.yield %194 : f32
    } -> tensor<1x6x1xf32>
    %195 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%192 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_77: f32, %out_54: f32):
      %196 = math.rsqrt %in_77 : f32
      linalg.yield %196 : f32
    } -> tensor<1x6x1xf32>
    %197 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184, %195 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_78: f32, %in_79: f32, %out_55: f32):
      %198 = arith.mulf %in_78, %in_79 : f32
      linalg.yield %198 : f32
    } -> tensor<1x6x64xf32>
    %199 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.0.post_attention_layernorm.weight, %197 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_80: f32, %in_81: f32, %out_56: f32):
      %200 = arith.mulf %in_80, %in_81 : f32
      linalg.yield %200 : f32
    } -> tensor<1x6x64xf32>
    %201 = tensor.empty() : tensor<64x128xf32>
    %transposed_9 = linalg.transpose ins(%model.layers.0.mlp.gate_proj.weight:tensor<128x64xf32>) outs(%201:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_7 = tensor.collapse_shape %199 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %202 = tensor.empty() : tensor<6x128xf32>
    %203 = linalg.fill ins(%cst : f32) outs(%202 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %204 = linalg.matmul ins(%collapsed_7, %transposed_9 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%203 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_14 = tensor.expand_shape %204 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %205 = tensor.empty() : tensor<1x6x128xf32>
    %206 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_14 : tensor<1x6x128xf32>) outs(%205 : tensor<1x6x128xf32>) {
    ^bb0(%in_82: f32, %out_57: f32):
      %207 = arith.negf %in_82 : f32
      %208 = math.exp %207 : f32
      %209 = arith.addf %208, %cst_2 : f32
      %210 = arith.divf %cst_2, %209 : f32
      linalg.yield %210 : f32
    } -> tensor<1x6x128xf32>
    %211 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_14, %206 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%205 : tensor<1x6x128xf32>) {
    ^bb0(%in_83: f32, %in_84: f32, %out_58: f32):
      %212 = arith.mulf %in_83, %in_84 : f32
      linalg.yield %212 : f32
    } -> tensor<1x6x128xf32>
    %transposed_10 = linalg.transpose ins(%model.layers.0.mlp.up_proj.weight:tensor<128x64xf32>) outs(%201:tensor<64x128xf32>) permutation = [1, 0]
    %213 = linalg.matmul ins(%collapsed_7, %transposed_10 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%203 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_15 = tensor.expand_shape %213 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %214 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%211, %expanded_15 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%205 : tensor<1x6x128xf32>) {
    ^bb0(%in_85: f32, %in_86: f32, %out_59: f32):
      %215 = arith.mulf %in_85, %in_86 : f32
      linalg.yield %215 : f32
    } -> tensor<1x6x128xf32>
    %216 = tensor.empty() : tensor<128x64xf32>
    %transposed_11 = linalg.transpose ins(%model.layers.0.mlp.down_proj.weight:tensor<64x128xf32>) outs(%216:tensor<128x64xf32>) permutation = [1, 0]
    %collapsed_8 = tensor.collapse_shape %214 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x128xf32> into tensor<6x128xf32>
    %217 = linalg.matmul ins(%collapsed_8, %transposed_11 : tensor<6x128xf32>, tensor<128x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_16 = tensor.expand_shape %217 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %218 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184, %expanded_16 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_87: f32, %in_88: f32, %out_60: f32):
      %219 = arith.addf %in_87, %in_88 : f32
      linalg.yield %219 : f32
    } -> tensor<1x6x64xf32>
    %220 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%218 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_89: f32, %out_61: f32):
      %221 = math.fpowi %in_89, %c2_i64 : f32, i64
      linalg.yield %221 : f32
    } -> tensor<1x6x64xf32>
    %222 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%220 : tensor<1x6x64xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_90: f32, %out_62: f32):
      %223 = arith.addf %in_90, %out_62 : f32
      linalg.yield %223 : f32
    } -> tensor<1x6x1xf32>
    %224 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%222 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_91: f32, %out_63: f32):
      %225 = arith.divf %in_91, %cst_10 : f32
      linalg.yield %225 : f32
    } -> tensor<1x6x1xf32>
    %226 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%224 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_92: f32, %out_64: f32):
      %227 = arith.truncf %cst_8 : f64 to f32
      %228 = arith.addf %in_92, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<1x6x1xf32>
    %229 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%226 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_93: f32, %out_65: f32):
      %230 = math.rsqrt %in_93 : f32
      linalg.yield %230 : f32
    } -> tensor<1x6x1xf32>
    %231 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%218, %229 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_94: f32, %in_95: f32, %out_66: f32):
      %232 = arith.mulf %in_94, %in_95 : f32
      linalg.yield %232 : f32
    } -> tensor<1x6x64xf32>
    %233 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.1.input_layernorm.weight, %231 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_96: f32, %in_97: f32, %out_67: f32):
      %234 = arith.mulf %in_96, %in_97 : f32
      linalg.yield %234 : f32
    } -> tensor<1x6x64xf32>
    %transposed_12 = linalg.transpose ins(%model.layers.1.self_attn.q_proj.weight:tensor<64x64xf32>) outs(%102:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_9 = tensor.collapse_shape %233 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %235 = linalg.matmul ins(%collapsed_9, %transposed_12 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_17 = tensor.expand_shape %235 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 4, 16] : tensor<6x64xf32> into tensor<1x6x4x16xf32>
    %transposed_13 = linalg.transpose ins(%expanded_17:tensor<1x6x4x16xf32>) outs(%106:tensor<1x4x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_14 = linalg.transpose ins(%model.layers.1.self_attn.k_proj.weight:tensor<32x64xf32>) outs(%107:tensor<64x32xf32>) permutation = [1, 0]
    %236 = linalg.matmul ins(%collapsed_9, %transposed_14 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%109 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_18 = tensor.expand_shape %236 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_15 = linalg.transpose ins(%expanded_18:tensor<1x6x2x16xf32>) outs(%111:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_16 = linalg.transpose ins(%model.layers.1.self_attn.v_proj.weight:tensor<32x64xf32>) outs(%107:tensor<64x32xf32>) permutation = [1, 0]
    %237 = linalg.matmul ins(%collapsed_9, %transposed_16 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%109 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_19 = tensor.expand_shape %237 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_17 = linalg.transpose ins(%expanded_19:tensor<1x6x2x16xf32>) outs(%111:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %238 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_13, %expanded_8 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%106 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_98: f32, %in_99: f32, %out_68: f32):
      %239 = arith.mulf %in_98, %in_99 : f32
      linalg.yield %239 : f32
    } -> tensor<1x4x6x16xf32>
    %extracted_slice_7 = tensor.extract_slice %transposed_13[0, 0, 0, 0] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %extracted_slice_8 = tensor.extract_slice %transposed_13[0, 0, 0, 8] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %240 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_8 : tensor<1x4x6x8xf32>) outs(%115 : tensor<1x4x6x8xf32>) {
    ^bb0(%in_100: f32, %out_69: f32):
      %241 = arith.negf %in_100 : f32
      linalg.yield %241 : f32
    } -> tensor<1x4x6x8xf32>
    %concat_4 = tensor.concat dim(3) %240, %extracted_slice_7 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x16xf32>
    %242 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_4, %expanded_9 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%106 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_101: f32, %in_102: f32, %out_70: f32):
      %243 = arith.mulf %in_101, %in_102 : f32
      linalg.yield %243 : f32
    } -> tensor<1x4x6x16xf32>
    %244 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%238, %242 : tensor<1x4x6x16xf32>, tensor<1x4x6x16xf32>) outs(%106 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_103: f32, %in_104: f32, %out_71: f32):
      %245 = arith.addf %in_103, %in_104 : f32
      linalg.yield %245 : f32
    } -> tensor<1x4x6x16xf32>
    %246 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_15, %expanded_8 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%111 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_105: f32, %in_106: f32, %out_72: f32):
      %247 = arith.mulf %in_105, %in_106 : f32
      linalg.yield %247 : f32
    } -> tensor<1x2x6x16xf32>
    %extracted_slice_9 = tensor.extract_slice %transposed_15[0, 0, 0, 0] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %extracted_slice_10 = tensor.extract_slice %transposed_15[0, 0, 0, 8] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %248 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_10 : tensor<1x2x6x8xf32>) outs(%124 : tensor<1x2x6x8xf32>) {
    ^bb0(%in_107: f32, %out_73: f32):
      %249 = arith.negf %in_107 : f32
      linalg.yield %249 : f32
    } -> tensor<1x2x6x8xf32>
    %concat_5 = tensor.concat dim(3) %248, %extracted_slice_9 : (tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x16xf32>
    %250 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_5, %expanded_9 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%111 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_108: f32, %in_109: f32, %out_74: f32):
      %251 = arith.mulf %in_108, %in_109 : f32
      linalg.yield %251 : f32
    } -> tensor<1x2x6x16xf32>
    %252 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%246, %250 : tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) outs(%111 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_110: f32, %in_111: f32, %out_75: f32):
      %253 = arith.addf %in_110, %in_111 : f32
      linalg.yield %253 : f32
    } -> tensor<1x2x6x16xf32>
    %254 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%252 : tensor<1x2x6x16xf32>) outs(%131 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_112: f32, %out_76: f32):
      linalg.yield %in_112 : f32
    } -> tensor<1x2x2x6x16xf32>
    %collapsed_10 = tensor.collapse_shape %254 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<1x4x6x16xf32>
    %255 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_17 : tensor<1x2x6x16xf32>) outs(%131 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_113: f32, %out_77: f32):
      linalg.yield %in_113 : f32
    } -> tensor<1x2x2x6x16xf32>
    %256 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%244 : tensor<1x4x6x16xf32>) outs(%106 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_114: f32, %out_78: f32):
      %257 = arith.mulf %in_114, %cst_11 : f32
      linalg.yield %257 : f32
    } -> tensor<1x4x6x16xf32>
    %transposed_18 = linalg.transpose ins(%collapsed_10:tensor<1x4x6x16xf32>) outs(%139:tensor<1x4x16x6xf32>) permutation = [0, 1, 3, 2]
    %258 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_18 : tensor<1x4x16x6xf32>) outs(%139 : tensor<1x4x16x6xf32>) {
    ^bb0(%in_115: f32, %out_79: f32):
      %259 = arith.mulf %in_115, %cst_11 : f32
      linalg.yield %259 : f32
    } -> tensor<1x4x16x6xf32>
    %collapsed_11 = tensor.collapse_shape %256 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x16xf32> into tensor<4x6x16xf32>
    %collapsed_12 = tensor.collapse_shape %258 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x16x6xf32> into tensor<4x16x6xf32>
    %260 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<4x6x16xf32>, tensor<4x16x6xf32>) outs(%143 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %expanded_20 = tensor.expand_shape %260 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 6] : tensor<4x6x6xf32> into tensor<1x4x6x6xf32>
    %261 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_20, %135 : tensor<1x4x6x6xf32>, tensor<1x1x6x6xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_116: f32, %in_117: f32, %out_80: f32):
      %262 = arith.addf %in_116, %in_117 : f32
      linalg.yield %262 : f32
    } -> tensor<1x4x6x6xf32>
    %263, %264 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%261 : tensor<1x4x6x6xf32>) outs(%151, %149 : tensor<1x4x6xf32>, tensor<1x4x6xi64>) {
    ^bb0(%in_118: f32, %out_81: f32, %out_82: i64):
      %265 = linalg.index 3 : index
      %266 = arith.index_cast %265 : index to i64
      %267 = arith.maximumf %in_118, %out_81 : f32
      %268 = arith.cmpf ogt, %in_118, %out_81 : f32
      %269 = arith.select %268, %266, %out_82 : i64
      linalg.yield %267, %269 : f32, i64
    } -> (tensor<1x4x6xf32>, tensor<1x4x6xi64>)
    %expanded_21 = tensor.expand_shape %263 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 6, 1] : tensor<1x4x6xf32> into tensor<1x4x6x1xf32>
    %270 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%261, %expanded_21 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_119: f32, %in_120: f32, %out_83: f32):
      %271 = arith.subf %in_119, %in_120 : f32
      linalg.yield %271 : f32
    } -> tensor<1x4x6x6xf32>
    %272 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%270 : tensor<1x4x6x6xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_121: f32, %out_84: f32):
      %273 = math.exp %in_121 : f32
      linalg.yield %273 : f32
    } -> tensor<1x4x6x6xf32>
    %274 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%272 : tensor<1x4x6x6xf32>) outs(%164 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_122: f32, %out_85: f32):
      %275 = arith.addf %in_122, %out_85 : f32
      linalg.yield %275 : f32
    } -> tensor<1x4x6x1xf32>
    %276 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%272, %274 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_123: f32, %in_124: f32, %out_86: f32):
      %277 = arith.divf %in_123, %in_124 : f32
      linalg.yield %277 : f32
    } -> tensor<1x4x6x6xf32>
    %278 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%261 : tensor<1x4x6x6xf32>) outs(%169 : tensor<1x4x6x6xi1>) {
    ^bb0(%in_125: f32, %out_87: i1):
      %279 = arith.extf %in_125 : f32 to f64
      %280 = arith.cmpf oeq, %279, %cst_7 : f64
      linalg.yield %280 : i1
    } -> tensor<1x4x6x6xi1>
    %281 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%278 : tensor<1x4x6x6xi1>) outs(%174 : tensor<1x4x6x1xi1>) {
    ^bb0(%in_126: i1, %out_88: i1):
      %282 = arith.andi %in_126, %out_88 : i1
      linalg.yield %282 : i1
    } -> tensor<1x4x6x1xi1>
    %283 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%281, %cst_3, %276 : tensor<1x4x6x1xi1>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%145 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_127: i1, %in_128: f32, %in_129: f32, %out_89: f32):
      %284 = arith.select %in_127, %in_128, %in_129 : f32
      linalg.yield %284 : f32
    } -> tensor<1x4x6x6xf32>
    %collapsed_13 = tensor.collapse_shape %283 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x6xf32> into tensor<4x6x6xf32>
    %collapsed_14 = tensor.collapse_shape %255 [[0 : i64, 1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<4x6x16xf32>
    %285 = linalg.batch_matmul ins(%collapsed_13, %collapsed_14 : tensor<4x6x6xf32>, tensor<4x6x16xf32>) outs(%180 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %expanded_22 = tensor.expand_shape %285 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 16] : tensor<4x6x16xf32> into tensor<1x4x6x16xf32>
    %transposed_19 = linalg.transpose ins(%expanded_22:tensor<1x4x6x16xf32>) outs(%182:tensor<1x6x4x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_20 = linalg.transpose ins(%model.layers.1.self_attn.o_proj.weight:tensor<64x64xf32>) outs(%102:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_15 = tensor.collapse_shape %transposed_19 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x6x4x16xf32> into tensor<6x64xf32>
    %286 = linalg.matmul ins(%collapsed_15, %transposed_20 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_23 = tensor.expand_shape %286 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %287 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%218, %expanded_23 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_130: f32, %in_131: f32, %out_90: f32):
      %288 = arith.addf %in_130, %in_131 : f32
      linalg.yield %288 : f32
    } -> tensor<1x6x64xf32>
    %289 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%287 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_132: f32, %out_91: f32):
      %290 = math.fpowi %in_132, %c2_i64 : f32, i64
      linalg.yield %290 : f32
    } -> tensor<1x6x64xf32>
    %291 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%289 : tensor<1x6x64xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_133: f32, %out_92: f32):
      %292 = arith.addf %in_133, %out_92 : f32
      linalg.yield %292 : f32
    } -> tensor<1x6x1xf32>
    %293 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%291 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_134: f32, %out_93: f32):
      %294 = arith.divf %in_134, %cst_10 : f32
      linalg.yield %294 : f32
    } -> tensor<1x6x1xf32>
    %295 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%293 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_135: f32, %out_94: f32):
      %296 = arith.truncf %cst_8 : f64 to f32
      %297 = arith.addf %in_135, %296 : f32
      linalg.yield %297 : f32
    } -> tensor<1x6x1xf32>
    %298 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%295 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_136: f32, %out_95: f32):
      %299 = math.rsqrt %in_136 : f32
      linalg.yield %299 : f32
    } -> tensor<1x6x1xf32>
    %300 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%287, %298 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_137: f32, %in_138: f32, %out_96: f32):
      %301 = arith.mulf %in_137, %in_138 : f32
      linalg.yield %301 : f32
    } -> tensor<1x6x64xf32>
    %302 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.1.post_attention_layernorm.weight, %300 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_139: f32, %in_140: f32, %out_97: f32):
      %303 = arith.mulf %in_139, %in_140 : f32
      linalg.yield %303 : f32
    } -> tensor<1x6x64xf32>
    %transposed_21 = linalg.transpose ins(%model.layers.1.mlp.gate_proj.weight:tensor<128x64xf32>) outs(%201:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_16 = tensor.collapse_shape %302 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %304 = linalg.matmul ins(%collapsed_16, %transposed_21 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%203 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_24 = tensor.expand_shape %304 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %305 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24 : tensor<1x6x128xf32>) outs(%205 : tensor<1x6x128xf32>) {
    ^bb0(%in_141: f32, %out_98: f32):
      %306 = arith.negf %in_141 : f32
      %307 = math.exp %306 : f32
      %308 = arith.addf %307, %cst_2 : f32
      %309 = arith.divf %cst_2, %308 : f32
      linalg.yield %309 : f32
    } -> tensor<1x6x128xf32>
    %310 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24, %305 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%205 : tensor<1x6x128xf32>) {
    ^bb0(%in_142: f32, %in_143: f32, %out_99: f32):
      %311 = arith.mulf %in_142, %in_143 : f32
      linalg.yield %311 : f32
    } -> tensor<1x6x128xf32>
    %transposed_22 = linalg.transpose ins(%model.layers.1.mlp.up_proj.weight:tensor<128x64xf32>) outs(%201:tensor<64x128xf32>) permutation = [1, 0]
    %312 = linalg.matmul ins(%collapsed_16, %transposed_22 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%203 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_25 = tensor.expand_shape %312 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %313 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%310, %expanded_25 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%205 : tensor<1x6x128xf32>) {
    ^bb0(%in_144: f32, %in_145: f32, %out_100: f32):
      %314 = arith.mulf %in_144, %in_145 : f32
      linalg.yield %314 : f32
    } -> tensor<1x6x128xf32>
    %transposed_23 = linalg.transpose ins(%model.layers.1.mlp.down_proj.weight:tensor<64x128xf32>) outs(%216:tensor<128x64xf32>) permutation = [1, 0]
    %collapsed_17 = tensor.collapse_shape %313 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x128xf32> into tensor<6x128xf32>
    %315 = linalg.matmul ins(%collapsed_17, %transposed_23 : tensor<6x128xf32>, tensor<128x64xf32>) outs(%104 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_26 = tensor.expand_shape %315 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %316 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%287, %expanded_26 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_146: f32, %in_147: f32, %out_101: f32):
      %317 = arith.addf %in_146, %in_147 : f32
      linalg.yield %317 : f32
    } -> tensor<1x6x64xf32>
    %318 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%316 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_148: f32, %out_102: f32):
      %319 = math.fpowi %in_148, %c2_i64 : f32, i64
      linalg.yield %319 : f32
    } -> tensor<1x6x64xf32>
    %320 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%318 : tensor<1x6x64xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_149: f32, %out_103: f32):
      %321 = arith.addf %in_149, %out_103 : f32
      linalg.yield %321 : f32
    } -> tensor<1x6x1xf32>
    %322 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%320 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_150: f32, %out_104: f32):
      %323 = arith.divf %in_150, %cst_10 : f32
      linalg.yield %323 : f32
    } -> tensor<1x6x1xf32>
    %324 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%322 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_151: f32, %out_105: f32):
      %325 = arith.truncf %cst_8 : f64 to f32
      %326 = arith.addf %in_151, %325 : f32
      linalg.yield %326 : f32
    } -> tensor<1x6x1xf32>
    %327 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%324 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_152: f32, %out_106: f32):
      %328 = math.rsqrt %in_152 : f32
      linalg.yield %328 : f32
    } -> tensor<1x6x1xf32>
    %329 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%316, %327 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_153: f32, %in_154: f32, %out_107: f32):
      %330 = arith.mulf %in_153, %in_154 : f32
      linalg.yield %330 : f32
    } -> tensor<1x6x64xf32>
    %331 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.norm.weight, %329 : tensor<64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_155: f32, %in_156: f32, %out_108: f32):
      %332 = arith.mulf %in_155, %in_156 : f32
      linalg.yield %332 : f32
    } -> tensor<1x6x64xf32>
    %transposed_24 = linalg.transpose ins(%model.embed_tokens.weight:tensor<128x64xf32>) outs(%201:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_18 = tensor.collapse_shape %331 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %333 = linalg.matmul ins(%collapsed_18, %transposed_24 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%203 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_27 = tensor.expand_shape %333 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    func.return %expanded_27 : tensor<1x6x128xf32>
  }
}
