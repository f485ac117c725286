// linalg-contraction-in-registers leaves alone what it does not take: a matmul whose 64
// rows would hold 64 vector sums even a vector of columns at a time (more than 16), 20
// columns (not whole vectors of 16), a body that subtracts its products, and a dynamic
// row count.
// RUN: xdsl-opt -p linalg-contraction-in-registers %s | filecheck %s

func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  func.return %r : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @matmul(
// CHECK-NEXT:    %r = linalg.generic

func.func @narrow(%a: tensor<2x8xf32>, %b: tensor<8x20xf32>, %acc: tensor<2x20xf32>) -> tensor<2x20xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x8xf32>, tensor<8x20xf32>) outs(%acc : tensor<2x20xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x20xf32>
  func.return %r : tensor<2x20xf32>
}

// CHECK-LABEL: func.func @narrow(
// CHECK-NEXT:    %r = linalg.generic

func.func @difference(%a: tensor<2x8xf32>, %b: tensor<8x32xf32>, %acc: tensor<2x32xf32>) -> tensor<2x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<2x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.subf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  func.return %r : tensor<2x32xf32>
}

// CHECK-LABEL: func.func @difference(
// CHECK-NEXT:    %r = linalg.generic

// A dynamic row count: no static loop ranges to hold sums for.
func.func @dynamic(%a: tensor<?x8xf32>, %b: tensor<8x32xf32>, %acc: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<?x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<?x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x32xf32>
  func.return %r : tensor<?x32xf32>
}

// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:    %r = linalg.generic
