// `spatial-merge-siblings` on q8-lower's fold of a batch of 2 rows, K = 1088 (a K
// block of 1024 in a loop, then a tail of 2 Q8_0 blocks), N = 64 (the input is what
// `xdsl-opt -p q8-lower` prints for that product, its view made an argument). The
// `block_0` and `block_1` stages (one a row: the view's rows 32 elements apart) become
// one `block` stage with a `par 2` axis in front, its buffer the two 2-tile pages side
// by side (4 tiles: the same local memory); `fold_sum` reads row r's sums at `+ 64 r`.
// The tail's two stages likewise.
//
// RUN: xdsl-opt %s | filecheck %s --check-prefix=BEFORE
// RUN: xdsl-opt %s -p spatial-merge-siblings | filecheck %s
// RUN: xdsl-opt %s -p spatial-merge-siblings | filecheck %s --check-prefix=GONE
// RUN: xdsl-opt %s -p spatial-merge-siblings --print-op-generic | xdsl-opt | filecheck %s

// BEFORE:      spatial.buffer "block_0" : !spatial.buffer<2xf32, depth 1>
// BEFORE-NEXT: spatial.buffer "block_1" : !spatial.buffer<2xf32, depth 1>
// BEFORE:      spatial.stage "block_0" iters(sum 32, par 64, sum 32)
// BEFORE:      spatial.stage "block_1" iters(sum 32, par 64, sum 32)

// CHECK-LABEL: func.func @gemm_fold
// CHECK:         %[[BB:.*]] = spatial.buffer "block" : !spatial.buffer<4xf32, depth 1>
// CHECK-NEXT:    %{{.*}} = spatial.k_loop %[[KB:.*]] = 0 to 1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (!spatial.page<2xf32>) {
// CHECK-NEXT:      %[[X:.*]] = spatial.load %{{.*}}[%[[KB]] * 2] block 2x1 stride 1 repeat 1 into %{{.*}}
// CHECK-NEXT:      %[[Q:.*]] = spatial.load
// CHECK-NEXT:      %[[S:.*]] = spatial.load
// CHECK-NEXT:      %[[B:.*]] = spatial.stage "block" iters(par 2, sum 32, par 64, sum 32)
// CHECK-NEXT:        ins(%[[X]][d1 * 64 + d0 * 32 + d3], %[[Q]][d3 * 2048 + d1 * 64 + d2], %[[S]][d1 * 64 + d2]) into %[[BB]][d0 * 64 + d2] : (!spatial.page<2xbf16>, !spatial.page<64xi8>, !spatial.page<2xf32>) -> !spatial.page<4xf32> {
// CHECK:           spatial.stage "fold_sum" iters(par 32, par 64)
// CHECK-NEXT:        ins(%[[ACC]][d0 * 64 + d1], %[[B]][d1], %[[B]][d1 + 64]) into
// CHECK:         %[[TB:.*]] = spatial.buffer "tail" : !spatial.buffer<4xf32, depth 1>
// CHECK-NEXT:    %[[T:.*]] = spatial.stage "tail" iters(par 2, sum 2, par 64, sum 32)
// CHECK-NEXT:      ins(%{{.*}}[d1 * 64 + d0 * 32 + d3], %{{.*}}[d3 * 128 + d1 * 64 + d2], %{{.*}}[d1 * 64 + d2]) into %[[TB]][d0 * 64 + d2]
// CHECK:         spatial.stage "result" iters(par 32, par 64)
// CHECK-NEXT:      ins(%{{.*}}[d0 * 64 + d1], %[[T]][d1], %[[T]][d1 + 64]) into
// GONE-NOT:      "block_0"
// GONE-NOT:      "block_1"
// GONE-NOT:      "tail_0"
// GONE-NOT:      "tail_1"

