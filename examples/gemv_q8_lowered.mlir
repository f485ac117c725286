// What `xdsl-opt -p q8-lower examples/gemv_q8.mlir` prints (the comments are added):
// the view and the fold programs for y = x . W, x one bf16 row of K = 2048, W a
// 2048 x 4096 Q8_0 weight, on the default target (a Tensix-like site: 32 x 32 tiles,
// 1.5 MiB of local memory, 8 fp32 accumulator tiles).
//
//   spatial-run examples/gemv_q8_lowered.mlir --seed 0 --stats   # runs it, counting bytes
builtin.module {
  func.func @gemv(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
// The view: x's 32-element blocks as the rows of a 64 x 32 matrix, one tile per K block
// of 1024. Item kb (2 of them) loads 32 tiles of x (row 0 is x, rows 1..31 the tile's
// pad), lifts element (0, 32 b + i) of that page to element (b, i) of one tile, and
// stores the tile as view tile row kb.
    %x__q8_rows0 = spatial.view "q8_view_1x2048_from0" grid [2] owns (d0) -> (d0, 0) size [1, 1]
      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
      plan #spatial.plan<grid = [2, 1], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%x : tensor<1x2048xbf16>) -> tensor<64x32xbf16> {
    ^bb0(%kb: index, %x_in: tensor<1x2048xbf16>):
      %x_1 = spatial.tensor "x" external(%x_in : tensor<1x2048xbf16>) : !spatial.tensor<1x2048xbf16, input>
      %view = spatial.tensor "x__q8_rows0" zero : !spatial.tensor<64x32xbf16, output>
      %in_block = spatial.buffer "in_block" : !spatial.buffer<32xbf16, depth 2>
      %out = spatial.buffer "out" : !spatial.buffer<1xbf16, depth 2>
      %p_in_block = spatial.load %x_1[%kb * 32] block 1x32 stride 64 repeat 1 into %in_block : !spatial.tensor<1x2048xbf16, input> -> !spatial.page<32xbf16>
      %lift_rows = spatial.stage "lift_rows" iters(par 32, par 32)
        ins(%p_in_block[d0 * 32 + d1]) into %out[d0 * 32 + d1] : (!spatial.page<32xbf16>) -> !spatial.page<1xbf16> {
      ^bb0(%0: bf16):
        spatial.yield %0 : bf16
      }
      spatial.store %lift_rows to %view[%kb] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<64x32xbf16, output>
      spatial.return %view : !spatial.tensor<64x32xbf16, output>
    }

// The fold: item i owns column tiles 8 i .. 8 i + 7 of y (wb = 8, the target's 8
// accumulator tiles; 16 items cover N = 4096). Its buffers take 740 KiB of the 1.5 MiB
// site. The weight moves as stored: 1 byte a value, 4 bytes a scale per 32 values.
    %y = spatial.fold "q8_gemv_2048x4096_w8" grid [16] owns (d0) -> (0, d0 * 8) size [1, 8]
      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 16], k_blocks = 2, site = [1, 8]> numerics approx "a Q8_0 product over 1 bf16 row"
      ins(%x__q8_rows0, %W__q8, %W__q8_scale : tensor<64x32xbf16>, tensor<2048x4096xi8>, tensor<64x4096xf32>) -> tensor<1x4096xf32> {
    ^bb0(%item: index, %view_in: tensor<64x32xbf16>, %q_in: tensor<2048x4096xi8>, %s_in: tensor<64x4096xf32>):
      %view = spatial.tensor "x__q8_rows0" external(%view_in : tensor<64x32xbf16>) : !spatial.tensor<64x32xbf16, input>
      %q = spatial.tensor "W__q8" external(%q_in : tensor<2048x4096xi8>) repack <q8_0.values> : !spatial.tensor<2048x4096xi8, param>
      %s = spatial.tensor "W__q8_scale" external(%s_in : tensor<64x4096xf32>) repack <q8_0.scales> : !spatial.tensor<64x4096xf32, param>
      %y_1 = spatial.tensor "y" zero : !spatial.tensor<1x4096xf32, output>
      %in_x = spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
      %in_q8 = spatial.buffer "in_q8" : !spatial.buffer<256xi8, depth 2>
      %in_scale = spatial.buffer "in_scale" : !spatial.buffer<8xf32, depth 2>
      %run_sum = spatial.buffer "run_sum" : !spatial.buffer<8xf32, depth 2>
      // The fp32 carry starts at zero.
      %init_sum = spatial.stage "init_sum" iters(par 32, par 256)
        ins() into %run_sum[d0 * 256 + d1] : () -> !spatial.page<8xf32> {
        %0 = arith.constant 0.000000e+00 : f32
        spatial.yield %0 : f32
      }
      %block = spatial.buffer "block" : !spatial.buffer<8xf32, depth 1>
      // Two K blocks of 1024 rows: per block, the view's tile, 32 x 8 tiles of int8 values
      // (32 Q8_0 blocks of the item's 256 columns) and one tile row of 8 scale tiles.
      %sum = spatial.k_loop %kb = 0 to 2 iter_args(%acc = %init_sum) -> (!spatial.page<8xf32>) {
        %p_in_x = spatial.load %view[%kb] block 1x1 stride 1 repeat 2 into %in_x : !spatial.tensor<64x32xbf16, input> -> !spatial.page<1xbf16>
        %p_in_q8 = spatial.load %q[%kb * 4096 + %item * 8] block 32x8 stride 128 repeat 2 into %in_q8 : !spatial.tensor<2048x4096xi8, param> -> !spatial.page<256xi8>
        %p_in_scale = spatial.load %s[%kb * 128 + %item * 8] block 1x8 stride 128 repeat 2 into %in_scale : !spatial.tensor<64x4096xf32, param> -> !spatial.page<8xf32>
        // Per column n: sum over blocks b of s[b, n] * sum over lanes i of x[32 b + i] * q[32 b + i, n].
        // q's page holds block b's values as tiles 8 b .. 8 b + 7, lane i on page row i.
        %block_1 = spatial.stage "block" iters(sum 32, par 256, sum 32)
          ins(%p_in_x[d0 * 32 + d2], %p_in_q8[d2 * 8192 + d0 * 256 + d1], %p_in_scale[d0 * 256 + d1]) into %block[d1] : (!spatial.page<1xbf16>, !spatial.page<256xi8>, !spatial.page<8xf32>) -> !spatial.page<8xf32> {
        ^bb0(%1: bf16, %2: i8, %3: f32):
          %4 = arith.extf %1 : bf16 to f32
          %5 = arith.sitofp %2 : i8 to f32
          %6 = arith.mulf %4, %5 : f32
          %7 = arith.mulf %6, %3 : f32
          spatial.yield %7 : f32
        }
        // The block's sums added into the carry (a single row's sum is every row's).
        %fold_sum = spatial.stage "fold_sum" iters(par 32, par 256)
          ins(%acc[d0 * 256 + d1], %block_1[d1]) into %run_sum[d0 * 256 + d1] : (!spatial.page<8xf32>, !spatial.page<8xf32>) -> !spatial.page<8xf32> {
        ^bb0(%8: f32, %9: f32):
          %10 = arith.addf %8, %9 : f32
          spatial.yield %10 : f32
        }
        spatial.k_yield %fold_sum : !spatial.page<8xf32>
      }
      %out = spatial.buffer "out" : !spatial.buffer<8xf32, depth 2>
      // No tail (K is whole blocks of 1024): the result is the carry.
      %result = spatial.stage "result" iters(par 32, par 256)
        ins(%sum[d0 * 256 + d1]) into %out[d0 * 256 + d1] : (!spatial.page<8xf32>) -> !spatial.page<8xf32> {
      ^bb0(%11: f32):
        spatial.yield %11 : f32
      }
      // The item's 8 column tiles of y.
      spatial.store %result to %y_1[%item * 8] block 1x8 stride 128 repeat 1 : !spatial.page<8xf32> -> !spatial.tensor<1x4096xf32, output>
      spatial.return %y_1 : !spatial.tensor<1x4096xf32, output>
    }
    func.return %y : tensor<1x4096xf32>
  }
}

