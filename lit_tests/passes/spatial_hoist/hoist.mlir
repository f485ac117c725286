// `spatial-hoist` on loops written by hand: `y = sum over 8 tiles kb of a's tile kb
// times half of w`. The load of w (its origin does not read %kb) and the stage that
// halves it (it reads only that load) give the same page every trip: they run once,
// before the loop, the load moving w's tile once (`repeat 1`) instead of 8 times. A
// loop of one trip is its body, %kb read as 0 and the carry as its initial page. A
// load whose buffer another load of the loop fills stays where it is.
//
// RUN: xdsl-opt %s --split-input-file -p spatial-hoist | filecheck %s

func.func @invariant(%a: tensor<32x256xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "invariant" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 8, site = [1, 1]> numerics approx "a sum of products in f32"
      ins(%a, %w : tensor<32x256xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x256xf32>, %w_in: tensor<32x32xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x256xf32>) : !spatial.tensor<32x256xf32, input>
    %wt = spatial.tensor "w" external(%w_in : tensor<32x32xf32>) : !spatial.tensor<32x32xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 2>
    %wb = spatial.buffer "in_w" : !spatial.buffer<1xf32, depth 1>
    %hb = spatial.buffer "half" : !spatial.buffer<1xf32, depth 1>
    %cb = spatial.buffer "acc" : !spatial.buffer<1xf32, depth 2>
    %zero = spatial.stage "zero" iters(par 32, par 32) ins() into %cb[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %c = arith.constant 0.0 : f32
      spatial.yield %c : f32
    }
    %sum = spatial.k_loop %kb = 0 to 8 iter_args(%acc = %zero) -> (!spatial.page<1xf32>) {
      %pw = spatial.load %wt[0] block 1x1 stride 1 repeat 8 into %wb : !spatial.tensor<32x32xf32, input> -> !spatial.page<1xf32>
      %h = spatial.stage "half" iters(par 32, par 32) ins(%pw[d0 * 32 + d1]) into %hb[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%v: f32):
        %c = arith.constant 0.5 : f32
        %m = arith.mulf %v, %c : f32
        spatial.yield %m : f32
      }
      %p = spatial.load %at[%kb] block 1x1 stride 1 repeat 8 into %in : !spatial.tensor<32x256xf32, input> -> !spatial.page<1xf32>
      %next = spatial.stage "fold" iters(par 32, par 32) ins(%acc[d0 * 32 + d1], %p[d0 * 32 + d1], %h[d0 * 32 + d1]) into %cb[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%u: f32, %v: f32, %s: f32):
        %m = arith.mulf %v, %s : f32
        %t = arith.addf %u, %m : f32
        spatial.yield %t : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @invariant
// CHECK:         %[[Z:.*]] = spatial.stage "zero"
// CHECK:         %[[PW:.*]] = spatial.load %{{.*}}[0] block 1x1 stride 1 repeat 1 into %{{.*}} : !spatial.tensor<32x32xf32, input> -> !spatial.page<1xf32>
// CHECK-NEXT:    %[[H:.*]] = spatial.stage "half" iters(par 32, par 32)
// CHECK-NEXT:      ins(%[[PW]][d0 * 32 + d1])
// CHECK:         spatial.k_loop %[[KB:.*]] = 0 to 8 iter_args(%[[ACC:.*]] = %[[Z]]) -> (!spatial.page<1xf32>) {
// CHECK-NEXT:      %[[P:.*]] = spatial.load %{{.*}}[%[[KB]]] block 1x1 stride 1 repeat 8
// CHECK-NEXT:      spatial.stage "fold" iters(par 32, par 32)
// CHECK-NEXT:        ins(%[[ACC]][d0 * 32 + d1], %[[P]][d0 * 32 + d1], %[[H]][d0 * 32 + d1])

// -----

func.func @once(%a: tensor<32x256xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "once" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics approx "a sum of products in f32"
      ins(%a, %w : tensor<32x256xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x256xf32>, %w_in: tensor<32x32xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x256xf32>) : !spatial.tensor<32x256xf32, input>
    %wt = spatial.tensor "w" external(%w_in : tensor<32x32xf32>) : !spatial.tensor<32x32xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 2>
    %wb = spatial.buffer "in_w" : !spatial.buffer<1xf32, depth 1>
    %hb = spatial.buffer "half" : !spatial.buffer<1xf32, depth 1>
    %cb = spatial.buffer "acc" : !spatial.buffer<1xf32, depth 2>
    %zero = spatial.stage "zero" iters(par 32, par 32) ins() into %cb[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %c = arith.constant 0.0 : f32
      spatial.yield %c : f32
    }
    %sum = spatial.k_loop %kb = 0 to 1 iter_args(%acc = %zero) -> (!spatial.page<1xf32>) {
      %pw = spatial.load %wt[0] block 1x1 stride 1 repeat 1 into %wb : !spatial.tensor<32x32xf32, input> -> !spatial.page<1xf32>
      %h = spatial.stage "half" iters(par 32, par 32) ins(%pw[d0 * 32 + d1]) into %hb[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%v: f32):
        %c = arith.constant 0.5 : f32
        %m = arith.mulf %v, %c : f32
        spatial.yield %m : f32
      }
      %p = spatial.load %at[%kb] block 1x1 stride 1 repeat 1 into %in : !spatial.tensor<32x256xf32, input> -> !spatial.page<1xf32>
      %next = spatial.stage "fold" iters(par 32, par 32) ins(%acc[d0 * 32 + d1], %p[d0 * 32 + d1], %h[d0 * 32 + d1]) into %cb[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%u: f32, %v: f32, %s: f32):
        %m = arith.mulf %v, %s : f32
        %t = arith.addf %u, %m : f32
        spatial.yield %t : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @once
// CHECK:         %[[Z:.*]] = spatial.stage "zero"
// CHECK:         %[[PW:.*]] = spatial.load %{{.*}}[0] block 1x1 stride 1 repeat 1
// CHECK-NEXT:    %[[H:.*]] = spatial.stage "half"
// CHECK:         %[[P:.*]] = spatial.load %{{.*}}[0] block 1x1 stride 1 repeat 1 into %{{.*}} : !spatial.tensor<32x256xf32, input>
// CHECK-NEXT:    %[[F:.*]] = spatial.stage "fold" iters(par 32, par 32)
// CHECK-NEXT:      ins(%[[Z]][d0 * 32 + d1], %[[P]][d0 * 32 + d1], %[[H]][d0 * 32 + d1])
// CHECK:         spatial.store %[[F]] to
// CHECK-NOT:     spatial.k_loop
// CHECK:         spatial.return

// -----

func.func @shared(%a: tensor<32x256xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "shared" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 8, site = [1, 1]> numerics approx "a sum of products in f32"
      ins(%a, %w : tensor<32x256xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x256xf32>, %w_in: tensor<32x32xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x256xf32>) : !spatial.tensor<32x256xf32, input>
    %wt = spatial.tensor "w" external(%w_in : tensor<32x32xf32>) : !spatial.tensor<32x32xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 2>
    %wb = spatial.buffer "in_w" : !spatial.buffer<1xf32, depth 1>
    %hb = spatial.buffer "half" : !spatial.buffer<1xf32, depth 1>
    %cb = spatial.buffer "acc" : !spatial.buffer<1xf32, depth 2>
    %zero = spatial.stage "zero" iters(par 32, par 32) ins() into %cb[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %c = arith.constant 0.0 : f32
      spatial.yield %c : f32
    }
    %sum = spatial.k_loop %kb = 0 to 8 iter_args(%acc = %zero) -> (!spatial.page<1xf32>) {
      %pw = spatial.load %wt[0] block 1x1 stride 1 repeat 8 into %in : !spatial.tensor<32x32xf32, input> -> !spatial.page<1xf32>
      %h = spatial.stage "half" iters(par 32, par 32) ins(%pw[d0 * 32 + d1]) into %hb[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%v: f32):
        %c = arith.constant 0.5 : f32
        %m = arith.mulf %v, %c : f32
        spatial.yield %m : f32
      }
      %p = spatial.load %at[%kb] block 1x1 stride 1 repeat 8 into %in : !spatial.tensor<32x256xf32, input> -> !spatial.page<1xf32>
      %next = spatial.stage "fold" iters(par 32, par 32) ins(%acc[d0 * 32 + d1], %p[d0 * 32 + d1], %h[d0 * 32 + d1]) into %cb[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%u: f32, %v: f32, %s: f32):
        %m = arith.mulf %v, %s : f32
        %t = arith.addf %u, %m : f32
        spatial.yield %t : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @shared
// CHECK:         spatial.k_loop %[[KB:.*]] = 0 to 8
// CHECK-NEXT:      %[[PW:.*]] = spatial.load %{{.*}}[0] block 1x1 stride 1 repeat 8 into %in
// CHECK-NEXT:      spatial.stage "half"
// CHECK:           spatial.load %{{.*}}[%[[KB]]] block 1x1 stride 1 repeat 8 into %in