builtin.module {
  func.func @gemm_fold(%x__q8_rows0: tensor<128x32xbf16>, %W__q8: tensor<1088x64xi8>, %W__q8_scale: tensor<34x64xf32>) -> tensor<2x64xf32> {
    %y = spatial.fold "q8_gemm_2x1088x64_w2" grid [1] owns (d0) -> (0, d0 * 2) size [1, 2]
      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 2]> numerics approx "a Q8_0 product over 2 bf16 rows"
      ins(%x__q8_rows0, %W__q8, %W__q8_scale : tensor<128x32xbf16>, tensor<1088x64xi8>, tensor<34x64xf32>) -> tensor<2x64xf32> {
    ^bb0(%item: index, %view_in: tensor<128x32xbf16>, %q_in: tensor<1088x64xi8>, %s_in: tensor<34x64xf32>):
      %view = spatial.tensor "x__q8_rows0" external(%view_in : tensor<128x32xbf16>) : !spatial.tensor<128x32xbf16, input>
      %q = spatial.tensor "W__q8" external(%q_in : tensor<1088x64xi8>) repack <q8_0.values> : !spatial.tensor<1088x64xi8, param>
      %s = spatial.tensor "W__q8_scale" external(%s_in : tensor<34x64xf32>) repack <q8_0.scales> : !spatial.tensor<34x64xf32, param>
      %y_1 = spatial.tensor "y" zero : !spatial.tensor<2x64xf32, output>
      %in_x = spatial.buffer "in_x" : !spatial.buffer<2xbf16, depth 2>
      %in_q8 = spatial.buffer "in_q8" : !spatial.buffer<64xi8, depth 2>
      %in_scale = spatial.buffer "in_scale" : !spatial.buffer<2xf32, depth 2>
      %run_sum = spatial.buffer "run_sum" : !spatial.buffer<2xf32, depth 2>
      %init_sum = spatial.stage "init_sum" iters(par 32, par 64)
        ins() into %run_sum[d0 * 64 + d1] : () -> !spatial.page<2xf32> {
        %0 = arith.constant 0.000000e+00 : f32
        spatial.yield %0 : f32
      }
      %block = spatial.buffer "block_0" : !spatial.buffer<2xf32, depth 1>
      %block_1 = spatial.buffer "block_1" : !spatial.buffer<2xf32, depth 1>
      %sum = spatial.k_loop %kb = 0 to 1 iter_args(%acc = %init_sum) -> (!spatial.page<2xf32>) {
        %p_in_x = spatial.load %view[%kb * 2] block 2x1 stride 1 repeat 1 into %in_x : !spatial.tensor<128x32xbf16, input> -> !spatial.page<2xbf16>
        %p_in_q8 = spatial.load %q[%kb * 64 + %item * 2] block 32x2 stride 2 repeat 1 into %in_q8 : !spatial.tensor<1088x64xi8, param> -> !spatial.page<64xi8>
        %p_in_scale = spatial.load %s[%kb * 2 + %item * 2] block 1x2 stride 2 repeat 1 into %in_scale : !spatial.tensor<34x64xf32, param> -> !spatial.page<2xf32>
        %block_2 = spatial.stage "block_0" iters(sum 32, par 64, sum 32)
          ins(%p_in_x[d0 * 64 + d2], %p_in_q8[d2 * 2048 + d0 * 64 + d1], %p_in_scale[d0 * 64 + d1]) into %block[d1] : (!spatial.page<2xbf16>, !spatial.page<64xi8>, !spatial.page<2xf32>) -> !spatial.page<2xf32> {
        ^bb0(%1: bf16, %2: i8, %3: f32):
          %4 = arith.extf %1 : bf16 to f32
          %5 = arith.sitofp %2 : i8 to f32
          %6 = arith.mulf %4, %5 : f32
          %7 = arith.mulf %6, %3 : f32
          spatial.yield %7 : f32
        }
        %block_3 = spatial.stage "block_1" iters(sum 32, par 64, sum 32)
          ins(%p_in_x[d0 * 64 + d2 + 32], %p_in_q8[d2 * 2048 + d0 * 64 + d1], %p_in_scale[d0 * 64 + d1]) into %block_1[d1] : (!spatial.page<2xbf16>, !spatial.page<64xi8>, !spatial.page<2xf32>) -> !spatial.page<2xf32> {
        ^bb0(%8: bf16, %9: i8, %10: f32):
          %11 = arith.extf %8 : bf16 to f32
          %12 = arith.sitofp %9 : i8 to f32
          %13 = arith.mulf %11, %12 : f32
          %14 = arith.mulf %13, %10 : f32
          spatial.yield %14 : f32
        }
        %fold_sum = spatial.stage "fold_sum" iters(par 32, par 64)
          ins(%acc[d0 * 64 + d1], %block_2[d1], %block_3[d1]) into %run_sum[d0 * 64 + d1] : (!spatial.page<2xf32>, !spatial.page<2xf32>, !spatial.page<2xf32>) -> !spatial.page<2xf32> {
        ^bb0(%15: f32, %16: f32, %17: f32):
          %18 = spatial.index 0 : index
          %19 = arith.constant 0 : index
          %20 = arith.cmpi eq, %18, %19 : index
          %21 = arith.constant 0.000000e+00 : f32
          %22 = arith.select %20, %16, %21 : f32
          %23 = spatial.index 0 : index
          %24 = arith.constant 1 : index
          %25 = arith.cmpi eq, %23, %24 : index
          %26 = arith.constant 0.000000e+00 : f32
          %27 = arith.select %25, %17, %26 : f32
          %28 = arith.addf %15, %22 : f32
          %29 = arith.addf %28, %27 : f32
          spatial.yield %29 : f32
        }
        spatial.k_yield %fold_sum : !spatial.page<2xf32>
      }
      %in_x_tail = spatial.buffer "in_x_tail" : !spatial.buffer<2xbf16, depth 1>
      %in_q8_tail = spatial.buffer "in_q8_tail" : !spatial.buffer<4xi8, depth 1>
      %in_scale_tail = spatial.buffer "in_scale_tail" : !spatial.buffer<2xf32, depth 1>
      %p_in_x_tail = spatial.load %view[2] block 2x1 stride 1 repeat 1 into %in_x_tail : !spatial.tensor<128x32xbf16, input> -> !spatial.page<2xbf16>
      %p_in_q8_tail = spatial.load %q[%item * 2 + 64] block 2x2 stride 2 repeat 1 into %in_q8_tail : !spatial.tensor<1088x64xi8, param> -> !spatial.page<4xi8>
      %p_in_scale_tail = spatial.load %s[%item * 2 + 2] block 1x2 stride 2 repeat 1 into %in_scale_tail : !spatial.tensor<34x64xf32, param> -> !spatial.page<2xf32>
      %tail = spatial.buffer "tail_0" : !spatial.buffer<2xf32, depth 1>
      %tail_1 = spatial.stage "tail_0" iters(sum 2, par 64, sum 32)
        ins(%p_in_x_tail[d0 * 64 + d2], %p_in_q8_tail[d2 * 128 + d0 * 64 + d1], %p_in_scale_tail[d0 * 64 + d1]) into %tail[d1] : (!spatial.page<2xbf16>, !spatial.page<4xi8>, !spatial.page<2xf32>) -> !spatial.page<2xf32> {
      ^bb0(%30: bf16, %31: i8, %32: f32):
        %33 = arith.extf %30 : bf16 to f32
        %34 = arith.sitofp %31 : i8 to f32
        %35 = arith.mulf %33, %34 : f32
        %36 = arith.mulf %35, %32 : f32
        spatial.yield %36 : f32
      }
      %tail_2 = spatial.buffer "tail_1" : !spatial.buffer<2xf32, depth 1>
      %tail_3 = spatial.stage "tail_1" iters(sum 2, par 64, sum 32)
        ins(%p_in_x_tail[d0 * 64 + d2 + 32], %p_in_q8_tail[d2 * 128 + d0 * 64 + d1], %p_in_scale_tail[d0 * 64 + d1]) into %tail_2[d1] : (!spatial.page<2xbf16>, !spatial.page<4xi8>, !spatial.page<2xf32>) -> !spatial.page<2xf32> {
      ^bb0(%37: bf16, %38: i8, %39: f32):
        %40 = arith.extf %37 : bf16 to f32
        %41 = arith.sitofp %38 : i8 to f32
        %42 = arith.mulf %40, %41 : f32
        %43 = arith.mulf %42, %39 : f32
        spatial.yield %43 : f32
      }
      %out = spatial.buffer "out" : !spatial.buffer<2xf32, depth 2>
      %result = spatial.stage "result" iters(par 32, par 64)
        ins(%sum[d0 * 64 + d1], %tail_1[d1], %tail_3[d1]) into %out[d0 * 64 + d1] : (!spatial.page<2xf32>, !spatial.page<2xf32>, !spatial.page<2xf32>) -> !spatial.page<2xf32> {
      ^bb0(%44: f32, %45: f32, %46: f32):
        %47 = spatial.index 0 : index
        %48 = arith.constant 0 : index
        %49 = arith.cmpi eq, %47, %48 : index
        %50 = arith.constant 0.000000e+00 : f32
        %51 = arith.select %49, %45, %50 : f32
        %52 = spatial.index 0 : index
        %53 = arith.constant 1 : index
        %54 = arith.cmpi eq, %52, %53 : index
        %55 = arith.constant 0.000000e+00 : f32
        %56 = arith.select %54, %46, %55 : f32
        %57 = arith.addf %44, %51 : f32
        %58 = arith.addf %57, %56 : f32
        spatial.yield %58 : f32
      }
      spatial.store %result to %y_1[%item * 2] block 1x2 stride 2 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<2x64xf32, output>
      spatial.return %y_1 : !spatial.tensor<2x64xf32, output>
    }
    func.return %y : tensor<2x64xf32>
  }
}

