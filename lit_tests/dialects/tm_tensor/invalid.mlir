// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALL

// One verifier error a case, in order. A case that verified would print its module
// in the custom form, so ALL checks that every case failed.
// ALL-NOT: {{^}}builtin.module

func.func @output_shape(%x: tensor<1x8xi64>, %o: tensor<1x9xi64>, %a: tensor<1xi64>) {
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<1x8xi64>) outs(%o, %a : tensor<1x9xi64>, tensor<1xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    tm_tensor.yield %s : i64
  } -> tensor<1x9xi64>, tensor<1xi64>
  func.return
}
// CHECK: Operation does not verify: the scan's output must have the input's shape [1, 8], got [1, 9]

// -----

func.func @dimension(%x: tensor<1x8xi64>, %o: tensor<1x8xi64>, %a: tensor<1xi64>) {
  %r:2 = tm_tensor.scan dimension(2) inclusive(true) ins(%x : tensor<1x8xi64>) outs(%o, %a : tensor<1x8xi64>, tensor<1xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    tm_tensor.yield %s : i64
  } -> tensor<1x8xi64>, tensor<1xi64>
  func.return
}
// CHECK: Operation does not verify: dimension 2 is outside the input's 2 axes

// -----

func.func @accumulator(%x: tensor<1x8xi64>, %o: tensor<1x8xi64>, %a: tensor<8xi64>) {
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<1x8xi64>) outs(%o, %a : tensor<1x8xi64>, tensor<8xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    tm_tensor.yield %s : i64
  } -> tensor<1x8xi64>, tensor<8xi64>
  func.return
}
// CHECK: Operation does not verify: the accumulator must have the input's shape without axis 1, [1], got [8]

// -----

func.func @outputs(%x: tensor<1x8xi64>, %o: tensor<1x8xi64>) {
  %r = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<1x8xi64>) outs(%o : tensor<1x8xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    tm_tensor.yield %s : i64
  } -> tensor<1x8xi64>
  func.return
}
// CHECK: Operation does not verify: expected two outputs (the scan and the accumulator), got 1

// -----

func.func @results(%x: tensor<1x8xi64>, %o: tensor<1x8xi64>, %a: tensor<1xi64>) {
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<1x8xi64>) outs(%o, %a : tensor<1x8xi64>, tensor<1xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    tm_tensor.yield %s : i64
  } -> tensor<1x8xf32>, tensor<1xi64>
  func.return
}
// CHECK: Operation does not verify: the results must have the outputs' types
