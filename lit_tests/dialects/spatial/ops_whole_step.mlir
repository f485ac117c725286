// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// What spatial-lower-ops makes (the programs of lit_tests/passes/spatial_lower_ops),
// parsed, printed and parsed again, in the custom and the generic form: spatial.map,
// a load's `multicast`, a stage's `max` axes, math ops in a stage body, moves through a
// table bound at run time (a state tensor's window, a token's column) and stage maps
// that add a run-time table's element (`s0 = inN`).

func.func @norm(%x: tensor<1x576xf32>, %w: tensor<576xf32>) -> (tensor<1x576xbf16>, tensor<1xf32>) {
  %0 = tensor.expand_shape %w [[0 : i64, 1 : i64]] output_shape [1, 576] : tensor<576xf32> into tensor<1x576xf32>
  %ss = spatial.fold "norm_sum_1x576" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics approx "fp32 sums in an order of their own"
    ins(%x : tensor<1x576xf32>) -> tensor<1x1xf32> {
  ^bb0(%i0: index, %t0_in: tensor<1x576xf32>):
    %t0 = spatial.tensor "x" external(%t0_in : tensor<1x576xf32>) : !spatial.tensor<1x576xf32, input>
    %result = spatial.tensor "ss" zero : !spatial.tensor<1x1xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<18xf32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x18 stride 18 repeat 1 into %in0 : !spatial.tensor<1x576xf32, input> -> !spatial.page<18xf32>
    %reduce = spatial.stage "reduce" iters(sum 576)
      ins(%p_in0[d0]) into %out[0] : (!spatial.page<18xf32>) -> !spatial.page<1xf32> {
    ^bb0(%1: f32):
      %sq = arith.mulf %1, %1 : f32
      spatial.yield %sq : f32
    }
    spatial.store %reduce to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x1xf32, output>
    spatial.return %result : !spatial.tensor<1x1xf32, output>
  }
  %ss_1 = tensor.collapse_shape %ss [[0 : i64, 1 : i64]] : tensor<1x1xf32> into tensor<1xf32>
  %y = spatial.map "norm_map_1x576" grid [3] owns (d0) -> (0, d0 * 6) size [1, 6]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 3], k_blocks = 1, site = [1, 6]> numerics approx "math.rsqrt as the site computes it"
    ins(%x, %ss, %0 : tensor<1x576xf32>, tensor<1x1xf32>, tensor<1x576xf32>) -> tensor<1x576xbf16> {
  ^bb0(%i0: index, %t0_in: tensor<1x576xf32>, %t1_in: tensor<1x1xf32>, %t2_in: tensor<1x576xf32>):
    %t0 = spatial.tensor "x" external(%t0_in : tensor<1x576xf32>) : !spatial.tensor<1x576xf32, input>
    %t1 = spatial.tensor "ss" external(%t1_in : tensor<1x1xf32>) : !spatial.tensor<1x1xf32, input>
    %t2 = spatial.tensor "w" external(%t2_in : tensor<1x576xf32>) : !spatial.tensor<1x576xf32, input>
    %result = spatial.tensor "y" zero : !spatial.tensor<1x576xbf16, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<6xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<1xf32, depth 1>
    %in2 = spatial.buffer "in2" : !spatial.buffer<6xf32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<6xbf16, depth 1>
    %p_in0 = spatial.load %t0[%i0 * 6] block 1x6 stride 18 repeat 1 into %in0 : !spatial.tensor<1x576xf32, input> -> !spatial.page<6xf32>
    %p_in1 = spatial.load %t1[0] block 1x1 stride 1 repeat 1 multicast into %in1 : !spatial.tensor<1x1xf32, input> -> !spatial.page<1xf32>
    %p_in2 = spatial.load %t2[%i0 * 6] block 1x6 stride 18 repeat 1 into %in2 : !spatial.tensor<1x576xf32, input> -> !spatial.page<6xf32>
    %map = spatial.stage "map" iters(par 192)
      ins(%p_in0[d0], %p_in1[0], %p_in2[d0]) into %out[d0] : (!spatial.page<6xf32>, !spatial.page<1xf32>, !spatial.page<6xf32>) -> !spatial.page<6xbf16> {
    ^bb0(%1: f32, %2: f32, %3: f32):
      %n = arith.constant 5.760000e+02 : f32
      %eps = arith.constant 1.000000e-05 : f32
      %mean = arith.divf %2, %n : f32
      %v = arith.addf %mean, %eps : f32
      %r = math.rsqrt %v : f32
      %xr = arith.mulf %1, %r : f32
      %xw = arith.mulf %xr, %3 : f32
      %b = arith.truncf %xw : f32 to bf16
      spatial.yield %b : bf16
    }
    spatial.store %map to %result[%i0 * 6] block 1x6 stride 18 repeat 1 : !spatial.page<6xbf16> -> !spatial.tensor<1x576xbf16, output>
    spatial.return %result : !spatial.tensor<1x576xbf16, output>
  }
  func.return %y, %ss_1 : tensor<1x576xbf16>, tensor<1xf32>
}

