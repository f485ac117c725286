// A Q8_0 product as MLIR's quant lowering writes a sub-channel dequantisation:
// values K x N (i8), one f16 scale per 32 K-rows of each column, indexed by
// `k floordiv 32`, then a linalg.matmul on the bf16 activation widened to f32.
//
//   xdsl-opt -p 'q8-lower{report=true}' examples/frontends/kn_floordiv.mlir
//   spatial-run examples/frontends/kn_floordiv.mlir --seed 0 --compare
func.func @kn_floordiv(%x: tensor<1x256xbf16>, %W: tensor<256x128xi8>, %W_scale: tensor<8x128xf16>) -> tensor<1x128xf32> {
  %empty_w = tensor.empty() : tensor<256x128xf32>
  %w = linalg.generic {
      indexing_maps = [affine_map<(k, n) -> (k, n)>,
                       affine_map<(k, n) -> (k floordiv 32, n)>,
                       affine_map<(k, n) -> (k, n)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%W, %W_scale : tensor<256x128xi8>, tensor<8x128xf16>) outs(%empty_w : tensor<256x128xf32>) {
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
