// RUN: xdsl-opt %s -p 'spatial-lower-ops,convert-spatial-to-linalg' | filecheck %s

// A softmax's masked folds, each row its own position (a batched step's): the largest
// of `select(ok, s, -inf)` and the sum of `select(ok, e, +0.0)`, `ok` whether key j
// is at most the row's position. Each term a row cannot see is its fold's identity,
// so the fold's own axis (the keys, the generic's outermost loop) runs as an `scf.for`
// whose trips compute only where some row sees the key (`masked.py`): the keys past
// every row's position are not read. The page starts at the identity (-inf, +0.0).
// tests/test_native.py runs both against the reference with NaN past the positions.

func.func @row_max(%s: tensor<3x96xf32>, %pos: tensor<3xi32>) -> tensor<3xf32> {
  %lo = arith.constant -3.40282347e+38 : f32
  %e = tensor.empty() : tensor<3xf32>
  %lowest = linalg.fill ins(%lo : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%s, %pos : tensor<3x96xf32>, tensor<3xi32>) outs(%lowest : tensor<3xf32>) {
  ^bb0(%a: f32, %p: i32, %acc: f32):
    %j = linalg.index 1 : index
    %pi = arith.index_cast %p : i32 to index
    %ok = arith.cmpi ule, %j, %pi : index
    %hidden = arith.constant 0xff800000 : f32
    %v = arith.select %ok, %a, %hidden : f32
    %m = arith.maximumf %acc, %v : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  func.return %max : tensor<3xf32>
}

func.func @row_sum(%s: tensor<3x96xf32>, %pos: tensor<3xi32>) -> tensor<3xf32> {
  %z = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<3xf32>
  %zero = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%s, %pos : tensor<3x96xf32>, tensor<3xi32>) outs(%zero : tensor<3xf32>) {
  ^bb0(%a: f32, %p: i32, %acc: f32):
    %j = linalg.index 1 : index
    %pi = arith.index_cast %p : i32 to index
    %ok = arith.cmpi ule, %j, %pi : index
    %hidden = arith.constant 0.000000e+00 : f32
    %v = arith.select %ok, %a, %hidden : f32
    %t = arith.addf %acc, %v : f32
    linalg.yield %t : f32
  } -> tensor<3xf32>
  func.return %sum : tensor<3xf32>
}

// CHECK-LABEL: func.func @row_max(
// CHECK:         %[[NEGINF:.*]] = arith.constant 0xff800000 : f32
// CHECK-NEXT:    linalg.fill ins(%[[NEGINF]] : f32) outs(%[[PART:.*]] : memref<3xf32, strided<[1], offset: ?>>)
// CHECK:         scf.for %[[KEY:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[ANY:.*]] = scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SEEN:.*]] = %{{.*}}) -> (i1) {
// CHECK:             %[[POS:.*]] = memref.load %{{.*}}[%[[ROW]]]
// CHECK:             %[[P:.*]] = arith.index_cast %[[POS]] : i32 to index
// CHECK-NEXT:        %[[OK:.*]] = arith.cmpi ule, %[[KEY]], %[[P]] : index
// CHECK-NEXT:        %[[OR:.*]] = arith.ori %[[SEEN]], %[[OK]] : i1
// CHECK-NEXT:        scf.yield %[[OR]] : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.if %[[ANY]] {
// CHECK-NEXT:        %[[S:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%[[KEY]]], sizes: [3], strides: [96]
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[S]], %{{.*}} : memref<3xf32, strided<[96], offset: ?>>, memref<3xi32, strided<[1], offset: ?>>) outs(%{{.*}} : memref<3xf32, strided<[1], offset: ?>>) {
// CHECK:               arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:          arith.maximumf
// CHECK:           }
// CHECK-NEXT:    }
// The largest is then taken with the fold's start, LOWEST.
// CHECK:         arith.constant -3.40282347e+38 : f32

// CHECK-LABEL: func.func @row_sum(
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>)
// CHECK:         scf.for %[[KEY:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[ANY:.*]] = scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i1) {
// CHECK:             arith.cmpi ule, %[[KEY]], %{{.*}} : index
// CHECK:           }
// CHECK-NEXT:      scf.if %[[ANY]] {
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK:               arith.select
// CHECK-NEXT:          arith.addf
// CHECK:           }
// CHECK-NEXT:    }
