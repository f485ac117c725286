// What `spatial-merge-siblings` leaves as it is: stages of one body over one page,
// a constant step apart, whose pages are not only read by stages at a (row, column)
// (here a store moves each whole), or that write one buffer.
//
// RUN: xdsl-opt %s --split-input-file -p spatial-merge-siblings | filecheck %s

// A store reads each half: a page the store moves whole stays a page of its own.
func.func @stored(%a: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %y = spatial.view "stored" grid [1] owns (d0) -> (0, d0) size [1, 2]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 2]> numerics exact
      ins(%a : tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%i: index, %a_in: tensor<32x64xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<2xf32, depth 1>
    %p = spatial.load %at[0] block 1x2 stride 2 repeat 1 into %in : !spatial.tensor<32x64xf32, input> -> !spatial.page<2xf32>
    %h0 = spatial.buffer "half_0" : !spatial.buffer<1xf32, depth 1>
    %s0 = spatial.stage "half_0" iters(par 32, par 32) ins(%p[d0 * 64 + d1]) into %h0[d0 * 32 + d1] : (!spatial.page<2xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    %h1 = spatial.buffer "half_1" : !spatial.buffer<1xf32, depth 1>
    %s1 = spatial.stage "half_1" iters(par 32, par 32) ins(%p[d0 * 64 + d1 + 32]) into %h1[d0 * 32 + d1] : (!spatial.page<2xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    spatial.store %s0 to %yt[1] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
    spatial.store %s1 to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
    spatial.return %yt : !spatial.tensor<32x64xf32, output>
  }
  func.return %y : tensor<32x64xf32>
}

// CHECK-LABEL: func.func @stored
// CHECK:         %[[S0:.*]] = spatial.stage "half_0" iters(par 32, par 32)
// CHECK:         %[[S1:.*]] = spatial.stage "half_1" iters(par 32, par 32)
// CHECK:         spatial.store %[[S0]] to
// CHECK-NEXT:    spatial.store %[[S1]] to
// CHECK-NOT:     iters(par 2,

// -----

// Two halves written into one buffer (a page each, depth 2): merged, their pages
// would need a buffer of twice the tiles.
func.func @one_buffer(%a: tensor<32x64xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "one_buffer" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%a : tensor<32x64xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x64xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<2xf32, depth 1>
    %p = spatial.load %at[0] block 1x2 stride 2 repeat 1 into %in : !spatial.tensor<32x64xf32, input> -> !spatial.page<2xf32>
    %h = spatial.buffer "halves" : !spatial.buffer<1xf32, depth 2>
    %s0 = spatial.stage "half_0" iters(par 32, par 32) ins(%p[d0 * 64 + d1]) into %h[d0 * 32 + d1] : (!spatial.page<2xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    %s1 = spatial.stage "half_1" iters(par 32, par 32) ins(%p[d0 * 64 + d1 + 32]) into %h[d0 * 32 + d1] : (!spatial.page<2xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    %ob = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %sum = spatial.stage "sum" iters(par 32, par 32) ins(%s0[d0 * 32 + d1], %s1[d0 * 32 + d1]) into %ob[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%u: f32, %v: f32):
      %s = arith.addf %u, %v : f32
      spatial.yield %s : f32
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}

// CHECK-LABEL: func.func @one_buffer
// CHECK:         %[[H:.*]] = spatial.buffer "halves" : !spatial.buffer<1xf32, depth 2>
// CHECK-NEXT:    %[[S0:.*]] = spatial.stage "half_0" iters(par 32, par 32)
// CHECK-NEXT:      ins(%{{.*}}[d0 * 64 + d1]) into %[[H]][d0 * 32 + d1]
// CHECK:         %[[S1:.*]] = spatial.stage "half_1" iters(par 32, par 32)
// CHECK-NEXT:      ins(%{{.*}}[d0 * 64 + d1 + 32]) into %[[H]][d0 * 32 + d1]
// CHECK:         spatial.stage "sum" iters(par 32, par 32)
// CHECK-NEXT:      ins(%[[S0]][d0 * 32 + d1], %[[S1]][d0 * 32 + d1])
