// RUN: spatial-opt %s | filecheck %s
// RUN: spatial-run %s --entry mask --print | filecheck %s --check-prefix=EXEC
// RUN: xdsl-opt %s | filecheck %s --check-prefix=XDSL

// A hexadecimal float in a dense literal is the bit pattern of its element type, as
// MLIR reads it: torch-mlir writes a causal mask's -inf so. The package's parser
// (spatial-opt, spatial-run, every tool and parse_module) reads it so; stock xdsl-opt
// reads it with xDSL 0.75's own parser, which takes the hex as an integer's value
// (the XDSL lines: when they fail, xDSL reads it right and docs/errors.md says so).

// CHECK-LABEL: func.func @splats
// CHECK-NEXT:    %ninf = arith.constant dense<0xff800000> : tensor<5x5xf32>
// CHECK-NEXT:    %inf = arith.constant dense<0x7f800000> : tensor<2xf32>
// CHECK-NEXT:    %nan = arith.constant dense<{{\[}}0x7fc00000, 0x7fc00000]> : tensor<2xf32>
// CHECK-NEXT:    %payload = arith.constant dense<{{\[}}0x7fc00001, 0x7fc00001]> : tensor<2xf32>
// CHECK-NEXT:    %nzero = arith.constant dense<-0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:    %one = arith.constant dense<1.000000e+00> : tensor<2xf32>
// XDSL-LABEL:  func.func @splats
// XDSL-NEXT:     %ninf = arith.constant dense<4.28657869e+09> : tensor<5x5xf32>
func.func @splats() -> (tensor<5x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %ninf = arith.constant dense<0xFF800000> : tensor<5x5xf32>
  %inf = arith.constant dense<0x7F800000> : tensor<2xf32>
  %nan = arith.constant dense<0x7FC00000> : tensor<2xf32>
  %payload = arith.constant dense<0x7FC00001> : tensor<2xf32>
  %nzero = arith.constant dense<0x80000000> : tensor<2xf32>
  %one = arith.constant dense<0x3F800000> : tensor<2xf32>
  func.return %ninf, %inf, %nan, %payload, %nzero, %one : tensor<5x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// Hex and decimal elements mixed, nested, and a comment between them.
// CHECK-LABEL: func.func @elements
// CHECK-NEXT:    %m = arith.constant dense<{{\[\[}}0.000000e+00, 0xff800000], [1.500000e+00, 0x7fc00000]]> : tensor<2x2xf32>
func.func @elements() -> tensor<2x2xf32> {
  %m = arith.constant dense<[[0.0, 0xFF800000], [1.5, // a comment
                                                 0x7FC00000]]> : tensor<2x2xf32>
  func.return %m : tensor<2x2xf32>
}

// A causal mask added to scores: row i keeps columns 0..i, the others are -inf;
// the splat's -inf is the floor of a maximum, which changes nothing.
// EXEC:      res0 =
// EXEC-NEXT: {{\[\[}}  1. -inf -inf]
// EXEC-NEXT:  [  2.   3. -inf]
// EXEC-NEXT:  [  4.   5.   6.]]
func.func @mask() -> tensor<3x3xf32> {
  %scores = arith.constant dense<[[1.0, 7.0, 8.0], [2.0, 3.0, 9.0], [4.0, 5.0, 6.0]]> : tensor<3x3xf32>
  %mask = arith.constant dense<[[0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0]]> : tensor<3x3xf32>
  %floor = arith.constant dense<0xFF800000> : tensor<3x3xf32>
  %masked = arith.addf %scores, %mask : tensor<3x3xf32>
  %s = arith.maximumf %masked, %floor : tensor<3x3xf32>
  func.return %s : tensor<3x3xf32>
}
