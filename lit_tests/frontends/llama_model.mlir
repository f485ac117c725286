// The llama model built op by op (xdsl_spatial/frontends/llama.py) on the tests' tiny
// two-layer checkpoint: the ops, types, maps and value names it prints, that it parses
// back and verifies, and that q8-lower lowers every product of it.
//
// RUN: %python %S/tiny_llama.py %t.gguf
// RUN: spatial-gguf %t.gguf --emit-model --batch 3 --context 24 -o %t.mlir
// RUN: filecheck %s --input-file=%t.mlir
// RUN: spatial-opt %t.mlir | filecheck %s
// RUN: spatial-opt %t.mlir -p 'q8-lower{report=true}' -o %t.lowered.mlir 2>&1 | filecheck %s --check-prefix=LOWER

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @prefill(%tokens: tensor<3xi32>, %pos: tensor<1xi32>, %token_embd.weight__q8: tensor<256x320xi8>, %token_embd.weight__q8_scale: tensor<8x320xf16>, %blk.0.attn_q.weight__q8: tensor<256x256xi8>,
// CHECK-SAME:     %output_norm.weight: tensor<256xf32>, %blk.0.cache_k: tensor<2x64x24xf32>, %blk.0.cache_v: tensor<2x24x64xf32>, %blk.1.cache_k: tensor<2x64x24xf32>, %blk.1.cache_v: tensor<2x24x64xf32>) -> (tensor<3x320xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>) {
// CHECK:        %rope.theta = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%pos, %c : tensor<1xi32>, tensor<32xf32>) outs(%empty : tensor<3x32xf32>) {
// CHECK-NEXT:   ^bb0(%a0: i32, %a1: f32, %acc: f32):
// CHECK-NEXT:     %b1 = linalg.index 0 : index
// CHECK:        %rope.cos = math.cos %rope.theta : tensor<3x32xf32>
// CHECK:        %p0 = tensor.extract %pos[%c.1] : tensor<1xi32>
// CHECK-NEXT:   %offset = arith.index_cast %p0 : i32 to index
// CHECK:        %embd = linalg.generic
// CHECK:          tensor.extract %token_embd.weight__q8[%b2_1, %b1_1] : tensor<256x320xi8>
// CHECK:          arith.extf %b6 : f16 to f32
// CHECK:        %blk.0.attn_in.ss = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%embd : tensor<3x256xf32>) outs(%zero : tensor<3xf32>) {
// CHECK:          math.rsqrt
// CHECK:          arith.truncf {{.*}} : f32 to bf16
// CHECK:        %blk.0.attn_in.f32 = arith.extf %blk.0.attn_in : tensor<3x256xbf16> to tensor<3x256xf32>
// CHECK:        %blk.0.q.w = q8.dequantize %blk.0.attn_q.weight__q8, %blk.0.attn_q.weight__q8_scale : tensor<256x256xi8>, tensor<8x256xf16> -> tensor<256x256xf32>
// CHECK:        %blk.0.q = linalg.matmul ins(%blk.0.attn_in.f32, %blk.0.q.w : tensor<3x256xf32>, tensor<256x256xf32>) outs(%zero.1 : tensor<3x256xf32>) -> tensor<3x256xf32>
// CHECK:        %blk.0.q_rope.pairs = tensor.expand_shape %blk.0.q {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64, 4 : i64]] output_shape [3, 2, 2, 32, 2] : tensor<3x256xf32> into tensor<3x2x2x32x2xf32>
// CHECK:        %blk.0.k_t = tensor.collapse_shape %blk.0.k_rope {{\[\[}}0 : i64], [1 : i64, 2 : i64], [3 : i64]] : tensor<2x32x2x3xf32> into tensor<2x64x3xf32>
// CHECK:        %blk.0.v_heads = linalg.transpose ins(%blk.0.v_rows:tensor<3x2x64xf32>) outs(%empty.7:tensor<2x3x64xf32>) permutation = [1, 0, 2]
// CHECK-NEXT:   %cache = tensor.insert_slice %blk.0.k_t into %blk.0.cache_k[0, 0, %offset] [2, 64, 3] [1, 1, 1] : tensor<2x64x3xf32> into tensor<2x64x24xf32>
// CHECK-NEXT:   %cache.1 = tensor.insert_slice %blk.0.v_heads into %blk.0.cache_v[0, %offset, 0] [2, 3, 64] [1, 1, 1] : tensor<2x3x64xf32> into tensor<2x24x64xf32>
// CHECK:        %blk.0.scores = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%blk.0.q_heads, %cache : tensor<2x2x3x64xf32>, tensor<2x64x24xf32>)
// The largest starts at LOWEST; a key the row cannot see is -inf, the fold's identity.
// CHECK:        %blk.0.max = linalg.generic {{.*}} outs(%lowest : tensor<2x2x3xf32>) {
// CHECK:          arith.cmpi ule
// CHECK:          arith.constant 0xff800000 : f32
// CHECK:          arith.maximumf
// CHECK:        %blk.0.attn_out = tensor.collapse_shape %blk.0.heads {{\[\[}}0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<3x2x2x64xbf16> into tensor<3x256xbf16>
// CHECK:        %logits = linalg.matmul ins(%head_in.f32, %logits.w : tensor<3x256xf32>, tensor<256x320xf32>) outs(%zero.7 : tensor<3x320xf32>) -> tensor<3x320xf32>
// CHECK-NEXT:   func.return %logits, %cache, %cache.1, %cache.2, %cache.3 : tensor<3x320xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>, tensor<2x64x24xf32>, tensor<2x24x64xf32>
// CHECK:        func.func @decode(%tokens: tensor<1xi32>, %pos: tensor<1xi32>, %token_embd.weight__q8: tensor<256x320xi8>,
// CHECK:        %cache = tensor.insert_slice %blk.0.k_t into %blk.0.cache_k[0, 0, %offset] [2, 64, 1] [1, 1, 1] : tensor<2x64x1xf32> into tensor<2x64x24xf32>
// A decode step's sum reads the position too: a key the row cannot see adds +0.0.
// CHECK:        %blk.0.sum = linalg.generic {{.*}} ins(%blk.0.exp, %pos : tensor<2x2x1x24xf32>, tensor<1xi32>) outs(%zero.4 : tensor<2x2x1xf32>) {
// CHECK:          %[[OK:.*]] = arith.cmpi ule
// CHECK-NEXT:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:     %[[TERM:.*]] = arith.select %[[OK]], %{{.*}}, %[[ZERO]] : f32
// CHECK-NEXT:     arith.addf %{{.*}}, %[[TERM]] : f32
// CHECK:        func.return %logits, %cache, %cache.1, %cache.2, %cache.3 : tensor<1x320xf32>,

// LOWER-COUNT-30: q8-lower: linalg.matmul {{.*}}: lowered: wb =
// LOWER-NOT:      not lowered
