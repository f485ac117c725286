// RUN: spatial-opt -p convert-spatial-to-linalg %s | filecheck %s

// A masked sum (a decode step's attention scores: each term `select(ok, q * k, +0.0)`,
// `ok` whether the key's position is at most the row's) whose mask varies along the
// generic's outermost loop (the blocks of 32 positions, a parallel loop) runs that loop
// as an `scf.for`, and computes a block only where `ok` holds at one of its positions:
// the keys past the position are not read. The block's outputs otherwise keep the
// +0.0 the page was filled with, which the generic would have added +0.0 to.
// tests/test_native.py runs this function at the blocks' edges.

func.func @scores(%q: tensor<3x64xf32>, %k: tensor<64x96xf32>, %pos: tensor<1x1xi32>) -> tensor<3x96xf32> {
  %s = spatial.fold "masked_scores" grid [1] owns (d0) -> (0, 0) size [1, 3]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 3]> numerics approx "products of bf16 factors summed in fp32"
    ins(%q, %k, %pos : tensor<3x64xf32>, tensor<64x96xf32>, tensor<1x1xi32>) -> tensor<3x96xf32> {
  ^bb0(%i0: index, %t0_in: tensor<3x64xf32>, %t1_in: tensor<64x96xf32>, %t2_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "q" external(%t0_in : tensor<3x64xf32>) : !spatial.tensor<3x64xf32, input>
    %t1 = spatial.tensor "keys" external(%t1_in : tensor<64x96xf32>) : !spatial.tensor<64x96xf32, input>
    %t2 = spatial.tensor "pos" external(%t2_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %result = spatial.tensor "scores" zero : !spatial.tensor<3x96xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<2xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<6xf32, depth 1>
    %in2 = spatial.buffer "in2" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<3xf32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x2 stride 2 repeat 1 into %in0 : !spatial.tensor<3x64xf32, input> -> !spatial.page<2xf32>
    %p_in1 = spatial.load %t1[0] block 2x3 stride 3 repeat 1 into %in1 : !spatial.tensor<64x96xf32, input> -> !spatial.page<6xf32>
    %p_in2 = spatial.load %t2[0] block 1x1 stride 1 repeat 1 into %in2 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %contract = spatial.stage "contract" iters(par 3, par 96, sum 2, sum 32)
      ins(%p_in0[d0 * 64 + d2 * 32 + d3], %p_in1[d3 * 192 + d2 * 96 + d1], %p_in2[0]) into %out[d0 * 96 + d1] : (!spatial.page<2xf32>, !spatial.page<6xf32>, !spatial.page<1xi32>) -> !spatial.page<3xf32> {
    ^bb0(%0: f32, %1: f32, %2: i32):
      %3 = arith.truncf %0 : f32 to bf16
      %4 = arith.extf %3 : bf16 to f32
      %5 = arith.truncf %1 : f32 to bf16
      %6 = arith.extf %5 : bf16 to f32
      %7 = arith.mulf %4, %6 : f32
      %8 = spatial.index 1 : index
      %9 = arith.index_cast %2 : i32 to index
      %10 = arith.cmpi ule, %8, %9 : index
      %11 = arith.constant 0.000000e+00 : f32
      %12 = arith.select %10, %7, %11 : f32
      spatial.yield %12 : f32
    }
    spatial.store %contract to %result[0] block 1x3 stride 3 repeat 1 : !spatial.page<3xf32> -> !spatial.tensor<3x96xf32, output>
    spatial.return %result : !spatial.tensor<3x96xf32, output>
  }
  func.return %s : tensor<3x96xf32>
}

// CHECK-LABEL: func.func @scores(
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<3x3x32xf32, strided<[32, 96, 1], offset: ?>>)
// CHECK:         scf.for %[[BLK:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[ANY:.*]] = scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SEEN:.*]] = %{{.*}}) -> (i1) {
// CHECK:             %[[POS:.*]] = memref.load
// CHECK:             %[[AT:.*]] = arith.muli %[[BLK]], %{{.*}} : index
// CHECK:             %[[KEY:.*]] = arith.addi %[[AT]], %[[LANE]] : index
// CHECK:             %[[P:.*]] = arith.index_cast %[[POS]] : i32 to index
// CHECK:             %[[OK:.*]] = arith.cmpi ule, %[[KEY]], %[[P]] : index
// CHECK:             scf.yield
// CHECK:           }
// CHECK-NEXT:      scf.if %[[ANY]] {
// CHECK:             %[[FROM:.*]] = arith.muli %[[BLK]], %{{.*}} : index
// CHECK-NEXT:        memref.reinterpret_cast %{{.*}} to offset: [%[[FROM]]], sizes: [2, 32, 32], strides: [96, 192, 1]
// CHECK:             linalg.generic {{.*}} iterator_types = ["reduction", "reduction", "parallel"]
// CHECK:               arith.select
// CHECK:           }
// CHECK-NEXT:    }
// CHECK:         linalg.copy
