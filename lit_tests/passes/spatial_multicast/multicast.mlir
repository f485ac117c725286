// RUN: xdsl-opt %s -p spatial-multicast | filecheck %s

// A program of two items: each reads its own tile of %x and the same tile of %w (the
// norm's weight, a rotary table: an address without the item). Only the second is a
// multicast. A K loop's index may step a multicast (every item reads the same block
// each trip); a program of one item has nothing to send to others.

func.func @two_items(%x: tensor<1x64xf32>, %w: tensor<1x32xf32>) -> tensor<1x64xf32> {
  %y = spatial.map "scale" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x, %w : tensor<1x64xf32>, tensor<1x32xf32>) -> tensor<1x64xf32> {
  ^bb0(%i: index, %x_in: tensor<1x64xf32>, %w_in: tensor<1x32xf32>):
    %xt = spatial.tensor "x" external(%x_in : tensor<1x64xf32>) : !spatial.tensor<1x64xf32, input>
    %wt = spatial.tensor "w" external(%w_in : tensor<1x32xf32>) : !spatial.tensor<1x32xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<1x64xf32, output>
    %bx = spatial.buffer "bx" : !spatial.buffer<1xf32, depth 1>
    %bw = spatial.buffer "bw" : !spatial.buffer<1xf32, depth 1>
    %bo = spatial.buffer "bo" : !spatial.buffer<1xf32, depth 1>
    %px = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %bx : !spatial.tensor<1x64xf32, input> -> !spatial.page<1xf32>
    %pw = spatial.load %wt[0] block 1x1 stride 1 repeat 1 into %bw : !spatial.tensor<1x32xf32, input> -> !spatial.page<1xf32>
    %s = spatial.stage "mul" iters(par 32) ins(%px[d0], %pw[d0]) into %bo[d0] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %b : f32
      spatial.yield %m : f32
    }
    spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x64xf32, output>
    spatial.return %yt : !spatial.tensor<1x64xf32, output>
  }
  func.return %y : tensor<1x64xf32>
}

// CHECK-LABEL: func.func @two_items(
// CHECK:         %[[PX:.*]] = spatial.load %{{.*}}[%{{.*}}] block 1x1 stride 2 repeat 1 into
// CHECK-NEXT:    %[[PW:.*]] = spatial.load %{{.*}}[0] block 1x1 stride 1 repeat 1 multicast into

func.func @one_item(%w: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %y = spatial.view "copy" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%w : tensor<1x32xf32>) -> tensor<1x32xf32> {
  ^bb0(%i: index, %w_in: tensor<1x32xf32>):
    %wt = spatial.tensor "w" external(%w_in : tensor<1x32xf32>) : !spatial.tensor<1x32xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<1x32xf32, output>
    %bw = spatial.buffer "bw" : !spatial.buffer<1xf32, depth 1>
    %pw = spatial.load %wt[0] block 1x1 stride 1 repeat 1 into %bw : !spatial.tensor<1x32xf32, input> -> !spatial.page<1xf32>
    spatial.store %pw to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x32xf32, output>
    spatial.return %yt : !spatial.tensor<1x32xf32, output>
  }
  func.return %y : tensor<1x32xf32>
}

// CHECK-LABEL: func.func @one_item(
// CHECK:         spatial.load %{{.*}}[0] block 1x1 stride 1 repeat 1 into
// CHECK-NOT:     multicast
