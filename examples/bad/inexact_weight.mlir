// A constant weight that q8-lower must store as int8 values and fp32 scales, but that
// is not exactly Q8_0: every block's largest |w| is 1.5, and its scale 1.5 / 127 has
// no fp32 value, so no int8 multiple of an fp32 scale gives back 1.5.
// spatial-opt -p q8-lower says: q8-lower: weight 'W' (q8.quantize of a constant) is not
// exact Q8_0, so it cannot be stored as int8 values and scales: block K-rows 0..31 of
// column 0: its scale max|w|/127 = ... is not representable in float32

func.func @gemv(%x: tensor<1x1024xbf16>) -> tensor<1x256xf32> {
  %W = arith.constant dense<1.500000e+00> : tensor<1024x256xf32>
  %q, %s = q8.quantize %W exact : tensor<1024x256xf32> -> tensor<1024x256xi8>, tensor<32x256xf32>
  %w = q8.dequantize %q, %s : tensor<1024x256xi8>, tensor<32x256xf32> -> tensor<1024x256xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x256xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x1024xbf16>, tensor<1024x256xbf16>) outs(%acc : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %y : tensor<1x256xf32>
}
