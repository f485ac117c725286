// convert-tm-tensor-to-linalg: an additive tm_tensor.scan as a seed (zeros; an
// exclusive scan's accumulator along the axis), a sum over a second loop along the axis
// of the inputs at j <= i (j < i exclusive), and the last output as the accumulator.
// A scan that does not add is left as it is.
// RUN: xdsl-opt -p convert-tm-tensor-to-linalg %s | filecheck %s

func.func @inclusive(%x: tensor<1x6xi64>, %o: tensor<1x6xi64>, %a: tensor<1xi64>) -> (tensor<1x6xi64>, tensor<1xi64>) {
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<1x6xi64>) outs(%o, %a : tensor<1x6xi64>, tensor<1xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    tm_tensor.yield %s : i64
  } -> tensor<1x6xi64>, tensor<1xi64>
  func.return %r#0, %r#1 : tensor<1x6xi64>, tensor<1xi64>
}

// CHECK-LABEL: func.func @inclusive(
// CHECK-SAME:      %[[X:.*]]: tensor<1x6xi64>, %{{.*}}: tensor<1x6xi64>, %{{.*}}: tensor<1xi64>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x6xi64>
// CHECK-NEXT:    %[[SEED:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<1x6xi64>)
// CHECK:           %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      linalg.yield %[[Z]] : i64
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<1x6xi64>) outs(%[[SEED]] : tensor<1x6xi64>)
// CHECK-NEXT:    ^{{.*}}(%[[V:.*]]: i64, %[[OUT:.*]]: i64):
// CHECK-NEXT:      %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[J:.*]] = linalg.index 2 : index
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi ule, %[[J]], %[[I]] : index
// CHECK-NEXT:      %[[Z2:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[T:.*]] = arith.select %[[IN]], %[[V]], %[[Z2]] : i64
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[OUT]], %[[T]] : i64
// CHECK-NEXT:      linalg.yield %[[S]] : i64
// CHECK:         %[[E1:.*]] = tensor.empty() : tensor<1xi64>
// CHECK-NEXT:    %[[ACC:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 5)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[SUM]] : tensor<1x6xi64>) outs(%[[E1]] : tensor<1xi64>)
// CHECK:         func.return %[[SUM]], %[[ACC]] : tensor<1x6xi64>, tensor<1xi64>
// CHECK-NOT:   tm_tensor

func.func @exclusive(%x: tensor<4xf32>, %o: tensor<4xf32>, %a: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  %r:2 = tm_tensor.scan dimension(0) inclusive(false) ins(%x : tensor<4xf32>) outs(%o, %a : tensor<4xf32>, tensor<f32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %q, %p : f32
    tm_tensor.yield %s : f32
  } -> tensor<4xf32>, tensor<f32>
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @exclusive(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %{{.*}}: tensor<4xf32>, %[[A:.*]]: tensor<f32>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[SEED:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[A]] : tensor<f32>) outs(%[[E]] : tensor<4xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4xf32>) outs(%[[SEED]] : tensor<4xf32>)
// CHECK:           arith.cmpi ult
// CHECK:           arith.addf
// CHECK:         linalg.generic {indexing_maps = [affine_map<() -> (3)>, affine_map<() -> ()>], iterator_types = []}
// CHECK-NOT:   tm_tensor

func.func @product(%x: tensor<4xi64>, %o: tensor<4xi64>, %a: tensor<i64>) -> tensor<4xi64> {
  %r:2 = tm_tensor.scan dimension(0) inclusive(true) ins(%x : tensor<4xi64>) outs(%o, %a : tensor<4xi64>, tensor<i64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.muli %p, %q : i64
    tm_tensor.yield %s : i64
  } -> tensor<4xi64>, tensor<i64>
  func.return %r#0 : tensor<4xi64>
}

// CHECK-LABEL: func.func @product(
// CHECK:         tm_tensor.scan dimension(0) inclusive(true)
// CHECK:         arith.muli
