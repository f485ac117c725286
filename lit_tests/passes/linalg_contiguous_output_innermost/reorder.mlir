// linalg-contiguous-output-innermost: a generic whose innermost loop is a reduction
// (attention's p . v over the cache's positions) runs the axis along which its output is
// contiguous innermost, the reduction just outside it, its maps and linalg.index dims
// renumbered; each output's terms are added in the same order. A generic whose
// innermost loop is parallel is left as it is.
// RUN: xdsl-opt -p linalg-contiguous-output-innermost %s | filecheck %s

func.func @pv(%p: tensor<8x16xf32>, %acc: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%p : tensor<8x16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 1 : index
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  func.return %r : tensor<16xf32>
}

// CHECK-LABEL: func.func @pv(
// CHECK-SAME:      %[[P:.*]]: tensor<8x16xf32>, %[[ACC:.*]]: tensor<16xf32>)
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%[[P]] : tensor<8x16xf32>) outs(%[[ACC]] : tensor<16xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[A:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT:      %{{.*}} = linalg.index 0 : index
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[O]], %[[A]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<16xf32>

func.func @already(%p: tensor<8x16xf32>, %acc: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%p : tensor<8x16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  func.return %r : tensor<16xf32>
}

// CHECK-LABEL: func.func @already(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
