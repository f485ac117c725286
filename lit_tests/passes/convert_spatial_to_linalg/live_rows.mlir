// RUN: spatial-opt -p convert-spatial-to-linalg %s | filecheck %s

// An input shorter than its tile row (one row of 32: a decode step's activation) is
// read as it is given: its loads copy that row, and no zero-padded copy of it is made.
// When a stage reads past them (here a sum over the page's 32 rows), each load also
// fills the rest of its page with zeros, as the padded copy would have held, unless
// those fills would write more than one padded copy (here four items loading the same
// tile): then the input is read from a zero-padded copy. An input of more tile rows
// is read as it is given too when each load reads whole tile rows, its last alone, or
// every tile row at once. tests/test_native.py runs each function here.

func.func @live_row(%a: tensor<1x64xf32>) -> tensor<64xf32> {
  %s = spatial.fold "the_row" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics approx "fp32 sums in an order of their own"
    ins(%a : tensor<1x64xf32>) -> tensor<1x64xf32> {
  ^bb0(%i0: index, %t0_in: tensor<1x64xf32>):
    %t0 = spatial.tensor "a" external(%t0_in : tensor<1x64xf32>) : !spatial.tensor<1x64xf32, input>
    %result = spatial.tensor "s" zero : !spatial.tensor<1x64xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<1xf32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %p_in0 = spatial.load %t0[%i0] block 1x1 stride 2 repeat 1 into %in0 : !spatial.tensor<1x64xf32, input> -> !spatial.page<1xf32>
    %copied = spatial.stage "copy" iters(par 32)
      ins(%p_in0[d0]) into %out[d0] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%0: f32):
      spatial.yield %0 : f32
    }
    spatial.store %copied to %result[%i0] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x64xf32, output>
    spatial.return %result : !spatial.tensor<1x64xf32, output>
  }
  %s_1 = tensor.collapse_shape %s [[0 : i64, 1 : i64]] : tensor<1x64xf32> into tensor<64xf32>
  func.return %s_1 : tensor<64xf32>
}


// The output is held as its one row, so its store copies the page's first row alone,
// which the stage writes: the page is not filled with zeros first.
// CHECK-LABEL: func.func @live_row(
// CHECK-NEXT:    %[[A:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<1x64xf32> to memref<1x64xf32>
// CHECK-NOT:     memref.alloc() : memref<32x64xf32>
// CHECK:         %[[FROM:.*]] = memref.reinterpret_cast %[[A]] to offset: [%{{.*}}], sizes: [1, 1, 32], strides: [2048, 64, 1]
// CHECK:         linalg.copy ins(%[[FROM]] : memref<1x1x32xf32, strided<[2048, 64, 1], offset: ?>>) outs(%{{.*}} : memref<1x1x32xf32, strided<[32, 32, 1], offset: ?>>)
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.copy ins(%{{.*}} : memref<1x1x32xf32, strided<[32, 32, 1], offset: ?>>) outs(%{{.*}} : memref<1x1x32xf32, strided<[2048, 64, 1], offset: ?>>)
// CHECK:         func.return

func.func @past_the_row(%a: tensor<1x64xf32>) -> tensor<64xf32> {
  %s = spatial.fold "sum_rows" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics approx "fp32 sums in an order of their own"
    ins(%a : tensor<1x64xf32>) -> tensor<1x64xf32> {
  ^bb0(%i0: index, %t0_in: tensor<1x64xf32>):
    %t0 = spatial.tensor "a" external(%t0_in : tensor<1x64xf32>) : !spatial.tensor<1x64xf32, input>
    %result = spatial.tensor "s" zero : !spatial.tensor<1x64xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<1xf32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %p_in0 = spatial.load %t0[%i0] block 1x1 stride 2 repeat 1 into %in0 : !spatial.tensor<1x64xf32, input> -> !spatial.page<1xf32>
    %summed = spatial.stage "sum" iters(sum 32, par 32)
      ins(%p_in0[d0 * 32 + d1]) into %out[d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%0: f32):
      spatial.yield %0 : f32
    }
    spatial.store %summed to %result[%i0] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x64xf32, output>
    spatial.return %result : !spatial.tensor<1x64xf32, output>
  }
  %s_1 = tensor.collapse_shape %s [[0 : i64, 1 : i64]] : tensor<1x64xf32> into tensor<64xf32>
  func.return %s_1 : tensor<64xf32>
}


