// linalg-contraction-in-registers: attention's scores at 2 sequences as the host runs
// them, (KV head, row, key, query head, position) with the key's dims summed: the row
// operand's other axes (row, KV head) are loops in its order, the 2 query heads x 32
// positions are four vector sums carried by the loop over the sum (from the output's
// initial values), each step asking for the same row of the next block (clamped to the
// last row) and reading the cached row once for both query heads; the multiply and the
// add are the body's, in its operand order.
// RUN: xdsl-opt -p linalg-contraction-in-registers %s | filecheck %s

func.func @scores(%q: tensor<1x2x2x4xf32>, %k: tensor<2x1x4x32xf32>, %acc: tensor<1x2x2x32xf32>) -> tensor<1x2x2x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel"]} ins(%q, %k : tensor<1x2x2x4xf32>, tensor<2x1x4x32xf32>) outs(%acc : tensor<1x2x2x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x2x32xf32>
  func.return %r : tensor<1x2x2x32xf32>
}

// CHECK-LABEL: func.func @scores(
// CHECK:         %[[Q:[0-9]+]] = bufferization.to_buffer %q read_only : tensor<1x2x2x4xf32> to memref<1x2x2x4xf32>
// CHECK-NEXT:    %[[K:[0-9]+]] = bufferization.to_buffer %k read_only : tensor<2x1x4x32xf32> to memref<2x1x4x32xf32>
// CHECK-NEXT:    %[[INIT:[0-9]+]] = bufferization.to_buffer %acc read_only
// CHECK-NEXT:    %[[OUT:[0-9]+]] = memref.alloc() : memref<1x2x2x32xf32>
// CHECK:         scf.for %[[S:[0-9]+]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[H:[0-9]+]] = %{{.*}} to %{{.*}} step
// CHECK-COUNT-4:     vector.load %[[INIT]][%[[H]], %{{.*}}, %[[S]], %{{.*}}] : memref<1x2x2x32xf32>, vector<16xf32>
// CHECK:             %[[FLAT:[0-9]+]] = memref.reinterpret_cast %[[K]] to offset: [%{{.*}}], sizes: [256], strides: [1]
// CHECK:             %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = scf.for %[[R:[0-9]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A0:[0-9]+]] = %{{.*}}, %[[A1:[0-9]+]] = %{{.*}}, %[[A2:[0-9]+]] = %{{.*}}, %[[A3:[0-9]+]] = %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK:               %[[LAST:[0-9]+]] = arith.constant 224 : index
// CHECK-NEXT:          %[[ROW:[0-9]+]] = arith.minui %{{.*}}, %[[LAST]] : index
// CHECK-NEXT:          memref.prefetch %[[FLAT]][%[[ROW]]], read, locality<2>, data
// CHECK:               memref.prefetch %[[FLAT]]
// CHECK:               %[[B0:[0-9]+]] = vector.load %[[K]][%[[S]], %[[H]], %[[R]], %{{.*}}] : memref<2x1x4x32xf32>, vector<16xf32>
// CHECK:               %[[B1:[0-9]+]] = vector.load %[[K]][%[[S]], %[[H]], %[[R]], %{{.*}}] : memref<2x1x4x32xf32>, vector<16xf32>
// CHECK:               %[[X0:[0-9]+]] = memref.load %[[Q]][%[[H]], %{{.*}}, %[[S]], %[[R]]] : memref<1x2x2x4xf32>
// CHECK-NEXT:          %[[V0:[0-9]+]] = vector.broadcast %[[X0]] : f32 to vector<16xf32>
// CHECK-NEXT:          %[[M0:[0-9]+]] = arith.mulf %[[V0]], %[[B0]] : vector<16xf32>
// CHECK-NEXT:          %[[S0:[0-9]+]] = arith.addf %[[A0]], %[[M0]] : vector<16xf32>
// CHECK-NEXT:          %[[M1:[0-9]+]] = arith.mulf %[[V0]], %[[B1]] : vector<16xf32>
// CHECK-NEXT:          %[[S1:[0-9]+]] = arith.addf %[[A1]], %[[M1]] : vector<16xf32>
// CHECK:               memref.load %[[Q]]
// CHECK:               scf.yield %[[S0]], %[[S1]], %{{.*}}, %{{.*}} : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
// CHECK:             vector.store %{{.*}}, %[[OUT]][%[[H]], %{{.*}}, %[[S]], %{{.*}}] : memref<1x2x2x32xf32>, vector<16xf32>
// CHECK:         %r = bufferization.to_tensor %[[OUT]] restrict writable : memref<1x2x2x32xf32> to tensor<1x2x2x32xf32>
// CHECK-NEXT:    func.return %r : tensor<1x2x2x32xf32>
