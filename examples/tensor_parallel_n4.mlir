// The bundled GEMV (K = 2048, N = 4096) over 4 chips of a tensor-parallel deployment:
// the weight's values and scales carry MLIR's shard annotation, split on N (their
// dimension 1) over the 1-d grid @chips. q8-lower gives each chip its own view of x
// (x__q8_rows0_c0 .. _c3) and its own fold over its 1024 columns, and gathers the
// four results into y with a tensor.concat. Before lowering, the annotations change
// no value, so the module runs (and `spatial-run --compare` compares it) as it is.
//
//   spatial-run examples/tensor_parallel_n4.mlir --seed 0 --compare --stats
//   spatial-run examples/tensor_parallel_n4.mlir --seed 0 --compare --distributed ray
shard.grid @chips(shape = 4)
func.func @gemv(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
  %cols = shard.sharding @chips split_axes = [[], [0]] : !shard.sharding
  %q = shard.shard %W__q8 to %cols : tensor<2048x4096xi8>
  %s = shard.shard %W__q8_scale to %cols : tensor<64x4096xf32>
  %w = q8.dequantize %q, %s : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
  %xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<1x4096xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%zero : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}
