// RUN: xdsl-opt %s -p spatial-lower-ops | filecheck %s

// One layer's RMSNorm of a decode step (SmolLM2's: 576 wide, one row), as the llama
// frontend writes it: the sum of squares, a reduction into a zero fill, then the
// scaling, a map of the row, its sum of squares and the weight, rounded to bf16.

func.func @norm(%x: tensor<1x576xf32>, %w: tensor<576xf32>) -> tensor<1x576xbf16> {
  %c0 = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x576xf32>) outs(%z : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %e2 = tensor.empty() : tensor<1x576xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %ss, %w : tensor<1x576xf32>, tensor<1xf32>, tensor<576xf32>) outs(%e2 : tensor<1x576xbf16>) {
  ^bb0(%a: f32, %s: f32, %wv: f32, %o: bf16):
    %n = arith.constant 5.760000e+02 : f32
    %eps = arith.constant 1.000000e-05 : f32
    %mean = arith.divf %s, %n : f32
    %v = arith.addf %mean, %eps : f32
    %r = math.rsqrt %v : f32
    %xr = arith.mulf %a, %r : f32
    %xw = arith.mulf %xr, %wv : f32
    %b = arith.truncf %xw : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<1x576xbf16>
  func.return %y : tensor<1x576xbf16>
}

// The weight, a vector, is bound as one row (a reshape that only renames its layout,
// made once where the argument is). The sum of squares is a fold of one item: the
// row's 18 tiles in one page, summed along its 576 columns in fp32 (no K loop: the
// row is less than a K block of 1024), its one value stored in a 1x1 result.
// CHECK-LABEL: func.func @norm(
// CHECK-NEXT:    %[[W:.*]] = tensor.expand_shape %w {{\[\[}}0 : i64, 1 : i64]] output_shape [1, 576] : tensor<576xf32> into tensor<1x576xf32>
// CHECK-NEXT:    %[[SS:.*]] = spatial.fold "norm_sum_1x576" grid [1] owns (d0) -> (0, 0) size [1, 1]
// CHECK-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics approx "fp32 sums in an order of their own"
// CHECK-NEXT:      ins(%x : tensor<1x576xf32>) -> tensor<1x1xf32> {
// CHECK-NEXT:    ^bb0(%{{.*}}: index, %[[X_IN:.*]]: tensor<1x576xf32>):
// CHECK-NEXT:      %[[X:.*]] = spatial.tensor "x" external(%[[X_IN]] : tensor<1x576xf32>) : !spatial.tensor<1x576xf32, input>
// CHECK-NEXT:      %[[R:.*]] = spatial.tensor "ss" zero : !spatial.tensor<1x1xf32, output>
// CHECK-NEXT:      %[[IN:.*]] = spatial.buffer "in0" : !spatial.buffer<18xf32, depth 1>
// CHECK-NEXT:      %[[OUT:.*]] = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
// CHECK-NEXT:      %[[P:.*]] = spatial.load %[[X]][0] block 1x18 stride 18 repeat 1 into %[[IN]] : !spatial.tensor<1x576xf32, input> -> !spatial.page<18xf32>
// CHECK-NEXT:      %[[S:.*]] = spatial.stage "reduce" iters(sum 576)
// CHECK-NEXT:        ins(%[[P]][d0]) into %[[OUT]][0] : (!spatial.page<18xf32>) -> !spatial.page<1xf32> {
// CHECK-NEXT:      ^bb0(%[[A:.*]]: f32):
// CHECK-NEXT:        %[[SQ:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK-NEXT:        spatial.yield %[[SQ]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      spatial.store %[[S]] to %[[R]][0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<1x1xf32, output>
// CHECK-NEXT:      spatial.return %[[R]] : !spatial.tensor<1x1xf32, output>
// CHECK-NEXT:    }

// The scaling: three items of six column tiles each (acc_tiles = 8 is the widest
// group, the widest divisor of 18 tiles at most 8), each loading its tiles of the row
// and of the weight; the sum of squares is one tile every item reads: a multicast.
// CHECK-NEXT:    %[[Y:.*]] = spatial.map "norm_map_1x576" grid [3] owns (d0) -> (0, d0 * 6) size [1, 6]
// CHECK-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 3], k_blocks = 1, site = [1, 6]> numerics approx "math.rsqrt as the site computes it"
// CHECK-NEXT:      ins(%x, %[[SS]], %[[W]] : tensor<1x576xf32>, tensor<1x1xf32>, tensor<1x576xf32>) -> tensor<1x576xbf16> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %{{.*}}: tensor<1x576xf32>, %{{.*}}: tensor<1x1xf32>, %{{.*}}: tensor<1x576xf32>):
// CHECK-NEXT:      %[[X2:.*]] = spatial.tensor "x" external
// CHECK-NEXT:      %[[SS2:.*]] = spatial.tensor "ss" external
// CHECK-NEXT:      %[[W2:.*]] = spatial.tensor "w" external
// CHECK-NEXT:      %[[Y2:.*]] = spatial.tensor "y" zero : !spatial.tensor<1x576xbf16, output>
// CHECK-NEXT:      %[[B0:.*]] = spatial.buffer "in0" : !spatial.buffer<6xf32, depth 1>
// CHECK-NEXT:      %[[B1:.*]] = spatial.buffer "in1" : !spatial.buffer<1xf32, depth 1>
// CHECK-NEXT:      %[[B2:.*]] = spatial.buffer "in2" : !spatial.buffer<6xf32, depth 1>
// CHECK-NEXT:      %[[BO:.*]] = spatial.buffer "out" : !spatial.buffer<6xbf16, depth 1>
// CHECK-NEXT:      %[[PX:.*]] = spatial.load %[[X2]][%[[I]] * 6] block 1x6 stride 18 repeat 1 into %[[B0]]
// CHECK-NEXT:      %[[PS:.*]] = spatial.load %[[SS2]][0] block 1x1 stride 1 repeat 1 multicast into %[[B1]]
// CHECK-NEXT:      %[[PW:.*]] = spatial.load %[[W2]][%[[I]] * 6] block 1x6 stride 18 repeat 1 into %[[B2]]
// CHECK-NEXT:      %[[M:.*]] = spatial.stage "map" iters(par 192)
// CHECK-NEXT:        ins(%[[PX]][d0], %[[PS]][0], %[[PW]][d0]) into %[[BO]][d0] : (!spatial.page<6xf32>, !spatial.page<1xf32>, !spatial.page<6xf32>) -> !spatial.page<6xbf16> {
// CHECK:             math.rsqrt
// CHECK:             arith.truncf {{.*}} : f32 to bf16
// CHECK:           spatial.store %[[M]] to %[[Y2]][%[[I]] * 6] block 1x6 stride 18 repeat 1 : !spatial.page<6xbf16> -> !spatial.tensor<1x576xbf16, output>
// CHECK-NEXT:      spatial.return %[[Y2]] : !spatial.tensor<1x576xbf16, output>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[Y]] : tensor<1x576xbf16>
// CHECK-NOT:   linalg
