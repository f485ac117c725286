// Not Q8_0: IREE's grouped form as its tests write it, with unsigned values and a
// zero point per group (`arith.extui`, `arith.uitofp`, then `(q - z) * s`).
// q8-lower leaves it exactly as it is and says why; it still runs.
//
//   xdsl-opt -p 'q8-lower{report=true}' examples/frontends/grouped_iree_unsigned.mlir
func.func @grouped_iree_unsigned(%arg0: tensor<128x8x32xi8>, %arg1: tensor<1x1x8x32xf32>, %arg2: tensor<128x8x1xf32>, %arg3: tensor<128x8x1xf32>) -> tensor<1x1x128xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x128xf32>
  %1 = tensor.empty() : tensor<128x8x32xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x1x128xf32>) -> tensor<1x1x128xf32>
  %3 = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                       affine_map<(d0, d1, d2) -> (d0, d1, 0)>,
                       affine_map<(d0, d1, d2) -> (d0, d1, 0)>,
                       affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%arg0, %arg2, %arg3 : tensor<128x8x32xi8>, tensor<128x8x1xf32>, tensor<128x8x1xf32>) outs(%1 : tensor<128x8x32xf32>) {
  ^bb0(%in: i8, %in_0: f32, %in_1: f32, %out: f32):
    %5 = arith.extui %in : i8 to i32
    %6 = arith.uitofp %5 : i32 to f32
    %7 = arith.subf %6, %in_1 : f32
    %8 = arith.mulf %7, %in_0 : f32
    linalg.yield %8 : f32
  } -> tensor<128x8x32xf32>
  %4 = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>,
                       affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>,
                       affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%arg1, %3 : tensor<1x1x8x32xf32>, tensor<128x8x32xf32>) outs(%2 : tensor<1x1x128xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.mulf %in, %in_0 : f32
    %6 = arith.addf %5, %out : f32
    linalg.yield %6 : f32
  } -> tensor<1x1x128xf32>
  func.return %4 : tensor<1x1x128xf32>
}
