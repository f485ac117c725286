// A spatial program that cannot run, and the diagnostic that says why.
// Each item stores its 8 column tiles of y 4 tiles after the previous item's: items 0
// and 1 both write tiles 4 to 7.
// spatial-opt says: items 0 and 1 both write tile (0, 4) of 'y'

func.func @fold(%x__q8_rows0: tensor<32x32xbf16>, %W__q8: tensor<1024x512xi8>, %W__q8_scale: tensor<32x512xf32>) -> tensor<1x512xf32> {
  %y = spatial.fold "q8_gemv_1024x512_w8" grid [2] owns (d0) -> (0, d0 * 8) size [1, 8]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 8]> numerics approx "a Q8_0 product over 1 bf16 row"
    ins(%x__q8_rows0, %W__q8, %W__q8_scale : tensor<32x32xbf16>, tensor<1024x512xi8>, tensor<32x512xf32>) -> tensor<1x512xf32> {
  ^bb0(%item: index, %view_in: tensor<32x32xbf16>, %q_in: tensor<1024x512xi8>, %s_in: tensor<32x512xf32>):
    %view = spatial.tensor "x__q8_rows0" external(%view_in : tensor<32x32xbf16>) : !spatial.tensor<32x32xbf16, input>
    %q = spatial.tensor "W__q8" external(%q_in : tensor<1024x512xi8>) repack <q8_0.values> : !spatial.tensor<1024x512xi8, param>
    %s = spatial.tensor "W__q8_scale" external(%s_in : tensor<32x512xf32>) repack <q8_0.scales> : !spatial.tensor<32x512xf32, param>
    %y_1 = spatial.tensor "y" zero : !spatial.tensor<1x512xf32, output>
    %in_x = spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
    %in_q8 = spatial.buffer "in_q8" : !spatial.buffer<256xi8, depth 2>
    %in_scale = spatial.buffer "in_scale" : !spatial.buffer<8xf32, depth 2>
    %run_sum = spatial.buffer "run_sum" : !spatial.buffer<8xf32, depth 2>
    %init_sum = spatial.stage "init_sum" iters(par 32, par 256)
      ins() into %run_sum[d0 * 256 + d1] : () -> !spatial.page<8xf32> {
      %0 = arith.constant 0.000000e+00 : f32
      spatial.yield %0 : f32
    }
    %block = spatial.buffer "block" : !spatial.buffer<8xf32, depth 1>
    %sum = spatial.k_loop %kb = 0 to 1 iter_args(%acc = %init_sum) -> (!spatial.page<8xf32>) {
      %p_in_x = spatial.load %view[%kb] block 1x1 stride 1 repeat 1 into %in_x : !spatial.tensor<32x32xbf16, input> -> !spatial.page<1xbf16>
      %p_in_q8 = spatial.load %q[%kb * 512 + %item * 8] block 32x8 stride 16 repeat 1 into %in_q8 : !spatial.tensor<1024x512xi8, param> -> !spatial.page<256xi8>
      %p_in_scale = spatial.load %s[%kb * 16 + %item * 8] block 1x8 stride 16 repeat 1 into %in_scale : !spatial.tensor<32x512xf32, param> -> !spatial.page<8xf32>
      %block_1 = spatial.stage "block" iters(sum 32, par 256, sum 32)
        ins(%p_in_x[d0 * 32 + d2], %p_in_q8[d2 * 8192 + d0 * 256 + d1], %p_in_scale[d0 * 256 + d1]) into %block[d1] : (!spatial.page<1xbf16>, !spatial.page<256xi8>, !spatial.page<8xf32>) -> !spatial.page<8xf32> {
      ^bb0(%1: bf16, %2: i8, %3: f32):
        %4 = arith.extf %1 : bf16 to f32
        %5 = arith.sitofp %2 : i8 to f32
        %6 = arith.mulf %4, %5 : f32
        %7 = arith.mulf %6, %3 : f32
        spatial.yield %7 : f32
      }
      %fold_sum = spatial.stage "fold_sum" iters(par 32, par 256)
        ins(%acc[d0 * 256 + d1], %block_1[d1]) into %run_sum[d0 * 256 + d1] : (!spatial.page<8xf32>, !spatial.page<8xf32>) -> !spatial.page<8xf32> {
      ^bb0(%8: f32, %9: f32):
        %10 = arith.addf %8, %9 : f32
        spatial.yield %10 : f32
      }
      spatial.k_yield %fold_sum : !spatial.page<8xf32>
    }
    %out = spatial.buffer "out" : !spatial.buffer<8xf32, depth 2>
    %result = spatial.stage "result" iters(par 32, par 256)
      ins(%sum[d0 * 256 + d1]) into %out[d0 * 256 + d1] : (!spatial.page<8xf32>) -> !spatial.page<8xf32> {
    ^bb0(%11: f32):
      spatial.yield %11 : f32
    }
    spatial.store %result to %y_1[%item * 4] block 1x8 stride 16 repeat 1 : !spatial.page<8xf32> -> !spatial.tensor<1x512xf32, output>
    spatial.return %y_1 : !spatial.tensor<1x512xf32, output>
  }
  func.return %y : tensor<1x512xf32>
}
