// 2 layers, d_model 256, 4 heads (2 KV heads of 64), FFN 512, vocabulary 320; prefill of 3 tokens, cache of 24 positions; exported by torch-mlir from xdsl_spatial.frontends.torch_llama
builtin.module {
  func.func @prefill(%tokens: tensor<3xi32>, %pos: tensor<1xi32>, %token_embd.weight__q8: tensor<256x320xi8>, %token_embd.weight__q8_scale: tensor<8x320xf16>, %blk.0.attn_q.weight__q8: tensor<256x256xi8>, %blk.0.attn_q.weight__q8_scale: tensor<8x256xf16>, %blk.0.attn_k.weight__q8: tensor<256x128xi8>, %blk.0.attn_k.weight__q8_scale: tensor<8x128xf16>, %blk.0.attn_v.weight__q8: tensor<256x128xi8>, %blk.0.attn_v.weight__q8_scale: tensor<8x128xf16>, %blk.0.attn_output.weight__q8: tensor<256x256xi8>, %blk.0.attn_output.weight__q8_scale: tensor<8x256xf16>, %blk.0.ffn_gate.weight__q8: tensor<256x512xi8>, %blk.0.ffn_gate.weight__q8_scale: tensor<8x512xf16>, %blk.0.ffn_up.weight__q8: tensor<256x512xi8>, %blk.0.ffn_up.weight__q8_scale: tensor<8x512xf16>, %blk.0.ffn_down.weight__q8: tensor<512x256xi8>, %blk.0.ffn_down.weight__q8_scale: tensor<16x256xf16>, %blk.1.attn_q.weight__q8: tensor<256x256xi8>, %blk.1.attn_q.weight__q8_scale: tensor<8x256xf16>, %blk.1.attn_k.weight__q8: tensor<256x128xi8>, %blk.1.attn_k.weight__q8_scale: tensor<8x128xf16>, %blk.1.attn_v.weight__q8: tensor<256x128xi8>, %blk.1.attn_v.weight__q8_scale: tensor<8x128xf16>, %blk.1.attn_output.weight__q8: tensor<256x256xi8>, %blk.1.attn_output.weight__q8_scale: tensor<8x256xf16>, %blk.1.ffn_gate.weight__q8: tensor<256x512xi8>, %blk.1.ffn_gate.weight__q8_scale: tensor<8x512xf16>, %blk.1.ffn_up.weight__q8: tensor<256x512xi8>, %blk.1.ffn_up.weight__q8_scale: tensor<8x512xf16>, %blk.1.ffn_down.weight__q8: tensor<512x256xi8>, %blk.1.ffn_down.weight__q8_scale: tensor<16x256xf16>, %blk.0.attn_norm.weight: tensor<256xf32>, %blk.0.ffn_norm.weight: tensor<256xf32>, %blk.1.attn_norm.weight: tensor<256xf32>, %blk.1.ffn_norm.weight: tensor<256xf32>, %output_norm.weight: tensor<256xf32>, %blk.0.cache_k: tensor<2x64x24xf32>, %blk.0.cache_v: tensor<2x24x64xf32>, %blk.1.cache_k: tensor<2x64x24xf32>, %blk.1.cache_v: tensor<2x24x64xf32>) -> (tensor<3x320xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>) {
    %c24_i64 = arith.constant 24 : i64
    %c21_i64 = arith.constant 21 : i64
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xff800000 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<-3.40282347e+38> : tensor<f32>
    %cst_4 = arith.constant 1.000000e-05 : f64
    %cst_5 = arith.constant dense<[1.000000e+00, 0.749894202, 0.562341332, 0.421696514, 0.316227764, 0.237137377, 0.177827939, 0.133352146, 1.000000e-01, 0.0749894232, 0.0562341325, 0.0421696492, 0.0316227749, 0.0237137377, 0.0177827943, 0.013335214, 1.000000e-02, 0.00749894232, 0.00562341325, 0.00421696482, 0.00316227763, 0.00237137382, 0.00177827943, 0.00133352145, 1.000000e-03, 0.000749894185, 0.000562341302, 0.000421696517, 0.000316227757, 0.00023713737, 0.00017782794, 0.00013335215]> : tensor<32xf32>
    %cst_6 = arith.constant 2.560000e+02 : f32
    %cst_7 = arith.constant 1.250000e-01 : f32
    %cst_8 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<3xi32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%0 : tensor<3xi32>) {
    ^bb0(%out: i32):
      %2 = linalg.index 0 : index
      %3 = arith.index_cast %2 : index to i64
      %4 = arith.trunci %3 : i64 to i32
      linalg.yield %4 : i32
    } -> tensor<3xi32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%pos, %1 : tensor<1xi32>, tensor<3xi32>) outs(%0 : tensor<3xi32>) {
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
    %extracted_2 = tensor.extract %pos[%c0] : tensor<1xi32>
    %119 = arith.extsi %extracted_2 : i32 to i64
    %120 = arith.cmpi sge, %119, %c0_i64 : i64
    cf.assert %120, "Runtime assertion failed for expression u0 >= 0 on node 'ge_1'"
    %121 = arith.cmpi sle, %119, %c21_i64 : i64
    cf.assert %121, "Runtime assertion failed for expression u0 <= 21 on node 'le_3'"
    %122 = arith.addi %119, %c24_i64 : i64
    %123 = arith.cmpi sge, %119, %c0_i64 : i64
    %124 = arith.select %123, %119, %122 : i64
    %125 = arith.maxsi %124, %c0_i64 : i64
    %126 = arith.minsi %125, %c24_i64 : i64
    %127 = arith.index_cast %126 : i64 to index
    %inserted_slice = tensor.insert_slice %transposed_2 into %blk.0.cache_k[0, 0, %127] [2, 64, 3] [1, 1, 1] : tensor<2x64x3xf32> into tensor<2x64x24xf32>
    %inserted_slice_1 = tensor.insert_slice %transposed_3 into %blk.0.cache_v[0, %127, 0] [2, 3, 64] [1, 1, 1] : tensor<2x3x64xf32> into tensor<2x24x64xf32>
    %128 = tensor.empty() : tensor<2x6x24xf32>
    %129 = linalg.fill ins(%cst : f32) outs(%128 : tensor<2x6x24xf32>) -> tensor<2x6x24xf32>
    %130 = linalg.batch_matmul ins(%collapsed_7, %inserted_slice : tensor<2x6x64xf32>, tensor<2x64x24xf32>) outs(%129 : tensor<2x6x24xf32>) -> tensor<2x6x24xf32>
    %expanded_19 = tensor.expand_shape %130 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [2, 2, 3, 24] : tensor<2x6x24xf32> into tensor<2x2x3x24xf32>
    %131 = tensor.empty() : tensor<24xi32>
    %132 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%131 : tensor<24xi32>) {
    ^bb0(%out_43: i32):
      %133 = linalg.index 0 : index
      %134 = arith.index_cast %133 : index to i64
      %135 = arith.trunci %134 : i64 to i32
      linalg.yield %135 : i32
    } -> tensor<24xi32>
    %expanded_20 = tensor.expand_shape %132 [[0 : i64, 1 : i64]] output_shape [1, 24] : tensor<24xi32> into tensor<1x24xi32>
    %expanded_21 = tensor.expand_shape %5 [[0 : i64, 1 : i64]] output_shape [3, 1] : tensor<3xi32> into tensor<3x1xi32>
    %136 = tensor.empty() : tensor<3x24xi1>
    %137 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded_20, %expanded_21 : tensor<1x24xi32>, tensor<3x1xi32>) outs(%136 : tensor<3x24xi1>) {
    ^bb0(%in_63: i32, %in_64: i32, %out_44: i1):
      %138 = arith.cmpi sle, %in_63, %in_64 : i32
      linalg.yield %138 : i1
    } -> tensor<3x24xi1>
    %139 = tensor.empty() : tensor<2x2x3x24xf32>
    %140 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%137, %expanded_19, %cst_3 : tensor<3x24xi1>, tensor<2x2x3x24xf32>, tensor<f32>) outs(%139 : tensor<2x2x3x24xf32>) {
    ^bb0(%in_65: i1, %in_66: f32, %in_67: f32, %out_45: f32):
      %141 = arith.select %in_65, %in_66, %in_67 : f32
      linalg.yield %141 : f32
    } -> tensor<2x2x3x24xf32>
    %142 = tensor.empty() : tensor<2x2x3xi64>
    %143 = linalg.fill ins(%c0_i64 : i64) outs(%142 : tensor<2x2x3xi64>) -> tensor<2x2x3xi64>
    %144 = tensor.empty() : tensor<2x2x3xf32>
    %145 = linalg.fill ins(%cst_1 : f32) outs(%144 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
    %146, %147 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%140 : tensor<2x2x3x24xf32>) outs(%145, %143 : tensor<2x2x3xf32>, tensor<2x2x3xi64>) {
    ^bb0(%in_68: f32, %out_46: f32, %out_47: i64):
      %148 = linalg.index 3 : index
      %149 = arith.index_cast %148 : index to i64
      %150 = arith.maximumf %in_68, %out_46 : f32
      %151 = arith.cmpf ogt, %in_68, %out_46 : f32
      %152 = arith.select %151, %149, %out_47 : i64
      linalg.yield %150, %152 : f32, i64
    } -> (tensor<2x2x3xf32>, tensor<2x2x3xi64>)
    %expanded_22 = tensor.expand_shape %146 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 3, 1] : tensor<2x2x3xf32> into tensor<2x2x3x1xf32>
    %153 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_19, %expanded_22 : tensor<2x2x3x24xf32>, tensor<2x2x3x1xf32>) outs(%139 : tensor<2x2x3x24xf32>) {
    ^bb0(%in_69: f32, %in_70: f32, %out_48: f32):
      %154 = arith.subf %in_69, %in_70 : f32
      linalg.yield %154 : f32
    } -> tensor<2x2x3x24xf32>
    %155 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%153 : tensor<2x2x3x24xf32>) outs(%139 : tensor<2x2x3x24xf32>) {
    ^bb0(%in_71: f32, %out_49: f32):
      %156 = math.exp %in_71 : f32
      linalg.yield %156 : f32
    } -> tensor<2x2x3x24xf32>
    %157 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%137, %155, %cst_2 : tensor<3x24xi1>, tensor<2x2x3x24xf32>, tensor<f32>) outs(%139 : tensor<2x2x3x24xf32>) {
    ^bb0(%in_72: i1, %in_73: f32, %in_74: f32, %out_50: f32):
      %158 = arith.select %in_72, %in_73, %in_74 : f32
      linalg.yield %158 : f32
    } -> tensor<2x2x3x24xf32>
    %159 = tensor.empty() : tensor<2x2x3x1xf32>
    %160 = linalg.fill ins(%cst : f32) outs(%159 : tensor<2x2x3x1xf32>) -> tensor<2x2x3x1xf32>
    %161 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%157 : tensor<2x2x3x24xf32>) outs(%160 : tensor<2x2x3x1xf32>) {
    ^bb0(%in_75: f32, %out_51: f32):
      %162 = arith.addf %in_75, %out_51 : f32
      linalg.yield %162 : f32
    } -> tensor<2x2x3x1xf32>
    %collapsed_11 = tensor.collapse_shape %157 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] : tensor<2x2x3x24xf32> into tensor<2x6x24xf32>
    %163 = tensor.empty() : tensor<2x6x64xf32>
    %164 = linalg.fill ins(%cst : f32) outs(%163 : tensor<2x6x64xf32>) -> tensor<2x6x64xf32>
    %165 = linalg.batch_matmul ins(%collapsed_11, %inserted_slice_1 : tensor<2x6x24xf32>, tensor<2x24x64xf32>) outs(%164 : tensor<2x6x64xf32>) -> tensor<2x6x64xf32>
    %expanded_23 = tensor.expand_shape %165 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [2, 2, 3, 64] : tensor<2x6x64xf32> into tensor<2x2x3x64xf32>
    %166 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_23, %161 : tensor<2x2x3x64xf32>, tensor<2x2x3x1xf32>) outs(%103 : tensor<2x2x3x64xf32>) {
    ^bb0(%in_76: f32, %in_77: f32, %out_52: f32):
      %167 = arith.divf %in_76, %in_77 : f32
      linalg.yield %167 : f32
    } -> tensor<2x2x3x64xf32>
    %168 = tensor.empty() : tensor<3x2x2x64xf32>
    %transposed_4 = linalg.transpose ins(%166:tensor<2x2x3x64xf32>) outs(%168:tensor<3x2x2x64xf32>) permutation = [2, 0, 1, 3]
    %collapsed_12 = tensor.collapse_shape %transposed_4 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<3x2x2x64xf32> into tensor<3x256xf32>
    %169 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%collapsed_12 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_78: f32, %out_53: bf16):
      %170 = arith.truncf %in_78 : f32 to bf16
      linalg.yield %170 : bf16
    } -> tensor<3x256xbf16>
    %171 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%169 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_79: bf16, %out_54: f32):
      %172 = arith.extf %in_79 : bf16 to f32
      linalg.yield %172 : f32
    } -> tensor<3x256xf32>
    %expanded_24 = tensor.expand_shape %blk.0.attn_output.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %173 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24 : tensor<8x32x256xi8>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_80: i8, %out_55: f32):
      %174 = arith.sitofp %in_80 : i8 to f32
      linalg.yield %174 : f32
    } -> tensor<8x32x256xf32>
    %175 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_output.weight__q8_scale : tensor<8x256xf16>) outs(%62 : tensor<8x256xf32>) {
    ^bb0(%in_81: f16, %out_56: f32):
      %176 = arith.extf %in_81 : f16 to f32
      linalg.yield %176 : f32
    } -> tensor<8x256xf32>
    %expanded_25 = tensor.expand_shape %175 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %177 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%173, %expanded_25 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_82: f32, %in_83: f32, %out_57: f32):
      %178 = arith.mulf %in_82, %in_83 : f32
      linalg.yield %178 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_13 = tensor.collapse_shape %177 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %179 = linalg.matmul ins(%171, %collapsed_13 : tensor<3x256xf32>, tensor<256x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %180 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed, %179 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_84: f32, %in_85: f32, %out_58: f32):
      %181 = arith.addf %in_84, %in_85 : f32
      linalg.yield %181 : f32
    } -> tensor<3x256xf32>
    %182 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%180, %180 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_86: f32, %in_87: f32, %out_59: f32):
      %183 = arith.mulf %in_86, %in_87 : f32
      linalg.yield %183 : f32
    } -> tensor<3x256xf32>
    %184 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%182 : tensor<3x256xf32>) outs(%40 : tensor<3x1xf32>) {
    ^bb0(%in_88: f32, %out_60: f32):
      %185 = arith.addf %in_88, %out_60 : f32
      linalg.yield %185 : f32
    } -> tensor<3x1xf32>
    %186 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%184 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_89: f32, %out_61: f32):
      %187 = arith.divf %in_89, %cst_6 : f32
      linalg.yield %187 : f32
    } -> tensor<3x1xf32>
    %188 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%186 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_90: f32, %out_62: f32):
      %189 = arith.truncf %cst_4 : f64 to f32
      %190 = arith.addf %in_90, %189 : f32
      linalg.yield %190 : f32
    } -> tensor<3x1xf32>
    %191 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%188 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_91: f32, %out_63: f32):
      %192 = math.rsqrt %in_91 : f32
      linalg.yield %192 : f32
    } -> tensor<3x1xf32>
    %193 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%180, %191 : tensor<3x256xf32>, tensor<3x1xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_92: f32, %in_93: f32, %out_64: f32):
      %194 = arith.mulf %in_92, %in_93 : f32
      linalg.yield %194 : f32
    } -> tensor<3x256xf32>
    %195 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%193, %blk.0.ffn_norm.weight : tensor<3x256xf32>, tensor<256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_94: f32, %in_95: f32, %out_65: f32):
      %196 = arith.mulf %in_94, %in_95 : f32
      linalg.yield %196 : f32
    } -> tensor<3x256xf32>
    %197 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%195 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_96: f32, %out_66: bf16):
      %198 = arith.truncf %in_96 : f32 to bf16
      linalg.yield %198 : bf16
    } -> tensor<3x256xbf16>
    %199 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%197 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_97: bf16, %out_67: f32):
      %200 = arith.extf %in_97 : bf16 to f32
      linalg.yield %200 : f32
    } -> tensor<3x256xf32>
    %expanded_26 = tensor.expand_shape %blk.0.ffn_gate.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %201 = tensor.empty() : tensor<8x32x512xf32>
    %202 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_26 : tensor<8x32x512xi8>) outs(%201 : tensor<8x32x512xf32>) {
    ^bb0(%in_98: i8, %out_68: f32):
      %203 = arith.sitofp %in_98 : i8 to f32
      linalg.yield %203 : f32
    } -> tensor<8x32x512xf32>
    %204 = tensor.empty() : tensor<8x512xf32>
    %205 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_gate.weight__q8_scale : tensor<8x512xf16>) outs(%204 : tensor<8x512xf32>) {
    ^bb0(%in_99: f16, %out_69: f32):
      %206 = arith.extf %in_99 : f16 to f32
      linalg.yield %206 : f32
    } -> tensor<8x512xf32>
    %expanded_27 = tensor.expand_shape %205 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %207 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%202, %expanded_27 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%201 : tensor<8x32x512xf32>) {
    ^bb0(%in_100: f32, %in_101: f32, %out_70: f32):
      %208 = arith.mulf %in_100, %in_101 : f32
      linalg.yield %208 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_14 = tensor.collapse_shape %207 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %209 = tensor.empty() : tensor<3x512xf32>
    %210 = linalg.fill ins(%cst : f32) outs(%209 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %211 = linalg.matmul ins(%199, %collapsed_14 : tensor<3x256xf32>, tensor<256x512xf32>) outs(%210 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %expanded_28 = tensor.expand_shape %blk.0.ffn_up.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %212 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_28 : tensor<8x32x512xi8>) outs(%201 : tensor<8x32x512xf32>) {
    ^bb0(%in_102: i8, %out_71: f32):
      %213 = arith.sitofp %in_102 : i8 to f32
      linalg.yield %213 : f32
    } -> tensor<8x32x512xf32>
    %214 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_up.weight__q8_scale : tensor<8x512xf16>) outs(%204 : tensor<8x512xf32>) {
    ^bb0(%in_103: f16, %out_72: f32):
      %215 = arith.extf %in_103 : f16 to f32
      linalg.yield %215 : f32
    } -> tensor<8x512xf32>
    %expanded_29 = tensor.expand_shape %214 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %216 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%212, %expanded_29 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%201 : tensor<8x32x512xf32>) {
    ^bb0(%in_104: f32, %in_105: f32, %out_73: f32):
      %217 = arith.mulf %in_104, %in_105 : f32
      linalg.yield %217 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_15 = tensor.collapse_shape %216 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %218 = linalg.matmul ins(%199, %collapsed_15 : tensor<3x256xf32>, tensor<256x512xf32>) outs(%210 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %219 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%211 : tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_106: f32, %out_74: f32):
      %220 = arith.negf %in_106 : f32
      linalg.yield %220 : f32
    } -> tensor<3x512xf32>
    %221 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%219 : tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_107: f32, %out_75: f32):
      %222 = math.exp %in_107 : f32
      linalg.yield %222 : f32
    } -> tensor<3x512xf32>
    %223 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%221 : tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_108: f32, %out_76: f32):
      %224 = arith.addf %in_108, %cst_8 : f32
      linalg.yield %224 : f32
    } -> tensor<3x512xf32>
    %225 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%211, %223 : tensor<3x512xf32>, tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_109: f32, %in_110: f32, %out_77: f32):
      %226 = arith.divf %in_109, %in_110 : f32
      linalg.yield %226 : f32
    } -> tensor<3x512xf32>
    %227 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%225, %218 : tensor<3x512xf32>, tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_111: f32, %in_112: f32, %out_78: f32):
      %228 = arith.mulf %in_111, %in_112 : f32
      linalg.yield %228 : f32
    } -> tensor<3x512xf32>
    %229 = tensor.empty() : tensor<3x512xbf16>
    %230 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%227 : tensor<3x512xf32>) outs(%229 : tensor<3x512xbf16>) {
    ^bb0(%in_113: f32, %out_79: bf16):
      %231 = arith.truncf %in_113 : f32 to bf16
      linalg.yield %231 : bf16
    } -> tensor<3x512xbf16>
    %232 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%230 : tensor<3x512xbf16>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_114: bf16, %out_80: f32):
      %233 = arith.extf %in_114 : bf16 to f32
      linalg.yield %233 : f32
    } -> tensor<3x512xf32>
    %expanded_30 = tensor.expand_shape %blk.0.ffn_down.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [16, 32, 256] : tensor<512x256xi8> into tensor<16x32x256xi8>
    %234 = tensor.empty() : tensor<16x32x256xf32>
    %235 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_30 : tensor<16x32x256xi8>) outs(%234 : tensor<16x32x256xf32>) {
    ^bb0(%in_115: i8, %out_81: f32):
      %236 = arith.sitofp %in_115 : i8 to f32
      linalg.yield %236 : f32
    } -> tensor<16x32x256xf32>
    %237 = tensor.empty() : tensor<16x256xf32>
    %238 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_down.weight__q8_scale : tensor<16x256xf16>) outs(%237 : tensor<16x256xf32>) {
    ^bb0(%in_116: f16, %out_82: f32):
      %239 = arith.extf %in_116 : f16 to f32
      linalg.yield %239 : f32
    } -> tensor<16x256xf32>
    %expanded_31 = tensor.expand_shape %238 [[0 : i64], [1 : i64, 2 : i64]] output_shape [16, 1, 256] : tensor<16x256xf32> into tensor<16x1x256xf32>
    %240 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%235, %expanded_31 : tensor<16x32x256xf32>, tensor<16x1x256xf32>) outs(%234 : tensor<16x32x256xf32>) {
    ^bb0(%in_117: f32, %in_118: f32, %out_83: f32):
      %241 = arith.mulf %in_117, %in_118 : f32
      linalg.yield %241 : f32
    } -> tensor<16x32x256xf32>
    %collapsed_16 = tensor.collapse_shape %240 [[0 : i64, 1 : i64], [2 : i64]] : tensor<16x32x256xf32> into tensor<512x256xf32>
    %242 = linalg.matmul ins(%232, %collapsed_16 : tensor<3x512xf32>, tensor<512x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %243 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%180, %242 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_119: f32, %in_120: f32, %out_84: f32):
      %244 = arith.addf %in_119, %in_120 : f32
      linalg.yield %244 : f32
    } -> tensor<3x256xf32>
    %245 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%243, %243 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_121: f32, %in_122: f32, %out_85: f32):
      %246 = arith.mulf %in_121, %in_122 : f32
      linalg.yield %246 : f32
    } -> tensor<3x256xf32>
    %247 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%245 : tensor<3x256xf32>) outs(%40 : tensor<3x1xf32>) {
    ^bb0(%in_123: f32, %out_86: f32):
      %248 = arith.addf %in_123, %out_86 : f32
      linalg.yield %248 : f32
    } -> tensor<3x1xf32>
    %249 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%247 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_124: f32, %out_87: f32):
      %250 = arith.divf %in_124, %cst_6 : f32
      linalg.yield %250 : f32
    } -> tensor<3x1xf32>
    %251 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%249 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_125: f32, %out_88: f32):
      %252 = arith.truncf %cst_4 : f64 to f32
      %253 = arith.addf %in_125, %252 : f32
      linalg.yield %253 : f32
    } -> tensor<3x1xf32>
    %254 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%251 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_126: f32, %out_89: f32):
      %255 = math.rsqrt %in_126 : f32
      linalg.yield %255 : f32
    } -> tensor<3x1xf32>
    %256 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%243, %254 : tensor<3x256xf32>, tensor<3x1xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_127: f32, %in_128: f32, %out_90: f32):
      %257 = arith.mulf %in_127, %in_128 : f32
      linalg.yield %257 : f32
    } -> tensor<3x256xf32>
    %258 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%256, %blk.1.attn_norm.weight : tensor<3x256xf32>, tensor<256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_129: f32, %in_130: f32, %out_91: f32):
      %259 = arith.mulf %in_129, %in_130 : f32
      linalg.yield %259 : f32
    } -> tensor<3x256xf32>
    %260 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%258 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_131: f32, %out_92: bf16):
      %261 = arith.truncf %in_131 : f32 to bf16
      linalg.yield %261 : bf16
    } -> tensor<3x256xbf16>
    %262 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%260 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_132: bf16, %out_93: f32):
      %263 = arith.extf %in_132 : bf16 to f32
      linalg.yield %263 : f32
    } -> tensor<3x256xf32>
    %expanded_32 = tensor.expand_shape %blk.1.attn_q.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %264 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_32 : tensor<8x32x256xi8>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_133: i8, %out_94: f32):
      %265 = arith.sitofp %in_133 : i8 to f32
      linalg.yield %265 : f32
    } -> tensor<8x32x256xf32>
    %266 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_q.weight__q8_scale : tensor<8x256xf16>) outs(%62 : tensor<8x256xf32>) {
    ^bb0(%in_134: f16, %out_95: f32):
      %267 = arith.extf %in_134 : f16 to f32
      linalg.yield %267 : f32
    } -> tensor<8x256xf32>
    %expanded_33 = tensor.expand_shape %266 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %268 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%264, %expanded_33 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_135: f32, %in_136: f32, %out_96: f32):
      %269 = arith.mulf %in_135, %in_136 : f32
      linalg.yield %269 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_17 = tensor.collapse_shape %268 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %270 = linalg.matmul ins(%262, %collapsed_17 : tensor<3x256xf32>, tensor<256x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %expanded_34 = tensor.expand_shape %blk.1.attn_k.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %271 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34 : tensor<8x32x128xi8>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_137: i8, %out_97: f32):
      %272 = arith.sitofp %in_137 : i8 to f32
      linalg.yield %272 : f32
    } -> tensor<8x32x128xf32>
    %273 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_k.weight__q8_scale : tensor<8x128xf16>) outs(%72 : tensor<8x128xf32>) {
    ^bb0(%in_138: f16, %out_98: f32):
      %274 = arith.extf %in_138 : f16 to f32
      linalg.yield %274 : f32
    } -> tensor<8x128xf32>
    %expanded_35 = tensor.expand_shape %273 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %275 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%271, %expanded_35 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_139: f32, %in_140: f32, %out_99: f32):
      %276 = arith.mulf %in_139, %in_140 : f32
      linalg.yield %276 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_18 = tensor.collapse_shape %275 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %277 = linalg.matmul ins(%262, %collapsed_18 : tensor<3x256xf32>, tensor<256x128xf32>) outs(%78 : tensor<3x128xf32>) -> tensor<3x128xf32>
    %expanded_36 = tensor.expand_shape %blk.1.attn_v.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %278 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_36 : tensor<8x32x128xi8>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_141: i8, %out_100: f32):
      %279 = arith.sitofp %in_141 : i8 to f32
      linalg.yield %279 : f32
    } -> tensor<8x32x128xf32>
    %280 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_v.weight__q8_scale : tensor<8x128xf16>) outs(%72 : tensor<8x128xf32>) {
    ^bb0(%in_142: f16, %out_101: f32):
      %281 = arith.extf %in_142 : f16 to f32
      linalg.yield %281 : f32
    } -> tensor<8x128xf32>
    %expanded_37 = tensor.expand_shape %280 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %282 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%278, %expanded_37 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%69 : tensor<8x32x128xf32>) {
    ^bb0(%in_143: f32, %in_144: f32, %out_102: f32):
      %283 = arith.mulf %in_143, %in_144 : f32
      linalg.yield %283 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_19 = tensor.collapse_shape %282 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %284 = linalg.matmul ins(%262, %collapsed_19 : tensor<3x256xf32>, tensor<256x128xf32>) outs(%78 : tensor<3x128xf32>) -> tensor<3x128xf32>
    %expanded_38 = tensor.expand_shape %270 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [3, 4, 32, 2] : tensor<3x256xf32> into tensor<3x4x32x2xf32>
    %extracted_slice_4 = tensor.extract_slice %expanded_38[0, 0, 0, 0] [3, 4, 32, 1] [1, 1, 1, 1] : tensor<3x4x32x2xf32> to tensor<3x4x32x1xf32>
    %collapsed_20 = tensor.collapse_shape %extracted_slice_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x4x32x1xf32> into tensor<3x4x32xf32>
    %extracted_slice_5 = tensor.extract_slice %expanded_38[0, 0, 0, 1] [3, 4, 32, 1] [1, 1, 1, 1] : tensor<3x4x32x2xf32> to tensor<3x4x32x1xf32>
    %collapsed_21 = tensor.collapse_shape %extracted_slice_5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x4x32x1xf32> into tensor<3x4x32xf32>
    %285 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_20, %expanded_10 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_145: f32, %in_146: f32, %out_103: f32):
      %286 = arith.mulf %in_145, %in_146 : f32
      linalg.yield %286 : f32
    } -> tensor<3x4x32xf32>
    %287 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_21, %expanded_11 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_147: f32, %in_148: f32, %out_104: f32):
      %288 = arith.mulf %in_147, %in_148 : f32
      linalg.yield %288 : f32
    } -> tensor<3x4x32xf32>
    %289 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%285, %287 : tensor<3x4x32xf32>, tensor<3x4x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_149: f32, %in_150: f32, %out_105: f32):
      %290 = arith.subf %in_149, %in_150 : f32
      linalg.yield %290 : f32
    } -> tensor<3x4x32xf32>
    %291 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_20, %expanded_11 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_151: f32, %in_152: f32, %out_106: f32):
      %292 = arith.mulf %in_151, %in_152 : f32
      linalg.yield %292 : f32
    } -> tensor<3x4x32xf32>
    %293 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_21, %expanded_10 : tensor<3x4x32xf32>, tensor<3x1x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_153: f32, %in_154: f32, %out_107: f32):
      %294 = arith.mulf %in_153, %in_154 : f32
      linalg.yield %294 : f32
    } -> tensor<3x4x32xf32>
    %295 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%291, %293 : tensor<3x4x32xf32>, tensor<3x4x32xf32>) outs(%87 : tensor<3x4x32xf32>) {
    ^bb0(%in_155: f32, %in_156: f32, %out_108: f32):
      %296 = arith.addf %in_155, %in_156 : f32
      linalg.yield %296 : f32
    } -> tensor<3x4x32xf32>
    %expanded_39 = tensor.expand_shape %289 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 4, 32, 1] : tensor<3x4x32xf32> into tensor<3x4x32x1xf32>
    %expanded_40 = tensor.expand_shape %295 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 4, 32, 1] : tensor<3x4x32xf32> into tensor<3x4x32x1xf32>
    %concat_2 = tensor.concat dim(3) %expanded_39, %expanded_40 : (tensor<3x4x32x1xf32>, tensor<3x4x32x1xf32>) -> tensor<3x4x32x2xf32>
    %collapsed_22 = tensor.collapse_shape %concat_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x4x32x2xf32> into tensor<3x4x64xf32>
    %297 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_22 : tensor<3x4x64xf32>) outs(%100 : tensor<3x4x64xf32>) {
    ^bb0(%in_157: f32, %out_109: f32):
      %298 = arith.mulf %in_157, %cst_7 : f32
      linalg.yield %298 : f32
    } -> tensor<3x4x64xf32>
    %expanded_41 = tensor.expand_shape %297 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [3, 2, 2, 64] : tensor<3x4x64xf32> into tensor<3x2x2x64xf32>
    %transposed_5 = linalg.transpose ins(%expanded_41:tensor<3x2x2x64xf32>) outs(%103:tensor<2x2x3x64xf32>) permutation = [1, 2, 0, 3]
    %collapsed_23 = tensor.collapse_shape %transposed_5 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] : tensor<2x2x3x64xf32> into tensor<2x6x64xf32>
    %expanded_42 = tensor.expand_shape %277 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [3, 2, 32, 2] : tensor<3x128xf32> into tensor<3x2x32x2xf32>
    %extracted_slice_6 = tensor.extract_slice %expanded_42[0, 0, 0, 0] [3, 2, 32, 1] [1, 1, 1, 1] : tensor<3x2x32x2xf32> to tensor<3x2x32x1xf32>
    %collapsed_24 = tensor.collapse_shape %extracted_slice_6 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x2x32x1xf32> into tensor<3x2x32xf32>
    %extracted_slice_7 = tensor.extract_slice %expanded_42[0, 0, 0, 1] [3, 2, 32, 1] [1, 1, 1, 1] : tensor<3x2x32x2xf32> to tensor<3x2x32x1xf32>
    %collapsed_25 = tensor.collapse_shape %extracted_slice_7 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x2x32x1xf32> into tensor<3x2x32xf32>
    %299 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_24, %expanded_10 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_158: f32, %in_159: f32, %out_110: f32):
      %300 = arith.mulf %in_158, %in_159 : f32
      linalg.yield %300 : f32
    } -> tensor<3x2x32xf32>
    %301 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_25, %expanded_11 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_160: f32, %in_161: f32, %out_111: f32):
      %302 = arith.mulf %in_160, %in_161 : f32
      linalg.yield %302 : f32
    } -> tensor<3x2x32xf32>
    %303 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%299, %301 : tensor<3x2x32xf32>, tensor<3x2x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_162: f32, %in_163: f32, %out_112: f32):
      %304 = arith.subf %in_162, %in_163 : f32
      linalg.yield %304 : f32
    } -> tensor<3x2x32xf32>
    %305 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_24, %expanded_11 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_164: f32, %in_165: f32, %out_113: f32):
      %306 = arith.mulf %in_164, %in_165 : f32
      linalg.yield %306 : f32
    } -> tensor<3x2x32xf32>
    %307 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_25, %expanded_10 : tensor<3x2x32xf32>, tensor<3x1x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_166: f32, %in_167: f32, %out_114: f32):
      %308 = arith.mulf %in_166, %in_167 : f32
      linalg.yield %308 : f32
    } -> tensor<3x2x32xf32>
    %309 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%305, %307 : tensor<3x2x32xf32>, tensor<3x2x32xf32>) outs(%104 : tensor<3x2x32xf32>) {
    ^bb0(%in_168: f32, %in_169: f32, %out_115: f32):
      %310 = arith.addf %in_168, %in_169 : f32
      linalg.yield %310 : f32
    } -> tensor<3x2x32xf32>
    %expanded_43 = tensor.expand_shape %303 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 2, 32, 1] : tensor<3x2x32xf32> into tensor<3x2x32x1xf32>
    %expanded_44 = tensor.expand_shape %309 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [3, 2, 32, 1] : tensor<3x2x32xf32> into tensor<3x2x32x1xf32>
    %concat_3 = tensor.concat dim(3) %expanded_43, %expanded_44 : (tensor<3x2x32x1xf32>, tensor<3x2x32x1xf32>) -> tensor<3x2x32x2xf32>
    %collapsed_26 = tensor.collapse_shape %concat_3 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<3x2x32x2xf32> into tensor<3x2x64xf32>
    %transposed_6 = linalg.transpose ins(%collapsed_26:tensor<3x2x64xf32>) outs(%117:tensor<2x64x3xf32>) permutation = [1, 2, 0]
    %expanded_45 = tensor.expand_shape %284 [[0 : i64], [1 : i64, 2 : i64]] output_shape [3, 2, 64] : tensor<3x128xf32> into tensor<3x2x64xf32>
    %transposed_7 = linalg.transpose ins(%expanded_45:tensor<3x2x64xf32>) outs(%118:tensor<2x3x64xf32>) permutation = [1, 0, 2]
    %inserted_slice_2 = tensor.insert_slice %transposed_6 into %blk.1.cache_k[0, 0, %127] [2, 64, 3] [1, 1, 1] : tensor<2x64x3xf32> into tensor<2x64x24xf32>
    %inserted_slice_3 = tensor.insert_slice %transposed_7 into %blk.1.cache_v[0, %127, 0] [2, 3, 64] [1, 1, 1] : tensor<2x3x64xf32> into tensor<2x24x64xf32>
    %311 = linalg.batch_matmul ins(%collapsed_23, %inserted_slice_2 : tensor<2x6x64xf32>, tensor<2x64x24xf32>) outs(%129 : tensor<2x6x24xf32>) -> tensor<2x6x24xf32>
    %expanded_46 = tensor.expand_shape %311 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [2, 2, 3, 24] : tensor<2x6x24xf32> into tensor<2x2x3x24xf32>
    %312 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%137, %expanded_46, %cst_3 : tensor<3x24xi1>, tensor<2x2x3x24xf32>, tensor<f32>) outs(%139 : tensor<2x2x3x24xf32>) {
    ^bb0(%in_170: i1, %in_171: f32, %in_172: f32, %out_116: f32):
      %313 = arith.select %in_170, %in_171, %in_172 : f32
      linalg.yield %313 : f32
    } -> tensor<2x2x3x24xf32>
    %314, %315 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%312 : tensor<2x2x3x24xf32>) outs(%145, %143 : tensor<2x2x3xf32>, tensor<2x2x3xi64>) {
    ^bb0(%in_173: f32, %out_117: f32, %out_118: i64):
      %316 = linalg.index 3 : index
      %317 = arith.index_cast %316 : index to i64
      %318 = arith.maximumf %in_173, %out_117 : f32
      %319 = arith.cmpf ogt, %in_173, %out_117 : f32
      %320 = arith.select %319, %317, %out_118 : i64
      linalg.yield %318, %320 : f32, i64
    } -> (tensor<2x2x3xf32>, tensor<2x2x3xi64>)
    %expanded_47 = tensor.expand_shape %314 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 3, 1] : tensor<2x2x3xf32> into tensor<2x2x3x1xf32>
    %321 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_46, %expanded_47 : tensor<2x2x3x24xf32>, tensor<2x2x3x1xf32>) outs(%139 : tensor<2x2x3x24xf32>) {
    ^bb0(%in_174: f32, %in_175: f32, %out_119: f32):
      %322 = arith.subf %in_174, %in_175 : f32
      linalg.yield %322 : f32
    } -> tensor<2x2x3x24xf32>
    %323 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%321 : tensor<2x2x3x24xf32>) outs(%139 : tensor<2x2x3x24xf32>) {
    ^bb0(%in_176: f32, %out_120: f32):
      %324 = math.exp %in_176 : f32
      linalg.yield %324 : f32
    } -> tensor<2x2x3x24xf32>
    %325 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%137, %323, %cst_2 : tensor<3x24xi1>, tensor<2x2x3x24xf32>, tensor<f32>) outs(%139 : tensor<2x2x3x24xf32>) {
    ^bb0(%in_177: i1, %in_178: f32, %in_179: f32, %out_121: f32):
      %326 = arith.select %in_177, %in_178, %in_179 : f32
      linalg.yield %326 : f32
    } -> tensor<2x2x3x24xf32>
    %327 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%325 : tensor<2x2x3x24xf32>) outs(%160 : tensor<2x2x3x1xf32>) {
    ^bb0(%in_180: f32, %out_122: f32):
      %328 = arith.addf %in_180, %out_122 : f32
      linalg.yield %328 : f32
    } -> tensor<2x2x3x1xf32>
    %collapsed_27 = tensor.collapse_shape %325 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] : tensor<2x2x3x24xf32> into tensor<2x6x24xf32>
    %329 = linalg.batch_matmul ins(%collapsed_27, %inserted_slice_3 : tensor<2x6x24xf32>, tensor<2x24x64xf32>) outs(%164 : tensor<2x6x64xf32>) -> tensor<2x6x64xf32>
    %expanded_48 = tensor.expand_shape %329 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [2, 2, 3, 64] : tensor<2x6x64xf32> into tensor<2x2x3x64xf32>
    %330 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_48, %327 : tensor<2x2x3x64xf32>, tensor<2x2x3x1xf32>) outs(%103 : tensor<2x2x3x64xf32>) {
    ^bb0(%in_181: f32, %in_182: f32, %out_123: f32):
      %331 = arith.divf %in_181, %in_182 : f32
      linalg.yield %331 : f32
    } -> tensor<2x2x3x64xf32>
    %transposed_8 = linalg.transpose ins(%330:tensor<2x2x3x64xf32>) outs(%168:tensor<3x2x2x64xf32>) permutation = [2, 0, 1, 3]
    %collapsed_28 = tensor.collapse_shape %transposed_8 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<3x2x2x64xf32> into tensor<3x256xf32>
    %332 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%collapsed_28 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_183: f32, %out_124: bf16):
      %333 = arith.truncf %in_183 : f32 to bf16
      linalg.yield %333 : bf16
    } -> tensor<3x256xbf16>
    %334 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%332 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_184: bf16, %out_125: f32):
      %335 = arith.extf %in_184 : bf16 to f32
      linalg.yield %335 : f32
    } -> tensor<3x256xf32>
    %expanded_49 = tensor.expand_shape %blk.1.attn_output.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %336 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_49 : tensor<8x32x256xi8>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_185: i8, %out_126: f32):
      %337 = arith.sitofp %in_185 : i8 to f32
      linalg.yield %337 : f32
    } -> tensor<8x32x256xf32>
    %338 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_output.weight__q8_scale : tensor<8x256xf16>) outs(%62 : tensor<8x256xf32>) {
    ^bb0(%in_186: f16, %out_127: f32):
      %339 = arith.extf %in_186 : f16 to f32
      linalg.yield %339 : f32
    } -> tensor<8x256xf32>
    %expanded_50 = tensor.expand_shape %338 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %340 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%336, %expanded_50 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%59 : tensor<8x32x256xf32>) {
    ^bb0(%in_187: f32, %in_188: f32, %out_128: f32):
      %341 = arith.mulf %in_187, %in_188 : f32
      linalg.yield %341 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_29 = tensor.collapse_shape %340 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %342 = linalg.matmul ins(%334, %collapsed_29 : tensor<3x256xf32>, tensor<256x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %343 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%243, %342 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_189: f32, %in_190: f32, %out_129: f32):
      %344 = arith.addf %in_189, %in_190 : f32
      linalg.yield %344 : f32
    } -> tensor<3x256xf32>
    %345 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%343, %343 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_191: f32, %in_192: f32, %out_130: f32):
      %346 = arith.mulf %in_191, %in_192 : f32
      linalg.yield %346 : f32
    } -> tensor<3x256xf32>
    %347 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%345 : tensor<3x256xf32>) outs(%40 : tensor<3x1xf32>) {
    ^bb0(%in_193: f32, %out_131: f32):
      %348 = arith.addf %in_193, %out_131 : f32
      linalg.yield %348 : f32
    } -> tensor<3x1xf32>
    %349 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%347 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_194: f32, %out_132: f32):
      %350 = arith.divf %in_194, %cst_6 : f32
      linalg.yield %350 : f32
    } -> tensor<3x1xf32>
    %351 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%349 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_195: f32, %out_133: f32):
      %352 = arith.truncf %cst_4 : f64 to f32
      %353 = arith.addf %in_195, %352 : f32
      linalg.yield %353 : f32
    } -> tensor<3x1xf32>
    %354 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%351 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_196: f32, %out_134: f32):
      %355 = math.rsqrt %in_196 : f32
      linalg.yield %355 : f32
    } -> tensor<3x1xf32>
    %356 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%343, %354 : tensor<3x256xf32>, tensor<3x1xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_197: f32, %in_198: f32, %out_135: f32):
      %357 = arith.mulf %in_197, %in_198 : f32
      linalg.yield %357 : f32
    } -> tensor<3x256xf32>
    %358 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%356, %blk.1.ffn_norm.weight : tensor<3x256xf32>, tensor<256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_199: f32, %in_200: f32, %out_136: f32):
      %359 = arith.mulf %in_199, %in_200 : f32
      linalg.yield %359 : f32
    } -> tensor<3x256xf32>
    %360 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%358 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_201: f32, %out_137: bf16):
      %361 = arith.truncf %in_201 : f32 to bf16
      linalg.yield %361 : bf16
    } -> tensor<3x256xbf16>
    %362 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%360 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_202: bf16, %out_138: f32):
      %363 = arith.extf %in_202 : bf16 to f32
      linalg.yield %363 : f32
    } -> tensor<3x256xf32>
    %expanded_51 = tensor.expand_shape %blk.1.ffn_gate.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %364 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_51 : tensor<8x32x512xi8>) outs(%201 : tensor<8x32x512xf32>) {
    ^bb0(%in_203: i8, %out_139: f32):
      %365 = arith.sitofp %in_203 : i8 to f32
      linalg.yield %365 : f32
    } -> tensor<8x32x512xf32>
    %366 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_gate.weight__q8_scale : tensor<8x512xf16>) outs(%204 : tensor<8x512xf32>) {
    ^bb0(%in_204: f16, %out_140: f32):
      %367 = arith.extf %in_204 : f16 to f32
      linalg.yield %367 : f32
    } -> tensor<8x512xf32>
    %expanded_52 = tensor.expand_shape %366 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %368 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%364, %expanded_52 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%201 : tensor<8x32x512xf32>) {
    ^bb0(%in_205: f32, %in_206: f32, %out_141: f32):
      %369 = arith.mulf %in_205, %in_206 : f32
      linalg.yield %369 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_30 = tensor.collapse_shape %368 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %370 = linalg.matmul ins(%362, %collapsed_30 : tensor<3x256xf32>, tensor<256x512xf32>) outs(%210 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %expanded_53 = tensor.expand_shape %blk.1.ffn_up.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %371 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_53 : tensor<8x32x512xi8>) outs(%201 : tensor<8x32x512xf32>) {
    ^bb0(%in_207: i8, %out_142: f32):
      %372 = arith.sitofp %in_207 : i8 to f32
      linalg.yield %372 : f32
    } -> tensor<8x32x512xf32>
    %373 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_up.weight__q8_scale : tensor<8x512xf16>) outs(%204 : tensor<8x512xf32>) {
    ^bb0(%in_208: f16, %out_143: f32):
      %374 = arith.extf %in_208 : f16 to f32
      linalg.yield %374 : f32
    } -> tensor<8x512xf32>
    %expanded_54 = tensor.expand_shape %373 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %375 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%371, %expanded_54 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%201 : tensor<8x32x512xf32>) {
    ^bb0(%in_209: f32, %in_210: f32, %out_144: f32):
      %376 = arith.mulf %in_209, %in_210 : f32
      linalg.yield %376 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_31 = tensor.collapse_shape %375 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %377 = linalg.matmul ins(%362, %collapsed_31 : tensor<3x256xf32>, tensor<256x512xf32>) outs(%210 : tensor<3x512xf32>) -> tensor<3x512xf32>
    %378 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%370 : tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_211: f32, %out_145: f32):
      %379 = arith.negf %in_211 : f32
      linalg.yield %379 : f32
    } -> tensor<3x512xf32>
    %380 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%378 : tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_212: f32, %out_146: f32):
      %381 = math.exp %in_212 : f32
      linalg.yield %381 : f32
    } -> tensor<3x512xf32>
    %382 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%380 : tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_213: f32, %out_147: f32):
      %383 = arith.addf %in_213, %cst_8 : f32
      linalg.yield %383 : f32
    } -> tensor<3x512xf32>
    %384 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%370, %382 : tensor<3x512xf32>, tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_214: f32, %in_215: f32, %out_148: f32):
      %385 = arith.divf %in_214, %in_215 : f32
      linalg.yield %385 : f32
    } -> tensor<3x512xf32>
    %386 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%384, %377 : tensor<3x512xf32>, tensor<3x512xf32>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_216: f32, %in_217: f32, %out_149: f32):
      %387 = arith.mulf %in_216, %in_217 : f32
      linalg.yield %387 : f32
    } -> tensor<3x512xf32>
    %388 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%386 : tensor<3x512xf32>) outs(%229 : tensor<3x512xbf16>) {
    ^bb0(%in_218: f32, %out_150: bf16):
      %389 = arith.truncf %in_218 : f32 to bf16
      linalg.yield %389 : bf16
    } -> tensor<3x512xbf16>
    %390 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%388 : tensor<3x512xbf16>) outs(%209 : tensor<3x512xf32>) {
    ^bb0(%in_219: bf16, %out_151: f32):
      %391 = arith.extf %in_219 : bf16 to f32
      linalg.yield %391 : f32
    } -> tensor<3x512xf32>
    %expanded_55 = tensor.expand_shape %blk.1.ffn_down.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [16, 32, 256] : tensor<512x256xi8> into tensor<16x32x256xi8>
    %392 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_55 : tensor<16x32x256xi8>) outs(%234 : tensor<16x32x256xf32>) {
    ^bb0(%in_220: i8, %out_152: f32):
      %393 = arith.sitofp %in_220 : i8 to f32
      linalg.yield %393 : f32
    } -> tensor<16x32x256xf32>
    %394 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_down.weight__q8_scale : tensor<16x256xf16>) outs(%237 : tensor<16x256xf32>) {
    ^bb0(%in_221: f16, %out_153: f32):
      %395 = arith.extf %in_221 : f16 to f32
      linalg.yield %395 : f32
    } -> tensor<16x256xf32>
    %expanded_56 = tensor.expand_shape %394 [[0 : i64], [1 : i64, 2 : i64]] output_shape [16, 1, 256] : tensor<16x256xf32> into tensor<16x1x256xf32>
    %396 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%392, %expanded_56 : tensor<16x32x256xf32>, tensor<16x1x256xf32>) outs(%234 : tensor<16x32x256xf32>) {
    ^bb0(%in_222: f32, %in_223: f32, %out_154: f32):
      %397 = arith.mulf %in_222, %in_223 : f32
      linalg.yield %397 : f32
    } -> tensor<16x32x256xf32>
    %collapsed_32 = tensor.collapse_shape %396 [[0 : i64, 1 : i64], [2 : i64]] : tensor<16x32x256xf32> into tensor<512x256xf32>
    %398 = linalg.matmul ins(%390, %collapsed_32 : tensor<3x512xf32>, tensor<512x256xf32>) outs(%67 : tensor<3x256xf32>) -> tensor<3x256xf32>
    %399 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%343, %398 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_224: f32, %in_225: f32, %out_155: f32):
      %400 = arith.addf %in_224, %in_225 : f32
      linalg.yield %400 : f32
    } -> tensor<3x256xf32>
    %401 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%399, %399 : tensor<3x256xf32>, tensor<3x256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_226: f32, %in_227: f32, %out_156: f32):
      %402 = arith.mulf %in_226, %in_227 : f32
      linalg.yield %402 : f32
    } -> tensor<3x256xf32>
    %403 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%401 : tensor<3x256xf32>) outs(%40 : tensor<3x1xf32>) {
    ^bb0(%in_228: f32, %out_157: f32):
      %404 = arith.addf %in_228, %out_157 : f32
      linalg.yield %404 : f32
    } -> tensor<3x1xf32>
    %405 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%403 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_229: f32, %out_158: f32):
      %406 = arith.divf %in_229, %cst_6 : f32
      linalg.yield %406 : f32
    } -> tensor<3x1xf32>
    %407 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%405 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_230: f32, %out_159: f32):
      %408 = arith.truncf %cst_4 : f64 to f32
      %409 = arith.addf %in_230, %408 : f32
      linalg.yield %409 : f32
    } -> tensor<3x1xf32>
    %410 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%407 : tensor<3x1xf32>) outs(%39 : tensor<3x1xf32>) {
    ^bb0(%in_231: f32, %out_160: f32):
      %411 = math.rsqrt %in_231 : f32
      linalg.yield %411 : f32
    } -> tensor<3x1xf32>
    %412 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%399, %410 : tensor<3x256xf32>, tensor<3x1xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_232: f32, %in_233: f32, %out_161: f32):
      %413 = arith.mulf %in_232, %in_233 : f32
      linalg.yield %413 : f32
    } -> tensor<3x256xf32>
    %414 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%412, %output_norm.weight : tensor<3x256xf32>, tensor<256xf32>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_234: f32, %in_235: f32, %out_162: f32):
      %415 = arith.mulf %in_234, %in_235 : f32
      linalg.yield %415 : f32
    } -> tensor<3x256xf32>
    %416 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%414 : tensor<3x256xf32>) outs(%54 : tensor<3x256xbf16>) {
    ^bb0(%in_236: f32, %out_163: bf16):
      %417 = arith.truncf %in_236 : f32 to bf16
      linalg.yield %417 : bf16
    } -> tensor<3x256xbf16>
    %418 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%416 : tensor<3x256xbf16>) outs(%36 : tensor<3x256xf32>) {
    ^bb0(%in_237: bf16, %out_164: f32):
      %419 = arith.extf %in_237 : bf16 to f32
      linalg.yield %419 : f32
    } -> tensor<3x256xf32>
    %expanded_57 = tensor.expand_shape %token_embd.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 320] : tensor<256x320xi8> into tensor<8x32x320xi8>
    %420 = tensor.empty() : tensor<8x32x320xf32>
    %421 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_57 : tensor<8x32x320xi8>) outs(%420 : tensor<8x32x320xf32>) {
    ^bb0(%in_238: i8, %out_165: f32):
      %422 = arith.sitofp %in_238 : i8 to f32
      linalg.yield %422 : f32
    } -> tensor<8x32x320xf32>
    %423 = tensor.empty() : tensor<8x320xf32>
    %424 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%token_embd.weight__q8_scale : tensor<8x320xf16>) outs(%423 : tensor<8x320xf32>) {
    ^bb0(%in_239: f16, %out_166: f32):
      %425 = arith.extf %in_239 : f16 to f32
      linalg.yield %425 : f32
    } -> tensor<8x320xf32>
    %expanded_58 = tensor.expand_shape %424 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 320] : tensor<8x320xf32> into tensor<8x1x320xf32>
    %426 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%421, %expanded_58 : tensor<8x32x320xf32>, tensor<8x1x320xf32>) outs(%420 : tensor<8x32x320xf32>) {
    ^bb0(%in_240: f32, %in_241: f32, %out_167: f32):
      %427 = arith.mulf %in_240, %in_241 : f32
      linalg.yield %427 : f32
    } -> tensor<8x32x320xf32>
    %collapsed_33 = tensor.collapse_shape %426 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x320xf32> into tensor<256x320xf32>
    %428 = tensor.empty() : tensor<3x320xf32>
    %429 = linalg.fill ins(%cst : f32) outs(%428 : tensor<3x320xf32>) -> tensor<3x320xf32>
    %430 = linalg.matmul ins(%418, %collapsed_33 : tensor<3x256xf32>, tensor<256x320xf32>) outs(%429 : tensor<3x320xf32>) -> tensor<3x320xf32>
    func.return %430, %inserted_slice, %inserted_slice_1, %inserted_slice_2, %inserted_slice_3 : tensor<3x320xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>
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
    %119 = arith.addi %116, %c24_i64 : i64
    %120 = arith.cmpi sge, %116, %c0_i64 : i64
    %121 = arith.select %120, %116, %119 : i64
    %122 = arith.maxsi %121, %c0_i64 : i64
    %123 = arith.minsi %122, %c24_i64 : i64
    %124 = arith.index_cast %123 : i64 to index
    %inserted_slice = tensor.insert_slice %transposed_2 into %blk.0.cache_k[0, 0, %124] [2, 64, 1] [1, 1, 1] : tensor<2x64x1xf32> into tensor<2x64x24xf32>
    %inserted_slice_1 = tensor.insert_slice %transposed_3 into %blk.0.cache_v[0, %124, 0] [2, 1, 64] [1, 1, 1] : tensor<2x1x64xf32> into tensor<2x24x64xf32>
    %125 = tensor.empty() : tensor<2x2x24xf32>
    %126 = linalg.fill ins(%cst : f32) outs(%125 : tensor<2x2x24xf32>) -> tensor<2x2x24xf32>
    %127 = linalg.batch_matmul ins(%collapsed_7, %inserted_slice : tensor<2x2x64xf32>, tensor<2x64x24xf32>) outs(%126 : tensor<2x2x24xf32>) -> tensor<2x2x24xf32>
    %expanded_19 = tensor.expand_shape %127 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 24] : tensor<2x2x24xf32> into tensor<2x2x1x24xf32>
    %128 = tensor.empty() : tensor<24xi32>
    %129 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%128 : tensor<24xi32>) {
    ^bb0(%out_43: i32):
      %130 = linalg.index 0 : index
      %131 = arith.index_cast %130 : index to i64
      %132 = arith.trunci %131 : i64 to i32
      linalg.yield %132 : i32
    } -> tensor<24xi32>
    %expanded_20 = tensor.expand_shape %129 [[0 : i64, 1 : i64]] output_shape [1, 24] : tensor<24xi32> into tensor<1x24xi32>
    %expanded_21 = tensor.expand_shape %2 [[0 : i64, 1 : i64]] output_shape [1, 1] : tensor<1xi32> into tensor<1x1xi32>
    %133 = tensor.empty() : tensor<1x24xi1>
    %134 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded_20, %expanded_21 : tensor<1x24xi32>, tensor<1x1xi32>) outs(%133 : tensor<1x24xi1>) {
    ^bb0(%in_63: i32, %in_64: i32, %out_44: i1):
      %135 = arith.cmpi sle, %in_63, %in_64 : i32
      linalg.yield %135 : i1
    } -> tensor<1x24xi1>
    %136 = tensor.empty() : tensor<2x2x1x24xf32>
    %137 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%134, %expanded_19, %cst_3 : tensor<1x24xi1>, tensor<2x2x1x24xf32>, tensor<f32>) outs(%136 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_65: i1, %in_66: f32, %in_67: f32, %out_45: f32):
      %138 = arith.select %in_65, %in_66, %in_67 : f32
      linalg.yield %138 : f32
    } -> tensor<2x2x1x24xf32>
    %139 = tensor.empty() : tensor<2x2x1xi64>
    %140 = linalg.fill ins(%c0_i64 : i64) outs(%139 : tensor<2x2x1xi64>) -> tensor<2x2x1xi64>
    %141 = tensor.empty() : tensor<2x2x1xf32>
    %142 = linalg.fill ins(%cst_1 : f32) outs(%141 : tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
    %143, %144 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%137 : tensor<2x2x1x24xf32>) outs(%142, %140 : tensor<2x2x1xf32>, tensor<2x2x1xi64>) {
    ^bb0(%in_68: f32, %out_46: f32, %out_47: i64):
      %145 = linalg.index 3 : index
      %146 = arith.index_cast %145 : index to i64
      %147 = arith.maximumf %in_68, %out_46 : f32
      %148 = arith.cmpf ogt, %in_68, %out_46 : f32
      %149 = arith.select %148, %146, %out_47 : i64
      linalg.yield %147, %149 : f32, i64
    } -> (tensor<2x2x1xf32>, tensor<2x2x1xi64>)
    %expanded_22 = tensor.expand_shape %143 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 1] : tensor<2x2x1xf32> into tensor<2x2x1x1xf32>
    %150 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_19, %expanded_22 : tensor<2x2x1x24xf32>, tensor<2x2x1x1xf32>) outs(%136 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_69: f32, %in_70: f32, %out_48: f32):
      %151 = arith.subf %in_69, %in_70 : f32
      linalg.yield %151 : f32
    } -> tensor<2x2x1x24xf32>
    %152 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%150 : tensor<2x2x1x24xf32>) outs(%136 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_71: f32, %out_49: f32):
      %153 = math.exp %in_71 : f32
      linalg.yield %153 : f32
    } -> tensor<2x2x1x24xf32>
    %154 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%134, %152, %cst_2 : tensor<1x24xi1>, tensor<2x2x1x24xf32>, tensor<f32>) outs(%136 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_72: i1, %in_73: f32, %in_74: f32, %out_50: f32):
      %155 = arith.select %in_72, %in_73, %in_74 : f32
      linalg.yield %155 : f32
    } -> tensor<2x2x1x24xf32>
    %156 = tensor.empty() : tensor<2x2x1x1xf32>
    %157 = linalg.fill ins(%cst : f32) outs(%156 : tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
    %158 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%154 : tensor<2x2x1x24xf32>) outs(%157 : tensor<2x2x1x1xf32>) {
    ^bb0(%in_75: f32, %out_51: f32):
      %159 = arith.addf %in_75, %out_51 : f32
      linalg.yield %159 : f32
    } -> tensor<2x2x1x1xf32>
    %collapsed_11 = tensor.collapse_shape %154 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<2x2x1x24xf32> into tensor<2x2x24xf32>
    %160 = tensor.empty() : tensor<2x2x64xf32>
    %161 = linalg.fill ins(%cst : f32) outs(%160 : tensor<2x2x64xf32>) -> tensor<2x2x64xf32>
    %162 = linalg.batch_matmul ins(%collapsed_11, %inserted_slice_1 : tensor<2x2x24xf32>, tensor<2x24x64xf32>) outs(%161 : tensor<2x2x64xf32>) -> tensor<2x2x64xf32>
    %expanded_23 = tensor.expand_shape %162 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 64] : tensor<2x2x64xf32> into tensor<2x2x1x64xf32>
    %163 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_23, %158 : tensor<2x2x1x64xf32>, tensor<2x2x1x1xf32>) outs(%100 : tensor<2x2x1x64xf32>) {
    ^bb0(%in_76: f32, %in_77: f32, %out_52: f32):
      %164 = arith.divf %in_76, %in_77 : f32
      linalg.yield %164 : f32
    } -> tensor<2x2x1x64xf32>
    %165 = tensor.empty() : tensor<1x2x2x64xf32>
    %transposed_4 = linalg.transpose ins(%163:tensor<2x2x1x64xf32>) outs(%165:tensor<1x2x2x64xf32>) permutation = [2, 0, 1, 3]
    %collapsed_12 = tensor.collapse_shape %transposed_4 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<1x2x2x64xf32> into tensor<1x256xf32>
    %166 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%collapsed_12 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_78: f32, %out_53: bf16):
      %167 = arith.truncf %in_78 : f32 to bf16
      linalg.yield %167 : bf16
    } -> tensor<1x256xbf16>
    %168 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%166 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_79: bf16, %out_54: f32):
      %169 = arith.extf %in_79 : bf16 to f32
      linalg.yield %169 : f32
    } -> tensor<1x256xf32>
    %expanded_24 = tensor.expand_shape %blk.0.attn_output.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %170 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_24 : tensor<8x32x256xi8>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_80: i8, %out_55: f32):
      %171 = arith.sitofp %in_80 : i8 to f32
      linalg.yield %171 : f32
    } -> tensor<8x32x256xf32>
    %172 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.attn_output.weight__q8_scale : tensor<8x256xf16>) outs(%59 : tensor<8x256xf32>) {
    ^bb0(%in_81: f16, %out_56: f32):
      %173 = arith.extf %in_81 : f16 to f32
      linalg.yield %173 : f32
    } -> tensor<8x256xf32>
    %expanded_25 = tensor.expand_shape %172 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %174 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%170, %expanded_25 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_82: f32, %in_83: f32, %out_57: f32):
      %175 = arith.mulf %in_82, %in_83 : f32
      linalg.yield %175 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_13 = tensor.collapse_shape %174 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %176 = linalg.matmul ins(%168, %collapsed_13 : tensor<1x256xf32>, tensor<256x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %177 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed, %176 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_84: f32, %in_85: f32, %out_58: f32):
      %178 = arith.addf %in_84, %in_85 : f32
      linalg.yield %178 : f32
    } -> tensor<1x256xf32>
    %179 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%177, %177 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_86: f32, %in_87: f32, %out_59: f32):
      %180 = arith.mulf %in_86, %in_87 : f32
      linalg.yield %180 : f32
    } -> tensor<1x256xf32>
    %181 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%179 : tensor<1x256xf32>) outs(%37 : tensor<1x1xf32>) {
    ^bb0(%in_88: f32, %out_60: f32):
      %182 = arith.addf %in_88, %out_60 : f32
      linalg.yield %182 : f32
    } -> tensor<1x1xf32>
    %183 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%181 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_89: f32, %out_61: f32):
      %184 = arith.divf %in_89, %cst_6 : f32
      linalg.yield %184 : f32
    } -> tensor<1x1xf32>
    %185 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%183 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_90: f32, %out_62: f32):
      %186 = arith.truncf %cst_4 : f64 to f32
      %187 = arith.addf %in_90, %186 : f32
      linalg.yield %187 : f32
    } -> tensor<1x1xf32>
    %188 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%185 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_91: f32, %out_63: f32):
      %189 = math.rsqrt %in_91 : f32
      linalg.yield %189 : f32
    } -> tensor<1x1xf32>
    %190 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%177, %188 : tensor<1x256xf32>, tensor<1x1xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_92: f32, %in_93: f32, %out_64: f32):
      %191 = arith.mulf %in_92, %in_93 : f32
      linalg.yield %191 : f32
    } -> tensor<1x256xf32>
    %192 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%190, %blk.0.ffn_norm.weight : tensor<1x256xf32>, tensor<256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_94: f32, %in_95: f32, %out_65: f32):
      %193 = arith.mulf %in_94, %in_95 : f32
      linalg.yield %193 : f32
    } -> tensor<1x256xf32>
    %194 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%192 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_96: f32, %out_66: bf16):
      %195 = arith.truncf %in_96 : f32 to bf16
      linalg.yield %195 : bf16
    } -> tensor<1x256xbf16>
    %196 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%194 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_97: bf16, %out_67: f32):
      %197 = arith.extf %in_97 : bf16 to f32
      linalg.yield %197 : f32
    } -> tensor<1x256xf32>
    %expanded_26 = tensor.expand_shape %blk.0.ffn_gate.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %198 = tensor.empty() : tensor<8x32x512xf32>
    %199 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_26 : tensor<8x32x512xi8>) outs(%198 : tensor<8x32x512xf32>) {
    ^bb0(%in_98: i8, %out_68: f32):
      %200 = arith.sitofp %in_98 : i8 to f32
      linalg.yield %200 : f32
    } -> tensor<8x32x512xf32>
    %201 = tensor.empty() : tensor<8x512xf32>
    %202 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_gate.weight__q8_scale : tensor<8x512xf16>) outs(%201 : tensor<8x512xf32>) {
    ^bb0(%in_99: f16, %out_69: f32):
      %203 = arith.extf %in_99 : f16 to f32
      linalg.yield %203 : f32
    } -> tensor<8x512xf32>
    %expanded_27 = tensor.expand_shape %202 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %204 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%199, %expanded_27 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%198 : tensor<8x32x512xf32>) {
    ^bb0(%in_100: f32, %in_101: f32, %out_70: f32):
      %205 = arith.mulf %in_100, %in_101 : f32
      linalg.yield %205 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_14 = tensor.collapse_shape %204 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %206 = tensor.empty() : tensor<1x512xf32>
    %207 = linalg.fill ins(%cst : f32) outs(%206 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %208 = linalg.matmul ins(%196, %collapsed_14 : tensor<1x256xf32>, tensor<256x512xf32>) outs(%207 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %expanded_28 = tensor.expand_shape %blk.0.ffn_up.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %209 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_28 : tensor<8x32x512xi8>) outs(%198 : tensor<8x32x512xf32>) {
    ^bb0(%in_102: i8, %out_71: f32):
      %210 = arith.sitofp %in_102 : i8 to f32
      linalg.yield %210 : f32
    } -> tensor<8x32x512xf32>
    %211 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_up.weight__q8_scale : tensor<8x512xf16>) outs(%201 : tensor<8x512xf32>) {
    ^bb0(%in_103: f16, %out_72: f32):
      %212 = arith.extf %in_103 : f16 to f32
      linalg.yield %212 : f32
    } -> tensor<8x512xf32>
    %expanded_29 = tensor.expand_shape %211 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %213 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%209, %expanded_29 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%198 : tensor<8x32x512xf32>) {
    ^bb0(%in_104: f32, %in_105: f32, %out_73: f32):
      %214 = arith.mulf %in_104, %in_105 : f32
      linalg.yield %214 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_15 = tensor.collapse_shape %213 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %215 = linalg.matmul ins(%196, %collapsed_15 : tensor<1x256xf32>, tensor<256x512xf32>) outs(%207 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %216 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%208 : tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_106: f32, %out_74: f32):
      %217 = arith.negf %in_106 : f32
      linalg.yield %217 : f32
    } -> tensor<1x512xf32>
    %218 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%216 : tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_107: f32, %out_75: f32):
      %219 = math.exp %in_107 : f32
      linalg.yield %219 : f32
    } -> tensor<1x512xf32>
    %220 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%218 : tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_108: f32, %out_76: f32):
      %221 = arith.addf %in_108, %cst_8 : f32
      linalg.yield %221 : f32
    } -> tensor<1x512xf32>
    %222 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%208, %220 : tensor<1x512xf32>, tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_109: f32, %in_110: f32, %out_77: f32):
      %223 = arith.divf %in_109, %in_110 : f32
      linalg.yield %223 : f32
    } -> tensor<1x512xf32>
    %224 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%222, %215 : tensor<1x512xf32>, tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_111: f32, %in_112: f32, %out_78: f32):
      %225 = arith.mulf %in_111, %in_112 : f32
      linalg.yield %225 : f32
    } -> tensor<1x512xf32>
    %226 = tensor.empty() : tensor<1x512xbf16>
    %227 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%224 : tensor<1x512xf32>) outs(%226 : tensor<1x512xbf16>) {
    ^bb0(%in_113: f32, %out_79: bf16):
      %228 = arith.truncf %in_113 : f32 to bf16
      linalg.yield %228 : bf16
    } -> tensor<1x512xbf16>
    %229 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%227 : tensor<1x512xbf16>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_114: bf16, %out_80: f32):
      %230 = arith.extf %in_114 : bf16 to f32
      linalg.yield %230 : f32
    } -> tensor<1x512xf32>
    %expanded_30 = tensor.expand_shape %blk.0.ffn_down.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [16, 32, 256] : tensor<512x256xi8> into tensor<16x32x256xi8>
    %231 = tensor.empty() : tensor<16x32x256xf32>
    %232 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_30 : tensor<16x32x256xi8>) outs(%231 : tensor<16x32x256xf32>) {
    ^bb0(%in_115: i8, %out_81: f32):
      %233 = arith.sitofp %in_115 : i8 to f32
      linalg.yield %233 : f32
    } -> tensor<16x32x256xf32>
    %234 = tensor.empty() : tensor<16x256xf32>
    %235 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.0.ffn_down.weight__q8_scale : tensor<16x256xf16>) outs(%234 : tensor<16x256xf32>) {
    ^bb0(%in_116: f16, %out_82: f32):
      %236 = arith.extf %in_116 : f16 to f32
      linalg.yield %236 : f32
    } -> tensor<16x256xf32>
    %expanded_31 = tensor.expand_shape %235 [[0 : i64], [1 : i64, 2 : i64]] output_shape [16, 1, 256] : tensor<16x256xf32> into tensor<16x1x256xf32>
    %237 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%232, %expanded_31 : tensor<16x32x256xf32>, tensor<16x1x256xf32>) outs(%231 : tensor<16x32x256xf32>) {
    ^bb0(%in_117: f32, %in_118: f32, %out_83: f32):
      %238 = arith.mulf %in_117, %in_118 : f32
      linalg.yield %238 : f32
    } -> tensor<16x32x256xf32>
    %collapsed_16 = tensor.collapse_shape %237 [[0 : i64, 1 : i64], [2 : i64]] : tensor<16x32x256xf32> into tensor<512x256xf32>
    %239 = linalg.matmul ins(%229, %collapsed_16 : tensor<1x512xf32>, tensor<512x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %240 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%177, %239 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_119: f32, %in_120: f32, %out_84: f32):
      %241 = arith.addf %in_119, %in_120 : f32
      linalg.yield %241 : f32
    } -> tensor<1x256xf32>
    %242 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%240, %240 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_121: f32, %in_122: f32, %out_85: f32):
      %243 = arith.mulf %in_121, %in_122 : f32
      linalg.yield %243 : f32
    } -> tensor<1x256xf32>
    %244 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%242 : tensor<1x256xf32>) outs(%37 : tensor<1x1xf32>) {
    ^bb0(%in_123: f32, %out_86: f32):
      %245 = arith.addf %in_123, %out_86 : f32
      linalg.yield %245 : f32
    } -> tensor<1x1xf32>
    %246 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%244 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_124: f32, %out_87: f32):
      %247 = arith.divf %in_124, %cst_6 : f32
      linalg.yield %247 : f32
    } -> tensor<1x1xf32>
    %248 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%246 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_125: f32, %out_88: f32):
      %249 = arith.truncf %cst_4 : f64 to f32
      %250 = arith.addf %in_125, %249 : f32
      linalg.yield %250 : f32
    } -> tensor<1x1xf32>
    %251 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%248 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_126: f32, %out_89: f32):
      %252 = math.rsqrt %in_126 : f32
      linalg.yield %252 : f32
    } -> tensor<1x1xf32>
    %253 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%240, %251 : tensor<1x256xf32>, tensor<1x1xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_127: f32, %in_128: f32, %out_90: f32):
      %254 = arith.mulf %in_127, %in_128 : f32
      linalg.yield %254 : f32
    } -> tensor<1x256xf32>
    %255 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%253, %blk.1.attn_norm.weight : tensor<1x256xf32>, tensor<256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_129: f32, %in_130: f32, %out_91: f32):
      %256 = arith.mulf %in_129, %in_130 : f32
      linalg.yield %256 : f32
    } -> tensor<1x256xf32>
    %257 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%255 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_131: f32, %out_92: bf16):
      %258 = arith.truncf %in_131 : f32 to bf16
      linalg.yield %258 : bf16
    } -> tensor<1x256xbf16>
    %259 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%257 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_132: bf16, %out_93: f32):
      %260 = arith.extf %in_132 : bf16 to f32
      linalg.yield %260 : f32
    } -> tensor<1x256xf32>
    %expanded_32 = tensor.expand_shape %blk.1.attn_q.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %261 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_32 : tensor<8x32x256xi8>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_133: i8, %out_94: f32):
      %262 = arith.sitofp %in_133 : i8 to f32
      linalg.yield %262 : f32
    } -> tensor<8x32x256xf32>
    %263 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_q.weight__q8_scale : tensor<8x256xf16>) outs(%59 : tensor<8x256xf32>) {
    ^bb0(%in_134: f16, %out_95: f32):
      %264 = arith.extf %in_134 : f16 to f32
      linalg.yield %264 : f32
    } -> tensor<8x256xf32>
    %expanded_33 = tensor.expand_shape %263 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %265 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%261, %expanded_33 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_135: f32, %in_136: f32, %out_96: f32):
      %266 = arith.mulf %in_135, %in_136 : f32
      linalg.yield %266 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_17 = tensor.collapse_shape %265 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %267 = linalg.matmul ins(%259, %collapsed_17 : tensor<1x256xf32>, tensor<256x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %expanded_34 = tensor.expand_shape %blk.1.attn_k.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %268 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34 : tensor<8x32x128xi8>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_137: i8, %out_97: f32):
      %269 = arith.sitofp %in_137 : i8 to f32
      linalg.yield %269 : f32
    } -> tensor<8x32x128xf32>
    %270 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_k.weight__q8_scale : tensor<8x128xf16>) outs(%69 : tensor<8x128xf32>) {
    ^bb0(%in_138: f16, %out_98: f32):
      %271 = arith.extf %in_138 : f16 to f32
      linalg.yield %271 : f32
    } -> tensor<8x128xf32>
    %expanded_35 = tensor.expand_shape %270 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %272 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%268, %expanded_35 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_139: f32, %in_140: f32, %out_99: f32):
      %273 = arith.mulf %in_139, %in_140 : f32
      linalg.yield %273 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_18 = tensor.collapse_shape %272 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %274 = linalg.matmul ins(%259, %collapsed_18 : tensor<1x256xf32>, tensor<256x128xf32>) outs(%75 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %expanded_36 = tensor.expand_shape %blk.1.attn_v.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 128] : tensor<256x128xi8> into tensor<8x32x128xi8>
    %275 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_36 : tensor<8x32x128xi8>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_141: i8, %out_100: f32):
      %276 = arith.sitofp %in_141 : i8 to f32
      linalg.yield %276 : f32
    } -> tensor<8x32x128xf32>
    %277 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_v.weight__q8_scale : tensor<8x128xf16>) outs(%69 : tensor<8x128xf32>) {
    ^bb0(%in_142: f16, %out_101: f32):
      %278 = arith.extf %in_142 : f16 to f32
      linalg.yield %278 : f32
    } -> tensor<8x128xf32>
    %expanded_37 = tensor.expand_shape %277 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 128] : tensor<8x128xf32> into tensor<8x1x128xf32>
    %279 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%275, %expanded_37 : tensor<8x32x128xf32>, tensor<8x1x128xf32>) outs(%66 : tensor<8x32x128xf32>) {
    ^bb0(%in_143: f32, %in_144: f32, %out_102: f32):
      %280 = arith.mulf %in_143, %in_144 : f32
      linalg.yield %280 : f32
    } -> tensor<8x32x128xf32>
    %collapsed_19 = tensor.collapse_shape %279 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x128xf32> into tensor<256x128xf32>
    %281 = linalg.matmul ins(%259, %collapsed_19 : tensor<1x256xf32>, tensor<256x128xf32>) outs(%75 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %expanded_38 = tensor.expand_shape %267 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [1, 4, 32, 2] : tensor<1x256xf32> into tensor<1x4x32x2xf32>
    %extracted_slice_4 = tensor.extract_slice %expanded_38[0, 0, 0, 0] [1, 4, 32, 1] [1, 1, 1, 1] : tensor<1x4x32x2xf32> to tensor<1x4x32x1xf32>
    %collapsed_20 = tensor.collapse_shape %extracted_slice_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x4x32x1xf32> into tensor<1x4x32xf32>
    %extracted_slice_5 = tensor.extract_slice %expanded_38[0, 0, 0, 1] [1, 4, 32, 1] [1, 1, 1, 1] : tensor<1x4x32x2xf32> to tensor<1x4x32x1xf32>
    %collapsed_21 = tensor.collapse_shape %extracted_slice_5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x4x32x1xf32> into tensor<1x4x32xf32>
    %282 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_20, %expanded_10 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_145: f32, %in_146: f32, %out_103: f32):
      %283 = arith.mulf %in_145, %in_146 : f32
      linalg.yield %283 : f32
    } -> tensor<1x4x32xf32>
    %284 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_21, %expanded_11 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_147: f32, %in_148: f32, %out_104: f32):
      %285 = arith.mulf %in_147, %in_148 : f32
      linalg.yield %285 : f32
    } -> tensor<1x4x32xf32>
    %286 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%282, %284 : tensor<1x4x32xf32>, tensor<1x4x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_149: f32, %in_150: f32, %out_105: f32):
      %287 = arith.subf %in_149, %in_150 : f32
      linalg.yield %287 : f32
    } -> tensor<1x4x32xf32>
    %288 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_20, %expanded_11 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_151: f32, %in_152: f32, %out_106: f32):
      %289 = arith.mulf %in_151, %in_152 : f32
      linalg.yield %289 : f32
    } -> tensor<1x4x32xf32>
    %290 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_21, %expanded_10 : tensor<1x4x32xf32>, tensor<1x1x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_153: f32, %in_154: f32, %out_107: f32):
      %291 = arith.mulf %in_153, %in_154 : f32
      linalg.yield %291 : f32
    } -> tensor<1x4x32xf32>
    %292 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%288, %290 : tensor<1x4x32xf32>, tensor<1x4x32xf32>) outs(%84 : tensor<1x4x32xf32>) {
    ^bb0(%in_155: f32, %in_156: f32, %out_108: f32):
      %293 = arith.addf %in_155, %in_156 : f32
      linalg.yield %293 : f32
    } -> tensor<1x4x32xf32>
    %expanded_39 = tensor.expand_shape %286 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 32, 1] : tensor<1x4x32xf32> into tensor<1x4x32x1xf32>
    %expanded_40 = tensor.expand_shape %292 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 4, 32, 1] : tensor<1x4x32xf32> into tensor<1x4x32x1xf32>
    %concat_2 = tensor.concat dim(3) %expanded_39, %expanded_40 : (tensor<1x4x32x1xf32>, tensor<1x4x32x1xf32>) -> tensor<1x4x32x2xf32>
    %collapsed_22 = tensor.collapse_shape %concat_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x4x32x2xf32> into tensor<1x4x64xf32>
    %294 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_22 : tensor<1x4x64xf32>) outs(%97 : tensor<1x4x64xf32>) {
    ^bb0(%in_157: f32, %out_109: f32):
      %295 = arith.mulf %in_157, %cst_7 : f32
      linalg.yield %295 : f32
    } -> tensor<1x4x64xf32>
    %expanded_41 = tensor.expand_shape %294 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 2, 2, 64] : tensor<1x4x64xf32> into tensor<1x2x2x64xf32>
    %transposed_5 = linalg.transpose ins(%expanded_41:tensor<1x2x2x64xf32>) outs(%100:tensor<2x2x1x64xf32>) permutation = [1, 2, 0, 3]
    %collapsed_23 = tensor.collapse_shape %transposed_5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<2x2x1x64xf32> into tensor<2x2x64xf32>
    %expanded_42 = tensor.expand_shape %274 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] output_shape [1, 2, 32, 2] : tensor<1x128xf32> into tensor<1x2x32x2xf32>
    %extracted_slice_6 = tensor.extract_slice %expanded_42[0, 0, 0, 0] [1, 2, 32, 1] [1, 1, 1, 1] : tensor<1x2x32x2xf32> to tensor<1x2x32x1xf32>
    %collapsed_24 = tensor.collapse_shape %extracted_slice_6 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x2x32x1xf32> into tensor<1x2x32xf32>
    %extracted_slice_7 = tensor.extract_slice %expanded_42[0, 0, 0, 1] [1, 2, 32, 1] [1, 1, 1, 1] : tensor<1x2x32x2xf32> to tensor<1x2x32x1xf32>
    %collapsed_25 = tensor.collapse_shape %extracted_slice_7 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x2x32x1xf32> into tensor<1x2x32xf32>
    %296 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_24, %expanded_10 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_158: f32, %in_159: f32, %out_110: f32):
      %297 = arith.mulf %in_158, %in_159 : f32
      linalg.yield %297 : f32
    } -> tensor<1x2x32xf32>
    %298 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_25, %expanded_11 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_160: f32, %in_161: f32, %out_111: f32):
      %299 = arith.mulf %in_160, %in_161 : f32
      linalg.yield %299 : f32
    } -> tensor<1x2x32xf32>
    %300 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%296, %298 : tensor<1x2x32xf32>, tensor<1x2x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_162: f32, %in_163: f32, %out_112: f32):
      %301 = arith.subf %in_162, %in_163 : f32
      linalg.yield %301 : f32
    } -> tensor<1x2x32xf32>
    %302 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_24, %expanded_11 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_164: f32, %in_165: f32, %out_113: f32):
      %303 = arith.mulf %in_164, %in_165 : f32
      linalg.yield %303 : f32
    } -> tensor<1x2x32xf32>
    %304 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_25, %expanded_10 : tensor<1x2x32xf32>, tensor<1x1x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_166: f32, %in_167: f32, %out_114: f32):
      %305 = arith.mulf %in_166, %in_167 : f32
      linalg.yield %305 : f32
    } -> tensor<1x2x32xf32>
    %306 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%302, %304 : tensor<1x2x32xf32>, tensor<1x2x32xf32>) outs(%101 : tensor<1x2x32xf32>) {
    ^bb0(%in_168: f32, %in_169: f32, %out_115: f32):
      %307 = arith.addf %in_168, %in_169 : f32
      linalg.yield %307 : f32
    } -> tensor<1x2x32xf32>
    %expanded_43 = tensor.expand_shape %300 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 2, 32, 1] : tensor<1x2x32xf32> into tensor<1x2x32x1xf32>
    %expanded_44 = tensor.expand_shape %306 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 2, 32, 1] : tensor<1x2x32xf32> into tensor<1x2x32x1xf32>
    %concat_3 = tensor.concat dim(3) %expanded_43, %expanded_44 : (tensor<1x2x32x1xf32>, tensor<1x2x32x1xf32>) -> tensor<1x2x32x2xf32>
    %collapsed_26 = tensor.collapse_shape %concat_3 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<1x2x32x2xf32> into tensor<1x2x64xf32>
    %transposed_6 = linalg.transpose ins(%collapsed_26:tensor<1x2x64xf32>) outs(%114:tensor<2x64x1xf32>) permutation = [1, 2, 0]
    %expanded_45 = tensor.expand_shape %281 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 2, 64] : tensor<1x128xf32> into tensor<1x2x64xf32>
    %transposed_7 = linalg.transpose ins(%expanded_45:tensor<1x2x64xf32>) outs(%115:tensor<2x1x64xf32>) permutation = [1, 0, 2]
    %inserted_slice_2 = tensor.insert_slice %transposed_6 into %blk.1.cache_k[0, 0, %124] [2, 64, 1] [1, 1, 1] : tensor<2x64x1xf32> into tensor<2x64x24xf32>
    %inserted_slice_3 = tensor.insert_slice %transposed_7 into %blk.1.cache_v[0, %124, 0] [2, 1, 64] [1, 1, 1] : tensor<2x1x64xf32> into tensor<2x24x64xf32>
    %308 = linalg.batch_matmul ins(%collapsed_23, %inserted_slice_2 : tensor<2x2x64xf32>, tensor<2x64x24xf32>) outs(%126 : tensor<2x2x24xf32>) -> tensor<2x2x24xf32>
    %expanded_46 = tensor.expand_shape %308 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 24] : tensor<2x2x24xf32> into tensor<2x2x1x24xf32>
    %309 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%134, %expanded_46, %cst_3 : tensor<1x24xi1>, tensor<2x2x1x24xf32>, tensor<f32>) outs(%136 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_170: i1, %in_171: f32, %in_172: f32, %out_116: f32):
      %310 = arith.select %in_170, %in_171, %in_172 : f32
      linalg.yield %310 : f32
    } -> tensor<2x2x1x24xf32>
    %311, %312 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%309 : tensor<2x2x1x24xf32>) outs(%142, %140 : tensor<2x2x1xf32>, tensor<2x2x1xi64>) {
    ^bb0(%in_173: f32, %out_117: f32, %out_118: i64):
      %313 = linalg.index 3 : index
      %314 = arith.index_cast %313 : index to i64
      %315 = arith.maximumf %in_173, %out_117 : f32
      %316 = arith.cmpf ogt, %in_173, %out_117 : f32
      %317 = arith.select %316, %314, %out_118 : i64
      linalg.yield %315, %317 : f32, i64
    } -> (tensor<2x2x1xf32>, tensor<2x2x1xi64>)
    %expanded_47 = tensor.expand_shape %311 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 1] : tensor<2x2x1xf32> into tensor<2x2x1x1xf32>
    %318 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_46, %expanded_47 : tensor<2x2x1x24xf32>, tensor<2x2x1x1xf32>) outs(%136 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_174: f32, %in_175: f32, %out_119: f32):
      %319 = arith.subf %in_174, %in_175 : f32
      linalg.yield %319 : f32
    } -> tensor<2x2x1x24xf32>
    %320 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%318 : tensor<2x2x1x24xf32>) outs(%136 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_176: f32, %out_120: f32):
      %321 = math.exp %in_176 : f32
      linalg.yield %321 : f32
    } -> tensor<2x2x1x24xf32>
    %322 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%134, %320, %cst_2 : tensor<1x24xi1>, tensor<2x2x1x24xf32>, tensor<f32>) outs(%136 : tensor<2x2x1x24xf32>) {
    ^bb0(%in_177: i1, %in_178: f32, %in_179: f32, %out_121: f32):
      %323 = arith.select %in_177, %in_178, %in_179 : f32
      linalg.yield %323 : f32
    } -> tensor<2x2x1x24xf32>
    %324 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%322 : tensor<2x2x1x24xf32>) outs(%157 : tensor<2x2x1x1xf32>) {
    ^bb0(%in_180: f32, %out_122: f32):
      %325 = arith.addf %in_180, %out_122 : f32
      linalg.yield %325 : f32
    } -> tensor<2x2x1x1xf32>
    %collapsed_27 = tensor.collapse_shape %322 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : tensor<2x2x1x24xf32> into tensor<2x2x24xf32>
    %326 = linalg.batch_matmul ins(%collapsed_27, %inserted_slice_3 : tensor<2x2x24xf32>, tensor<2x24x64xf32>) outs(%161 : tensor<2x2x64xf32>) -> tensor<2x2x64xf32>
    %expanded_48 = tensor.expand_shape %326 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [2, 2, 1, 64] : tensor<2x2x64xf32> into tensor<2x2x1x64xf32>
    %327 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_48, %324 : tensor<2x2x1x64xf32>, tensor<2x2x1x1xf32>) outs(%100 : tensor<2x2x1x64xf32>) {
    ^bb0(%in_181: f32, %in_182: f32, %out_123: f32):
      %328 = arith.divf %in_181, %in_182 : f32
      linalg.yield %328 : f32
    } -> tensor<2x2x1x64xf32>
    %transposed_8 = linalg.transpose ins(%327:tensor<2x2x1x64xf32>) outs(%165:tensor<1x2x2x64xf32>) permutation = [2, 0, 1, 3]
    %collapsed_28 = tensor.collapse_shape %transposed_8 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<1x2x2x64xf32> into tensor<1x256xf32>
    %329 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%collapsed_28 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_183: f32, %out_124: bf16):
      %330 = arith.truncf %in_183 : f32 to bf16
      linalg.yield %330 : bf16
    } -> tensor<1x256xbf16>
    %331 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%329 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_184: bf16, %out_125: f32):
      %332 = arith.extf %in_184 : bf16 to f32
      linalg.yield %332 : f32
    } -> tensor<1x256xf32>
    %expanded_49 = tensor.expand_shape %blk.1.attn_output.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 256] : tensor<256x256xi8> into tensor<8x32x256xi8>
    %333 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_49 : tensor<8x32x256xi8>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_185: i8, %out_126: f32):
      %334 = arith.sitofp %in_185 : i8 to f32
      linalg.yield %334 : f32
    } -> tensor<8x32x256xf32>
    %335 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.attn_output.weight__q8_scale : tensor<8x256xf16>) outs(%59 : tensor<8x256xf32>) {
    ^bb0(%in_186: f16, %out_127: f32):
      %336 = arith.extf %in_186 : f16 to f32
      linalg.yield %336 : f32
    } -> tensor<8x256xf32>
    %expanded_50 = tensor.expand_shape %335 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 256] : tensor<8x256xf32> into tensor<8x1x256xf32>
    %337 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%333, %expanded_50 : tensor<8x32x256xf32>, tensor<8x1x256xf32>) outs(%56 : tensor<8x32x256xf32>) {
    ^bb0(%in_187: f32, %in_188: f32, %out_128: f32):
      %338 = arith.mulf %in_187, %in_188 : f32
      linalg.yield %338 : f32
    } -> tensor<8x32x256xf32>
    %collapsed_29 = tensor.collapse_shape %337 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x256xf32> into tensor<256x256xf32>
    %339 = linalg.matmul ins(%331, %collapsed_29 : tensor<1x256xf32>, tensor<256x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %340 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%240, %339 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_189: f32, %in_190: f32, %out_129: f32):
      %341 = arith.addf %in_189, %in_190 : f32
      linalg.yield %341 : f32
    } -> tensor<1x256xf32>
    %342 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%340, %340 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_191: f32, %in_192: f32, %out_130: f32):
      %343 = arith.mulf %in_191, %in_192 : f32
      linalg.yield %343 : f32
    } -> tensor<1x256xf32>
    %344 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%342 : tensor<1x256xf32>) outs(%37 : tensor<1x1xf32>) {
    ^bb0(%in_193: f32, %out_131: f32):
      %345 = arith.addf %in_193, %out_131 : f32
      linalg.yield %345 : f32
    } -> tensor<1x1xf32>
    %346 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%344 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_194: f32, %out_132: f32):
      %347 = arith.divf %in_194, %cst_6 : f32
      linalg.yield %347 : f32
    } -> tensor<1x1xf32>
    %348 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%346 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_195: f32, %out_133: f32):
      %349 = arith.truncf %cst_4 : f64 to f32
      %350 = arith.addf %in_195, %349 : f32
      linalg.yield %350 : f32
    } -> tensor<1x1xf32>
    %351 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%348 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_196: f32, %out_134: f32):
      %352 = math.rsqrt %in_196 : f32
      linalg.yield %352 : f32
    } -> tensor<1x1xf32>
    %353 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%340, %351 : tensor<1x256xf32>, tensor<1x1xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_197: f32, %in_198: f32, %out_135: f32):
      %354 = arith.mulf %in_197, %in_198 : f32
      linalg.yield %354 : f32
    } -> tensor<1x256xf32>
    %355 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%353, %blk.1.ffn_norm.weight : tensor<1x256xf32>, tensor<256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_199: f32, %in_200: f32, %out_136: f32):
      %356 = arith.mulf %in_199, %in_200 : f32
      linalg.yield %356 : f32
    } -> tensor<1x256xf32>
    %357 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%355 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_201: f32, %out_137: bf16):
      %358 = arith.truncf %in_201 : f32 to bf16
      linalg.yield %358 : bf16
    } -> tensor<1x256xbf16>
    %359 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%357 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_202: bf16, %out_138: f32):
      %360 = arith.extf %in_202 : bf16 to f32
      linalg.yield %360 : f32
    } -> tensor<1x256xf32>
    %expanded_51 = tensor.expand_shape %blk.1.ffn_gate.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %361 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_51 : tensor<8x32x512xi8>) outs(%198 : tensor<8x32x512xf32>) {
    ^bb0(%in_203: i8, %out_139: f32):
      %362 = arith.sitofp %in_203 : i8 to f32
      linalg.yield %362 : f32
    } -> tensor<8x32x512xf32>
    %363 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_gate.weight__q8_scale : tensor<8x512xf16>) outs(%201 : tensor<8x512xf32>) {
    ^bb0(%in_204: f16, %out_140: f32):
      %364 = arith.extf %in_204 : f16 to f32
      linalg.yield %364 : f32
    } -> tensor<8x512xf32>
    %expanded_52 = tensor.expand_shape %363 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %365 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%361, %expanded_52 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%198 : tensor<8x32x512xf32>) {
    ^bb0(%in_205: f32, %in_206: f32, %out_141: f32):
      %366 = arith.mulf %in_205, %in_206 : f32
      linalg.yield %366 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_30 = tensor.collapse_shape %365 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %367 = linalg.matmul ins(%359, %collapsed_30 : tensor<1x256xf32>, tensor<256x512xf32>) outs(%207 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %expanded_53 = tensor.expand_shape %blk.1.ffn_up.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 512] : tensor<256x512xi8> into tensor<8x32x512xi8>
    %368 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_53 : tensor<8x32x512xi8>) outs(%198 : tensor<8x32x512xf32>) {
    ^bb0(%in_207: i8, %out_142: f32):
      %369 = arith.sitofp %in_207 : i8 to f32
      linalg.yield %369 : f32
    } -> tensor<8x32x512xf32>
    %370 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_up.weight__q8_scale : tensor<8x512xf16>) outs(%201 : tensor<8x512xf32>) {
    ^bb0(%in_208: f16, %out_143: f32):
      %371 = arith.extf %in_208 : f16 to f32
      linalg.yield %371 : f32
    } -> tensor<8x512xf32>
    %expanded_54 = tensor.expand_shape %370 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 512] : tensor<8x512xf32> into tensor<8x1x512xf32>
    %372 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%368, %expanded_54 : tensor<8x32x512xf32>, tensor<8x1x512xf32>) outs(%198 : tensor<8x32x512xf32>) {
    ^bb0(%in_209: f32, %in_210: f32, %out_144: f32):
      %373 = arith.mulf %in_209, %in_210 : f32
      linalg.yield %373 : f32
    } -> tensor<8x32x512xf32>
    %collapsed_31 = tensor.collapse_shape %372 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x512xf32> into tensor<256x512xf32>
    %374 = linalg.matmul ins(%359, %collapsed_31 : tensor<1x256xf32>, tensor<256x512xf32>) outs(%207 : tensor<1x512xf32>) -> tensor<1x512xf32>
    %375 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%367 : tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_211: f32, %out_145: f32):
      %376 = arith.negf %in_211 : f32
      linalg.yield %376 : f32
    } -> tensor<1x512xf32>
    %377 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%375 : tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_212: f32, %out_146: f32):
      %378 = math.exp %in_212 : f32
      linalg.yield %378 : f32
    } -> tensor<1x512xf32>
    %379 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%377 : tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_213: f32, %out_147: f32):
      %380 = arith.addf %in_213, %cst_8 : f32
      linalg.yield %380 : f32
    } -> tensor<1x512xf32>
    %381 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%367, %379 : tensor<1x512xf32>, tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_214: f32, %in_215: f32, %out_148: f32):
      %382 = arith.divf %in_214, %in_215 : f32
      linalg.yield %382 : f32
    } -> tensor<1x512xf32>
    %383 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%381, %374 : tensor<1x512xf32>, tensor<1x512xf32>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_216: f32, %in_217: f32, %out_149: f32):
      %384 = arith.mulf %in_216, %in_217 : f32
      linalg.yield %384 : f32
    } -> tensor<1x512xf32>
    %385 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%383 : tensor<1x512xf32>) outs(%226 : tensor<1x512xbf16>) {
    ^bb0(%in_218: f32, %out_150: bf16):
      %386 = arith.truncf %in_218 : f32 to bf16
      linalg.yield %386 : bf16
    } -> tensor<1x512xbf16>
    %387 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%385 : tensor<1x512xbf16>) outs(%206 : tensor<1x512xf32>) {
    ^bb0(%in_219: bf16, %out_151: f32):
      %388 = arith.extf %in_219 : bf16 to f32
      linalg.yield %388 : f32
    } -> tensor<1x512xf32>
    %expanded_55 = tensor.expand_shape %blk.1.ffn_down.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [16, 32, 256] : tensor<512x256xi8> into tensor<16x32x256xi8>
    %389 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_55 : tensor<16x32x256xi8>) outs(%231 : tensor<16x32x256xf32>) {
    ^bb0(%in_220: i8, %out_152: f32):
      %390 = arith.sitofp %in_220 : i8 to f32
      linalg.yield %390 : f32
    } -> tensor<16x32x256xf32>
    %391 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%blk.1.ffn_down.weight__q8_scale : tensor<16x256xf16>) outs(%234 : tensor<16x256xf32>) {
    ^bb0(%in_221: f16, %out_153: f32):
      %392 = arith.extf %in_221 : f16 to f32
      linalg.yield %392 : f32
    } -> tensor<16x256xf32>
    %expanded_56 = tensor.expand_shape %391 [[0 : i64], [1 : i64, 2 : i64]] output_shape [16, 1, 256] : tensor<16x256xf32> into tensor<16x1x256xf32>
    %393 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%389, %expanded_56 : tensor<16x32x256xf32>, tensor<16x1x256xf32>) outs(%231 : tensor<16x32x256xf32>) {
    ^bb0(%in_222: f32, %in_223: f32, %out_154: f32):
      %394 = arith.mulf %in_222, %in_223 : f32
      linalg.yield %394 : f32
    } -> tensor<16x32x256xf32>
    %collapsed_32 = tensor.collapse_shape %393 [[0 : i64, 1 : i64], [2 : i64]] : tensor<16x32x256xf32> into tensor<512x256xf32>
    %395 = linalg.matmul ins(%387, %collapsed_32 : tensor<1x512xf32>, tensor<512x256xf32>) outs(%64 : tensor<1x256xf32>) -> tensor<1x256xf32>
    %396 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%340, %395 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_224: f32, %in_225: f32, %out_155: f32):
      %397 = arith.addf %in_224, %in_225 : f32
      linalg.yield %397 : f32
    } -> tensor<1x256xf32>
    %398 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%396, %396 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_226: f32, %in_227: f32, %out_156: f32):
      %399 = arith.mulf %in_226, %in_227 : f32
      linalg.yield %399 : f32
    } -> tensor<1x256xf32>
    %400 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%398 : tensor<1x256xf32>) outs(%37 : tensor<1x1xf32>) {
    ^bb0(%in_228: f32, %out_157: f32):
      %401 = arith.addf %in_228, %out_157 : f32
      linalg.yield %401 : f32
    } -> tensor<1x1xf32>
    %402 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%400 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_229: f32, %out_158: f32):
      %403 = arith.divf %in_229, %cst_6 : f32
      linalg.yield %403 : f32
    } -> tensor<1x1xf32>
    %404 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%402 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_230: f32, %out_159: f32):
      %405 = arith.truncf %cst_4 : f64 to f32
      %406 = arith.addf %in_230, %405 : f32
      linalg.yield %406 : f32
    } -> tensor<1x1xf32>
    %407 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%404 : tensor<1x1xf32>) outs(%36 : tensor<1x1xf32>) {
    ^bb0(%in_231: f32, %out_160: f32):
      %408 = math.rsqrt %in_231 : f32
      linalg.yield %408 : f32
    } -> tensor<1x1xf32>
    %409 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%396, %407 : tensor<1x256xf32>, tensor<1x1xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_232: f32, %in_233: f32, %out_161: f32):
      %410 = arith.mulf %in_232, %in_233 : f32
      linalg.yield %410 : f32
    } -> tensor<1x256xf32>
    %411 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%409, %output_norm.weight : tensor<1x256xf32>, tensor<256xf32>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_234: f32, %in_235: f32, %out_162: f32):
      %412 = arith.mulf %in_234, %in_235 : f32
      linalg.yield %412 : f32
    } -> tensor<1x256xf32>
    %413 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%411 : tensor<1x256xf32>) outs(%51 : tensor<1x256xbf16>) {
    ^bb0(%in_236: f32, %out_163: bf16):
      %414 = arith.truncf %in_236 : f32 to bf16
      linalg.yield %414 : bf16
    } -> tensor<1x256xbf16>
    %415 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%413 : tensor<1x256xbf16>) outs(%33 : tensor<1x256xf32>) {
    ^bb0(%in_237: bf16, %out_164: f32):
      %416 = arith.extf %in_237 : bf16 to f32
      linalg.yield %416 : f32
    } -> tensor<1x256xf32>
    %expanded_57 = tensor.expand_shape %token_embd.weight__q8 [[0 : i64, 1 : i64], [2 : i64]] output_shape [8, 32, 320] : tensor<256x320xi8> into tensor<8x32x320xi8>
    %417 = tensor.empty() : tensor<8x32x320xf32>
    %418 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_57 : tensor<8x32x320xi8>) outs(%417 : tensor<8x32x320xf32>) {
    ^bb0(%in_238: i8, %out_165: f32):
      %419 = arith.sitofp %in_238 : i8 to f32
      linalg.yield %419 : f32
    } -> tensor<8x32x320xf32>
    %420 = tensor.empty() : tensor<8x320xf32>
    %421 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%token_embd.weight__q8_scale : tensor<8x320xf16>) outs(%420 : tensor<8x320xf32>) {
    ^bb0(%in_239: f16, %out_166: f32):
      %422 = arith.extf %in_239 : f16 to f32
      linalg.yield %422 : f32
    } -> tensor<8x320xf32>
    %expanded_58 = tensor.expand_shape %421 [[0 : i64], [1 : i64, 2 : i64]] output_shape [8, 1, 320] : tensor<8x320xf32> into tensor<8x1x320xf32>
    %423 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%418, %expanded_58 : tensor<8x32x320xf32>, tensor<8x1x320xf32>) outs(%417 : tensor<8x32x320xf32>) {
    ^bb0(%in_240: f32, %in_241: f32, %out_167: f32):
      %424 = arith.mulf %in_240, %in_241 : f32
      linalg.yield %424 : f32
    } -> tensor<8x32x320xf32>
    %collapsed_33 = tensor.collapse_shape %423 [[0 : i64, 1 : i64], [2 : i64]] : tensor<8x32x320xf32> into tensor<256x320xf32>
    %425 = tensor.empty() : tensor<1x320xf32>
    %426 = linalg.fill ins(%cst : f32) outs(%425 : tensor<1x320xf32>) -> tensor<1x320xf32>
    %427 = linalg.matmul ins(%415, %collapsed_33 : tensor<1x256xf32>, tensor<256x320xf32>) outs(%426 : tensor<1x320xf32>) -> tensor<1x320xf32>
    func.return %427, %inserted_slice, %inserted_slice_1, %inserted_slice_2, %inserted_slice_3 : tensor<1x320xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>
  }
}
