// LlamaForCausalLM (random weights) exported by examples/hf/export.py
builtin.module {
  func.func @main(%input_ids: tensor<1x6xi64>, %model.embed_tokens.weight: tensor<320x256xf32>, %model.layers.0.self_attn.q_proj.weight.qdata: tensor<256x256xi8>, %model.layers.0.self_attn.q_proj.weight.scale: tensor<256x8xf32>, %model.layers.0.self_attn.k_proj.weight.qdata: tensor<128x256xi8>, %model.layers.0.self_attn.k_proj.weight.scale: tensor<128x8xf32>, %model.layers.0.self_attn.v_proj.weight.qdata: tensor<128x256xi8>, %model.layers.0.self_attn.v_proj.weight.scale: tensor<128x8xf32>, %model.layers.0.self_attn.o_proj.weight.qdata: tensor<256x256xi8>, %model.layers.0.self_attn.o_proj.weight.scale: tensor<256x8xf32>, %model.layers.0.mlp.gate_proj.weight.qdata: tensor<512x256xi8>, %model.layers.0.mlp.gate_proj.weight.scale: tensor<512x8xf32>, %model.layers.0.mlp.up_proj.weight.qdata: tensor<512x256xi8>, %model.layers.0.mlp.up_proj.weight.scale: tensor<512x8xf32>, %model.layers.0.mlp.down_proj.weight.qdata: tensor<256x512xi8>, %model.layers.0.mlp.down_proj.weight.scale: tensor<256x16xf32>, %model.layers.0.input_layernorm.weight: tensor<256xf32>, %model.layers.0.post_attention_layernorm.weight: tensor<256xf32>, %model.norm.weight: tensor<256xf32>, %lm_head.weight.qdata: tensor<320x256xi8>, %lm_head.weight.scale: tensor<320x8xf32>) -> tensor<1x6x320xf32> {
    %c320 = arith.constant 320 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xff800000 : f32
    %true = arith.constant true
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<1x4x6x6xf32>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_5 = arith.constant dense<0xff800000> : tensor<f32>
    %cst_6 = arith.constant dense<true> : tensor<i1>
    %cst_7 = arith.constant 0.35355339059327379 : f64
    %cst_8 = arith.constant 0xfff0000000000000 : f64
    %cst_9 = arith.constant 1.000000e-06 : f64
    %cst_10 = arith.constant dense<[1.000000e+00, 0.749894202, 0.562341332, 0.421696514, 0.316227764, 0.237137362, 0.177827939, 0.133352146, 1.000000e-01, 0.0749894157, 0.0562341288, 0.0421696492, 0.0316227786, 0.0237137359, 0.0177827943, 0.0133352149, 1.000000e-02, 0.00749894232, 0.00562341325, 0.00421696482, 0.00316227786, 0.00237137382, 0.00177827943, 0.00133352145, 1.000000e-03, 0.000749894185, 0.000562341302, 0.000421696488, 0.000316227786, 0.000237137385, 0.00017782794, 0.00013335215]> : tensor<32xf32>
    %cst_11 = arith.constant 2.560000e+02 : f32
    %c6_i64 = arith.constant 6 : i64
    %c1_i64 = arith.constant 1 : i64
    %c2_i64 = arith.constant 2 : i64
    %c0_i64 = arith.constant 0 : i64
    %cst_12 = arith.constant dense<0> : tensor<256x8xi8>
    %cst_13 = arith.constant dense<0> : tensor<128x8xi8>
    %cst_14 = arith.constant dense<0> : tensor<128x8xi8>
    %cst_15 = arith.constant dense<0> : tensor<256x8xi8>
    %cst_16 = arith.constant dense<0> : tensor<512x8xi8>
    %cst_17 = arith.constant dense<0> : tensor<512x8xi8>
    %cst_18 = arith.constant dense<0> : tensor<256x16xi8>
    %cst_19 = arith.constant dense<0> : tensor<320x8xi8>
    %0 = tensor.empty() : tensor<1x6x256xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%input_ids : tensor<1x6xi64>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in: i64, %out: f32):
      %2 = arith.index_cast %in : i64 to index
      %3 = linalg.index 2 : index
      %4 = arith.cmpi slt, %2, %c320 : index
      cf.assert %4, "index must be smaller than dim size"
      %5 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %5, "index must be larger or equal to 0"
      %extracted = tensor.extract %model.embed_tokens.weight[%2, %3] : tensor<320x256xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x6x256xf32>
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
    %78 = tensor.empty() : tensor<1x6x32xf32>
    %79 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%76, %cst_10 : tensor<1x6x1xf32>, tensor<32xf32>) outs(%78 : tensor<1x6x32xf32>) {
    ^bb0(%in_23: f32, %in_24: f32, %out_16: f32):
      %80 = arith.mulf %in_23, %in_24 : f32
      linalg.yield %80 : f32
    } -> tensor<1x6x32xf32>
    %concat_1 = tensor.concat dim(2) %79, %79 : (tensor<1x6x32xf32>, tensor<1x6x32xf32>) -> tensor<1x6x64xf32>
    %81 = tensor.empty() : tensor<1x6x64xf32>
    %82 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_1 : tensor<1x6x64xf32>) outs(%81 : tensor<1x6x64xf32>) {
    ^bb0(%in_25: f32, %out_17: f32):
      %83 = math.cos %in_25 : f32
      linalg.yield %83 : f32
    } -> tensor<1x6x64xf32>
    %84 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_1 : tensor<1x6x64xf32>) outs(%81 : tensor<1x6x64xf32>) {
    ^bb0(%in_26: f32, %out_18: f32):
      %85 = math.sin %in_26 : f32
      linalg.yield %85 : f32
    } -> tensor<1x6x64xf32>
    %86 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<1x6x256xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_27: f32, %out_19: f32):
      %87 = math.fpowi %in_27, %c2_i64 : f32, i64
      linalg.yield %87 : f32
    } -> tensor<1x6x256xf32>
    %88 = linalg.fill ins(%cst : f32) outs(%75 : tensor<1x6x1xf32>) -> tensor<1x6x1xf32>
    %89 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%86 : tensor<1x6x256xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_28: f32, %out_20: f32):
      %90 = arith.addf %in_28, %out_20 : f32
      linalg.yield %90 : f32
    } -> tensor<1x6x1xf32>
    %91 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%89 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_29: f32, %out_21: f32):
      %92 = arith.divf %in_29, %cst_11 : f32
      linalg.yield %92 : f32
    } -> tensor<1x6x1xf32>
    %93 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_30: f32, %out_22: f32):
      %94 = arith.truncf %cst_9 : f64 to f32
      %95 = arith.addf %in_30, %94 : f32
      linalg.yield %95 : f32
    } -> tensor<1x6x1xf32>
    %96 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%93 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_31: f32, %out_23: f32):
      %97 = math.rsqrt %in_31 : f32
      linalg.yield %97 : f32
    } -> tensor<1x6x1xf32>
    %98 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %96 : tensor<1x6x256xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_32: f32, %in_33: f32, %out_24: f32):
      %99 = arith.mulf %in_32, %in_33 : f32
      linalg.yield %99 : f32
    } -> tensor<1x6x256xf32>
    %100 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.0.input_layernorm.weight, %98 : tensor<256xf32>, tensor<1x6x256xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_34: f32, %in_35: f32, %out_25: f32):
      %101 = arith.mulf %in_34, %in_35 : f32
      linalg.yield %101 : f32
    } -> tensor<1x6x256xf32>
    %expanded_5 = tensor.expand_shape %model.layers.0.self_attn.q_proj.weight.qdata [[0 : i64], [1 : i64, 2 : i64]] output_shape [256, 8, 32] : tensor<256x256xi8> into tensor<256x8x32xi8>
    %expanded_6 = tensor.expand_shape %model.layers.0.self_attn.q_proj.weight.scale [[0 : i64], [1 : i64, 2 : i64]] output_shape [256, 8, 1] : tensor<256x8xf32> into tensor<256x8x1xf32>
    %expanded_7 = tensor.expand_shape %cst_12 [[0 : i64], [1 : i64, 2 : i64]] output_shape [256, 8, 1] : tensor<256x8xi8> into tensor<256x8x1xi8>
    %102 = tensor.empty() : tensor<256x8x32xf32>
    %103 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_5 : tensor<256x8x32xi8>) outs(%102 : tensor<256x8x32xf32>) {
    ^bb0(%in_36: i8, %out_26: f32):
      %104 = arith.sitofp %in_36 : i8 to f32
      linalg.yield %104 : f32
    } -> tensor<256x8x32xf32>
    %105 = tensor.empty() : tensor<256x8x1xf32>
    %106 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<256x8x1xi8>) outs(%105 : tensor<256x8x1xf32>) {
    ^bb0(%in_37: i8, %out_27: f32):
      %107 = arith.sitofp %in_37 : i8 to f32
      linalg.yield %107 : f32
    } -> tensor<256x8x1xf32>
    %108 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%103, %106 : tensor<256x8x32xf32>, tensor<256x8x1xf32>) outs(%102 : tensor<256x8x32xf32>) {
    ^bb0(%in_38: f32, %in_39: f32, %out_28: f32):
      %109 = arith.subf %in_38, %in_39 : f32
      linalg.yield %109 : f32
    } -> tensor<256x8x32xf32>
    %110 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%108, %expanded_6 : tensor<256x8x32xf32>, tensor<256x8x1xf32>) outs(%102 : tensor<256x8x32xf32>) {
    ^bb0(%in_40: f32, %in_41: f32, %out_29: f32):
      %111 = arith.mulf %in_40, %in_41 : f32
      linalg.yield %111 : f32
    } -> tensor<256x8x32xf32>
    %collapsed = tensor.collapse_shape %110 [[0 : i64], [1 : i64, 2 : i64]] : tensor<256x8x32xf32> into tensor<256x256xf32>
    %112 = tensor.empty() : tensor<256x256xf32>
    %transposed = linalg.transpose ins(%collapsed:tensor<256x256xf32>) outs(%112:tensor<256x256xf32>) permutation = [1, 0]
    %collapsed_1 = tensor.collapse_shape %100 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x256xf32> into tensor<6x256xf32>
    %113 = tensor.empty() : tensor<6x256xf32>
    %114 = linalg.fill ins(%cst : f32) outs(%113 : tensor<6x256xf32>) -> tensor<6x256xf32>
    %115 = linalg.matmul ins(%collapsed_1, %transposed : tensor<6x256xf32>, tensor<256x256xf32>) outs(%114 : tensor<6x256xf32>) -> tensor<6x256xf32>
    %expanded_8 = tensor.expand_shape %115 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 4, 64] : tensor<6x256xf32> into tensor<1x6x4x64xf32>
    %116 = tensor.empty() : tensor<1x4x6x64xf32>
    %transposed_1 = linalg.transpose ins(%expanded_8:tensor<1x6x4x64xf32>) outs(%116:tensor<1x4x6x64xf32>) permutation = [0, 2, 1, 3]
    %expanded_9 = tensor.expand_shape %model.layers.0.self_attn.k_proj.weight.qdata [[0 : i64], [1 : i64, 2 : i64]] output_shape [128, 8, 32] : tensor<128x256xi8> into tensor<128x8x32xi8>
    %expanded_10 = tensor.expand_shape %model.layers.0.self_attn.k_proj.weight.scale [[0 : i64], [1 : i64, 2 : i64]] output_shape [128, 8, 1] : tensor<128x8xf32> into tensor<128x8x1xf32>
    %expanded_11 = tensor.expand_shape %cst_13 [[0 : i64], [1 : i64, 2 : i64]] output_shape [128, 8, 1] : tensor<128x8xi8> into tensor<128x8x1xi8>
    %117 = tensor.empty() : tensor<128x8x32xf32>
    %118 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_9 : tensor<128x8x32xi8>) outs(%117 : tensor<128x8x32xf32>) {
    ^bb0(%in_42: i8, %out_30: f32):
      %119 = arith.sitofp %in_42 : i8 to f32
      linalg.yield %119 : f32
    } -> tensor<128x8x32xf32>
    %120 = tensor.empty() : tensor<128x8x1xf32>
    %121 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_11 : tensor<128x8x1xi8>) outs(%120 : tensor<128x8x1xf32>) {
    ^bb0(%in_43: i8, %out_31: f32):
      %122 = arith.sitofp %in_43 : i8 to f32
      linalg.yield %122 : f32
    } -> tensor<128x8x1xf32>
    %123 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%118, %121 : tensor<128x8x32xf32>, tensor<128x8x1xf32>) outs(%117 : tensor<128x8x32xf32>) {
    ^bb0(%in_44: f32, %in_45: f32, %out_32: f32):
      %124 = arith.subf %in_44, %in_45 : f32
      linalg.yield %124 : f32
    } -> tensor<128x8x32xf32>
    %125 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%123, %expanded_10 : tensor<128x8x32xf32>, tensor<128x8x1xf32>) outs(%117 : tensor<128x8x32xf32>) {
    ^bb0(%in_46: f32, %in_47: f32, %out_33: f32):
      %126 = arith.mulf %in_46, %in_47 : f32
      linalg.yield %126 : f32
    } -> tensor<128x8x32xf32>
    %collapsed_2 = tensor.collapse_shape %125 [[0 : i64], [1 : i64, 2 : i64]] : tensor<128x8x32xf32> into tensor<128x256xf32>
    %127 = tensor.empty() : tensor<256x128xf32>
    %transposed_2 = linalg.transpose ins(%collapsed_2:tensor<128x256xf32>) outs(%127:tensor<256x128xf32>) permutation = [1, 0]
    %128 = tensor.empty() : tensor<6x128xf32>
    %129 = linalg.fill ins(%cst : f32) outs(%128 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %130 = linalg.matmul ins(%collapsed_1, %transposed_2 : tensor<6x256xf32>, tensor<256x128xf32>) outs(%129 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_12 = tensor.expand_shape %130 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 64] : tensor<6x128xf32> into tensor<1x6x2x64xf32>
    %131 = tensor.empty() : tensor<1x2x6x64xf32>
    %transposed_3 = linalg.transpose ins(%expanded_12:tensor<1x6x2x64xf32>) outs(%131:tensor<1x2x6x64xf32>) permutation = [0, 2, 1, 3]
    %expanded_13 = tensor.expand_shape %model.layers.0.self_attn.v_proj.weight.qdata [[0 : i64], [1 : i64, 2 : i64]] output_shape [128, 8, 32] : tensor<128x256xi8> into tensor<128x8x32xi8>
    %expanded_14 = tensor.expand_shape %model.layers.0.self_attn.v_proj.weight.scale [[0 : i64], [1 : i64, 2 : i64]] output_shape [128, 8, 1] : tensor<128x8xf32> into tensor<128x8x1xf32>
    %expanded_15 = tensor.expand_shape %cst_14 [[0 : i64], [1 : i64, 2 : i64]] output_shape [128, 8, 1] : tensor<128x8xi8> into tensor<128x8x1xi8>
    %132 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_13 : tensor<128x8x32xi8>) outs(%117 : tensor<128x8x32xf32>) {
    ^bb0(%in_48: i8, %out_34: f32):
      %133 = arith.sitofp %in_48 : i8 to f32
      linalg.yield %133 : f32
    } -> tensor<128x8x32xf32>
    %134 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_15 : tensor<128x8x1xi8>) outs(%120 : tensor<128x8x1xf32>) {
    ^bb0(%in_49: i8, %out_35: f32):
      %135 = arith.sitofp %in_49 : i8 to f32
      linalg.yield %135 : f32
    } -> tensor<128x8x1xf32>
    %136 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%132, %134 : tensor<128x8x32xf32>, tensor<128x8x1xf32>) outs(%117 : tensor<128x8x32xf32>) {
    ^bb0(%in_50: f32, %in_51: f32, %out_36: f32):
      %137 = arith.subf %in_50, %in_51 : f32
      linalg.yield %137 : f32
    } -> tensor<128x8x32xf32>
    %138 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%136, %expanded_14 : tensor<128x8x32xf32>, tensor<128x8x1xf32>) outs(%117 : tensor<128x8x32xf32>) {
    ^bb0(%in_52: f32, %in_53: f32, %out_37: f32):
      %139 = arith.mulf %in_52, %in_53 : f32
      linalg.yield %139 : f32
    } -> tensor<128x8x32xf32>
    %collapsed_3 = tensor.collapse_shape %138 [[0 : i64], [1 : i64, 2 : i64]] : tensor<128x8x32xf32> into tensor<128x256xf32>
    %transposed_4 = linalg.transpose ins(%collapsed_3:tensor<128x256xf32>) outs(%127:tensor<256x128xf32>) permutation = [1, 0]
    %140 = linalg.matmul ins(%collapsed_1, %transposed_4 : tensor<6x256xf32>, tensor<256x128xf32>) outs(%129 : tensor<6x128xf32>) -> tensor<6x128xf32>
    %expanded_16 = tensor.expand_shape %140 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [1, 6, 2, 64] : tensor<6x128xf32> into tensor<1x6x2x64xf32>
    %transposed_5 = linalg.transpose ins(%expanded_16:tensor<1x6x2x64xf32>) outs(%131:tensor<1x2x6x64xf32>) permutation = [0, 2, 1, 3]
    %expanded_17 = tensor.expand_shape %82 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 64] : tensor<1x6x64xf32> into tensor<1x1x6x64xf32>
    %expanded_18 = tensor.expand_shape %84 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, 6, 64] : tensor<1x6x64xf32> into tensor<1x1x6x64xf32>
    %141 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_1, %expanded_17 : tensor<1x4x6x64xf32>, tensor<1x1x6x64xf32>) outs(%116 : tensor<1x4x6x64xf32>) {
    ^bb0(%in_54: f32, %in_55: f32, %out_38: f32):
      %142 = arith.mulf %in_54, %in_55 : f32
      linalg.yield %142 : f32
    } -> tensor<1x4x6x64xf32>
    %extracted_slice_3 = tensor.extract_slice %transposed_1[0, 0, 0, 0] [1, 4, 6, 32] [1, 1, 1, 1] : tensor<1x4x6x64xf32> to tensor<1x4x6x32xf32>
    %extracted_slice_4 = tensor.extract_slice %transposed_1[0, 0, 0, 32] [1, 4, 6, 32] [1, 1, 1, 1] : tensor<1x4x6x64xf32> to tensor<1x4x6x32xf32>
    %143 = tensor.empty() : tensor<1x4x6x32xf32>
    %144 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_4 : tensor<1x4x6x32xf32>) outs(%143 : tensor<1x4x6x32xf32>) {
    ^bb0(%in_56: f32, %out_39: f32):
      %145 = arith.negf %in_56 : f32
      linalg.yield %145 : f32
    } -> tensor<1x4x6x32xf32>
    %concat_2 = tensor.concat dim(3) %144, %extracted_slice_3 : (tensor<1x4x6x32xf32>, tensor<1x4x6x32xf32>) -> tensor<1x4x6x64xf32>
    %146 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_2, %expanded_18 : tensor<1x4x6x64xf32>, tensor<1x1x6x64xf32>) outs(%116 : tensor<1x4x6x64xf32>) {
    ^bb0(%in_57: f32, %in_58: f32, %out_40: f32):
      %147 = arith.mulf %in_57, %in_58 : f32
      linalg.yield %147 : f32
    } -> tensor<1x4x6x64xf32>
    %148 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%141, %146 : tensor<1x4x6x64xf32>, tensor<1x4x6x64xf32>) outs(%116 : tensor<1x4x6x64xf32>) {
    ^bb0(%in_59: f32, %in_60: f32, %out_41: f32):
      %149 = arith.addf %in_59, %in_60 : f32
      linalg.yield %149 : f32
    } -> tensor<1x4x6x64xf32>
    %150 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_3, %expanded_17 : tensor<1x2x6x64xf32>, tensor<1x1x6x64xf32>) outs(%131 : tensor<1x2x6x64xf32>) {
    ^bb0(%in_61: f32, %in_62: f32, %out_42: f32):
      %151 = arith.mulf %in_61, %in_62 : f32
      linalg.yield %151 : f32
    } -> tensor<1x2x6x64xf32>
    %extracted_slice_5 = tensor.extract_slice %transposed_3[0, 0, 0, 0] [1, 2, 6, 32] [1, 1, 1, 1] : tensor<1x2x6x64xf32> to tensor<1x2x6x32xf32>
    %extracted_slice_6 = tensor.extract_slice %transposed_3[0, 0, 0, 32] [1, 2, 6, 32] [1, 1, 1, 1] : tensor<1x2x6x64xf32> to tensor<1x2x6x32xf32>
    %152 = tensor.empty() : tensor<1x2x6x32xf32>
    %153 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_6 : tensor<1x2x6x32xf32>) outs(%152 : tensor<1x2x6x32xf32>) {
    ^bb0(%in_63: f32, %out_43: f32):
      %154 = arith.negf %in_63 : f32
      linalg.yield %154 : f32
    } -> tensor<1x2x6x32xf32>
    %concat_3 = tensor.concat dim(3) %153, %extracted_slice_5 : (tensor<1x2x6x32xf32>, tensor<1x2x6x32xf32>) -> tensor<1x2x6x64xf32>
    %155 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_3, %expanded_18 : tensor<1x2x6x64xf32>, tensor<1x1x6x64xf32>) outs(%131 : tensor<1x2x6x64xf32>) {
    ^bb0(%in_64: f32, %in_65: f32, %out_44: f32):
      %156 = arith.mulf %in_64, %in_65 : f32
      linalg.yield %156 : f32
    } -> tensor<1x2x6x64xf32>
    %157 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%150, %155 : tensor<1x2x6x64xf32>, tensor<1x2x6x64xf32>) outs(%131 : tensor<1x2x6x64xf32>) {
    ^bb0(%in_66: f32, %in_67: f32, %out_45: f32):
      %158 = arith.addf %in_66, %in_67 : f32
      linalg.yield %158 : f32
    } -> tensor<1x2x6x64xf32>
    %159 = tensor.empty() : tensor<1x2x2x6x64xf32>
    %160 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%157 : tensor<1x2x6x64xf32>) outs(%159 : tensor<1x2x2x6x64xf32>) {
    ^bb0(%in_68: f32, %out_46: f32):
      linalg.yield %in_68 : f32
    } -> tensor<1x2x2x6x64xf32>
    %collapsed_4 = tensor.collapse_shape %160 [[0 : i64], [1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x64xf32> into tensor<1x4x6x64xf32>
    %161 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_5 : tensor<1x2x6x64xf32>) outs(%159 : tensor<1x2x2x6x64xf32>) {
    ^bb0(%in_69: f32, %out_47: f32):
      linalg.yield %in_69 : f32
    } -> tensor<1x2x2x6x64xf32>
    %162 = tensor.empty() : tensor<1x1x6x6xf32>
    %163 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73, %cst_4, %cst_5 : tensor<1x1x6x6xi1>, tensor<f32>, tensor<f32>) outs(%162 : tensor<1x1x6x6xf32>) {
    ^bb0(%in_70: i1, %in_71: f32, %in_72: f32, %out_48: f32):
      %164 = arith.select %in_70, %in_71, %in_72 : f32
      linalg.yield %164 : f32
    } -> tensor<1x1x6x6xf32>
    %165 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%148 : tensor<1x4x6x64xf32>) outs(%116 : tensor<1x4x6x64xf32>) {
    ^bb0(%in_73: f32, %out_49: f32):
      %166 = arith.truncf %cst_7 : f64 to f32
      %167 = arith.mulf %in_73, %166 : f32
      linalg.yield %167 : f32
    } -> tensor<1x4x6x64xf32>
    %168 = tensor.empty() : tensor<1x4x64x6xf32>
    %transposed_6 = linalg.transpose ins(%collapsed_4:tensor<1x4x6x64xf32>) outs(%168:tensor<1x4x64x6xf32>) permutation = [0, 1, 3, 2]
    %169 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_6 : tensor<1x4x64x6xf32>) outs(%168 : tensor<1x4x64x6xf32>) {
    ^bb0(%in_74: f32, %out_50: f32):
      %170 = arith.truncf %cst_7 : f64 to f32
      %171 = arith.mulf %in_74, %170 : f32
      linalg.yield %171 : f32
    } -> tensor<1x4x64x6xf32>
    %collapsed_5 = tensor.collapse_shape %165 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x64xf32> into tensor<4x6x64xf32>
    %collapsed_6 = tensor.collapse_shape %169 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x64x6xf32> into tensor<4x64x6xf32>
    %172 = tensor.empty() : tensor<4x6x6xf32>
    %173 = linalg.fill ins(%cst : f32) outs(%172 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %174 = linalg.batch_matmul ins(%collapsed_5, %collapsed_6 : tensor<4x6x64xf32>, tensor<4x64x6xf32>) outs(%173 : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %expanded_19 = tensor.expand_shape %174 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 6] : tensor<4x6x6xf32> into tensor<1x4x6x6xf32>
    %175 = tensor.empty() : tensor<1x4x6x6xf32>
    %176 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_19, %163 : tensor<1x4x6x6xf32>, tensor<1x1x6x6xf32>) outs(%175 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_75: f32, %in_76: f32, %out_51: f32):
      %177 = arith.addf %in_75, %in_76 : f32
      linalg.yield %177 : f32
    } -> tensor<1x4x6x6xf32>
    %178 = tensor.empty() : tensor<1x4x6xi64>
    %179 = linalg.fill ins(%c0_i64 : i64) outs(%178 : tensor<1x4x6xi64>) -> tensor<1x4x6xi64>
    %180 = tensor.empty() : tensor<1x4x6xf32>
    %181 = linalg.fill ins(%cst_1 : f32) outs(%180 : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
    %182, %183 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%176 : tensor<1x4x6x6xf32>) outs(%181, %179 : tensor<1x4x6xf32>, tensor<1x4x6xi64>) {
    ^bb0(%in_77: f32, %out_52: f32, %out_53: i64):
      %184 = linalg.index 3 : index
      %185 = arith.index_cast %184 : index to i64
      %186 = arith.maximumf %in_77, %out_52 : f32
      %187 = arith.cmpf ogt, %in_77, %out_52 : f32
      %188 = arith.select %187, %185, %out_53 : i64
      linalg.yield %186, %188 : f32, i64
    } -> (tensor<1x4x6xf32>, tensor<1x4x6xi64>)
    %expanded_20 = tensor.expand_shape %182 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 6, 1] : tensor<1x4x6xf32> into tensor<1x4x6x1xf32>
    %189 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%176, %expanded_20 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%175 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_78: f32, %in_79: f32, %out_54: f32):
      %190 = arith.subf %in_78, %in_79 : f32
      linalg.yield %190 : f32
    } -> tensor<1x4x6x6xf32>
    %191 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%189 : tensor<1x4x6x6xf32>) outs(%175 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_80: f32, %out_55: f32):
      %192 = math.exp %in_80 : f32
      linalg.yield %192 : f32
    } -> tensor<1x4x6x6xf32>
    %193 = tensor.empty() : tensor<1x4x6x1xf32>
    %194 = linalg.fill ins(%cst : f32) outs(%193 : tensor<1x4x6x1xf32>) -> tensor<1x4x6x1xf32>
    %195 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%191 : tensor<1x4x6x6xf32>) outs(%194 : tensor<1x4x6x1xf32>) {
    ^bb0(%in_81: f32, %out_56: f32):
      %196 = arith.addf %in_81, %out_56 : f32
      linalg.yield %196 : f32
    } -> tensor<1x4x6x1xf32>
    %197 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%191, %195 : tensor<1x4x6x6xf32>, tensor<1x4x6x1xf32>) outs(%175 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_82: f32, %in_83: f32, %out_57: f32):
      %198 = arith.divf %in_82, %in_83 : f32
      linalg.yield %198 : f32
    } -> tensor<1x4x6x6xf32>
    %199 = tensor.empty() : tensor<1x4x6x6xi1>
    %200 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%176 : tensor<1x4x6x6xf32>) outs(%199 : tensor<1x4x6x6xi1>) {
    ^bb0(%in_84: f32, %out_58: i1):
      %201 = arith.extf %in_84 : f32 to f64
      %202 = arith.cmpf oeq, %201, %cst_8 : f64
      linalg.yield %202 : i1
    } -> tensor<1x4x6x6xi1>
    %203 = tensor.empty() : tensor<1x4x6x1xi1>
    %204 = linalg.fill ins(%true : i1) outs(%203 : tensor<1x4x6x1xi1>) -> tensor<1x4x6x1xi1>
    %205 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%200 : tensor<1x4x6x6xi1>) outs(%204 : tensor<1x4x6x1xi1>) {
    ^bb0(%in_85: i1, %out_59: i1):
      %206 = arith.andi %in_85, %out_59 : i1
      linalg.yield %206 : i1
    } -> tensor<1x4x6x1xi1>
    %207 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%205, %cst_3, %197 : tensor<1x4x6x1xi1>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%175 : tensor<1x4x6x6xf32>) {
    ^bb0(%in_86: i1, %in_87: f32, %in_88: f32, %out_60: f32):
      %208 = arith.select %in_86, %in_87, %in_88 : f32
      linalg.yield %208 : f32
    } -> tensor<1x4x6x6xf32>
    %collapsed_7 = tensor.collapse_shape %207 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : tensor<1x4x6x6xf32> into tensor<4x6x6xf32>
    %collapsed_8 = tensor.collapse_shape %161 [[0 : i64, 1 : i64, 2 : i64], [3 : i64], [4 : i64]] : tensor<1x2x2x6x64xf32> into tensor<4x6x64xf32>
    %209 = tensor.empty() : tensor<4x6x64xf32>
    %210 = linalg.fill ins(%cst : f32) outs(%209 : tensor<4x6x64xf32>) -> tensor<4x6x64xf32>
    %211 = linalg.batch_matmul ins(%collapsed_7, %collapsed_8 : tensor<4x6x6xf32>, tensor<4x6x64xf32>) outs(%210 : tensor<4x6x64xf32>) -> tensor<4x6x64xf32>
    %expanded_21 = tensor.expand_shape %211 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [1, 4, 6, 64] : tensor<4x6x64xf32> into tensor<1x4x6x64xf32>
    %212 = tensor.empty() : tensor<1x6x4x64xf32>
    %transposed_7 = linalg.transpose ins(%expanded_21:tensor<1x4x6x64xf32>) outs(%212:tensor<1x6x4x64xf32>) permutation = [0, 2, 1, 3]
    %expanded_22 = tensor.expand_shape %model.layers.0.self_attn.o_proj.weight.qdata [[0 : i64], [1 : i64, 2 : i64]] output_shape [256, 8, 32] : tensor<256x256xi8> into tensor<256x8x32xi8>
    %expanded_23 = tensor.expand_shape %model.layers.0.self_attn.o_proj.weight.scale [[0 : i64], [1 : i64, 2 : i64]] output_shape [256, 8, 1] : tensor<256x8xf32> into tensor<256x8x1xf32>
    %expanded_24 = tensor.expand_shape %cst_15 [[0 : i64], [1 : i64, 2 : i64]] output_shape [256, 8, 1] : tensor<256x8xi8> into tensor<256x8x1xi8>
    %213 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_22 : tensor<256x8x32xi8>) outs(%102 : tensor<256x8x32xf32>) {
    ^bb0(%in_89: i8, %out_61: f32):
      %214 = arith.sitofp %in_89 : i8 to f32
      linalg.yield %214 : f32
    } -> tensor<256x8x32xf32>
    %215 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24 : tensor<256x8x1xi8>) outs(%105 : tensor<256x8x1xf32>) {
    ^bb0(%in_90: i8, %out_62: f32):
      %216 = arith.sitofp %in_90 : i8 to f32
      linalg.yield %216 : f32
    } -> tensor<256x8x1xf32>
    %217 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%213, %215 : tensor<256x8x32xf32>, tensor<256x8x1xf32>) outs(%102 : tensor<256x8x32xf32>) {
    ^bb0(%in_91: f32, %in_92: f32, %out_63: f32):
      %218 = arith.subf %in_91, %in_92 : f32
      linalg.yield %218 : f32
    } -> tensor<256x8x32xf32>
    %219 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%217, %expanded_23 : tensor<256x8x32xf32>, tensor<256x8x1xf32>) outs(%102 : tensor<256x8x32xf32>) {
    ^bb0(%in_93: f32, %in_94: f32, %out_64: f32):
      %220 = arith.mulf %in_93, %in_94 : f32
      linalg.yield %220 : f32
    } -> tensor<256x8x32xf32>
    %collapsed_9 = tensor.collapse_shape %219 [[0 : i64], [1 : i64, 2 : i64]] : tensor<256x8x32xf32> into tensor<256x256xf32>
    %transposed_8 = linalg.transpose ins(%collapsed_9:tensor<256x256xf32>) outs(%112:tensor<256x256xf32>) permutation = [1, 0]
    %collapsed_10 = tensor.collapse_shape %transposed_7 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x6x4x64xf32> into tensor<6x256xf32>
    %221 = linalg.matmul ins(%collapsed_10, %transposed_8 : tensor<6x256xf32>, tensor<256x256xf32>) outs(%114 : tensor<6x256xf32>) -> tensor<6x256xf32>
    %expanded_25 = tensor.expand_shape %221 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 256] : tensor<6x256xf32> into tensor<1x6x256xf32>
    %222 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %expanded_25 : tensor<1x6x256xf32>, tensor<1x6x256xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_95: f32, %in_96: f32, %out_65: f32):
      %223 = arith.addf %in_95, %in_96 : f32
      linalg.yield %223 : f32
    } -> tensor<1x6x256xf32>
    %224 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%222 : tensor<1x6x256xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_97: f32, %out_66: f32):
      %225 = math.fpowi %in_97, %c2_i64 : f32, i64
      linalg.yield %225 : f32
    } -> tensor<1x6x256xf32>
    %226 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%224 : tensor<1x6x256xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_98: f32, %out_67: f32):
      %227 = arith.addf %in_98, %out_67 : f32
      linalg.yield %227 : f32
    } -> tensor<1x6x1xf32>
    %228 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%226 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_99: f32, %out_68: f32):
      %229 = arith.divf %in_99, %cst_11 : f32
      linalg.yield %229 : f32
    } -> tensor<1x6x1xf32>
    %230 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%228 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_100: f32, %out_69: f32):
      %231 = arith.truncf %cst_9 : f64 to f32
      %232 = arith.addf %in_100, %231 : f32
      linalg.yield %232 : f32
    } -> tensor<1x6x1xf32>
    %233 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%230 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_101: f32, %out_70: f32):
      %234 = math.rsqrt %in_101 : f32
      linalg.yield %234 : f32
    } -> tensor<1x6x1xf32>
    %235 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%222, %233 : tensor<1x6x256xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_102: f32, %in_103: f32, %out_71: f32):
      %236 = arith.mulf %in_102, %in_103 : f32
      linalg.yield %236 : f32
    } -> tensor<1x6x256xf32>
    %237 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.layers.0.post_attention_layernorm.weight, %235 : tensor<256xf32>, tensor<1x6x256xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_104: f32, %in_105: f32, %out_72: f32):
      %238 = arith.mulf %in_104, %in_105 : f32
      linalg.yield %238 : f32
    } -> tensor<1x6x256xf32>
    %expanded_26 = tensor.expand_shape %model.layers.0.mlp.gate_proj.weight.qdata [[0 : i64], [1 : i64, 2 : i64]] output_shape [512, 8, 32] : tensor<512x256xi8> into tensor<512x8x32xi8>
    %expanded_27 = tensor.expand_shape %model.layers.0.mlp.gate_proj.weight.scale [[0 : i64], [1 : i64, 2 : i64]] output_shape [512, 8, 1] : tensor<512x8xf32> into tensor<512x8x1xf32>
    %expanded_28 = tensor.expand_shape %cst_16 [[0 : i64], [1 : i64, 2 : i64]] output_shape [512, 8, 1] : tensor<512x8xi8> into tensor<512x8x1xi8>
    %239 = tensor.empty() : tensor<512x8x32xf32>
    %240 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_26 : tensor<512x8x32xi8>) outs(%239 : tensor<512x8x32xf32>) {
    ^bb0(%in_106: i8, %out_73: f32):
      %241 = arith.sitofp %in_106 : i8 to f32
      linalg.yield %241 : f32
    } -> tensor<512x8x32xf32>
    %242 = tensor.empty() : tensor<512x8x1xf32>
    %243 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_28 : tensor<512x8x1xi8>) outs(%242 : tensor<512x8x1xf32>) {
    ^bb0(%in_107: i8, %out_74: f32):
      %244 = arith.sitofp %in_107 : i8 to f32
      linalg.yield %244 : f32
    } -> tensor<512x8x1xf32>
    %245 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%240, %243 : tensor<512x8x32xf32>, tensor<512x8x1xf32>) outs(%239 : tensor<512x8x32xf32>) {
    ^bb0(%in_108: f32, %in_109: f32, %out_75: f32):
      %246 = arith.subf %in_108, %in_109 : f32
      linalg.yield %246 : f32
    } -> tensor<512x8x32xf32>
    %247 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%245, %expanded_27 : tensor<512x8x32xf32>, tensor<512x8x1xf32>) outs(%239 : tensor<512x8x32xf32>) {
    ^bb0(%in_110: f32, %in_111: f32, %out_76: f32):
      %248 = arith.mulf %in_110, %in_111 : f32
      linalg.yield %248 : f32
    } -> tensor<512x8x32xf32>
    %collapsed_11 = tensor.collapse_shape %247 [[0 : i64], [1 : i64, 2 : i64]] : tensor<512x8x32xf32> into tensor<512x256xf32>
    %249 = tensor.empty() : tensor<256x512xf32>
    %transposed_9 = linalg.transpose ins(%collapsed_11:tensor<512x256xf32>) outs(%249:tensor<256x512xf32>) permutation = [1, 0]
    %collapsed_12 = tensor.collapse_shape %237 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x256xf32> into tensor<6x256xf32>
    %250 = tensor.empty() : tensor<6x512xf32>
    %251 = linalg.fill ins(%cst : f32) outs(%250 : tensor<6x512xf32>) -> tensor<6x512xf32>
    %252 = linalg.matmul ins(%collapsed_12, %transposed_9 : tensor<6x256xf32>, tensor<256x512xf32>) outs(%251 : tensor<6x512xf32>) -> tensor<6x512xf32>
    %expanded_29 = tensor.expand_shape %252 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 512] : tensor<6x512xf32> into tensor<1x6x512xf32>
    %253 = tensor.empty() : tensor<1x6x512xf32>
    %254 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_29 : tensor<1x6x512xf32>) outs(%253 : tensor<1x6x512xf32>) {
    ^bb0(%in_112: f32, %out_77: f32):
      %255 = arith.negf %in_112 : f32
      %256 = math.exp %255 : f32
      %257 = arith.addf %256, %cst_2 : f32
      %258 = arith.divf %cst_2, %257 : f32
      linalg.yield %258 : f32
    } -> tensor<1x6x512xf32>
    %259 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_29, %254 : tensor<1x6x512xf32>, tensor<1x6x512xf32>) outs(%253 : tensor<1x6x512xf32>) {
    ^bb0(%in_113: f32, %in_114: f32, %out_78: f32):
      %260 = arith.mulf %in_113, %in_114 : f32
      linalg.yield %260 : f32
    } -> tensor<1x6x512xf32>
    %expanded_30 = tensor.expand_shape %model.layers.0.mlp.up_proj.weight.qdata [[0 : i64], [1 : i64, 2 : i64]] output_shape [512, 8, 32] : tensor<512x256xi8> into tensor<512x8x32xi8>
    %expanded_31 = tensor.expand_shape %model.layers.0.mlp.up_proj.weight.scale [[0 : i64], [1 : i64, 2 : i64]] output_shape [512, 8, 1] : tensor<512x8xf32> into tensor<512x8x1xf32>
    %expanded_32 = tensor.expand_shape %cst_17 [[0 : i64], [1 : i64, 2 : i64]] output_shape [512, 8, 1] : tensor<512x8xi8> into tensor<512x8x1xi8>
    %261 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_30 : tensor<512x8x32xi8>) outs(%239 : tensor<512x8x32xf32>) {
    ^bb0(%in_115: i8, %out_79: f32):
      %262 = arith.sitofp %in_115 : i8 to f32
      linalg.yield %262 : f32
    } -> tensor<512x8x32xf32>
    %263 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_32 : tensor<512x8x1xi8>) outs(%242 : tensor<512x8x1xf32>) {
    ^bb0(%in_116: i8, %out_80: f32):
      %264 = arith.sitofp %in_116 : i8 to f32
      linalg.yield %264 : f32
    } -> tensor<512x8x1xf32>
    %265 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%261, %263 : tensor<512x8x32xf32>, tensor<512x8x1xf32>) outs(%239 : tensor<512x8x32xf32>) {
    ^bb0(%in_117: f32, %in_118: f32, %out_81: f32):
      %266 = arith.subf %in_117, %in_118 : f32
      linalg.yield %266 : f32
    } -> tensor<512x8x32xf32>
    %267 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%265, %expanded_31 : tensor<512x8x32xf32>, tensor<512x8x1xf32>) outs(%239 : tensor<512x8x32xf32>) {
    ^bb0(%in_119: f32, %in_120: f32, %out_82: f32):
      %268 = arith.mulf %in_119, %in_120 : f32
      linalg.yield %268 : f32
    } -> tensor<512x8x32xf32>
    %collapsed_13 = tensor.collapse_shape %267 [[0 : i64], [1 : i64, 2 : i64]] : tensor<512x8x32xf32> into tensor<512x256xf32>
    %transposed_10 = linalg.transpose ins(%collapsed_13:tensor<512x256xf32>) outs(%249:tensor<256x512xf32>) permutation = [1, 0]
    %269 = linalg.matmul ins(%collapsed_12, %transposed_10 : tensor<6x256xf32>, tensor<256x512xf32>) outs(%251 : tensor<6x512xf32>) -> tensor<6x512xf32>
    %expanded_33 = tensor.expand_shape %269 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 512] : tensor<6x512xf32> into tensor<1x6x512xf32>
    %270 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%259, %expanded_33 : tensor<1x6x512xf32>, tensor<1x6x512xf32>) outs(%253 : tensor<1x6x512xf32>) {
    ^bb0(%in_121: f32, %in_122: f32, %out_83: f32):
      %271 = arith.mulf %in_121, %in_122 : f32
      linalg.yield %271 : f32
    } -> tensor<1x6x512xf32>
    %expanded_34 = tensor.expand_shape %model.layers.0.mlp.down_proj.weight.qdata [[0 : i64], [1 : i64, 2 : i64]] output_shape [256, 16, 32] : tensor<256x512xi8> into tensor<256x16x32xi8>
    %expanded_35 = tensor.expand_shape %model.layers.0.mlp.down_proj.weight.scale [[0 : i64], [1 : i64, 2 : i64]] output_shape [256, 16, 1] : tensor<256x16xf32> into tensor<256x16x1xf32>
    %expanded_36 = tensor.expand_shape %cst_18 [[0 : i64], [1 : i64, 2 : i64]] output_shape [256, 16, 1] : tensor<256x16xi8> into tensor<256x16x1xi8>
    %272 = tensor.empty() : tensor<256x16x32xf32>
    %273 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34 : tensor<256x16x32xi8>) outs(%272 : tensor<256x16x32xf32>) {
    ^bb0(%in_123: i8, %out_84: f32):
      %274 = arith.sitofp %in_123 : i8 to f32
      linalg.yield %274 : f32
    } -> tensor<256x16x32xf32>
    %275 = tensor.empty() : tensor<256x16x1xf32>
    %276 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_36 : tensor<256x16x1xi8>) outs(%275 : tensor<256x16x1xf32>) {
    ^bb0(%in_124: i8, %out_85: f32):
      %277 = arith.sitofp %in_124 : i8 to f32
      linalg.yield %277 : f32
    } -> tensor<256x16x1xf32>
    %278 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%273, %276 : tensor<256x16x32xf32>, tensor<256x16x1xf32>) outs(%272 : tensor<256x16x32xf32>) {
    ^bb0(%in_125: f32, %in_126: f32, %out_86: f32):
      %279 = arith.subf %in_125, %in_126 : f32
      linalg.yield %279 : f32
    } -> tensor<256x16x32xf32>
    %280 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%278, %expanded_35 : tensor<256x16x32xf32>, tensor<256x16x1xf32>) outs(%272 : tensor<256x16x32xf32>) {
    ^bb0(%in_127: f32, %in_128: f32, %out_87: f32):
      %281 = arith.mulf %in_127, %in_128 : f32
      linalg.yield %281 : f32
    } -> tensor<256x16x32xf32>
    %collapsed_14 = tensor.collapse_shape %280 [[0 : i64], [1 : i64, 2 : i64]] : tensor<256x16x32xf32> into tensor<256x512xf32>
    %282 = tensor.empty() : tensor<512x256xf32>
    %transposed_11 = linalg.transpose ins(%collapsed_14:tensor<256x512xf32>) outs(%282:tensor<512x256xf32>) permutation = [1, 0]
    %collapsed_15 = tensor.collapse_shape %270 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x512xf32> into tensor<6x512xf32>
    %283 = linalg.matmul ins(%collapsed_15, %transposed_11 : tensor<6x512xf32>, tensor<512x256xf32>) outs(%114 : tensor<6x256xf32>) -> tensor<6x256xf32>
    %expanded_37 = tensor.expand_shape %283 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 256] : tensor<6x256xf32> into tensor<1x6x256xf32>
    %284 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%222, %expanded_37 : tensor<1x6x256xf32>, tensor<1x6x256xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_129: f32, %in_130: f32, %out_88: f32):
      %285 = arith.addf %in_129, %in_130 : f32
      linalg.yield %285 : f32
    } -> tensor<1x6x256xf32>
    %286 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%284 : tensor<1x6x256xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_131: f32, %out_89: f32):
      %287 = math.fpowi %in_131, %c2_i64 : f32, i64
      linalg.yield %287 : f32
    } -> tensor<1x6x256xf32>
    %288 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%286 : tensor<1x6x256xf32>) outs(%88 : tensor<1x6x1xf32>) {
    ^bb0(%in_132: f32, %out_90: f32):
      %289 = arith.addf %in_132, %out_90 : f32
      linalg.yield %289 : f32
    } -> tensor<1x6x1xf32>
    %290 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%288 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_133: f32, %out_91: f32):
      %291 = arith.divf %in_133, %cst_11 : f32
      linalg.yield %291 : f32
    } -> tensor<1x6x1xf32>
    %292 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%290 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_134: f32, %out_92: f32):
      %293 = arith.truncf %cst_9 : f64 to f32
      %294 = arith.addf %in_134, %293 : f32
      linalg.yield %294 : f32
    } -> tensor<1x6x1xf32>
    %295 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%292 : tensor<1x6x1xf32>) outs(%75 : tensor<1x6x1xf32>) {
    ^bb0(%in_135: f32, %out_93: f32):
      %296 = math.rsqrt %in_135 : f32
      linalg.yield %296 : f32
    } -> tensor<1x6x1xf32>
    %297 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%284, %295 : tensor<1x6x256xf32>, tensor<1x6x1xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_136: f32, %in_137: f32, %out_94: f32):
      %298 = arith.mulf %in_136, %in_137 : f32
      linalg.yield %298 : f32
    } -> tensor<1x6x256xf32>
    %299 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%model.norm.weight, %297 : tensor<256xf32>, tensor<1x6x256xf32>) outs(%0 : tensor<1x6x256xf32>) {
    ^bb0(%in_138: f32, %in_139: f32, %out_95: f32):
      %300 = arith.mulf %in_138, %in_139 : f32
      linalg.yield %300 : f32
    } -> tensor<1x6x256xf32>
    %expanded_38 = tensor.expand_shape %lm_head.weight.qdata [[0 : i64], [1 : i64, 2 : i64]] output_shape [320, 8, 32] : tensor<320x256xi8> into tensor<320x8x32xi8>
    %expanded_39 = tensor.expand_shape %lm_head.weight.scale [[0 : i64], [1 : i64, 2 : i64]] output_shape [320, 8, 1] : tensor<320x8xf32> into tensor<320x8x1xf32>
    %expanded_40 = tensor.expand_shape %cst_19 [[0 : i64], [1 : i64, 2 : i64]] output_shape [320, 8, 1] : tensor<320x8xi8> into tensor<320x8x1xi8>
    %301 = tensor.empty() : tensor<320x8x32xf32>
    %302 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_38 : tensor<320x8x32xi8>) outs(%301 : tensor<320x8x32xf32>) {
    ^bb0(%in_140: i8, %out_96: f32):
      %303 = arith.sitofp %in_140 : i8 to f32
      linalg.yield %303 : f32
    } -> tensor<320x8x32xf32>
    %304 = tensor.empty() : tensor<320x8x1xf32>
    %305 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_40 : tensor<320x8x1xi8>) outs(%304 : tensor<320x8x1xf32>) {
    ^bb0(%in_141: i8, %out_97: f32):
      %306 = arith.sitofp %in_141 : i8 to f32
      linalg.yield %306 : f32
    } -> tensor<320x8x1xf32>
    %307 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%302, %305 : tensor<320x8x32xf32>, tensor<320x8x1xf32>) outs(%301 : tensor<320x8x32xf32>) {
    ^bb0(%in_142: f32, %in_143: f32, %out_98: f32):
      %308 = arith.subf %in_142, %in_143 : f32
      linalg.yield %308 : f32
    } -> tensor<320x8x32xf32>
    %309 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%307, %expanded_39 : tensor<320x8x32xf32>, tensor<320x8x1xf32>) outs(%301 : tensor<320x8x32xf32>) {
    ^bb0(%in_144: f32, %in_145: f32, %out_99: f32):
      %310 = arith.mulf %in_144, %in_145 : f32
      linalg.yield %310 : f32
    } -> tensor<320x8x32xf32>
    %collapsed_16 = tensor.collapse_shape %309 [[0 : i64], [1 : i64, 2 : i64]] : tensor<320x8x32xf32> into tensor<320x256xf32>
    %311 = tensor.empty() : tensor<256x320xf32>
    %transposed_12 = linalg.transpose ins(%collapsed_16:tensor<320x256xf32>) outs(%311:tensor<256x320xf32>) permutation = [1, 0]
    %collapsed_17 = tensor.collapse_shape %299 [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x6x256xf32> into tensor<6x256xf32>
    %312 = tensor.empty() : tensor<6x320xf32>
    %313 = linalg.fill ins(%cst : f32) outs(%312 : tensor<6x320xf32>) -> tensor<6x320xf32>
    %314 = linalg.matmul ins(%collapsed_17, %transposed_12 : tensor<6x256xf32>, tensor<256x320xf32>) outs(%313 : tensor<6x320xf32>) -> tensor<6x320xf32>
    %expanded_41 = tensor.expand_shape %314 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 6, 320] : tensor<6x320xf32> into tensor<1x6x320xf32>
    func.return %expanded_41 : tensor<1x6x320xf32>
  }
}
