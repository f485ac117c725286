// The frontend examples: each Q8_0 form lowers to a view and a fold with nothing of
// its dequantisation or contraction left; each non-Q8_0 variant is left exactly as
// it was, with its reason.
//
// RUN: spatial-opt -p q8-lower %S/../../examples/frontends/kn_floordiv.mlir -o %t.kn.mlir
// RUN: spatial-opt -p q8-lower %S/../../examples/frontends/nk_linear.mlir -o %t.nk.mlir
// RUN: spatial-opt -p q8-lower %S/../../examples/frontends/nk_transpose_matmul.mlir -o %t.nkt.mlir
// RUN: spatial-opt -p q8-lower %S/../../examples/frontends/grouped_iree.mlir -o %t.grouped.mlir
// Lowering again changes nothing:
// RUN: spatial-opt -p q8-lower %t.nk.mlir | diff - %t.nk.mlir
// RUN: spatial-opt -p q8-lower %t.grouped.mlir | diff - %t.grouped.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.kn.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.nk.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.nkt.mlir
// RUN: filecheck %s --check-prefix=LOWERED < %t.grouped.mlir
// RUN: filecheck %s --check-prefix=KN < %t.kn.mlir
// RUN: filecheck %s --check-prefix=NK < %t.nk.mlir
// RUN: filecheck %s --check-prefix=NKT < %t.nkt.mlir
// RUN: filecheck %s --check-prefix=GROUPED < %t.grouped.mlir
//
// LOWERED-NOT:  linalg.generic
// LOWERED-NOT:  q8.dequantize
// LOWERED:      spatial.view "q8_view_
// LOWERED-NOT:  linalg.generic
// LOWERED:      spatial.fold "q8_ge
// LOWERED-NOT:  q8.dequantize
// LOWERED-NOT:  linalg.matmul
// LOWERED-NOT:  linalg.generic
//
// KN:      func.func @kn_floordiv(%x: tensor<1x256xbf16>, %W: tensor<256x128xi8>, %W_scale: tensor<8x128xf16>)
// KN:        spatial.fold "q8_gemv_256x128_w4"
// KN:          ins(%x__q8_rows0, %W, %W_scale : tensor<8x32xbf16>, tensor<256x128xi8>, tensor<8x128xf16>)
// KN:          spatial.tensor "W__q8" external(%{{.*}} : tensor<256x128xi8>) repack <q8_0.values>
// KN:          spatial.tensor "W__q8_scale" external(%{{.*}} : tensor<8x128xf16>) repack <q8_0.scales>
//
// NK:      %[[Q:W__q8]] = linalg.transpose ins(%W:tensor<128x256xi8>)
// NK:      %[[S:W__q8_scale]] = linalg.transpose ins(%W_scale:tensor<128x8xf32>)
// NK:      spatial.fold "q8_gemm_4x256x128_w4"
// NK:        ins(%x__q8_rows0, %[[Q]], %[[S]] : tensor<128x32xbf16>, tensor<256x128xi8>, tensor<8x128xf32>)
// NK:        spatial.tensor "W__q8" external({{.*}}) repack <q8_0.values from "NxK">
// NK:        spatial.tensor "W__q8_scale" external({{.*}}) repack <q8_0.scales from "NxK">
//
// NKT:     linalg.transpose ins(%W:tensor<96x256xi8>)
// NKT:     linalg.transpose ins(%W_scale:tensor<96x8xbf16>)
// NKT:     spatial.fold "q8_gemm_2x256x96_w3"
// NKT:       numerics approx "a Q8_0 product over 2 bf16 rows; the source rounds its weight to bf16, the fold multiplies q * s exactly"
//
// GROUPED: tensor.collapse_shape %arg0 {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<128x8x32xi8> into tensor<128x256xi8>
// GROUPED: tensor.collapse_shape %arg2 {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<128x8x1xf32> into tensor<128x8xf32>
// GROUPED: %[[X:.*]] = tensor.collapse_shape %arg1 {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : tensor<1x1x8x32xf32> into tensor<1x256xf32>
// GROUPED: %[[XB:.*]] = arith.truncf %[[X]] : tensor<1x256xf32> to tensor<1x256xbf16>
// GROUPED: spatial.view "q8_view_1x256_from0"
// GROUPED: ins(%[[XB]] : tensor<1x256xbf16>)
// GROUPED: %[[Y:.*]] = spatial.fold "q8_gemv_256x128_w4"
// GROUPED: %[[R:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 1, 128] : tensor<1x128xf32> into tensor<1x1x128xf32>
// GROUPED: func.return %[[R]] : tensor<1x1x128xf32>
//
// The non-Q8_0 variants, untouched:
// RUN: spatial-opt %S/../../examples/frontends/kn_floordiv_group64.mlir -o %t.g64.before.mlir
// RUN: spatial-opt -p q8-lower %S/../../examples/frontends/kn_floordiv_group64.mlir -o %t.g64.after.mlir
// RUN: diff %t.g64.before.mlir %t.g64.after.mlir
// RUN: spatial-opt %S/../../examples/frontends/nk_linear_zero_point.mlir -o %t.zp.before.mlir
// RUN: spatial-opt -p q8-lower %S/../../examples/frontends/nk_linear_zero_point.mlir -o %t.zp.after.mlir
// RUN: diff %t.zp.before.mlir %t.zp.after.mlir
// RUN: spatial-opt %S/../../examples/frontends/grouped_iree_unsigned.mlir -o %t.u.before.mlir
// RUN: spatial-opt -p q8-lower %S/../../examples/frontends/grouped_iree_unsigned.mlir -o %t.u.after.mlir
// RUN: diff %t.u.before.mlir %t.u.after.mlir
// RUN: spatial-opt -p 'q8-lower{report=true}' %S/../../examples/frontends/kn_floordiv_group64.mlir 2>&1 >/dev/null | filecheck %s --check-prefix=G64
// RUN: spatial-opt -p 'q8-lower{report=true}' %S/../../examples/frontends/nk_linear_zero_point.mlir 2>&1 >/dev/null | filecheck %s --check-prefix=ZP
// RUN: spatial-opt -p 'q8-lower{report=true}' %S/../../examples/frontends/grouped_iree_unsigned.mlir 2>&1 >/dev/null | filecheck %s --check-prefix=UNSIGNED
//
// G64:      q8-raise: linalg.matmul %y: not raised: the weight's dequantization (linalg.generic %w) is not Q8_0: one scale per 64 values along K (floordiv 64); Q8_0's block is 32
// G64-NEXT: q8-lower: linalg.matmul %y: not lowered: the weight is not a q8.dequantize
// ZP:       q8-raise: linalg.generic %y: not raised: the weight's dequantization (linalg.generic %w) is not Q8_0: the values are offset by a zero point (arith.subf); Q8_0 has none
// UNSIGNED: q8-raise: linalg.generic #0: not raised: the weight's dequantization is not Q8_0: the values are read as unsigned (arith.extui, arith.uitofp); Q8_0 values are signed int8
//
// Every example runs before and after q8-lower (the numbers: tests/test_q8_raise.py).
// RUN: spatial-run %S/../../examples/frontends/grouped_iree_unsigned.mlir --seed 0 --compare | filecheck %s --check-prefix=COMPARE
// RUN: spatial-run %S/../../examples/frontends/grouped_iree.mlir --seed 0 --compare | filecheck %s --check-prefix=COMPARE
// RUN: spatial-run %S/../../examples/frontends/nk_linear.mlir --seed 0 --compare | filecheck %s --check-prefix=COMPARE
// COMPARE-NOT: Traceback
// COMPARE: res0: max |before - after| =
