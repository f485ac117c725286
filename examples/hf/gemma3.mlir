// Gemma3ForCausalLM (random weights) exported by examples/hf/export.py
builtin.module {
  func.func @main(%input_ids: tensor<1x6xi64>, %model.embed_tokens.weight: tensor<128x64xf32>, %model.layers.0.self_attn.q_proj.weight: tensor<64x64xf32>, %model.layers.0.self_attn.k_proj.weight: tensor<32x64xf32>, %model.layers.0.self_attn.v_proj.weight: tensor<32x64xf32>, %model.layers.0.self_attn.o_proj.weight: tensor<64x64xf32>, %model.layers.0.self_attn.q_norm.weight: tensor<16xf32>, %model.layers.0.self_attn.k_norm.weight: tensor<16xf32>, %model.layers.0.mlp.gate_proj.weight: tensor<128x64xf32>, %model.layers.0.mlp.up_proj.weight: tensor<128x64xf32>, %model.layers.0.mlp.down_proj.weight: tensor<64x128xf32>, %model.layers.0.input_layernorm.weight: tensor<64xf32>, %model.layers.0.post_attention_layernorm.weight: tensor<64xf32>, %model.layers.0.pre_feedforward_layernorm.weight: tensor<64xf32>, %model.layers.0.post_feedforward_layernorm.weight: tensor<64xf32>, %model.layers.1.self_attn.q_proj.weight: tensor<64x64xf32>, %model.layers.1.self_attn.k_proj.weight: tensor<32x64xf32>, %model.layers.1.self_attn.v_proj.weight: tensor<32x64xf32>, %model.layers.1.self_attn.o_proj.weight: tensor<64x64xf32>, %model.layers.1.self_attn.q_norm.weight: tensor<16xf32>, %model.layers.1.self_attn.k_norm.weight: tensor<16xf32>, %model.layers.1.mlp.gate_proj.weight: tensor<128x64xf32>, %model.layers.1.mlp.up_proj.weight: tensor<128x64xf32>, %model.layers.1.mlp.down_proj.weight: tensor<64x128xf32>, %model.layers.1.input_layernorm.weight: tensor<64xf32>, %model.layers.1.post_attention_layernorm.weight: tensor<64xf32>, %model.layers.1.pre_feedforward_layernorm.weight: tensor<64xf32>, %model.layers.1.post_feedforward_layernorm.weight: tensor<64xf32>, %model.norm.weight: tensor<64xf32>) -> tensor<1x6x128xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c2_i64 = arith.constant 2 : i64
    %c1_i64 = arith.constant 1 : i64
    %c6_i64 = arith.constant 6 : i64
    %c128 = arith.constant 128 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xff800000 : f32
    %true = arith.constant true
    %c3_i64 = arith.constant 3 : i64
    %cst_2 = arith.constant 4.471500e-02 : f32
    %cst_3 = arith.constant 7.977240e-01 : f32
    %cst_4 = arith.constant 1.000000e+00 : f32
    %cst_5 = arith.constant 5.000000e-01 : f32
    %cst_6 = arith.constant dense<0.000000e+00> : tensor<1x4x6x6xf32>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_8 = arith.constant dense<0xff800000> : tensor<f32>
    %cst_9 = arith.constant dense<true> : tensor<i1>
    %cst_10 = arith.constant 0xfff0000000000000 : f64
    %cst_11 = arith.constant 1.000000e-06 : f64
    %cst_12 = arith.constant dense<[1.000000e+00, 0.316227764, 1.000000e-01, 0.0316227786, 1.000000e-02, 0.00316227786, 1.000000e-03, 0.000316227786]> : tensor<8xf32>
    %cst_13 = arith.constant dense<8.000000e+00> : tensor<f32>
    %cst_14 = arith.constant 6.400000e+01 : f32
    %cst_15 = arith.constant 1.600000e+01 : f32
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
    %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %cst_13 : tensor<1x6x64xf32>, tensor<f32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_1: f32, %in_2: f32, %out_1: f32):
      %7 = arith.mulf %in_1, %in_2 : f32
      linalg.yield %7 : f32
    } -> tensor<1x6x64xf32>
    %8 = tensor.empty() : tensor<6xi64>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%8 : tensor<6xi64>) {
    ^bb0(%out_2: i64):
      %10 = linalg.index 0 : index
      %11 = arith.index_cast %10 : index to i64
      linalg.yield %11 : i64
    } -> tensor<6xi64>
    %expanded = tensor.expand_shape %9 [[0 : i64, 1 : i64]] output_shape [1, 6] : tensor<6xi64> into tensor<1x6xi64>
    %extracted_slice = tensor.extract_slice %expanded[0, 0] [1, 1] [1, 1] : tensor<1x6xi64> to tensor<1x1xi64>
    %12 = tensor.empty() : tensor<1x1xi64>
    %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice : tensor<1x1xi64>) outs(%12 : tensor<1x1xi64>) {
    ^bb0(%in_3: i64, %out_3: i64):
      %14 = arith.subi %in_3, %c1_i64 : i64
      linalg.yield %14 : i64
    } -> tensor<1x1xi64>
    %concat = tensor.concat dim(1) %13, %expanded : (tensor<1x1xi64>, tensor<1x6xi64>) -> tensor<1x7xi64>
    %extracted_slice_1 = tensor.extract_slice %concat[0, 0] [1, 6] [1, 1] : tensor<1x7xi64> to tensor<1x6xi64>
    %extracted_slice_2 = tensor.extract_slice %concat[0, 1] [1, 6] [1, 1] : tensor<1x7xi64> to tensor<1x6xi64>
    %15 = tensor.empty() : tensor<1x6xi64>
    %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_2, %extracted_slice_1 : tensor<1x6xi64>, tensor<1x6xi64>) outs(%15 : tensor<1x6xi64>) {
    ^bb0(%in_4: i64, %in_5: i64, %out_4: i64):
      %17 = arith.subi %in_4, %in_5 : i64
      linalg.yield %17 : i64
    } -> tensor<1x6xi64>
    %18 = tensor.empty() : tensor<1x6xi1>
    %19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<1x6xi64>) outs(%18 : tensor<1x6xi1>) {
    ^bb0(%in_6: i64, %out_5: i1):
      %20 = arith.cmpi ne, %in_6, %c1_i64 : i64
      linalg.yield %20 : i1
    } -> tensor<1x6xi1>
    %21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%19 : tensor<1x6xi1>) outs(%15 : tensor<1x6xi64>) {
    ^bb0(%in_7: i1, %out_6: i64):
      %22 = arith.extui %in_7 : i1 to i64
      linalg.yield %22 : i64
    } -> tensor<1x6xi64>
    %23 = linalg.fill ins(%c0_i64 : i64) outs(%15 : tensor<1x6xi64>) -> tensor<1x6xi64>
    %24 = tensor.empty() : tensor<1xi64>
    %25 = linalg.fill ins(%c0_i64 : i64) outs(%24 : tensor<1xi64>) -> tensor<1xi64>
    %26, %27 = tm_tensor.scan dimension(1) inclusive(true) ins(%21 : tensor<1x6xi64>) outs(%23, %25 : tensor<1x6xi64>, tensor<1xi64>) {
    ^bb0(%arg29: i64, %arg30: i64):
      %28 = arith.addi %arg29, %arg30 : i64
      tm_tensor.yield %28 : i64
    } -> tensor<1x6xi64>, tensor<1xi64>
    %29 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%24 : tensor<1xi64>) {
    ^bb0(%out_7: i64):
      linalg.yield %c0_i64 : i64
    } -> tensor<1xi64>
    %expanded_1 = tensor.expand_shape %29 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, 1, 1] : tensor<1xi64> into tensor<1x1x1x1xi64>
    %expanded_2 = tensor.expand_shape %9 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, 6, 1] : tensor<6xi64> into tensor<1x1x6x1xi64>
    %expanded_3 = tensor.expand_shape %9 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [1, 1, 1, 6] : tensor<6xi64> into tensor<1x1x1x6xi64>
    %30 = tensor.empty() : tensor<1x1x6x1xi64>
    %31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, 0, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_1, %expanded_2 : tensor<1x1x1x1xi64>, tensor<1x1x6x1xi64>) outs(%30 : tensor<1x1x6x1xi64>) {
    ^bb0(%in_8: i64, %in_9: i64, %out_8: i64):
      %32 = arith.cmpi slt, %in_8, %c0_i64 : i64
      %33 = arith.addi %in_8, %c1_i64 : i64
      %34 = arith.select %32, %33, %in_8 : i64
      %35 = arith.index_cast %34 : i64 to index
      %36 = arith.cmpi slt, %in_9, %c0_i64 : i64
      %37 = arith.addi %in_9, %c6_i64 : i64
      %38 = arith.select %36, %37, %in_9 : i64
      %39 = arith.index_cast %38 : i64 to index
      %extracted_1 = tensor.extract %expanded[%35, %39] : tensor<1x6xi64>
      linalg.yield %extracted_1 : i64
    } -> tensor<1x1x6x1xi64>
    %40 = tensor.empty() : tensor<1x1x1x6xi64>
    %41 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_1, %expanded_3 : tensor<1x1x1x1xi64>, tensor<1x1x1x6xi64>) outs(%40 : tensor<1x1x1x6xi64>) {
    ^bb0(%in_10: i64, %in_11: i64, %out_9: i64):
      %42 = arith.cmpi slt, %in_10, %c0_i64 : i64
      %43 = arith.addi %in_10, %c1_i64 : i64
      %44 = arith.select %42, %43, %in_10 : i64
      %45 = arith.index_cast %44 : i64 to index
      %46 = arith.cmpi slt, %in_11, %c0_i64 : i64
      %47 = arith.addi %in_11, %c6_i64 : i64
      %48 = arith.select %46, %47, %in_11 : i64
      %49 = arith.index_cast %48 : i64 to index
      %extracted_2 = tensor.extract %expanded[%45, %49] : tensor<1x6xi64>
      linalg.yield %extracted_2 : i64
    } -> tensor<1x1x1x6xi64>
    %50 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%31 : tensor<1x1x6x1xi64>) outs(%30 : tensor<1x1x6x1xi64>) {
    ^bb0(%in_12: i64, %out_10: i64):
      %51 = arith.subi %in_12, %c4_i64 : i64
      linalg.yield %51 : i64
    } -> tensor<1x1x6x1xi64>
    %52 = tensor.empty() : tensor<1x1x6x6xi1>
    %53 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%41, %50 : tensor<1x1x1x6xi64>, tensor<1x1x6x1xi64>) outs(%52 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_13: i64, %in_14: i64, %out_11: i1):
      %54 = arith.cmpi sgt, %in_13, %in_14 : i64
      linalg.yield %54 : i1
    } -> tensor<1x1x6x6xi1>
    %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_9, %53 : tensor<i1>, tensor<1x1x6x6xi1>) outs(%52 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_15: i1, %in_16: i1, %out_12: i1):
      %56 = arith.andi %in_15, %in_16 : i1
      linalg.yield %56 : i1
    } -> tensor<1x1x6x6xi1>
    %57 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%41, %31 : tensor<1x1x1x6xi64>, tensor<1x1x6x1xi64>) outs(%52 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_17: i64, %in_18: i64, %out_13: i1):
      %58 = arith.cmpi sle, %in_17, %in_18 : i64
      linalg.yield %58 : i1
    } -> tensor<1x1x6x6xi1>
    %59 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55, %57 : tensor<1x1x6x6xi1>, tensor<1x1x6x6xi1>) outs(%52 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_19: i1, %in_20: i1, %out_14: i1):
      %60 = arith.andi %in_19, %in_20 : i1
      linalg.yield %60 : i1
    } -> tensor<1x1x6x6xi1>
    %61 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_9, %59 : tensor<i1>, tensor<1x1x6x6xi1>) outs(%52 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_21: i1, %in_22: i1, %out_15: i1):
      %62 = arith.andi %in_21, %in_22 : i1
      linalg.yield %62 : i1
    } -> tensor<1x1x6x6xi1>
    %63 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, 0, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_1, %expanded_2 : tensor<1x1x1x1xi64>, tensor<1x1x6x1xi64>) outs(%30 : tensor<1x1x6x1xi64>) {
    ^bb0(%in_23: i64, %in_24: i64, %out_16: i64):
      %64 = arith.cmpi slt, %in_23, %c0_i64 : i64
      %65 = arith.addi %in_23, %c1_i64 : i64
      %66 = arith.select %64, %65, %in_23 : i64
      %67 = arith.index_cast %66 : i64 to index
      %68 = arith.cmpi slt, %in_24, %c0_i64 : i64
      %69 = arith.addi %in_24, %c6_i64 : i64
      %70 = arith.select %68, %69, %in_24 : i64
      %71 = arith.index_cast %70 : i64 to index
      %extracted_3 = tensor.extract %26[%67, %71] : tensor<1x6xi64>
      linalg.yield %extracted_3 : i64
    } -> tensor<1x1x6x1xi64>
    %72 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_1, %expanded_3 : tensor<1x1x1x1xi64>, tensor<1x1x1x6xi64>) outs(%40 : tensor<1x1x1x6xi64>) {
    ^bb0(%in_25: i64, %in_26: i64, %out_17: i64):
      %73 = arith.cmpi slt, %in_25, %c0_i64 : i64
      %74 = arith.addi %in_25, %c1_i64 : i64
      %75 = arith.select %73, %74, %in_25 : i64
      %76 = arith.index_cast %75 : i64 to index
      %77 = arith.cmpi slt, %in_26, %c0_i64 : i64
      %78 = arith.addi %in_26, %c6_i64 : i64
      %79 = arith.select %77, %78, %in_26 : i64
      %80 = arith.index_cast %79 : i64 to index
      %extracted_4 = tensor.extract %26[%76, %80] : tensor<1x6xi64>
      linalg.yield %extracted_4 : i64
    } -> tensor<1x1x1x6xi64>
    %81 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%63, %72 : tensor<1x1x6x1xi64>, tensor<1x1x1x6xi64>) outs(%52 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_27: i64, %in_28: i64, %out_18: i1):
      %82 = arith.cmpi eq, %in_27, %in_28 : i64
      linalg.yield %82 : i1
    } -> tensor<1x1x6x6xi1>
    %83 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%61, %81 : tensor<1x1x6x6xi1>, tensor<1x1x6x6xi1>) outs(%52 : tensor<1x1x6x6xi1>) {
    ^bb0(%in_29: i1, %in_30: i1, %out_19: i1):
      %84 = arith.andi %in_29, %in_30 : i1
      linalg.yield %84 : i1
    } -> tensor<1x1x6x6xi1>
    %expanded_4 = tensor.expand_shape %9 [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 6, 1] : tensor<6xi64> into tensor<1x6x1xi64>
    %85 = tensor.empty() : tensor<1x6x1xf32>
    %86 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_4 : tensor<1x6x1xi64>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_31: i64, %out_20: f32):
      %87 = arith.sitofp %in_31 : i64 to f32
      linalg.yield %87 : f32
    } -> tensor<1x6x1xf32>
    %88 = tensor.empty() : tensor<1x6x8xf32>
    %89 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%86, %cst_12 : tensor<1x6x1xf32>, tensor<8xf32>) outs(%88 : tensor<1x6x8xf32>) {
    ^bb0(%in_32: f32, %in_33: f32, %out_21: f32):
      %90 = arith.mulf %in_32, %in_33 : f32
      linalg.yield %90 : f32
    } -> tensor<1x6x8xf32>
    %concat_1 = tensor.concat dim(2) %89, %89 : (tensor<1x6x8xf32>, tensor<1x6x8xf32>) -> tensor<1x6x16xf32>
    %91 = tensor.empty() : tensor<1x6x16xf32>
    %92 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_1 : tensor<1x6x16xf32>) outs(%91 : tensor<1x6x16xf32>) {
    ^bb0(%in_34: f32, %out_22: f32):
      %93 = math.cos %in_34 : f32
      linalg.yield %93 : f32
    } -> tensor<1x6x16xf32>
    %94 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_1 : tensor<1x6x16xf32>) outs(%91 : tensor<1x6x16xf32>) {
    ^bb0(%in_35: f32, %out_23: f32):
      %95 = math.sin %in_35 : f32
      linalg.yield %95 : f32
    } -> tensor<1x6x16xf32>
    %96 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_36: f32, %out_24: f32):
      %97 = math.fpowi %in_36, %c2_i64 : f32, i64
      linalg.yield %97 : f32
    } -> tensor<1x6x64xf32>
    %98 = linalg.fill ins(%cst : f32) outs(%85 : tensor<1x6x1xf32>) -> tensor<1x6x1xf32>
    %99 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%96 : tensor<1x6x64xf32>) outs(%98 : tensor<1x6x1xf32>) {
    ^bb0(%in_37: f32, %out_25: f32):
      %100 = arith.addf %in_37, %out_25 : f32
      linalg.yield %100 : f32
    } -> tensor<1x6x1xf32>
    %101 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%99 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_38: f32, %out_26: f32):
      %102 = arith.divf %in_38, %cst_14 : f32
      linalg.yield %102 : f32
    } -> tensor<1x6x1xf32>
    %103 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%101 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_39: f32, %out_27: f32):
      %104 = arith.truncf %cst_11 : f64 to f32
      %105 = arith.addf %in_39, %104 : f32
      linalg.yield %105 : f32
    } -> tensor<1x6x1xf32>
    %106 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%103 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_40: f32, %out_28: f32):
      %107 = math.rsqrt %in_40 : f32
      linalg.yield %107 : f32
    } -> tensor<1x6x1xf32>
    %108 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %106 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_41: f32, %in_42: f32, %out_29: f32):
      %109 = arith.mulf %in_41, %in_42 : f32
      linalg.yield %109 : f32
    } -> tensor<1x6x64xf32>
    %110 = tensor.empty() : tensor<64xf32>
    %111 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.0.input_layernorm.weight : tensor<64xf32>) outs(%110 : tensor<64xf32>) {
    ^bb0(%in_43: f32, %out_30: f32):
      %112 = arith.addf %in_43, %cst_4 : f32
      linalg.yield %112 : f32
    } -> tensor<64xf32>
    %113 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%108, %111 : tensor<1x6x64xf32>, tensor<64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_44: f32, %in_45: f32, %out_31: f32):
      %114 = arith.mulf %in_44, %in_45 : f32
      linalg.yield %114 : f32
    } -> tensor<1x6x64xf32>
    %115 = tensor.empty() : tensor<64x64xf32>
    %transposed = linalg.transpose ins(%model.layers.0.self_attn.q_proj.weight:tensor<64x64xf32>) outs(%115:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed = tensor.collapse_shape %113 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %116 = tensor.empty() : tensor<6x64xf32>
    %117 = linalg.fill ins(%cst : f32) outs(%116 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %118 = linalg.matmul ins(%collapsed, %transposed : tensor<6x64xf32>, tensor<64x64xf32>) outs(%117 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_5 = tensor.expand_shape %118 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 4, 16] : tensor<6x64xf32> into tensor<1x6x4x16xf32>
    %119 = tensor.empty() : tensor<1x4x6x16xf32>
    %transposed_1 = linalg.transpose ins(%expanded_5:tensor<1x6x4x16xf32>) outs(%119:tensor<1x4x6x16xf32>) permutation = [0, 2, 1, 3]
    %120 = tensor.empty() : tensor<64x32xf32>
    %transposed_2 = linalg.transpose ins(%model.layers.0.self_attn.k_proj.weight:tensor<32x64xf32>) outs(%120:tensor<64x32xf32>) permutation = [1, 0]
    %121 = tensor.empty() : tensor<6x32xf32>
    %122 = linalg.fill ins(%cst : f32) outs(%121 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %123 = linalg.matmul ins(%collapsed, %transposed_2 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%122 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_6 = tensor.expand_shape %123 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %124 = tensor.empty() : tensor<1x2x6x16xf32>
    %transposed_3 = linalg.transpose ins(%expanded_6:tensor<1x6x2x16xf32>) outs(%124:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_4 = linalg.transpose ins(%model.layers.0.self_attn.v_proj.weight:tensor<32x64xf32>) outs(%120:tensor<64x32xf32>) permutation = [1, 0]
    %125 = linalg.matmul ins(%collapsed, %transposed_4 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%122 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_7 = tensor.expand_shape %125 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_5 = linalg.transpose ins(%expanded_7:tensor<1x6x2x16xf32>) outs(%124:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %126 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_1 : tensor<1x4x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_46: f32, %out_32: f32):
      %127 = math.fpowi %in_46, %c2_i64 : f32, i64
      linalg.yield %127 : f32
    } -> tensor<1x4x6x16xf32>
    %128 = tensor.empty() : tensor<1x4x6x1xf32>
    %129 = linalg.fill ins(%cst : f32) outs(%128 : tensor<1x4x6x1xf32>) -> tensor<1x4x6x1xf32>
    %130 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%126 : tensor<1x4x6x16xf32>) outs(%129 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_47: f32, %out_33: f32):
      %131 = arith.addf %in_47, %out_33 : f32
      linalg.yield %131 : f32
    } -> tensor<1x4x6x1xf32>
    %132 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%130 : tensor<1x4x6x1xf32>) outs(%128 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_48: f32, %out_34: f32):
      %133 = arith.divf %in_48, %cst_15 : f32
      linalg.yield %133 : f32
    } -> tensor<1x4x6x1xf32>
    %134 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%132 : tensor<1x4x6x1xf32>) outs(%128 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_49: f32, %out_35: f32):
      %135 = arith.truncf %cst_11 : f64 to f32
      %136 = arith.addf %in_49, %135 : f32
      linalg.yield %136 : f32
    } -> tensor<1x4x6x1xf32>
    %137 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%134 : tensor<1x4x6x1xf32>) outs(%128 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_50: f32, %out_36: f32):
      %138 = math.rsqrt %in_50 : f32
      linalg.yield %138 : f32
    } -> tensor<1x4x6x1xf32>
    %139 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_1, %137 : tensor<1x4x6x16xf32>, tensor<1x4x6x1xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_51: f32, %in_52: f32, %out_37: f32):
      %140 = arith.mulf %in_51, %in_52 : f32
      linalg.yield %140 : f32
    } -> tensor<1x4x6x16xf32>
    %141 = tensor.empty() : tensor<16xf32>
    %142 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.0.self_attn.q_norm.weight : tensor<16xf32>) outs(%141 : tensor<16xf32>) {
    ^bb0(%in_53: f32, %out_38: f32):
      %143 = arith.addf %in_53, %cst_4 : f32
      linalg.yield %143 : f32
    } -> tensor<16xf32>
    %144 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%139, %142 : tensor<1x4x6x16xf32>, tensor<16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_54: f32, %in_55: f32, %out_39: f32):
      %145 = arith.mulf %in_54, %in_55 : f32
      linalg.yield %145 : f32
    } -> tensor<1x4x6x16xf32>
    %146 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_3 : tensor<1x2x6x16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_56: f32, %out_40: f32):
      %147 = math.fpowi %in_56, %c2_i64 : f32, i64
      linalg.yield %147 : f32
    } -> tensor<1x2x6x16xf32>
    %148 = tensor.empty() : tensor<1x2x6x1xf32>
    %149 = linalg.fill ins(%cst : f32) outs(%148 : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
    %150 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%146 : tensor<1x2x6x16xf32>) outs(%149 : tensor<1x2x6x1xf32>) {
    ^bb0(%in_57: f32, %out_41: f32):
      %151 = arith.addf %in_57, %out_41 : f32
      linalg.yield %151 : f32
    } -> tensor<1x2x6x1xf32>
    %152 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%150 : tensor<1x2x6x1xf32>) outs(%148 : tensor<1x2x6x1xf32>) {
    ^bb0(%in_58: f32, %out_42: f32):
      %153 = arith.divf %in_58, %cst_15 : f32
      linalg.yield %153 : f32
    } -> tensor<1x2x6x1xf32>
    %154 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%152 : tensor<1x2x6x1xf32>) outs(%148 : tensor<1x2x6x1xf32>) {
    ^bb0(%in_59: f32, %out_43: f32):
      %155 = arith.truncf %cst_11 : f64 to f32
      %156 = arith.addf %in_59, %155 : f32
      linalg.yield %156 : f32
    } -> tensor<1x2x6x1xf32>
    %157 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%154 : tensor<1x2x6x1xf32>) outs(%148 : tensor<1x2x6x1xf32>) {
    ^bb0(%in_60: f32, %out_44: f32):
      %158 = math.rsqrt %in_60 : f32
      linalg.yield %158 : f32
    } -> tensor<1x2x6x1xf32>
    %159 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_3, %157 : tensor<1x2x6x16xf32>, tensor<1x2x6x1xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_61: f32, %in_62: f32, %out_45: f32):
      %160 = arith.mulf %in_61, %in_62 : f32
      linalg.yield %160 : f32
    } -> tensor<1x2x6x16xf32>
    %161 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.0.self_attn.k_norm.weight : tensor<16xf32>) outs(%141 : tensor<16xf32>) {
    ^bb0(%in_63: f32, %out_46: f32):
      %162 = arith.addf %in_63, %cst_4 : f32
      linalg.yield %162 : f32
    } -> tensor<16xf32>
    %163 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%159, %161 : tensor<1x2x6x16xf32>, tensor<16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_64: f32, %in_65: f32, %out_47: f32):
      %164 = arith.mulf %in_64, %in_65 : f32
      linalg.yield %164 : f32
    } -> tensor<1x2x6x16xf32>
    %expanded_8 = tensor.expand_shape %92 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 16] : tensor<1x6x16xf32> into tensor<1x1x6x16xf32>
    %expanded_9 = tensor.expand_shape %94 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 16] : tensor<1x6x16xf32> into tensor<1x1x6x16xf32>
    %165 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%144, %expanded_8 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_66: f32, %in_67: f32, %out_48: f32):
      %166 = arith.mulf %in_66, %in_67 : f32
      linalg.yield %166 : f32
    } -> tensor<1x4x6x16xf32>
    %extracted_slice_3 = tensor.extract_slice %144[0, 0, 0, 0] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %extracted_slice_4 = tensor.extract_slice %144[0, 0, 0, 8] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %167 = tensor.empty() : tensor<1x4x6x8xf32>
    %168 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_4 : tensor<1x4x6x8xf32>) outs(%167 : tensor<1x4x6x8xf32>) {
    ^bb0(%in_68: f32, %out_49: f32):
      %169 = arith.negf %in_68 : f32
      linalg.yield %169 : f32
    } -> tensor<1x4x6x8xf32>
    %concat_2 = tensor.concat dim(3) %168, %extracted_slice_3 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x16xf32>
    %170 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_2, %expanded_9 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_69: f32, %in_70: f32, %out_50: f32):
      %171 = arith.mulf %in_69, %in_70 : f32
      linalg.yield %171 : f32
    } -> tensor<1x4x6x16xf32>
    %172 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%165, %170 : tensor<1x4x6x16xf32>, tensor<1x4x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_71: f32, %in_72: f32, %out_51: f32):
      %173 = arith.addf %in_71, %in_72 : f32
      linalg.yield %173 : f32
    } -> tensor<1x4x6x16xf32>
    %174 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%163, %expanded_8 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_73: f32, %in_74: f32, %out_52: f32):
      %175 = arith.mulf %in_73, %in_74 : f32
      linalg.yield %175 : f32
    } -> tensor<1x2x6x16xf32>
    %extracted_slice_5 = tensor.extract_slice %163[0, 0, 0, 0] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %extracted_slice_6 = tensor.extract_slice %163[0, 0, 0, 8] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %176 = tensor.empty() : tensor<1x2x6x8xf32>
    %177 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_6 : tensor<1x2x6x8xf32>) outs(%176 : tensor<1x2x6x8xf32>) {
    ^bb0(%in_75: f32, %out_53: f32):
      %178 = arith.negf %in_75 : f32
      linalg.yield %178 : f32
    } -> tensor<1x2x6x8xf32>
    %concat_3 = tensor.concat dim(3) %177, %extracted_slice_5 : (tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x16xf32>
    %179 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_3, %expanded_9 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_76: f32, %in_77: f32, %out_54: f32):
      %180 = arith.mulf %in_76, %in_77 : f32
      linalg.yield %180 : f32
    } -> tensor<1x2x6x16xf32>
    %181 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%174, %179 : tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_78: f32, %in_79: f32, %out_55: f32):
      %182 = arith.addf %in_78, %in_79 : f32
      linalg.yield %182 : f32
    } -> tensor<1x2x6x16xf32>
    %183 = tensor.empty() : tensor<1x2x2x6x16xf32>
    %184 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%181 : tensor<1x2x6x16xf32>) outs(%183 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_80: f32, %out_56: f32):
      linalg.yield %in_80 : f32
    } -> tensor<1x2x2x6x16xf32>
    %collapsed_1 = tensor.collapse_shape %184 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<1x4x6x16xf32>
    %185 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_5 : tensor<1x2x6x16xf32>) outs(%183 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_81: f32, %out_57: f32):
      linalg.yield %in_81 : f32
    } -> tensor<1x2x2x6x16xf32>
    %186 = tensor.empty() : tensor<1x1x6x6xf32>
    %187 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%83, %cst_7, %cst_8 : tensor<1x1x6x6xi1>, tensor<f32>, tensor<f32>) outs(%186 : tensor<1x1x6x6xf32>) {
    ^bb0(%in_82: i1, %in_83: f32, %in_84: f32, %out_58: f32):
      %188 = arith.select %in_82, %in_83, %in_84 : f32
      linalg.yield %188 : f32
    } -> tensor<1x1x6x6xf32>
    %189 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%172 : tensor<1x4x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_85: f32, %out_59: f32):
      %190 = arith.mulf %in_85, %cst_5 : f32
      linalg.yield %190 : f32
    } -> tensor<1x4x6x16xf32>
    %191 = tensor.empty() : tensor<1x4x16x6xf32>
    %transposed_6 = linalg.transpose ins(%collapsed_1:tensor<1x4x6x16xf32>) outs(%191:tensor<1x4x16x6xf32>) permutation = [0, 1, 3, 2]
    %192 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_6 : tensor<1x4x16x6xf32>) outs(%191 : tensor<1x4x16x6xf32>) {
    ^bb0(%in_86: f32, %out_60: f32):
      %193 = arith.mulf %in_86, %cst_5 : f32
      linalg.yield %193 : f32
    } -> tensor<1x4x16x6xf32>
    %collapsed_2 = tensor.collapse_shape %189 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x16xf32> into tensor<4x6x16xf32>
    %collapsed_3 = tensor.collapse_shape %192 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x16x6xf32> into tensor<4x16x6xf32>
    %194 = tensor.empty() : tensor<4x6x6xf32>
    %195 = linalg.fill ins(%cst : f32) outs(%194 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %196 = linalg.batch_matmul ins(%collapsed_2, %collapsed_3 : tensor<4x6x16xf32>, tensor<4x16x6xf32>) outs(%195 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %expanded_10 = tensor.expand_shape %196 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 6] : tensor<4x6x6xf32> into tensor<1x4x6x6xf32>
    %197 = tensor.empty() : tensor<1x4x6x6xf32>
    %198 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_10, %187 : tensor<1x4x6x6xf32>, tensor<1x1x6x6xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_87: f32, %in_88: f32, %out_61: f32):
      %199 = arith.addf %in_87, %in_88 : f32
      linalg.yield %199 : f32
    } -> tensor<1x4x6x6xf32>
    %200 = tensor.empty() : tensor<1x4x6xi64>
    %201 = linalg.fill ins(%c0_i64 : i64) outs(%200 : tensor<1x4x6xi64>) -> tensor<1x4x6xi64>
    %202 = tensor.empty() : tensor<1x4x6xf32>
    %203 = linalg.fill ins(%cst_1 : f32) outs(%202 : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
    %204, %205 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%198 : tensor<1x4x6x6xf32>) outs(%203, %201 : tensor<1x4x6xf32>, tensor<1x4x6xi64>) {
    ^bb0(%in_89: f32, %out_62: f32, %out_63: i64):
      %206 = linalg.index 3 : index
      %207 = arith.index_cast %206 : index to i64
      %208 = arith.maximumf %in_89, %out_62 : f32
      %209 = arith.cmpf ogt, %in_89, %out_62 : f32
      %210 = arith.select %209, %207, %out_63 : i64
      linalg.yield %208, %210 : f32, i64
    } -> (tensor<1x4x6xf32>, tensor<1x4x6xi64>)
    %expanded_11 = tensor.expand_shape %204 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 6, 1] : tensor<1x4x6xf32> into tensor<1x4x6x1xf32>
    %211 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%198, %expanded_11 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_90: f32, %in_91: f32, %out_64: f32):
      %212 = arith.subf %in_90, %in_91 : f32
      linalg.yield %212 : f32
    } -> tensor<1x4x6x6xf32>
    %213 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%211 : tensor<1x4x6x6xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_92: f32, %out_65: f32):
      %214 = math.exp %in_92 : f32
      linalg.yield %214 : f32
    } -> tensor<1x4x6x6xf32>
    %215 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%213 : tensor<1x4x6x6xf32>) outs(%129 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_93: f32, %out_66: f32):
      %216 = arith.addf %in_93, %out_66 : f32
      linalg.yield %216 : f32
    } -> tensor<1x4x6x1xf32>
    %217 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%213, %215 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_94: f32, %in_95: f32, %out_67: f32):
      %218 = arith.divf %in_94, %in_95 : f32
      linalg.yield %218 : f32
    } -> tensor<1x4x6x6xf32>
    %219 = tensor.empty() : tensor<1x4x6x6xi1>
    %220 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%198 : tensor<1x4x6x6xf32>) outs(%219 : tensor<1x4x6x6xi1>) {
    ^bb0(%in_96: f32, %out_68: i1):
      %221 = arith.extf %in_96 : f32 to f64
      %222 = arith.cmpf oeq, %221, %cst_10 : f64
      linalg.yield %222 : i1
    } -> tensor<1x4x6x6xi1>
    %223 = tensor.empty() : tensor<1x4x6x1xi1>
    %224 = linalg.fill ins(%true : i1) outs(%223 : tensor<1x4x6x1xi1>) -> tensor<1x4x6x1xi1>
    %225 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%220 : tensor<1x4x6x6xi1>) outs(%224 : tensor<1x4x6x1xi1>) {
    ^bb0(%in_97: i1, %out_69: i1):
      %226 = arith.andi %in_97, %out_69 : i1
      linalg.yield %226 : i1
    } -> tensor<1x4x6x1xi1>
    %227 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%225, %cst_6, %217 : tensor<1x4x6x1xi1>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_98: i1, %in_99: f32, %in_100: f32, %out_70: f32):
      %228 = arith.select %in_98, %in_99, %in_100 : f32
      linalg.yield %228 : f32
    } -> tensor<1x4x6x6xf32>
    %collapsed_4 = tensor.collapse_shape %227 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x6xf32> into tensor<4x6x6xf32>
    %collapsed_5 = tensor.collapse_shape %185 [[0 : i64, 1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<4x6x16xf32>
    %229 = tensor.empty() : tensor<4x6x16xf32>
    %230 = linalg.fill ins(%cst : f32) outs(%229 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %231 = linalg.batch_matmul ins(%collapsed_4, %collapsed_5 : tensor<4x6x6xf32>, tensor<4x6x16xf32>) outs(%230 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %expanded_12 = tensor.expand_shape %231 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 16] : tensor<4x6x16xf32> into tensor<1x4x6x16xf32>
    %232 = tensor.empty() : tensor<1x6x4x16xf32>
    %transposed_7 = linalg.transpose ins(%expanded_12:tensor<1x4x6x16xf32>) outs(%232:tensor<1x6x4x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_8 = linalg.transpose ins(%model.layers.0.self_attn.o_proj.weight:tensor<64x64xf32>) outs(%115:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_6 = tensor.collapse_shape %transposed_7 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x6x4x16xf32> into tensor<6x64xf32>
    %233 = linalg.matmul ins(%collapsed_6, %transposed_8 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%117 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_13 = tensor.expand_shape %233 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %234 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_13 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_101: f32, %out_71: f32):
      %235 = math.fpowi %in_101, %c2_i64 : f32, i64
      linalg.yield %235 : f32
    } -> tensor<1x6x64xf32>
    %236 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%234 : tensor<1x6x64xf32>) outs(%98 : tensor<1x6x1xf32>) {
    ^bb0(%in_102: f32, %out_72: f32):
      %237 = arith.addf %in_102, %out_72 : f32
      linalg.yield %237 : f32
    } -> tensor<1x6x1xf32>
    %238 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%236 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_103: f32, %out_73: f32):
      %239 = arith.divf %in_103, %cst_14 : f32
      linalg.yield %239 : f32
    } -> tensor<1x6x1xf32>
    %240 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%238 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_104: f32, %out_74: f32):
      %241 = arith.truncf %cst_11 : f64 to f32
      %242 = arith.addf %in_104, %241 : f32
      linalg.yield %242 : f32
    } -> tensor<1x6x1xf32>
    %243 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%240 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_105: f32, %out_75: f32):
      %244 = math.rsqrt %in_105 : f32
      linalg.yield %244 : f32
    } -> tensor<1x6x1xf32>
    %245 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_13, %243 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_106: f32, %in_107: f32, %out_76: f32):
      %246 = arith.mulf %in_106, %in_107 : f32
      linalg.yield %246 : f32
    } -> tensor<1x6x64xf32>
    %247 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.0.post_attention_layernorm.weight : tensor<64xf32>) outs(%110 : tensor<64xf32>) {
    ^bb0(%in_108: f32, %out_77: f32):
      %248 = arith.addf %in_108, %cst_4 : f32
      linalg.yield %248 : f32
    } -> tensor<64xf32>
    %249 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%245, %247 : tensor<1x6x64xf32>, tensor<64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_109: f32, %in_110: f32, %out_78: f32):
      %250 = arith.mulf %in_109, %in_110 : f32
      linalg.yield %250 : f32
    } -> tensor<1x6x64xf32>
    %251 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %249 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_111: f32, %in_112: f32, %out_79: f32):
      %252 = arith.addf %in_111, %in_112 : f32
      linalg.yield %252 : f32
    } -> tensor<1x6x64xf32>
    %253 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%251 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_113: f32, %out_80: f32):
      %254 = math.fpowi %in_113, %c2_i64 : f32, i64
      linalg.yield %254 : f32
    } -> tensor<1x6x64xf32>
    %255 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%253 : tensor<1x6x64xf32>) outs(%98 : tensor<1x6x1xf32>) {
    ^bb0(%in_114: f32, %out_81: f32):
      %256 = arith.addf %in_114, %out_81 : f32
      linalg.yield %256 : f32
    } -> tensor<1x6x1xf32>
    %257 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%255 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_115: f32, %out_82: f32):
      %258 = arith.divf %in_115, %cst_14 : f32
      linalg.yield %258 : f32
    } -> tensor<1x6x1xf32>
    %259 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%257 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_116: f32, %out_83: f32):
      %260 = arith.truncf %cst_11 : f64 to f32
      %261 = arith.addf %in_116, %260 : f32
      linalg.yield %261 : f32
    } -> tensor<1x6x1xf32>
    %262 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%259 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_117: f32, %out_84: f32):
      %263 = math.rsqrt %in_117 : f32
      linalg.yield %263 : f32
    } -> tensor<1x6x1xf32>
    %264 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%251, %262 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_118: f32, %in_119: f32, %out_85: f32):
      %265 = arith.mulf %in_118, %in_119 : f32
      linalg.yield %265 : f32
    } -> tensor<1x6x64xf32>
    %266 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.0.pre_feedforward_layernorm.weight : tensor<64xf32>) outs(%110 : tensor<64xf32>) {
    ^bb0(%in_120: f32, %out_86: f32):
      %267 = arith.addf %in_120, %cst_4 : f32
      linalg.yield %267 : f32
    } -> tensor<64xf32>
    %268 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%264, %266 : tensor<1x6x64xf32>, tensor<64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_121: f32, %in_122: f32, %out_87: f32):
      %269 = arith.mulf %in_121, %in_122 : f32
      linalg.yield %269 : f32
    } -> tensor<1x6x64xf32>
    %270 = tensor.empty() : tensor<64x128xf32>
    %transposed_9 = linalg.transpose ins(%model.layers.0.mlp.gate_proj.weight:tensor<128x64xf32>) outs(%270:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_7 = tensor.collapse_shape %268 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %271 = tensor.empty() : tensor<6x128xf32>
    %272 = linalg.fill ins(%cst : f32) outs(%271 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %273 = linalg.matmul ins(%collapsed_7, %transposed_9 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%272 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_14 = tensor.expand_shape %273 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %274 = tensor.empty() : tensor<1x6x128xf32>
    %275 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_14 : tensor<1x6x128xf32>) outs(%274 : tensor<1x6x128xf32>) {
    ^bb0(%in_123: f32, %out_88: f32):
      %276 = math.fpowi %in_123, %c3_i64 : f32, i64
      %277 = arith.mulf %276, %cst_2 : f32
      %278 = arith.addf %in_123, %277 : f32
      %279 = arith.mulf %278, %cst_3 : f32
      %280 = math.tanh %279 : f32
      %281 = arith.addf %280, %cst_4 : f32
      %282 = arith.mulf %281, %cst_5 : f32
      %283 = arith.mulf %in_123, %282 : f32
      linalg.yield %283 : f32
    } -> tensor<1x6x128xf32>
    %transposed_10 = linalg.transpose ins(%model.layers.0.mlp.up_proj.weight:tensor<128x64xf32>) outs(%270:tensor<64x128xf32>) permutation = [1, 0]
    %284 = linalg.matmul ins(%collapsed_7, %transposed_10 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%272 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_15 = tensor.expand_shape %284 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %285 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%275, %expanded_15 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%274 : tensor<1x6x128xf32>) {
    ^bb0(%in_124: f32, %in_125: f32, %out_89: f32):
      %286 = arith.mulf %in_124, %in_125 : f32
      linalg.yield %286 : f32
    } -> tensor<1x6x128xf32>
    %287 = tensor.empty() : tensor<128x64xf32>
    %transposed_11 = linalg.transpose ins(%model.layers.0.mlp.down_proj.weight:tensor<64x128xf32>) outs(%287:tensor<128x64xf32>) permutation = [1, 0]
    %collapsed_8 = tensor.collapse_shape %285 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x128xf32> into tensor<6x128xf32>
    %288 = linalg.matmul ins(%collapsed_8, %transposed_11 : tensor<6x128xf32>, tensor<128x64xf32>) outs(%117 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_16 = tensor.expand_shape %288 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %289 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_16 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_126: f32, %out_90: f32):
      %290 = math.fpowi %in_126, %c2_i64 : f32, i64
      linalg.yield %290 : f32
    } -> tensor<1x6x64xf32>
    %291 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%289 : tensor<1x6x64xf32>) outs(%98 : tensor<1x6x1xf32>) {
    ^bb0(%in_127: f32, %out_91: f32):
      %292 = arith.addf %in_127, %out_91 : f32
      linalg.yield %292 : f32
    } -> tensor<1x6x1xf32>
    %293 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%291 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_128: f32, %out_92: f32):
      %294 = arith.divf %in_128, %cst_14 : f32
      linalg.yield %294 : f32
    } -> tensor<1x6x1xf32>
    %295 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%293 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_129: f32, %out_93: f32):
      %296 = arith.truncf %cst_11 : f64 to f32
      %297 = arith.addf %in_129, %296 : f32
      linalg.yield %297 : f32
    } -> tensor<1x6x1xf32>
    %298 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%295 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_130: f32, %out_94: f32):
      %299 = math.rsqrt %in_130 : f32
      linalg.yield %299 : f32
    } -> tensor<1x6x1xf32>
    %300 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_16, %298 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_131: f32, %in_132: f32, %out_95: f32):
      %301 = arith.mulf %in_131, %in_132 : f32
      linalg.yield %301 : f32
    } -> tensor<1x6x64xf32>
    %302 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.0.post_feedforward_layernorm.weight : tensor<64xf32>) outs(%110 : tensor<64xf32>) {
    ^bb0(%in_133: f32, %out_96: f32):
      %303 = arith.addf %in_133, %cst_4 : f32
      linalg.yield %303 : f32
    } -> tensor<64xf32>
    %304 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%300, %302 : tensor<1x6x64xf32>, tensor<64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_134: f32, %in_135: f32, %out_97: f32):
      %305 = arith.mulf %in_134, %in_135 : f32
      linalg.yield %305 : f32
    } -> tensor<1x6x64xf32>
    %306 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%251, %304 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_136: f32, %in_137: f32, %out_98: f32):
      %307 = arith.addf %in_136, %in_137 : f32
      linalg.yield %307 : f32
    } -> tensor<1x6x64xf32>
    %308 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%306 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_138: f32, %out_99: f32):
      %309 = math.fpowi %in_138, %c2_i64 : f32, i64
      linalg.yield %309 : f32
    } -> tensor<1x6x64xf32>
    %310 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%308 : tensor<1x6x64xf32>) outs(%98 : tensor<1x6x1xf32>) {
    ^bb0(%in_139: f32, %out_100: f32):
      %311 = arith.addf %in_139, %out_100 : f32
      linalg.yield %311 : f32
    } -> tensor<1x6x1xf32>
    %312 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%310 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_140: f32, %out_101: f32):
      %313 = arith.divf %in_140, %cst_14 : f32
      linalg.yield %313 : f32
    } -> tensor<1x6x1xf32>
    %314 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%312 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_141: f32, %out_102: f32):
      %315 = arith.truncf %cst_11 : f64 to f32
      %316 = arith.addf %in_141, %315 : f32
      linalg.yield %316 : f32
    } -> tensor<1x6x1xf32>
    %317 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%314 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_142: f32, %out_103: f32):
      %318 = math.rsqrt %in_142 : f32
      linalg.yield %318 : f32
    } -> tensor<1x6x1xf32>
    %319 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%306, %317 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_143: f32, %in_144: f32, %out_104: f32):
      %320 = arith.mulf %in_143, %in_144 : f32
      linalg.yield %320 : f32
    } -> tensor<1x6x64xf32>
    %321 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.1.input_layernorm.weight : tensor<64xf32>) outs(%110 : tensor<64xf32>) {
    ^bb0(%in_145: f32, %out_105: f32):
      %322 = arith.addf %in_145, %cst_4 : f32
      linalg.yield %322 : f32
    } -> tensor<64xf32>
    %323 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%319, %321 : tensor<1x6x64xf32>, tensor<64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_146: f32, %in_147: f32, %out_106: f32):
      %324 = arith.mulf %in_146, %in_147 : f32
      linalg.yield %324 : f32
    } -> tensor<1x6x64xf32>
    %transposed_12 = linalg.transpose ins(%model.layers.1.self_attn.q_proj.weight:tensor<64x64xf32>) outs(%115:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_9 = tensor.collapse_shape %323 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %325 = linalg.matmul ins(%collapsed_9, %transposed_12 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%117 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_17 = tensor.expand_shape %325 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 4, 16] : tensor<6x64xf32> into tensor<1x6x4x16xf32>
    %transposed_13 = linalg.transpose ins(%expanded_17:tensor<1x6x4x16xf32>) outs(%119:tensor<1x4x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_14 = linalg.transpose ins(%model.layers.1.self_attn.k_proj.weight:tensor<32x64xf32>) outs(%120:tensor<64x32xf32>) permutation = [1, 0]
    %326 = linalg.matmul ins(%collapsed_9, %transposed_14 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%122 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_18 = tensor.expand_shape %326 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_15 = linalg.transpose ins(%expanded_18:tensor<1x6x2x16xf32>) outs(%124:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_16 = linalg.transpose ins(%model.layers.1.self_attn.v_proj.weight:tensor<32x64xf32>) outs(%120:tensor<64x32xf32>) permutation = [1, 0]
    %327 = linalg.matmul ins(%collapsed_9, %transposed_16 : tensor<6x64xf32>, tensor<64x32xf32>) outs(%122 : tensor<6x32xf32>) -> tensor<6x32xf32>
    %expanded_19 = tensor.expand_shape %327 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 16] : tensor<6x32xf32> into tensor<1x6x2x16xf32>
    %transposed_17 = linalg.transpose ins(%expanded_19:tensor<1x6x2x16xf32>) outs(%124:tensor<1x2x6x16xf32>) permutation = [0, 2, 1, 3]
    %328 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_13 : tensor<1x4x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_148: f32, %out_107: f32):
      %329 = math.fpowi %in_148, %c2_i64 : f32, i64
      linalg.yield %329 : f32
    } -> tensor<1x4x6x16xf32>
    %330 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%328 : tensor<1x4x6x16xf32>) outs(%129 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_149: f32, %out_108: f32):
      %331 = arith.addf %in_149, %out_108 : f32
      linalg.yield %331 : f32
    } -> tensor<1x4x6x1xf32>
    %332 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%330 : tensor<1x4x6x1xf32>) outs(%128 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_150: f32, %out_109: f32):
      %333 = arith.divf %in_150, %cst_15 : f32
      linalg.yield %333 : f32
    } -> tensor<1x4x6x1xf32>
    %334 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%332 : tensor<1x4x6x1xf32>) outs(%128 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_151: f32, %out_110: f32):
      %335 = arith.truncf %cst_11 : f64 to f32
      %336 = arith.addf %in_151, %335 : f32
      linalg.yield %336 : f32
    } -> tensor<1x4x6x1xf32>
    %337 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%334 : tensor<1x4x6x1xf32>) outs(%128 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_152: f32, %out_111: f32):
      %338 = math.rsqrt %in_152 : f32
      linalg.yield %338 : f32
    } -> tensor<1x4x6x1xf32>
    %339 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_13, %337 : tensor<1x4x6x16xf32>, tensor<1x4x6x1xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_153: f32, %in_154: f32, %out_112: f32):
      %340 = arith.mulf %in_153, %in_154 : f32
      linalg.yield %340 : f32
    } -> tensor<1x4x6x16xf32>
    %341 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.1.self_attn.q_norm.weight : tensor<16xf32>) outs(%141 : tensor<16xf32>) {
    ^bb0(%in_155: f32, %out_113: f32):
      %342 = arith.addf %in_155, %cst_4 : f32
      linalg.yield %342 : f32
    } -> tensor<16xf32>
    %343 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%339, %341 : tensor<1x4x6x16xf32>, tensor<16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_156: f32, %in_157: f32, %out_114: f32):
      %344 = arith.mulf %in_156, %in_157 : f32
      linalg.yield %344 : f32
    } -> tensor<1x4x6x16xf32>
    %345 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_15 : tensor<1x2x6x16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_158: f32, %out_115: f32):
      %346 = math.fpowi %in_158, %c2_i64 : f32, i64
      linalg.yield %346 : f32
    } -> tensor<1x2x6x16xf32>
    %347 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%345 : tensor<1x2x6x16xf32>) outs(%149 : tensor<1x2x6x1xf32>) {
    ^bb0(%in_159: f32, %out_116: f32):
      %348 = arith.addf %in_159, %out_116 : f32
      linalg.yield %348 : f32
    } -> tensor<1x2x6x1xf32>
    %349 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%347 : tensor<1x2x6x1xf32>) outs(%148 : tensor<1x2x6x1xf32>) {
    ^bb0(%in_160: f32, %out_117: f32):
      %350 = arith.divf %in_160, %cst_15 : f32
      linalg.yield %350 : f32
    } -> tensor<1x2x6x1xf32>
    %351 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%349 : tensor<1x2x6x1xf32>) outs(%148 : tensor<1x2x6x1xf32>) {
    ^bb0(%in_161: f32, %out_118: f32):
      %352 = arith.truncf %cst_11 : f64 to f32
      %353 = arith.addf %in_161, %352 : f32
      linalg.yield %353 : f32
    } -> tensor<1x2x6x1xf32>
    %354 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%351 : tensor<1x2x6x1xf32>) outs(%148 : tensor<1x2x6x1xf32>) {
    ^bb0(%in_162: f32, %out_119: f32):
      %355 = math.rsqrt %in_162 : f32
      linalg.yield %355 : f32
    } -> tensor<1x2x6x1xf32>
    %356 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_15, %354 : tensor<1x2x6x16xf32>, tensor<1x2x6x1xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_163: f32, %in_164: f32, %out_120: f32):
      %357 = arith.mulf %in_163, %in_164 : f32
      linalg.yield %357 : f32
    } -> tensor<1x2x6x16xf32>
    %358 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.1.self_attn.k_norm.weight : tensor<16xf32>) outs(%141 : tensor<16xf32>) {
    ^bb0(%in_165: f32, %out_121: f32):
      %359 = arith.addf %in_165, %cst_4 : f32
      linalg.yield %359 : f32
    } -> tensor<16xf32>
    %360 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%356, %358 : tensor<1x2x6x16xf32>, tensor<16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_166: f32, %in_167: f32, %out_122: f32):
      %361 = arith.mulf %in_166, %in_167 : f32
      linalg.yield %361 : f32
    } -> tensor<1x2x6x16xf32>
    %362 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%343, %expanded_8 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_168: f32, %in_169: f32, %out_123: f32):
      %363 = arith.mulf %in_168, %in_169 : f32
      linalg.yield %363 : f32
    } -> tensor<1x4x6x16xf32>
    %extracted_slice_7 = tensor.extract_slice %343[0, 0, 0, 0] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %extracted_slice_8 = tensor.extract_slice %343[0, 0, 0, 8] [1, 4, 6, 8] [1, 1, 1, 1] : tensor<1x4x6x16xf32> to tensor<1x4x6x8xf32>
    %364 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_8 : tensor<1x4x6x8xf32>) outs(%167 : tensor<1x4x6x8xf32>) {
    ^bb0(%in_170: f32, %out_124: f32):
      %365 = arith.negf %in_170 : f32
      linalg.yield %365 : f32
    } -> tensor<1x4x6x8xf32>
    %concat_4 = tensor.concat dim(3) %364, %extracted_slice_7 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x16xf32>
    %366 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_4, %expanded_9 : tensor<1x4x6x16xf32>, tensor<1x1x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_171: f32, %in_172: f32, %out_125: f32):
      %367 = arith.mulf %in_171, %in_172 : f32
      linalg.yield %367 : f32
    } -> tensor<1x4x6x16xf32>
    %368 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%362, %366 : tensor<1x4x6x16xf32>, tensor<1x4x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_173: f32, %in_174: f32, %out_126: f32):
      %369 = arith.addf %in_173, %in_174 : f32
      linalg.yield %369 : f32
    } -> tensor<1x4x6x16xf32>
    %370 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%360, %expanded_8 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_175: f32, %in_176: f32, %out_127: f32):
      %371 = arith.mulf %in_175, %in_176 : f32
      linalg.yield %371 : f32
    } -> tensor<1x2x6x16xf32>
    %extracted_slice_9 = tensor.extract_slice %360[0, 0, 0, 0] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %extracted_slice_10 = tensor.extract_slice %360[0, 0, 0, 8] [1, 2, 6, 8] [1, 1, 1, 1] : tensor<1x2x6x16xf32> to tensor<1x2x6x8xf32>
    %372 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_10 : tensor<1x2x6x8xf32>) outs(%176 : tensor<1x2x6x8xf32>) {
    ^bb0(%in_177: f32, %out_128: f32):
      %373 = arith.negf %in_177 : f32
      linalg.yield %373 : f32
    } -> tensor<1x2x6x8xf32>
    %concat_5 = tensor.concat dim(3) %372, %extracted_slice_9 : (tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x16xf32>
    %374 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_5, %expanded_9 : tensor<1x2x6x16xf32>, tensor<1x1x6x16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_178: f32, %in_179: f32, %out_129: f32):
      %375 = arith.mulf %in_178, %in_179 : f32
      linalg.yield %375 : f32
    } -> tensor<1x2x6x16xf32>
    %376 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%370, %374 : tensor<1x2x6x16xf32>, tensor<1x2x6x16xf32>) outs(%124 : tensor<1x2x6x16xf32>) {
    ^bb0(%in_180: f32, %in_181: f32, %out_130: f32):
      %377 = arith.addf %in_180, %in_181 : f32
      linalg.yield %377 : f32
    } -> tensor<1x2x6x16xf32>
    %378 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%376 : tensor<1x2x6x16xf32>) outs(%183 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_182: f32, %out_131: f32):
      linalg.yield %in_182 : f32
    } -> tensor<1x2x2x6x16xf32>
    %collapsed_10 = tensor.collapse_shape %378 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<1x4x6x16xf32>
    %379 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_17 : tensor<1x2x6x16xf32>) outs(%183 : tensor<1x2x2x6x16xf32>) {
    ^bb0(%in_183: f32, %out_132: f32):
      linalg.yield %in_183 : f32
    } -> tensor<1x2x2x6x16xf32>
    %380 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%368 : tensor<1x4x6x16xf32>) outs(%119 : tensor<1x4x6x16xf32>) {
    ^bb0(%in_184: f32, %out_133: f32):
      %381 = arith.mulf %in_184, %cst_5 : f32
      linalg.yield %381 : f32
    } -> tensor<1x4x6x16xf32>
    %transposed_18 = linalg.transpose ins(%collapsed_10:tensor<1x4x6x16xf32>) outs(%191:tensor<1x4x16x6xf32>) permutation = [0, 1, 3, 2]
    %382 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_18 : tensor<1x4x16x6xf32>) outs(%191 : tensor<1x4x16x6xf32>) {
    ^bb0(%in_185: f32, %out_134: f32):
      %383 = arith.mulf %in_185, %cst_5 : f32
      linalg.yield %383 : f32
    } -> tensor<1x4x16x6xf32>
    %collapsed_11 = tensor.collapse_shape %380 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x16xf32> into tensor<4x6x16xf32>
    %collapsed_12 = tensor.collapse_shape %382 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x16x6xf32> into tensor<4x16x6xf32>
    %384 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<4x6x16xf32>, tensor<4x16x6xf32>) outs(%195 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %expanded_20 = tensor.expand_shape %384 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 6] : tensor<4x6x6xf32> into tensor<1x4x6x6xf32>
    %385 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_20, %187 : tensor<1x4x6x6xf32>, tensor<1x1x6x6xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_186: f32, %in_187: f32, %out_135: f32):
      %386 = arith.addf %in_186, %in_187 : f32
      linalg.yield %386 : f32
    } -> tensor<1x4x6x6xf32>
    %387, %388 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%385 : tensor<1x4x6x6xf32>) outs(%203, %201 : tensor<1x4x6xf32>, tensor<1x4x6xi64>) {
    ^bb0(%in_188: f32, %out_136: f32, %out_137: i64):
      %389 = linalg.index 3 : index
      %390 = arith.index_cast %389 : index to i64
      %391 = arith.maximumf %in_188, %out_136 : f32
      %392 = arith.cmpf ogt, %in_188, %out_136 : f32
      %393 = arith.select %392, %390, %out_137 : i64
      linalg.yield %391, %393 : f32, i64
    } -> (tensor<1x4x6xf32>, tensor<1x4x6xi64>)
    %expanded_21 = tensor.expand_shape %387 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 6, 1] : tensor<1x4x6xf32> into tensor<1x4x6x1xf32>
    %394 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%385, %expanded_21 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_189: f32, %in_190: f32, %out_138: f32):
      %395 = arith.subf %in_189, %in_190 : f32
      linalg.yield %395 : f32
    } -> tensor<1x4x6x6xf32>
    %396 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%394 : tensor<1x4x6x6xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_191: f32, %out_139: f32):
      %397 = math.exp %in_191 : f32
      linalg.yield %397 : f32
    } -> tensor<1x4x6x6xf32>
    %398 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%396 : tensor<1x4x6x6xf32>) outs(%129 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_192: f32, %out_140: f32):
      %399 = arith.addf %in_192, %out_140 : f32
      linalg.yield %399 : f32
    } -> tensor<1x4x6x1xf32>
    %400 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%396, %398 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_193: f32, %in_194: f32, %out_141: f32):
      %401 = arith.divf %in_193, %in_194 : f32
      linalg.yield %401 : f32
    } -> tensor<1x4x6x6xf32>
    %402 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%385 : tensor<1x4x6x6xf32>) outs(%219 : tensor<1x4x6x6xi1>) {
    ^bb0(%in_195: f32, %out_142: i1):
      %403 = arith.extf %in_195 : f32 to f64
      %404 = arith.cmpf oeq, %403, %cst_10 : f64
      linalg.yield %404 : i1
    } -> tensor<1x4x6x6xi1>
    %405 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%402 : tensor<1x4x6x6xi1>) outs(%224 : tensor<1x4x6x1xi1>) {
    ^bb0(%in_196: i1, %out_143: i1):
      %406 = arith.andi %in_196, %out_143 : i1
      linalg.yield %406 : i1
    } -> tensor<1x4x6x1xi1>
    %407 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%405, %cst_6, %400 : tensor<1x4x6x1xi1>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%197 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_197: i1, %in_198: f32, %in_199: f32, %out_144: f32):
      %408 = arith.select %in_197, %in_198, %in_199 : f32
      linalg.yield %408 : f32
    } -> tensor<1x4x6x6xf32>
    %collapsed_13 = tensor.collapse_shape %407 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x6xf32> into tensor<4x6x6xf32>
    %collapsed_14 = tensor.collapse_shape %379 [[0 : i64, 1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x16xf32> into tensor<4x6x16xf32>
    %409 = linalg.batch_matmul ins(%collapsed_13, %collapsed_14 : tensor<4x6x6xf32>, tensor<4x6x16xf32>) outs(%230 : tensor<4x6x16xf32>) -> tensor<4x6x16xf32>
    %expanded_22 = tensor.expand_shape %409 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 16] : tensor<4x6x16xf32> into tensor<1x4x6x16xf32>
    %transposed_19 = linalg.transpose ins(%expanded_22:tensor<1x4x6x16xf32>) outs(%232:tensor<1x6x4x16xf32>) permutation = [0, 2, 1, 3]
    %transposed_20 = linalg.transpose ins(%model.layers.1.self_attn.o_proj.weight:tensor<64x64xf32>) outs(%115:tensor<64x64xf32>) permutation = [1, 0]
    %collapsed_15 = tensor.collapse_shape %transposed_19 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x6x4x16xf32> into tensor<6x64xf32>
    %410 = linalg.matmul ins(%collapsed_15, %transposed_20 : tensor<6x64xf32>, tensor<64x64xf32>) outs(%117 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_23 = tensor.expand_shape %410 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %411 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_23 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_200: f32, %out_145: f32):
      %412 = math.fpowi %in_200, %c2_i64 : f32, i64
      linalg.yield %412 : f32
    } -> tensor<1x6x64xf32>
    %413 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%411 : tensor<1x6x64xf32>) outs(%98 : tensor<1x6x1xf32>) {
    ^bb0(%in_201: f32, %out_146: f32):
      %414 = arith.addf %in_201, %out_146 : f32
      linalg.yield %414 : f32
    } -> tensor<1x6x1xf32>
    %415 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%413 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_202: f32, %out_147: f32):
      %416 = arith.divf %in_202, %cst_14 : f32
      linalg.yield %416 : f32
    } -> tensor<1x6x1xf32>
    %417 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%415 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_203: f32, %out_148: f32):
      %418 = arith.truncf %cst_11 : f64 to f32
      %419 = arith.addf %in_203, %418 : f32
      linalg.yield %419 : f32
    } -> tensor<1x6x1xf32>
    %420 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%417 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_204: f32, %out_149: f32):
      %421 = math.rsqrt %in_204 : f32
      linalg.yield %421 : f32
    } -> tensor<1x6x1xf32>
    %422 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_23, %420 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_205: f32, %in_206: f32, %out_150: f32):
      %423 = arith.mulf %in_205, %in_206 : f32
      linalg.yield %423 : f32
    } -> tensor<1x6x64xf32>
    %424 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.1.post_attention_layernorm.weight : tensor<64xf32>) outs(%110 : tensor<64xf32>) {
    ^bb0(%in_207: f32, %out_151: f32):
      %425 = arith.addf %in_207, %cst_4 : f32
      linalg.yield %425 : f32
    } -> tensor<64xf32>
    %426 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%422, %424 : tensor<1x6x64xf32>, tensor<64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_208: f32, %in_209: f32, %out_152: f32):
      %427 = arith.mulf %in_208, %in_209 : f32
      linalg.yield %427 : f32
    } -> tensor<1x6x64xf32>
    %428 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%306, %426 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_210: f32, %in_211: f32, %out_153: f32):
      %429 = arith.addf %in_210, %in_211 : f32
      linalg.yield %429 : f32
    } -> tensor<1x6x64xf32>
    %430 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%428 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_212: f32, %out_154: f32):
      %431 = math.fpowi %in_212, %c2_i64 : f32, i64
      linalg.yield %431 : f32
    } -> tensor<1x6x64xf32>
    %432 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%430 : tensor<1x6x64xf32>) outs(%98 : tensor<1x6x1xf32>) {
    ^bb0(%in_213: f32, %out_155: f32):
      %433 = arith.addf %in_213, %out_155 : f32
      linalg.yield %433 : f32
    } -> tensor<1x6x1xf32>
    %434 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%432 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_214: f32, %out_156: f32):
      %435 = arith.divf %in_214, %cst_14 : f32
      linalg.yield %435 : f32
    } -> tensor<1x6x1xf32>
    %436 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%434 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_215: f32, %out_157: f32):
      %437 = arith.truncf %cst_11 : f64 to f32
      %438 = arith.addf %in_215, %437 : f32
      linalg.yield %438 : f32
    } -> tensor<1x6x1xf32>
    %439 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%436 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_216: f32, %out_158: f32):
      %440 = math.rsqrt %in_216 : f32
      linalg.yield %440 : f32
    } -> tensor<1x6x1xf32>
    %441 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%428, %439 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_217: f32, %in_218: f32, %out_159: f32):
      %442 = arith.mulf %in_217, %in_218 : f32
      linalg.yield %442 : f32
    } -> tensor<1x6x64xf32>
    %443 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.1.pre_feedforward_layernorm.weight : tensor<64xf32>) outs(%110 : tensor<64xf32>) {
    ^bb0(%in_219: f32, %out_160: f32):
      %444 = arith.addf %in_219, %cst_4 : f32
      linalg.yield %444 : f32
    } -> tensor<64xf32>
    %445 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%441, %443 : tensor<1x6x64xf32>, tensor<64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_220: f32, %in_221: f32, %out_161: f32):
      %446 = arith.mulf %in_220, %in_221 : f32
      linalg.yield %446 : f32
    } -> tensor<1x6x64xf32>
    %transposed_21 = linalg.transpose ins(%model.layers.1.mlp.gate_proj.weight:tensor<128x64xf32>) outs(%270:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_16 = tensor.collapse_shape %445 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %447 = linalg.matmul ins(%collapsed_16, %transposed_21 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%272 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_24 = tensor.expand_shape %447 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %448 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24 : tensor<1x6x128xf32>) outs(%274 : tensor<1x6x128xf32>) {
    ^bb0(%in_222: f32, %out_162: f32):
      %449 = math.fpowi %in_222, %c3_i64 : f32, i64
      %450 = arith.mulf %449, %cst_2 : f32
      %451 = arith.addf %in_222, %450 : f32
      %452 = arith.mulf %451, %cst_3 : f32
      %453 = math.tanh %452 : f32
      %454 = arith.addf %453, %cst_4 : f32
      %455 = arith.mulf %454, %cst_5 : f32
      %456 = arith.mulf %in_222, %455 : f32
      linalg.yield %456 : f32
    } -> tensor<1x6x128xf32>
    %transposed_22 = linalg.transpose ins(%model.layers.1.mlp.up_proj.weight:tensor<128x64xf32>) outs(%270:tensor<64x128xf32>) permutation = [1, 0]
    %457 = linalg.matmul ins(%collapsed_16, %transposed_22 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%272 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_25 = tensor.expand_shape %457 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    %458 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%448, %expanded_25 : tensor<1x6x128xf32>, tensor<1x6x128xf32>) outs(%274 : tensor<1x6x128xf32>) {
    ^bb0(%in_223: f32, %in_224: f32, %out_163: f32):
      %459 = arith.mulf %in_223, %in_224 : f32
      linalg.yield %459 : f32
    } -> tensor<1x6x128xf32>
    %transposed_23 = linalg.transpose ins(%model.layers.1.mlp.down_proj.weight:tensor<64x128xf32>) outs(%287:tensor<128x64xf32>) permutation = [1, 0]
    %collapsed_17 = tensor.collapse_shape %458 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x128xf32> into tensor<6x128xf32>
    %460 = linalg.matmul ins(%collapsed_17, %transposed_23 : tensor<6x128xf32>, tensor<128x64xf32>) outs(%117 : tensor<6x64xf32>) -> tensor<6x64xf32>
    %expanded_26 = tensor.expand_shape %460 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 64] : tensor<6x64xf32> into tensor<1x6x64xf32>
    %461 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_26 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_225: f32, %out_164: f32):
      %462 = math.fpowi %in_225, %c2_i64 : f32, i64
      linalg.yield %462 : f32
    } -> tensor<1x6x64xf32>
    %463 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%461 : tensor<1x6x64xf32>) outs(%98 : tensor<1x6x1xf32>) {
    ^bb0(%in_226: f32, %out_165: f32):
      %464 = arith.addf %in_226, %out_165 : f32
      linalg.yield %464 : f32
    } -> tensor<1x6x1xf32>
    %465 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%463 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_227: f32, %out_166: f32):
      %466 = arith.divf %in_227, %cst_14 : f32
      linalg.yield %466 : f32
    } -> tensor<1x6x1xf32>
    %467 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%465 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_228: f32, %out_167: f32):
      %468 = arith.truncf %cst_11 : f64 to f32
      %469 = arith.addf %in_228, %468 : f32
      linalg.yield %469 : f32
    } -> tensor<1x6x1xf32>
    %470 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%467 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_229: f32, %out_168: f32):
      %471 = math.rsqrt %in_229 : f32
      linalg.yield %471 : f32
    } -> tensor<1x6x1xf32>
    %472 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_26, %470 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_230: f32, %in_231: f32, %out_169: f32):
      %473 = arith.mulf %in_230, %in_231 : f32
      linalg.yield %473 : f32
    } -> tensor<1x6x64xf32>
    %474 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.layers.1.post_feedforward_layernorm.weight : tensor<64xf32>) outs(%110 : tensor<64xf32>) {
    ^bb0(%in_232: f32, %out_170: f32):
      %475 = arith.addf %in_232, %cst_4 : f32
      linalg.yield %475 : f32
    } -> tensor<64xf32>
    %476 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%472, %474 : tensor<1x6x64xf32>, tensor<64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_233: f32, %in_234: f32, %out_171: f32):
      %477 = arith.mulf %in_233, %in_234 : f32
      linalg.yield %477 : f32
    } -> tensor<1x6x64xf32>
    %478 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%428, %476 : tensor<1x6x64xf32>, tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_235: f32, %in_236: f32, %out_172: f32):
      %479 = arith.addf %in_235, %in_236 : f32
      linalg.yield %479 : f32
    } -> tensor<1x6x64xf32>
    %480 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%478 : tensor<1x6x64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_237: f32, %out_173: f32):
      %481 = math.fpowi %in_237, %c2_i64 : f32, i64
      linalg.yield %481 : f32
    } -> tensor<1x6x64xf32>
    %482 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%480 : tensor<1x6x64xf32>) outs(%98 : tensor<1x6x1xf32>) {
    ^bb0(%in_238: f32, %out_174: f32):
      %483 = arith.addf %in_238, %out_174 : f32
      linalg.yield %483 : f32
    } -> tensor<1x6x1xf32>
    %484 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%482 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_239: f32, %out_175: f32):
      %485 = arith.divf %in_239, %cst_14 : f32
      linalg.yield %485 : f32
    } -> tensor<1x6x1xf32>
    %486 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%484 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_240: f32, %out_176: f32):
      %487 = arith.truncf %cst_11 : f64 to f32
      %488 = arith.addf %in_240, %487 : f32
      linalg.yield %488 : f32
    } -> tensor<1x6x1xf32>
    %489 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%486 : tensor<1x6x1xf32>) outs(%85 : tensor<1x6x1xf32>) {
    ^bb0(%in_241: f32, %out_177: f32):
      %490 = math.rsqrt %in_241 : f32
      linalg.yield %490 : f32
    } -> tensor<1x6x1xf32>
    %491 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%478, %489 : tensor<1x6x64xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_242: f32, %in_243: f32, %out_178: f32):
      %492 = arith.mulf %in_242, %in_243 : f32
      linalg.yield %492 : f32
    } -> tensor<1x6x64xf32>
    %493 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%model.norm.weight : tensor<64xf32>) outs(%110 : tensor<64xf32>) {
    ^bb0(%in_244: f32, %out_179: f32):
      %494 = arith.addf %in_244, %cst_4 : f32
      linalg.yield %494 : f32
    } -> tensor<64xf32>
    %495 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%491, %493 : tensor<1x6x64xf32>, tensor<64xf32>) outs(%0 : tensor<1x6x64xf32>) {
    ^bb0(%in_245: f32, %in_246: f32, %out_180: f32):
      %496 = arith.mulf %in_245, %in_246 : f32
      linalg.yield %496 : f32
    } -> tensor<1x6x64xf32>
    %transposed_24 = linalg.transpose ins(%model.embed_tokens.weight:tensor<128x64xf32>) outs(%270:tensor<64x128xf32>) permutation = [1, 0]
    %collapsed_18 = tensor.collapse_shape %495 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x64xf32> into tensor<6x64xf32>
    %497 = linalg.matmul ins(%collapsed_18, %transposed_24 : tensor<6x64xf32>, tensor<64x128xf32>) outs(%272 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_27 = tensor.expand_shape %497 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 128] : tensor<6x128xf32> into tensor<1x6x128xf32>
    func.return %expanded_27 : tensor<1x6x128xf32>
  }
}
