// One view per activation value: made right after the value, shared by every product
// that reads it, named x__q8_rows<writes> for the writes of x before it.
//
// RUN: spatial-opt %s -p q8-lower | filecheck %s

// Two products of one x (over a 4096- and a 2048-wide weight) share one view; the
// bf16 x is read once as it is (mixed form) and once through an arith.extf.
func.func @shared(%x: tensor<1x2048xbf16>, %A__q8: tensor<2048x4096xi8>, %A__q8_scale: tensor<64x4096xf32>, %B__q8: tensor<2048x2048xi8>, %B__q8_scale: tensor<64x2048xf32>) -> (tensor<1x4096xf32>, tensor<1x2048xf32>) {
  %a = q8.dequantize %A__q8, %A__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xbf16>
  %b = q8.dequantize %B__q8, %B__q8_scale : tensor<2048x2048xi8>, tensor<64x2048xf32> -> tensor<2048x2048xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %ea = tensor.empty() : tensor<1x4096xf32>
  %acca = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %ya = linalg.matmul ins(%x, %a : tensor<1x2048xbf16>, tensor<2048x4096xbf16>) outs(%acca : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %eb = tensor.empty() : tensor<1x2048xf32>
  %accb = linalg.fill ins(%zero : f32) outs(%eb : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %yb = linalg.matmul ins(%xf, %b : tensor<1x2048xf32>, tensor<2048x2048xf32>) outs(%accb : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  func.return %ya, %yb : tensor<1x4096xf32>, tensor<1x2048xf32>
}

// CHECK-LABEL: func.func @shared(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<1x2048xbf16>, %[[AQ:[^:]*]]: tensor<2048x4096xi8>, %[[AS:[^:]*]]: tensor<64x4096xf32>, %[[BQ:[^:]*]]: tensor<2048x2048xi8>, %[[BS:[^:]*]]: tensor<64x2048xf32>)
// CHECK-NEXT:    %[[V:.*]] = spatial.view "q8_view_1x2048_from0" grid [2]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[X]] : tensor<1x2048xbf16>) -> tensor<64x32xbf16> {
// CHECK:           spatial.tensor "x__q8_rows0" zero : !spatial.tensor<64x32xbf16, output>
// CHECK:         %[[YA:.*]] = spatial.fold "q8_gemv_2048x4096_w8" grid [16]
// CHECK:           ins(%[[V]], %[[AQ]], %[[AS]] : tensor<64x32xbf16>, tensor<2048x4096xi8>, tensor<64x4096xf32>) -> tensor<1x4096xf32> {
// CHECK:           spatial.tensor "x__q8_rows0" external
// CHECK:           spatial.tensor "A__q8" external
// CHECK:           spatial.tensor "ya" zero : !spatial.tensor<1x4096xf32, output>
// CHECK-NOT:     spatial.view
// CHECK:         %[[YB:.*]] = spatial.fold "q8_gemv_2048x2048_w8" grid [8]
// CHECK:           ins(%[[V]], %[[BQ]], %[[BS]] : tensor<64x32xbf16>, tensor<2048x2048xi8>, tensor<64x2048xf32>) -> tensor<1x2048xf32> {
// CHECK:           spatial.tensor "x__q8_rows0" external
// CHECK:           spatial.tensor "B__q8" external
// CHECK:           spatial.tensor "yb" zero : !spatial.tensor<1x2048xf32, output>
// CHECK:         func.return %[[YA]], %[[YB]]

// x written twice: the value after the second write (%x_1, named x as well) gets a
// view of its own, x__q8_rows1, placed right after it, reading the tensor x_1 (the
// value as printed: two values are two tensors). The first product's result feeds the
// second write.
func.func @twice(%x: tensor<1x2048xbf16>, %H__q8: tensor<2048x2048xi8>, %H__q8_scale: tensor<64x2048xf32>) -> tensor<1x2048xf32> {
  %w = q8.dequantize %H__q8, %H__q8_scale : tensor<2048x2048xi8>, tensor<64x2048xf32> -> tensor<2048x2048xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
  %h = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %x_1 = arith.truncf %h : tensor<1x2048xf32> to tensor<1x2048xbf16>
  %y = linalg.matmul ins(%x_1, %w : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  func.return %y : tensor<1x2048xf32>
}

// CHECK-LABEL: func.func @twice(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<1x2048xbf16>
// CHECK-NEXT:    %[[V0:.*]] = spatial.view "q8_view_1x2048_from0" grid [2]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[X]] : tensor<1x2048xbf16>) -> tensor<64x32xbf16> {
// CHECK:           spatial.tensor "x__q8_rows0" zero
// CHECK:         %[[H:.*]] = spatial.fold "q8_gemv_2048x2048_w8"
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[V0]], {{.*}}) -> tensor<1x2048xf32> {
// CHECK:           spatial.tensor "x__q8_rows0" external
// CHECK:           spatial.tensor "H__q8" external
// CHECK:         %[[X1:.*]] = arith.truncf %[[H]] : tensor<1x2048xf32> to tensor<1x2048xbf16>
// CHECK-NEXT:    %[[V1:.*]] = spatial.view "q8_view_1x2048_from0" grid [2]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[X1]] : tensor<1x2048xbf16>) -> tensor<64x32xbf16> {
// CHECK:           spatial.tensor "x_1" external
// CHECK:           spatial.tensor "x__q8_rows1" zero
// CHECK:         %[[Y:.*]] = spatial.fold "q8_gemv_2048x2048_w8"
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[V1]], {{.*}}) -> tensor<1x2048xf32> {
// CHECK:           spatial.tensor "x__q8_rows1" external
// CHECK:           spatial.tensor "H__q8" external
// CHECK:         func.return %[[Y]]

// Writes are counted per function: this x is written once, so rows0 again.
func.func @other(%x: tensor<1x2048xbf16>, %H__q8: tensor<2048x2048xi8>, %H__q8_scale: tensor<64x2048xf32>) -> tensor<1x2048xf32> {
  %w = q8.dequantize %H__q8, %H__q8_scale : tensor<2048x2048xi8>, tensor<64x2048xf32> -> tensor<2048x2048xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  func.return %y : tensor<1x2048xf32>
}

// CHECK-LABEL: func.func @other(
// CHECK:           spatial.tensor "x__q8_rows0" zero
// CHECK-NOT:       x__q8_rows1

// Another activation name, and an unnamed activation next to a named x: the unnamed
// one is viewed as x, after the x the function names.
func.func @names(%h: tensor<1x2048xbf16>, %x: tensor<1x2048xbf16>, %0: tensor<1x2048xbf16>, %H__q8: tensor<2048x2048xi8>, %H__q8_scale: tensor<64x2048xf32>) -> (tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>) {
  %w = q8.dequantize %H__q8, %H__q8_scale : tensor<2048x2048xi8>, tensor<64x2048xf32> -> tensor<2048x2048xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
  %y0 = linalg.matmul ins(%0, %w : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %y1 = linalg.matmul ins(%h, %w : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %y2 = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  func.return %y0, %y1, %y2 : tensor<1x2048xf32>, tensor<1x2048xf32>, tensor<1x2048xf32>
}

// CHECK-LABEL: func.func @names(
// CHECK-SAME:      %[[H:[^:]*]]: tensor<1x2048xbf16>, %[[X:[^:]*]]: tensor<1x2048xbf16>, %[[A:[^:]*]]: tensor<1x2048xbf16>
//
// Views of arguments go to the start of the body, the latest made first.
// CHECK-NEXT:    %[[VX:.*]] = spatial.view "q8_view_1x2048_from0"
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[X]] : tensor<1x2048xbf16>)
// CHECK:           spatial.tensor "x__q8_rows0" zero
// CHECK:         %[[VH:.*]] = spatial.view "q8_view_1x2048_from0"
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[H]] : tensor<1x2048xbf16>)
// CHECK:           spatial.tensor "h" external
// CHECK:           spatial.tensor "h__q8_rows0" zero
// CHECK:         %[[VA:.*]] = spatial.view "q8_view_1x2048_from0"
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[A]] : tensor<1x2048xbf16>)
// CHECK:           spatial.tensor "x_1" external
// CHECK:           spatial.tensor "x__q8_rows1" zero
// CHECK:         %[[Y0:.*]] = spatial.fold
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[VA]], {{.*}}) -> tensor<1x2048xf32> {
// CHECK:         %[[Y1:.*]] = spatial.fold
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[VH]], {{.*}}) -> tensor<1x2048xf32> {
// CHECK:         %[[Y2:.*]] = spatial.fold
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[VX]], {{.*}}) -> tensor<1x2048xf32> {
// CHECK:         func.return %[[Y0]], %[[Y1]], %[[Y2]]
