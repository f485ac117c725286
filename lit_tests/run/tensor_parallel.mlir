// Run the same inputs before and after q8-lower over chips: N = 256 split over 4 chips
// (two column tiles each), K = 2048 split over 2 chips (one K block each). Small integer
// activations and values with power-of-two scales make every product and sum exact, so
// the chips' results, gathered or added, are those of the product on one chip, and the
// traffic table shows each chip's programs and its total.

// RUN: %python -c "import numpy as np; r = np.arange; np.savez('%t.npz', arg0=(r(2048, dtype=np.float32).reshape(1, 2048) %% 7 - 3), arg1=((r(2048 * 256).reshape(2048, 256) %% 13) - 6).astype(np.int8), arg2=(0.25 * (1 + r(64 * 256).reshape(64, 256) %% 2)).astype(np.float32))"
// RUN: spatial-run %s --entry n4 --inputs %t.npz --compare --stats | filecheck %s --check-prefix=N4
// RUN: spatial-run %s --entry k2 --inputs %t.npz --compare --stats | filecheck %s --check-prefix=K2
// RUN: spatial-run %s --entry n4 --inputs %t.npz --engine reference --compare | filecheck %s --check-prefix=REF
// RUN: spatial-run %s --entry k2 --inputs %t.npz --engine reference --compare | filecheck %s --check-prefix=REF

shard.grid @four(shape = 4)
shard.grid @two(shape = 2)

func.func @n4(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x256xi8>, %W__q8_scale: tensor<64x256xf32>) -> tensor<1x256xf32> {
  %cols = shard.sharding @four split_axes = [[], [0]] : !shard.sharding
  %q = shard.shard %W__q8 to %cols : tensor<2048x256xi8>
  %s = shard.shard %W__q8_scale to %cols : tensor<64x256xf32>
  %w = q8.dequantize %q, %s : tensor<2048x256xi8>, tensor<64x256xf32> -> tensor<2048x256xf32>
  %xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<1x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x256xf32>) outs(%zero : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %y : tensor<1x256xf32>
}

func.func @k2(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x256xi8>, %W__q8_scale: tensor<64x256xf32>) -> tensor<1x256xf32> {
  %rows = shard.sharding @two split_axes = [[0]] : !shard.sharding
  %q = shard.shard %W__q8 to %rows : tensor<2048x256xi8>
  %s = shard.shard %W__q8_scale to %rows : tensor<64x256xf32>
  %w = q8.dequantize %q, %s : tensor<2048x256xi8>, tensor<64x256xf32> -> tensor<2048x256xf32>
  %xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<1x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x256xf32>) outs(%zero : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %y : tensor<1x256xf32>
}

// N4:      res0: 1x256 float32
// N4:      res0: max |before - after| = 0, relative to max |before| = 0
// N4:      chip  program
// N4:      0     q8_view_1x2048_from0_c0  x
// N4:      0     q8_gemv_2048x64_w2_c0    W__q8            131,072         0
// N4-NEXT: 0     q8_gemv_2048x64_w2_c0    W__q8_scale       16,384         0
// N4-NEXT: 0     q8_gemv_2048x64_w2_c0    x__q8_rows0_c0     4,096         0
// N4-NEXT: 0     q8_gemv_2048x64_w2_c0    y_c0                  0      8,192
// N4:      3     q8_gemv_2048x64_w2_c3    W__q8            131,072         0
// N4:      0     chip 0                   total (2 programs, folds 1.1562 B/weight)  282,624  12,288
// N4-NEXT: 1     chip 1                   total (2 programs, folds 1.1562 B/weight)  282,624  12,288
// N4-NEXT: 2     chip 2                   total (2 programs, folds 1.1562 B/weight)  282,624  12,288
// N4-NEXT: 3     chip 3                   total (2 programs, folds 1.1562 B/weight)  282,624  12,288

// K2:      res0: max |before - after| = 0, relative to max |before| = 0
// K2:      0     q8_view_1x1024_from0_c0  x_c0
// K2:      0     q8_gemv_1024x256_w8_c0   W__q8            262,144         0
// K2:      1     q8_gemv_1024x256_w8_c1   W__q8            262,144         0
// K2:      0     chip 0
// K2-NEXT: 1     chip 1

// REF:     res0: max |before - after| = 0, relative to max |before| = 0
