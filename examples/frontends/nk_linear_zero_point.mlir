// Not Q8_0: the N x K form of nk_linear.mlir with an asymmetric (zero-point)
// quantisation, as MLIR's quant lowering writes `quant.dcast` of
// !quant.uniform<i8:f32:{1:32}, ...> with non-zero zero points: `(q - z) * s`.
// q8-lower leaves it exactly as it is and says why; it still runs.
//
//   xdsl-opt -p 'q8-lower{report=true}' examples/frontends/nk_linear_zero_point.mlir
func.func @nk_linear_zero_point(%x: tensor<4x256xbf16>, %W: tensor<128x256xi8>, %W_scale: tensor<128x8xf32>, %W_zero: tensor<128x8xi8>) -> tensor<4x128xf32> {
  %empty_w = tensor.empty() : tensor<128x256xf32>
  %w = linalg.generic {
      indexing_maps = [affine_map<(n, k) -> (n, k)>,
                       affine_map<(n, k) -> (n, k floordiv 32)>,
                       affine_map<(n, k) -> (n, k floordiv 32)>,
                       affine_map<(n, k) -> (n, k)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%W, %W_scale, %W_zero : tensor<128x256xi8>, tensor<128x8xf32>, tensor<128x8xi8>) outs(%empty_w : tensor<128x256xf32>) {
  ^bb0(%q: i8, %s: f32, %z: i8, %out: f32):
    %qf = arith.sitofp %q : i8 to f32
    %zf = arith.sitofp %z : i8 to f32
    %d = arith.subf %qf, %zf : f32
    %v = arith.mulf %d, %s : f32
    linalg.yield %v : f32
  } -> tensor<128x256xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %empty_y = tensor.empty() : tensor<4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty_y : tensor<4x128xf32>) -> tensor<4x128xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x256xbf16>, tensor<128x256xf32>) outs(%acc : tensor<4x128xf32>) {
  ^bb0(%a: bf16, %b: f32, %c: f32):
    %af = arith.extf %a : bf16 to f32
    %p = arith.mulf %af, %b : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x128xf32>
  func.return %y : tensor<4x128xf32>
}
