// RUN: xdsl-opt %s -p spatial-lower-ops | filecheck %s

// The causal softmax of one decode step's scores: the row maximum (a reduction by
// `max`, its values past the row's position masked), the exps (a map), their sum.

func.func @softmax(%scores: tensor<3x3x1x256xf32>, %pos: tensor<1xi32>) -> (tensor<3x3x1xf32>, tensor<3x3x1x256xf32>, tensor<3x3x1xf32>) {
  %lo = arith.constant -3.40282347e+38 : f32
  %c0 = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<3x3x1xf32>
  %lowest = linalg.fill ins(%lo : f32) outs(%e : tensor<3x3x1xf32>) -> tensor<3x3x1xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%scores, %pos : tensor<3x3x1x256xf32>, tensor<1xi32>) outs(%lowest : tensor<3x3x1xf32>) {
  ^bb0(%a: f32, %p: i32, %acc: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %pi = arith.index_cast %p : i32 to index
    %lim = arith.addi %pi, %i : index
    %ok = arith.cmpi ule, %j, %lim : index
    %l = arith.constant -3.40282347e+38 : f32
    %v = arith.select %ok, %a, %l : f32
    %mx = arith.maximumf %acc, %v : f32
    linalg.yield %mx : f32
  } -> tensor<3x3x1xf32>
  %e2 = tensor.empty() : tensor<3x3x1x256xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scores, %max, %pos : tensor<3x3x1x256xf32>, tensor<3x3x1xf32>, tensor<1xi32>) outs(%e2 : tensor<3x3x1x256xf32>) {
  ^bb0(%a: f32, %mx: f32, %p: i32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %pi = arith.index_cast %p : i32 to index
    %lim = arith.addi %pi, %i : index
    %ok = arith.cmpi ule, %j, %lim : index
    %d = arith.subf %a, %mx : f32
    %x = math.exp %d : f32
    %z = arith.constant 0.000000e+00 : f32
    %v = arith.select %ok, %x, %z : f32
    linalg.yield %v : f32
  } -> tensor<3x3x1x256xf32>
  %zero = linalg.fill ins(%c0 : f32) outs(%e : tensor<3x3x1xf32>) -> tensor<3x3x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%exp : tensor<3x3x1x256xf32>) outs(%zero : tensor<3x3x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %acc, %a : f32
    linalg.yield %t : f32
  } -> tensor<3x3x1xf32>
  func.return %max, %exp, %sum : tensor<3x3x1xf32>, tensor<3x3x1x256xf32>, tensor<3x3x1xf32>
}

// The max folds the 256 positions with a `max` axis; the fill's lowest value is the
// reduction's start, applied once by a `result` stage (a max is exact in any order).
// CHECK-LABEL: func.func @softmax(
// CHECK:         %max = spatial.fold "{{.*}}_max_3x3x1x256" grid [1] owns (d0) -> (0, 0) size [1, 1]
// CHECK:           plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
// CHECK:           spatial.stage "reduce" iters(par 3, par 3, max 256)
// CHECK:             %[[POS:.*]] = spatial.index 2 : index
// CHECK:             arith.cmpi ule, %[[POS]], %{{.*}} : index
// CHECK:           spatial.stage "result" iters(par 32, par 32)
// CHECK-NEXT:        ins(%{{.*}}[d0 * 32 + d1]) into %{{.*}}[d0 * 32 + d1]
// CHECK-NEXT:      ^bb0(%[[M:.*]]: f32):
// CHECK-NEXT:        %[[LO:.*]] = arith.constant -3.40282347e+38 : f32
// CHECK-NEXT:        %{{.*}} = arith.maximumf %[[LO]], %[[M]] : f32
// The exps read the max of their row (9 rows: 3 h + g) at every position.
// CHECK:         %exp = spatial.map "{{.*}}_map_3x3x1x256" grid [1]
// CHECK:           spatial.stage "map" iters(par 3, par 3, par 256)
// CHECK:             math.exp
// CHECK:         %sum = spatial.fold "{{.*}}_sum_3x3x1x256" grid [1]
// CHECK:           spatial.stage "reduce" iters(par 3, par 3, sum 256)
// CHECK-NOT:     linalg.generic
