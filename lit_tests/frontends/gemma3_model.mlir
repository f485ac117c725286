// The gemma3 model built op by op (xdsl_spatial/frontends/model/) on the tests' tiny
// six-layer checkpoint (five sliding layers, one global; soft-capped logits): the forms
// it adds to llama's graph, that it parses back and verifies, and that q8-lower lowers
// every product of it.
//
// RUN: %python %S/tiny_gemma3.py %t.gguf
// RUN: spatial-gguf %t.gguf --emit-model --batch 3 --context 24 -o %t.mlir
// RUN: filecheck %s --input-file=%t.mlir
// RUN: spatial-opt %t.mlir | filecheck %s
// RUN: spatial-opt %t.mlir -p 'q8-lower{report=true}' -o %t.lowered.mlir 2>&1 | filecheck %s --check-prefix=LOWER

// Two tables of angles: the global layers' (base 1e6), the sliding layers' (base 10000).
// CHECK:      func.func @prefill(
// CHECK:        %rope.theta = linalg.generic
// CHECK:        %rope_swa.theta = linalg.generic
// The embedding times sqrt(d_model) in the gather's body.
// CHECK:        %embd = linalg.generic
// CHECK:          %[[E:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:     %[[S:.*]] = arith.constant 11.3137083 : f32
// CHECK-NEXT:     %[[ES:.*]] = arith.mulf %[[E]], %[[S]] : f32
// CHECK-NEXT:     linalg.yield %[[ES]] : f32
// Each query head RMS-normed over its 48 dimensions, in f32.
// CHECK:        %blk.0.q_norm.heads = tensor.expand_shape %blk.0.q {{\[\[}}0 : i64], [1 : i64, 2 : i64]] output_shape [3, 4, 48] : tensor<3x192xf32> into tensor<3x4x48xf32>
// CHECK:        %blk.0.q_norm.ss = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%blk.0.q_norm.heads : tensor<3x4x48xf32>)
// CHECK:        %blk.0.q_norm = linalg.generic {{.*}} ins(%blk.0.q_norm.heads, %blk.0.q_norm.ss, %blk.0.attn_q_norm.weight : tensor<3x4x48xf32>, tensor<3x4xf32>, tensor<48xf32>)
// CHECK:        %blk.0.q_norm.rows = tensor.collapse_shape %blk.0.q_norm {{\[\[}}0 : i64], [1 : i64, 2 : i64]] : tensor<3x4x48xf32> into tensor<3x192xf32>
// Neox RoPE: a head split as (2, 24), its halves rotated against each other with the
// sliding layers' angles.
// CHECK:        %blk.0.q_rope.pairs = tensor.expand_shape %blk.0.q_norm.rows {{.*}} output_shape [3, 2, 2, 2, 24] : tensor<3x192xf32> into tensor<3x2x2x2x24xf32>
// CHECK-NEXT:   %{{.*}} = tensor.empty() : tensor<2x2x3x2x24xf32>
// CHECK-NEXT:   %blk.0.q_rope = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, 0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, 1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0, d3, d4)>]{{.*}} ins(%blk.0.q_rope.pairs, %blk.0.q_rope.pairs, %rope_swa.cos, %rope_swa.sin
// A sliding layer's mask: j <= p and p < j + 4.
// CHECK:        %blk.0.max = linalg.generic
// CHECK:          %[[P:.*]] = arith.addi
// CHECK-NEXT:     %[[CAUSAL:.*]] = arith.cmpi ule, %{{.*}}, %[[P]] : index
// CHECK-NEXT:     %[[W:.*]] = arith.constant 4 : index
// CHECK-NEXT:     %[[END:.*]] = arith.addi %{{.*}}, %[[W]] : index
// CHECK-NEXT:     %[[IN:.*]] = arith.cmpi ult, %[[P]], %[[END]] : index
// CHECK-NEXT:     %{{.*}} = arith.andi %[[CAUSAL]], %[[IN]] : i1
// The attention's output RMS-normed before the residual add.
// CHECK:        %blk.0.attn_post = linalg.generic {{.*}} ins(%blk.0.o, %blk.0.attn_post.ss, %blk.0.post_attention_norm.weight
// CHECK:        %blk.0.mid = arith.addf %embd, %blk.0.attn_post : tensor<3x128xf32>
// GeGLU: GELU's tanh approximation times up, rounded to bf16.
// CHECK:        %blk.0.ffn_mid = linalg.generic
// CHECK:          math.tanh
// CHECK:          arith.truncf %{{.*}} : f32 to bf16
// CHECK:        %blk.0.ffn_post = linalg.generic {{.*}} ins(%blk.0.down, %blk.0.ffn_post.ss, %blk.0.post_ffw_norm.weight
// The global layer: the other angles, the causal mask alone.
// CHECK:        %blk.5.q_rope = linalg.generic {{.*}} ins(%blk.5.q_rope.pairs, %blk.5.q_rope.pairs, %rope.cos, %rope.sin
// CHECK:        %blk.5.max = linalg.generic
// CHECK:          arith.cmpi ule
// CHECK-NEXT:     arith.constant 0xff800000 : f32
// Soft-capped logits: 30 tanh(x / 30).
// CHECK:        %logits.capped = linalg.generic {{.*}} ins(%logits : tensor<3x320xf32>)
// CHECK:          math.tanh
// CHECK:        func.return %logits.capped,
// CHECK:        func.func @decode(

// LOWER-COUNT-86: q8-lower: linalg.matmul {{.*}}: lowered: wb =
// LOWER-NOT:      not lowered
