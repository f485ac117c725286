// The N x K (Linear / GGUF) layout, dequantised to bf16 as MLIR's mixed form does
// (`sitofp` to bf16, `mulf` in bf16 by bf16 scales), transposed with
// linalg.transpose and multiplied by the mixed bf16 x bf16 -> f32 linalg.matmul.
// Every weight rounds to bf16 before the product; the lowered fold multiplies the
// exact q*s, and q8-raise's decision says so.
//
//   xdsl-opt -p 'q8-lower{report=true}' examples/frontends/nk_transpose_matmul.mlir
//   spatial-run examples/frontends/nk_transpose_matmul.mlir --seed 0 --compare
func.func @nk_transpose_matmul(%x: tensor<2x256xbf16>, %W: tensor<96x256xi8>, %W_scale: tensor<96x8xbf16>) -> tensor<2x96xf32> {
  %empty_w = tensor.empty() : tensor<96x256xbf16>
  %w = linalg.generic {
      indexing_maps = [affine_map<(n, k) -> (n, k)>,
                       affine_map<(n, k) -> (n, k floordiv 32)>,
                       affine_map<(n, k) -> (n, k)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%W, %W_scale : tensor<96x256xi8>, tensor<96x8xbf16>) outs(%empty_w : tensor<96x256xbf16>) {
  ^bb0(%q: i8, %s: bf16, %out: bf16):
    %qf = arith.sitofp %q : i8 to bf16
    %v = arith.mulf %qf, %s : bf16
    linalg.yield %v : bf16
  } -> tensor<96x256xbf16>
  %empty_t = tensor.empty() : tensor<256x96xbf16>
  %wt = linalg.transpose ins(%w : tensor<96x256xbf16>) outs(%empty_t : tensor<256x96xbf16>) permutation = [1, 0]
  %zero = arith.constant 0.000000e+00 : f32
  %empty_y = tensor.empty() : tensor<2x96xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty_y : tensor<2x96xf32>) -> tensor<2x96xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<2x256xbf16>, tensor<256x96xbf16>) outs(%acc : tensor<2x96xf32>) -> tensor<2x96xf32>
  func.return %y : tensor<2x96xf32>
}
