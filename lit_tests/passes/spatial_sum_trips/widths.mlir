// How many trips `spatial-sum-trips` sums at once is what a site's local memory
// holds. The loop (written by hand) adds the row sums of a 32 x 256 tensor's 8 tiles
// into a carried tile, one tile a trip: `acc' = acc + rows(tile kb)`. Its buffers take
// 20 KiB (the load's double-buffered tile 8 KiB, the row sums 4 KiB, the carry 8 KiB).
// On a 64 KiB site all 8 trips fit at once (the load's page 8 tiles, one page: 44 KiB):
// the loop runs once and `rows` sums a `sum 8` axis; on a 32 KiB site 2 trips a time
// (8 KiB more, still double-buffered: 28 KiB; 4 at once would take the 32 KiB of 8);
// on a 24 KiB site none, and the loop is as it was.
//
// RUN: xdsl-opt %s --split-input-file -p spatial-sum-trips | filecheck %s

func.func @all(%a: tensor<32x256xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "all" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 8, site = [1, 1]> numerics approx "row sums of a, in f32"
      ins(%a : tensor<32x256xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x256xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x256xf32>) : !spatial.tensor<32x256xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 2>
    %sb = spatial.buffer "rows" : !spatial.buffer<1xf32, depth 1>
    %cb = spatial.buffer "acc" : !spatial.buffer<1xf32, depth 2>
    %zero = spatial.stage "zero" iters(par 32, par 32) ins() into %cb[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %c = arith.constant 0.0 : f32
      spatial.yield %c : f32
    }
    %sum = spatial.k_loop %kb = 0 to 8 iter_args(%acc = %zero) -> (!spatial.page<1xf32>) {
      %p = spatial.load %at[%kb] block 1x1 stride 1 repeat 8 into %in : !spatial.tensor<32x256xf32, input> -> !spatial.page<1xf32>
      %r = spatial.stage "rows" iters(par 32, sum 32) ins(%p[d0 * 32 + d1]) into %sb[d0] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%v: f32):
        spatial.yield %v : f32
      }
      %next = spatial.stage "fold" iters(par 32, par 32) ins(%acc[d0 * 32 + d1], %r[d0]) into %cb[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%u: f32, %v: f32):
        %s = arith.addf %u, %v : f32
        spatial.yield %s : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @all
// CHECK:         plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]>
// CHECK:         %[[IN:.*]] = spatial.buffer "in" : !spatial.buffer<8xf32, depth 1>
// CHECK:         spatial.k_loop %[[KB:.*]] = 0 to 1 iter_args
// CHECK-NEXT:      %[[P:.*]] = spatial.load %{{.*}}[%[[KB]] * 8] block 8x1 stride 1 repeat 1 into %[[IN]] : !spatial.tensor<32x256xf32, input> -> !spatial.page<8xf32>
// CHECK-NEXT:      %[[R:.*]] = spatial.stage "rows" iters(sum 8, par 32, sum 32)
// CHECK-NEXT:        ins(%[[P]][d1 * 256 + d0 * 32 + d2]) into %{{.*}}[d1] : (!spatial.page<8xf32>) -> !spatial.page<1xf32> {
// CHECK:           spatial.stage "fold" iters(par 32, par 32)
// CHECK-NEXT:        ins(%{{.*}}[d0 * 32 + d1], %[[R]][d0])

// -----

func.func @two(%a: tensor<32x256xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "two" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 32768, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 8, site = [1, 1]> numerics approx "row sums of a, in f32"
      ins(%a : tensor<32x256xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x256xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x256xf32>) : !spatial.tensor<32x256xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 2>
    %sb = spatial.buffer "rows" : !spatial.buffer<1xf32, depth 1>
    %cb = spatial.buffer "acc" : !spatial.buffer<1xf32, depth 2>
    %zero = spatial.stage "zero" iters(par 32, par 32) ins() into %cb[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %c = arith.constant 0.0 : f32
      spatial.yield %c : f32
    }
    %sum = spatial.k_loop %kb = 0 to 8 iter_args(%acc = %zero) -> (!spatial.page<1xf32>) {
      %p = spatial.load %at[%kb] block 1x1 stride 1 repeat 8 into %in : !spatial.tensor<32x256xf32, input> -> !spatial.page<1xf32>
      %r = spatial.stage "rows" iters(par 32, sum 32) ins(%p[d0 * 32 + d1]) into %sb[d0] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%v: f32):
        spatial.yield %v : f32
      }
      %next = spatial.stage "fold" iters(par 32, par 32) ins(%acc[d0 * 32 + d1], %r[d0]) into %cb[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%u: f32, %v: f32):
        %s = arith.addf %u, %v : f32
        spatial.yield %s : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @two
// CHECK:         plan #spatial.plan<grid = [1, 1], k_blocks = 4, site = [1, 1]>
// CHECK:         %[[IN:.*]] = spatial.buffer "in" : !spatial.buffer<2xf32, depth 2>
// CHECK:         spatial.k_loop %[[KB:.*]] = 0 to 4 iter_args
// CHECK-NEXT:      %[[P:.*]] = spatial.load %{{.*}}[%[[KB]] * 2] block 2x1 stride 1 repeat 4 into %[[IN]] : !spatial.tensor<32x256xf32, input> -> !spatial.page<2xf32>
// CHECK-NEXT:      spatial.stage "rows" iters(sum 2, par 32, sum 32)
// CHECK-NEXT:        ins(%[[P]][d1 * 64 + d0 * 32 + d2])

// -----

func.func @none(%a: tensor<32x256xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "none" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 24576, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 8, site = [1, 1]> numerics approx "row sums of a, in f32"
      ins(%a : tensor<32x256xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x256xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x256xf32>) : !spatial.tensor<32x256xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 2>
    %sb = spatial.buffer "rows" : !spatial.buffer<1xf32, depth 1>
    %cb = spatial.buffer "acc" : !spatial.buffer<1xf32, depth 2>
    %zero = spatial.stage "zero" iters(par 32, par 32) ins() into %cb[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %c = arith.constant 0.0 : f32
      spatial.yield %c : f32
    }
    %sum = spatial.k_loop %kb = 0 to 8 iter_args(%acc = %zero) -> (!spatial.page<1xf32>) {
      %p = spatial.load %at[%kb] block 1x1 stride 1 repeat 8 into %in : !spatial.tensor<32x256xf32, input> -> !spatial.page<1xf32>
      %r = spatial.stage "rows" iters(par 32, sum 32) ins(%p[d0 * 32 + d1]) into %sb[d0] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%v: f32):
        spatial.yield %v : f32
      }
      %next = spatial.stage "fold" iters(par 32, par 32) ins(%acc[d0 * 32 + d1], %r[d0]) into %cb[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%u: f32, %v: f32):
        %s = arith.addf %u, %v : f32
        spatial.yield %s : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @none
// CHECK:         plan #spatial.plan<grid = [1, 1], k_blocks = 8, site = [1, 1]>
// CHECK:         spatial.buffer "in" : !spatial.buffer<1xf32, depth 2>
// CHECK:         spatial.k_loop %[[KB:.*]] = 0 to 8 iter_args
// CHECK-NEXT:      spatial.load %{{.*}}[%[[KB]]] block 1x1 stride 1 repeat 8
// CHECK-NEXT:      spatial.stage "rows" iters(par 32, sum 32)
