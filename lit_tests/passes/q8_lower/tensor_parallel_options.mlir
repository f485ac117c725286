// q8-lower{chips=N split=n|k}: a module without shard annotations lowered over chips
// as the annotation would lower it. One prefix per option value.
//
// RUN: xdsl-opt %s -p 'q8-lower{chips=4}' | filecheck %s --check-prefix=N4
// RUN: xdsl-opt %s -p 'q8-lower{chips=4 split=n}' | filecheck %s --check-prefix=N4
// RUN: xdsl-opt %s -p 'q8-lower{chips=2 split=k}' | filecheck %s --check-prefix=K2
// RUN: xdsl-opt %s -p 'q8-lower{chips=1}' | filecheck %s --check-prefix=ONE
// RUN: xdsl-opt %s -p 'q8-lower{chips=16 report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=MANY
// RUN: not spatial-opt %s -p 'q8-lower{chips=0}' 2>&1 | filecheck %s --check-prefix=ZERO
// RUN: not spatial-opt %s -p 'q8-lower{chips=2 split=m}' 2>&1 | filecheck %s --check-prefix=SPLIT

func.func @gemv(%x: tensor<1x1024xbf16>, %W__q8: tensor<1024x256xi8>, %W__q8_scale: tensor<32x256xf32>) -> tensor<1x256xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<1024x256xi8>, tensor<32x256xf32> -> tensor<1024x256xf32>
  %xf = arith.extf %x : tensor<1x1024xbf16> to tensor<1x1024xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<1x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x1024xf32>, tensor<1024x256xf32>) outs(%zero : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %y : tensor<1x256xf32>
}

// N4-LABEL: func.func @gemv(
// N4-SAME:      %[[X:[^:]*]]: tensor<1x1024xbf16>, %[[Q:[^:]*]]: tensor<1024x256xi8>, %[[S:[^:]*]]: tensor<32x256xf32>)
// N4-NEXT:    %[[V0:.*]] = spatial.view "q8_view_1x1024_from0_c0" chip 0
// N4:         %[[V1:.*]] = spatial.view "q8_view_1x1024_from0_c1" chip 1
// N4:         %[[V2:.*]] = spatial.view "q8_view_1x1024_from0_c2" chip 2
// N4:         %[[V3:.*]] = spatial.view "q8_view_1x1024_from0_c3" chip 3
// N4:         tensor.extract_slice %[[Q]][0, 0] [1024, 64] [1, 1]
// N4:         %[[Y0:.*]] = spatial.fold "q8_gemv_1024x64_w2_c0" chip 0
// N4:         tensor.extract_slice %[[Q]][0, 64] [1024, 64] [1, 1]
// N4:         %[[Y1:.*]] = spatial.fold "q8_gemv_1024x64_w2_c1" chip 1
// N4:         %[[Y2:.*]] = spatial.fold "q8_gemv_1024x64_w2_c2" chip 2
// N4:         %[[Y3:.*]] = spatial.fold "q8_gemv_1024x64_w2_c3" chip 3
// N4:         %[[Y:.*]] = tensor.concat dim(1) %[[Y0]], %[[Y1]], %[[Y2]], %[[Y3]]
// N4-NEXT:    func.return %[[Y]]

// K2-LABEL: func.func @gemv(
// K2-SAME:      %[[X:[^:]*]]: tensor<1x1024xbf16>, %[[Q:[^:]*]]: tensor<1024x256xi8>, %[[S:[^:]*]]: tensor<32x256xf32>)
// K2-NEXT:    %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0] [1, 512] [1, 1] : tensor<1x1024xbf16> to tensor<1x512xbf16>
// K2-NEXT:    spatial.view "q8_view_1x512_from0_c0" chip 0
// K2:         %[[X1:.*]] = tensor.extract_slice %[[X]][0, 512] [1, 512] [1, 1]
// K2-NEXT:    spatial.view "q8_view_1x512_from0_c1" chip 1
// K2:         tensor.extract_slice %[[Q]][0, 0] [512, 256] [1, 1]
// K2-NEXT:    tensor.extract_slice %[[S]][0, 0] [16, 256] [1, 1]
// K2-NEXT:    %[[Y0:.*]] = spatial.fold "q8_gemv_512x256_w8_c0" chip 0
// K2:         tensor.extract_slice %[[Q]][512, 0] [512, 256] [1, 1]
// K2-NEXT:    tensor.extract_slice %[[S]][16, 0] [16, 256] [1, 1]
// K2-NEXT:    %[[Y1:.*]] = spatial.fold "q8_gemv_512x256_w8_c1" chip 1
// K2:         %[[Y:.*]] = arith.addf %[[Y0]], %[[Y1]] : tensor<1x256xf32>
// K2-NEXT:    func.return %[[Y]]

// ONE-LABEL: func.func @gemv(
// ONE-NOT:     chip
// ONE:         spatial.view "q8_view_1x1024_from0" grid
// ONE:         spatial.fold "q8_gemv_1024x256_w8" grid
// ONE-NOT:     tensor.concat

// MANY: q8-lower: linalg.matmul %y 1x1024x256: not lowered: chips=16 split=n: N = 256 is 8 column tiles, fewer than the chips

// ZERO: spatial-opt: error: q8-lower: chips must be positive, got 0
// SPLIT: spatial-opt: error: q8-lower: split must be one of n, k, got 'm'
