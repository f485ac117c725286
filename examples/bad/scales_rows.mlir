// A Q8_0 weight whose scales have a row too many: K = 2048 values need K/32 = 64 rows
// of scales, one per block of 32 K-rows.
// spatial-opt says: scales must have K/32 = 64 rows, got 65

func.func @gemv(%x: tensor<1x2048xf32>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<65x4096xf32>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<65x4096xf32> -> tensor<2048x4096xf32>
  %empty = tensor.empty() : tensor<1x4096xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}
