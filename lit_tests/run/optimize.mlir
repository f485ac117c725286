// The spatial passes keep what a lowered product computes. A batch of 3 rows, K =
// 2112 (2 K blocks of 1024 and a tail of 2 Q8_0 blocks), N = 96, on small integer
// activations and values with scales 0.25 / 0.5 (every product and sum exact in
// fp32): the module as q8-lower writes it and after each of its passes, on both
// engines, prints the same numbers, moving the same bytes. After all three the fold
// has one `block` and one `tail` stage and no K loop (a site holds both trips).
//
// RUN: %python -c "import numpy as np; r = np.arange; np.savez('%t.npz', arg0=(r(3 * 2112, dtype=np.float32).reshape(3, 2112) %% 7 - 3), arg1=((r(2112 * 96).reshape(2112, 96) %% 13) - 6).astype(np.int8), arg2=(0.25 * (1 + r(66 * 96).reshape(66, 96) %% 2)).astype(np.float32))"
// RUN: spatial-run %s --inputs %t.npz -p q8-lower --print --stats --engine reference | filecheck %s
// RUN: spatial-run %s --inputs %t.npz -p q8-lower,spatial-merge-siblings --print --stats --engine reference | filecheck %s
// RUN: spatial-run %s --inputs %t.npz -p q8-lower,spatial-merge-siblings,spatial-sum-trips --print --stats --engine reference | filecheck %s
// RUN: spatial-run %s --inputs %t.npz -p q8-lower,spatial-merge-siblings,spatial-sum-trips,spatial-hoist --print --stats --engine reference | filecheck %s
// RUN: spatial-run %s --inputs %t.npz -p 'q8-lower{optimize=true}' --print --stats | filecheck %s
// RUN: spatial-run %s --inputs %t.npz --compare | filecheck %s --check-prefix=COMPARE
// RUN: xdsl-opt %s -p 'q8-lower{optimize=true}' | filecheck %s --check-prefix=IR

// CHECK:      res0: 3x96 float32
// CHECK-NEXT: res0 =
// CHECK-NEXT: {{\[\[}}  3.   -16.    -9.25  -1.5    7.75   0.    -4.5   -5.    12.5    3.    -3.    -2.     4.25
// CHECK:       [ -7.5   -9.     1.75   3.    -5.25 -11.     4.    27.    -3.   -13.    -3.5   25.     2.5
// CHECK:       [ -4.    26.     4.   -10.    -4.25   6.     3.75  -4.    -4.5   -1.    10.   -11.    -8.
// CHECK:        -8.    13.     8.    -5.    -8.5 ]]
// CHECK:      q8_gemm_3x2112x96_w3  W__q8            202,752         0
// CHECK-NEXT: q8_gemm_3x2112x96_w3  W__q8_scale       36,864         0
// CHECK-NEXT: q8_gemm_3x2112x96_w3  x__q8_rows0       18,432         0
// CHECK-NEXT: q8_gemm_3x2112x96_w3  y                     0     12,288

// COMPARE: after q8-lower{optimize=true}
// COMPARE: res0: max |before - after| = 0, relative to max |before| = 0

// IR:     spatial.fold "q8_gemm_3x2112x96_w3"
// IR-NOT: spatial.k_loop
// IR:     spatial.stage "block" iters(sum 2, par 3, sum 32, par 96, sum 32)
// IR-NOT: spatial.k_loop
// IR:     spatial.stage "tail" iters(par 3, sum 2, par 96, sum 32)
// IR-NOT: spatial.k_loop

func.func @gemm(%x: tensor<3x2112xbf16>, %W__q8: tensor<2112x96xi8>, %W__q8_scale: tensor<66x96xf32>) -> tensor<3x96xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2112x96xi8>, tensor<66x96xf32> -> tensor<2112x96xf32>
  %xf = arith.extf %x : tensor<3x2112xbf16> to tensor<3x2112xf32>
  %e = tensor.empty() : tensor<3x96xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<3x96xf32>) -> tensor<3x96xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<3x2112xf32>, tensor<2112x96xf32>) outs(%acc : tensor<3x96xf32>) -> tensor<3x96xf32>
  func.return %y : tensor<3x96xf32>
}
