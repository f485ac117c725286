// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// torch.cumsum as torch-mlir exports it (transformers' packed-sequence check of a
// model exported without an attention_mask): a scan along axis 1 of its input, the
// accumulator the second output.

// CHECK-LABEL: func.func @cumsum
// CHECK-NEXT:    %[[R:.*]], %[[ACC:.*]] = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<1x8xi64>) outs(%o, %a : tensor<1x8xi64>, tensor<1xi64>) {
// CHECK-NEXT:    ^{{.*}}(%[[P:.*]]: i64, %[[Q:.*]]: i64):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[P]], %[[Q]] : i64
// CHECK-NEXT:      tm_tensor.yield %[[S]] : i64
// CHECK-NEXT:    } -> tensor<1x8xi64>, tensor<1xi64>
// GENERIC:       "tm_tensor.scan"(%x, %o, %a) <{dimension = 1 : i64, inclusive = true, operandSegmentSizes = array<i32: 1, 2>}>
// GENERIC:       "tm_tensor.yield"
func.func @cumsum(%x: tensor<1x8xi64>, %o: tensor<1x8xi64>, %a: tensor<1xi64>) -> tensor<1x8xi64> {
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<1x8xi64>) outs(%o, %a : tensor<1x8xi64>, tensor<1xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    tm_tensor.yield %s : i64
  } -> tensor<1x8xi64>, tensor<1xi64>
  func.return %r#0 : tensor<1x8xi64>
}

// CHECK-LABEL: func.func @exclusive
// CHECK:         tm_tensor.scan dimension(0) inclusive(false) ins(%x : tensor<4x3xf32>) outs(%o, %a : tensor<4x3xf32>, tensor<3xf32>)
func.func @exclusive(%x: tensor<4x3xf32>, %o: tensor<4x3xf32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %r:2 = tm_tensor.scan dimension(0) inclusive(false) ins(%x : tensor<4x3xf32>) outs(%o, %a : tensor<4x3xf32>, tensor<3xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    tm_tensor.yield %s : f32
  } -> tensor<4x3xf32>, tensor<3xf32>
  func.return %r#1 : tensor<3xf32>
}