// CHECK-LABEL: func.func @past_the_row(
// CHECK-NEXT:    %[[A:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<1x64xf32> to memref<1x64xf32>
// CHECK-NOT:     memref.alloc() : memref<32x64xf32>
// CHECK:         scf.for
// CHECK:         %[[PAST:.*]] = memref.reinterpret_cast %in0 to offset: [%{{.*}}], sizes: [992], strides: [1]
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    linalg.fill ins(%[[Z]] : f32) outs(%[[PAST]] : memref<992xf32, strided<[1], offset: ?>>)
// CHECK:         %[[FROM:.*]] = memref.reinterpret_cast %[[A]] to offset: [%{{.*}}], sizes: [1, 1, 32], strides: [2048, 64, 1]
// CHECK:         linalg.copy ins(%[[FROM]] : memref<1x1x32xf32, strided<[2048, 64, 1], offset: ?>>) outs(%{{.*}} : memref<1x1x32xf32, strided<[32, 32, 1], offset: ?>>)
// The sum's 32 outputs start as zeros, and no more of its page: its store reads no more.
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<32xf32, strided<[1], offset: ?>>)
// CHECK-NOT:     linalg.fill
// CHECK:         func.return

func.func @past_the_row_many_times(%a: tensor<1x64xf32>) -> tensor<128xf32> {
  %s = spatial.fold "sum_rows_twice" grid [2, 2] owns (d0, d1) -> (0, d0 * 2 + d1) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 4], k_blocks = 1, site = [1, 1]> numerics approx "fp32 sums in an order of their own"
    ins(%a : tensor<1x64xf32>) -> tensor<1x128xf32> {
  ^bb0(%i0: index, %i1: index, %t0_in: tensor<1x64xf32>):
    %t0 = spatial.tensor "a" external(%t0_in : tensor<1x64xf32>) : !spatial.tensor<1x64xf32, input>
    %result = spatial.tensor "s" zero : !spatial.tensor<1x128xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<1xf32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %p_in0 = spatial.load %t0[%i1] block 1x1 stride 2 repeat 1 into %in0 : !spatial.tensor<1x64xf32, input> -> !spatial.page<1xf32>
    %summed = spatial.stage "sum" iters(sum 32, par 32)
      ins(%p_in0[d0 * 32 + d1]) into %out[d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%0: f32):
      spatial.yield %0 : f32
    }
    spatial.store %summed to %result[%i0 * 2 + %i1] block 1x1 stride 4 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x128xf32, output>
    spatial.return %result : !spatial.tensor<1x128xf32, output>
  }
  %s_1 = tensor.collapse_shape %s [[0 : i64, 1 : i64]] : tensor<1x128xf32> into tensor<128xf32>
  func.return %s_1 : tensor<128xf32>
}

// Four loads of a page each would fill 3,968 elements; the padded copy is 2,048.
// CHECK-LABEL: func.func @past_the_row_many_times(
// CHECK-NEXT:    %[[A:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<1x64xf32> to memref<1x64xf32>
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() : memref<32x64xf32>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    linalg.fill ins(%[[Z]] : f32) outs(%[[P]] : memref<32x64xf32>)
// CHECK:         linalg.copy ins(%[[A]] : memref<1x64xf32>) outs(%{{.*}} : memref<1x64xf32, strided<[64, 1], offset: ?>>)
// CHECK:         %[[FROM:.*]] = memref.reinterpret_cast %[[P]] to offset: [%{{.*}}], sizes: [1, 32, 32], strides: [2048, 64, 1]
// CHECK:         linalg.copy ins(%[[FROM]] : memref<1x32x32xf32, strided<[2048, 64, 1], offset: ?>>) outs(%{{.*}} : memref<1x32x32xf32, strided<[32, 32, 1], offset: ?>>)
// CHECK-NOT:     memref<992xf32
// CHECK:         func.return

