// `spatial-sum-trips` on q8-lower's fold of a GEMV, K = 4096 (4 K blocks of 1024 in
// a loop), N = 64 (the input is what `xdsl-opt -p q8-lower` prints for it, the view
// made an argument). The loop's carry only accumulates (`fold_sum` adds the block's
// sums to it), the block's sums are made in the loop from its three loads, and each
// load steps a whole block a trip: the site holds all 4 trips at once, so the loads
// take 4 blocks (the view's 4 tiles, 128 x 2 tiles of values, 4 x 2 of scales, each
// buffer one page: the loop now runs once), and `block` sums a `sum 4` axis in front
// of its own over the trips' parts of each page (part t at `+ 32 t` in the view's row
// of 128, `+ 2048 t` in the values' row of 8192). The plan's K blocks follow.
//
// RUN: xdsl-opt %s | filecheck %s --check-prefix=BEFORE
// RUN: xdsl-opt %s -p spatial-sum-trips | filecheck %s
// RUN: xdsl-opt %s -p spatial-sum-trips,spatial-sum-trips | filecheck %s

// BEFORE:      plan #spatial.plan<grid = [1, 1], k_blocks = 4, site = [1, 2]>
// BEFORE:      spatial.k_loop %{{.*}} = 0 to 4
// BEFORE:      spatial.stage "block" iters(sum 32, par 64, sum 32)

// CHECK-LABEL: func.func @gemv_fold
// CHECK:         plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 2]>
// CHECK:         %[[BX:.*]] = spatial.buffer "in_x" : !spatial.buffer<4xbf16, depth 1>
// CHECK-NEXT:    %[[BQ:.*]] = spatial.buffer "in_q8" : !spatial.buffer<256xi8, depth 1>
// CHECK-NEXT:    %[[BS:.*]] = spatial.buffer "in_scale" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:    %[[RS:.*]] = spatial.buffer "run_sum" : !spatial.buffer<2xf32, depth 2>
// CHECK:         %[[BB:.*]] = spatial.buffer "block" : !spatial.buffer<2xf32, depth 1>
// CHECK-NEXT:    %{{.*}} = spatial.k_loop %[[KB:.*]] = 0 to 1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (!spatial.page<2xf32>) {
// CHECK-NEXT:      %[[X:.*]] = spatial.load %{{.*}}[%[[KB]] * 4] block 4x1 stride 1 repeat 1 into %[[BX]]
// CHECK-NEXT:      %[[Q:.*]] = spatial.load %{{.*}}[%[[KB]] * 256 + %{{.*}} * 2] block 128x2 stride 2 repeat 1 into %[[BQ]]
// CHECK-NEXT:      %[[S:.*]] = spatial.load %{{.*}}[%[[KB]] * 8 + %{{.*}} * 2] block 4x2 stride 2 repeat 1 into %[[BS]]
// CHECK-NEXT:      %[[B:.*]] = spatial.stage "block" iters(sum 4, sum 32, par 64, sum 32)
// CHECK-NEXT:        ins(%[[X]][d1 * 128 + d0 * 32 + d3], %[[Q]][d3 * 8192 + d0 * 2048 + d1 * 64 + d2], %[[S]][d1 * 256 + d0 * 64 + d2]) into %[[BB]][d2] : (!spatial.page<4xbf16>, !spatial.page<256xi8>, !spatial.page<8xf32>) -> !spatial.page<2xf32> {
// CHECK:           %[[F:.*]] = spatial.stage "fold_sum" iters(par 32, par 64)
// CHECK-NEXT:        ins(%[[ACC]][d0 * 64 + d1], %[[B]][d1]) into %[[RS]][d0 * 64 + d1]
// CHECK:           spatial.k_yield %[[F]] : !spatial.page<2xf32>

