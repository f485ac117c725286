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