// An input of 48 rows, a whole tile row and half of the next (a down product's
// scales): read as it is given, each load of the last tile row copying its 16 rows.
func.func @two_tile_rows(%a: tensor<48x32xf32>) -> tensor<16x32xf32> {
  %s = spatial.map "halves" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%a : tensor<48x32xf32>) -> tensor<16x32xf32> {
  ^bb0(%i0: index, %t0_in: tensor<48x32xf32>):
    %t0 = spatial.tensor "a" external(%t0_in : tensor<48x32xf32>) : !spatial.tensor<48x32xf32, input>
    %result = spatial.tensor "s" zero : !spatial.tensor<16x32xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<1xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<1xf32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %first = spatial.load %t0[0] block 1x1 stride 1 repeat 1 into %in0 : !spatial.tensor<48x32xf32, input> -> !spatial.page<1xf32>
    %last = spatial.load %t0[1] block 1x1 stride 1 repeat 1 into %in1 : !spatial.tensor<48x32xf32, input> -> !spatial.page<1xf32>
    %added = spatial.stage "add" iters(par 16, par 32)
      ins(%first[d0 * 32 + d1], %last[d0 * 32 + d1]) into %out[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%0: f32, %1: f32):
      %2 = arith.addf %0, %1 : f32
      spatial.yield %2 : f32
    }
    spatial.store %added to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<16x32xf32, output>
    spatial.return %result : !spatial.tensor<16x32xf32, output>
  }
  func.return %s : tensor<16x32xf32>
}

// CHECK-LABEL: func.func @two_tile_rows(
// CHECK-NEXT:    %[[A:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<48x32xf32> to memref<48x32xf32>
// CHECK-NOT:     memref<64x32xf32>
// CHECK:         %[[FIRST:.*]] = memref.reinterpret_cast %[[A]] to offset: [%{{.*}}], sizes: [1, 32, 32], strides: [1024, 32, 1]
// CHECK-NEXT:    %[[P0:.*]] = memref.reinterpret_cast %in0
// CHECK-NEXT:    linalg.copy ins(%[[FIRST]] : memref<1x32x32xf32, strided<[1024, 32, 1], offset: ?>>)
// CHECK:         %[[LAST:.*]] = memref.reinterpret_cast %[[A]] to offset: [%{{.*}}], sizes: [1, 16, 32], strides: [1024, 32, 1]
// CHECK-NEXT:    %[[P1:.*]] = memref.reinterpret_cast %in1
// CHECK-NEXT:    linalg.copy ins(%[[LAST]] : memref<1x16x32xf32, strided<[1024, 32, 1], offset: ?>>)
// CHECK-NOT:     linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<{{[0-9]+}}xf32
// CHECK:         func.return

