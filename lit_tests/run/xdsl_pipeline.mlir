// xDSL's own passes after q8-lower: `q8-lower,canonicalize,cse,dce,licm` over the
// bundled examples and over one layer of a model, and the lowered programs still give
// the unlowered results. What each spatial op lets those passes do is in
// docs/dialects.md (its memory effects).
//
// The lowered example goes through the passes unchanged: no buffer merged or lost.
// RUN: xdsl-opt -p q8-lower,canonicalize,cse,dce,licm %S/../../examples/gemv_q8_lowered.mlir > %t.piped.mlir
// RUN: xdsl-opt %S/../../examples/gemv_q8_lowered.mlir | diff - %t.piped.mlir
//
// The examples on integer-exact inputs (small integer activations and values,
// power-of-two scales: every product and fp32 sum is exact), so before and after give
// the same bits.
// RUN: %python -c "import numpy as np; r = np.arange; np.savez('%t.npz', arg0=(r(2048, dtype=np.float32).reshape(1, 2048) %% 7 - 3), arg1=((r(2048 * 4096).reshape(2048, 4096) %% 13) - 6).astype(np.int8), arg2=(0.25 * (1 + r(64 * 4096).reshape(64, 4096) %% 2)).astype(np.float32))"
// RUN: spatial-run %S/../../examples/gemv_q8.mlir --inputs %t.npz -p q8-lower,canonicalize,cse,dce,licm --compare | filecheck %s --check-prefix=EXACT
// RUN: spatial-run %S/../../examples/gemv_q8_lowered.mlir --inputs %t.npz -p q8-lower,canonicalize,cse,dce,licm --compare | filecheck %s --check-prefix=EXACT
// RUN: spatial-run %S/../../examples/tensor_parallel_n4.mlir --inputs %t.npz -p q8-lower,canonicalize,cse,dce,licm --compare | filecheck %s --check-prefix=EXACT
// RUN: spatial-run %S/../../examples/tensor_parallel_k2.mlir --inputs %t.npz -p q8-lower,canonicalize,cse,dce,licm --compare | filecheck %s --check-prefix=EXACT
// EXACT: res0: max |before - after| = 0, relative to max |before| = 0
//
// Layer 0 of a model (lit_tests/inputs/tiny_llama_layer0.mlir: its seven products at a
// batch of 4, the view through its lanes table) on the layer's own weights and a random
// activation: each product before (unlowered) and after the passes, both within the
// fp32 bound of the fp64 product.
// RUN: %python %S/layer_bound.py %t write %S/../inputs/tiny_llama_layer0.mlir
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_attn_q --inputs %t.blk_0_attn_q.npz --outputs %t.blk_0_attn_q.before.npz
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_attn_q --inputs %t.blk_0_attn_q.npz -p q8-lower,canonicalize,cse,dce,licm --outputs %t.blk_0_attn_q.after.npz --stats | filecheck %s --check-prefix=LOWERED
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_attn_k --inputs %t.blk_0_attn_k.npz --outputs %t.blk_0_attn_k.before.npz
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_attn_k --inputs %t.blk_0_attn_k.npz -p q8-lower,canonicalize,cse,dce,licm --outputs %t.blk_0_attn_k.after.npz --stats | filecheck %s --check-prefix=LOWERED
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_attn_v --inputs %t.blk_0_attn_v.npz --outputs %t.blk_0_attn_v.before.npz
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_attn_v --inputs %t.blk_0_attn_v.npz -p q8-lower,canonicalize,cse,dce,licm --outputs %t.blk_0_attn_v.after.npz --stats | filecheck %s --check-prefix=LOWERED
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_attn_output --inputs %t.blk_0_attn_output.npz --outputs %t.blk_0_attn_output.before.npz
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_attn_output --inputs %t.blk_0_attn_output.npz -p q8-lower,canonicalize,cse,dce,licm --outputs %t.blk_0_attn_output.after.npz --stats | filecheck %s --check-prefix=LOWERED
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_ffn_gate --inputs %t.blk_0_ffn_gate.npz --outputs %t.blk_0_ffn_gate.before.npz
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_ffn_gate --inputs %t.blk_0_ffn_gate.npz -p q8-lower,canonicalize,cse,dce,licm --outputs %t.blk_0_ffn_gate.after.npz --stats | filecheck %s --check-prefix=LOWERED
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_ffn_up --inputs %t.blk_0_ffn_up.npz --outputs %t.blk_0_ffn_up.before.npz
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_ffn_up --inputs %t.blk_0_ffn_up.npz -p q8-lower,canonicalize,cse,dce,licm --outputs %t.blk_0_ffn_up.after.npz --stats | filecheck %s --check-prefix=LOWERED
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_ffn_down --inputs %t.blk_0_ffn_down.npz --outputs %t.blk_0_ffn_down.before.npz
// RUN: spatial-run %S/../inputs/tiny_llama_layer0.mlir --entry blk_0_ffn_down --inputs %t.blk_0_ffn_down.npz -p q8-lower,canonicalize,cse,dce,licm --outputs %t.blk_0_ffn_down.after.npz --stats | filecheck %s --check-prefix=LOWERED
// RUN: %python %S/layer_bound.py %t check %S/../inputs/tiny_llama_layer0.mlir | filecheck %s --check-prefix=BOUND

// Each product ran lowered: a view and a fold of a batch of 4.
// LOWERED: q8_view_4x{{[0-9]+}}_from0 {{.*}} x__q8_rows0__lanes0
// LOWERED: q8_gemm_4x{{[0-9]+}}x{{[0-9]+}}_w{{[0-9]+}} {{.*}} total

// BOUND:      blk_0_attn_q: before and after within the fp32 bound of the fp64 product
// BOUND-NEXT: blk_0_attn_k: before and after within the fp32 bound of the fp64 product
// BOUND-NEXT: blk_0_attn_v: before and after within the fp32 bound of the fp64 product
// BOUND-NEXT: blk_0_attn_output: before and after within the fp32 bound of the fp64 product
// BOUND-NEXT: blk_0_ffn_gate: before and after within the fp32 bound of the fp64 product
// BOUND-NEXT: blk_0_ffn_up: before and after within the fp32 bound of the fp64 product
// BOUND-NEXT: blk_0_ffn_down: before and after within the fp32 bound of the fp64 product
