// RUN: xdsl-opt %s -p spatial-lower-ops | filecheck %s

// Attention of one decode step (SmolLM2's: 3 KV heads of 3 query heads each, 64 wide,
// a 256-position cache): q . k against the keys cached transposed, p . v against the
// values. Both are products of two activations: bf16 factors, fp32 sums (the target's
// act), on the matrix unit.

func.func @attention(%q: tensor<3x3x1x64xf32>, %kc: tensor<3x64x256xf32>, %p: tensor<3x3x1x256xf32>, %vc: tensor<3x256x64xf32>) -> (tensor<3x3x1x256xf32>, tensor<3x3x1x64xf32>) {
  %c0 = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<3x3x1x256xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<3x3x1x256xf32>) -> tensor<3x3x1x256xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %kc : tensor<3x3x1x64xf32>, tensor<3x64x256xf32>) outs(%z : tensor<3x3x1x256xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %u = arith.addf %acc, %t : f32
    linalg.yield %u : f32
  } -> tensor<3x3x1x256xf32>
  %e2 = tensor.empty() : tensor<3x3x1x64xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<3x3x1x64xf32>) -> tensor<3x3x1x64xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %vc : tensor<3x3x1x256xf32>, tensor<3x256x64xf32>) outs(%z2 : tensor<3x3x1x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %u = arith.addf %acc, %t : f32
    linalg.yield %u : f32
  } -> tensor<3x3x1x64xf32>
  func.return %scores, %pv : tensor<3x3x1x256xf32>, tensor<3x3x1x64xf32>
}

// The scores: items split the cache's positions (two groups of 4 column tiles); every
// item reads the whole query (9 rows x 64, one tile row: a multicast) and all 6 tile
// rows of its positions' keys; the stage runs over (kv head, group, position) and
// sums the 64 dims as two tiles of 32 rows (the keys' rows are 64 h + d).
// CHECK-LABEL: func.func @attention(
// CHECK:         %[[Q:.*]] = tensor.collapse_shape %q {{\[\[}}0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<3x3x1x64xf32> into tensor<9x64xf32>
// CHECK:         %scores = spatial.fold "attn_contract_3x3x1x256x64" grid [2] owns (d0) -> (0, d0 * 4) size [1, 4]
// CHECK:           plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 4]> numerics approx "products of bf16 factors summed in fp32"
// CHECK-NEXT:      ins(%[[Q]], %{{.*}} : tensor<9x64xf32>, tensor<192x256xf32>) -> tensor<9x256xf32> {
// CHECK:           %[[PQ:.*]] = spatial.load %{{.*}}[0] block 1x2 stride 2 repeat 1 multicast into
// CHECK-NEXT:      %[[PK:.*]] = spatial.load %{{.*}}[%{{.*}} * 4] block 6x4 stride 8 repeat 1 into
// CHECK-NEXT:      spatial.stage "contract" iters(par 3, par 3, par 128, sum 2, sum 32)
// CHECK-NEXT:        ins(%[[PQ]][d0 * 192 + d1 * 64 + d3 * 32 + d4], %[[PK]][d4 * 768 + d0 * 256 + d3 * 128 + d2]) into %{{.*}}[d0 * 384 + d1 * 128 + d2]
// CHECK-NEXT:      ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:        %[[AH:.*]] = arith.truncf %[[A]] : f32 to bf16
// CHECK-NEXT:        %[[AF:.*]] = arith.extf %[[AH]] : bf16 to f32
// CHECK-NEXT:        %[[BH:.*]] = arith.truncf %[[B]] : f32 to bf16
// CHECK-NEXT:        %[[BF:.*]] = arith.extf %[[BH]] : bf16 to f32
// CHECK-NEXT:        %[[T:.*]] = arith.mulf %[[AF]], %[[BF]] : f32
// CHECK-NEXT:        spatial.yield %[[T]] : f32

// p . v: items split the 64 dims (two column tiles); the probabilities are a multicast;
// an item reads its column of every head's 256 positions (24 tile rows) and sums the
// positions as 8 tiles of 32.
// CHECK:         %pv = spatial.fold "attn_contract_3x3x1x64x256" grid [2] owns (d0) -> (0, d0) size [1, 1]
// CHECK:           spatial.load %{{.*}}[0] block 1x8 stride 8 repeat 1 multicast into
// CHECK-NEXT:      spatial.load %{{.*}}[%{{.*}}] block 24x1 stride 2 repeat 1 into
// CHECK-NEXT:      spatial.stage "contract" iters(par 3, par 3, par 32, sum 8, sum 32)
// CHECK:         func.return
// CHECK-NOT:     linalg.generic
