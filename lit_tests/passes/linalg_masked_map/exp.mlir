// RUN: xdsl-opt -p linalg-masked-map %s | filecheck %s

// linalg-masked-map: a batched step's softmax exp, +0.0 where the row does not see the
// key (`ok`: the key at most the row's position), computed 16 keys a trip and only in
// the trips where `ok` holds for some key; the rest of the trips store the +0.0.
// tests/test_masked_map.py runs it natively with NaN past every position.

func.func @exp(%s: tensor<2x3x64xf32>, %m: tensor<2x3xf32>, %pos: tensor<3xi32>) -> tensor<2x3x64xf32> {
  %e = tensor.empty() : tensor<2x3x64xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m, %pos : tensor<2x3x64xf32>, tensor<2x3xf32>, tensor<3xi32>) outs(%e : tensor<2x3x64xf32>) {
  ^bb0(%x: f32, %mx: f32, %q: i32, %o: f32):
    %j = linalg.index 2 : index
    %qi = arith.index_cast %q : i32 to index
    %ok = arith.cmpi ule, %j, %qi : index
    %d = arith.subf %x, %mx : f32
    %v = math.exp %d : f32
    %zero = arith.constant 0.000000e+00 : f32
    %r = arith.select %ok, %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x3x64xf32>
  func.return %p : tensor<2x3x64xf32>
}

// CHECK-LABEL: func.func @exp(
// CHECK:         %[[S:.*]] = bufferization.to_buffer %s read_only
// CHECK-NEXT:    %[[M:.*]] = bufferization.to_buffer %m read_only
// CHECK-NEXT:    %[[POS:.*]] = bufferization.to_buffer %pos read_only
// CHECK-NEXT:    %[[OUT:.*]] = memref.alloc() : memref<2x3x64xf32>
// CHECK:         scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[TRIPS:.*]] = arith.constant 4 : index
// CHECK:             scf.for %[[T:.*]] = %{{.*}} to %[[TRIPS]] step %{{.*}} {
// CHECK:               %[[FIRST:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK:               %[[END:.*]] = arith.addi %[[FIRST]], %{{.*}} : index
// CHECK:               %[[ANY:.*]] = scf.for %[[J:.*]] = %[[FIRST]] to %[[END]] step %{{.*}} iter_args(%[[SEEN:.*]] = %{{.*}}) -> (i1) {
// CHECK-NEXT:            %[[P:.*]] = memref.load %[[POS]][%[[R]]] : memref<3xi32>
// CHECK-NEXT:            %[[PI:.*]] = arith.index_cast %[[P]] : i32 to index
// CHECK-NEXT:            %[[OK:.*]] = arith.cmpi ule, %[[J]], %[[PI]] : index
// CHECK-NEXT:            %[[OR:.*]] = arith.ori %[[SEEN]], %[[OK]] : i1
// CHECK-NEXT:            scf.yield %[[OR]] : i1
// CHECK-NEXT:          }
// CHECK-NEXT:          scf.if %[[ANY]] {
// CHECK:                 scf.for %[[K:.*]] = %[[FIRST]] to %[[END]] step %{{.*}} {
// CHECK-NEXT:              %[[X:.*]] = memref.load %[[S]][%[[H]], %[[R]], %[[K]]] : memref<2x3x64xf32>
// CHECK-NEXT:              %[[MX:.*]] = memref.load %[[M]][%[[H]], %[[R]]] : memref<2x3xf32>
// CHECK:                   %[[D:.*]] = arith.subf %[[X]], %[[MX]] : f32
// CHECK-NEXT:              %[[V:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:              %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:              %[[SEL:.*]] = arith.select %{{.*}}, %[[V]], %[[Z]] : f32
// CHECK-NEXT:              memref.store %[[SEL]], %[[OUT]][%[[H]], %[[R]], %[[K]]] : memref<2x3x64xf32>
// CHECK-NEXT:            }
// CHECK-NEXT:          } else {
// CHECK:                 scf.for %[[K:.*]] = %[[FIRST]] to %[[END]] step %{{.*}} {
// CHECK-NEXT:              %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:              memref.store %[[Z]], %[[OUT]][%[[H]], %[[R]], %[[K]]] : memref<2x3x64xf32>
// CHECK-NEXT:            }
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %p = bufferization.to_tensor %[[OUT]] restrict writable : memref<2x3x64xf32> to tensor<2x3x64xf32>