// An input of 72 rows (a step of eight sequences' attention scores, two tile rows
// and a quarter of the third), one load reading every tile row at once: read as it
// is given, the load copies the first two tile rows whole and the third's 8 rows,
// then fills the page's rows past those in that tile row with zeros, as the padded
// copy would have held (the sum reads all 32 rows of each tile).
func.func @every_tile_row(%a: tensor<72x64xf32>) -> tensor<1x192xf32> {
  %s = spatial.fold "column_sums" grid [1] owns (d0) -> (0, 0) size [1, 6]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 6]> numerics approx "fp32 sums in an order of their own"
    ins(%a : tensor<72x64xf32>) -> tensor<1x192xf32> {
  ^bb0(%i0: index, %t0_in: tensor<72x64xf32>):
    %t0 = spatial.tensor "a" external(%t0_in : tensor<72x64xf32>) : !spatial.tensor<72x64xf32, input>
    %result = spatial.tensor "s" zero : !spatial.tensor<1x192xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<6xf32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<6xf32, depth 1>
    %p_in0 = spatial.load %t0[0] block 3x2 stride 2 repeat 1 into %in0 : !spatial.tensor<72x64xf32, input> -> !spatial.page<6xf32>
    %summed = spatial.stage "sum" iters(sum 32, par 192)
      ins(%p_in0[d0 * 192 + d1]) into %out[d1] : (!spatial.page<6xf32>) -> !spatial.page<6xf32> {
    ^bb0(%0: f32):
      spatial.yield %0 : f32
    }
    spatial.store %summed to %result[0] block 1x6 stride 6 repeat 1 : !spatial.page<6xf32> -> !spatial.tensor<1x192xf32, output>
    spatial.return %result : !spatial.tensor<1x192xf32, output>
  }
  func.return %s : tensor<1x192xf32>
}

// CHECK-LABEL: func.func @every_tile_row(
// CHECK-NEXT:    %[[A:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<72x64xf32> to memref<72x64xf32>
// CHECK-NOT:     memref<96x64xf32>
// CHECK:         %[[WHOLE:.*]] = memref.reinterpret_cast %[[A]] to offset: [%{{.*}}], sizes: [32, 2, 64], strides: [64, 2048, 1]
// CHECK-NEXT:    %[[P0:.*]] = memref.reinterpret_cast %in0 to offset: [%{{.*}}], sizes: [32, 2, 64], strides: [192, 64, 1]
// CHECK-NEXT:    linalg.copy ins(%[[WHOLE]] : {{.*}}) outs(%[[P0]] : {{.*}})
// CHECK-NEXT:    %[[LAST:.*]] = memref.reinterpret_cast %[[A]] to offset: [%{{.*}}], sizes: [8, 1, 64], strides: [64, 2048, 1]
// CHECK-NEXT:    %[[AT:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[P1:.*]] = memref.reinterpret_cast %in0 to offset: [%[[AT]]], sizes: [8, 1, 64], strides: [192, 64, 1]
// CHECK-NEXT:    linalg.copy ins(%[[LAST]] : {{.*}}) outs(%[[P1]] : {{.*}})
// CHECK-NEXT:    %[[FROM:.*]] = arith.constant 1664 : index
// CHECK-NEXT:    %[[PAST:.*]] = memref.reinterpret_cast %in0 to offset: [%[[FROM]]], sizes: [24, 64], strides: [192, 1]
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    linalg.fill ins(%[[Z]] : f32) outs(%[[PAST]] : {{.*}})
// CHECK:         func.return


// An input read through a constant table (a q8 view's activation of m rows, read
// through its lanes at m > 1) is read as it is given when every element the table's
// entries reach lies in its live rows (`tables.stage_reach`): its load copies those
// rows and fills none past them. The table's page, read at its own map within its one
// row, is not filled either. tests/test_native.py runs both functions here.

func.func @through_lanes(%a: tensor<2x64xf32>) -> tensor<1x32xf32> {
  %s = spatial.fold "lanes_in_the_rows" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%a : tensor<2x64xf32>) -> tensor<1x32xf32> {
  ^bb0(%i0: index, %t0_in: tensor<2x64xf32>):
    %t0 = spatial.tensor "a" external(%t0_in : tensor<2x64xf32>) : !spatial.tensor<2x64xf32, input>
    %lanes = spatial.tensor "lanes" values dense<[[0, 65, 2, 67, 4, 69, 6, 71, 8, 73, 10, 75, 12, 77, 14, 79, 16, 81, 18, 83, 20, 85, 22, 87, 24, 89, 26, 91, 28, 93, 30, 95]]> : tensor<1x32xi32> : !spatial.tensor<1x32xi32, param>
    %result = spatial.tensor "s" zero : !spatial.tensor<1x32xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<2xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x2 stride 2 repeat 1 into %in0 : !spatial.tensor<2x64xf32, input> -> !spatial.page<2xf32>
    %p_in1 = spatial.load %lanes[0] block 1x1 stride 1 repeat 1 into %in1 : !spatial.tensor<1x32xi32, param> -> !spatial.page<1xi32>
    %picked = spatial.stage "pick" iters(par 32)
      ins(%p_in0[s0 | s0 = in1], %p_in1[d0]) into %out[d0] : (!spatial.page<2xf32>, !spatial.page<1xi32>) -> !spatial.page<1xf32> {
    ^bb0(%0: f32, %1: i32):
      spatial.yield %0 : f32
    }
    spatial.store %picked to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x32xf32, output>
    spatial.return %result : !spatial.tensor<1x32xf32, output>
  }
  func.return %s : tensor<1x32xf32>
}

