// RUN: spatial-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: a batch_matmul takes two 3-d inputs and one 3-d accumulator (batch x rows x cols), got ranks [2, 3, 3]
func.func @rank(%a: tensor<8x64xf32>, %b: tensor<2x64x16xf32>, %c: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<8x64xf32>, tensor<2x64x16xf32>) outs(%c : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  func.return %y : tensor<2x8x16xf32>
}