// Left alone: 24 keys (not whole vectors of 16), a mask that does not vary along the
// innermost loop, a body that reads its output, a reduction, an output whose map
// leaves a loop out (each of its elements written at 3 points).

func.func @narrow(%s: tensor<3x24xf32>, %pos: tensor<3xi32>) -> tensor<3x24xf32> {
  %e = tensor.empty() : tensor<3x24xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s, %pos : tensor<3x24xf32>, tensor<3xi32>) outs(%e : tensor<3x24xf32>) {
  ^bb0(%x: f32, %q: i32, %o: f32):
    %j = linalg.index 1 : index
    %qi = arith.index_cast %q : i32 to index
    %ok = arith.cmpi ule, %j, %qi : index
    %zero = arith.constant 0.000000e+00 : f32
    %r = arith.select %ok, %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<3x24xf32>
  func.return %p : tensor<3x24xf32>
}

// CHECK-LABEL: func.func @narrow(
// CHECK-NEXT:    %e = tensor.empty() : tensor<3x24xf32>
// CHECK-NEXT:    %p = linalg.generic

func.func @by_row(%s: tensor<3x32xf32>, %pos: tensor<3xi32>) -> tensor<3x32xf32> {
  %e = tensor.empty() : tensor<3x32xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s, %pos : tensor<3x32xf32>, tensor<3xi32>) outs(%e : tensor<3x32xf32>) {
  ^bb0(%x: f32, %q: i32, %o: f32):
    %i = linalg.index 0 : index
    %qi = arith.index_cast %q : i32 to index
    %ok = arith.cmpi ule, %i, %qi : index
    %zero = arith.constant 0.000000e+00 : f32
    %r = arith.select %ok, %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<3x32xf32>
  func.return %p : tensor<3x32xf32>
}

// CHECK-LABEL: func.func @by_row(
// CHECK-NEXT:    %e = tensor.empty() : tensor<3x32xf32>
// CHECK-NEXT:    %p = linalg.generic

func.func @update(%s: tensor<3x32xf32>, %pos: tensor<3xi32>, %old: tensor<3x32xf32>) -> tensor<3x32xf32> {
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s, %pos : tensor<3x32xf32>, tensor<3xi32>) outs(%old : tensor<3x32xf32>) {
  ^bb0(%x: f32, %q: i32, %o: f32):
    %j = linalg.index 1 : index
    %qi = arith.index_cast %q : i32 to index
    %ok = arith.cmpi ule, %j, %qi : index
    %r = arith.select %ok, %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<3x32xf32>
  func.return %p : tensor<3x32xf32>
}

// CHECK-LABEL: func.func @update(
// CHECK-NEXT:    %p = linalg.generic

func.func @row_sum(%s: tensor<3x32xf32>, %pos: tensor<3xi32>, %zero3: tensor<3xf32>) -> tensor<3xf32> {
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%s, %pos : tensor<3x32xf32>, tensor<3xi32>) outs(%zero3 : tensor<3xf32>) {
  ^bb0(%x: f32, %q: i32, %o: f32):
    %j = linalg.index 1 : index
    %qi = arith.index_cast %q : i32 to index
    %ok = arith.cmpi ule, %j, %qi : index
    %zero = arith.constant 0.000000e+00 : f32
    %r = arith.select %ok, %x, %zero : f32
    %t = arith.addf %o, %r : f32
    linalg.yield %t : f32
  } -> tensor<3xf32>
  func.return %p : tensor<3xf32>
}

// CHECK-LABEL: func.func @row_sum(
// CHECK-NEXT:    %p = linalg.generic

func.func @overwritten(%s: tensor<3x32xf32>, %pos: tensor<3xi32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<32xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "parallel"]} ins(%s, %pos : tensor<3x32xf32>, tensor<3xi32>) outs(%e : tensor<32xf32>) {
  ^bb0(%x: f32, %q: i32, %o: f32):
    %j = linalg.index 1 : index
    %qi = arith.index_cast %q : i32 to index
    %ok = arith.cmpi ule, %j, %qi : index
    %zero = arith.constant 0.000000e+00 : f32
    %r = arith.select %ok, %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  func.return %p : tensor<32xf32>
}

// CHECK-LABEL: func.func @overwritten(
// CHECK-NEXT:    %e = tensor.empty() : tensor<32xf32>
// CHECK-NEXT:    %p = linalg.generic
