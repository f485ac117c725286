// linalg-contiguous-output-innermost: a parallel axis that an input does not read runs
// inside the reductions, just outside the output's contiguous axis, when the outputs
// one reduction step then writes span at most 4096 bytes (ACCUMULATOR_BYTES): the
// scores of grouped-query heads, (KV head, query head, key, dim) with the dim summed,
// run (KV head, dim, query head, key), so that a cached key row serves every query
// head of its KV head. A matmul whose rows' outputs would span 16 KiB keeps its rows
// outside the reduction.
// RUN: xdsl-opt -p linalg-contiguous-output-innermost %s | filecheck %s

func.func @scores(%q: tensor<2x3x4xf32>, %k: tensor<2x4x8xf32>, %acc: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x4xf32>, tensor<2x4x8xf32>) outs(%acc : tensor<2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x8xf32>
  func.return %r : tensor<2x3x8xf32>
}

// CHECK-LABEL: func.func @scores(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}

func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  func.return %r : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @matmul(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