// CHECK-LABEL: func.func @through_lanes(
// CHECK-NOT:     memref.alloc() : memref<32x64xf32>
// CHECK:         linalg.copy ins(%{{.*}} : memref<1x2x64xf32, strided<[2048, 64, 1], offset: ?>>) outs(%{{.*}} : memref<1x2x64xf32, strided<[64, 64, 1], offset: ?>>)
// CHECK-NOT:     linalg.fill
// CHECK:         func.return

// One entry reaching row 2, past the two live rows (inside the page: the address
// check passes): the load fills its page's rows past its own with zeros, which that
// entry's read finds there, as a padded copy would hold.

func.func @through_lanes_past_the_rows(%a: tensor<2x64xf32>) -> tensor<1x32xf32> {
  %s = spatial.fold "lanes_past_the_rows" grid [1] owns (d0) -> (0, 0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%a : tensor<2x64xf32>) -> tensor<1x32xf32> {
  ^bb0(%i0: index, %t0_in: tensor<2x64xf32>):
    %t0 = spatial.tensor "a" external(%t0_in : tensor<2x64xf32>) : !spatial.tensor<2x64xf32, input>
    %lanes = spatial.tensor "lanes" values dense<[[0, 65, 2, 67, 4, 133, 6, 71, 8, 73, 10, 75, 12, 77, 14, 79, 16, 81, 18, 83, 20, 85, 22, 87, 24, 89, 26, 91, 28, 93, 30, 95]]> : tensor<1x32xi32> : !spatial.tensor<1x32xi32, param>
    %result = spatial.tensor "s" zero : !spatial.tensor<1x32xf32, output>
    %in0 = spatial.buffer "in0" : !spatial.buffer<2xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
    %p_in0 = spatial.load %t0[0] block 1x2 stride 2 repeat 1 into %in0 : !spatial.tensor<2x64xf32, input> -> !spatial.page<2xf32>
    %p_in1 = spatial.load %lanes[0] block 1x1 stride 1 repeat 1 into %in1 : !spatial.tensor<1x32xi32, param> -> !spatial.page<1xi32>
    %picked = spatial.stage "pick" iters(par 32)
      ins(%p_in0[s0 | s0 = in1], %p_in1[d0]) into %out[d0] : (!spatial.page<2xf32>, !spatial.page<1xi32>) -> !spatial.page<1xf32> {
    ^bb0(%0: f32, %1: i32):
      spatial.yield %0 : f32
    }
    spatial.store %picked to %result[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x32xf32, output>
    spatial.return %result : !spatial.tensor<1x32xf32, output>
  }
  func.return %s : tensor<1x32xf32>
}

// CHECK-LABEL: func.func @through_lanes_past_the_rows(
// CHECK-NOT:     memref.alloc() : memref<32x64xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<1920xf32, strided<[1], offset: ?>>)
// CHECK:         linalg.copy ins(%{{.*}} : memref<1x2x64xf32, strided<[2048, 64, 1], offset: ?>>) outs(%{{.*}} : memref<1x2x64xf32, strided<[64, 64, 1], offset: ?>>)
// CHECK-NOT:     linalg.fill
// CHECK:         func.return
