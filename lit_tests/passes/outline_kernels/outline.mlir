// outline-kernels: each op that computes in a private function of its own, called
// from the entry; two ops that compute the same (the same ops and types, on other
// values) call one function. The entry only calls (llvm.optimize_none), its arguments
// are read-only (bufferization.writable = false), the kernels are never inlined.
// RUN: xdsl-opt -p outline-kernels %s | filecheck %s

func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %y : tensor<4xf32>
  %b = arith.addf %a, %y : tensor<4xf32>
  %c = arith.mulf %b, %x : tensor<4xf32>
  func.return %c : tensor<4xf32>
}

// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[Y:.*]]: tensor<4xf32> {bufferization.writable = false}) -> tensor<4xf32> attributes {llvm.no_inline, llvm.optimize_none} {
// CHECK-NEXT:    %[[A:.*]] = func.call @[[ADD:f__k0]](%[[X]], %[[Y]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = func.call @[[ADD]](%[[A]], %[[Y]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = func.call @[[MUL:f__k1]](%[[B]], %[[X]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[C]] : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @[[ADD]](%[[P:.*]]: tensor<4xf32>, %[[Q:.*]]: tensor<4xf32>) -> tensor<4xf32> attributes {llvm.no_inline, llvm.passthrough = [["prefer-vector-width", "512"]]} {
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[P]], %[[Q]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @[[MUL]](
// CHECK-NEXT:    arith.mulf

// A result that only reshapes a computed value is returned as that value (the same
// elements in the same order, so the caller's array is the same bytes): bufferized,
// the kernel then writes it where the caller says, where a reshaped view of its
// buffer was copied there.
func.func @g(%x: tensor<2x64xf32>) -> tensor<2x2x32xf32> {
  %a = arith.addf %x, %x : tensor<2x64xf32>
  %b = tensor.expand_shape %a [[0], [1, 2]] output_shape [2, 2, 32] : tensor<2x64xf32> into tensor<2x2x32xf32>
  func.return %b : tensor<2x2x32xf32>
}

// CHECK-LABEL: func.func @g(
// CHECK-SAME:      %[[X:.*]]: tensor<2x64xf32> {bufferization.writable = false}) -> tensor<2x64xf32>
// CHECK-NEXT:    %[[A:.*]] = func.call @g__k0(%[[X]]) : (tensor<2x64xf32>) -> tensor<2x64xf32>
// CHECK-NEXT:    %{{.*}} = tensor.expand_shape %[[A]]
// CHECK-NEXT:    func.return %[[A]] : tensor<2x64xf32>
