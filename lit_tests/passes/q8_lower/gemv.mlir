// RUN: spatial-opt %s -p q8-lower | filecheck %s

// One bf16 row (m = 1) on the default target (tensix: 32x32 tiles, 1.5 MiB of local
// memory, 8 accumulator tiles). The numbers are docs/lowering.md's: K/32 view rows, K
// blocks of 1024 rows, wb the widest divisor of the column tiles up to 8.

// K = 2048, N = 4096: 128 column tiles, wb = 8, 128 / 8 = 16 items, 2048 / 1024 = 2 K
// blocks, no tail. The activation is widened with arith.extf into an all-f32 matmul;
// the view holds the bf16 values.
func.func @gemv_2048x4096(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
  %xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %empty = tensor.empty() : tensor<1x4096xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}

// CHECK-LABEL: func.func @gemv_2048x4096(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2048xbf16>, %[[WQ:.*]]: tensor<2048x4096xi8>, %[[WS:.*]]: tensor<64x4096xf32>)
//
// The view: 2048 / 32 = 64 rows of 32 (two tiles), one item per K block.
// CHECK-NEXT:    %[[VIEW:.*]] = spatial.view "q8_view_1x2048_from0" grid [2] owns (d0) -> (d0, 0) size [1, 1]
// CHECK-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
// CHECK-NEXT:      plan #spatial.plan<grid = [2, 1], k_blocks = 1, site = [1, 1]> numerics exact
// CHECK-NEXT:      ins(%[[X]] : tensor<1x2048xbf16>) -> tensor<64x32xbf16> {
// CHECK-NEXT:    ^bb0(%[[KB:.*]]: index, %[[XIN:.*]]: tensor<1x2048xbf16>):
// CHECK-NEXT:      %[[XT:.*]] = spatial.tensor "x" external(%[[XIN]] : tensor<1x2048xbf16>) : !spatial.tensor<1x2048xbf16, input>
// CHECK-NEXT:      %[[VT:.*]] = spatial.tensor "x__q8_rows0" zero : !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT:      %[[BIN:.*]] = spatial.buffer "in_block" : !spatial.buffer<32xbf16, depth 2>
// CHECK-NEXT:      %[[BOUT:.*]] = spatial.buffer "out" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT:      %[[PX:.*]] = spatial.load %[[XT]][%[[KB]] * 32] block 1x32 stride 64 repeat 1 into %[[BIN]] : !spatial.tensor<1x2048xbf16, input> -> !spatial.page<32xbf16>
// CHECK-NEXT:      %[[LIFT:.*]] = spatial.stage "lift_rows" iters(par 32, par 32)
// CHECK-NEXT:        ins(%[[PX]][d0 * 32 + d1]) into %[[BOUT]][d0 * 32 + d1] : (!spatial.page<32xbf16>) -> !spatial.page<1xbf16> {
// CHECK-NEXT:      ^bb0(%[[E:.*]]: bf16):
// CHECK-NEXT:        spatial.yield %[[E]] : bf16
// CHECK-NEXT:      }
// CHECK-NEXT:      spatial.store %[[LIFT]] to %[[VT]][%[[KB]]] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT:      spatial.return %[[VT]] : !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT:    }
//
// The fold: 16 items of 8 column tiles, a K loop of 2 trips; per trip 1 view tile,
// 32 x 8 tiles of values (stride 128 tiles a row) and 1 x 8 tiles of scales.
// CHECK-NEXT:    %[[Y:.*]] = spatial.fold "q8_gemv_2048x4096_w8" grid [16] owns (d0) -> (0, d0 * 8) size [1, 8]
// CHECK-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 16], k_blocks = 2, site = [1, 8]> numerics approx "a Q8_0 product over 1 bf16 row"
// CHECK-NEXT:      ins(%[[VIEW]], %[[WQ]], %[[WS]] : tensor<64x32xbf16>, tensor<2048x4096xi8>, tensor<64x4096xf32>) -> tensor<1x4096xf32> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[VIN:.*]]: tensor<64x32xbf16>, %[[QIN:.*]]: tensor<2048x4096xi8>, %[[SIN:.*]]: tensor<64x4096xf32>):
// CHECK-NEXT:      %[[V:.*]] = spatial.tensor "x__q8_rows0" external(%[[VIN]] : tensor<64x32xbf16>) : !spatial.tensor<64x32xbf16, input>
// CHECK-NEXT:      %[[Q:.*]] = spatial.tensor "W__q8" external(%[[QIN]] : tensor<2048x4096xi8>) repack <q8_0.values> : !spatial.tensor<2048x4096xi8, param>
// CHECK-NEXT:      %[[S:.*]] = spatial.tensor "W__q8_scale" external(%[[SIN]] : tensor<64x4096xf32>) repack <q8_0.scales> : !spatial.tensor<64x4096xf32, param>
// CHECK-NEXT:      %[[YT:.*]] = spatial.tensor "y" zero : !spatial.tensor<1x4096xf32, output>
// CHECK-NEXT:      %[[BX:.*]] = spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT:      %[[BQ:.*]] = spatial.buffer "in_q8" : !spatial.buffer<256xi8, depth 2>
// CHECK-NEXT:      %[[BS:.*]] = spatial.buffer "in_scale" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[RSUM:.*]] = spatial.buffer "run_sum" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[INIT:.*]] = spatial.stage "init_sum" iters(par 32, par 256)
// CHECK-NEXT:        ins() into %[[RSUM]][d0 * 256 + d1] : () -> !spatial.page<8xf32> {
// CHECK-NEXT:        %[[C0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        spatial.yield %[[C0]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[BB:.*]] = spatial.buffer "block" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[SUM:.*]] = spatial.k_loop %[[K:.*]] = 0 to 2 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (!spatial.page<8xf32>) {
// CHECK-NEXT:        %[[PXK:.*]] = spatial.load %[[V]][%[[K]]] block 1x1 stride 1 repeat 2 into %[[BX]] : !spatial.tensor<64x32xbf16, input> -> !spatial.page<1xbf16>
// CHECK-NEXT:        %[[PQ:.*]] = spatial.load %[[Q]][%[[K]] * 4096 + %[[I]] * 8] block 32x8 stride 128 repeat 2 into %[[BQ]] : !spatial.tensor<2048x4096xi8, param> -> !spatial.page<256xi8>
// CHECK-NEXT:        %[[PS:.*]] = spatial.load %[[S]][%[[K]] * 128 + %[[I]] * 8] block 1x8 stride 128 repeat 2 into %[[BS]] : !spatial.tensor<64x4096xf32, param> -> !spatial.page<8xf32>
// CHECK-NEXT:        %[[BLK:.*]] = spatial.stage "block" iters(sum 32, par 256, sum 32)
// CHECK-NEXT:          ins(%[[PXK]][d0 * 32 + d2], %[[PQ]][d2 * 8192 + d0 * 256 + d1], %[[PS]][d0 * 256 + d1]) into %[[BB]][d1] : (!spatial.page<1xbf16>, !spatial.page<256xi8>, !spatial.page<8xf32>) -> !spatial.page<8xf32> {
// CHECK-NEXT:        ^bb0(%[[XE:.*]]: bf16, %[[QE:.*]]: i8, %[[SE:.*]]: f32):
// CHECK-NEXT:          %[[XF:.*]] = arith.extf %[[XE]] : bf16 to f32
// CHECK-NEXT:          %[[QF:.*]] = arith.sitofp %[[QE]] : i8 to f32
// CHECK-NEXT:          %[[XQ:.*]] = arith.mulf %[[XF]], %[[QF]] : f32
// CHECK-NEXT:          %[[XQS:.*]] = arith.mulf %[[XQ]], %[[SE]] : f32
// CHECK-NEXT:          spatial.yield %[[XQS]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[FOLD:.*]] = spatial.stage "fold_sum" iters(par 32, par 256)
// CHECK-NEXT:          ins(%[[ACC]][d0 * 256 + d1], %[[BLK]][d1]) into %[[RSUM]][d0 * 256 + d1] : (!spatial.page<8xf32>, !spatial.page<8xf32>) -> !spatial.page<8xf32> {
// CHECK-NEXT:        ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:          %[[AB:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:          spatial.yield %[[AB]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        spatial.k_yield %[[FOLD]] : !spatial.page<8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[OUT:.*]] = spatial.buffer "out" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[RES:.*]] = spatial.stage "result" iters(par 32, par 256)
// CHECK-NEXT:        ins(%[[SUM]][d0 * 256 + d1]) into %[[OUT]][d0 * 256 + d1] : (!spatial.page<8xf32>) -> !spatial.page<8xf32> {
// CHECK-NEXT:      ^bb0(%[[R:.*]]: f32):
// CHECK-NEXT:        spatial.yield %[[R]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      spatial.store %[[RES]] to %[[YT]][%[[I]] * 8] block 1x8 stride 128 repeat 1 : !spatial.page<8xf32> -> !spatial.tensor<1x4096xf32, output>
// CHECK-NEXT:      spatial.return %[[YT]] : !spatial.tensor<1x4096xf32, output>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[Y]] : tensor<1x4096xf32>
// CHECK-NEXT:  }

