// q8-lower composes: it is idempotent, its output parses back (custom and generic
// form) to the same IR, and canonicalize,cse,dce keep the programs' numbers.
//
// RUN: spatial-opt %s -p q8-lower -o %t.once.mlir
// RUN: spatial-opt %t.once.mlir -p q8-lower -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: spatial-opt %t.once.mlir -o %t.reparsed.mlir
// RUN: diff %t.once.mlir %t.reparsed.mlir
// RUN: spatial-opt %t.once.mlir --print-op-generic -o %t.generic.mlir
// RUN: spatial-opt %t.generic.mlir -o %t.back.mlir
// RUN: diff %t.once.mlir %t.back.mlir
// RUN: spatial-opt %s -p 'q8-lower,q8-lower' | filecheck %s --check-prefix=TWICE
// RUN: spatial-opt %s -p 'q8-lower,canonicalize,cse,dce' | filecheck %s --check-prefix=PIPE

// m = 8, K = 1536 (a K block and a 16-block tail), N = 100 (4 padded column tiles).
func.func @gemm(%x: tensor<8x1536xbf16>, %W__q8: tensor<1536x100xi8>, %W__q8_scale: tensor<48x100xf32>) -> tensor<8x100xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<1536x100xi8>, tensor<48x100xf32> -> tensor<1536x100xf32>
  %xf = arith.extf %x : tensor<8x1536xbf16> to tensor<8x1536xf32>
  %empty = tensor.empty() : tensor<8x100xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x100xf32>) -> tensor<8x100xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<8x1536xf32>, tensor<1536x100xf32>) outs(%acc : tensor<8x100xf32>) -> tensor<8x100xf32>
  func.return %y : tensor<8x100xf32>
}

// A product nobody reads: once lowered, dce removes its programs (they have no
// side effects).
func.func @unused(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x4096xbf16>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return
}

// TWICE-LABEL: func.func @gemm(
// TWICE-COUNT-2: spatial.view
// TWICE-NOT:     spatial.view
// TWICE:         spatial.fold "q8_gemm_8x1536x100_w4"
// TWICE-NOT:     spatial.fold
// TWICE-LABEL: func.func @unused(
// TWICE:         spatial.view "q8_view_1x2048_from0"
// TWICE:         spatial.fold "q8_gemv_2048x4096_w8"