func.func @softmax(%scores: tensor<3x3x1x256xf32>, %pos: tensor<1xi32>) -> (tensor<3x3x1xf32>, tensor<3x3x1x256xf32>, tensor<3x3x1xf32>) {
  %0 = tensor.expand_shape %pos [[0 : i64, 1 : i64]] output_shape [1, 1] : tensor<1xi32> into tensor<1x1xi32>
  %1 = tensor.collapse_shape %scores [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<3x3x1x256xf32> into tensor<9x256xf32>
  %max = spatial.fold "norm_max_3x3x1x256" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%1, %0 : tensor<9x256xf32>, tensor<1x1xi32>) -> tensor<1x9xf32> {
  ^bb0(%i0: index, %t0_in: tensor<9x256xf32>, %t1_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "scores" external(%t0_in : tensor<9x256xf32>) : !spatial.tensor<9x256xf32, input>
    %t1 = spatial.tensor "pos" external(%t1_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %result = spatial.tensor "max" zero : !spatial.tensor<1x9xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<8xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<1xi32, depth 1>
    %part = spatial.buffer "part" : !spatial.buffer<1xf32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x8 stride 8 repeat 1 into %in0 : !spatial.tensor<9x256xf32, input> -> !spatial.page<8xf32>
    %p_in1 = spatial.load %t1[0] block 1x1 stride 1 repeat 1 into %in1 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %reduce = spatial.stage "reduce" iters(par 3, par 3, max 256)
      ins(%p_in0[d0 * 768 + d1 * 256 + d2], %p_in1[0]) into %part[d0 * 3 + d1] : (!spatial.page<8xf32>, !spatial.page<1xi32>) -> !spatial.page<1xf32> {
    ^bb0(%2: f32, %3: i32):
      %4 = arith.constant 0 : index
      %5 = spatial.index 2 : index
      %pi = arith.index_cast %3 : i32 to index
      %lim = arith.addi %pi, %4 : index
      %ok = arith.cmpi ule, %5, %lim : index
      %l = arith.constant -3.40282347e+38 : f32
      %v = arith.select %ok, %2, %l : f32
      spatial.yield %v : f32
    }
    %result_1 = spatial.stage "result" iters(par 32, par 32)
      ins(%reduce[d0 * 32 + d1]) into %out[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%6: f32):
      %7 = arith.constant -3.40282347e+38 : f32
      %8 = arith.maximumf %7, %6 : f32
      spatial.yield %8 : f32
    }
    spatial.store %result_1 to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x9xf32, output>
    spatial.return %result : !spatial.tensor<1x9xf32, output>
  }
  %2 = tensor.collapse_shape %max [[0 : i64, 1 : i64]] : tensor<1x9xf32> into tensor<9xf32>
  %max_1 = tensor.expand_shape %2 [[0 : i64, 1 : i64, 2 : i64]] output_shape [3, 3, 1] : tensor<9xf32> into tensor<3x3x1xf32>
  %exp = spatial.map "norm_map_3x3x1x256" grid [1] owns (d0) -> (0, 0) size [1, 8]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 8]> numerics approx "math.exp as the site computes it"
    ins(%1, %max, %0 : tensor<9x256xf32>, tensor<1x9xf32>, tensor<1x1xi32>) -> tensor<9x256xf32> {
  ^bb0(%i0: index, %t0_in: tensor<9x256xf32>, %t1_in: tensor<1x9xf32>, %t2_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "scores" external(%t0_in : tensor<9x256xf32>) : !spatial.tensor<9x256xf32, input>
    %t1 = spatial.tensor "max" external(%t1_in : tensor<1x9xf32>) : !spatial.tensor<1x9xf32, input>
    %t2 = spatial.tensor "pos" external(%t2_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %result = spatial.tensor "exp" zero : !spatial.tensor<9x256xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<8xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<1xf32, depth 1>
    %in2 = spatial.buffer "in2" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<8xf32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x8 stride 8 repeat 1 into %in0 : !spatial.tensor<9x256xf32, input> -> !spatial.page<8xf32>
    %p_in1 = spatial.load %t1[0] block 1x1 stride 1 repeat 1 into %in1 : !spatial.tensor<1x9xf32, input> -> !spatial.page<1xf32>
    %p_in2 = spatial.load %t2[0] block 1x1 stride 1 repeat 1 into %in2 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %map = spatial.stage "map" iters(par 3, par 3, par 256)
      ins(%p_in0[d0 * 768 + d1 * 256 + d2], %p_in1[d0 * 3 + d1], %p_in2[0]) into %out[d0 * 768 + d1 * 256 + d2] : (!spatial.page<8xf32>, !spatial.page<1xf32>, !spatial.page<1xi32>) -> !spatial.page<8xf32> {
    ^bb0(%3: f32, %4: f32, %5: i32):
      %6 = arith.constant 0 : index
      %7 = spatial.index 2 : index
      %pi = arith.index_cast %5 : i32 to index
      %lim = arith.addi %pi, %6 : index
      %ok = arith.cmpi ule, %7, %lim : index
      %d = arith.subf %3, %4 : f32
      %x = math.exp %d : f32
      %z = arith.constant 0.000000e+00 : f32
      %v = arith.select %ok, %x, %z : f32
      spatial.yield %v : f32
    }
    spatial.store %map to %result[0] block 1x8 stride 8 repeat 1 : !spatial.page<8xf32> -> !spatial.tensor<9x256xf32, output>
    spatial.return %result : !spatial.tensor<9x256xf32, output>
  }
  %exp_1 = tensor.expand_shape %exp [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] output_shape [3, 3, 1, 256] : tensor<9x256xf32> into tensor<3x3x1x256xf32>
  %sum = spatial.fold "norm_sum_3x3x1x256" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics approx "fp32 sums in an order of their own"
    ins(%exp : tensor<9x256xf32>) -> tensor<1x9xf32> {
  ^bb0(%i0: index, %t0_in: tensor<9x256xf32>):
    %t0 = spatial.tensor "exp" external(%t0_in : tensor<9x256xf32>) : !spatial.tensor<9x256xf32, input>
    %result = spatial.tensor "sum" zero : !spatial.tensor<1x9xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<8xf32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x8 stride 8 repeat 1 into %in0 : !spatial.tensor<9x256xf32, input> -> !spatial.page<8xf32>
    %reduce = spatial.stage "reduce" iters(par 3, par 3, sum 256)
      ins(%p_in0[d0 * 768 + d1 * 256 + d2]) into %out[d0 * 3 + d1] : (!spatial.page<8xf32>) -> !spatial.page<1xf32> {
    ^bb0(%3: f32):
      spatial.yield %3 : f32
    }
    spatial.store %reduce to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x9xf32, output>
    spatial.return %result : !spatial.tensor<1x9xf32, output>
  }
  %3 = tensor.collapse_shape %sum [[0 : i64, 1 : i64]] : tensor<1x9xf32> into tensor<9xf32>
  %sum_1 = tensor.expand_shape %3 [[0 : i64, 1 : i64, 2 : i64]] output_shape [3, 3, 1] : tensor<9xf32> into tensor<3x3x1xf32>
  func.return %max_1, %exp_1, %sum_1 : tensor<3x3x1xf32>, tensor<3x3x1x256xf32>, tensor<3x3x1xf32>
}

func.func @cache(%k: tensor<3x64x1xf32>, %v: tensor<1x192xf32>, %kc: tensor<3x64x256xf32>, %vc: tensor<3x256x64xf32>, %pos: tensor<1xi32>) -> (tensor<3x64x256xf32>, tensor<3x256x64xf32>) {
  %0 = tensor.collapse_shape %vc [[0 : i64, 1 : i64], [2 : i64]] : tensor<3x256x64xf32> into tensor<768x64xf32>
  %1 = tensor.collapse_shape %k [[0 : i64, 1 : i64], [2 : i64]] : tensor<3x64x1xf32> into tensor<192x1xf32>
  %2 = tensor.collapse_shape %kc [[0 : i64, 1 : i64], [2 : i64]] : tensor<3x64x256xf32> into tensor<192x256xf32>
  %3 = tensor.expand_shape %pos [[0 : i64, 1 : i64]] output_shape [1, 1] : tensor<1xi32> into tensor<1x1xi32>
  %at = spatial.map "cache_index_at_1x1" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%3 : tensor<1x1xi32>) -> tensor<1x1xi32> {
  ^bb0(%i0: index, %t0_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "pos" external(%t0_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %result = spatial.tensor "at" zero : !spatial.tensor<1x1xi32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xi32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x1 stride 1 repeat 1 into %in0 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %map = spatial.stage "map" iters(par 1)
      ins(%p_in0[0]) into %out[0] : (!spatial.page<1xi32>) -> !spatial.page<1xi32> {
    ^bb0(%4: i32):
      %5 = arith.index_cast %4 : i32 to index
      %6 = arith.constant 0 : index
      %7 = arith.cmpi sge, %5, %6 : index
      %8 = arith.constant 255 : index
      %9 = arith.cmpi sle, %5, %8 : index
      %10 = arith.andi %7, %9 : i1
      %11 = arith.constant 32 : index
      %12 = arith.divui %5, %11 : index
      %13 = arith.constant 7 : index
      %14 = arith.minsi %12, %13 : index
      %15 = arith.constant 48 : index
      %16 = arith.select %10, %14, %15 : index
      %17 = arith.index_cast %16 : index to i32
      spatial.yield %17 : i32
    }
    spatial.store %map to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xi32> -> !spatial.tensor<1x1xi32, output>
    spatial.return %result : !spatial.tensor<1x1xi32, output>
  }
  %lane = spatial.map "cache_index_lane_1x1" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%3 : tensor<1x1xi32>) -> tensor<1x1xi32> {
  ^bb0(%i0: index, %t0_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "pos" external(%t0_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %result = spatial.tensor "lane" zero : !spatial.tensor<1x1xi32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xi32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x1 stride 1 repeat 1 into %in0 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %map = spatial.stage "map" iters(par 1)
      ins(%p_in0[0]) into %out[0] : (!spatial.page<1xi32>) -> !spatial.page<1xi32> {
    ^bb0(%4: i32):
      %5 = arith.index_cast %4 : i32 to index
      %6 = arith.constant 32 : index
      %7 = arith.divui %5, %6 : index
      %8 = arith.constant 7 : index
      %9 = arith.minsi %7, %8 : index
      %10 = arith.constant 32 : index
      %11 = arith.muli %9, %10 : index
      %12 = arith.subi %5, %11 : index
      %13 = arith.index_cast %12 : index to i32
      spatial.yield %13 : i32
    }
    spatial.store %map to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xi32> -> !spatial.tensor<1x1xi32, output>
    spatial.return %result : !spatial.tensor<1x1xi32, output>
  }
  %k2 = spatial.map "cache_write_3x64x1" grid [3] owns (d0) -> (d0 * 2, 0) size [2, 8]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 3], k_blocks = 1, site = [2, 8]> numerics exact
    ins(%2, %1, %at, %lane : tensor<192x256xf32>, tensor<192x1xf32>, tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<192x256xf32> {
  ^bb0(%i0: index, %t0_in: tensor<192x256xf32>, %t1_in: tensor<192x1xf32>, %t2_in: tensor<1x1xi32>, %t3_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "kc" external(%t0_in : tensor<192x256xf32>) : !spatial.tensor<192x256xf32, state>
    %t1 = spatial.tensor "k" external(%t1_in : tensor<192x1xf32>) : !spatial.tensor<192x1xf32, input>
    %t2 = spatial.tensor "at" external(%t2_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %t3 = spatial.tensor "lane" external(%t3_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %in0 = spatial.buffer "in0" : !spatial.buffer<2xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<2xf32, depth 1>
    %in2 = spatial.buffer "in2" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<2xf32, depth 1>
    %4 = spatial.load %t0[%i0 * 16 + %t2[0]] block 2x1 stride 8 repeat 1 into %in0 : !spatial.tensor<192x256xf32, state> -> !spatial.page<2xf32>
    %p_in1 = spatial.load %t1[%i0 * 2] block 2x1 stride 1 repeat 1 into %in1 : !spatial.tensor<192x1xf32, input> -> !spatial.page<2xf32>
    %p_in2 = spatial.load %t3[0] block 1x1 stride 1 repeat 1 multicast into %in2 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %write = spatial.stage "write" iters(par 2, par 32, par 32)
      ins(%4[d1 * 64 + d0 * 32 + d2], %p_in1[d1 * 64 + d0 * 32], %p_in2[0]) into %out[d1 * 64 + d0 * 32 + d2] : (!spatial.page<2xf32>, !spatial.page<2xf32>, !spatial.page<1xi32>) -> !spatial.page<2xf32> {
    ^bb0(%5: f32, %6: f32, %7: i32):
      %8 = spatial.index 2 : index
      %9 = arith.index_cast %7 : i32 to index
      %10 = arith.subi %8, %9 : index
      %11 = arith.constant 0 : index
      %12 = arith.cmpi sge, %10, %11 : index
      %13 = arith.constant 1 : index
      %14 = arith.cmpi slt, %10, %13 : index
      %15 = arith.andi %12, %14 : i1
      %16 = arith.select %15, %6, %5 : f32
      spatial.yield %16 : f32
    }
    spatial.store %write to %t0[%i0 * 16 + %t2[0]] block 2x1 stride 8 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<192x256xf32, state>
    spatial.return %t0 : !spatial.tensor<192x256xf32, state>
  }
  %k2_1 = tensor.expand_shape %k2 [[0 : i64, 1 : i64], [2 : i64]] output_shape [3, 64, 256] : tensor<192x256xf32> into tensor<3x64x256xf32>
  %at_1 = spatial.map "cache_index_at_1x1" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%3 : tensor<1x1xi32>) -> tensor<1x1xi32> {
  ^bb0(%i0: index, %t0_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "pos" external(%t0_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %result = spatial.tensor "at" zero : !spatial.tensor<1x1xi32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xi32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x1 stride 1 repeat 1 into %in0 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %map = spatial.stage "map" iters(par 1)
      ins(%p_in0[0]) into %out[0] : (!spatial.page<1xi32>) -> !spatial.page<1xi32> {
    ^bb0(%4: i32):
      %5 = arith.index_cast %4 : i32 to index
      %6 = arith.constant 0 : index
      %7 = arith.cmpi sge, %5, %6 : index
      %8 = arith.constant 255 : index
      %9 = arith.cmpi sle, %5, %8 : index
      %10 = arith.andi %7, %9 : i1
      %11 = arith.constant 32 : index
      %12 = arith.divui %5, %11 : index
      %13 = arith.constant 7 : index
      %14 = arith.minsi %12, %13 : index
      %15 = arith.constant 2 : index
      %16 = arith.muli %14, %15 : index
      %17 = arith.constant 48 : index
      %18 = arith.select %10, %16, %17 : index
      %19 = arith.index_cast %18 : index to i32
      spatial.yield %19 : i32
    }
    spatial.store %map to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xi32> -> !spatial.tensor<1x1xi32, output>
    spatial.return %result : !spatial.tensor<1x1xi32, output>
  }
  %v2 = spatial.map "cache_write_3x1x64" grid [3] owns (d0) -> (d0 * 8, 0) size [8, 2]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 3], k_blocks = 1, site = [8, 2]> numerics exact
    ins(%0, %v, %at_1, %lane : tensor<768x64xf32>, tensor<1x192xf32>, tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<768x64xf32> {
  ^bb0(%i0: index, %t0_in: tensor<768x64xf32>, %t1_in: tensor<1x192xf32>, %t2_in: tensor<1x1xi32>, %t3_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "vc" external(%t0_in : tensor<768x64xf32>) : !spatial.tensor<768x64xf32, state>
    %t1 = spatial.tensor "v" external(%t1_in : tensor<1x192xf32>) : !spatial.tensor<1x192xf32, input>
    %t2 = spatial.tensor "at" external(%t2_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %t3 = spatial.tensor "lane" external(%t3_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %in0 = spatial.buffer "in0" : !spatial.buffer<2xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<2xf32, depth 1>
    %in2 = spatial.buffer "in2" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<2xf32, depth 1>
    %4 = spatial.load %t0[%i0 * 16 + %t2[0]] block 1x2 stride 2 repeat 1 into %in0 : !spatial.tensor<768x64xf32, state> -> !spatial.page<2xf32>
    %p_in1 = spatial.load %t1[%i0 * 2] block 1x2 stride 6 repeat 1 into %in1 : !spatial.tensor<1x192xf32, input> -> !spatial.page<2xf32>
    %p_in2 = spatial.load %t3[0] block 1x1 stride 1 repeat 1 multicast into %in2 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %write = spatial.stage "write" iters(par 32, par 64)
      ins(%4[d0 * 64 + d1], %p_in1[d1], %p_in2[0]) into %out[d0 * 64 + d1] : (!spatial.page<2xf32>, !spatial.page<2xf32>, !spatial.page<1xi32>) -> !spatial.page<2xf32> {
    ^bb0(%5: f32, %6: f32, %7: i32):
      %8 = spatial.index 0 : index
      %9 = arith.index_cast %7 : i32 to index
      %10 = arith.subi %8, %9 : index
      %11 = arith.constant 0 : index
      %12 = arith.cmpi sge, %10, %11 : index
      %13 = arith.constant 1 : index
      %14 = arith.cmpi slt, %10, %13 : index
      %15 = arith.andi %12, %14 : i1
      %16 = arith.select %15, %6, %5 : f32
      spatial.yield %16 : f32
    }
    spatial.store %write to %t0[%i0 * 16 + %t2[0]] block 1x2 stride 2 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<768x64xf32, state>
    spatial.return %t0 : !spatial.tensor<768x64xf32, state>
  }
  %v2_1 = tensor.expand_shape %v2 [[0 : i64, 1 : i64], [2 : i64]] output_shape [3, 256, 64] : tensor<768x64xf32> into tensor<3x256x64xf32>
  func.return %k2_1, %v2_1 : tensor<3x64x256xf32>, tensor<3x256x64xf32>
}

func.func @gather(%tokens: tensor<1xi32>, %w: tensor<576x1024xi8>, %s: tensor<18x1024xf16>) -> tensor<1x576xf32> {
  %0 = tensor.expand_shape %tokens [[0 : i64, 1 : i64]] output_shape [1, 1] : tensor<1xi32> into tensor<1x1xi32>
  %token_tiles = spatial.map "embd_index_tiles_1" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%0 : tensor<1x1xi32>) -> tensor<1x1xi32> {
  ^bb0(%i0: index, %t0_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "tokens" external(%t0_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %result = spatial.tensor "token_tiles" zero : !spatial.tensor<1x1xi32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xi32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x1 stride 1 repeat 1 into %in0 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %map = spatial.stage "map" iters(par 1)
      ins(%p_in0[0]) into %out[0] : (!spatial.page<1xi32>) -> !spatial.page<1xi32> {
    ^bb0(%1: i32):
      %2 = arith.index_cast %1 : i32 to index
      %3 = arith.constant 32 : index
      %4 = arith.divui %2, %3 : index
      %5 = arith.index_cast %4 : index to i32
      spatial.yield %5 : i32
    }
    spatial.store %map to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xi32> -> !spatial.tensor<1x1xi32, output>
    spatial.return %result : !spatial.tensor<1x1xi32, output>
  }
  %token_lanes = spatial.map "embd_index_lanes_1x32" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%0 : tensor<1x1xi32>) -> tensor<1x32xi32> {
  ^bb0(%i0: index, %t0_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "tokens" external(%t0_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %result = spatial.tensor "token_lanes" zero : !spatial.tensor<1x32xi32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xi32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x1 stride 1 repeat 1 into %in0 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %map = spatial.stage "map" iters(par 32)
      ins(%p_in0[0]) into %out[d0] : (!spatial.page<1xi32>) -> !spatial.page<1xi32> {
    ^bb0(%1: i32):
      %2 = arith.index_cast %1 : i32 to index
      %3 = arith.constant 32 : index
      %4 = arith.remui %2, %3 : index
      %5 = arith.index_cast %4 : index to i32
      spatial.yield %5 : i32
    }
    spatial.store %map to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xi32> -> !spatial.tensor<1x32xi32, output>
    spatial.return %result : !spatial.tensor<1x32xi32, output>
  }
  %y = spatial.map "embd_gather_1x576" grid [1] owns (d0) -> (0, 0) size [1, 18]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 18]> numerics exact
    ins(%w, %s, %token_tiles, %token_lanes : tensor<576x1024xi8>, tensor<18x1024xf16>, tensor<1x1xi32>, tensor<1x32xi32>) -> tensor<1x576xf32> {
  ^bb0(%i0: index, %t0_in: tensor<576x1024xi8>, %t1_in: tensor<18x1024xf16>, %tiles_in: tensor<1x1xi32>, %lanes_in: tensor<1x32xi32>):
    %t0 = spatial.tensor "w" external(%t0_in : tensor<576x1024xi8>) : !spatial.tensor<576x1024xi8, input>
    %t1 = spatial.tensor "s" external(%t1_in : tensor<18x1024xf16>) : !spatial.tensor<18x1024xf16, input>
    %tiles = spatial.tensor "token_tiles" external(%tiles_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %lanes = spatial.tensor "token_lanes" external(%lanes_in : tensor<1x32xi32>) : !spatial.tensor<1x32xi32, input>
    %result = spatial.tensor "y" zero : !spatial.tensor<1x576xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<18xi8, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<1xf16, depth 1>
    %lane = spatial.buffer "lane" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<18xf32, depth 1>
    %1 = spatial.load %t0[%tiles[0]] block 18x1 stride 32 repeat 1 into %in0 : !spatial.tensor<576x1024xi8, input> -> !spatial.page<18xi8>
    %2 = spatial.load %t1[%tiles[0]] block 1x1 stride 32 repeat 1 into %in1 : !spatial.tensor<18x1024xf16, input> -> !spatial.page<1xf16>
    %3 = spatial.load %lanes[0] block 1x1 stride 1 repeat 1 into %lane : !spatial.tensor<1x32xi32, input> -> !spatial.page<1xi32>
    %gather = spatial.stage "gather" iters(par 18, par 32)
      ins(%1[d1 * 576 + d0 * 32 + s0 | s0 = in2], %2[d0 * 32 + s0 | s0 = in2], %3[0]) into %out[d0 * 32 + d1] : (!spatial.page<18xi8>, !spatial.page<1xf16>, !spatial.page<1xi32>) -> !spatial.page<18xf32> {
    ^bb0(%4: i8, %5: f16, %6: i32):
      %qf = arith.sitofp %4 : i8 to f32
      %sf = arith.extf %5 : f16 to f32
      %v = arith.mulf %qf, %sf : f32
      spatial.yield %v : f32
    }
    spatial.store %gather to %result[0] block 1x18 stride 18 repeat 1 : !spatial.page<18xf32> -> !spatial.tensor<1x576xf32, output>
    spatial.return %result : !spatial.tensor<1x576xf32, output>
  }
  func.return %y : tensor<1x576xf32>
}

// CHECK-LABEL: func.func @norm(
// CHECK:         spatial.fold "norm_sum_1x576"
// CHECK:           spatial.stage "reduce" iters(sum 576)
// CHECK:         spatial.map "norm_map_1x576" grid [3] owns (d0) -> (0, d0 * 6) size [1, 6]
// CHECK:           spatial.load %{{.*}}[0] block 1x1 stride 1 repeat 1 multicast into %{{.*}} : !spatial.tensor<1x1xf32, input> -> !spatial.page<1xf32>
// CHECK:             math.rsqrt %{{.*}} : f32
// CHECK-LABEL: func.func @softmax(
// CHECK:           spatial.stage "reduce" iters(par 3, par 3, max 256)
// CHECK:             math.exp %{{.*}} : f32
// CHECK-LABEL: func.func @cache(
// CHECK:           spatial.tensor "kc" external(%{{.*}} : tensor<192x256xf32>) : !spatial.tensor<192x256xf32, state>
// CHECK:           %[[OLD:.*]] = spatial.load %[[C:.*]][%[[I:.*]] * 16 + %[[AT:.*]][0]] block 2x1 stride 8 repeat 1 into
// CHECK:           spatial.store %{{.*}} to %[[C]][%[[I]] * 16 + %[[AT]][0]] block 2x1 stride 8 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<192x256xf32, state>
// CHECK-LABEL: func.func @gather(
// CHECK:           %[[Q:.*]] = spatial.load %{{.*}}[%[[T:.*]][0]] block 18x1 stride 32 repeat 1 into
// CHECK:           spatial.stage "gather" iters(par 18, par 32)
// CHECK-NEXT:        ins(%[[Q]][d1 * 576 + d0 * 32 + s0 | s0 = in2], %{{.*}}[d0 * 32 + s0 | s0 = in2], %{{.*}}[0])
