// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Attributes and types on their own. A preset target prints as the numbers it names,
// less the chip's figures the default preset (wormhole_n150) has, which may be given
// in any order; a source layout reads as a word or a string and prints as a string.

// CHECK-LABEL: "test.op"() {target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>} : () -> ()
// CHECK-NEXT:  "test.op"() {target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 8>} : () -> ()
// CHECK-NEXT:  "test.op"() {target = #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 2>} : () -> ()
// CHECK-NEXT:  "test.op"() {target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>} : () -> ()
// CHECK-NEXT:  "test.op"() {target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8, sites = 130, clock_mhz = 1350, dram_gb_s = 500, noc_b_cycle = 128, bf16_macs = 429, bfp8_macs = 881, bfp4_macs = 1818, launch_cycles = 5744>} : () -> ()
// CHECK-NEXT:  "test.op"() {target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>} : () -> ()
// CHECK-NEXT:  "test.op"() {target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 65536, acc_tiles = 4, sites = 16, clock_mhz = 800, dram_gb_s = 100, noc_b_cycle = 32, bf16_macs = 256, f32_macs = 8, launch_cycles = 1000>} : () -> ()
// CHECK-NEXT:  "test.op"() {plan = #spatial.plan<grid = [1, 16], k_blocks = 2, site = [1, 8]>} : () -> ()
// CHECK-NEXT:  "test.op"() {numerics = #spatial.numerics<exact>} : () -> ()
// CHECK-NEXT:  "test.op"() {numerics = #spatial.numerics<approx "fp32 sums in another order">} : () -> ()
// CHECK-NEXT:  "test.op"() {iters = [#spatial.iter_kind<par>, #spatial.iter_kind<sum>]} : () -> ()
// CHECK-NEXT:  "test.op"() {repacks = [#spatial.repack<q8_0.values>, #spatial.repack<q8_0.scales [32:64, 0:4096]>, #spatial.repack<q8_0.values [0:1024, 64:128] from "NxK">]} : () -> ()
// CHECK-NEXT:  "test.op"() {enums = [#spatial<role param>, #spatial<numerics_kind approx>, #q8<part q8_0.scales>, #q8<source "NxGx32">]} : () -> ()
// CHECK-NEXT:  %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = "test.op"() : () -> (!spatial.tensor<1x2048xbf16, input>, !spatial.tensor<1x4096xf32, output>, !spatial.tensor<256x32xbf16, state>, !spatial.tensor<2048x4096xi8, param>)
// CHECK-NEXT:  %{{.*}}, %{{.*}}, %{{.*}} = "test.op"() : () -> (!spatial.buffer<256xi8, depth 2>, !spatial.buffer<8xf32, depth 1>, !spatial.page<8xf32>)
"test.op"() {target = #spatial.target<"tensix">} : () -> ()
"test.op"() {target = #spatial.target<"reference">} : () -> ()
"test.op"() {target = #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 2>} : () -> ()
"test.op"() {target = #spatial.target<"wormhole_n150">} : () -> ()
"test.op"() {target = #spatial.target<"blackhole_p150">} : () -> ()
"test.op"() {target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8, sites = 64, launch_cycles = 4720>} : () -> ()
"test.op"() {target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 65536, acc_tiles = 4, launch_cycles = 1000, f32_macs = 8, bf16_macs = 256, noc_b_cycle = 32, dram_gb_s = 100, clock_mhz = 800, sites = 16>} : () -> ()
"test.op"() {plan = #spatial.plan<grid = [1, 16], k_blocks = 2, site = [1, 8]>} : () -> ()
"test.op"() {numerics = #spatial.numerics<exact>} : () -> ()
"test.op"() {numerics = #spatial.numerics<approx "fp32 sums in another order">} : () -> ()
"test.op"() {iters = [#spatial.iter_kind<par>, #spatial.iter_kind<sum>]} : () -> ()
"test.op"() {repacks = [#spatial.repack<q8_0.values>, #spatial.repack<q8_0.scales [32:64, 0:4096]>, #spatial.repack<q8_0.values [0:1024, 64:128] from NxK>]} : () -> ()
"test.op"() {enums = [#spatial<role param>, #spatial<numerics_kind approx>, #q8<part q8_0.scales>, #q8<source NxGx32>]} : () -> ()
%t0, %t1, %t2, %t3 = "test.op"() : () -> (!spatial.tensor<1x2048xbf16, input>, !spatial.tensor<1x4096xf32, output>, !spatial.tensor<256x32xbf16, state>, !spatial.tensor<2048x4096xi8, param>)
%b0, %b1, %p0 = "test.op"() : () -> (!spatial.buffer<256xi8, depth 2>, !spatial.buffer<8xf32, depth 1>, !spatial.page<8xf32>)

// A view of a batch of m = 2 rows, K = 64 (two Q8_0 blocks), as q8-lower builds it:
// tile row `kb * m + r` of the view holds row r's K block kb as 32-element rows.
// Item (kb, r) loads its K block of x (a 32 x 64 page: row r, 64 values), and the
// lanes table (tile r: `r * 64 + i`) tells each of the 32 lanes which page element
// to lift, so lift_rows writes `out[b, i] = x[r, 32 b + i]`.

// CHECK-LABEL: func.func @view
// CHECK-SAME:  (%[[X:.*]]: tensor<2x64xbf16>) -> tensor<64x32xbf16> {
// CHECK-NEXT: %[[V:.*]] = spatial.view "q8_view_2x64" grid [1, 2] owns (d0, d1) -> (d0 * 2 + d1, 0) size [1, 1]
// CHECK-NEXT: target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
// CHECK-NEXT: plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
// CHECK-NEXT: ins(%[[X]] : tensor<2x64xbf16>) -> tensor<64x32xbf16> {
// CHECK-NEXT: ^bb0(%[[KB:.*]]: index, %[[R:.*]]: index, %[[X_IN:.*]]: tensor<2x64xbf16>):
// CHECK-NEXT: %[[XT:.*]] = spatial.tensor "x" external(%[[X_IN]] : tensor<2x64xbf16>) : !spatial.tensor<2x64xbf16, input>
// CHECK-NEXT: %[[VIEW:.*]] = spatial.tensor "x__q8_rows0" zero : !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT: %[[LANES:.*]] = spatial.tensor "x__q8_rows0__lanes" values dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95{{\]\]}}> : tensor<1x64xi16> : !spatial.tensor<1x64xi16, param>
// CHECK-NEXT: %[[IN_BLOCK:.*]] = spatial.buffer "in_block" : !spatial.buffer<2xbf16, depth 2>
// CHECK-NEXT: %[[IN_LANES:.*]] = spatial.buffer "in_lanes" : !spatial.buffer<1xi16, depth 1>
// CHECK-NEXT: %[[OUT:.*]] = spatial.buffer "out" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT: %[[PB:.*]] = spatial.load %[[XT]][%[[KB]] * 32] block 1x2 stride 2 repeat 1 into %[[IN_BLOCK]] : !spatial.tensor<2x64xbf16, input> -> !spatial.page<2xbf16>
// CHECK-NEXT: %[[PL:.*]] = spatial.load %[[LANES]][%[[R]]] block 1x1 stride 2 repeat 1 into %[[IN_LANES]] : !spatial.tensor<1x64xi16, param> -> !spatial.page<1xi16>
// CHECK-NEXT: %[[LIFT:.*]] = spatial.stage "lift_rows" iters(par 2, par 32)
// CHECK-NEXT: ins(%[[PB]][d0 * 32 + s0 | s0 = in1], %[[PL]][d1]) into %[[OUT]][d0 * 32 + d1] : (!spatial.page<2xbf16>, !spatial.page<1xi16>) -> !spatial.page<1xbf16> {
// CHECK-NEXT: ^bb0(%[[E:.*]]: bf16, %[[LANE:.*]]: i16):
// CHECK-NEXT: spatial.yield %[[E]] : bf16
// CHECK-NEXT: }
// CHECK-NEXT: spatial.store %[[LIFT]] to %[[VIEW]][%[[KB]] * 2 + %[[R]]] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT: spatial.return %[[VIEW]] : !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT: }
// CHECK-NEXT: func.return %[[V]] : tensor<64x32xbf16>
// CHECK-NEXT: }
func.func @view(%x: tensor<2x64xbf16>) -> tensor<64x32xbf16> {
  %v = spatial.view "q8_view_2x64" grid [1, 2] owns (d0, d1) -> (d0 * 2 + d1, 0) size [1, 1]
      target #spatial.target<"tensix">
      plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%x : tensor<2x64xbf16>) -> tensor<64x32xbf16> {
  ^bb0(%kb: index, %r: index, %x_in: tensor<2x64xbf16>):
    %xt = spatial.tensor "x" external(%x_in : tensor<2x64xbf16>) : !spatial.tensor<2x64xbf16, input>
    %view = spatial.tensor "x__q8_rows0" zero : !spatial.tensor<64x32xbf16, output>
    %lanes = spatial.tensor "x__q8_rows0__lanes" values dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95]]> : tensor<1x64xi16> : !spatial.tensor<1x64xi16, param>
    %in_block = spatial.buffer "in_block" : !spatial.buffer<2xbf16, depth 2>
    %in_lanes = spatial.buffer "in_lanes" : !spatial.buffer<1xi16, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xbf16, depth 2>
    %pb = spatial.load %xt[%kb * 32] block 1x2 stride 2 repeat 1 into %in_block : !spatial.tensor<2x64xbf16, input> -> !spatial.page<2xbf16>
    %pl = spatial.load %lanes[%r] block 1x1 stride 2 repeat 1 into %in_lanes : !spatial.tensor<1x64xi16, param> -> !spatial.page<1xi16>
    %lift = spatial.stage "lift_rows" iters(par 2, par 32)
        ins(%pb[d0 * 32 + s0 | s0 = in1], %pl[d1]) into %out[d0 * 32 + d1] : (!spatial.page<2xbf16>, !spatial.page<1xi16>) -> !spatial.page<1xbf16> {
    ^bb0(%e: bf16, %lane: i16):
      spatial.yield %e : bf16
    }
    spatial.store %lift to %view[%kb * 2 + %r] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<64x32xbf16, output>
    spatial.return %view : !spatial.tensor<64x32xbf16, output>
  }
  func.return %v : tensor<64x32xbf16>
}

// The fold of a GEMV with K = 2112 = 2 K blocks of 1024 rows and a tail of 2 Q8_0
// blocks, N = 64 (2 column tiles, one per item), on the reference target. The K
// loop carries the fp32 sum in a page; the tail is folded once, outside the loop,
// and the result stage adds it into row 0 only (the activation has one row).

// CHECK-LABEL: func.func @gemv
// CHECK-SAME:  (%[[V:.*]]: tensor<66x32xbf16>, %[[W__Q8:.*]]: tensor<2112x64xi8>, %[[W__Q8_SCALE:.*]]: tensor<66x64xf32>) -> tensor<1x64xf32> {
// CHECK-NEXT: %[[Y:.*]] = spatial.fold "q8_gemv_2112x64_w1" grid [2] owns (d0) -> (0, d0) size [1, 1]
// CHECK-NEXT: target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 8>
// CHECK-NEXT: plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics approx "a Q8_0 product over 1 bf16 row"
// CHECK-NEXT: ins(%[[V]], %[[W__Q8]], %[[W__Q8_SCALE]] : tensor<66x32xbf16>, tensor<2112x64xi8>, tensor<66x64xf32>) -> tensor<1x64xf32> {
// CHECK-NEXT: ^bb0(%[[ITEM:.*]]: index, %[[V_IN:.*]]: tensor<66x32xbf16>, %[[Q_IN:.*]]: tensor<2112x64xi8>, %[[S_IN:.*]]: tensor<66x64xf32>):
// CHECK-NEXT: %[[XV:.*]] = spatial.tensor "x__q8_rows0" external(%[[V_IN]] : tensor<66x32xbf16>) : !spatial.tensor<66x32xbf16, input>
// CHECK-NEXT: %[[Q:.*]] = spatial.tensor "W__q8" external(%[[Q_IN]] : tensor<2112x64xi8>) repack <q8_0.values> : !spatial.tensor<2112x64xi8, param>
// CHECK-NEXT: %[[S:.*]] = spatial.tensor "W__q8_scale" external(%[[S_IN]] : tensor<66x64xf32>) repack <q8_0.scales> : !spatial.tensor<66x64xf32, param>
// CHECK-NEXT: %[[YT:.*]] = spatial.tensor "y" zero : !spatial.tensor<1x64xf32, output>
// CHECK-NEXT: %[[IN_X:.*]] = spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT: %[[IN_Q8:.*]] = spatial.buffer "in_q8" : !spatial.buffer<32xi8, depth 2>
// CHECK-NEXT: %[[IN_SCALE:.*]] = spatial.buffer "in_scale" : !spatial.buffer<1xf32, depth 2>
// CHECK-NEXT: %[[RUN_SUM:.*]] = spatial.buffer "run_sum" : !spatial.buffer<1xf32, depth 2>
// CHECK-NEXT: %[[BLOCK:.*]] = spatial.buffer "block" : !spatial.buffer<1xf32, depth 1>
// CHECK-NEXT: %[[INIT:.*]] = spatial.stage "init_sum" iters(par 32, par 32)
// CHECK-NEXT: ins() into %[[RUN_SUM]][d0 * 32 + d1] : () -> !spatial.page<1xf32> {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: spatial.yield %[[ZERO]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[SUM:.*]] = spatial.k_loop %[[KB:.*]] = 0 to 2 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (!spatial.page<1xf32>) {
// CHECK-NEXT: %[[PX:.*]] = spatial.load %[[XV]][%[[KB]]] block 1x1 stride 1 repeat 2 into %[[IN_X]] : !spatial.tensor<66x32xbf16, input> -> !spatial.page<1xbf16>
// CHECK-NEXT: %[[PQ:.*]] = spatial.load %[[Q]][%[[KB]] * 64 + %[[ITEM]]] block 32x1 stride 2 repeat 2 into %[[IN_Q8]] : !spatial.tensor<2112x64xi8, param> -> !spatial.page<32xi8>
// CHECK-NEXT: %[[PS:.*]] = spatial.load %[[S]][%[[KB]] * 2 + %[[ITEM]]] block 1x1 stride 2 repeat 2 into %[[IN_SCALE]] : !spatial.tensor<66x64xf32, param> -> !spatial.page<1xf32>
// CHECK-NEXT: %[[B:.*]] = spatial.stage "block" iters(sum 32, par 32, sum 32)
// CHECK-NEXT: ins(%[[PX]][d0 * 32 + d2], %[[PQ]][d2 * 1024 + d0 * 32 + d1], %[[PS]][d0 * 32 + d1]) into %[[BLOCK]][d1] : (!spatial.page<1xbf16>, !spatial.page<32xi8>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
// CHECK-NEXT: ^bb0(%[[XE:.*]]: bf16, %[[QE:.*]]: i8, %[[SE:.*]]: f32):
// CHECK-NEXT: %[[XF:.*]] = arith.extf %[[XE]] : bf16 to f32
// CHECK-NEXT: %[[QF:.*]] = arith.sitofp %[[QE]] : i8 to f32
// CHECK-NEXT: %[[XQ:.*]] = arith.mulf %[[XF]], %[[QF]] : f32
// CHECK-NEXT: %[[V0:.*]] = arith.mulf %[[XQ]], %[[SE]] : f32
// CHECK-NEXT: spatial.yield %[[V0]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEXT:.*]] = spatial.stage "fold_sum" iters(par 32, par 32)
// CHECK-NEXT: ins(%[[ACC]][d0 * 32 + d1], %[[B]][d1]) into %[[RUN_SUM]][d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[BS:.*]]: f32):
// CHECK-NEXT: %[[A1:.*]] = arith.addf %[[A]], %[[BS]] : f32
// CHECK-NEXT: spatial.yield %[[A1]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: spatial.k_yield %[[NEXT]] : !spatial.page<1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[IN_X_TAIL:.*]] = spatial.buffer "in_x_tail" : !spatial.buffer<1xbf16, depth 1>
// CHECK-NEXT: %[[IN_Q8_TAIL:.*]] = spatial.buffer "in_q8_tail" : !spatial.buffer<2xi8, depth 1>
// CHECK-NEXT: %[[IN_SCALE_TAIL:.*]] = spatial.buffer "in_scale_tail" : !spatial.buffer<1xf32, depth 1>
// CHECK-NEXT: %[[TAIL:.*]] = spatial.buffer "tail" : !spatial.buffer<1xf32, depth 1>
// CHECK-NEXT: %[[TX:.*]] = spatial.load %[[XV]][2] block 1x1 stride 1 repeat 1 into %[[IN_X_TAIL]] : !spatial.tensor<66x32xbf16, input> -> !spatial.page<1xbf16>
// CHECK-NEXT: %[[TQ:.*]] = spatial.load %[[Q]][%[[ITEM]] + 128] block 2x1 stride 2 repeat 1 into %[[IN_Q8_TAIL]] : !spatial.tensor<2112x64xi8, param> -> !spatial.page<2xi8>
// CHECK-NEXT: %[[TS:.*]] = spatial.load %[[S]][%[[ITEM]] + 4] block 1x1 stride 2 repeat 1 into %[[IN_SCALE_TAIL]] : !spatial.tensor<66x64xf32, param> -> !spatial.page<1xf32>
// CHECK-NEXT: %[[T:.*]] = spatial.stage "tail" iters(sum 2, par 32, sum 32)
// CHECK-NEXT: ins(%[[TX]][d0 * 32 + d2], %[[TQ]][d2 * 64 + d0 * 32 + d1], %[[TS]][d0 * 32 + d1]) into %[[TAIL]][d1] : (!spatial.page<1xbf16>, !spatial.page<2xi8>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
// CHECK-NEXT: ^bb0(%[[XE_1:.*]]: bf16, %[[QE_1:.*]]: i8, %[[SE_1:.*]]: f32):
// CHECK-NEXT: %[[XF_1:.*]] = arith.extf %[[XE_1]] : bf16 to f32
// CHECK-NEXT: %[[QF_1:.*]] = arith.sitofp %[[QE_1]] : i8 to f32
// CHECK-NEXT: %[[XQ_1:.*]] = arith.mulf %[[XF_1]], %[[QF_1]] : f32
// CHECK-NEXT: %[[V0_1:.*]] = arith.mulf %[[XQ_1]], %[[SE_1]] : f32
// CHECK-NEXT: spatial.yield %[[V0_1]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[OUT:.*]] = spatial.buffer "out" : !spatial.buffer<1xf32, depth 2>
// CHECK-NEXT: %[[R:.*]] = spatial.stage "result" iters(par 32, par 32)
// CHECK-NEXT: ins(%[[SUM]][d0 * 32 + d1], %[[T]][d1]) into %[[OUT]][d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
// CHECK-NEXT: ^bb0(%[[A_1:.*]]: f32, %[[TE:.*]]: f32):
// CHECK-NEXT: %[[ROW:.*]] = spatial.index 0 : index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[ROW]], %[[C0]] : index
// CHECK-NEXT: %[[ZERO_1:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[TE0:.*]] = arith.select %[[FIRST]], %[[TE]], %[[ZERO_1]] : f32
// CHECK-NEXT: %[[A1_1:.*]] = arith.addf %[[A_1]], %[[TE0]] : f32
// CHECK-NEXT: spatial.yield %[[A1_1]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: spatial.store %[[R]] to %[[YT]][%[[ITEM]]] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x64xf32, output>
// CHECK-NEXT: spatial.return %[[YT]] : !spatial.tensor<1x64xf32, output>
// CHECK-NEXT: }
// CHECK-NEXT: func.return %[[Y]] : tensor<1x64xf32>
// CHECK-NEXT: }
func.func @gemv(%v: tensor<66x32xbf16>, %W__q8: tensor<2112x64xi8>, %W__q8_scale: tensor<66x64xf32>) -> tensor<1x64xf32> {
  %y = spatial.fold "q8_gemv_2112x64_w1" grid [2] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<"reference">
      plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics approx "a Q8_0 product over 1 bf16 row"
      ins(%v, %W__q8, %W__q8_scale : tensor<66x32xbf16>, tensor<2112x64xi8>, tensor<66x64xf32>) -> tensor<1x64xf32> {
  ^bb0(%item: index, %v_in: tensor<66x32xbf16>, %q_in: tensor<2112x64xi8>, %s_in: tensor<66x64xf32>):
    %xv = spatial.tensor "x__q8_rows0" external(%v_in : tensor<66x32xbf16>) : !spatial.tensor<66x32xbf16, input>
    %q = spatial.tensor "W__q8" external(%q_in : tensor<2112x64xi8>) repack <q8_0.values> : !spatial.tensor<2112x64xi8, param>
    %s = spatial.tensor "W__q8_scale" external(%s_in : tensor<66x64xf32>) repack <q8_0.scales> : !spatial.tensor<66x64xf32, param>
    %yt = spatial.tensor "y" zero : !spatial.tensor<1x64xf32, output>
    %in_x = spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
    %in_q8 = spatial.buffer "in_q8" : !spatial.buffer<32xi8, depth 2>
    %in_scale = spatial.buffer "in_scale" : !spatial.buffer<1xf32, depth 2>
    %run_sum = spatial.buffer "run_sum" : !spatial.buffer<1xf32, depth 2>
    %block = spatial.buffer "block" : !spatial.buffer<1xf32, depth 1>
    %init = spatial.stage "init_sum" iters(par 32, par 32)
        ins() into %run_sum[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %zero = arith.constant 0.000000e+00 : f32
      spatial.yield %zero : f32
    }
    %sum = spatial.k_loop %kb = 0 to 2 iter_args(%acc = %init) -> (!spatial.page<1xf32>) {
      %px = spatial.load %xv[%kb] block 1x1 stride 1 repeat 2 into %in_x : !spatial.tensor<66x32xbf16, input> -> !spatial.page<1xbf16>
      %pq = spatial.load %q[%kb * 64 + %item] block 32x1 stride 2 repeat 2 into %in_q8 : !spatial.tensor<2112x64xi8, param> -> !spatial.page<32xi8>
      %ps = spatial.load %s[%kb * 2 + %item] block 1x1 stride 2 repeat 2 into %in_scale : !spatial.tensor<66x64xf32, param> -> !spatial.page<1xf32>
      %b = spatial.stage "block" iters(sum 32, par 32, sum 32)
          ins(%px[d0 * 32 + d2], %pq[d2 * 1024 + d0 * 32 + d1], %ps[d0 * 32 + d1]) into %block[d1] : (!spatial.page<1xbf16>, !spatial.page<32xi8>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%xe: bf16, %qe: i8, %se: f32):
        %xf = arith.extf %xe : bf16 to f32
        %qf = arith.sitofp %qe : i8 to f32
        %xq = arith.mulf %xf, %qf : f32
        %v0 = arith.mulf %xq, %se : f32
        spatial.yield %v0 : f32
      }
      %next = spatial.stage "fold_sum" iters(par 32, par 32)
          ins(%acc[d0 * 32 + d1], %b[d1]) into %run_sum[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%a: f32, %bs: f32):
        %a1 = arith.addf %a, %bs : f32
        spatial.yield %a1 : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    %in_x_tail = spatial.buffer "in_x_tail" : !spatial.buffer<1xbf16, depth 1>
    %in_q8_tail = spatial.buffer "in_q8_tail" : !spatial.buffer<2xi8, depth 1>
    %in_scale_tail = spatial.buffer "in_scale_tail" : !spatial.buffer<1xf32, depth 1>
    %tail = spatial.buffer "tail" : !spatial.buffer<1xf32, depth 1>
    %tx = spatial.load %xv[2] block 1x1 stride 1 repeat 1 into %in_x_tail : !spatial.tensor<66x32xbf16, input> -> !spatial.page<1xbf16>
    %tq = spatial.load %q[%item + 128] block 2x1 stride 2 repeat 1 into %in_q8_tail : !spatial.tensor<2112x64xi8, param> -> !spatial.page<2xi8>
    %ts = spatial.load %s[%item + 4] block 1x1 stride 2 repeat 1 into %in_scale_tail : !spatial.tensor<66x64xf32, param> -> !spatial.page<1xf32>
    %t = spatial.stage "tail" iters(sum 2, par 32, sum 32)
        ins(%tx[d0 * 32 + d2], %tq[d2 * 64 + d0 * 32 + d1], %ts[d0 * 32 + d1]) into %tail[d1] : (!spatial.page<1xbf16>, !spatial.page<2xi8>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%xe: bf16, %qe: i8, %se: f32):
      %xf = arith.extf %xe : bf16 to f32
      %qf = arith.sitofp %qe : i8 to f32
      %xq = arith.mulf %xf, %qf : f32
      %v0 = arith.mulf %xq, %se : f32
      spatial.yield %v0 : f32
    }
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 2>
    %r = spatial.stage "result" iters(par 32, par 32)
        ins(%sum[d0 * 32 + d1], %t[d1]) into %out[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%a: f32, %te: f32):
      %row = spatial.index 0 : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %row, %c0 : index
      %zero = arith.constant 0.000000e+00 : f32
      %te0 = arith.select %first, %te, %zero : f32
      %a1 = arith.addf %a, %te0 : f32
      spatial.yield %a1 : f32
    }
    spatial.store %r to %yt[%item] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x64xf32, output>
    spatial.return %yt : !spatial.tensor<1x64xf32, output>
  }
  func.return %y : tensor<1x64xf32>
}

// Loads and stores through an indirect table: the origin tile is the linear part
// plus the table's element at the table position. gather_tiles reads tile perm[i];
// scatter_tiles writes tile i + step[i], which is the tile the item owns.

// CHECK-LABEL: func.func @tables
// CHECK-SAME:  (%[[X:.*]]: tensor<64x32xbf16>) -> (tensor<64x32xbf16>, tensor<64x32xbf16>) {
// CHECK-NEXT: %[[G:.*]] = spatial.view "gather_tiles" grid [2] owns (d0) -> (d0, 0) size [1, 1]
// CHECK-NEXT: target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 8>
// CHECK-NEXT: plan #spatial.plan<grid = [2, 1], k_blocks = 1, site = [1, 1]> numerics exact
// CHECK-NEXT: ins(%[[X]] : tensor<64x32xbf16>) -> tensor<64x32xbf16> attributes {note = "hand-written"} {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[X_IN:.*]]: tensor<64x32xbf16>):
// CHECK-NEXT: %[[XT:.*]] = spatial.tensor "x" external(%[[X_IN]] : tensor<64x32xbf16>) : !spatial.tensor<64x32xbf16, input>
// CHECK-NEXT: %[[YT:.*]] = spatial.tensor "x_swapped" zero : !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT: %[[PERM:.*]] = spatial.tensor "perm" values dense<{{\[\[}}1, 0{{\]\]}}> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
// CHECK-NEXT: %[[IN:.*]] = spatial.buffer "in" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT: %[[P:.*]] = spatial.load %[[XT]][%[[PERM]][%[[I]]]] block 1x1 stride 1 repeat 1 into %[[IN]] : !spatial.tensor<64x32xbf16, input> -> !spatial.page<1xbf16>
// CHECK-NEXT: spatial.store %[[P]] to %[[YT]][%[[I]]] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT: spatial.return %[[YT]] : !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT: }
// CHECK-NEXT: %[[S:.*]] = spatial.view "scatter_tiles" grid [2] owns (d0) -> (d0 * -1 + 1, 0) size [1, 1]
// CHECK-NEXT: target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 8>
// CHECK-NEXT: plan #spatial.plan<grid = [2, 1], k_blocks = 1, site = [1, 1]> numerics exact
// CHECK-NEXT: ins(%[[X]] : tensor<64x32xbf16>) -> tensor<64x32xbf16> {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[X_IN:.*]]: tensor<64x32xbf16>):
// CHECK-NEXT: %[[XT:.*]] = spatial.tensor "x" external(%[[X_IN]] : tensor<64x32xbf16>) : !spatial.tensor<64x32xbf16, input>
// CHECK-NEXT: %[[YT:.*]] = spatial.tensor "x_swapped" zero : !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT: %[[STEP:.*]] = spatial.tensor "step" values dense<{{\[\[}}1, -1{{\]\]}}> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
// CHECK-NEXT: %[[IN:.*]] = spatial.buffer "in" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NEXT: %[[P:.*]] = spatial.load %[[XT]][%[[I]]] block 1x1 stride 1 repeat 1 into %[[IN]] : !spatial.tensor<64x32xbf16, input> -> !spatial.page<1xbf16>
// CHECK-NEXT: spatial.store %[[P]] to %[[YT]][%[[I]] + %[[STEP]][%[[I]]]] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT: spatial.return %[[YT]] : !spatial.tensor<64x32xbf16, output>
// CHECK-NEXT: }
// CHECK-NEXT: func.return %[[G]], %[[S]] : tensor<64x32xbf16>, tensor<64x32xbf16>
// CHECK-NEXT: }
func.func @tables(%x: tensor<64x32xbf16>) -> (tensor<64x32xbf16>, tensor<64x32xbf16>) {
  %g = spatial.view "gather_tiles" grid [2] owns (d0) -> (d0, 0) size [1, 1]
      target #spatial.target<"reference">
      plan #spatial.plan<grid = [2, 1], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%x : tensor<64x32xbf16>) -> tensor<64x32xbf16> attributes {note = "hand-written"} {
  ^bb0(%i: index, %x_in: tensor<64x32xbf16>):
    %xt = spatial.tensor "x" external(%x_in : tensor<64x32xbf16>) : !spatial.tensor<64x32xbf16, input>
    %yt = spatial.tensor "x_swapped" zero : !spatial.tensor<64x32xbf16, output>
    %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
    %in = spatial.buffer "in" : !spatial.buffer<1xbf16, depth 2>
    %p = spatial.load %xt[%perm[%i]] block 1x1 stride 1 repeat 1 into %in : !spatial.tensor<64x32xbf16, input> -> !spatial.page<1xbf16>
    spatial.store %p to %yt[%i] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<64x32xbf16, output>
    spatial.return %yt : !spatial.tensor<64x32xbf16, output>
  }
  %s = spatial.view "scatter_tiles" grid [2] owns (d0) -> (1 - d0, 0) size [1, 1]
      target #spatial.target<"reference">
      plan #spatial.plan<grid = [2, 1], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%x : tensor<64x32xbf16>) -> tensor<64x32xbf16> {
  ^bb0(%i: index, %x_in: tensor<64x32xbf16>):
    %xt = spatial.tensor "x" external(%x_in : tensor<64x32xbf16>) : !spatial.tensor<64x32xbf16, input>
    %yt = spatial.tensor "x_swapped" zero : !spatial.tensor<64x32xbf16, output>
    %step = spatial.tensor "step" values dense<[[1, -1]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
    %in = spatial.buffer "in" : !spatial.buffer<1xbf16, depth 2>
    %p = spatial.load %xt[%i] block 1x1 stride 1 repeat 1 into %in : !spatial.tensor<64x32xbf16, input> -> !spatial.page<1xbf16>
    spatial.store %p to %yt[%i + %step[%i]] block 1x1 stride 1 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<64x32xbf16, output>
    spatial.return %yt : !spatial.tensor<64x32xbf16, output>
  }
  func.return %g, %s : tensor<64x32xbf16>, tensor<64x32xbf16>
}

// A K loop with nothing to carry, a program with two results (an output and a
// state it reads and writes), and buffers that fill the site's memory exactly. The
// origin `%kb + %i * 2` prints with its terms by falling coefficient.

// CHECK-LABEL: func.func @copy_k
// CHECK-SAME:  (%[[X:.*]]: tensor<32x64xf32>, %[[ACC:.*]]: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
// CHECK-NEXT: %[[Y:.*]], %[[ACC_OUT:.*]] = spatial.view "copy_by_k" grid [1] owns (d0) -> (0, d0 * 2) size [1, 2]
// CHECK-NEXT: target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 8192, acc_tiles = 2>
// CHECK-NEXT: plan #spatial.plan<grid = [1, 1], k_blocks = 2, site = [1, 2]> numerics exact
// CHECK-NEXT: ins(%[[X]], %[[ACC]] : tensor<32x64xf32>, tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[X_IN:.*]]: tensor<32x64xf32>, %[[ACC_IN:.*]]: tensor<32x64xf32>):
// CHECK-NEXT: %[[XT:.*]] = spatial.tensor "x" external(%[[X_IN]] : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
// CHECK-NEXT: %[[YT:.*]] = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
// CHECK-NEXT: %[[ST:.*]] = spatial.tensor "acc" external(%[[ACC_IN]] : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, state>
// CHECK-NEXT: %[[B:.*]] = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
// CHECK-NEXT: spatial.k_loop %[[KB:.*]] = 0 to 2 {
// CHECK-NEXT: %[[P:.*]] = spatial.load %[[XT]][%[[I]] * 2 + %[[KB]]] block 1x1 stride 2 repeat 2 into %[[B]] : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
// CHECK-NEXT: spatial.store %[[P]] to %[[YT]][%[[I]] * 2 + %[[KB]]] block 1x1 stride 2 repeat 2 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
// CHECK-NEXT: spatial.store %[[P]] to %[[ST]][%[[I]] * 2 + %[[KB]]] block 1x1 stride 2 repeat 2 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, state>
// CHECK-NEXT: spatial.k_yield
// CHECK-NEXT: }
// CHECK-NEXT: spatial.return %[[YT]], %[[ST]] : !spatial.tensor<32x64xf32, output>, !spatial.tensor<32x64xf32, state>
// CHECK-NEXT: }
// CHECK-NEXT: func.return %[[Y]], %[[ACC_OUT]] : tensor<32x64xf32>, tensor<32x64xf32>
// CHECK-NEXT: }

func.func @copy_k(%x: tensor<32x64xf32>, %acc: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %y, %acc_out = spatial.view "copy_by_k" grid [1] owns (d0) -> (0, d0 * 2) size [1, 2]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 8192, acc_tiles = 2>
      plan #spatial.plan<grid = [1, 1], k_blocks = 2, site = [1, 2]> numerics exact
      ins(%x, %acc : tensor<32x64xf32>, tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  ^bb0(%i: index, %x_in: tensor<32x64xf32>, %acc_in: tensor<32x64xf32>):
    %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
    %st = spatial.tensor "acc" external(%acc_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, state>
    %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
    spatial.k_loop %kb = 0 to 2 {
      %p = spatial.load %xt[%kb + %i * 2] block 1x1 stride 2 repeat 2 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
      spatial.store %p to %yt[%kb + %i * 2] block 1x1 stride 2 repeat 2 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
      spatial.store %p to %st[%kb + %i * 2] block 1x1 stride 2 repeat 2 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, state>
      spatial.k_yield
    }
    spatial.return %yt, %st : !spatial.tensor<32x64xf32, output>, !spatial.tensor<32x64xf32, state>
  }
  func.return %y, %acc_out : tensor<32x64xf32>, tensor<32x64xf32>
}

// A program of a tensor-parallel deployment names its chip, after its name.

// CHECK-LABEL: func.func @on_chip
// CHECK-NEXT: %[[Y:.*]] = spatial.view "copy_c3" chip 3 grid [2] owns (d0) -> (0, d0) size [1, 1]
// CHECK-NEXT: target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
// CHECK-NEXT: plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
// CHECK-NEXT: ins(%{{.*}} : tensor<32x64xf32>) -> tensor<32x64xf32> {
func.func @on_chip(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %y = spatial.view "copy_c3" chip 3 grid [2] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%i: index, %x_in: tensor<32x64xf32>):
    %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
    %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
    %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
    spatial.return %yt : !spatial.tensor<32x64xf32, output>
  }
  func.return %y : tensor<32x64xf32>
}
