// The bundled examples do what their comments say.
//
// The input lowers to the bundled view and fold, which print back to the same text.
// RUN: xdsl-opt -p q8-lower %S/../../examples/gemv_q8.mlir > %t.lowered.mlir
// RUN: xdsl-opt %S/../../examples/gemv_q8_lowered.mlir > %t.bundled.mlir
// RUN: diff %t.lowered.mlir %t.bundled.mlir
// RUN: xdsl-opt %t.bundled.mlir | diff - %t.bundled.mlir
// RUN: xdsl-opt %t.bundled.mlir --print-op-generic | xdsl-opt | diff - %t.bundled.mlir
//
// The tensor-parallel examples lower to a view and a fold per chip, gathered or added.
// RUN: xdsl-opt -p q8-lower %S/../../examples/tensor_parallel_n4.mlir | filecheck %s --check-prefix=N4
// RUN: xdsl-opt -p q8-lower %S/../../examples/tensor_parallel_k2.mlir | filecheck %s --check-prefix=K2
//
// Each bad example gets its diagnostic, in MLIR's FILE:LINE:COL: error: MESSAGE shape
// with the op as written, and exit code 1.
// RUN: not spatial-opt %S/../../examples/bad/scales_rows.mlir 2>&1 | filecheck %s --check-prefix=SCALES
// RUN: not spatial-opt %S/../../examples/bad/buffers_beyond_local_memory.mlir 2>&1 | filecheck %s --check-prefix=MEMORY
// RUN: not spatial-opt %S/../../examples/bad/load_outside_its_tensor.mlir 2>&1 | filecheck %s --check-prefix=OUTSIDE
// RUN: not spatial-opt %S/../../examples/bad/overlapping_items.mlir 2>&1 | filecheck %s --check-prefix=OVERLAP
// RUN: not spatial-opt %S/../../examples/bad/unwritten_output_tiles.mlir 2>&1 | filecheck %s --check-prefix=UNWRITTEN
// RUN: not spatial-opt -p q8-lower %S/../../examples/bad/inexact_weight.mlir 2>&1 | filecheck %s --check-prefix=INEXACT

// SCALES:      {{.*}}bad/scales_rows.mlir:6:3: error: 'q8.dequantize' op scales must have K/32 = 64 rows, got 65
// SCALES-NEXT:   %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<65x4096xf32> -> tensor<2048x4096xf32>
// SCALES-NOT:  Traceback

// MEMORY:      {{.*}}bad/buffers_beyond_local_memory.mlir:7:3: error: 'spatial.fold' op buffers need 757760 bytes of local memory but a site has 524288 (in_x 4096, in_q8 524288, in_scale 65536, run_sum 65536, block 32768, out 65536)
// MEMORY-NEXT:   %y = spatial.fold "q8_gemv_1024x512_w8" grid [2]

// OUTSIDE:     {{.*}}bad/load_outside_its_tensor.mlir:28:7: error: 'spatial.load' op load block 32x8 at tile 9 (row 0 starts at tile 9) runs outside tensor 'W__q8' (32x16 tiles) for item 1
// OUTSIDE-NEXT:  %p_in_q8 = spatial.load %q[%kb * 512 + %item * 8 + 1] block 32x8

// OVERLAP:     {{.*}}bad/overlapping_items.mlir:7:3: error: 'spatial.fold' op items 0 and 1 both write tile (0, 4) of 'y'

// UNWRITTEN:   {{.*}}bad/unwritten_output_tiles.mlir:7:3: error: 'spatial.fold' op tile (0, 8) of output 'y' is written by no item (8 of 16 tiles unwritten)

// INEXACT:     {{.*}}bad/inexact_weight.mlir:13:3: error: 'linalg.matmul' op q8-lower: weight 'W' (q8.quantize of a constant) is not exact Q8_0, so it cannot be stored as int8 values and scales: block K-rows 0..31 of column 0: its scale max|w|/127 = 0.011811023622047244 is not representable in float32
// INEXACT-NEXT:  %y = linalg.matmul ins(%x, %w : tensor<1x1024xbf16>, tensor<1024x256xbf16>)

// N4:      %x__q8_rows0_c0 = spatial.view "q8_view_1x2048_from0_c0" chip 0
// N4:      %x__q8_rows0_c1 = spatial.view "q8_view_1x2048_from0_c1" chip 1
// N4:      %x__q8_rows0_c2 = spatial.view "q8_view_1x2048_from0_c2" chip 2
// N4:      %x__q8_rows0_c3 = spatial.view "q8_view_1x2048_from0_c3" chip 3
// N4:      %y_c0 = spatial.fold "q8_gemv_2048x1024_w8_c0" chip 0
// N4:      %y_c1 = spatial.fold "q8_gemv_2048x1024_w8_c1" chip 1
// N4:      %y_c2 = spatial.fold "q8_gemv_2048x1024_w8_c2" chip 2
// N4:      %y_c3 = spatial.fold "q8_gemv_2048x1024_w8_c3" chip 3
// N4:      %y = tensor.concat dim(1) %y_c0, %y_c1, %y_c2, %y_c3

// K2:      %x__q8_rows0_c0 = spatial.view "q8_view_1x1024_from0_c0" chip 0
// K2:      %x__q8_rows0_c1 = spatial.view "q8_view_1x1024_from0_c1" chip 1
// K2:      %y_c0 = spatial.fold "q8_gemv_1024x4096_w8_c0" chip 0
// K2:      %y_c1 = spatial.fold "q8_gemv_1024x4096_w8_c1" chip 1
// K2:      %y = arith.addf %y_c0, %y_c1 : tensor<1x4096xf32>