builtin.module {
  func.func @gemv_fold(%x__q8_rows0: tensor<128x32xbf16>, %W__q8: tensor<4096x64xi8>, %W__q8_scale: tensor<128x64xf32>) -> tensor<1x64xf32> {
    %y = spatial.fold "q8_gemv_4096x64_w2" grid [1] owns (d0) -> (0, d0 * 2) size [1, 2]
      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 4, site = [1, 2]> numerics approx "a Q8_0 product over 1 bf16 row"
      ins(%x__q8_rows0, %W__q8, %W__q8_scale : tensor<128x32xbf16>, tensor<4096x64xi8>, tensor<128x64xf32>) -> tensor<1x64xf32> {
    ^bb0(%item: index, %view_in: tensor<128x32xbf16>, %q_in: tensor<4096x64xi8>, %s_in: tensor<128x64xf32>):
      %view = spatial.tensor "x__q8_rows0" external(%view_in : tensor<128x32xbf16>) : !spatial.tensor<128x32xbf16, input>
      %q = spatial.tensor "W__q8" external(%q_in : tensor<4096x64xi8>) repack <q8_0.values> : !spatial.tensor<4096x64xi8, param>
      %s = spatial.tensor "W__q8_scale" external(%s_in : tensor<128x64xf32>) repack <q8_0.scales> : !spatial.tensor<128x64xf32, param>
      %y_1 = spatial.tensor "y" zero : !spatial.tensor<1x64xf32, output>
      %in_x = spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
      %in_q8 = spatial.buffer "in_q8" : !spatial.buffer<64xi8, depth 2>
      %in_scale = spatial.buffer "in_scale" : !spatial.buffer<2xf32, depth 2>
      %run_sum = spatial.buffer "run_sum" : !spatial.buffer<2xf32, depth 2>
      %init_sum = spatial.stage "init_sum" iters(par 32, par 64)
        ins() into %run_sum[d0 * 64 + d1] : () -> !spatial.page<2xf32> {
        %0 = arith.constant 0.000000e+00 : f32
        spatial.yield %0 : f32
      }
      %block = spatial.buffer "block" : !spatial.buffer<2xf32, depth 1>
      %sum = spatial.k_loop %kb = 0 to 4 iter_args(%acc = %init_sum) -> (!spatial.page<2xf32>) {
        %p_in_x = spatial.load %view[%kb] block 1x1 stride 1 repeat 4 into %in_x : !spatial.tensor<128x32xbf16, input> -> !spatial.page<1xbf16>
        %p_in_q8 = spatial.load %q[%kb * 64 + %item * 2] block 32x2 stride 2 repeat 4 into %in_q8 : !spatial.tensor<4096x64xi8, param> -> !spatial.page<64xi8>
        %p_in_scale = spatial.load %s[%kb * 2 + %item * 2] block 1x2 stride 2 repeat 4 into %in_scale : !spatial.tensor<128x64xf32, param> -> !spatial.page<2xf32>
        %block_1 = spatial.stage "block" iters(sum 32, par 64, sum 32)
          ins(%p_in_x[d0 * 32 + d2], %p_in_q8[d2 * 2048 + d0 * 64 + d1], %p_in_scale[d0 * 64 + d1]) into %block[d1] : (!spatial.page<1xbf16>, !spatial.page<64xi8>, !spatial.page<2xf32>) -> !spatial.page<2xf32> {
        ^bb0(%1: bf16, %2: i8, %3: f32):
          %4 = arith.extf %1 : bf16 to f32
          %5 = arith.sitofp %2 : i8 to f32
          %6 = arith.mulf %4, %5 : f32
          %7 = arith.mulf %6, %3 : f32
          spatial.yield %7 : f32
        }
        %fold_sum = spatial.stage "fold_sum" iters(par 32, par 64)
          ins(%acc[d0 * 64 + d1], %block_1[d1]) into %run_sum[d0 * 64 + d1] : (!spatial.page<2xf32>, !spatial.page<2xf32>) -> !spatial.page<2xf32> {
        ^bb0(%8: f32, %9: f32):
          %10 = arith.addf %8, %9 : f32
          spatial.yield %10 : f32
        }
        spatial.k_yield %fold_sum : !spatial.page<2xf32>
      }
      %out = spatial.buffer "out" : !spatial.buffer<2xf32, depth 2>
      %result = spatial.stage "result" iters(par 32, par 64)
        ins(%sum[d0 * 64 + d1]) into %out[d0 * 64 + d1] : (!spatial.page<2xf32>) -> !spatial.page<2xf32> {
      ^bb0(%11: f32):
        spatial.yield %11 : f32
      }
      spatial.store %result to %y_1[%item * 2] block 1x2 stride 2 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<1x64xf32, output>
      spatial.return %y_1 : !spatial.tensor<1x64xf32, output>
    }
    func.return %y : tensor<1x64xf32>
  }
}

