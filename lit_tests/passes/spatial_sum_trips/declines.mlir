// Loops `spatial-sum-trips` leaves as they are (each would fit all its trips at
// once): a program that claims exact results (summing trips at once adds in another
// order), a carry that is not only added to (`acc * v`, `acc + v * v`), and a load
// that does not step a whole block a trip.
//
// RUN: xdsl-opt %s --split-input-file -p spatial-sum-trips | filecheck %s

func.func @exact(%a: tensor<32x256xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "exact" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 8, site = [1, 1]> numerics exact
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

// CHECK-LABEL: func.func @exact
// CHECK:         spatial.k_loop %{{.*}} = 0 to 8
// CHECK-NEXT:      spatial.load %{{.*}} block 1x1 stride 1 repeat 8

// -----

func.func @scaled(%a: tensor<32x256xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "scaled" grid [1] owns (d0) -> (0, d0) size [1, 1]
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
        %s = arith.mulf %u, %v : f32
        spatial.yield %s : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @scaled
// CHECK:         spatial.k_loop %{{.*}} = 0 to 8
// CHECK-NEXT:      spatial.load %{{.*}} block 1x1 stride 1 repeat 8

// -----

func.func @squared(%a: tensor<32x256xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "squared" grid [1] owns (d0) -> (0, d0) size [1, 1]
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
        %w = arith.mulf %v, %v : f32
        %s = arith.addf %u, %w : f32
        spatial.yield %s : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @squared
// CHECK:         spatial.k_loop %{{.*}} = 0 to 8
// CHECK-NEXT:      spatial.load %{{.*}} block 1x1 stride 1 repeat 8

// -----

func.func @strided(%a: tensor<32x256xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "strided" grid [1] owns (d0) -> (0, d0) size [1, 1]
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
      %p = spatial.load %at[%kb] block 1x1 stride 2 repeat 8 into %in : !spatial.tensor<32x256xf32, input> -> !spatial.page<1xf32>
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

// CHECK-LABEL: func.func @strided
// CHECK:         spatial.k_loop %{{.*}} = 0 to 8
// CHECK-NEXT:      spatial.load %{{.*}} block 1x1 stride 2 repeat 8
