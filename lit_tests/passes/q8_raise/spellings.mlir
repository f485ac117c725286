// The spellings of a weight-only Q8_0 linear a PyTorch user writes, as torch-mlir
// exports them (examples/torch/spell_*, made by examples/torch/export.py): each raised
// to a q8.dequantize of the int8 values and the scales as stored, the chain of
// generics gone; the ones that are not Q8_0 left as they were, with the reason.
//
// RUN: xdsl-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_repeat_interleave.mlir 2>&1 | filecheck %s --check-prefixes=RI,GONE
// RUN: xdsl-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_bias.mlir 2>&1 | filecheck %s --check-prefixes=BIAS,GONE
// RUN: xdsl-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_view_t.mlir 2>&1 | filecheck %s --check-prefixes=VIEW,GONE
// RUN: xdsl-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_preblocked.mlir 2>&1 | filecheck %s --check-prefixes=BLOCKED,GONE
// RUN: xdsl-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_bf16_scales.mlir 2>&1 | filecheck %s --check-prefixes=BF16S,GONE
// RUN: xdsl-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_f32_scales.mlir 2>&1 | filecheck %s --check-prefixes=F32S,GONE
// RUN: xdsl-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_torchao_intx.mlir 2>&1 | filecheck %s --check-prefixes=INTX,GONE
// RUN: xdsl-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_torchao_int8.mlir 2>&1 | filecheck %s --check-prefixes=INT8,GONE
// RUN: xdsl-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_torchao_intx_f16_scales.mlir 2>&1 | filecheck %s --check-prefixes=INTX16,GONE
// RUN: spatial-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/spell_torchao_bf16.mlir 2>&1 | filecheck %s --check-prefixes=AOBF16,GONE
// The bf16 model multiplies bf16 by bf16 into f32 (MLIR's mixed-precision matmul): spatial-opt reads it, stock xdsl-opt does not.
// RUN: xdsl-opt -p 'q8-lower{report=true}' %S/../../../examples/torch/not_q8_f16_dequant.mlir 2>&1 | filecheck %s --check-prefixes=F16,KEPT
// RUN: xdsl-opt -p 'q8-lower{report=true}' %S/../../../examples/torch/not_q8_zero_point_arg.mlir 2>&1 | filecheck %s --check-prefixes=ZPARG,KEPT

// repeat_interleave: the broadcast of each scale over its 32 values and the collapse
// to N x K are composed into one scale per block.
// RI:          q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x128 i8 (NxK), f16 scales 64x4
// RI-LABEL:    func.func @main(%arg0: tensor<2x128xf32>, %arg1: tensor<64x128xi8>, %arg2: tensor<64x4xf16>)
// RI-NEXT:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// RI-NEXT:       %[[E0:.*]] = tensor.empty() : tensor<128x64xi8>
// RI-NEXT:       %[[Q:.*]] = linalg.transpose ins(%arg1:tensor<64x128xi8>) outs(%[[E0]]:tensor<128x64xi8>) permutation = [1, 0]
// RI-NEXT:       %[[E1:.*]] = tensor.empty() : tensor<4x64xf16>
// RI-NEXT:       %[[S:.*]] = linalg.transpose ins(%arg2:tensor<64x4xf16>) outs(%[[E1]]:tensor<4x64xf16>) permutation = [1, 0]
// RI-NEXT:       %[[W:.*]] = q8.dequantize %[[Q]], %[[S]] source "NxK" : tensor<128x64xi8>, tensor<4x64xf16> -> tensor<128x64xf32>
// RI-NEXT:       %[[E2:.*]] = tensor.empty() : tensor<2x64xf32>
// RI-NEXT:       %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<2x64xf32>) -> tensor<2x64xf32>
// RI-NEXT:       %[[Y:.*]] = linalg.matmul ins(%arg0, %[[W]] : tensor<2x128xf32>, tensor<128x64xf32>) outs(%[[ACC]] : tensor<2x64xf32>) -> tensor<2x64xf32>
// RI-NEXT:       func.return %[[Y]] : tensor<2x64xf32>

// BIAS:        q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x128 i8 (NxK), f16 scales 64x4
// BIAS:        %[[W:.*]] = q8.dequantize
// BIAS:        %[[Y:.*]] = linalg.matmul ins(%arg0, %[[W]]
// BIAS-NEXT:   linalg.generic {{.*}} ins(%[[Y]], %arg3 : tensor<2x64xf32>, tensor<64xf32>)
// BIAS-NEXT:   ^{{.*}}(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// BIAS-NEXT:     arith.addf

// VIEW:        q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x128 i8 (NxK), f16 scales 64x4
// BLOCKED:     q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x4x32 i8 (NxGx32), f16 scales 64x4x1
// BF16S:       q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x128 i8 (NxK), bf16 scales 64x4
// F32S:        q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x128 i8 (NxK), f32 scales 64x4

// torchao: its zero point of zeros (a constant, read) is no offset; the weight is a
// constant, so the raise lays it out K x N itself.
// INTX:        q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x128 i8 (NxK), f32 scales 64x4
// INTX-LABEL:  func.func @main(%arg0: tensor<2x128xf32>)
// INTX:          %[[Q:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<128x64xi8>
// INTX-NEXT:     %[[S:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<4x64xf32>
// INTX-NEXT:     %[[W:.*]] = q8.dequantize %[[Q]], %[[S]] : tensor<128x64xi8>, tensor<4x64xf32> -> tensor<128x64xf32>
// INT8:        q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x128 i8 (NxK), f32 scales 64x4
// torchao with f16 scales: torch-mlir widens the scale inside the multiply's body.
// INTX16:      q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x128 i8 (NxK), f16 scales 64x4
// AOBF16:      q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 2x128x64; values 64x128 i8 (NxK), bf16 scales 64x4; dequantised to bf16
// GONE-NOT:    arith.sitofp
// GONE-NOT:    arith.subf
// GONE-NOT:    linalg.transpose ins(%{{.*}}:tensor<64x128xf32>)

// F16:         q8-raise: linalg.matmul #0: not raised: it dequantises in f16: each weight q*s is rounded to f16, where Q8_0 multiplies the exact q*s (widen the values and the scales to f32 before the multiply)
// ZPARG:       q8-raise: linalg.matmul #0: not raised: the values are offset by a zero point (arith.subf) that is a function argument; Q8_0 has none, and only a constant zero point can be proven all zeros
// KEPT:        q8-lower: linalg.matmul #0: not lowered: the weight is not a q8.dequantize
// KEPT-NOT:    q8.dequantize
// KEPT-NOT:    spatial.
