// torch-mlir's exports of weight-only Q8_0 linears written in PyTorch
// (examples/torch/, made by examples/torch/export.py): the chain of sitofp and extf
// generics, the broadcasting mulf, the reshapes and the transpose is raised to a
// q8.dequantize of the int8 values and the f16 scales as PyTorch stores them (N x K),
// and q8-lower leaves nothing of it; the non-Q8_0 ones are declined with the reason.
//
// RUN: spatial-opt -p 'q8-raise{report=true}' %S/../../../examples/torch/linear_args.mlir 2>&1 | filecheck %s --check-prefix=ARGS
// RUN: spatial-opt -p 'q8-raise' %S/../../../examples/torch/linear_const.mlir | filecheck %s --check-prefix=CONST
// RUN: spatial-opt -p 'q8-raise' %S/../../../examples/torch/linear_bmm.mlir | filecheck %s --check-prefix=BMM
// RUN: spatial-opt -p 'q8-lower' %S/../../../examples/torch/linear_args.mlir | filecheck %s --check-prefix=LOWERED
// RUN: spatial-opt -p 'q8-lower' %S/../../../examples/torch/linear_args_batch.mlir | filecheck %s --check-prefix=LOWERED
// RUN: spatial-opt -p 'q8-lower' %S/../../../examples/torch/linear_args_3d.mlir | filecheck %s --check-prefix=LOWERED
// RUN: spatial-opt -p 'q8-lower' %S/../../../examples/torch/linear_bmm.mlir | filecheck %s --check-prefix=LOWERED
// RUN: spatial-opt -p 'q8-lower' %S/../../../examples/torch/linear_const.mlir | filecheck %s --check-prefixes=LOWERED,LOWCONST
// RUN: spatial-opt -p 'q8-lower' %S/../../../examples/torch/linear_const_batch.mlir | filecheck %s --check-prefixes=LOWERED,LOWCONST
// RUN: spatial-opt -p 'q8-lower{report=true}' %S/../../../examples/torch/swiglu.mlir 2>&1 | filecheck %s --check-prefix=SWIGLU
// spatial-opt reads them too (its parser makes each dense_resource a dense constant):
// RUN: spatial-opt -p q8-lower %S/../../../examples/torch/linear_const.mlir | filecheck %s --check-prefixes=LOWERED,LOWCONST
// Lowering again changes nothing:
// RUN: spatial-opt -p q8-lower %S/../../../examples/torch/linear_args.mlir -o %t.args.mlir
// RUN: spatial-opt -p q8-lower %t.args.mlir | diff - %t.args.mlir

// ARGS: q8-raise: linalg.matmul #0: raised to linalg.matmul over q8.dequantize: 1x2048x1024; values 1024x2048 i8 (NxK), f16 scales 1024x64
// ARGS-LABEL: func.func @main
// ARGS-SAME:    (%[[X:.*]]: tensor<1x2048xf32>, %[[Q:.*]]: tensor<1024x2048xi8>, %[[S:.*]]: tensor<1024x64xf16>)
// ARGS-NOT:     linalg.generic
// ARGS:         %[[QT:.*]] = linalg.transpose ins(%[[Q]]:tensor<1024x2048xi8>) outs(%{{.*}}:tensor<2048x1024xi8>) permutation = [1, 0]
// ARGS:         %[[ST:.*]] = linalg.transpose ins(%[[S]]:tensor<1024x64xf16>) outs(%{{.*}}:tensor<64x1024xf16>) permutation = [1, 0]
// ARGS-NEXT:    %[[W:.*]] = q8.dequantize %[[QT]], %[[ST]] source "NxK" : tensor<2048x1024xi8>, tensor<64x1024xf16> -> tensor<2048x1024xf32>
// ARGS:         linalg.matmul ins(%[[X]], %[[W]] : tensor<1x2048xf32>, tensor<2048x1024xf32>)
// ARGS-NOT:     linalg.generic
// ARGS-NOT:     tensor.expand_shape
// ARGS-NOT:     tensor.collapse_shape

// A buffer, exported as dense_resource, becomes K x N dense constants at raise time:
// CONST-LABEL: func.func @main
// CONST-NOT:     dense_resource
// CONST:         %[[Q:.*]] = arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<256x128xi8>
// CONST-NEXT:    %[[S:.*]] = arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<8x128xf16>
// CONST-NEXT:    %[[W:.*]] = q8.dequantize %[[Q]], %[[S]] : tensor<256x128xi8>, tensor<8x128xf16> -> tensor<256x128xf32>
// CONST-NOT:     linalg.transpose
// CONST-NOT:     dense_resource

// torch.bmm over a batch of one: linalg.batch_matmul becomes a matmul of the rows.
// BMM-LABEL: func.func @main
// BMM:         %[[W:.*]] = q8.dequantize %{{.*}}, %{{.*}} source "NxK"
// BMM-NEXT:    %[[X:.*]] = tensor.collapse_shape %arg0 {{.*}} : tensor<1x4x2048xf32> into tensor<4x2048xf32>
// BMM:         %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x2048xf32>, tensor<2048x1024xf32>)
// BMM-NEXT:    %[[Y3:.*]] = tensor.expand_shape %[[Y]] {{.*}} output_shape [1, 4, 1024] : tensor<4x1024xf32> into tensor<1x4x1024xf32>
// BMM-NEXT:    func.return %[[Y3]]
// BMM-NOT:     linalg.batch_matmul

// LOWERED-LABEL: func.func @main
// LOWERED-NOT:   linalg.generic
// LOWERED:       spatial.view "q8_view_
// LOWERED:       spatial.fold "q8_ge
// LOWERED-NOT:   q8.dequantize
// LOWERED-NOT:   linalg.matmul
// LOWERED-NOT:   linalg.batch_matmul
// LOWERED-NOT:   linalg.generic
// LOWERED-NOT:   linalg.transpose

// The constants' exact values and scales are the fold's params:
// LOWCONST:      spatial.tensor "cst__q8" values dense<"0x{{[0-9A-F]+}}"> : tensor<256x128xi8> repack <q8_0.values> : !spatial.tensor<256x128xi8, param>
// LOWCONST-NEXT: spatial.tensor "cst__q8_scale" values dense<"0x{{[0-9A-F]+}}"> : tensor<8x128xf16> repack <q8_0.scales> : !spatial.tensor<8x128xf16, param>

// A SwiGLU MLP: gate and up read one bf16 activation, so one view serves both folds.
// SWIGLU-COUNT-3: q8-raise: linalg.matmul #{{[0-2]}}: raised
// SWIGLU-COUNT-3: q8-lower: linalg.matmul #{{[0-2]}} {{.*}}: lowered
// SWIGLU:         %[[V:.*]] = spatial.view "q8_view_2x256_from0"
// SWIGLU-NOT:     spatial.view
// SWIGLU:         spatial.fold "q8_gemm_2x256x512_w8"
// SWIGLU:           ins(%[[V]], %arg1__q8, %arg1__q8_scale :
// SWIGLU-NOT:     spatial.view
// SWIGLU:         spatial.fold "q8_gemm_2x256x512_w8"
// SWIGLU:           ins(%[[V]], %arg3__q8, %arg3__q8_scale :
// SWIGLU:         %[[V2:.*]] = spatial.view "q8_view_2x512_from0"
// SWIGLU:         spatial.fold "q8_gemm_2x512x256_w8"
// SWIGLU:           ins(%[[V2]], %arg5__q8, %arg5__q8_scale :
