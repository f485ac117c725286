// Run the same inputs before and after q8-lower: one K block of 1024 and a tail of
// two Q8_0 blocks, N = 96 (three column tiles, one item of wb = 3). Small integer
// activations and values with scales 0.25 / 0.5 make every product and sum exact,
// so both runs print the same numbers as an fp64 numpy reference.

// RUN: %python -c "import numpy as np; r = np.arange; np.savez('%t.npz', arg0=(r(1088, dtype=np.float32).reshape(1, 1088) %% 7 - 3), arg1=((r(1088 * 96).reshape(1088, 96) %% 13) - 6).astype(np.int8), arg2=(0.25 * (1 + r(34 * 96).reshape(34, 96) %% 2)).astype(np.float32))"
// RUN: spatial-run %s --inputs %t.npz --print --stats | filecheck %s --check-prefixes=CHECK,BEFORE
// RUN: spatial-run %s --inputs %t.npz -p q8-lower --print --stats | filecheck %s --check-prefixes=CHECK,AFTER
// RUN: spatial-run %s --inputs %t.npz --compare | filecheck %s --check-prefix=COMPARE

// CHECK:      res0: 1x96 float32
// CHECK-NEXT: res0 =
// CHECK-NEXT: {{\[\[}}-1.25 -5.5  -1.   -5.   -4.    8.5   2.75  2.5  -0.25 -3.5   3.25  3.5   0.25 -2.5  -2.75 -2.
// CHECK:        -1.   -5.   -4.    8.5   2.75  2.5  -0.25 -3.5   3.25  3.5   0.25 -2.5  -2.75 -2.   -2.5  -8.  {{\]\]}}
// BEFORE:     no spatial program ran
// BEFORE-NOT: q8_gemv
// AFTER:      q8_view_1x1088_from0  x
// AFTER:      q8_view_1x1088_from1  x
// AFTER:      q8_gemv_1088x96_w3    W__q8            104,448         0
// AFTER-NEXT: q8_gemv_1088x96_w3    W__q8_scale       24,576         0
// AFTER-NEXT: q8_gemv_1088x96_w3    x__q8_rows0        4,096         0
// AFTER-NEXT: q8_gemv_1088x96_w3    y                     0     12,288
// AFTER-NEXT: q8_gemv_1088x96_w3    total (1 item, local memory 319,488 B, 1.2745 B/weight) 133,120 12,288
// COMPARE:    res0: max |before - after| = 0, relative to max |before| = 0

func.func @gemv(%x: tensor<1x1088xbf16>, %W__q8: tensor<1088x96xi8>, %W__q8_scale: tensor<34x96xf32>) -> tensor<1x96xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<1088x96xi8>, tensor<34x96xf32> -> tensor<1088x96xf32>
  %xf = arith.extf %x : tensor<1x1088xbf16> to tensor<1x1088xf32>
  %e = tensor.empty() : tensor<1x96xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x96xf32>) -> tensor<1x96xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x1088xf32>, tensor<1088x96xf32>) outs(%acc : tensor<1x96xf32>) -> tensor<1x96xf32>
  func.return %y : tensor<1x96xf32>
}