// K = 576, N = 1536 (tail only): 18 Q8_0 blocks and no whole K block, so no K loop;
// 48 column tiles, wb = 8, 6 items. MLIR's mixed bf16 x bf16 -> f32 spelling.
func.func @gemv_576x1536(%x: tensor<1x576xbf16>, %V__q8: tensor<576x1536xi8>, %V__q8_scale: tensor<18x1536xf32>) -> tensor<1x1536xf32> {
  %w = q8.dequantize %V__q8, %V__q8_scale : tensor<576x1536xi8>, tensor<18x1536xf32> -> tensor<576x1536xbf16>
  %empty = tensor.empty() : tensor<1x1536xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x1536xf32>) -> tensor<1x1536xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x576xbf16>, tensor<576x1536xbf16>) outs(%acc : tensor<1x1536xf32>) -> tensor<1x1536xf32>
  func.return %y : tensor<1x1536xf32>
}

// CHECK-LABEL: func.func @gemv_576x1536(
// CHECK-SAME:      %[[X:.*]]: tensor<1x576xbf16>, %[[VQ:.*]]: tensor<576x1536xi8>, %[[VS:.*]]: tensor<18x1536xf32>)
// CHECK-NEXT:    %[[VIEW:.*]] = spatial.view "q8_view_1x576_from0" grid [1] owns (d0) -> (d0, 0) size [1, 1]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
// CHECK-NEXT:      ins(%[[X]] : tensor<1x576xbf16>) -> tensor<18x32xbf16> {
// CHECK-NEXT:    ^bb0(%[[KB:.*]]: index, %[[XIN:.*]]: tensor<1x576xbf16>):
// CHECK-NEXT:      %[[XT:.*]] = spatial.tensor "x" external(%[[XIN]] : tensor<1x576xbf16>) : !spatial.tensor<1x576xbf16, input>
// CHECK-NEXT:      %[[VT:.*]] = spatial.tensor "x__q8_rows0" zero : !spatial.tensor<18x32xbf16, output>
// CHECK-NEXT:      %[[BIN:.*]] = spatial.buffer "in_block" : !spatial.buffer<18xbf16, depth 2>
// CHECK-NEXT:      %[[BOUT:.*]] = spatial.buffer "out" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT:      %[[PX:.*]] = spatial.load %[[XT]][%[[KB]] * 18] block 1x18 stride 18 repeat 1 into %[[BIN]]
// CHECK-NEXT:      %[[LIFT:.*]] = spatial.stage "lift_rows" iters(par 18, par 32)
// CHECK-NEXT:        ins(%[[PX]][d0 * 32 + d1]) into %[[BOUT]][d0 * 32 + d1]
// CHECK:           spatial.store %[[LIFT]] to %[[VT]][%[[KB]]] block 1x1 stride 1 repeat 1
// CHECK-NEXT:      spatial.return %[[VT]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Y:.*]] = spatial.fold "q8_gemv_576x1536_w8" grid [6] owns (d0) -> (0, d0 * 8) size [1, 8]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 6], k_blocks = 1, site = [1, 8]> numerics approx "a Q8_0 product over 1 bf16 row; the source rounds its weight to bf16, the fold multiplies q * s exactly"
// CHECK-NEXT:      ins(%[[VIEW]], %[[VQ]], %[[VS]] : tensor<18x32xbf16>, tensor<576x1536xi8>, tensor<18x1536xf32>) -> tensor<1x1536xf32> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[VIN:.*]]: tensor<18x32xbf16>, %[[QIN:.*]]: tensor<576x1536xi8>, %[[SIN:.*]]: tensor<18x1536xf32>):
// CHECK-NEXT:      %[[V:.*]] = spatial.tensor "x__q8_rows0" external(%[[VIN]] : tensor<18x32xbf16>) : !spatial.tensor<18x32xbf16, input>
// CHECK-NEXT:      %[[Q:.*]] = spatial.tensor "V__q8" external(%[[QIN]] : tensor<576x1536xi8>) repack <q8_0.values> : !spatial.tensor<576x1536xi8, param>
// CHECK-NEXT:      %[[S:.*]] = spatial.tensor "V__q8_scale" external(%[[SIN]] : tensor<18x1536xf32>) repack <q8_0.scales> : !spatial.tensor<18x1536xf32, param>
// CHECK-NEXT:      %[[YT:.*]] = spatial.tensor "y" zero : !spatial.tensor<1x1536xf32, output>
// CHECK-NEXT:      %[[BX:.*]] = spatial.buffer "in_x_tail" : !spatial.buffer<1xbf16, depth 1>
// CHECK-NEXT:      %[[BQ:.*]] = spatial.buffer "in_q8_tail" : !spatial.buffer<144xi8, depth 1>
// CHECK-NEXT:      %[[BS:.*]] = spatial.buffer "in_scale_tail" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[PX2:.*]] = spatial.load %[[V]][0] block 1x1 stride 1 repeat 1 into %[[BX]]
// CHECK-NEXT:      %[[PQ:.*]] = spatial.load %[[Q]][%[[I]] * 8] block 18x8 stride 48 repeat 1 into %[[BQ]] : !spatial.tensor<576x1536xi8, param> -> !spatial.page<144xi8>
// CHECK-NEXT:      %[[PS:.*]] = spatial.load %[[S]][%[[I]] * 8] block 1x8 stride 48 repeat 1 into %[[BS]] : !spatial.tensor<18x1536xf32, param> -> !spatial.page<8xf32>
// CHECK-NEXT:      %[[BT:.*]] = spatial.buffer "tail" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[TAIL:.*]] = spatial.stage "tail" iters(sum 18, par 256, sum 32)
// CHECK-NEXT:        ins(%[[PX2]][d0 * 32 + d2], %[[PQ]][d2 * 4608 + d0 * 256 + d1], %[[PS]][d0 * 256 + d1]) into %[[BT]][d1]
// CHECK:           %[[OUT:.*]] = spatial.buffer "out" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[RES:.*]] = spatial.stage "result" iters(par 32, par 256)
// CHECK-NEXT:        ins(%[[TAIL]][d1]) into %[[OUT]][d0 * 256 + d1]
// CHECK-NEXT:      ^bb0(%[[R:.*]]: f32):
// CHECK-NEXT:        spatial.yield %[[R]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      spatial.store %[[RES]] to %[[YT]][%[[I]] * 8] block 1x8 stride 48 repeat 1
// CHECK-NEXT:      spatial.return %[[YT]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[Y]] : tensor<1x1536xf32>
// CHECK-NEXT:  }

