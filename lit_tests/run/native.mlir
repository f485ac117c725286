// The native engine on the bundled GEMV: the converted module is upstream MLIR that
// torch-mlir-opt reads (it registers no bufferization dialect, so it reads the
// generic form with unregistered ops allowed; the engine's bindings register every
// dialect and verify all of it), and spatial-run --engine native gives the compiled
// engine's bytes and, on these integer-valued inputs, its bits.
// REQUIRES: native
// RUN: spatial-opt -p 'q8-lower,convert-spatial-to-linalg,convert-q8-to-linalg' --print-op-generic %S/../../examples/gemv_q8.mlir > %t.generic.mlir
// RUN: torch-mlir-opt --allow-unregistered-dialect %t.generic.mlir | filecheck %s --check-prefix=UPSTREAM
// RUN: env XDSL_SPATIAL_CACHE=%t.cache spatial-run %S/../../examples/gemv_q8.mlir -p q8-lower --seed 0 --engine native --stats | filecheck %s
// RUN: env XDSL_SPATIAL_CACHE=%t.cache spatial-run %S/../../examples/gemv_q8.mlir -p q8-lower --seed 0 --engine native --outputs %t.native.npz
// RUN: spatial-run %S/../../examples/gemv_q8.mlir -p q8-lower --seed 0 --outputs %t.compiled.npz
// RUN: %python -c "import numpy as np, sys; a, b = np.load(sys.argv[1]), np.load(sys.argv[2]); y, z = a['res0'], b['res0']; assert np.abs(y - z).max() <= 1e-5 * np.abs(z).max(), np.abs(y - z).max(); print('agree')" %t.native.npz %t.compiled.npz | filecheck %s --check-prefix=AGREE

// UPSTREAM: func.func @gemv(
// UPSTREAM-NOT: spatial.
// UPSTREAM-NOT: q8.
// UPSTREAM: "bufferization.to_buffer"
// UPSTREAM: memref.alloca() : memref<2x32x8192xi8>
// UPSTREAM: linalg.generic

// CHECK: res0: 1x4096 float32
// CHECK: q8_gemv_2048x4096_w8  W__q8                                                      8,388,608         0
// CHECK: q8_gemv_2048x4096_w8  total (16 items, local memory 757,760 B, 1.1328 B/weight)  9,502,720   524,288

// AGREE: agree