// PIPE-LABEL: func.func @gemm(
// PIPE-SAME:      %[[X:[^:]*]]: tensor<8x1536xbf16>, %[[WQ:[^:]*]]: tensor<1536x100xi8>, %[[WS:[^:]*]]: tensor<48x100xf32>)
// PIPE-NEXT:    %[[PART:.*]] = spatial.view "q8_view_8x1536_from0" grid [1, 1] owns (d0, d1) -> (d0 * 8 + d1 * 8, 0) size [8, 1]
// PIPE-NEXT:      target
// PIPE-NEXT:      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [8, 1]> numerics exact
// PIPE-NEXT:      ins(%[[X]] : tensor<8x1536xbf16>) -> tensor<512x32xbf16> {
// PIPE:             spatial.tensor "x__q8_rows0" zero : !spatial.tensor<512x32xbf16, state>
// PIPE:             spatial.load %{{.*}}[%[[KB:.*]] * 32] block 1x32 stride 48 repeat 1
// PIPE:             spatial.tensor "x__q8_rows0__lanes0" values
// PIPE:             spatial.store %{{.*}}[%[[KB]] * 8 + %[[C:.*]] * 8] block 8x1 stride 1 repeat 1
// PIPE:         %[[VIEW:.*]] = spatial.view "q8_view_8x1536_from1" grid [1, 1] owns (d0, d1) -> (d0 * 8 + d1 * 8 + 8, 0) size [8, 1]
// PIPE-NEXT:      target
// PIPE-NEXT:      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [8, 1]> numerics exact
// PIPE-NEXT:      ins(%[[X]], %[[PART]] : tensor<8x1536xbf16>, tensor<512x32xbf16>) -> tensor<512x32xbf16> {
// PIPE:             spatial.load %{{.*}}[%[[KB1:.*]] * 16 + 32] block 1x16 stride 48 repeat 1
// PIPE:             spatial.tensor "x__q8_rows0__lanes1" values
// PIPE:             spatial.stage "lift_rows" iters(par 16, par 256)
// PIPE:             spatial.store %{{.*}}[%[[KB1]] * 8 + %{{.*}} * 8 + 8] block 8x1 stride 1 repeat 1
// PIPE:         %[[Y:.*]] = spatial.fold "q8_gemm_8x1536x100_w4" grid [1] owns (d0) -> (0, d0 * 4) size [1, 4]
// PIPE-NEXT:      target
// PIPE-NEXT:      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 4]> numerics approx "a Q8_0 product over 8 bf16 rows"
// PIPE-NEXT:      ins(%[[VIEW]], %[[WQ]], %[[WS]] : tensor<512x32xbf16>, tensor<1536x100xi8>, tensor<48x100xf32>) -> tensor<8x100xf32> {
// PIPE:             %[[SUM:.*]] = spatial.k_loop %[[K:.*]] = 0 to 1 iter_args
// PIPE-NEXT:          spatial.load %{{.*}}[%[[K]] * 8] block 8x1 stride 1 repeat 1
// PIPE-NEXT:          spatial.load %{{.*}}[%[[K]] * 128 + %[[I:.*]] * 4] block 32x4 stride 4 repeat 1
// PIPE-NEXT:          spatial.load %{{.*}}[%[[K]] * 4 + %[[I]] * 4] block 1x4 stride 4 repeat 1
//
// The fold's row select reads one spatial.index and one 0.0 (q8-lower's; CSE finds
// no other).
// PIPE:               spatial.stage "fold_sum" iters(par 32, par 128)
// PIPE-NEXT:            ins
// PIPE-NEXT:          ^bb0(
// PIPE-NEXT:            %[[D0:.*]] = spatial.index 0 : index
// PIPE-NEXT:            %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// PIPE-NEXT:            %[[C0:.*]] = arith.constant 0 : index
// PIPE-NEXT:            %[[ON0:.*]] = arith.cmpi eq, %[[D0]], %[[C0]] : index
// PIPE-NEXT:            arith.select %[[ON0]], %{{.*}}, %[[Z]] : f32
// PIPE-NEXT:            %[[C1:.*]] = arith.constant 1 : index
// PIPE-NEXT:            %[[ON1:.*]] = arith.cmpi eq, %[[D0]], %[[C1]] : index
// PIPE-NEXT:            arith.select %[[ON1]], %{{.*}}, %[[Z]] : f32
// PIPE-NOT:             spatial.index
// PIPE:               spatial.k_yield
// PIPE:             spatial.load %{{.*}}[8] block 8x1 stride 1 repeat 1
// PIPE-NEXT:        spatial.load %{{.*}}[%[[I]] * 4 + 128] block 16x4 stride 4 repeat 1
// PIPE-NEXT:        spatial.load %{{.*}}[%[[I]] * 4 + 4] block 1x4 stride 4 repeat 1
// PIPE:             spatial.stage "tail_7" iters(sum 16, par 128, sum 32)
// PIPE:             spatial.stage "result" iters(par 32, par 128)
// PIPE-NEXT:          ins(%[[SUM]][d0 * 128 + d1], {{.*}}) into
// PIPE:             spatial.store %{{.*}} to %{{.*}}[%[[I]] * 4] block 1x4 stride 4 repeat 1 : !spatial.page<4xf32> -> !spatial.tensor<8x100xf32, output>
// PIPE:         func.return %[[Y]] : tensor<8x100xf32>
// PIPE-NOT:     linalg.matmul
// PIPE-NOT:     q8.dequantize
// PIPE-NOT:     tensor.empty
// PIPE-LABEL: func.func @unused(
// PIPE-NEXT:    func.return
// PIPE-NEXT:  }
