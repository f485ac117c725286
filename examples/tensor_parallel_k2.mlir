// The bundled GEMV (K = 2048, N = 4096) over 2 chips, split on K: the weight's values
// and scales are split on their rows (dimension 0), the activation on its K axis
// (dimension 1), over the 1-d grid @chips. q8-lower gives each chip the slice of x it
// holds, its own view of it (x__q8_rows0_c0, _c1) and its own fold over its 1024 rows
// (one K block) into a partial fp32 sum of the whole y; the two sums are added, chip 0's
// first, by an arith.addf.
//
//   spatial-run examples/tensor_parallel_k2.mlir --seed 0 --compare --stats
//   spatial-run examples/tensor_parallel_k2.mlir --seed 0 --compare --distributed ray
shard.grid @chips(shape = 2)
func.func @gemv(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
  %rows = shard.sharding @chips split_axes = [[0]] : !shard.sharding
  %k = shard.sharding @chips split_axes = [[], [0]] : !shard.sharding
  %q = shard.shard %W__q8 to %rows : tensor<2048x4096xi8>
  %s = shard.shard %W__q8_scale to %rows : tensor<64x4096xf32>
  %xs = shard.shard %x to %k : tensor<1x2048xbf16>
  %w = q8.dequantize %q, %s : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
  %xf = arith.extf %xs : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<1x4096xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%zero : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}
