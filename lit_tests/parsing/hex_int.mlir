// RUN: spatial-opt %s | filecheck %s
// RUN: spatial-run %s --print | filecheck %s --check-prefix=EXEC

// A hexadecimal integer element is its value, the bits of its type (0xFF in an i8 is
// -1), in a list with decimal elements and as a splat: xDSL 0.75 reads these right,
// and so does the package's parser when a literal also holds hex floats elsewhere.

// CHECK-LABEL: func.func @ints
// CHECK-NEXT:    %a = arith.constant dense<[-1, 127, -128, 5]> : tensor<4xi8>
// CHECK-NEXT:    %b = arith.constant dense<-1> : tensor<3xi32>
// CHECK-NEXT:    %c = arith.constant dense<[-1, 2]> : tensor<2xi64>
// EXEC:      res0 =
// EXEC-NEXT: [  -1  127 -128    5]
// EXEC:      res1 =
// EXEC-NEXT: [-1 -1 -1]
// EXEC:      res2 =
// EXEC-NEXT: [-1  2]
func.func @ints() -> (tensor<4xi8>, tensor<3xi32>, tensor<2xi64>) {
  %a = arith.constant dense<[0xFF, 0x7F, 0x80, 5]> : tensor<4xi8>
  %b = arith.constant dense<0xFFFFFFFF> : tensor<3xi32>
  %c = arith.constant dense<[0xFFFFFFFFFFFFFFFF, 2]> : tensor<2xi64>
  func.return %a, %b, %c : tensor<4xi8>, tensor<3xi32>, tensor<2xi64>
}
