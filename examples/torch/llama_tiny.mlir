// 2 layers, d_model 256, 4 heads (2 KV heads of 64), FFN 512, vocabulary 320; prefill of 3 tokens, cache of 24 positions; exported by torch-mlir from xdsl_spatial.frontends.torch_llama
builtin.module {
  func.func @prefill(%tokens: tensor<3xi32>, %token_embd.weight__q8: tensor<256x320xi8>, %token_embd.weight__q8_scale: tensor<8x320xf16>, %blk.0.attn_q.weight__q8: tensor<256x256xi8>, %blk.0.attn_q.weight__q8_scale: tensor<8x256xf16>, %blk.0.attn_k.weight__q8: tensor<256x128xi8>, %blk.0.attn_k.weight__q8_scale: tensor<8x128xf16>, %blk.0.attn_v.weight__q8: tensor<256x128xi8>, %blk.0.attn_v.weight__q8_scale: tensor<8x128xf16>, %blk.0.attn_output.weight__q8: tensor<256x256xi8>, %blk.0.attn_output.weight__q8_scale: tensor<8x256xf16>, %blk.0.ffn_gate.weight__q8: tensor<256x512xi8>, %blk.0.ffn_gate.weight__q8_scale: tensor<8x512xf16>, %blk.0.ffn_up.weight__q8: tensor<256x512xi8>, %blk.0.ffn_up.weight__q8_scale: tensor<8x512xf16>, %blk.0.ffn_down.weight__q8: tensor<512x256xi8>, %blk.0.ffn_down.weight__q8_scale: tensor<16x256xf16>, %blk.1.attn_q.weight__q8: tensor<256x256xi8>, %blk.1.attn_q.weight__q8_scale: tensor<8x256xf16>, %blk.1.attn_k.weight__q8: tensor<256x128xi8>, %blk.1.attn_k.weight__q8_scale: tensor<8x128xf16>, %blk.1.attn_v.weight__q8: tensor<256x128xi8>, %blk.1.attn_v.weight__q8_scale: tensor<8x128xf16>, %blk.1.attn_output.weight__q8: tensor<256x256xi8>, %blk.1.attn_output.weight__q8_scale: tensor<8x256xf16>, %blk.1.ffn_gate.weight__q8: tensor<256x512xi8>, %blk.1.ffn_gate.weight__q8_scale: tensor<8x512xf16>, %blk.1.ffn_up.weight__q8: tensor<256x512xi8>, %blk.1.ffn_up.weight__q8_scale: tensor<8x512xf16>, %blk.1.ffn_down.weight__q8: tensor<512x256xi8>, %blk.1.ffn_down.weight__q8_scale: tensor<16x256xf16>, %blk.0.attn_norm.weight: tensor<256xf32>, %blk.0.ffn_norm.weight: tensor<256xf32>, %blk.1.attn_norm.weight: tensor<256xf32>, %blk.1.ffn_norm.weight: tensor<256xf32>, %output_norm.weight: tensor<256xf32>) -> (tensor<3x320xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xff800000 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<-3.40282347e+38> : tensor<f32>
    %cst_4 = arith.constant 1.000000e-05 : f64
    %cst_5 = arith.constant dense<[1.000000e+00, 0.749894202, 0.562341332, 0.421696514, 0.316227764, 0.237137377, 0.177827939, 0.133352146, 1.000000e-01, 0.0749894232, 0.0562341325, 0.0421696492, 0.0316227749, 0.0237137377, 0.0177827943, 0.013335214, 1.000000e-02, 0.00749894232, 0.00562341325, 0.00421696482, 0.00316227763, 0.00237137382, 0.00177827943, 0.00133352145, 1.000000e-03, 0.000749894185, 0.000562341302, 0.000421696517, 0.000316227757, 0.00023713737, 0.00017782794, 0.00013335215]> : tensor<32xf32>
    %cst_6 = arith.constant 2.560000e+02 : f32
    %cst_7 = arith.constant 1.250000e-01 : f32
    %cst_8 = arith.constant dense<0.000000e+00> : tensor<2x64x21xf32>
    %cst_9 = arith.constant dense<0.000000e+00> : tensor<2x21x64xf32>
    %cst_10 = arith.constant 1.000000e+00 : f32
    %cst_11 = arith.constant dense<0> : tensor<1xi32>
    %0 = tensor.empty() : tensor<3xi32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%0 : tensor<3xi32>) {
    ^bb0(%out: i32):
      %2 = linalg.index 0 : index
      %3 = arith.index_cast %2 : index to i64
      %4 = arith.trunci %3 : i64 to i32
      linalg.yield %4 : i32
    } -> tensor<3xi32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%cst_11, %1 : tensor<1xi32>, tensor<3xi32>) outs(%0 : tensor<3xi32>) {
    ^bb0(%in: i32, %in_1: i32, %out_1: i32):
      %6 = arith.addi %in, %in_1 : i32
      linalg.yield %6 : i32
    } -> tensor<3xi32>
    %7 = tensor.empty() : tensor<3xf32>
    %8 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%5 : tensor<3xi32>) outs(%7 : tensor<3xf32>) {
    ^bb0(%in_2: i32, %out_2: f32):
      %9 = arith.sitofp %in_2 : i32 to f32
      linalg.yield %9 : f32
    } -> tensor<3xf32>
    %expanded = tensor.expand_shape %8 [[0 : i64, 1 : i64]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
    %10 = tensor.empty() : tensor<3x32xf32>
    %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded, %cst_5 : tensor<3x1xf32>, tensor<32xf32>) outs(%10 : tensor<3x32xf32>) {
    ^bb0(%in_3: f32, %in_4: f32, %out_3: f32):
      %12 = arith.mulf %in_3, %in_4 : f32
      linalg.yield %12 : f32
    } -> tensor<3x32xf32>
    %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<3x32xf32>) outs(%10 : tensor<3x32xf32>) {
    ^bb0(%in_5: f32, %out_4: f32):
      %14 = math.cos %in_5 : f32
      linalg.yield %14 : f32
    } -> tensor<3x32xf32>
    %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<3x32xf32>) outs(%10 : tensor<3x32xf32>) {
    ^bb0(%in_6: f32, %out_5: f32):
      %16 = math.sin %in_6 : f32
      linalg.yield %16 : f32
    } -> tensor<3x32xf32>
    %17 = tensor.empty() : tensor<3xi64>
    %18 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tokens : tensor<3xi32>) outs(%17 : tensor<3xi64>) {
    ^bb0(%in_7: i32, %out_6: i64):
      %19 = arith.extsi %in_7 : i32 to i64
      linalg.yield %19 : i64
    } -> tensor<3xi64>
    %20 = tensor.empty() : tensor<256x3xi8>
    %21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%18 : tensor<3xi64>) outs(%20 : tensor<256x3xi8>) {
    ^bb0(%in_8: i64, %out_7: i8):
      %22 = arith.index_cast %in_8 : i64 to index
      %23 = linalg.index 0 : index
      %extracted = tensor.extract %token_embd.weight__q8[%23, %22] : tensor<256x320xi8>
      linalg.yield %extracted : i8
    } -> tensor<256x3xi8>
    %24 = tensor.empty() : tensor<8x3xf16>
    %25 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%18 : tensor<3xi64>) outs(%24 : tensor<8x3xf16>) {
    ^bb0(%in_9: i64, %out_8: f16):
      %26 = arith.index_cast %in_9 : i64 to index
      %27 = linalg.index 0 : index
      %extracted_1 = tensor.extract %token_embd.weight__q8_scale[%27, %26] : tensor<8x320xf16>
      linalg.yield %extracted_1 : f16
    } -> tensor<8x3xf16>
    %expanded_1 = tensor.expand_shape %21 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 3] : tensor<256x3xi8> into tensor<8x32x3xi8>
    %28 = tensor.empty() : tensor<8x32x3xf32>
    %29 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_1 : tensor<8x32x3xi8>) outs(%28 : tensor<8x32x3xf32>) {
    ^bb0(%in_10: i8, %out_9: f32):
      %30 = arith.sitofp %in_10 : i8 to f32
      linalg.yield %30 : f32
    } -> tensor<8x32x3xf32>
    %31 = tensor.empty() : tensor<8x3xf32>
    %32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%25 : tensor<8x3xf16>) outs(%31 : tensor<8x3xf32>) {
    ^bb0(%in_11: f16, %out_10: f32):
      %33 = arith.extf %in_11 : f16 to f32
      linalg.yield %33 : f32
    } -> tensor<8x3xf32>
    %expanded_2 = tensor.expand_shape %32 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 3] : tensor<8x3xf32> into tensor<8x1x3xf32>
    %34 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%29, %expanded_2 : tensor<8x32x3xf32>, tensor<8x1x3xf32>) outs(%28 : tensor<8x32x3xf32>) {
    ^bb0(%in_12: f32, %in_13: f32, %out_11: f32):
      %35 = arith.mulf %in_12, %in_13 : f32
      linalg.yield %35 : f32
    } -> tensor<8x32x3xf32>
    %collapsed = tensor.collapse_shape %34 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x3xf32> into tensor<256x3xf32>
    %36 = tensor.empty() : tensor<3x256xf32>
    %transposed = linalg.transpose ins(%collapsed:tensor<256x3xf32>) outs(%36:tensor<3x256xf32>) permutation = [1, 0]
    %37 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed, %transposed : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_14: f32, %in_15: f32, %out_12: f32):
      %38 = arith.mulf %in_14, %in_15 : f32
      linalg.yield %38 : f32
    } -> tensor<3x256xf32>
    %39 = tensor.empty() : tensor<3x1xf32>
    %40 = linalg.fill ins(%cst : f32) outs(%39 : tensor<3x1xf32>) -> tensor<3x1xf32>
    %41 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%37 : tensor<3x256xf32>) outs(%40 : tensor<3x1xf32>) {
    ^bb0(%in_16: f32, %out_13: f32):
      %42 = arith.addf %in_16, %out_13 : f32
      linalg.yield %42 : f32
    } -> tensor<3x1xf32>
    %43 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%41 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_17: f32, %out_14: f32):
      %44 = arith.divf %in_17, %cst_6 : f32
      linalg.yield %44 : f32
    } -> tensor<3x1xf32>
    %45 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%43 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_18: f32, %out_15: f32):
      %46 = arith.truncf %cst_4 : f64 to f32
      %47 = arith.addf %in_18, %46 : f32
      linalg.yield %47 : f32
    } -> tensor<3x1xf32>
    %48 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%45 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_19: f32, %out_16: f32):
      %49 = math.rsqrt %in_19 : f32
      linalg.yield %49 : f32
    } -> tensor<3x1xf32>
    %50 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed, %48 : tensor<3x256xf32>, tensor<3x1xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_20: f32, %in_21: f32, %out_17: f32):
      %51 = arith.mulf %in_20, %in_21 : f32
      linalg.yield %51 : f32
    } -> tensor<3x256xf32>
    %52 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%50, %blk.0.attn_norm.weight : tensor<3x256xf32>, tensor<256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_22: f32, %in_23: f32, %out_18: f32):
      %53 = arith.mulf %in_22, %in_23 : f32
      linalg.yield %53 : f32
    } -> tensor<3x256xf32>
    %54 = tensor.empty() : tensor<3x256xbf16>
    %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%52 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_24: f32, %out_19: bf16):
      %56 = arith.truncf %in_24 : f32 to bf16
      linalg.yield %56 : bf16
    } -> tensor<3x256xbf16>
    %57 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%55 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_25: bf16, %out_20: f32):
      %58 = arith.extf %in_25 : bf16 to f32
      linalg.yield %58 : f32
    } -> tensor<3x256xf32>
    %expanded_3 = tensor.expand_shape %blk.0.attn_q.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %59 = tensor.empty() : tensor<8x32x256xf32>
    %60 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_3 : tensor<8x32x256xi8>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_26: i8, %out_21: f32):
      %61 = arith.sitofp %in_26 : i8 to f32
      linalg.yield %61 : f32
    } -> tensor<8x32x256xf32>
    %62 = tensor.empty() : tensor<8x256xf32>
    %63 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_q.weight__q8_scale : tensor<8x256xf16>) outs(%62 : tensor<8x256xf32>) {
    ^bb0(%in_27: f16, %out_22: f32):
      %64 = arith.extf %in_27 : f16 to f32
      linalg.yield %64 : f32
    } -> tensor<8x256xf32>
    %expanded_4 = tensor.expand_shape %63 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %65 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60, %expanded_4 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_28: f32, %in_29: f32, %out_23: f32):
      %66 = arith.mulf %in_28, %in_29 : f32
      linalg.yield %66 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_1 = tensor.collapse_shape %65 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %67 = linalg.fill ins(%cst : f32) outs(%36 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %68 = linalg.matmul ins(%57, %collapsed_1 : tensor<3x256xf32>, tensor<256x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %expanded_5 = tensor.expand_shape %blk.0.attn_k.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %69 = tensor.empty() : tensor<8x32x128xf32>
    %70 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_5 : tensor<8x32x128xi8>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_30: i8, %out_24: f32):
      %71 = arith.sitofp %in_30 : i8 to f32
      linalg.yield %71 : f32
    } -> tensor<8x32x128xf32>
    %72 = tensor.empty() : tensor<8x128xf32>
    %73 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_k.weight__q8_scale : tensor<8x128xf16>) outs(%72 : tensor<8x128xf32>) {
    ^bb0(%in_31: f16, %out_25: f32):
      %74 = arith.extf %in_31 : f16 to f32
      linalg.yield %74 : f32
    } -> tensor<8x128xf32>
    %expanded_6 = tensor.expand_shape %73 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %75 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%70, %expanded_6 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_32: f32, %in_33: f32, %out_26: f32):
      %76 = arith.mulf %in_32, %in_33 : f32
      linalg.yield %76 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_2 = tensor.collapse_shape %75 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %77 = tensor.empty() : tensor<3x128xf32>
    %78 = linalg.fill ins(%cst : f32) outs(%77 : tensor<3x128xf32>) -> tensor<3x128xf32>
    %79 = linalg.matmul ins(%57, %collapsed_2 : tensor<3x256xf32>, tensor<256x128xf32>) outs(%78 : tensor<3x128xf32>) -> tensor<3x128xf32>
    %expanded_7 = tensor.expand_shape %blk.0.attn_v.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %80 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<8x32x128xi8>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_34: i8, %out_27: f32):
      %81 = arith.sitofp %in_34 : i8 to f32
      linalg.yield %81 : f32
    } -> tensor<8x32x128xf32>
    %82 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_v.weight__q8_scale : tensor<8x128xf16>) outs(%72 : tensor<8x128xf32>) {
    ^bb0(%in_35: f16, %out_28: f32):
      %83 = arith.extf %in_35 : f16 to f32
      linalg.yield %83 : f32
    } -> tensor<8x128xf32>
    %expanded_8 = tensor.expand_shape %82 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %84 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%80, %expanded_8 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_36: f32, %in_37: f32, %out_29: f32):
      %85 = arith.mulf %in_36, %in_37 : f32
      linalg.yield %85 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_3 = tensor.collapse_shape %84 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %86 = linalg.matmul ins(%57, %collapsed_3 : tensor<3x256xf32>, tensor<256x128xf32>) outs(%78 : tensor<3x128xf32>) -> tensor<3x128xf32>
    %expanded_9 = tensor.expand_shape %68 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [3, 4, 32, 2] : tensor<3x256xf32> into tensor<3x4x32x2xf32>
    %extracted_slice = tensor.extract_slice %expanded_9[0, 0, 0, 0] [3, 4, 32, 1] [1, 1, 1, 1] : tensor<3x4x32x2xf32> to tensor<3x4x32x1xf32>
    %collapsed_4 = tensor.collapse_shape %extracted_slice [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x4x32x1xf32> into tensor<3x4x32xf32>
    %extracted_slice_1 = tensor.extract_slice %expanded_9[0, 0, 0, 1] [3, 4, 32, 1] [1, 1, 1, 1] : tensor<3x4x32x2xf32> to tensor<3x4x32x1xf32>
    %collapsed_5 = tensor.collapse_shape %extracted_slice_1 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x4x32x1xf32> into tensor<3x4x32xf32>
    %expanded_10 = tensor.expand_shape %13 [[0 : i64], [1 : i64, 2 : i64]] output_shape [3, 1, 32] : tensor<3x32xf32> into tensor<3x1x32xf32>
    %expanded_11 = tensor.expand_shape %15 [[0 : i64], [1 : i64, 2 : i64]] output_shape [3, 1, 32] : tensor<3x32xf32> into tensor<3x1x32xf32>
    %87 = tensor.empty() : tensor<3x4x32xf32>
    %88 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_4, %expanded_10 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_38: f32, %in_39: f32, %out_30: f32):
      %89 = arith.mulf %in_38, %in_39 : f32
      linalg.yield %89 : f32
    } -> tensor<3x4x32xf32>
    %90 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_5, %expanded_11 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_40: f32, %in_41: f32, %out_31: f32):
      %91 = arith.mulf %in_40, %in_41 : f32
      linalg.yield %91 : f32
    } -> tensor<3x4x32xf32>
    %92 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88, %90 : tensor<3x4x32xf32>, tensor<3x4x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_42: f32, %in_43: f32, %out_32: f32):
      %93 = arith.subf %in_42, %in_43 : f32
      linalg.yield %93 : f32
    } -> tensor<3x4x32xf32>
    %94 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_4, %expanded_11 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_44: f32, %in_45: f32, %out_33: f32):
      %95 = arith.mulf %in_44, %in_45 : f32
      linalg.yield %95 : f32
    } -> tensor<3x4x32xf32>
    %96 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_5, %expanded_10 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_46: f32, %in_47: f32, %out_34: f32):
      %97 = arith.mulf %in_46, %in_47 : f32
      linalg.yield %97 : f32
    } -> tensor<3x4x32xf32>
    %98 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%94, %96 : tensor<3x4x32xf32>, tensor<3x4x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_48: f32, %in_49: f32, %out_35: f32):
      %99 = arith.addf %in_48, %in_49 : f32
      linalg.yield %99 : f32
    } -> tensor<3x4x32xf32>
    %expanded_12 = tensor.expand_shape %92 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 4, 32, 1] : tensor<3x4x32xf32> into tensor<3x4x32x1xf32>
    %expanded_13 = tensor.expand_shape %98 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 4, 32, 1] : tensor<3x4x32xf32> into tensor<3x4x32x1xf32>
    %concat = tensor.concat dim(3) %expanded_12, %expanded_13 : (tensor<3x4x32x1xf32>, tensor<3x4x32x1xf32>) -> tensor<3x4x32x2xf32>
    %collapsed_6 = tensor.collapse_shape %concat [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x4x32x2xf32> into tensor<3x4x64xf32>
    %100 = tensor.empty() : tensor<3x4x64xf32>
    %101 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_6 : tensor<3x4x64xf32>) outs(%100 : tensor<3x4x64xf32>) {
    ^bb0(%in_50: f32, %out_36: f32):
      %102 = arith.mulf %in_50, %cst_7 : f32
      linalg.yield %102 : f32
    } -> tensor<3x4x64xf32>
    %expanded_14 = tensor.expand_shape %101 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [3, 2, 2, 64] : tensor<3x4x64xf32> into tensor<3x2x2x64xf32>
    %103 = tensor.empty() : tensor<2x2x3x64xf32>
    %transposed_1 = linalg.transpose ins(%expanded_14:tensor<3x2x2x64xf32>) outs(%103:tensor<2x2x3x64xf32>) permutation = [1, 2, 0, 3]
    %collapsed_7 = tensor.collapse_shape %transposed_1 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] : tensor<2x2x3x64xf32> into tensor<2x6x64xf32>
    %expanded_15 = tensor.expand_shape %79 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [3, 2, 32, 2] : tensor<3x128xf32> into tensor<3x2x32x2xf32>
    %extracted_slice_2 = tensor.extract_slice %expanded_15[0, 0, 0, 0] [3, 2, 32, 1] [1, 1, 1, 1] : tensor<3x2x32x2xf32> to tensor<3x2x32x1xf32>
    %collapsed_8 = tensor.collapse_shape %extracted_slice_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x2x32x1xf32> into tensor<3x2x32xf32>
    %extracted_slice_3 = tensor.extract_slice %expanded_15[0, 0, 0, 1] [3, 2, 32, 1] [1, 1, 1, 1] : tensor<3x2x32x2xf32> to tensor<3x2x32x1xf32>
    %collapsed_9 = tensor.collapse_shape %extracted_slice_3 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x2x32x1xf32> into tensor<3x2x32xf32>
    %104 = tensor.empty() : tensor<3x2x32xf32>
    %105 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_8, %expanded_10 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_51: f32, %in_52: f32, %out_37: f32):
      %106 = arith.mulf %in_51, %in_52 : f32
      linalg.yield %106 : f32
    } -> tensor<3x2x32xf32>
    %107 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_9, %expanded_11 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_53: f32, %in_54: f32, %out_38: f32):
      %108 = arith.mulf %in_53, %in_54 : f32
      linalg.yield %108 : f32
    } -> tensor<3x2x32xf32>
    %109 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%105, %107 : tensor<3x2x32xf32>, tensor<3x2x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_55: f32, %in_56: f32, %out_39: f32):
      %110 = arith.subf %in_55, %in_56 : f32
      linalg.yield %110 : f32
    } -> tensor<3x2x32xf32>
    %111 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_8, %expanded_11 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_57: f32, %in_58: f32, %out_40: f32):
      %112 = arith.mulf %in_57, %in_58 : f32
      linalg.yield %112 : f32
    } -> tensor<3x2x32xf32>
    %113 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_9, %expanded_10 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_59: f32, %in_60: f32, %out_41: f32):
      %114 = arith.mulf %in_59, %in_60 : f32
      linalg.yield %114 : f32
    } -> tensor<3x2x32xf32>
    %115 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%111, %113 : tensor<3x2x32xf32>, tensor<3x2x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_61: f32, %in_62: f32, %out_42: f32):
      %116 = arith.addf %in_61, %in_62 : f32
      linalg.yield %116 : f32
    } -> tensor<3x2x32xf32>
    %expanded_16 = tensor.expand_shape %109 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 2, 32, 1] : tensor<3x2x32xf32> into tensor<3x2x32x1xf32>
    %expanded_17 = tensor.expand_shape %115 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 2, 32, 1] : tensor<3x2x32xf32> into tensor<3x2x32x1xf32>
    %concat_1 = tensor.concat dim(3) %expanded_16, %expanded_17 : (tensor<3x2x32x1xf32>, tensor<3x2x32x1xf32>) -> tensor<3x2x32x2xf32>
    %collapsed_10 = tensor.collapse_shape %concat_1 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x2x32x2xf32> into tensor<3x2x64xf32>
    %117 = tensor.empty() : tensor<2x64x3xf32>
    %transposed_2 = linalg.transpose ins(%collapsed_10:tensor<3x2x64xf32>) outs(%117:tensor<2x64x3xf32>) permutation = [1, 2, 0]
    %expanded_18 = tensor.expand_shape %86 [[0 : i64], [1 : i64, 2 : i64]] output_shape [3, 2, 64] : tensor<3x128xf32> into tensor<3x2x64xf32>
    %118 = tensor.empty() : tensor<2x3x64xf32>
    %transposed_3 = linalg.transpose ins(%expanded_18:tensor<3x2x64xf32>) outs(%118:tensor<2x3x64xf32>) permutation = [1, 0, 2]
    %concat_2 = tensor.concat dim(2) %transposed_2, %cst_8 : (tensor<2x64x3xf32>, tensor<2x64x21xf32>) -> tensor<2x64x24xf32>
    %concat_3 = tensor.concat dim(1) %transposed_3, %cst_9 : (tensor<2x3x64xf32>, tensor<2x21x64xf32>) -> tensor<2x24x64xf32>
    %119 = tensor.empty() : tensor<2x6x3xf32>
    %120 = linalg.fill ins(%cst : f32) outs(%119 : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
    %121 = linalg.batch_matmul ins(%collapsed_7, %transposed_2 : tensor<2x6x64xf32>, tensor<2x64x3xf32>) outs(%120 : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
    %expanded_19 = tensor.expand_shape %121 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [2, 2, 3, 3] : tensor<2x6x3xf32> into tensor<2x2x3x3xf32>
    %expanded_20 = tensor.expand_shape %1 [[0 : i64, 1 : i64]] output_shape [1, 3] : tensor<3xi32> into tensor<1x3xi32>
    %expanded_21 = tensor.expand_shape %5 [[0 : i64, 1 : i64]] output_shape [3, 1] : tensor<3xi32> into tensor<3x1xi32>
    %122 = tensor.empty() : tensor<3x3xi1>
    %123 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded_20, %expanded_21 : tensor<1x3xi32>, tensor<3x1xi32>) outs(%122 : tensor<3x3xi1>) {
    ^bb0(%in_63: i32, %in_64: i32, %out_43: i1):
      %124 = arith.cmpi sle, %in_63, %in_64 : i32
      linalg.yield %124 : i1
    } -> tensor<3x3xi1>
    %125 = tensor.empty() : tensor<2x2x3x3xf32>
    %126 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%123, %expanded_19, %cst_3 : tensor<3x3xi1>, tensor<2x2x3x3xf32>, tensor<f32>) outs(%125 : tensor<2x2x3x3xf32>) {
    ^bb0(%in_65: i1, %in_66: f32, %in_67: f32, %out_44: f32):
      %127 = arith.select %in_65, %in_66, %in_67 : f32
      linalg.yield %127 : f32
    } -> tensor<2x2x3x3xf32>
    %128 = tensor.empty() : tensor<2x2x3xi64>
    %129 = linalg.fill ins(%c0_i64 : i64) outs(%128 : tensor<2x2x3xi64>) -> tensor<2x2x3xi64>
    %130 = tensor.empty() : tensor<2x2x3xf32>
    %131 = linalg.fill ins(%cst_1 : f32) outs(%130 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
    %132, %133 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%126 : tensor<2x2x3x3xf32>) outs(%131, %129 : tensor<2x2x3xf32>, tensor<2x2x3xi64>) {
    ^bb0(%in_68: f32, %out_45: f32, %out_46: i64):
      %134 = linalg.index 3 : index
      %135 = arith.index_cast %134 : index to i64
      %136 = arith.maximumf %in_68, %out_45 : f32
      %137 = arith.cmpf ogt, %in_68, %out_45 : f32
      %138 = arith.select %137, %135, %out_46 : i64
      linalg.yield %136, %138 : f32, i64
    } -> (tensor<2x2x3xf32>, tensor<2x2x3xi64>)
    %expanded_22 = tensor.expand_shape %132 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 3, 1] : tensor<2x2x3xf32> into tensor<2x2x3x1xf32>
    %139 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_19, %expanded_22 : tensor<2x2x3x3xf32>, tensor<2x2x3x1xf32>) outs(%125 : tensor<2x2x3x3xf32>) {
    ^bb0(%in_69: f32, %in_70: f32, %out_47: f32):
      %140 = arith.subf %in_69, %in_70 : f32
      linalg.yield %140 : f32
    } -> tensor<2x2x3x3xf32>
    %141 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%139 : tensor<2x2x3x3xf32>) outs(%125 : tensor<2x2x3x3xf32>) {
    ^bb0(%in_71: f32, %out_48: f32):
      %142 = math.exp %in_71 : f32
      linalg.yield %142 : f32
    } -> tensor<2x2x3x3xf32>
    %143 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%123, %141, %cst_2 : tensor<3x3xi1>, tensor<2x2x3x3xf32>, tensor<f32>) outs(%125 : tensor<2x2x3x3xf32>) {
    ^bb0(%in_72: i1, %in_73: f32, %in_74: f32, %out_49: f32):
      %144 = arith.select %in_72, %in_73, %in_74 : f32
      linalg.yield %144 : f32
    } -> tensor<2x2x3x3xf32>
    %145 = tensor.empty() : tensor<2x2x3x1xf32>
    %146 = linalg.fill ins(%cst : f32) outs(%145 : tensor<2x2x3x1xf32>) -> tensor<2x2x3x1xf32>
    %147 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%143 : tensor<2x2x3x3xf32>) outs(%146 : tensor<2x2x3x1xf32>) {
    ^bb0(%in_75: f32, %out_50: f32):
      %148 = arith.addf %in_75, %out_50 : f32
      linalg.yield %148 : f32
    } -> tensor<2x2x3x1xf32>
    %collapsed_11 = tensor.collapse_shape %143 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] : tensor<2x2x3x3xf32> into tensor<2x6x3xf32>
    %149 = tensor.empty() : tensor<2x6x64xf32>
    %150 = linalg.fill ins(%cst : f32) outs(%149 : tensor<2x6x64xf32>) -> tensor<2x6x64xf32>
    %151 = linalg.batch_matmul ins(%collapsed_11, %transposed_3 : tensor<2x6x3xf32>, tensor<2x3x64xf32>) outs(%150 : tensor<2x6x64xf32>) -> tensor<2x6x64xf32>
    %expanded_23 = tensor.expand_shape %151 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [2, 2, 3, 64] : tensor<2x6x64xf32> into tensor<2x2x3x64xf32>
    %152 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_23, %147 : tensor<2x2x3x64xf32>, tensor<2x2x3x1xf32>) outs(%103 : tensor<2x2x3x64xf32>) {
    ^bb0(%in_76: f32, %in_77: f32, %out_51: f32):
      %153 = arith.divf %in_76, %in_77 : f32
      linalg.yield %153 : f32
    } -> tensor<2x2x3x64xf32>
    %154 = tensor.empty() : tensor<3x2x2x64xf32>
    %transposed_4 = linalg.transpose ins(%152:tensor<2x2x3x64xf32>) outs(%154:tensor<3x2x2x64xf32>) permutation = [2, 0, 1, 3]
    %collapsed_12 = tensor.collapse_shape %transposed_4 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<3x2x2x64xf32> into tensor<3x256xf32>
    %155 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%collapsed_12 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_78: f32, %out_52: bf16):
      %156 = arith.truncf %in_78 : f32 to bf16
      linalg.yield %156 : bf16
    } -> tensor<3x256xbf16>
    %157 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%155 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_79: bf16, %out_53: f32):
      %158 = arith.extf %in_79 : bf16 to f32
      linalg.yield %158 : f32
    } -> tensor<3x256xf32>
    %expanded_24 = tensor.expand_shape %blk.0.attn_output.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %159 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24 : tensor<8x32x256xi8>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_80: i8, %out_54: f32):
      %160 = arith.sitofp %in_80 : i8 to f32
      linalg.yield %160 : f32
    } -> tensor<8x32x256xf32>
    %161 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_output.weight__q8_scale : tensor<8x256xf16>) outs(%62 : tensor<8x256xf32>) {
    ^bb0(%in_81: f16, %out_55: f32):
      %162 = arith.extf %in_81 : f16 to f32
      linalg.yield %162 : f32
    } -> tensor<8x256xf32>
    %expanded_25 = tensor.expand_shape %161 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %163 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%159, %expanded_25 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_82: f32, %in_83: f32, %out_56: f32):
      %164 = arith.mulf %in_82, %in_83 : f32
      linalg.yield %164 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_13 = tensor.collapse_shape %163 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %165 = linalg.matmul ins(%157, %collapsed_13 : tensor<3x256xf32>, tensor<256x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %166 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed, %165 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_84: f32, %in_85: f32, %out_57: f32):
      %167 = arith.addf %in_84, %in_85 : f32
      linalg.yield %167 : f32
    } -> tensor<3x256xf32>
    %168 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%166, %166 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_86: f32, %in_87: f32, %out_58: f32):
      %169 = arith.mulf %in_86, %in_87 : f32
      linalg.yield %169 : f32
    } -> tensor<3x256xf32>
    %170 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%168 : tensor<3x256xf32>) outs(%40 : tensor<3x1xf32>) {
    ^bb0(%in_88: f32, %out_59: f32):
      %171 = arith.addf %in_88, %out_59 : f32
      linalg.yield %171 : f32
    } -> tensor<3x1xf32>
    %172 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%170 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_89: f32, %out_60: f32):
      %173 = arith.divf %in_89, %cst_6 : f32
      linalg.yield %173 : f32
    } -> tensor<3x1xf32>
    %174 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%172 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_90: f32, %out_61: f32):
      %175 = arith.truncf %cst_4 : f64 to f32
      %176 = arith.addf %in_90, %175 : f32
      linalg.yield %176 : f32
    } -> tensor<3x1xf32>
    %177 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%174 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_91: f32, %out_62: f32):
      %178 = math.rsqrt %in_91 : f32
      linalg.yield %178 : f32
    } -> tensor<3x1xf32>
    %179 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%166, %177 : tensor<3x256xf32>, tensor<3x1xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_92: f32, %in_93: f32, %out_63: f32):
      %180 = arith.mulf %in_92, %in_93 : f32
      linalg.yield %180 : f32
    } -> tensor<3x256xf32>
    %181 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%179, %blk.0.ffn_norm.weight : tensor<3x256xf32>, tensor<256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_94: f32, %in_95: f32, %out_64: f32):
      %182 = arith.mulf %in_94, %in_95 : f32
      linalg.yield %182 : f32
    } -> tensor<3x256xf32>
    %183 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%181 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_96: f32, %out_65: bf16):
      %184 = arith.truncf %in_96 : f32 to bf16
      linalg.yield %184 : bf16
    } -> tensor<3x256xbf16>
    %185 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%183 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_97: bf16, %out_66: f32):
      %186 = arith.extf %in_97 : bf16 to f32
      linalg.yield %186 : f32
    } -> tensor<3x256xf32>
    %expanded_26 = tensor.expand_shape %blk.0.ffn_gate.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %187 = tensor.empty() : tensor<8x32x512xf32>
    %188 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_26 : tensor<8x32x512xi8>) outs(%187 : tensor<8x32x512xf32>) {
    ^bb0(%in_98: i8, %out_67: f32):
      %189 = arith.sitofp %in_98 : i8 to f32
      linalg.yield %189 : f32
    } -> tensor<8x32x512xf32>
    %190 = tensor.empty() : tensor<8x512xf32>
    %191 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_gate.weight__q8_scale : tensor<8x512xf16>) outs(%190 : tensor<8x512xf32>) {
    ^bb0(%in_99: f16, %out_68: f32):
      %192 = arith.extf %in_99 : f16 to f32
      linalg.yield %192 : f32
    } -> tensor<8x512xf32>
    %expanded_27 = tensor.expand_shape %191 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %193 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%188, %expanded_27 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%187 : tensor<8x32x512xf32>) {
    ^bb0(%in_100: f32, %in_101: f32, %out_69: f32):
      %194 = arith.mulf %in_100, %in_101 : f32
      linalg.yield %194 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_14 = tensor.collapse_shape %193 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %195 = tensor.empty() : tensor<3x512xf32>
    %196 = linalg.fill ins(%cst : f32) outs(%195 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %197 = linalg.matmul ins(%185, %collapsed_14 : tensor<3x256xf32>, tensor<256x512xf32>) outs(%196 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %expanded_28 = tensor.expand_shape %blk.0.ffn_up.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %198 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_28 : tensor<8x32x512xi8>) outs(%187 : tensor<8x32x512xf32>) {
    ^bb0(%in_102: i8, %out_70: f32):
      %199 = arith.sitofp %in_102 : i8 to f32
      linalg.yield %199 : f32
    } -> tensor<8x32x512xf32>
    %200 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_up.weight__q8_scale : tensor<8x512xf16>) outs(%190 : tensor<8x512xf32>) {
    ^bb0(%in_103: f16, %out_71: f32):
      %201 = arith.extf %in_103 : f16 to f32
      linalg.yield %201 : f32
    } -> tensor<8x512xf32>
    %expanded_29 = tensor.expand_shape %200 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %202 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%198, %expanded_29 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%187 : tensor<8x32x512xf32>) {
    ^bb0(%in_104: f32, %in_105: f32, %out_72: f32):
      %203 = arith.mulf %in_104, %in_105 : f32
      linalg.yield %203 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_15 = tensor.collapse_shape %202 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %204 = linalg.matmul ins(%185, %collapsed_15 : tensor<3x256xf32>, tensor<256x512xf32>) outs(%196 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %205 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%197 : tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_106: f32, %out_73: f32):
      %206 = arith.negf %in_106 : f32
      linalg.yield %206 : f32
    } -> tensor<3x512xf32>
    %207 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%205 : tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_107: f32, %out_74: f32):
      %208 = math.exp %in_107 : f32
      linalg.yield %208 : f32
    } -> tensor<3x512xf32>
    %209 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%207 : tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_108: f32, %out_75: f32):
      %210 = arith.addf %in_108, %cst_10 : f32
      linalg.yield %210 : f32
    } -> tensor<3x512xf32>
    %211 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%197, %209 : tensor<3x512xf32>, tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_109: f32, %in_110: f32, %out_76: f32):
      %212 = arith.divf %in_109, %in_110 : f32
      linalg.yield %212 : f32
    } -> tensor<3x512xf32>
    %213 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%211, %204 : tensor<3x512xf32>, tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_111: f32, %in_112: f32, %out_77: f32):
      %214 = arith.mulf %in_111, %in_112 : f32
      linalg.yield %214 : f32
    } -> tensor<3x512xf32>
    %215 = tensor.empty() : tensor<3x512xbf16>
    %216 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%213 : tensor<3x512xf32>) outs(%215 : tensor<3x512xbf16>) {
    ^bb0(%in_113: f32, %out_78: bf16):
      %217 = arith.truncf %in_113 : f32 to bf16
      linalg.yield %217 : bf16
    } -> tensor<3x512xbf16>
    %218 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%216 : tensor<3x512xbf16>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_114: bf16, %out_79: f32):
      %219 = arith.extf %in_114 : bf16 to f32
      linalg.yield %219 : f32
    } -> tensor<3x512xf32>
    %expanded_30 = tensor.expand_shape %blk.0.ffn_down.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [16, 32, 256] : tensor<512x256xi8> into tensor<16x32x256xi8>
    %220 = tensor.empty() : tensor<16x32x256xf32>
    %221 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_30 : tensor<16x32x256xi8>) outs(%220 : tensor<16x32x256xf32>) {
    ^bb0(%in_115: i8, %out_80: f32):
      %222 = arith.sitofp %in_115 : i8 to f32
      linalg.yield %222 : f32
    } -> tensor<16x32x256xf32>
    %223 = tensor.empty() : tensor<16x256xf32>
    %224 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_down.weight__q8_scale : tensor<16x256xf16>) outs(%223 : tensor<16x256xf32>) {
    ^bb0(%in_116: f16, %out_81: f32):
      %225 = arith.extf %in_116 : f16 to f32
      linalg.yield %225 : f32
    } -> tensor<16x256xf32>
    %expanded_31 = tensor.expand_shape %224 [[0 : i64], [1 : i64, 2 : i64]] output_shape [16, 1, 256] : tensor<16x256xf32> into tensor<16x1x256xf32>
    %226 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%221, %expanded_31 : tensor<16x32x256xf32>, tensor<16x1x256xf32>) outs(%220 : tensor<16x32x256xf32>) {
    ^bb0(%in_117: f32, %in_118: f32, %out_82: f32):
      %227 = arith.mulf %in_117, %in_118 : f32
      linalg.yield %227 : f32
    } -> tensor<16x32x256xf32>
    %collapsed_16 = tensor.collapse_shape %226 [[0 : i64, 1 : i64], [2 : i64]] : tensor<16x32x256xf32> into tensor<512x256xf32>
    %228 = linalg.matmul ins(%218, %collapsed_16 : tensor<3x512xf32>, tensor<512x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %229 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%166, %228 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_119: f32, %in_120: f32, %out_83: f32):
      %230 = arith.addf %in_119, %in_120 : f32
      linalg.yield %230 : f32
    } -> tensor<3x256xf32>
    %231 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%229, %229 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_121: f32, %in_122: f32, %out_84: f32):
      %232 = arith.mulf %in_121, %in_122 : f32
      linalg.yield %232 : f32
    } -> tensor<3x256xf32>
    %233 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%231 : tensor<3x256xf32>) outs(%40 : tensor<3x1xf32>) {
    ^bb0(%in_123: f32, %out_85: f32):
      %234 = arith.addf %in_123, %out_85 : f32
      linalg.yield %234 : f32
    } -> tensor<3x1xf32>
    %235 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%233 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_124: f32, %out_86: f32):
      %236 = arith.divf %in_124, %cst_6 : f32
      linalg.yield %236 : f32
    } -> tensor<3x1xf32>
    %237 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%235 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_125: f32, %out_87: f32):
      %238 = arith.truncf %cst_4 : f64 to f32
      %239 = arith.addf %in_125, %238 : f32
      linalg.yield %239 : f32
    } -> tensor<3x1xf32>
    %240 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%237 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_126: f32, %out_88: f32):
      %241 = math.rsqrt %in_126 : f32
      linalg.yield %241 : f32
    } -> tensor<3x1xf32>
    %242 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%229, %240 : tensor<3x256xf32>, tensor<3x1xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_127: f32, %in_128: f32, %out_89: f32):
      %243 = arith.mulf %in_127, %in_128 : f32
      linalg.yield %243 : f32
    } -> tensor<3x256xf32>
    %244 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%242, %blk.1.attn_norm.weight : tensor<3x256xf32>, tensor<256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_129: f32, %in_130: f32, %out_90: f32):
      %245 = arith.mulf %in_129, %in_130 : f32
      linalg.yield %245 : f32
    } -> tensor<3x256xf32>
    %246 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%244 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_131: f32, %out_91: bf16):
      %247 = arith.truncf %in_131 : f32 to bf16
      linalg.yield %247 : bf16
    } -> tensor<3x256xbf16>
    %248 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%246 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_132: bf16, %out_92: f32):
      %249 = arith.extf %in_132 : bf16 to f32
      linalg.yield %249 : f32
    } -> tensor<3x256xf32>
    %expanded_32 = tensor.expand_shape %blk.1.attn_q.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %250 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_32 : tensor<8x32x256xi8>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_133: i8, %out_93: f32):
      %251 = arith.sitofp %in_133 : i8 to f32
      linalg.yield %251 : f32
    } -> tensor<8x32x256xf32>
    %252 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_q.weight__q8_scale : tensor<8x256xf16>) outs(%62 : tensor<8x256xf32>) {
    ^bb0(%in_134: f16, %out_94: f32):
      %253 = arith.extf %in_134 : f16 to f32
      linalg.yield %253 : f32
    } -> tensor<8x256xf32>
    %expanded_33 = tensor.expand_shape %252 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %254 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%250, %expanded_33 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_135: f32, %in_136: f32, %out_95: f32):
      %255 = arith.mulf %in_135, %in_136 : f32
      linalg.yield %255 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_17 = tensor.collapse_shape %254 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %256 = linalg.matmul ins(%248, %collapsed_17 : tensor<3x256xf32>, tensor<256x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %expanded_34 = tensor.expand_shape %blk.1.attn_k.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %257 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34 : tensor<8x32x128xi8>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_137: i8, %out_96: f32):
      %258 = arith.sitofp %in_137 : i8 to f32
      linalg.yield %258 : f32
    } -> tensor<8x32x128xf32>
    %259 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_k.weight__q8_scale : tensor<8x128xf16>) outs(%72 : tensor<8x128xf32>) {
    ^bb0(%in_138: f16, %out_97: f32):
      %260 = arith.extf %in_138 : f16 to f32
      linalg.yield %260 : f32
    } -> tensor<8x128xf32>
    %expanded_35 = tensor.expand_shape %259 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %261 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%257, %expanded_35 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_139: f32, %in_140: f32, %out_98: f32):
      %262 = arith.mulf %in_139, %in_140 : f32
      linalg.yield %262 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_18 = tensor.collapse_shape %261 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %263 = linalg.matmul ins(%248, %collapsed_18 : tensor<3x256xf32>, tensor<256x128xf32>) outs(%78 : tensor<3x128xf32>) -> tensor<3x128xf32>
    %expanded_36 = tensor.expand_shape %blk.1.attn_v.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %264 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_36 : tensor<8x32x128xi8>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_141: i8, %out_99: f32):
      %265 = arith.sitofp %in_141 : i8 to f32
      linalg.yield %265 : f32
    } -> tensor<8x32x128xf32>
    %266 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_v.weight__q8_scale : tensor<8x128xf16>) outs(%72 : tensor<8x128xf32>) {
    ^bb0(%in_142: f16, %out_100: f32):
      %267 = arith.extf %in_142 : f16 to f32
      linalg.yield %267 : f32
    } -> tensor<8x128xf32>
    %expanded_37 = tensor.expand_shape %266 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %268 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%264, %expanded_37 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_143: f32, %in_144: f32, %out_101: f32):
      %269 = arith.mulf %in_143, %in_144 : f32
      linalg.yield %269 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_19 = tensor.collapse_shape %268 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %270 = linalg.matmul ins(%248, %collapsed_19 : tensor<3x256xf32>, tensor<256x128xf32>) outs(%78 : tensor<3x128xf32>) -> tensor<3x128xf32>
    %expanded_38 = tensor.expand_shape %256 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [3, 4, 32, 2] : tensor<3x256xf32> into tensor<3x4x32x2xf32>
    %extracted_slice_4 = tensor.extract_slice %expanded_38[0, 0, 0, 0] [3, 4, 32, 1] [1, 1, 1, 1] : tensor<3x4x32x2xf32> to tensor<3x4x32x1xf32>
    %collapsed_20 = tensor.collapse_shape %extracted_slice_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x4x32x1xf32> into tensor<3x4x32xf32>
    %extracted_slice_5 = tensor.extract_slice %expanded_38[0, 0, 0, 1] [3, 4, 32, 1] [1, 1, 1, 1] : tensor<3x4x32x2xf32> to tensor<3x4x32x1xf32>
    %collapsed_21 = tensor.collapse_shape %extracted_slice_5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x4x32x1xf32> into tensor<3x4x32xf32>
    %271 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_20, %expanded_10 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_145: f32, %in_146: f32, %out_102: f32):
      %272 = arith.mulf %in_145, %in_146 : f32
      linalg.yield %272 : f32
    } -> tensor<3x4x32xf32>
    %273 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_21, %expanded_11 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_147: f32, %in_148: f32, %out_103: f32):
      %274 = arith.mulf %in_147, %in_148 : f32
      linalg.yield %274 : f32
    } -> tensor<3x4x32xf32>
    %275 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%271, %273 : tensor<3x4x32xf32>, tensor<3x4x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_149: f32, %in_150: f32, %out_104: f32):
      %276 = arith.subf %in_149, %in_150 : f32
      linalg.yield %276 : f32
    } -> tensor<3x4x32xf32>
    %277 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_20, %expanded_11 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_151: f32, %in_152: f32, %out_105: f32):
      %278 = arith.mulf %in_151, %in_152 : f32
      linalg.yield %278 : f32
    } -> tensor<3x4x32xf32>
    %279 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_21, %expanded_10 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_153: f32, %in_154: f32, %out_106: f32):
      %280 = arith.mulf %in_153, %in_154 : f32
      linalg.yield %280 : f32
    } -> tensor<3x4x32xf32>
    %281 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%277, %279 : tensor<3x4x32xf32>, tensor<3x4x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_155: f32, %in_156: f32, %out_107: f32):
      %282 = arith.addf %in_155, %in_156 : f32
      linalg.yield %282 : f32
    } -> tensor<3x4x32xf32>
    %expanded_39 = tensor.expand_shape %275 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 4, 32, 1] : tensor<3x4x32xf32> into tensor<3x4x32x1xf32>
    %expanded_40 = tensor.expand_shape %281 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 4, 32, 1] : tensor<3x4x32xf32> into tensor<3x4x32x1xf32>
    %concat_4 = tensor.concat dim(3) %expanded_39, %expanded_40 : (tensor<3x4x32x1xf32>, tensor<3x4x32x1xf32>) -> tensor<3x4x32x2xf32>
    %collapsed_22 = tensor.collapse_shape %concat_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x4x32x2xf32> into tensor<3x4x64xf32>
    %283 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_22 : tensor<3x4x64xf32>) outs(%100 : tensor<3x4x64xf32>) {
    ^bb0(%in_157: f32, %out_108: f32):
      %284 = arith.mulf %in_157, %cst_7 : f32
      linalg.yield %284 : f32
    } -> tensor<3x4x64xf32>
    %expanded_41 = tensor.expand_shape %283 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [3, 2, 2, 64] : tensor<3x4x64xf32> into tensor<3x2x2x64xf32>
    %transposed_5 = linalg.transpose ins(%expanded_41:tensor<3x2x2x64xf32>) outs(%103:tensor<2x2x3x64xf32>) permutation = [1, 2, 0, 3]
    %collapsed_23 = tensor.collapse_shape %transposed_5 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] : tensor<2x2x3x64xf32> into tensor<2x6x64xf32>
    %expanded_42 = tensor.expand_shape %263 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [3, 2, 32, 2] : tensor<3x128xf32> into tensor<3x2x32x2xf32>
    %extracted_slice_6 = tensor.extract_slice %expanded_42[0, 0, 0, 0] [3, 2, 32, 1] [1, 1, 1, 1] : tensor<3x2x32x2xf32> to tensor<3x2x32x1xf32>
    %collapsed_24 = tensor.collapse_shape %extracted_slice_6 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x2x32x1xf32> into tensor<3x2x32xf32>
    %extracted_slice_7 = tensor.extract_slice %expanded_42[0, 0, 0, 1] [3, 2, 32, 1] [1, 1, 1, 1] : tensor<3x2x32x2xf32> to tensor<3x2x32x1xf32>
    %collapsed_25 = tensor.collapse_shape %extracted_slice_7 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x2x32x1xf32> into tensor<3x2x32xf32>
    %285 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_24, %expanded_10 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_158: f32, %in_159: f32, %out_109: f32):
      %286 = arith.mulf %in_158, %in_159 : f32
      linalg.yield %286 : f32
    } -> tensor<3x2x32xf32>
    %287 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_25, %expanded_11 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_160: f32, %in_161: f32, %out_110: f32):
      %288 = arith.mulf %in_160, %in_161 : f32
      linalg.yield %288 : f32
    } -> tensor<3x2x32xf32>
    %289 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%285, %287 : tensor<3x2x32xf32>, tensor<3x2x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_162: f32, %in_163: f32, %out_111: f32):
      %290 = arith.subf %in_162, %in_163 : f32
      linalg.yield %290 : f32
    } -> tensor<3x2x32xf32>
    %291 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_24, %expanded_11 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_164: f32, %in_165: f32, %out_112: f32):
      %292 = arith.mulf %in_164, %in_165 : f32
      linalg.yield %292 : f32
    } -> tensor<3x2x32xf32>
    %293 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_25, %expanded_10 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_166: f32, %in_167: f32, %out_113: f32):
      %294 = arith.mulf %in_166, %in_167 : f32
      linalg.yield %294 : f32
    } -> tensor<3x2x32xf32>
    %295 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%291, %293 : tensor<3x2x32xf32>, tensor<3x2x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_168: f32, %in_169: f32, %out_114: f32):
      %296 = arith.addf %in_168, %in_169 : f32
      linalg.yield %296 : f32
    } -> tensor<3x2x32xf32>
    %expanded_43 = tensor.expand_shape %289 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 2, 32, 1] : tensor<3x2x32xf32> into tensor<3x2x32x1xf32>
    %expanded_44 = tensor.expand_shape %295 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 2, 32, 1] : tensor<3x2x32xf32> into tensor<3x2x32x1xf32>
    %concat_5 = tensor.concat dim(3) %expanded_43, %expanded_44 : (tensor<3x2x32x1xf32>, tensor<3x2x32x1xf32>) -> tensor<3x2x32x2xf32>
    %collapsed_26 = tensor.collapse_shape %concat_5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x2x32x2xf32> into tensor<3x2x64xf32>
    %transposed_6 = linalg.transpose ins(%collapsed_26:tensor<3x2x64xf32>) outs(%117:tensor<2x64x3xf32>) permutation = [1, 2, 0]
    %expanded_45 = tensor.expand_shape %270 [[0 : i64], [1 : i64, 2 : i64]] output_shape [3, 2, 64] : tensor<3x128xf32> into tensor<3x2x64xf32>
    %transposed_7 = linalg.transpose ins(%expanded_45:tensor<3x2x64xf32>) outs(%118:tensor<2x3x64xf32>) permutation = [1, 0, 2]
    %concat_6 = tensor.concat dim(2) %transposed_6, %cst_8 : (tensor<2x64x3xf32>, tensor<2x64x21xf32>) -> tensor<2x64x24xf32>
    %concat_7 = tensor.concat dim(1) %transposed_7, %cst_9 : (tensor<2x3x64xf32>, tensor<2x21x64xf32>) -> tensor<2x24x64xf32>
    %297 = linalg.batch_matmul ins(%collapsed_23, %transposed_6 : tensor<2x6x64xf32>, tensor<2x64x3xf32>) outs(%120 : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
    %expanded_46 = tensor.expand_shape %297 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [2, 2, 3, 3] : tensor<2x6x3xf32> into tensor<2x2x3x3xf32>
    %298 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%123, %expanded_46, %cst_3 : tensor<3x3xi1>, tensor<2x2x3x3xf32>, tensor<f32>) outs(%125 : tensor<2x2x3x3xf32>) {
    ^bb0(%in_170: i1, %in_171: f32, %in_172: f32, %out_115: f32):
      %299 = arith.select %in_170, %in_171, %in_172 : f32
      linalg.yield %299 : f32
    } -> tensor<2x2x3x3xf32>
    %300, %301 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%298 : tensor<2x2x3x3xf32>) outs(%131, %129 : tensor<2x2x3xf32>, tensor<2x2x3xi64>) {
    ^bb0(%in_173: f32, %out_116: f32, %out_117: i64):
      %302 = linalg.index 3 : index
      %303 = arith.index_cast %302 : index to i64
      %304 = arith.maximumf %in_173, %out_116 : f32
      %305 = arith.cmpf ogt, %in_173, %out_116 : f32
      %306 = arith.select %305, %303, %out_117 : i64
      linalg.yield %304, %306 : f32, i64
    } -> (tensor<2x2x3xf32>, tensor<2x2x3xi64>)
    %expanded_47 = tensor.expand_shape %300 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 3, 1] : tensor<2x2x3xf32> into tensor<2x2x3x1xf32>
    %307 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_46, %expanded_47 : tensor<2x2x3x3xf32>, tensor<2x2x3x1xf32>) outs(%125 : tensor<2x2x3x3xf32>) {
    ^bb0(%in_174: f32, %in_175: f32, %out_118: f32):
      %308 = arith.subf %in_174, %in_175 : f32
      linalg.yield %308 : f32
    } -> tensor<2x2x3x3xf32>
    %309 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%307 : tensor<2x2x3x3xf32>) outs(%125 : tensor<2x2x3x3xf32>) {
    ^bb0(%in_176: f32, %out_119: f32):
      %310 = math.exp %in_176 : f32
      linalg.yield %310 : f32
    } -> tensor<2x2x3x3xf32>
    %311 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%123, %309, %cst_2 : tensor<3x3xi1>, tensor<2x2x3x3xf32>, tensor<f32>) outs(%125 : tensor<2x2x3x3xf32>) {
    ^bb0(%in_177: i1, %in_178: f32, %in_179: f32, %out_120: f32):
      %312 = arith.select %in_177, %in_178, %in_179 : f32
      linalg.yield %312 : f32
    } -> tensor<2x2x3x3xf32>
    %313 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%311 : tensor<2x2x3x3xf32>) outs(%146 : tensor<2x2x3x1xf32>) {
    ^bb0(%in_180: f32, %out_121: f32):
      %314 = arith.addf %in_180, %out_121 : f32
      linalg.yield %314 : f32
    } -> tensor<2x2x3x1xf32>
    %collapsed_27 = tensor.collapse_shape %311 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] : tensor<2x2x3x3xf32> into tensor<2x6x3xf32>
    %315 = linalg.batch_matmul ins(%collapsed_27, %transposed_7 : tensor<2x6x3xf32>, tensor<2x3x64xf32>) outs(%150 : tensor<2x6x64xf32>) -> tensor<2x6x64xf32>
    %expanded_48 = tensor.expand_shape %315 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [2, 2, 3, 64] : tensor<2x6x64xf32> into tensor<2x2x3x64xf32>
    %316 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_48, %313 : tensor<2x2x3x64xf32>, tensor<2x2x3x1xf32>) outs(%103 : tensor<2x2x3x64xf32>) {
    ^bb0(%in_181: f32, %in_182: f32, %out_122: f32):
      %317 = arith.divf %in_181, %in_182 : f32
      linalg.yield %317 : f32
    } -> tensor<2x2x3x64xf32>
    %transposed_8 = linalg.transpose ins(%316:tensor<2x2x3x64xf32>) outs(%154:tensor<3x2x2x64xf32>) permutation = [2, 0, 1, 3]
    %collapsed_28 = tensor.collapse_shape %transposed_8 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<3x2x2x64xf32> into tensor<3x256xf32>
    %318 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%collapsed_28 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_183: f32, %out_123: bf16):
      %319 = arith.truncf %in_183 : f32 to bf16
      linalg.yield %319 : bf16
    } -> tensor<3x256xbf16>
    %320 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%318 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_184: bf16, %out_124: f32):
      %321 = arith.extf %in_184 : bf16 to f32
      linalg.yield %321 : f32
    } -> tensor<3x256xf32>
    %expanded_49 = tensor.expand_shape %blk.1.attn_output.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %322 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_49 : tensor<8x32x256xi8>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_185: i8, %out_125: f32):
      %323 = arith.sitofp %in_185 : i8 to f32
      linalg.yield %323 : f32
    } -> tensor<8x32x256xf32>
    %324 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_output.weight__q8_scale : tensor<8x256xf16>) outs(%62 : tensor<8x256xf32>) {
    ^bb0(%in_186: f16, %out_126: f32):
      %325 = arith.extf %in_186 : f16 to f32
      linalg.yield %325 : f32
    } -> tensor<8x256xf32>
    %expanded_50 = tensor.expand_shape %324 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %326 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%322, %expanded_50 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_187: f32, %in_188: f32, %out_127: f32):
      %327 = arith.mulf %in_187, %in_188 : f32
      linalg.yield %327 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_29 = tensor.collapse_shape %326 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %328 = linalg.matmul ins(%320, %collapsed_29 : tensor<3x256xf32>, tensor<256x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %329 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%229, %328 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_189: f32, %in_190: f32, %out_128: f32):
      %330 = arith.addf %in_189, %in_190 : f32
      linalg.yield %330 : f32
    } -> tensor<3x256xf32>
    %331 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%329, %329 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_191: f32, %in_192: f32, %out_129: f32):
      %332 = arith.mulf %in_191, %in_192 : f32
      linalg.yield %332 : f32
    } -> tensor<3x256xf32>
    %333 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%331 : tensor<3x256xf32>) outs(%40 : tensor<3x1xf32>) {
    ^bb0(%in_193: f32, %out_130: f32):
      %334 = arith.addf %in_193, %out_130 : f32
      linalg.yield %334 : f32
    } -> tensor<3x1xf32>
    %335 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%333 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_194: f32, %out_131: f32):
      %336 = arith.divf %in_194, %cst_6 : f32
      linalg.yield %336 : f32
    } -> tensor<3x1xf32>
    %337 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%335 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_195: f32, %out_132: f32):
      %338 = arith.truncf %cst_4 : f64 to f32
      %339 = arith.addf %in_195, %338 : f32
      linalg.yield %339 : f32
    } -> tensor<3x1xf32>
    %340 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%337 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_196: f32, %out_133: f32):
      %341 = math.rsqrt %in_196 : f32
      linalg.yield %341 : f32
    } -> tensor<3x1xf32>
    %342 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%329, %340 : tensor<3x256xf32>, tensor<3x1xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_197: f32, %in_198: f32, %out_134: f32):
      %343 = arith.mulf %in_197, %in_198 : f32
      linalg.yield %343 : f32
    } -> tensor<3x256xf32>
    %344 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%342, %blk.1.ffn_norm.weight : tensor<3x256xf32>, tensor<256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_199: f32, %in_200: f32, %out_135: f32):
      %345 = arith.mulf %in_199, %in_200 : f32
      linalg.yield %345 : f32
    } -> tensor<3x256xf32>
    %346 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%344 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_201: f32, %out_136: bf16):
      %347 = arith.truncf %in_201 : f32 to bf16
      linalg.yield %347 : bf16
    } -> tensor<3x256xbf16>
    %348 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%346 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_202: bf16, %out_137: f32):
      %349 = arith.extf %in_202 : bf16 to f32
      linalg.yield %349 : f32
    } -> tensor<3x256xf32>
    %expanded_51 = tensor.expand_shape %blk.1.ffn_gate.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %350 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_51 : tensor<8x32x512xi8>) outs(%187 : tensor<8x32x512xf32>) {
    ^bb0(%in_203: i8, %out_138: f32):
      %351 = arith.sitofp %in_203 : i8 to f32
      linalg.yield %351 : f32
    } -> tensor<8x32x512xf32>
    %352 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_gate.weight__q8_scale : tensor<8x512xf16>) outs(%190 : tensor<8x512xf32>) {
    ^bb0(%in_204: f16, %out_139: f32):
      %353 = arith.extf %in_204 : f16 to f32
      linalg.yield %353 : f32
    } -> tensor<8x512xf32>
    %expanded_52 = tensor.expand_shape %352 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %354 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%350, %expanded_52 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%187 : tensor<8x32x512xf32>) {
    ^bb0(%in_205: f32, %in_206: f32, %out_140: f32):
      %355 = arith.mulf %in_205, %in_206 : f32
      linalg.yield %355 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_30 = tensor.collapse_shape %354 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %356 = linalg.matmul ins(%348, %collapsed_30 : tensor<3x256xf32>, tensor<256x512xf32>) outs(%196 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %expanded_53 = tensor.expand_shape %blk.1.ffn_up.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %357 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_53 : tensor<8x32x512xi8>) outs(%187 : tensor<8x32x512xf32>) {
    ^bb0(%in_207: i8, %out_141: f32):
      %358 = arith.sitofp %in_207 : i8 to f32
      linalg.yield %358 : f32
    } -> tensor<8x32x512xf32>
    %359 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_up.weight__q8_scale : tensor<8x512xf16>) outs(%190 : tensor<8x512xf32>) {
    ^bb0(%in_208: f16, %out_142: f32):
      %360 = arith.extf %in_208 : f16 to f32
      linalg.yield %360 : f32
    } -> tensor<8x512xf32>
    %expanded_54 = tensor.expand_shape %359 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %361 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%357, %expanded_54 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%187 : tensor<8x32x512xf32>) {
    ^bb0(%in_209: f32, %in_210: f32, %out_143: f32):
      %362 = arith.mulf %in_209, %in_210 : f32
      linalg.yield %362 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_31 = tensor.collapse_shape %361 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %363 = linalg.matmul ins(%348, %collapsed_31 : tensor<3x256xf32>, tensor<256x512xf32>) outs(%196 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %364 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%356 : tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_211: f32, %out_144: f32):
      %365 = arith.negf %in_211 : f32
      linalg.yield %365 : f32
    } -> tensor<3x512xf32>
    %366 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%364 : tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_212: f32, %out_145: f32):
      %367 = math.exp %in_212 : f32
      linalg.yield %367 : f32
    } -> tensor<3x512xf32>
    %368 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%366 : tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_213: f32, %out_146: f32):
      %369 = arith.addf %in_213, %cst_10 : f32
      linalg.yield %369 : f32
    } -> tensor<3x512xf32>
    %370 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%356, %368 : tensor<3x512xf32>, tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_214: f32, %in_215: f32, %out_147: f32):
      %371 = arith.divf %in_214, %in_215 : f32
      linalg.yield %371 : f32
    } -> tensor<3x512xf32>
    %372 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%370, %363 : tensor<3x512xf32>, tensor<3x512xf32>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_216: f32, %in_217: f32, %out_148: f32):
      %373 = arith.mulf %in_216, %in_217 : f32
      linalg.yield %373 : f32
    } -> tensor<3x512xf32>
    %374 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%372 : tensor<3x512xf32>) outs(%215 : tensor<3x512xbf16>) {
    ^bb0(%in_218: f32, %out_149: bf16):
      %375 = arith.truncf %in_218 : f32 to bf16
      linalg.yield %375 : bf16
    } -> tensor<3x512xbf16>
    %376 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%374 : tensor<3x512xbf16>) outs(%195 : tensor<3x512xf32>) {
    ^bb0(%in_219: bf16, %out_150: f32):
      %377 = arith.extf %in_219 : bf16 to f32
      linalg.yield %377 : f32
    } -> tensor<3x512xf32>
    %expanded_55 = tensor.expand_shape %blk.1.ffn_down.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [16, 32, 256] : tensor<512x256xi8> into tensor<16x32x256xi8>
    %378 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_55 : tensor<16x32x256xi8>) outs(%220 : tensor<16x32x256xf32>) {
    ^bb0(%in_220: i8, %out_151: f32):
      %379 = arith.sitofp %in_220 : i8 to f32
      linalg.yield %379 : f32
    } -> tensor<16x32x256xf32>
    %380 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_down.weight__q8_scale : tensor<16x256xf16>) outs(%223 : tensor<16x256xf32>) {
    ^bb0(%in_221: f16, %out_152: f32):
      %381 = arith.extf %in_221 : f16 to f32
      linalg.yield %381 : f32
    } -> tensor<16x256xf32>
    %expanded_56 = tensor.expand_shape %380 [[0 : i64], [1 : i64, 2 : i64]] output_shape [16, 1, 256] : tensor<16x256xf32> into tensor<16x1x256xf32>
    %382 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%378, %expanded_56 : tensor<16x32x256xf32>, tensor<16x1x256xf32>) outs(%220 : tensor<16x32x256xf32>) {
    ^bb0(%in_222: f32, %in_223: f32, %out_153: f32):
      %383 = arith.mulf %in_222, %in_223 : f32
      linalg.yield %383 : f32
    } -> tensor<16x32x256xf32>
    %collapsed_32 = tensor.collapse_shape %382 [[0 : i64, 1 : i64], [2 : i64]] : tensor<16x32x256xf32> into tensor<512x256xf32>
    %384 = linalg.matmul ins(%376, %collapsed_32 : tensor<3x512xf32>, tensor<512x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %385 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%329, %384 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_224: f32, %in_225: f32, %out_154: f32):
      %386 = arith.addf %in_224, %in_225 : f32
      linalg.yield %386 : f32
    } -> tensor<3x256xf32>
    %387 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%385, %385 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_226: f32, %in_227: f32, %out_155: f32):
      %388 = arith.mulf %in_226, %in_227 : f32
      linalg.yield %388 : f32
    } -> tensor<3x256xf32>
    %389 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%387 : tensor<3x256xf32>) outs(%40 : tensor<3x1xf32>) {
    ^bb0(%in_228: f32, %out_156: f32):
      %390 = arith.addf %in_228, %out_156 : f32
      linalg.yield %390 : f32
    } -> tensor<3x1xf32>
    %391 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%389 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_229: f32, %out_157: f32):
      %392 = arith.divf %in_229, %cst_6 : f32
      linalg.yield %392 : f32
    } -> tensor<3x1xf32>
    %393 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%391 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_230: f32, %out_158: f32):
      %394 = arith.truncf %cst_4 : f64 to f32
      %395 = arith.addf %in_230, %394 : f32
      linalg.yield %395 : f32
    } -> tensor<3x1xf32>
    %396 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%393 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_231: f32, %out_159: f32):
      %397 = math.rsqrt %in_231 : f32
      linalg.yield %397 : f32
    } -> tensor<3x1xf32>
    %398 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%385, %396 : tensor<3x256xf32>, tensor<3x1xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_232: f32, %in_233: f32, %out_160: f32):
      %399 = arith.mulf %in_232, %in_233 : f32
      linalg.yield %399 : f32
    } -> tensor<3x256xf32>
    %400 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%398, %output_norm.weight : tensor<3x256xf32>, tensor<256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_234: f32, %in_235: f32, %out_161: f32):
      %401 = arith.mulf %in_234, %in_235 : f32
      linalg.yield %401 : f32
    } -> tensor<3x256xf32>
    %402 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%400 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_236: f32, %out_162: bf16):
      %403 = arith.truncf %in_236 : f32 to bf16
      linalg.yield %403 : bf16
    } -> tensor<3x256xbf16>
    %404 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%402 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_237: bf16, %out_163: f32):
      %405 = arith.extf %in_237 : bf16 to f32
      linalg.yield %405 : f32
    } -> tensor<3x256xf32>
    %expanded_57 = tensor.expand_shape %token_embd.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 320] : tensor<256x320xi8> into tensor<8x32x320xi8>
    %406 = tensor.empty() : tensor<8x32x320xf32>
    %407 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_57 : tensor<8x32x320xi8>) outs(%406 : tensor<8x32x320xf32>) {
    ^bb0(%in_238: i8, %out_164: f32):
      %408 = arith.sitofp %in_238 : i8 to f32
      linalg.yield %408 : f32
    } -> tensor<8x32x320xf32>
    %409 = tensor.empty() : tensor<8x320xf32>
    %410 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%token_embd.weight__q8_scale : tensor<8x320xf16>) outs(%409 : tensor<8x320xf32>) {
    ^bb0(%in_239: f16, %out_165: f32):
      %411 = arith.extf %in_239 : f16 to f32
      linalg.yield %411 : f32
    } -> tensor<8x320xf32>
    %expanded_58 = tensor.expand_shape %410 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 320] : tensor<8x320xf32> into tensor<8x1x320xf32>
    %412 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%407, %expanded_58 : tensor<8x32x320xf32>, tensor<8x1x320xf32>) outs(%406 : tensor<8x32x320xf32>) {
    ^bb0(%in_240: f32, %in_241: f32, %out_166: f32):
      %413 = arith.mulf %in_240, %in_241 : f32
      linalg.yield %413 : f32
    } -> tensor<8x32x320xf32>
    %collapsed_33 = tensor.collapse_shape %412 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x320xf32> into tensor<256x320xf32>
    %414 = tensor.empty() : tensor<3x320xf32>
    %415 = linalg.fill ins(%cst : f32) outs(%414 : tensor<3x320xf32>) -> tensor<3x320xf32>
    %416 = linalg.matmul ins(%404, %collapsed_33 : tensor<3x256xf32>, tensor<256x320xf32>) outs(%415 : tensor<3x320xf32>) -> tensor<3x320xf32>
    func.return %416, %concat_2, %concat_3, %concat_6, %concat_7 : tensor<3x320xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>
  }
  func.func @decode(%tokens: tensor<1xi32>, %pos: tensor<1xi32>, %token_embd.weight__q8: tensor<256x320xi8>, %token_embd.weight__q8_scale: tensor<8x320xf16>, %blk.0.attn_q.weight__q8: tensor<256x256xi8>, %blk.0.attn_q.weight__q8_scale: tensor<8x256xf16>, %blk.0.attn_k.weight__q8: tensor<256x128xi8>, %blk.0.attn_k.weight__q8_scale: tensor<8x128xf16>, %blk.0.attn_v.weight__q8: tensor<256x128xi8>, %blk.0.attn_v.weight__q8_scale: tensor<8x128xf16>, %blk.0.attn_output.weight__q8: tensor<256x256xi8>, %blk.0.attn_output.weight__q8_scale: tensor<8x256xf16>, %blk.0.ffn_gate.weight__q8: tensor<256x512xi8>, %blk.0.ffn_gate.weight__q8_scale: tensor<8x512xf16>, %blk.0.ffn_up.weight__q8: tensor<256x512xi8>, %blk.0.ffn_up.weight__q8_scale: tensor<8x512xf16>, %blk.0.ffn_down.weight__q8: tensor<512x256xi8>, %blk.0.ffn_down.weight__q8_scale: tensor<16x256xf16>, %blk.1.attn_q.weight__q8: tensor<256x256xi8>, %blk.1.attn_q.weight__q8_scale: tensor<8x256xf16>, %blk.1.attn_k.weight__q8: tensor<256x128xi8>, %blk.1.attn_k.weight__q8_scale: tensor<8x128xf16>, %blk.1.attn_v.weight__q8: tensor<256x128xi8>, %blk.1.attn_v.weight__q8_scale: tensor<8x128xf16>, %blk.1.attn_output.weight__q8: tensor<256x256xi8>, %blk.1.attn_output.weight__q8_scale: tensor<8x256xf16>, %blk.1.ffn_gate.weight__q8: tensor<256x512xi8>, %blk.1.ffn_gate.weight__q8_scale: tensor<8x512xf16>, %blk.1.ffn_up.weight__q8: tensor<256x512xi8>, %blk.1.ffn_up.weight__q8_scale: tensor<8x512xf16>, %blk.1.ffn_down.weight__q8: tensor<512x256xi8>, %blk.1.ffn_down.weight__q8_scale: tensor<16x256xf16>, %blk.0.attn_norm.weight: tensor<256xf32>, %blk.0.ffn_norm.weight: tensor<256xf32>, %blk.1.attn_norm.weight: tensor<256xf32>, %blk.1.ffn_norm.weight: tensor<256xf32>, %output_norm.weight: tensor<256xf32>, %blk.0.cache_k: tensor<2x64x24xf32>, %blk.0.cache_v: tensor<2x24x64xf32>, %blk.1.cache_k: tensor<2x64x24xf32>, %blk.1.cache_v: tensor<2x24x64xf32>) -> (tensor<1x320xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>) {
    %c24_i64 = arith.constant 24 : i64
    %c23_i64 = arith.constant 23 : i64
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xff800000 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<-3.40282347e+38> : tensor<f32>
    %cst_4 = arith.constant 1.000000e-05 : f64
    %cst_5 = arith.constant dense<[1.000000e+00, 0.749894202, 0.562341332, 0.421696514, 0.316227764, 0.237137377, 0.177827939, 0.133352146, 1.000000e-01, 0.0749894232, 0.0562341325, 0.0421696492, 0.0316227749, 0.0237137377, 0.0177827943, 0.013335214, 1.000000e-02, 0.00749894232, 0.00562341325, 0.00421696482, 0.00316227763, 0.00237137382, 0.00177827943, 0.00133352145, 1.000000e-03, 0.000749894185, 0.000562341302, 0.000421696517, 0.000316227757, 0.00023713737, 0.00017782794, 0.00013335215]> : tensor<32xf32>
    %c0_i32 = arith.constant 0 : i32
    %cst_6 = arith.constant 2.560000e+02 : f32
    %cst_7 = arith.constant 1.250000e-01 : f32
    %cst_8 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<1xi32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%0 : tensor<1xi32>) {
    ^bb0(%out: i32):
      linalg.yield %c0_i32 : i32
    } -> tensor<1xi32>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%pos, %1 : tensor<1xi32>, tensor<1xi32>) outs(%0 : tensor<1xi32>) {
    ^bb0(%in: i32, %in_1: i32, %out_1: i32):
      %3 = arith.addi %in, %in_1 : i32
      linalg.yield %3 : i32
    } -> tensor<1xi32>
    %4 = tensor.empty() : tensor<1xf32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%2 : tensor<1xi32>) outs(%4 : tensor<1xf32>) {
    ^bb0(%in_2: i32, %out_2: f32):
      %6 = arith.sitofp %in_2 : i32 to f32
      linalg.yield %6 : f32
    } -> tensor<1xf32>
    %expanded = tensor.expand_shape %5 [[0 : i64, 1 : i64]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
    %7 = tensor.empty() : tensor<1x32xf32>
    %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded, %cst_5 : tensor<1x1xf32>, tensor<32xf32>) outs(%7 : tensor<1x32xf32>) {
    ^bb0(%in_3: f32, %in_4: f32, %out_3: f32):
      %9 = arith.mulf %in_3, %in_4 : f32
      linalg.yield %9 : f32
    } -> tensor<1x32xf32>
    %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<1x32xf32>) outs(%7 : tensor<1x32xf32>) {
    ^bb0(%in_5: f32, %out_4: f32):
      %11 = math.cos %in_5 : f32
      linalg.yield %11 : f32
    } -> tensor<1x32xf32>
    %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<1x32xf32>) outs(%7 : tensor<1x32xf32>) {
    ^bb0(%in_6: f32, %out_5: f32):
      %13 = math.sin %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<1x32xf32>
    %14 = tensor.empty() : tensor<1xi64>
    %15 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tokens : tensor<1xi32>) outs(%14 : tensor<1xi64>) {
    ^bb0(%in_7: i32, %out_6: i64):
      %16 = arith.extsi %in_7 : i32 to i64
      linalg.yield %16 : i64
    } -> tensor<1xi64>
    %17 = tensor.empty() : tensor<256x1xi8>
    %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%15 : tensor<1xi64>) outs(%17 : tensor<256x1xi8>) {
    ^bb0(%in_8: i64, %out_7: i8):
      %19 = arith.index_cast %in_8 : i64 to index
      %20 = linalg.index 0 : index
      %extracted = tensor.extract %token_embd.weight__q8[%20, %19] : tensor<256x320xi8>
      linalg.yield %extracted : i8
    } -> tensor<256x1xi8>
    %21 = tensor.empty() : tensor<8x1xf16>
    %22 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%15 : tensor<1xi64>) outs(%21 : tensor<8x1xf16>) {
    ^bb0(%in_9: i64, %out_8: f16):
      %23 = arith.index_cast %in_9 : i64 to index
      %24 = linalg.index 0 : index
      %extracted_1 = tensor.extract %token_embd.weight__q8_scale[%24, %23] : tensor<8x320xf16>
      linalg.yield %extracted_1 : f16
    } -> tensor<8x1xf16>
    %expanded_1 = tensor.expand_shape %18 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 1] : tensor<256x1xi8> into tensor<8x32x1xi8>
    %25 = tensor.empty() : tensor<8x32x1xf32>
    %26 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_1 : tensor<8x32x1xi8>) outs(%25 : tensor<8x32x1xf32>) {
    ^bb0(%in_10: i8, %out_9: f32):
      %27 = arith.sitofp %in_10 : i8 to f32
      linalg.yield %27 : f32
    } -> tensor<8x32x1xf32>
    %28 = tensor.empty() : tensor<8x1xf32>
    %29 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<8x1xf16>) outs(%28 : tensor<8x1xf32>) {
    ^bb0(%in_11: f16, %out_10: f32):
      %30 = arith.extf %in_11 : f16 to f32
      linalg.yield %30 : f32
    } -> tensor<8x1xf32>
    %expanded_2 = tensor.expand_shape %29 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 1] : tensor<8x1xf32> into tensor<8x1x1xf32>
    %31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%26, %expanded_2 : tensor<8x32x1xf32>, tensor<8x1x1xf32>) outs(%25 : tensor<8x32x1xf32>) {
    ^bb0(%in_12: f32, %in_13: f32, %out_11: f32):
      %32 = arith.mulf %in_12, %in_13 : f32
      linalg.yield %32 : f32
    } -> tensor<8x32x1xf32>
    %collapsed = tensor.collapse_shape %31 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x1xf32> into tensor<256x1xf32>
    %33 = tensor.empty() : tensor<1x256xf32>
    %transposed = linalg.transpose ins(%collapsed:tensor<256x1xf32>) outs(%33:tensor<1x256xf32>) permutation = [1, 0]
    %34 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed, %transposed : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_14: f32, %in_15: f32, %out_12: f32):
      %35 = arith.mulf %in_14, %in_15 : f32
      linalg.yield %35 : f32
    } -> tensor<1x256xf32>
    %36 = tensor.empty() : tensor<1x1xf32>
    %37 = linalg.fill ins(%cst : f32) outs(%36 : tensor<1x1xf32>) -> tensor<1x1xf32>
    %38 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%34 : tensor<1x256xf32>) outs(%37 : tensor<1x1xf32>) {
    ^bb0(%in_16: f32, %out_13: f32):
      %39 = arith.addf %in_16, %out_13 : f32
      linalg.yield %39 : f32
    } -> tensor<1x1xf32>
    %40 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%38 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_17: f32, %out_14: f32):
      %41 = arith.divf %in_17, %cst_6 : f32
      linalg.yield %41 : f32
    } -> tensor<1x1xf32>
    %42 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%40 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_18: f32, %out_15: f32):
      %43 = arith.truncf %cst_4 : f64 to f32
      %44 = arith.addf %in_18, %43 : f32
      linalg.yield %44 : f32
    } -> tensor<1x1xf32>
    %45 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%42 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_19: f32, %out_16: f32):
      %46 = math.rsqrt %in_19 : f32
      linalg.yield %46 : f32
    } -> tensor<1x1xf32>
    %47 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed, %45 : tensor<1x256xf32>, tensor<1x1xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_20: f32, %in_21: f32, %out_17: f32):
      %48 = arith.mulf %in_20, %in_21 : f32
      linalg.yield %48 : f32
    } -> tensor<1x256xf32>
    %49 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%47, %blk.0.attn_norm.weight : tensor<1x256xf32>, tensor<256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_22: f32, %in_23: f32, %out_18: f32):
      %50 = arith.mulf %in_22, %in_23 : f32
      linalg.yield %50 : f32
    } -> tensor<1x256xf32>
    %51 = tensor.empty() : tensor<1x256xbf16>
    %52 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%49 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_24: f32, %out_19: bf16):
      %53 = arith.truncf %in_24 : f32 to bf16
      linalg.yield %53 : bf16
    } -> tensor<1x256xbf16>
    %54 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%52 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_25: bf16, %out_20: f32):
      %55 = arith.extf %in_25 : bf16 to f32
      linalg.yield %55 : f32
    } -> tensor<1x256xf32>
    %expanded_3 = tensor.expand_shape %blk.0.attn_q.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %56 = tensor.empty() : tensor<8x32x256xf32>
    %57 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_3 : tensor<8x32x256xi8>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_26: i8, %out_21: f32):
      %58 = arith.sitofp %in_26 : i8 to f32
      linalg.yield %58 : f32
    } -> tensor<8x32x256xf32>
    %59 = tensor.empty() : tensor<8x256xf32>
    %60 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_q.weight__q8_scale : tensor<8x256xf16>) outs(%59 : tensor<8x256xf32>) {
    ^bb0(%in_27: f16, %out_22: f32):
      %61 = arith.extf %in_27 : f16 to f32
      linalg.yield %61 : f32
    } -> tensor<8x256xf32>
    %expanded_4 = tensor.expand_shape %60 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %62 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%57, %expanded_4 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_28: f32, %in_29: f32, %out_23: f32):
      %63 = arith.mulf %in_28, %in_29 : f32
      linalg.yield %63 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_1 = tensor.collapse_shape %62 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %64 = linalg.fill ins(%cst : f32) outs(%33 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %65 = linalg.matmul ins(%54, %collapsed_1 : tensor<1x256xf32>, tensor<256x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %expanded_5 = tensor.expand_shape %blk.0.attn_k.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %66 = tensor.empty() : tensor<8x32x128xf32>
    %67 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_5 : tensor<8x32x128xi8>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_30: i8, %out_24: f32):
      %68 = arith.sitofp %in_30 : i8 to f32
      linalg.yield %68 : f32
    } -> tensor<8x32x128xf32>
    %69 = tensor.empty() : tensor<8x128xf32>
    %70 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_k.weight__q8_scale : tensor<8x128xf16>) outs(%69 : tensor<8x128xf32>) {
    ^bb0(%in_31: f16, %out_25: f32):
      %71 = arith.extf %in_31 : f16 to f32
      linalg.yield %71 : f32
    } -> tensor<8x128xf32>
    %expanded_6 = tensor.expand_shape %70 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %72 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67, %expanded_6 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_32: f32, %in_33: f32, %out_26: f32):
      %73 = arith.mulf %in_32, %in_33 : f32
      linalg.yield %73 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_2 = tensor.collapse_shape %72 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %74 = tensor.empty() : tensor<1x128xf32>
    %75 = linalg.fill ins(%cst : f32) outs(%74 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %76 = linalg.matmul ins(%54, %collapsed_2 : tensor<1x256xf32>, tensor<256x128xf32>) outs(%75 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %expanded_7 = tensor.expand_shape %blk.0.attn_v.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %77 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<8x32x128xi8>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_34: i8, %out_27: f32):
      %78 = arith.sitofp %in_34 : i8 to f32
      linalg.yield %78 : f32
    } -> tensor<8x32x128xf32>
    %79 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_v.weight__q8_scale : tensor<8x128xf16>) outs(%69 : tensor<8x128xf32>) {
    ^bb0(%in_35: f16, %out_28: f32):
      %80 = arith.extf %in_35 : f16 to f32
      linalg.yield %80 : f32
    } -> tensor<8x128xf32>
    %expanded_8 = tensor.expand_shape %79 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %81 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%77, %expanded_8 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_36: f32, %in_37: f32, %out_29: f32):
      %82 = arith.mulf %in_36, %in_37 : f32
      linalg.yield %82 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_3 = tensor.collapse_shape %81 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %83 = linalg.matmul ins(%54, %collapsed_3 : tensor<1x256xf32>, tensor<256x128xf32>) outs(%75 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %expanded_9 = tensor.expand_shape %65 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [1, 4, 32, 2] : tensor<1x256xf32> into tensor<1x4x32x2xf32>
    %extracted_slice = tensor.extract_slice %expanded_9[0, 0, 0, 0] [1, 4, 32, 1] [1, 1, 1, 1] : tensor<1x4x32x2xf32> to tensor<1x4x32x1xf32>
    %collapsed_4 = tensor.collapse_shape %extracted_slice [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x4x32x1xf32> into tensor<1x4x32xf32>
    %extracted_slice_1 = tensor.extract_slice %expanded_9[0, 0, 0, 1] [1, 4, 32, 1] [1, 1, 1, 1] : tensor<1x4x32x2xf32> to tensor<1x4x32x1xf32>
    %collapsed_5 = tensor.collapse_shape %extracted_slice_1 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x4x32x1xf32> into tensor<1x4x32xf32>
    %expanded_10 = tensor.expand_shape %10 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, 32] : tensor<1x32xf32> into tensor<1x1x32xf32>
    %expanded_11 = tensor.expand_shape %12 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, 32] : tensor<1x32xf32> into tensor<1x1x32xf32>
    %84 = tensor.empty() : tensor<1x4x32xf32>
    %85 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_4, %expanded_10 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_38: f32, %in_39: f32, %out_30: f32):
      %86 = arith.mulf %in_38, %in_39 : f32
      linalg.yield %86 : f32
    } -> tensor<1x4x32xf32>
    %87 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_5, %expanded_11 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_40: f32, %in_41: f32, %out_31: f32):
      %88 = arith.mulf %in_40, %in_41 : f32
      linalg.yield %88 : f32
    } -> tensor<1x4x32xf32>
    %89 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%85, %87 : tensor<1x4x32xf32>, tensor<1x4x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_42: f32, %in_43: f32, %out_32: f32):
      %90 = arith.subf %in_42, %in_43 : f32
      linalg.yield %90 : f32
    } -> tensor<1x4x32xf32>
    %91 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_4, %expanded_11 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_44: f32, %in_45: f32, %out_33: f32):
      %92 = arith.mulf %in_44, %in_45 : f32
      linalg.yield %92 : f32
    } -> tensor<1x4x32xf32>
    %93 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_5, %expanded_10 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_46: f32, %in_47: f32, %out_34: f32):
      %94 = arith.mulf %in_46, %in_47 : f32
      linalg.yield %94 : f32
    } -> tensor<1x4x32xf32>
    %95 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91, %93 : tensor<1x4x32xf32>, tensor<1x4x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_48: f32, %in_49: f32, %out_35: f32):
      %96 = arith.addf %in_48, %in_49 : f32
      linalg.yield %96 : f32
    } -> tensor<1x4x32xf32>
    %expanded_12 = tensor.expand_shape %89 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 32, 1] : tensor<1x4x32xf32> into tensor<1x4x32x1xf32>
    %expanded_13 = tensor.expand_shape %95 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 32, 1] : tensor<1x4x32xf32> into tensor<1x4x32x1xf32>
    %concat = tensor.concat dim(3) %expanded_12, %expanded_13 : (tensor<1x4x32x1xf32>, tensor<1x4x32x1xf32>) -> tensor<1x4x32x2xf32>
    %collapsed_6 = tensor.collapse_shape %concat [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x4x32x2xf32> into tensor<1x4x64xf32>
    %97 = tensor.empty() : tensor<1x4x64xf32>
    %98 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_6 : tensor<1x4x64xf32>) outs(%97 : tensor<1x4x64xf32>) {
    ^bb0(%in_50: f32, %out_36: f32):
      %99 = arith.mulf %in_50, %cst_7 : f32
      linalg.yield %99 : f32
    } -> tensor<1x4x64xf32>
    %expanded_14 = tensor.expand_shape %98 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 2, 2, 64] : tensor<1x4x64xf32> into tensor<1x2x2x64xf32>
    %100 = tensor.empty() : tensor<2x2x1x64xf32>
    %transposed_1 = linalg.transpose ins(%expanded_14:tensor<1x2x2x64xf32>) outs(%100:tensor<2x2x1x64xf32>) permutation = [1, 2, 0, 3]
    %collapsed_7 = tensor.collapse_shape %transposed_1 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<2x2x1x64xf32> into tensor<2x2x64xf32>
    %expanded_15 = tensor.expand_shape %76 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [1, 2, 32, 2] : tensor<1x128xf32> into tensor<1x2x32x2xf32>
    %extracted_slice_2 = tensor.extract_slice %expanded_15[0, 0, 0, 0] [1, 2, 32, 1] [1, 1, 1, 1] : tensor<1x2x32x2xf32> to tensor<1x2x32x1xf32>
    %collapsed_8 = tensor.collapse_shape %extracted_slice_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x2x32x1xf32> into tensor<1x2x32xf32>
    %extracted_slice_3 = tensor.extract_slice %expanded_15[0, 0, 0, 1] [1, 2, 32, 1] [1, 1, 1, 1] : tensor<1x2x32x2xf32> to tensor<1x2x32x1xf32>
    %collapsed_9 = tensor.collapse_shape %extracted_slice_3 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x2x32x1xf32> into tensor<1x2x32xf32>
    %101 = tensor.empty() : tensor<1x2x32xf32>
    %102 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_8, %expanded_10 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_51: f32, %in_52: f32, %out_37: f32):
      %103 = arith.mulf %in_51, %in_52 : f32
      linalg.yield %103 : f32
    } -> tensor<1x2x32xf32>
    %104 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_9, %expanded_11 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_53: f32, %in_54: f32, %out_38: f32):
      %105 = arith.mulf %in_53, %in_54 : f32
      linalg.yield %105 : f32
    } -> tensor<1x2x32xf32>
    %106 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%102, %104 : tensor<1x2x32xf32>, tensor<1x2x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_55: f32, %in_56: f32, %out_39: f32):
      %107 = arith.subf %in_55, %in_56 : f32
      linalg.yield %107 : f32
    } -> tensor<1x2x32xf32>
    %108 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_8, %expanded_11 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_57: f32, %in_58: f32, %out_40: f32):
      %109 = arith.mulf %in_57, %in_58 : f32
      linalg.yield %109 : f32
    } -> tensor<1x2x32xf32>
    %110 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_9, %expanded_10 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_59: f32, %in_60: f32, %out_41: f32):
      %111 = arith.mulf %in_59, %in_60 : f32
      linalg.yield %111 : f32
    } -> tensor<1x2x32xf32>
    %112 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%108, %110 : tensor<1x2x32xf32>, tensor<1x2x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_61: f32, %in_62: f32, %out_42: f32):
      %113 = arith.addf %in_61, %in_62 : f32
      linalg.yield %113 : f32
    } -> tensor<1x2x32xf32>
    %expanded_16 = tensor.expand_shape %106 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 2, 32, 1] : tensor<1x2x32xf32> into tensor<1x2x32x1xf32>
    %expanded_17 = tensor.expand_shape %112 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 2, 32, 1] : tensor<1x2x32xf32> into tensor<1x2x32x1xf32>
    %concat_1 = tensor.concat dim(3) %expanded_16, %expanded_17 : (tensor<1x2x32x1xf32>, tensor<1x2x32x1xf32>) -> tensor<1x2x32x2xf32>
    %collapsed_10 = tensor.collapse_shape %concat_1 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x2x32x2xf32> into tensor<1x2x64xf32>
    %114 = tensor.empty() : tensor<2x64x1xf32>
    %transposed_2 = linalg.transpose ins(%collapsed_10:tensor<1x2x64xf32>) outs(%114:tensor<2x64x1xf32>) permutation = [1, 2, 0]
    %expanded_18 = tensor.expand_shape %83 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 2, 64] : tensor<1x128xf32> into tensor<1x2x64xf32>
    %115 = tensor.empty() : tensor<2x1x64xf32>
    %transposed_3 = linalg.transpose ins(%expanded_18:tensor<1x2x64xf32>) outs(%115:tensor<2x1x64xf32>) permutation = [1, 0, 2]
    %extracted_2 = tensor.extract %pos[%c0] : tensor<1xi32>
    %116 = arith.extsi %extracted_2 : i32 to i64
    %117 = arith.cmpi sge, %116, %c0_i64 : i64
    cf.assert %117, "Runtime assertion failed for expression u0 >= 0 on node 'ge_1'"
    %118 = arith.cmpi sle, %116, %c23_i64 : i64
    cf.assert %118, "Runtime assertion failed for expression u0 <= 23 on node 'le_3'"
    %119 = arith.cmpi slt, %116, %c24_i64 : i64
    cf.assert %119, "Runtime assertion failed for expression u0 < 24 on node 'lt_1'"
    %120 = arith.addi %116, %c24_i64 : i64
    %121 = arith.cmpi sge, %116, %c0_i64 : i64
    %122 = arith.select %121, %116, %120 : i64
    %123 = arith.maxsi %122, %c0_i64 : i64
    %124 = arith.minsi %123, %c24_i64 : i64
    %125 = arith.index_cast %124 : i64 to index
    %inserted_slice = tensor.insert_slice %transposed_2 into %blk.0.cache_k[0, 0, %125] [2, 64, 1] [1, 1, 1] : tensor<2x64x1xf32> into tensor<2x64x24xf32>
    %inserted_slice_1 = tensor.insert_slice %transposed_3 into %blk.0.cache_v[0, %125, 0] [2, 1, 64] [1, 1, 1] : tensor<2x1x64xf32> into tensor<2x24x64xf32>
    %126 = tensor.empty() : tensor<2x2x24xf32>
    %127 = linalg.fill ins(%cst : f32) outs(%126 : tensor<2x2x24xf32>) -> tensor<2x2x24xf32>
    %128 = linalg.batch_matmul ins(%collapsed_7, %inserted_slice : tensor<2x2x64xf32>, tensor<2x64x24xf32>) outs(%127 : tensor<2x2x24xf32>) -> tensor<2x2x24xf32>
    %expanded_19 = tensor.expand_shape %128 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 24] : tensor<2x2x24xf32> into tensor<2x2x1x24xf32>
    %129 = tensor.empty() : tensor<24xi32>
    %130 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%129 : tensor<24xi32>) {
    ^bb0(%out_43: i32):
      %131 = linalg.index 0 : index
      %132 = arith.index_cast %131 : index to i64
      %133 = arith.trunci %132 : i64 to i32
      linalg.yield %133 : i32
    } -> tensor<24xi32>
    %expanded_20 = tensor.expand_shape %130 [[0 : i64, 1 : i64]] output_shape [1, 24] : tensor<24xi32> into tensor<1x24xi32>
    %expanded_21 = tensor.expand_shape %2 [[0 : i64, 1 : i64]] output_shape [1, 1] : tensor<1xi32> into tensor<1x1xi32>
    %134 = tensor.empty() : tensor<1x24xi1>
    %135 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded_20, %expanded_21 : tensor<1x24xi32>, tensor<1x1xi32>) outs(%134 : tensor<1x24xi1>) {
    ^bb0(%in_63: i32, %in_64: i32, %out_44: i1):
      %136 = arith.cmpi sle, %in_63, %in_64 : i32
      linalg.yield %136 : i1
    } -> tensor<1x24xi1>
    %137 = tensor.empty() : tensor<2x2x1x24xf32>
    %138 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%135, %expanded_19, %cst_3 : tensor<1x24xi1>, tensor<2x2x1x24xf32>, tensor<f32>) outs(%137 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_65: i1, %in_66: f32, %in_67: f32, %out_45: f32):
      %139 = arith.select %in_65, %in_66, %in_67 : f32
      linalg.yield %139 : f32
    } -> tensor<2x2x1x24xf32>
    %140 = tensor.empty() : tensor<2x2x1xi64>
    %141 = linalg.fill ins(%c0_i64 : i64) outs(%140 : tensor<2x2x1xi64>) -> tensor<2x2x1xi64>
    %142 = tensor.empty() : tensor<2x2x1xf32>
    %143 = linalg.fill ins(%cst_1 : f32) outs(%142 : tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
    %144, %145 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%138 : tensor<2x2x1x24xf32>) outs(%143, %141 : tensor<2x2x1xf32>, tensor<2x2x1xi64>) {
    ^bb0(%in_68: f32, %out_46: f32, %out_47: i64):
      %146 = linalg.index 3 : index
      %147 = arith.index_cast %146 : index to i64
      %148 = arith.maximumf %in_68, %out_46 : f32
      %149 = arith.cmpf ogt, %in_68, %out_46 : f32
      %150 = arith.select %149, %147, %out_47 : i64
      linalg.yield %148, %150 : f32, i64
    } -> (tensor<2x2x1xf32>, tensor<2x2x1xi64>)
    %expanded_22 = tensor.expand_shape %144 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 1] : tensor<2x2x1xf32> into tensor<2x2x1x1xf32>
    %151 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_19, %expanded_22 : tensor<2x2x1x24xf32>, tensor<2x2x1x1xf32>) outs(%137 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_69: f32, %in_70: f32, %out_48: f32):
      %152 = arith.subf %in_69, %in_70 : f32
      linalg.yield %152 : f32
    } -> tensor<2x2x1x24xf32>
    %153 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%151 : tensor<2x2x1x24xf32>) outs(%137 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_71: f32, %out_49: f32):
      %154 = math.exp %in_71 : f32
      linalg.yield %154 : f32
    } -> tensor<2x2x1x24xf32>
    %155 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%135, %153, %cst_2 : tensor<1x24xi1>, tensor<2x2x1x24xf32>, tensor<f32>) outs(%137 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_72: i1, %in_73: f32, %in_74: f32, %out_50: f32):
      %156 = arith.select %in_72, %in_73, %in_74 : f32
      linalg.yield %156 : f32
    } -> tensor<2x2x1x24xf32>
    %157 = tensor.empty() : tensor<2x2x1x1xf32>
    %158 = linalg.fill ins(%cst : f32) outs(%157 : tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
    %159 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%155 : tensor<2x2x1x24xf32>) outs(%158 : tensor<2x2x1x1xf32>) {
    ^bb0(%in_75: f32, %out_51: f32):
      %160 = arith.addf %in_75, %out_51 : f32
      linalg.yield %160 : f32
    } -> tensor<2x2x1x1xf32>
    %collapsed_11 = tensor.collapse_shape %155 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<2x2x1x24xf32> into tensor<2x2x24xf32>
    %161 = tensor.empty() : tensor<2x2x64xf32>
    %162 = linalg.fill ins(%cst : f32) outs(%161 : tensor<2x2x64xf32>) -> tensor<2x2x64xf32>
    %163 = linalg.batch_matmul ins(%collapsed_11, %inserted_slice_1 : tensor<2x2x24xf32>, tensor<2x24x64xf32>) outs(%162 : tensor<2x2x64xf32>) -> tensor<2x2x64xf32>
    %expanded_23 = tensor.expand_shape %163 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 64] : tensor<2x2x64xf32> into tensor<2x2x1x64xf32>
    %164 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_23, %159 : tensor<2x2x1x64xf32>, tensor<2x2x1x1xf32>) outs(%100 : tensor<2x2x1x64xf32>) {
    ^bb0(%in_76: f32, %in_77: f32, %out_52: f32):
      %165 = arith.divf %in_76, %in_77 : f32
      linalg.yield %165 : f32
    } -> tensor<2x2x1x64xf32>
    %166 = tensor.empty() : tensor<1x2x2x64xf32>
    %transposed_4 = linalg.transpose ins(%164:tensor<2x2x1x64xf32>) outs(%166:tensor<1x2x2x64xf32>) permutation = [2, 0, 1, 3]
    %collapsed_12 = tensor.collapse_shape %transposed_4 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<1x2x2x64xf32> into tensor<1x256xf32>
    %167 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%collapsed_12 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_78: f32, %out_53: bf16):
      %168 = arith.truncf %in_78 : f32 to bf16
      linalg.yield %168 : bf16
    } -> tensor<1x256xbf16>
    %169 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%167 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_79: bf16, %out_54: f32):
      %170 = arith.extf %in_79 : bf16 to f32
      linalg.yield %170 : f32
    } -> tensor<1x256xf32>
    %expanded_24 = tensor.expand_shape %blk.0.attn_output.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %171 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24 : tensor<8x32x256xi8>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_80: i8, %out_55: f32):
      %172 = arith.sitofp %in_80 : i8 to f32
      linalg.yield %172 : f32
    } -> tensor<8x32x256xf32>
    %173 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_output.weight__q8_scale : tensor<8x256xf16>) outs(%59 : tensor<8x256xf32>) {
    ^bb0(%in_81: f16, %out_56: f32):
      %174 = arith.extf %in_81 : f16 to f32
      linalg.yield %174 : f32
    } -> tensor<8x256xf32>
    %expanded_25 = tensor.expand_shape %173 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %175 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%171, %expanded_25 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_82: f32, %in_83: f32, %out_57: f32):
      %176 = arith.mulf %in_82, %in_83 : f32
      linalg.yield %176 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_13 = tensor.collapse_shape %175 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %177 = linalg.matmul ins(%169, %collapsed_13 : tensor<1x256xf32>, tensor<256x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %178 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed, %177 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_84: f32, %in_85: f32, %out_58: f32):
      %179 = arith.addf %in_84, %in_85 : f32
      linalg.yield %179 : f32
    } -> tensor<1x256xf32>
    %180 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%178, %178 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_86: f32, %in_87: f32, %out_59: f32):
      %181 = arith.mulf %in_86, %in_87 : f32
      linalg.yield %181 : f32
    } -> tensor<1x256xf32>
    %182 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%180 : tensor<1x256xf32>) outs(%37 : tensor<1x1xf32>) {
    ^bb0(%in_88: f32, %out_60: f32):
      %183 = arith.addf %in_88, %out_60 : f32
      linalg.yield %183 : f32
    } -> tensor<1x1xf32>
    %184 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%182 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_89: f32, %out_61: f32):
      %185 = arith.divf %in_89, %cst_6 : f32
      linalg.yield %185 : f32
    } -> tensor<1x1xf32>
    %186 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%184 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_90: f32, %out_62: f32):
      %187 = arith.truncf %cst_4 : f64 to f32
      %188 = arith.addf %in_90, %187 : f32
      linalg.yield %188 : f32
    } -> tensor<1x1xf32>
    %189 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%186 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_91: f32, %out_63: f32):
      %190 = math.rsqrt %in_91 : f32
      linalg.yield %190 : f32
    } -> tensor<1x1xf32>
    %191 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%178, %189 : tensor<1x256xf32>, tensor<1x1xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_92: f32, %in_93: f32, %out_64: f32):
      %192 = arith.mulf %in_92, %in_93 : f32
      linalg.yield %192 : f32
    } -> tensor<1x256xf32>
    %193 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%191, %blk.0.ffn_norm.weight : tensor<1x256xf32>, tensor<256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_94: f32, %in_95: f32, %out_65: f32):
      %194 = arith.mulf %in_94, %in_95 : f32
      linalg.yield %194 : f32
    } -> tensor<1x256xf32>
    %195 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%193 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_96: f32, %out_66: bf16):
      %196 = arith.truncf %in_96 : f32 to bf16
      linalg.yield %196 : bf16
    } -> tensor<1x256xbf16>
    %197 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%195 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_97: bf16, %out_67: f32):
      %198 = arith.extf %in_97 : bf16 to f32
      linalg.yield %198 : f32
    } -> tensor<1x256xf32>
    %expanded_26 = tensor.expand_shape %blk.0.ffn_gate.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %199 = tensor.empty() : tensor<8x32x512xf32>
    %200 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_26 : tensor<8x32x512xi8>) outs(%199 : tensor<8x32x512xf32>) {
    ^bb0(%in_98: i8, %out_68: f32):
      %201 = arith.sitofp %in_98 : i8 to f32
      linalg.yield %201 : f32
    } -> tensor<8x32x512xf32>
    %202 = tensor.empty() : tensor<8x512xf32>
    %203 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_gate.weight__q8_scale : tensor<8x512xf16>) outs(%202 : tensor<8x512xf32>) {
    ^bb0(%in_99: f16, %out_69: f32):
      %204 = arith.extf %in_99 : f16 to f32
      linalg.yield %204 : f32
    } -> tensor<8x512xf32>
    %expanded_27 = tensor.expand_shape %203 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %205 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%200, %expanded_27 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%199 : tensor<8x32x512xf32>) {
    ^bb0(%in_100: f32, %in_101: f32, %out_70: f32):
      %206 = arith.mulf %in_100, %in_101 : f32
      linalg.yield %206 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_14 = tensor.collapse_shape %205 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %207 = tensor.empty() : tensor<1x512xf32>
    %208 = linalg.fill ins(%cst : f32) outs(%207 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %209 = linalg.matmul ins(%197, %collapsed_14 : tensor<1x256xf32>, tensor<256x512xf32>) outs(%208 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %expanded_28 = tensor.expand_shape %blk.0.ffn_up.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %210 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_28 : tensor<8x32x512xi8>) outs(%199 : tensor<8x32x512xf32>) {
    ^bb0(%in_102: i8, %out_71: f32):
      %211 = arith.sitofp %in_102 : i8 to f32
      linalg.yield %211 : f32
    } -> tensor<8x32x512xf32>
    %212 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_up.weight__q8_scale : tensor<8x512xf16>) outs(%202 : tensor<8x512xf32>) {
    ^bb0(%in_103: f16, %out_72: f32):
      %213 = arith.extf %in_103 : f16 to f32
      linalg.yield %213 : f32
    } -> tensor<8x512xf32>
    %expanded_29 = tensor.expand_shape %212 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %214 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%210, %expanded_29 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%199 : tensor<8x32x512xf32>) {
    ^bb0(%in_104: f32, %in_105: f32, %out_73: f32):
      %215 = arith.mulf %in_104, %in_105 : f32
      linalg.yield %215 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_15 = tensor.collapse_shape %214 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %216 = linalg.matmul ins(%197, %collapsed_15 : tensor<1x256xf32>, tensor<256x512xf32>) outs(%208 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %217 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%209 : tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_106: f32, %out_74: f32):
      %218 = arith.negf %in_106 : f32
      linalg.yield %218 : f32
    } -> tensor<1x512xf32>
    %219 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%217 : tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_107: f32, %out_75: f32):
      %220 = math.exp %in_107 : f32
      linalg.yield %220 : f32
    } -> tensor<1x512xf32>
    %221 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%219 : tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_108: f32, %out_76: f32):
      %222 = arith.addf %in_108, %cst_8 : f32
      linalg.yield %222 : f32
    } -> tensor<1x512xf32>
    %223 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%209, %221 : tensor<1x512xf32>, tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_109: f32, %in_110: f32, %out_77: f32):
      %224 = arith.divf %in_109, %in_110 : f32
      linalg.yield %224 : f32
    } -> tensor<1x512xf32>
    %225 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%223, %216 : tensor<1x512xf32>, tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_111: f32, %in_112: f32, %out_78: f32):
      %226 = arith.mulf %in_111, %in_112 : f32
      linalg.yield %226 : f32
    } -> tensor<1x512xf32>
    %227 = tensor.empty() : tensor<1x512xbf16>
    %228 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%225 : tensor<1x512xf32>) outs(%227 : tensor<1x512xbf16>) {
    ^bb0(%in_113: f32, %out_79: bf16):
      %229 = arith.truncf %in_113 : f32 to bf16
      linalg.yield %229 : bf16
    } -> tensor<1x512xbf16>
    %230 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%228 : tensor<1x512xbf16>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_114: bf16, %out_80: f32):
      %231 = arith.extf %in_114 : bf16 to f32
      linalg.yield %231 : f32
    } -> tensor<1x512xf32>
    %expanded_30 = tensor.expand_shape %blk.0.ffn_down.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [16, 32, 256] : tensor<512x256xi8> into tensor<16x32x256xi8>
    %232 = tensor.empty() : tensor<16x32x256xf32>
    %233 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_30 : tensor<16x32x256xi8>) outs(%232 : tensor<16x32x256xf32>) {
    ^bb0(%in_115: i8, %out_81: f32):
      %234 = arith.sitofp %in_115 : i8 to f32
      linalg.yield %234 : f32
    } -> tensor<16x32x256xf32>
    %235 = tensor.empty() : tensor<16x256xf32>
    %236 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_down.weight__q8_scale : tensor<16x256xf16>) outs(%235 : tensor<16x256xf32>) {
    ^bb0(%in_116: f16, %out_82: f32):
      %237 = arith.extf %in_116 : f16 to f32
      linalg.yield %237 : f32
    } -> tensor<16x256xf32>
    %expanded_31 = tensor.expand_shape %236 [[0 : i64], [1 : i64, 2 : i64]] output_shape [16, 1, 256] : tensor<16x256xf32> into tensor<16x1x256xf32>
    %238 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%233, %expanded_31 : tensor<16x32x256xf32>, tensor<16x1x256xf32>) outs(%232 : tensor<16x32x256xf32>) {
    ^bb0(%in_117: f32, %in_118: f32, %out_83: f32):
      %239 = arith.mulf %in_117, %in_118 : f32
      linalg.yield %239 : f32
    } -> tensor<16x32x256xf32>
    %collapsed_16 = tensor.collapse_shape %238 [[0 : i64, 1 : i64], [2 : i64]] : tensor<16x32x256xf32> into tensor<512x256xf32>
    %240 = linalg.matmul ins(%230, %collapsed_16 : tensor<1x512xf32>, tensor<512x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %241 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%178, %240 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_119: f32, %in_120: f32, %out_84: f32):
      %242 = arith.addf %in_119, %in_120 : f32
      linalg.yield %242 : f32
    } -> tensor<1x256xf32>
    %243 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%241, %241 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_121: f32, %in_122: f32, %out_85: f32):
      %244 = arith.mulf %in_121, %in_122 : f32
      linalg.yield %244 : f32
    } -> tensor<1x256xf32>
    %245 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%243 : tensor<1x256xf32>) outs(%37 : tensor<1x1xf32>) {
    ^bb0(%in_123: f32, %out_86: f32):
      %246 = arith.addf %in_123, %out_86 : f32
      linalg.yield %246 : f32
    } -> tensor<1x1xf32>
    %247 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%245 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_124: f32, %out_87: f32):
      %248 = arith.divf %in_124, %cst_6 : f32
      linalg.yield %248 : f32
    } -> tensor<1x1xf32>
    %249 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%247 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_125: f32, %out_88: f32):
      %250 = arith.truncf %cst_4 : f64 to f32
      %251 = arith.addf %in_125, %250 : f32
      linalg.yield %251 : f32
    } -> tensor<1x1xf32>
    %252 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%249 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_126: f32, %out_89: f32):
      %253 = math.rsqrt %in_126 : f32
      linalg.yield %253 : f32
    } -> tensor<1x1xf32>
    %254 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%241, %252 : tensor<1x256xf32>, tensor<1x1xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_127: f32, %in_128: f32, %out_90: f32):
      %255 = arith.mulf %in_127, %in_128 : f32
      linalg.yield %255 : f32
    } -> tensor<1x256xf32>
    %256 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%254, %blk.1.attn_norm.weight : tensor<1x256xf32>, tensor<256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_129: f32, %in_130: f32, %out_91: f32):
      %257 = arith.mulf %in_129, %in_130 : f32
      linalg.yield %257 : f32
    } -> tensor<1x256xf32>
    %258 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%256 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_131: f32, %out_92: bf16):
      %259 = arith.truncf %in_131 : f32 to bf16
      linalg.yield %259 : bf16
    } -> tensor<1x256xbf16>
    %260 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%258 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_132: bf16, %out_93: f32):
      %261 = arith.extf %in_132 : bf16 to f32
      linalg.yield %261 : f32
    } -> tensor<1x256xf32>
    %expanded_32 = tensor.expand_shape %blk.1.attn_q.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %262 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_32 : tensor<8x32x256xi8>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_133: i8, %out_94: f32):
      %263 = arith.sitofp %in_133 : i8 to f32
      linalg.yield %263 : f32
    } -> tensor<8x32x256xf32>
    %264 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_q.weight__q8_scale : tensor<8x256xf16>) outs(%59 : tensor<8x256xf32>) {
    ^bb0(%in_134: f16, %out_95: f32):
      %265 = arith.extf %in_134 : f16 to f32
      linalg.yield %265 : f32
    } -> tensor<8x256xf32>
    %expanded_33 = tensor.expand_shape %264 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %266 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%262, %expanded_33 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_135: f32, %in_136: f32, %out_96: f32):
      %267 = arith.mulf %in_135, %in_136 : f32
      linalg.yield %267 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_17 = tensor.collapse_shape %266 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %268 = linalg.matmul ins(%260, %collapsed_17 : tensor<1x256xf32>, tensor<256x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %expanded_34 = tensor.expand_shape %blk.1.attn_k.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %269 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34 : tensor<8x32x128xi8>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_137: i8, %out_97: f32):
      %270 = arith.sitofp %in_137 : i8 to f32
      linalg.yield %270 : f32
    } -> tensor<8x32x128xf32>
    %271 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_k.weight__q8_scale : tensor<8x128xf16>) outs(%69 : tensor<8x128xf32>) {
    ^bb0(%in_138: f16, %out_98: f32):
      %272 = arith.extf %in_138 : f16 to f32
      linalg.yield %272 : f32
    } -> tensor<8x128xf32>
    %expanded_35 = tensor.expand_shape %271 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %273 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%269, %expanded_35 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_139: f32, %in_140: f32, %out_99: f32):
      %274 = arith.mulf %in_139, %in_140 : f32
      linalg.yield %274 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_18 = tensor.collapse_shape %273 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %275 = linalg.matmul ins(%260, %collapsed_18 : tensor<1x256xf32>, tensor<256x128xf32>) outs(%75 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %expanded_36 = tensor.expand_shape %blk.1.attn_v.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %276 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_36 : tensor<8x32x128xi8>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_141: i8, %out_100: f32):
      %277 = arith.sitofp %in_141 : i8 to f32
      linalg.yield %277 : f32
    } -> tensor<8x32x128xf32>
    %278 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_v.weight__q8_scale : tensor<8x128xf16>) outs(%69 : tensor<8x128xf32>) {
    ^bb0(%in_142: f16, %out_101: f32):
      %279 = arith.extf %in_142 : f16 to f32
      linalg.yield %279 : f32
    } -> tensor<8x128xf32>
    %expanded_37 = tensor.expand_shape %278 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %280 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%276, %expanded_37 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_143: f32, %in_144: f32, %out_102: f32):
      %281 = arith.mulf %in_143, %in_144 : f32
      linalg.yield %281 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_19 = tensor.collapse_shape %280 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %282 = linalg.matmul ins(%260, %collapsed_19 : tensor<1x256xf32>, tensor<256x128xf32>) outs(%75 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %expanded_38 = tensor.expand_shape %268 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [1, 4, 32, 2] : tensor<1x256xf32> into tensor<1x4x32x2xf32>
    %extracted_slice_4 = tensor.extract_slice %expanded_38[0, 0, 0, 0] [1, 4, 32, 1] [1, 1, 1, 1] : tensor<1x4x32x2xf32> to tensor<1x4x32x1xf32>
    %collapsed_20 = tensor.collapse_shape %extracted_slice_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x4x32x1xf32> into tensor<1x4x32xf32>
    %extracted_slice_5 = tensor.extract_slice %expanded_38[0, 0, 0, 1] [1, 4, 32, 1] [1, 1, 1, 1] : tensor<1x4x32x2xf32> to tensor<1x4x32x1xf32>
    %collapsed_21 = tensor.collapse_shape %extracted_slice_5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x4x32x1xf32> into tensor<1x4x32xf32>
    %283 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_20, %expanded_10 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_145: f32, %in_146: f32, %out_103: f32):
      %284 = arith.mulf %in_145, %in_146 : f32
      linalg.yield %284 : f32
    } -> tensor<1x4x32xf32>
    %285 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_21, %expanded_11 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_147: f32, %in_148: f32, %out_104: f32):
      %286 = arith.mulf %in_147, %in_148 : f32
      linalg.yield %286 : f32
    } -> tensor<1x4x32xf32>
    %287 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%283, %285 : tensor<1x4x32xf32>, tensor<1x4x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_149: f32, %in_150: f32, %out_105: f32):
      %288 = arith.subf %in_149, %in_150 : f32
      linalg.yield %288 : f32
    } -> tensor<1x4x32xf32>
    %289 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_20, %expanded_11 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_151: f32, %in_152: f32, %out_106: f32):
      %290 = arith.mulf %in_151, %in_152 : f32
      linalg.yield %290 : f32
    } -> tensor<1x4x32xf32>
    %291 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_21, %expanded_10 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_153: f32, %in_154: f32, %out_107: f32):
      %292 = arith.mulf %in_153, %in_154 : f32
      linalg.yield %292 : f32
    } -> tensor<1x4x32xf32>
    %293 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%289, %291 : tensor<1x4x32xf32>, tensor<1x4x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_155: f32, %in_156: f32, %out_108: f32):
      %294 = arith.addf %in_155, %in_156 : f32
      linalg.yield %294 : f32
    } -> tensor<1x4x32xf32>
    %expanded_39 = tensor.expand_shape %287 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 32, 1] : tensor<1x4x32xf32> into tensor<1x4x32x1xf32>
    %expanded_40 = tensor.expand_shape %293 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 32, 1] : tensor<1x4x32xf32> into tensor<1x4x32x1xf32>
    %concat_2 = tensor.concat dim(3) %expanded_39, %expanded_40 : (tensor<1x4x32x1xf32>, tensor<1x4x32x1xf32>) -> tensor<1x4x32x2xf32>
    %collapsed_22 = tensor.collapse_shape %concat_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x4x32x2xf32> into tensor<1x4x64xf32>
    %295 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_22 : tensor<1x4x64xf32>) outs(%97 : tensor<1x4x64xf32>) {
    ^bb0(%in_157: f32, %out_109: f32):
      %296 = arith.mulf %in_157, %cst_7 : f32
      linalg.yield %296 : f32
    } -> tensor<1x4x64xf32>
    %expanded_41 = tensor.expand_shape %295 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 2, 2, 64] : tensor<1x4x64xf32> into tensor<1x2x2x64xf32>
    %transposed_5 = linalg.transpose ins(%expanded_41:tensor<1x2x2x64xf32>) outs(%100:tensor<2x2x1x64xf32>) permutation = [1, 2, 0, 3]
    %collapsed_23 = tensor.collapse_shape %transposed_5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<2x2x1x64xf32> into tensor<2x2x64xf32>
    %expanded_42 = tensor.expand_shape %275 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [1, 2, 32, 2] : tensor<1x128xf32> into tensor<1x2x32x2xf32>
    %extracted_slice_6 = tensor.extract_slice %expanded_42[0, 0, 0, 0] [1, 2, 32, 1] [1, 1, 1, 1] : tensor<1x2x32x2xf32> to tensor<1x2x32x1xf32>
    %collapsed_24 = tensor.collapse_shape %extracted_slice_6 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x2x32x1xf32> into tensor<1x2x32xf32>
    %extracted_slice_7 = tensor.extract_slice %expanded_42[0, 0, 0, 1] [1, 2, 32, 1] [1, 1, 1, 1] : tensor<1x2x32x2xf32> to tensor<1x2x32x1xf32>
    %collapsed_25 = tensor.collapse_shape %extracted_slice_7 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x2x32x1xf32> into tensor<1x2x32xf32>
    %297 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_24, %expanded_10 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_158: f32, %in_159: f32, %out_110: f32):
      %298 = arith.mulf %in_158, %in_159 : f32
      linalg.yield %298 : f32
    } -> tensor<1x2x32xf32>
    %299 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_25, %expanded_11 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_160: f32, %in_161: f32, %out_111: f32):
      %300 = arith.mulf %in_160, %in_161 : f32
      linalg.yield %300 : f32
    } -> tensor<1x2x32xf32>
    %301 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%297, %299 : tensor<1x2x32xf32>, tensor<1x2x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_162: f32, %in_163: f32, %out_112: f32):
      %302 = arith.subf %in_162, %in_163 : f32
      linalg.yield %302 : f32
    } -> tensor<1x2x32xf32>
    %303 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_24, %expanded_11 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_164: f32, %in_165: f32, %out_113: f32):
      %304 = arith.mulf %in_164, %in_165 : f32
      linalg.yield %304 : f32
    } -> tensor<1x2x32xf32>
    %305 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_25, %expanded_10 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_166: f32, %in_167: f32, %out_114: f32):
      %306 = arith.mulf %in_166, %in_167 : f32
      linalg.yield %306 : f32
    } -> tensor<1x2x32xf32>
    %307 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%303, %305 : tensor<1x2x32xf32>, tensor<1x2x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_168: f32, %in_169: f32, %out_115: f32):
      %308 = arith.addf %in_168, %in_169 : f32
      linalg.yield %308 : f32
    } -> tensor<1x2x32xf32>
    %expanded_43 = tensor.expand_shape %301 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 2, 32, 1] : tensor<1x2x32xf32> into tensor<1x2x32x1xf32>
    %expanded_44 = tensor.expand_shape %307 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 2, 32, 1] : tensor<1x2x32xf32> into tensor<1x2x32x1xf32>
    %concat_3 = tensor.concat dim(3) %expanded_43, %expanded_44 : (tensor<1x2x32x1xf32>, tensor<1x2x32x1xf32>) -> tensor<1x2x32x2xf32>
    %collapsed_26 = tensor.collapse_shape %concat_3 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x2x32x2xf32> into tensor<1x2x64xf32>
    %transposed_6 = linalg.transpose ins(%collapsed_26:tensor<1x2x64xf32>) outs(%114:tensor<2x64x1xf32>) permutation = [1, 2, 0]
    %expanded_45 = tensor.expand_shape %282 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 2, 64] : tensor<1x128xf32> into tensor<1x2x64xf32>
    %transposed_7 = linalg.transpose ins(%expanded_45:tensor<1x2x64xf32>) outs(%115:tensor<2x1x64xf32>) permutation = [1, 0, 2]
    %inserted_slice_2 = tensor.insert_slice %transposed_6 into %blk.1.cache_k[0, 0, %125] [2, 64, 1] [1, 1, 1] : tensor<2x64x1xf32> into tensor<2x64x24xf32>
    %inserted_slice_3 = tensor.insert_slice %transposed_7 into %blk.1.cache_v[0, %125, 0] [2, 1, 64] [1, 1, 1] : tensor<2x1x64xf32> into tensor<2x24x64xf32>
    %309 = linalg.batch_matmul ins(%collapsed_23, %inserted_slice_2 : tensor<2x2x64xf32>, tensor<2x64x24xf32>) outs(%127 : tensor<2x2x24xf32>) -> tensor<2x2x24xf32>
    %expanded_46 = tensor.expand_shape %309 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 24] : tensor<2x2x24xf32> into tensor<2x2x1x24xf32>
    %310 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%135, %expanded_46, %cst_3 : tensor<1x24xi1>, tensor<2x2x1x24xf32>, tensor<f32>) outs(%137 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_170: i1, %in_171: f32, %in_172: f32, %out_116: f32):
      %311 = arith.select %in_170, %in_171, %in_172 : f32
      linalg.yield %311 : f32
    } -> tensor<2x2x1x24xf32>
    %312, %313 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%310 : tensor<2x2x1x24xf32>) outs(%143, %141 : tensor<2x2x1xf32>, tensor<2x2x1xi64>) {
    ^bb0(%in_173: f32, %out_117: f32, %out_118: i64):
      %314 = linalg.index 3 : index
      %315 = arith.index_cast %314 : index to i64
      %316 = arith.maximumf %in_173, %out_117 : f32
      %317 = arith.cmpf ogt, %in_173, %out_117 : f32
      %318 = arith.select %317, %315, %out_118 : i64
      linalg.yield %316, %318 : f32, i64
    } -> (tensor<2x2x1xf32>, tensor<2x2x1xi64>)
    %expanded_47 = tensor.expand_shape %312 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 1] : tensor<2x2x1xf32> into tensor<2x2x1x1xf32>
    %319 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_46, %expanded_47 : tensor<2x2x1x24xf32>, tensor<2x2x1x1xf32>) outs(%137 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_174: f32, %in_175: f32, %out_119: f32):
      %320 = arith.subf %in_174, %in_175 : f32
      linalg.yield %320 : f32
    } -> tensor<2x2x1x24xf32>
    %321 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%319 : tensor<2x2x1x24xf32>) outs(%137 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_176: f32, %out_120: f32):
      %322 = math.exp %in_176 : f32
      linalg.yield %322 : f32
    } -> tensor<2x2x1x24xf32>
    %323 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%135, %321, %cst_2 : tensor<1x24xi1>, tensor<2x2x1x24xf32>, tensor<f32>) outs(%137 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_177: i1, %in_178: f32, %in_179: f32, %out_121: f32):
      %324 = arith.select %in_177, %in_178, %in_179 : f32
      linalg.yield %324 : f32
    } -> tensor<2x2x1x24xf32>
    %325 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%323 : tensor<2x2x1x24xf32>) outs(%158 : tensor<2x2x1x1xf32>) {
    ^bb0(%in_180: f32, %out_122: f32):
      %326 = arith.addf %in_180, %out_122 : f32
      linalg.yield %326 : f32
    } -> tensor<2x2x1x1xf32>
    %collapsed_27 = tensor.collapse_shape %323 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<2x2x1x24xf32> into tensor<2x2x24xf32>
    %327 = linalg.batch_matmul ins(%collapsed_27, %inserted_slice_3 : tensor<2x2x24xf32>, tensor<2x24x64xf32>) outs(%162 : tensor<2x2x64xf32>) -> tensor<2x2x64xf32>
    %expanded_48 = tensor.expand_shape %327 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 64] : tensor<2x2x64xf32> into tensor<2x2x1x64xf32>
    %328 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_48, %325 : tensor<2x2x1x64xf32>, tensor<2x2x1x1xf32>) outs(%100 : tensor<2x2x1x64xf32>) {
    ^bb0(%in_181: f32, %in_182: f32, %out_123: f32):
      %329 = arith.divf %in_181, %in_182 : f32
      linalg.yield %329 : f32
    } -> tensor<2x2x1x64xf32>
    %transposed_8 = linalg.transpose ins(%328:tensor<2x2x1x64xf32>) outs(%166:tensor<1x2x2x64xf32>) permutation = [2, 0, 1, 3]
    %collapsed_28 = tensor.collapse_shape %transposed_8 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<1x2x2x64xf32> into tensor<1x256xf32>
    %330 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%collapsed_28 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_183: f32, %out_124: bf16):
      %331 = arith.truncf %in_183 : f32 to bf16
      linalg.yield %331 : bf16
    } -> tensor<1x256xbf16>
    %332 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%330 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_184: bf16, %out_125: f32):
      %333 = arith.extf %in_184 : bf16 to f32
      linalg.yield %333 : f32
    } -> tensor<1x256xf32>
    %expanded_49 = tensor.expand_shape %blk.1.attn_output.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %334 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_49 : tensor<8x32x256xi8>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_185: i8, %out_126: f32):
      %335 = arith.sitofp %in_185 : i8 to f32
      linalg.yield %335 : f32
    } -> tensor<8x32x256xf32>
    %336 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_output.weight__q8_scale : tensor<8x256xf16>) outs(%59 : tensor<8x256xf32>) {
    ^bb0(%in_186: f16, %out_127: f32):
      %337 = arith.extf %in_186 : f16 to f32
      linalg.yield %337 : f32
    } -> tensor<8x256xf32>
    %expanded_50 = tensor.expand_shape %336 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %338 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%334, %expanded_50 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_187: f32, %in_188: f32, %out_128: f32):
      %339 = arith.mulf %in_187, %in_188 : f32
      linalg.yield %339 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_29 = tensor.collapse_shape %338 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %340 = linalg.matmul ins(%332, %collapsed_29 : tensor<1x256xf32>, tensor<256x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %341 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%241, %340 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_189: f32, %in_190: f32, %out_129: f32):
      %342 = arith.addf %in_189, %in_190 : f32
      linalg.yield %342 : f32
    } -> tensor<1x256xf32>
    %343 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%341, %341 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_191: f32, %in_192: f32, %out_130: f32):
      %344 = arith.mulf %in_191, %in_192 : f32
      linalg.yield %344 : f32
    } -> tensor<1x256xf32>
    %345 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%343 : tensor<1x256xf32>) outs(%37 : tensor<1x1xf32>) {
    ^bb0(%in_193: f32, %out_131: f32):
      %346 = arith.addf %in_193, %out_131 : f32
      linalg.yield %346 : f32
    } -> tensor<1x1xf32>
    %347 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%345 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_194: f32, %out_132: f32):
      %348 = arith.divf %in_194, %cst_6 : f32
      linalg.yield %348 : f32
    } -> tensor<1x1xf32>
    %349 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%347 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_195: f32, %out_133: f32):
      %350 = arith.truncf %cst_4 : f64 to f32
      %351 = arith.addf %in_195, %350 : f32
      linalg.yield %351 : f32
    } -> tensor<1x1xf32>
    %352 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%349 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_196: f32, %out_134: f32):
      %353 = math.rsqrt %in_196 : f32
      linalg.yield %353 : f32
    } -> tensor<1x1xf32>
    %354 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%341, %352 : tensor<1x256xf32>, tensor<1x1xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_197: f32, %in_198: f32, %out_135: f32):
      %355 = arith.mulf %in_197, %in_198 : f32
      linalg.yield %355 : f32
    } -> tensor<1x256xf32>
    %356 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%354, %blk.1.ffn_norm.weight : tensor<1x256xf32>, tensor<256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_199: f32, %in_200: f32, %out_136: f32):
      %357 = arith.mulf %in_199, %in_200 : f32
      linalg.yield %357 : f32
    } -> tensor<1x256xf32>
    %358 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%356 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_201: f32, %out_137: bf16):
      %359 = arith.truncf %in_201 : f32 to bf16
      linalg.yield %359 : bf16
    } -> tensor<1x256xbf16>
    %360 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%358 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_202: bf16, %out_138: f32):
      %361 = arith.extf %in_202 : bf16 to f32
      linalg.yield %361 : f32
    } -> tensor<1x256xf32>
    %expanded_51 = tensor.expand_shape %blk.1.ffn_gate.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %362 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_51 : tensor<8x32x512xi8>) outs(%199 : tensor<8x32x512xf32>) {
    ^bb0(%in_203: i8, %out_139: f32):
      %363 = arith.sitofp %in_203 : i8 to f32
      linalg.yield %363 : f32
    } -> tensor<8x32x512xf32>
    %364 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_gate.weight__q8_scale : tensor<8x512xf16>) outs(%202 : tensor<8x512xf32>) {
    ^bb0(%in_204: f16, %out_140: f32):
      %365 = arith.extf %in_204 : f16 to f32
      linalg.yield %365 : f32
    } -> tensor<8x512xf32>
    %expanded_52 = tensor.expand_shape %364 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %366 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%362, %expanded_52 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%199 : tensor<8x32x512xf32>) {
    ^bb0(%in_205: f32, %in_206: f32, %out_141: f32):
      %367 = arith.mulf %in_205, %in_206 : f32
      linalg.yield %367 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_30 = tensor.collapse_shape %366 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %368 = linalg.matmul ins(%360, %collapsed_30 : tensor<1x256xf32>, tensor<256x512xf32>) outs(%208 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %expanded_53 = tensor.expand_shape %blk.1.ffn_up.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %369 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_53 : tensor<8x32x512xi8>) outs(%199 : tensor<8x32x512xf32>) {
    ^bb0(%in_207: i8, %out_142: f32):
      %370 = arith.sitofp %in_207 : i8 to f32
      linalg.yield %370 : f32
    } -> tensor<8x32x512xf32>
    %371 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_up.weight__q8_scale : tensor<8x512xf16>) outs(%202 : tensor<8x512xf32>) {
    ^bb0(%in_208: f16, %out_143: f32):
      %372 = arith.extf %in_208 : f16 to f32
      linalg.yield %372 : f32
    } -> tensor<8x512xf32>
    %expanded_54 = tensor.expand_shape %371 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %373 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%369, %expanded_54 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%199 : tensor<8x32x512xf32>) {
    ^bb0(%in_209: f32, %in_210: f32, %out_144: f32):
      %374 = arith.mulf %in_209, %in_210 : f32
      linalg.yield %374 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_31 = tensor.collapse_shape %373 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %375 = linalg.matmul ins(%360, %collapsed_31 : tensor<1x256xf32>, tensor<256x512xf32>) outs(%208 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %376 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%368 : tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_211: f32, %out_145: f32):
      %377 = arith.negf %in_211 : f32
      linalg.yield %377 : f32
    } -> tensor<1x512xf32>
    %378 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%376 : tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_212: f32, %out_146: f32):
      %379 = math.exp %in_212 : f32
      linalg.yield %379 : f32
    } -> tensor<1x512xf32>
    %380 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%378 : tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_213: f32, %out_147: f32):
      %381 = arith.addf %in_213, %cst_8 : f32
      linalg.yield %381 : f32
    } -> tensor<1x512xf32>
    %382 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%368, %380 : tensor<1x512xf32>, tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_214: f32, %in_215: f32, %out_148: f32):
      %383 = arith.divf %in_214, %in_215 : f32
      linalg.yield %383 : f32
    } -> tensor<1x512xf32>
    %384 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%382, %375 : tensor<1x512xf32>, tensor<1x512xf32>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_216: f32, %in_217: f32, %out_149: f32):
      %385 = arith.mulf %in_216, %in_217 : f32
      linalg.yield %385 : f32
    } -> tensor<1x512xf32>
    %386 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%384 : tensor<1x512xf32>) outs(%227 : tensor<1x512xbf16>) {
    ^bb0(%in_218: f32, %out_150: bf16):
      %387 = arith.truncf %in_218 : f32 to bf16
      linalg.yield %387 : bf16
    } -> tensor<1x512xbf16>
    %388 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%386 : tensor<1x512xbf16>) outs(%207 : tensor<1x512xf32>) {
    ^bb0(%in_219: bf16, %out_151: f32):
      %389 = arith.extf %in_219 : bf16 to f32
      linalg.yield %389 : f32
    } -> tensor<1x512xf32>
    %expanded_55 = tensor.expand_shape %blk.1.ffn_down.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [16, 32, 256] : tensor<512x256xi8> into tensor<16x32x256xi8>
    %390 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_55 : tensor<16x32x256xi8>) outs(%232 : tensor<16x32x256xf32>) {
    ^bb0(%in_220: i8, %out_152: f32):
      %391 = arith.sitofp %in_220 : i8 to f32
      linalg.yield %391 : f32
    } -> tensor<16x32x256xf32>
    %392 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_down.weight__q8_scale : tensor<16x256xf16>) outs(%235 : tensor<16x256xf32>) {
    ^bb0(%in_221: f16, %out_153: f32):
      %393 = arith.extf %in_221 : f16 to f32
      linalg.yield %393 : f32
    } -> tensor<16x256xf32>
    %expanded_56 = tensor.expand_shape %392 [[0 : i64], [1 : i64, 2 : i64]] output_shape [16, 1, 256] : tensor<16x256xf32> into tensor<16x1x256xf32>
    %394 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%390, %expanded_56 : tensor<16x32x256xf32>, tensor<16x1x256xf32>) outs(%232 : tensor<16x32x256xf32>) {
    ^bb0(%in_222: f32, %in_223: f32, %out_154: f32):
      %395 = arith.mulf %in_222, %in_223 : f32
      linalg.yield %395 : f32
    } -> tensor<16x32x256xf32>
    %collapsed_32 = tensor.collapse_shape %394 [[0 : i64, 1 : i64], [2 : i64]] : tensor<16x32x256xf32> into tensor<512x256xf32>
    %396 = linalg.matmul ins(%388, %collapsed_32 : tensor<1x512xf32>, tensor<512x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %397 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%341, %396 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_224: f32, %in_225: f32, %out_155: f32):
      %398 = arith.addf %in_224, %in_225 : f32
      linalg.yield %398 : f32
    } -> tensor<1x256xf32>
    %399 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%397, %397 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_226: f32, %in_227: f32, %out_156: f32):
      %400 = arith.mulf %in_226, %in_227 : f32
      linalg.yield %400 : f32
    } -> tensor<1x256xf32>
    %401 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%399 : tensor<1x256xf32>) outs(%37 : tensor<1x1xf32>) {
    ^bb0(%in_228: f32, %out_157: f32):
      %402 = arith.addf %in_228, %out_157 : f32
      linalg.yield %402 : f32
    } -> tensor<1x1xf32>
    %403 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%401 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_229: f32, %out_158: f32):
      %404 = arith.divf %in_229, %cst_6 : f32
      linalg.yield %404 : f32
    } -> tensor<1x1xf32>
    %405 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%403 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_230: f32, %out_159: f32):
      %406 = arith.truncf %cst_4 : f64 to f32
      %407 = arith.addf %in_230, %406 : f32
      linalg.yield %407 : f32
    } -> tensor<1x1xf32>
    %408 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%405 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_231: f32, %out_160: f32):
      %409 = math.rsqrt %in_231 : f32
      linalg.yield %409 : f32
    } -> tensor<1x1xf32>
    %410 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%397, %408 : tensor<1x256xf32>, tensor<1x1xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_232: f32, %in_233: f32, %out_161: f32):
      %411 = arith.mulf %in_232, %in_233 : f32
      linalg.yield %411 : f32
    } -> tensor<1x256xf32>
    %412 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%410, %output_norm.weight : tensor<1x256xf32>, tensor<256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_234: f32, %in_235: f32, %out_162: f32):
      %413 = arith.mulf %in_234, %in_235 : f32
      linalg.yield %413 : f32
    } -> tensor<1x256xf32>
    %414 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%412 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_236: f32, %out_163: bf16):
      %415 = arith.truncf %in_236 : f32 to bf16
      linalg.yield %415 : bf16
    } -> tensor<1x256xbf16>
    %416 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%414 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_237: bf16, %out_164: f32):
      %417 = arith.extf %in_237 : bf16 to f32
      linalg.yield %417 : f32
    } -> tensor<1x256xf32>
    %expanded_57 = tensor.expand_shape %token_embd.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 320] : tensor<256x320xi8> into tensor<8x32x320xi8>
    %418 = tensor.empty() : tensor<8x32x320xf32>
    %419 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_57 : tensor<8x32x320xi8>) outs(%418 : tensor<8x32x320xf32>) {
    ^bb0(%in_238: i8, %out_165: f32):
      %420 = arith.sitofp %in_238 : i8 to f32
      linalg.yield %420 : f32
    } -> tensor<8x32x320xf32>
    %421 = tensor.empty() : tensor<8x320xf32>
    %422 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%token_embd.weight__q8_scale : tensor<8x320xf16>) outs(%421 : tensor<8x320xf32>) {
    ^bb0(%in_239: f16, %out_166: f32):
      %423 = arith.extf %in_239 : f16 to f32
      linalg.yield %423 : f32
    } -> tensor<8x320xf32>
    %expanded_58 = tensor.expand_shape %422 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 320] : tensor<8x320xf32> into tensor<8x1x320xf32>
    %424 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%419, %expanded_58 : tensor<8x32x320xf32>, tensor<8x1x320xf32>) outs(%418 : tensor<8x32x320xf32>) {
    ^bb0(%in_240: f32, %in_241: f32, %out_167: f32):
      %425 = arith.mulf %in_240, %in_241 : f32
      linalg.yield %425 : f32
    } -> tensor<8x32x320xf32>
    %collapsed_33 = tensor.collapse_shape %424 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x320xf32> into tensor<256x320xf32>
    %426 = tensor.empty() : tensor<1x320xf32>
    %427 = linalg.fill ins(%cst : f32) outs(%426 : tensor<1x320xf32>) -> tensor<1x320xf32>
    %428 = linalg.matmul ins(%416, %collapsed_33 : tensor<1x256xf32>, tensor<256x320xf32>) outs(%427 : tensor<1x320xf32>) -> tensor<1x320xf32>
    func.return %428, %inserted_slice, %inserted_slice_1, %inserted_slice_2, %inserted_slice_3 : tensor<1x320xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>
  }
}
