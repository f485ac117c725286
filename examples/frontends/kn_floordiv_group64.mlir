// Not Q8_0: the K x N form of kn_floordiv.mlir with one scale per 64 K-rows
// (`k floordiv 64`, scales K/64 x N), as a Q8_0-like format with 64-value blocks
// writes it. q8-lower leaves it exactly as it is and says why; it still runs.
//
//   xdsl-opt -p 'q8-lower{report=true}' examples/frontends/kn_floordiv_group64.mlir
func.func @kn_floordiv_group64(%x: tensor<1x256xbf16>, %W: tensor<256x128xi8>, %W_scale: tensor<4x128xf16>) -> tensor<1x128xf32> {
  %empty_w = tensor.empty() : tensor<256x128xf32>
  %w = linalg.generic {
      indexing_maps = [affine_map<(k, n) -> (k, n)>,
                       affine_map<(k, n) -> (k floordiv 64, n)>,
                       affine_map<(k, n) -> (k, n)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%W, %W_scale : tensor<256x128xi8>, tensor<4x128xf16>) outs(%empty_w : tensor<256x128xf32>) {
  ^bb0(%q: i8, %s: f16, %out: f32):
    %qf = arith.sitofp %q : i8 to f32
    %sf = arith.extf %s : f16 to f32
    %v = arith.mulf %qf, %sf : f32
    linalg.yield %v : f32
  } -> tensor<256x128xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %empty_y = tensor.empty() : tensor<1x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty_y : tensor<1x128xf32>) -> tensor<1x128xf32>
  %xf = arith.extf %x : tensor<1x256xbf16> to tensor<1x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<1x128xf32>) -> tensor<1x128xf32>
  func.return %y : tensor<1x128xf32>
}
