// outline-parallel-items: each scf.parallel's body (a program's items on threads) a
// private function the loop calls with its index and what the body reads from
// outside (here the weight and the output, memrefs of the identity layout); the
// constants and globals it reads are made again inside, and its alloca (a site's
// memory) is the new function's own. A body that reads a strided view from outside
// (@strided) stays in its loop.
// RUN: xdsl-opt -p outline-parallel-items %s | filecheck %s

"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<4xi32>, initial_value = dense<[0, 1, 2, 3]> : tensor<4xi32>, constant}> : () -> ()

func.func @k(%w: memref<4x64xf32>, %y: memref<4x64xf32>) attributes {llvm.no_inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.get_global @table : memref<4xi32>
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %sums = memref.alloca() : memref<64xf32>
    %j = memref.load %t[%i] : memref<4xi32>
    %c0_1 = arith.constant 0 : index
    %v = memref.load %w[%i, %c0_1] : memref<4x64xf32>
    memref.store %v, %sums[%c0_1] : memref<64xf32>
    %s = memref.load %sums[%c0_1] : memref<64xf32>
    memref.store %s, %y[%i, %c0] : memref<4x64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

func.func @strided(%w: memref<4x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %view = memref.subview %w[0, 0] [4, 32] [1, 2] : memref<4x64xf32> to memref<4x32xf32, strided<[64, 2]>>
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.load %view[%i, %c0] : memref<4x32xf32, strided<[64, 2]>>
    memref.store %v, %w[%i, %c1] : memref<4x64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// CHECK-LABEL: func.func @k(
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      func.call @k__item0(%[[I]], %w, %y) : (index, memref<4x64xf32>, memref<4x64xf32>) -> ()
// CHECK-NEXT:      scf.reduce
// CHECK-LABEL: func.func @strided(
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^bb0(%{{.*}}: index):
// CHECK-NEXT:      memref.load %view
// CHECK-LABEL: func.func private @k__item0(%i: index, %w: memref<4x64xf32>, %y: memref<4x64xf32>) attributes {llvm.no_inline} {
// CHECK-NEXT:    %t = memref.get_global @table : memref<4xi32>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %sums = memref.alloca() : memref<64xf32>
// CHECK-NEXT:    %j = memref.load %t[%i] : memref<4xi32>
// CHECK:         memref.store %s, %y[%i, %c0] : memref<4x64xf32>
// CHECK-NEXT:    func.return
// CHECK-NOT:   @strided__item
