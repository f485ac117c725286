// RUN: xdsl-opt %s -p cse,dce | filecheck %s
// RUN: spatial-run %s --seed 0 -p cse,dce --compare --stats | filecheck %s --check-prefix=COMPARE

// What xDSL's own passes may do with a program, by the ops' memory effects
// (docs/dialects.md says why):
// - a buffer allocates local memory: `cse` keeps two of one type (their names differ,
//   as the verifier asks), and `dce` drops one nobody uses;
// - a load reads its tensor and fills a page of its buffer, a stage fills a page of
//   its buffer: `cse` merges no two of them (a merged page would stay in its buffer
//   past the pages filled between them, and the traffic is what the loads move);
// - the scalar ops of a stage body are pure: `cse` merges them as anywhere.

// CHECK-LABEL: func.func @copy_twice
// CHECK:      %[[A:.*]] = spatial.buffer "in_a" : !spatial.buffer<1xf32, depth 2>
// CHECK-NEXT: %[[B:.*]] = spatial.buffer "in_b" : !spatial.buffer<1xf32, depth 2>
// CHECK-NEXT: %[[O:.*]] = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
// CHECK-NEXT: %[[PA:.*]] = spatial.load %{{.*}}[%{{.*}}] block 1x1 stride 2 repeat 1 into %[[A]]
// CHECK-NEXT: %[[PB:.*]] = spatial.load %{{.*}}[%{{.*}}] block 1x1 stride 2 repeat 1 into %[[B]]
// CHECK-NEXT: %[[PA2:.*]] = spatial.load %{{.*}}[%{{.*}}] block 1x1 stride 2 repeat 1 into %[[A]]
// CHECK-NEXT: %{{.*}} = spatial.stage "sum" iters(par 32, par 32)
// CHECK-NEXT: ins(%[[PA]][d0 * 32 + d1], %[[PB]][d0 * 32 + d1], %[[PA2]][d0 * 32 + d1]) into %[[O]][d0 * 32 + d1]
// CHECK-NEXT: ^bb0(%[[U:.*]]: f32, %[[V:.*]]: f32, %[[W:.*]]: f32):
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:   %[[X:.*]] = arith.mulf %[[U]], %[[TWO]] : f32
// CHECK-NEXT:   %[[Y:.*]] = arith.mulf %[[V]], %[[TWO]] : f32
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:   %[[R:.*]] = arith.subf %[[S]], %[[W]] : f32
// CHECK-NEXT:   spatial.yield %[[R]] : f32
// CHECK-NOT:  "spare"

// y = 2x + 2x - x = 3x before and after, and the three loads of x are counted (3
// loads x 2 items x one 4 KiB tile).
// COMPARE:      res0: max |before - after| = 0, relative to max |before| = 0
// COMPARE:      copy_twice  x  24,576  0

func.func @copy_twice(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %y = spatial.view "copy_twice" grid [2] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<"tensix">
      plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%i: index, %x_in: tensor<32x64xf32>):
    %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
    %a = spatial.buffer "in_a" : !spatial.buffer<1xf32, depth 2>
    %b = spatial.buffer "in_b" : !spatial.buffer<1xf32, depth 2>
    %spare = spatial.buffer "spare" : !spatial.buffer<1xf32, depth 2>
    %o = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %pa = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %a : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    %pb = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    %pa2 = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %a : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    %s = spatial.stage "sum" iters(par 32, par 32)
        ins(%pa[d0 * 32 + d1], %pb[d0 * 32 + d1], %pa2[d0 * 32 + d1]) into %o[d0 * 32 + d1]
        : (!spatial.page<1xf32>, !spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%u: f32, %v: f32, %w: f32):
      %two = arith.constant 2.000000e+00 : f32
      %twice_u = arith.mulf %u, %two : f32
      %two_again = arith.constant 2.000000e+00 : f32
      %twice_v = arith.mulf %v, %two_again : f32
      %sum = arith.addf %twice_u, %twice_v : f32
      %r = arith.subf %sum, %w : f32
      spatial.yield %r : f32
    }
    spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
    spatial.return %yt : !spatial.tensor<32x64xf32, output>
  }
  func.return %y : tensor<32x64xf32>
}
