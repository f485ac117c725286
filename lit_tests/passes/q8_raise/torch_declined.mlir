// torch-mlir's exports of int8 linears that are not Q8_0 (examples/torch/not_q8_*):
// q8-raise leaves each as it was, with the reason, and q8-lower lowers nothing.
//
// RUN: xdsl-opt -p 'q8-lower{report=true}' %S/../../../examples/torch/not_q8_per_row.mlir 2>&1 | filecheck %s --check-prefixes=PER_ROW,KEPT
// RUN: xdsl-opt -p 'q8-lower{report=true}' %S/../../../examples/torch/not_q8_group64.mlir 2>&1 | filecheck %s --check-prefixes=GROUP64,KEPT
// RUN: xdsl-opt -p 'q8-lower{report=true}' %S/../../../examples/torch/not_q8_group16.mlir 2>&1 | filecheck %s --check-prefixes=GROUP16,KEPT
// RUN: xdsl-opt -p 'q8-lower{report=true}' %S/../../../examples/torch/not_q8_zero_point.mlir 2>&1 | filecheck %s --check-prefixes=ZERO,KEPT
// RUN: xdsl-opt -p 'q8-lower{report=true}' %S/../../../examples/torch/not_q8_unsigned.mlir 2>&1 | filecheck %s --check-prefixes=UNSIGNED,KEPT
// RUN: xdsl-opt -p 'q8-lower{report=true}' %S/../../../examples/torch/not_q8_per_element.mlir 2>&1 | filecheck %s --check-prefixes=PER_ELEMENT,KEPT
// The module after q8-lower is the module before it:
// RUN: xdsl-opt %S/../../../examples/torch/not_q8_zero_point.mlir -o %t.before.mlir
// RUN: xdsl-opt -p q8-lower %S/../../../examples/torch/not_q8_zero_point.mlir -o %t.after.mlir
// RUN: diff %t.before.mlir %t.after.mlir

// PER_ROW:     q8-raise: linalg.matmul #0: not raised: one scale per column (per-channel), not one per 32 values along K
// GROUP64:     q8-raise: linalg.matmul #0: not raised: one scale per group of 64 values along K; Q8_0's block is 32
// GROUP16:     q8-raise: linalg.matmul #0: not raised: one scale per group of 16 values along K; Q8_0's block is 32
// ZERO:        q8-raise: linalg.matmul #0: not raised: the values are offset by a zero point (arith.subf); Q8_0 has none
// UNSIGNED:    q8-raise: linalg.matmul #0: not raised: the values are read as unsigned (arith.uitofp); Q8_0 values are signed int8
// PER_ELEMENT: q8-raise: linalg.matmul #0: not raised: one scale per weight element (the scales have the weight's shape), not one per 32 values along K
// KEPT:        q8-lower: linalg.matmul #0: not lowered: the weight is not a q8.dequantize
// KEPT-NOT:    q8.dequantize
// KEPT-NOT:    spatial.
// KEPT:        linalg.matmul
