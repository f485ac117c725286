// RUN: spatial-opt %s | spatial-opt | filecheck %s
// RUN: spatial-opt %s --print-op-generic | spatial-opt | filecheck %s
// RUN: spatial-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: not xdsl-opt %s 2>&1 | filecheck %s --check-prefix=STOCK

// STOCK: attribute bf16 expected from variable 'T', but got f32
// (the project's context reads MLIR's form, dialects/linalg_mixed.py; stock xdsl-opt,
// plugin installed or not, still refuses it)

// MLIR's mixed-precision linalg.matmul: each input narrower than the accumulator is
// extended to it before the multiply (arith.extf for floats, arith.extsi for
// integers), and the sum is `acc + product` in the accumulator's type. A same-type
// matmul keeps stock xDSL's body: mulf, then addf, no extension.

// CHECK-LABEL: func.func @bf16_to_f32
// CHECK-SAME:    (%[[X:.*]]: tensor<4x64xbf16>, %[[W:.*]]: tensor<64x32xbf16>, %[[ACC:.*]]: tensor<4x32xf32>)
// CHECK-NEXT:    %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x64xbf16>, tensor<64x32xbf16>) outs(%[[ACC]] : tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<4x32xf32>

// GENERIC-LABEL: "func.func"() <{sym_name = "bf16_to_f32"
// GENERIC:         "linalg.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 1>, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]}> ({
// GENERIC-NEXT:    ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: bf16, %[[C:.*]]: f32):
// GENERIC-NEXT:      %[[AF:.*]] = "arith.extf"(%[[A]]) : (bf16) -> f32
// GENERIC-NEXT:      %[[BF:.*]] = "arith.extf"(%[[B]]) : (bf16) -> f32
// GENERIC-NEXT:      %[[P:.*]] = "arith.mulf"(%[[AF]], %[[BF]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:      %[[S:.*]] = "arith.addf"(%[[C]], %[[P]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:      "linalg.yield"(%[[S]]) : (f32) -> ()
// GENERIC-NEXT:    }) : (tensor<4x64xbf16>, tensor<64x32xbf16>, tensor<4x32xf32>) -> tensor<4x32xf32>
func.func @bf16_to_f32(%x: tensor<4x64xbf16>, %w: tensor<64x32xbf16>, %acc: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x64xbf16>, tensor<64x32xbf16>) outs(%acc : tensor<4x32xf32>) -> tensor<4x32xf32>
  func.return %y : tensor<4x32xf32>
}

// Only the narrower input is extended.

// CHECK-LABEL: func.func @bf16_times_f32
// CHECK-SAME:    (%[[X:.*]]: tensor<4x64xbf16>, %[[W:.*]]: tensor<64x32xf32>, %[[ACC:.*]]: tensor<4x32xf32>)
// CHECK-NEXT:    %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x64xbf16>, tensor<64x32xf32>) outs(%[[ACC]] : tensor<4x32xf32>) -> tensor<4x32xf32>

// GENERIC-LABEL: "func.func"() <{sym_name = "bf16_times_f32"
// GENERIC:         ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: f32, %[[C:.*]]: f32):
// GENERIC-NEXT:      %[[AF:.*]] = "arith.extf"(%[[A]]) : (bf16) -> f32
// GENERIC-NEXT:      %[[P:.*]] = "arith.mulf"(%[[AF]], %[[B]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:      %[[S:.*]] = "arith.addf"(%[[C]], %[[P]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:      "linalg.yield"(%[[S]]) : (f32) -> ()
func.func @bf16_times_f32(%x: tensor<4x64xbf16>, %w: tensor<64x32xf32>, %acc: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x64xbf16>, tensor<64x32xf32>) outs(%acc : tensor<4x32xf32>) -> tensor<4x32xf32>
  func.return %y : tensor<4x32xf32>
}

// Integers: i8 x i8 accumulated in i32 extends with extsi.

// CHECK-LABEL: func.func @i8_to_i32
// CHECK-SAME:    (%[[X:.*]]: tensor<4x64xi8>, %[[W:.*]]: tensor<64x32xi8>, %[[ACC:.*]]: tensor<4x32xi32>)
// CHECK-NEXT:    %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x64xi8>, tensor<64x32xi8>) outs(%[[ACC]] : tensor<4x32xi32>) -> tensor<4x32xi32>

// GENERIC-LABEL: "func.func"() <{sym_name = "i8_to_i32"
// GENERIC:         ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %[[C:.*]]: i32):
// GENERIC-NEXT:      %[[AI:.*]] = "arith.extsi"(%[[A]]) : (i8) -> i32
// GENERIC-NEXT:      %[[BI:.*]] = "arith.extsi"(%[[B]]) : (i8) -> i32
// GENERIC-NEXT:      %[[P:.*]] = "arith.muli"(%[[AI]], %[[BI]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:      %[[S:.*]] = "arith.addi"(%[[C]], %[[P]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:      "linalg.yield"(%[[S]]) : (i32) -> ()
func.func @i8_to_i32(%x: tensor<4x64xi8>, %w: tensor<64x32xi8>, %acc: tensor<4x32xi32>) -> tensor<4x32xi32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x64xi8>, tensor<64x32xi8>) outs(%acc : tensor<4x32xi32>) -> tensor<4x32xi32>
  func.return %y : tensor<4x32xi32>
}

// Same types: stock xDSL's body, untouched (product first, then the accumulator).

// CHECK-LABEL: func.func @f32
// CHECK-SAME:    (%[[X:.*]]: tensor<4x64xf32>, %[[W:.*]]: tensor<64x32xf32>, %[[ACC:.*]]: tensor<4x32xf32>)
// CHECK-NEXT:    %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x64xf32>, tensor<64x32xf32>) outs(%[[ACC]] : tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<4x32xf32>

// GENERIC-LABEL: "func.func"() <{sym_name = "f32"
// GENERIC:         "linalg.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 1>, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]}> ({
// GENERIC-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32):
// GENERIC-NEXT:      %[[P:.*]] = "arith.mulf"(%[[A]], %[[B]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:      %[[S:.*]] = "arith.addf"(%[[P]], %[[C]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:      "linalg.yield"(%[[S]]) : (f32) -> ()
// GENERIC-NEXT:    }) : (tensor<4x64xf32>, tensor<64x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
func.func @f32(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>, %acc: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<4x32xf32>) -> tensor<4x32xf32>
  func.return %y : tensor<4x32xf32>
}
