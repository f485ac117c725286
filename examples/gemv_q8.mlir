// A decode-step GEMV over a Q8_0 weight: y = x . W, x one bf16 row of K = 2048,
// W a 2048 x 4096 weight stored as int8 values and fp32 scales (one per 32 rows).
// The bf16 activation is widened with arith.extf into an all-f32 linalg.matmul,
// the form stock xDSL accepts; `q8-lower` looks through the extf.
func.func @gemv(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
  %xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %empty = tensor.empty() : tensor<1x4096xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}
