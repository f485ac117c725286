// The refusals: spatial-native-kernels declines a kind it does not know, and
// convert-spatial-to-linalg a stage marked for a kernel it cannot be (the lanes of one
// row on AMX tiles, as AVX512-BF16 dots or as the `fma` kernel's fused multiply-adds,
// which each need 2 rows or more) or for a kernel it
// does not know, each naming the program, the stage and the reason.
// RUN: not spatial-opt %s -p 'spatial-native-kernels{kind=avx}' 2>&1 | filecheck %s --check-prefix=KIND
// RUN: spatial-opt %s -p 'q8-lower{optimize=true},spatial-native-kernels{kind=loop}' | sed 's/kernel = "stream"/kernel = "amx"/' | not spatial-opt -p convert-spatial-to-linalg 2>&1 | filecheck %s --check-prefix=ROWS
// RUN: spatial-opt %s -p 'q8-lower{optimize=true},spatial-native-kernels{kind=loop}' | sed 's/kernel = "stream"/kernel = "dot"/' | not spatial-opt -p convert-spatial-to-linalg 2>&1 | filecheck %s --check-prefix=DOT
// RUN: spatial-opt %s -p 'q8-lower{optimize=true},spatial-native-kernels{kind=loop}' | sed 's/kernel = "stream"/kernel = "fma"/' | not spatial-opt -p convert-spatial-to-linalg 2>&1 | filecheck %s --check-prefix=FMA
// RUN: spatial-opt %s -p 'q8-lower{optimize=true},spatial-native-kernels{kind=loop}' | sed 's/kernel = "stream"/kernel = "fast"/' | not spatial-opt -p convert-spatial-to-linalg 2>&1 | filecheck %s --check-prefix=UNKNOWN

func.func @gemv_1x256x256(%x: tensor<1x256xbf16>, %W__q8: tensor<256x256xi8>, %W__q8_scale: tensor<8x256xf32>) -> tensor<1x256xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x256xi8>, tensor<8x256xf32> -> tensor<256x256xf32>
  %xf = arith.extf %x : tensor<1x256xbf16> to tensor<1x256xf32>
  %empty = tensor.empty() : tensor<1x256xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x256xf32>) -> tensor<1x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %y : tensor<1x256xf32>
}

// KIND: spatial-opt: error: spatial-native-kernels: unknown kind 'avx', expected one of generic, loop, avx2, avx512, bf16, amx
// ROWS: spatial-opt: error: spatial.fold "q8_gemv_256x256_w8": spatial.stage: stage 'tail' is marked kernel = "amx", but its sum is not 2 or more rows of a bf16 x int8 Q8_0 block's 32 lanes
// DOT: spatial-opt: error: spatial.fold "q8_gemv_256x256_w8": spatial.stage: stage 'tail' is marked kernel = "dot", but its sum is not 2 or more rows of a bf16 x int8 Q8_0 block's 32 lanes
// FMA: spatial-opt: error: spatial.fold "q8_gemv_256x256_w8": spatial.stage: stage 'tail' is marked kernel = "fma", but its sum is not 2 or more rows of a bf16 x int8 Q8_0 block's 32 lanes
// UNKNOWN: spatial-opt: error: spatial.fold "q8_gemv_256x256_w8": spatial.stage: stage 'tail': unknown kernel "fast", expected one of stream, amx, dot, fma