// K = 1536 (one K block and a tail of 16 Q8_0 blocks), N = 2048: 64 column tiles,
// wb = 8, 8 items; the view is built in two sections, each writing part of it.
func.func @gemv_1536x2048(%x: tensor<1x1536xbf16>, %U__q8: tensor<1536x2048xi8>, %U__q8_scale: tensor<48x2048xf32>) -> tensor<1x2048xf32> {
  %w = q8.dequantize %U__q8, %U__q8_scale : tensor<1536x2048xi8>, tensor<48x2048xf32> -> tensor<1536x2048xf32>
  %xf = arith.extf %x : tensor<1x1536xbf16> to tensor<1x1536xf32>
  %empty = tensor.empty() : tensor<1x2048xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x1536xf32>, tensor<1536x2048xf32>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  func.return %y : tensor<1x2048xf32>
}

// CHECK-LABEL: func.func @gemv_1536x2048(
// CHECK-SAME:      %[[X:.*]]: tensor<1x1536xbf16>, %[[UQ:.*]]: tensor<1536x2048xi8>, %[[US:.*]]: tensor<48x2048xf32>)
// CHECK-NEXT:    %[[PART:.*]] = spatial.view "q8_view_1x1536_from0" grid [1] owns (d0) -> (d0, 0) size [1, 1]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
// CHECK-NEXT:      ins(%[[X]] : tensor<1x1536xbf16>) -> tensor<48x32xbf16> {
// CHECK-NEXT:    ^bb0(%[[KB:.*]]: index, %[[XIN:.*]]: tensor<1x1536xbf16>):
// CHECK-NEXT:      %[[XT:.*]] = spatial.tensor "x" external(%[[XIN]] : tensor<1x1536xbf16>) : !spatial.tensor<1x1536xbf16, input>
// CHECK-NEXT:      %[[VT:.*]] = spatial.tensor "x__q8_rows0" zero : !spatial.tensor<48x32xbf16, state>
// CHECK-NEXT:      %[[BIN:.*]] = spatial.buffer "in_block" : !spatial.buffer<32xbf16, depth 2>
// CHECK-NEXT:      %[[BOUT:.*]] = spatial.buffer "out" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT:      %[[PX:.*]] = spatial.load %[[XT]][%[[KB]] * 32] block 1x32 stride 48 repeat 1 into %[[BIN]]
// CHECK-NEXT:      %[[LIFT:.*]] = spatial.stage "lift_rows" iters(par 32, par 32)
// CHECK:           spatial.store %[[LIFT]] to %[[VT]][%[[KB]]] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<48x32xbf16, state>
// CHECK-NEXT:      spatial.return %[[VT]] : !spatial.tensor<48x32xbf16, state>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[VIEW:.*]] = spatial.view "q8_view_1x1536_from1" grid [1] owns (d0) -> (d0 + 1, 0) size [1, 1]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
// CHECK-NEXT:      ins(%[[X]], %[[PART]] : tensor<1x1536xbf16>, tensor<48x32xbf16>) -> tensor<48x32xbf16> {
// CHECK-NEXT:    ^bb0(%[[KB1:.*]]: index, %[[XIN1:.*]]: tensor<1x1536xbf16>, %[[VIN1:.*]]: tensor<48x32xbf16>):
// CHECK-NEXT:      %[[XT1:.*]] = spatial.tensor "x" external(%[[XIN1]] : tensor<1x1536xbf16>) : !spatial.tensor<1x1536xbf16, input>
// CHECK-NEXT:      %[[VT1:.*]] = spatial.tensor "x__q8_rows0" external(%[[VIN1]] : tensor<48x32xbf16>) : !spatial.tensor<48x32xbf16, state>
// CHECK-NEXT:      %[[BIN1:.*]] = spatial.buffer "in_block" : !spatial.buffer<16xbf16, depth 2>
// CHECK-NEXT:      %[[BOUT1:.*]] = spatial.buffer "out" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT:      %[[PX1:.*]] = spatial.load %[[XT1]][%[[KB1]] * 16 + 32] block 1x16 stride 48 repeat 1 into %[[BIN1]]
// CHECK-NEXT:      %[[LIFT1:.*]] = spatial.stage "lift_rows" iters(par 16, par 32)
// CHECK-NEXT:        ins(%[[PX1]][d0 * 32 + d1]) into %[[BOUT1]][d0 * 32 + d1]
// CHECK:           spatial.store %[[LIFT1]] to %[[VT1]][%[[KB1]] + 1] block 1x1 stride 1 repeat 1
// CHECK-NEXT:      spatial.return %[[VT1]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Y:.*]] = spatial.fold "q8_gemv_1536x2048_w8" grid [8] owns (d0) -> (0, d0 * 8) size [1, 8]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 8], k_blocks = 1, site = [1, 8]> numerics approx "a Q8_0 product over 1 bf16 row"
// CHECK-NEXT:      ins(%[[VIEW]], %[[UQ]], %[[US]] : tensor<48x32xbf16>, tensor<1536x2048xi8>, tensor<48x2048xf32>) -> tensor<1x2048xf32> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[VIN:.*]]: tensor<48x32xbf16>, %[[QIN:.*]]: tensor<1536x2048xi8>, %[[SIN:.*]]: tensor<48x2048xf32>):
// CHECK-NEXT:      %[[V:.*]] = spatial.tensor "x__q8_rows0" external(%[[VIN]] : tensor<48x32xbf16>) : !spatial.tensor<48x32xbf16, input>
// CHECK-NEXT:      %[[Q:.*]] = spatial.tensor "U__q8" external(%[[QIN]] : tensor<1536x2048xi8>) repack <q8_0.values> : !spatial.tensor<1536x2048xi8, param>
// CHECK-NEXT:      %[[S:.*]] = spatial.tensor "U__q8_scale" external(%[[SIN]] : tensor<48x2048xf32>) repack <q8_0.scales> : !spatial.tensor<48x2048xf32, param>
// CHECK-NEXT:      %[[YT:.*]] = spatial.tensor "y" zero : !spatial.tensor<1x2048xf32, output>
// CHECK-NEXT:      %[[BX:.*]] = spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT:      %[[BQ:.*]] = spatial.buffer "in_q8" : !spatial.buffer<256xi8, depth 2>
// CHECK-NEXT:      %[[BS:.*]] = spatial.buffer "in_scale" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[RSUM:.*]] = spatial.buffer "run_sum" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[INIT:.*]] = spatial.stage "init_sum" iters(par 32, par 256)
// CHECK:           %[[BB:.*]] = spatial.buffer "block" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[SUM:.*]] = spatial.k_loop %[[K:.*]] = 0 to 1 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (!spatial.page<8xf32>) {
// CHECK-NEXT:        %[[PXK:.*]] = spatial.load %[[V]][%[[K]]] block 1x1 stride 1 repeat 1 into %[[BX]]
// CHECK-NEXT:        %[[PQK:.*]] = spatial.load %[[Q]][%[[K]] * 2048 + %[[I]] * 8] block 32x8 stride 64 repeat 1 into %[[BQ]]
// CHECK-NEXT:        %[[PSK:.*]] = spatial.load %[[S]][%[[K]] * 64 + %[[I]] * 8] block 1x8 stride 64 repeat 1 into %[[BS]]
// CHECK-NEXT:        %[[BLK:.*]] = spatial.stage "block" iters(sum 32, par 256, sum 32)
// CHECK-NEXT:          ins(%[[PXK]][d0 * 32 + d2], %[[PQK]][d2 * 8192 + d0 * 256 + d1], %[[PSK]][d0 * 256 + d1]) into %[[BB]][d1]
// CHECK:             %[[FOLD:.*]] = spatial.stage "fold_sum" iters(par 32, par 256)
// CHECK-NEXT:          ins(%[[ACC]][d0 * 256 + d1], %[[BLK]][d1]) into %[[RSUM]][d0 * 256 + d1]
// CHECK:             spatial.k_yield %[[FOLD]] : !spatial.page<8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[BXT:.*]] = spatial.buffer "in_x_tail" : !spatial.buffer<1xbf16, depth 1>
// CHECK-NEXT:      %[[BQT:.*]] = spatial.buffer "in_q8_tail" : !spatial.buffer<128xi8, depth 1>
// CHECK-NEXT:      %[[BST:.*]] = spatial.buffer "in_scale_tail" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[PXT:.*]] = spatial.load %[[V]][1] block 1x1 stride 1 repeat 1 into %[[BXT]]
// CHECK-NEXT:      %[[PQT:.*]] = spatial.load %[[Q]][%[[I]] * 8 + 2048] block 16x8 stride 64 repeat 1 into %[[BQT]]
// CHECK-NEXT:      %[[PST:.*]] = spatial.load %[[S]][%[[I]] * 8 + 64] block 1x8 stride 64 repeat 1 into %[[BST]]
// CHECK-NEXT:      %[[BT:.*]] = spatial.buffer "tail" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[TAIL:.*]] = spatial.stage "tail" iters(sum 16, par 256, sum 32)
// CHECK-NEXT:        ins(%[[PXT]][d0 * 32 + d2], %[[PQT]][d2 * 4096 + d0 * 256 + d1], %[[PST]][d0 * 256 + d1]) into %[[BT]][d1]
// CHECK:           %[[OUT:.*]] = spatial.buffer "out" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[RES:.*]] = spatial.stage "result" iters(par 32, par 256)
// CHECK-NEXT:        ins(%[[SUM]][d0 * 256 + d1], %[[TAIL]][d1]) into %[[OUT]][d0 * 256 + d1]
// CHECK-NEXT:      ^bb0(%[[RA:.*]]: f32, %[[RB:.*]]: f32):
// CHECK-NEXT:        %[[RAB:.*]] = arith.addf %[[RA]], %[[RB]] : f32
// CHECK-NEXT:        spatial.yield %[[RAB]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      spatial.store %[[RES]] to %[[YT]][%[[I]] * 8] block 1x8 stride 64 repeat 1
// CHECK-NEXT:      spatial.return %[[YT]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[Y]] : tensor<1x2048xf32>
// CHECK-NEXT:  }

// Every product was rewritten: no matmul, dequantisation, widening or fill is left.
// CHECK-NOT:   linalg.matmul
// CHECK-NOT:   q8.dequantize
// CHECK-NOT:   arith.extf %{{.*}} : tensor
// CHECK-NOT:   linalg.fill
