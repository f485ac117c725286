// tensor-slices-as-copies: an insert_slice inserts a linalg.copy into the slice it
// replaces, an extract_slice is copied into a tensor of its own, a concat is its
// inputs inserted (and so copied) into a new tensor.
// RUN: xdsl-opt -p tensor-slices-as-copies %s | filecheck %s

func.func @slices(%d: tensor<2x8xf32>, %s: tensor<2x4xf32>) -> (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x4xf32>) {
  %r = tensor.insert_slice %s into %d[0, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
  %e = tensor.extract_slice %d[0, 2] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
  %c = tensor.concat dim(0) %s, %s : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  func.return %r, %e, %c : tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x4xf32>
}

// CHECK-LABEL: func.func @slices(
// CHECK-SAME:      %[[D:.*]]: tensor<2x8xf32>, %[[S:.*]]: tensor<2x4xf32>)
// CHECK-NEXT:    %[[W:.*]] = tensor.extract_slice %[[D]][0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
// CHECK-NEXT:    %[[C1:.*]] = linalg.copy ins(%[[S]] : tensor<2x4xf32>) outs(%[[W]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert_slice %[[C1]] into %[[D]][0, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.extract_slice %[[D]][0, 2] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
// CHECK-NEXT:    %[[NEW:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:    %[[E2:.*]] = linalg.copy ins(%[[E]] : tensor<2x4xf32>) outs(%[[NEW]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[CAT:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT:    %[[TOP:.*]] = tensor.extract_slice %[[CAT]][0, 0] [2, 4] [1, 1]
// CHECK-NEXT:    %[[T1:.*]] = linalg.copy ins(%[[S]] : tensor<2x4xf32>) outs(%[[TOP]] : tensor<2x4xf32>)
// CHECK-NEXT:    %[[CAT1:.*]] = tensor.insert_slice %[[T1]] into %[[CAT]][0, 0] [2, 4] [1, 1]
// CHECK-NEXT:    %[[BOT:.*]] = tensor.extract_slice %[[CAT1]][2, 0] [2, 4] [1, 1]
// CHECK-NEXT:    %[[T2:.*]] = linalg.copy ins(%[[S]] : tensor<2x4xf32>) outs(%[[BOT]] : tensor<2x4xf32>)
// CHECK-NEXT:    %[[CAT2:.*]] = tensor.insert_slice %[[T2]] into %[[CAT1]][2, 0] [2, 4] [1, 1]
// CHECK-NEXT:    func.return %[[R]], %[[E2]], %[[CAT2]]
// CHECK-NOT:   tensor.concat
