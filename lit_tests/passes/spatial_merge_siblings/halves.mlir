// `spatial-merge-siblings` on stages written by hand: two stages that scale the two
// halves of a 32 x 64 page (one body, the same page, maps 32 elements apart, a
// one-tile buffer each) become one stage with a `par 2` axis in front, writing the
// two tiles side by side into one buffer of 2 tiles (a row of 64 elements); the
// stage that adds them reads part r at `+ 32 r`. Siblings whose steps are uneven
// merge as far as they are even.
//
// RUN: xdsl-opt %s --split-input-file -p spatial-merge-siblings | filecheck %s
// RUN: xdsl-opt %s --split-input-file -p spatial-merge-siblings | filecheck %s --check-prefix=GONE
// RUN: xdsl-opt %s --split-input-file -p spatial-merge-siblings | xdsl-opt --split-input-file | filecheck %s

func.func @halves(%a: tensor<32x64xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "halves" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%a : tensor<32x64xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x64xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<2xf32, depth 1>
    %p = spatial.load %at[0] block 1x2 stride 2 repeat 1 into %in : !spatial.tensor<32x64xf32, input> -> !spatial.page<2xf32>
    %h0 = spatial.buffer "half_0" : !spatial.buffer<1xf32, depth 1>
    %s0 = spatial.stage "half_0" iters(par 32, par 32) ins(%p[d0 * 64 + d1]) into %h0[d0 * 32 + d1] : (!spatial.page<2xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      %c = arith.constant 2.0 : f32
      %m = arith.mulf %v, %c : f32
      spatial.yield %m : f32
    }
    %h1 = spatial.buffer "half_1" : !spatial.buffer<1xf32, depth 1>
    %s1 = spatial.stage "half_1" iters(par 32, par 32) ins(%p[d0 * 64 + d1 + 32]) into %h1[d0 * 32 + d1] : (!spatial.page<2xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      %c = arith.constant 2.0 : f32
      %m = arith.mulf %v, %c : f32
      spatial.yield %m : f32
    }
    %ob = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %sum = spatial.stage "sum" iters(par 32, par 32) ins(%s0[d0 * 32 + d1], %s1[d1 * 32 + d0]) into %ob[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%u: f32, %v: f32):
      %s = arith.addf %u, %v : f32
      spatial.yield %s : f32
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @halves
// CHECK:         %[[P:.*]] = spatial.load %{{.*}}[0] block 1x2 stride 2 repeat 1 into %in
// CHECK-NEXT:    %[[H:.*]] = spatial.buffer "half" : !spatial.buffer<2xf32, depth 1>
// CHECK-NEXT:    %[[S:.*]] = spatial.stage "half" iters(par 2, par 32, par 32)
// CHECK-NEXT:      ins(%[[P]][d1 * 64 + d0 * 32 + d2]) into %[[H]][d1 * 64 + d0 * 32 + d2] : (!spatial.page<2xf32>) -> !spatial.page<2xf32> {
// CHECK:         %[[OB:.*]] = spatial.buffer "out"
// CHECK-NEXT:    %{{.*}} = spatial.stage "sum" iters(par 32, par 32)
// CHECK-NEXT:      ins(%[[S]][d0 * 64 + d1], %[[S]][d1 * 64 + d0 + 32]) into %[[OB]][d0 * 32 + d1] : (!spatial.page<2xf32>, !spatial.page<2xf32>) -> !spatial.page<1xf32> {
// GONE-NOT:      "half_0"
// GONE-NOT:      "half_1"
// GONE-NOT:      "c0"
// GONE-NOT:      "c1"

// -----

// Three stages whose steps are 32 then 16: the first two merge, the third stays.

func.func @uneven(%a: tensor<32x96xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "uneven" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%a : tensor<32x96xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x96xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x96xf32>) : !spatial.tensor<32x96xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<3xf32, depth 1>
    %p = spatial.load %at[0] block 1x3 stride 3 repeat 1 into %in : !spatial.tensor<32x96xf32, input> -> !spatial.page<3xf32>
    %b0 = spatial.buffer "c0" : !spatial.buffer<1xf32, depth 1>
    %b1 = spatial.buffer "c1" : !spatial.buffer<1xf32, depth 1>
    %b2 = spatial.buffer "c2" : !spatial.buffer<1xf32, depth 1>
    %s0 = spatial.stage "c0" iters(par 32, par 32) ins(%p[d0 * 96 + d1]) into %b0[d0 * 32 + d1] : (!spatial.page<3xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    %s1 = spatial.stage "c1" iters(par 32, par 32) ins(%p[d0 * 96 + d1 + 32]) into %b1[d0 * 32 + d1] : (!spatial.page<3xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    %s2 = spatial.stage "c2" iters(par 32, par 32) ins(%p[d0 * 96 + d1 + 48]) into %b2[d0 * 32 + d1] : (!spatial.page<3xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    %ob = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %sum = spatial.stage "sum" iters(par 32, par 32) ins(%s0[d0 * 32 + d1], %s1[d0 * 32 + d1], %s2[d0 * 32 + d1]) into %ob[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%u: f32, %v: f32, %w: f32):
      %s = arith.addf %u, %v : f32
      %t = arith.addf %s, %w : f32
      spatial.yield %t : f32
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @uneven
// CHECK:         %[[B:.*]] = spatial.buffer "c" : !spatial.buffer<2xf32, depth 1>
// CHECK-NEXT:    %[[B2:.*]] = spatial.buffer "c2" : !spatial.buffer<1xf32, depth 1>
// CHECK-NEXT:    %[[S:.*]] = spatial.stage "c" iters(par 2, par 32, par 32)
// CHECK-NEXT:      ins(%{{.*}}[d1 * 96 + d0 * 32 + d2]) into %[[B]][d1 * 64 + d0 * 32 + d2]
// CHECK:         %[[S2:.*]] = spatial.stage "c2" iters(par 32, par 32)
// CHECK-NEXT:      ins(%{{.*}}[d0 * 96 + d1 + 48]) into %[[B2]][d0 * 32 + d1]
// CHECK:         spatial.stage "sum" iters(par 32, par 32)
// CHECK-NEXT:      ins(%[[S]][d0 * 64 + d1], %[[S]][d0 * 64 + d1 + 32], %[[S2]][d0 * 32 + d1])
