// RUN: spatial-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: spatial-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALL

// One verifier error a case, in order: a prefetch names one index per dimension, and a
// locality from 0 to 3. A case that verified would print its module, so ALL checks
// that every case failed.
// ALL-NOT: {{^}}builtin.module

func.func @rank(%w: memref<64x64xi8>, %i: index) {
  memref.prefetch %w[%i], read, locality<2>, data : memref<64x64xi8>
  func.return
}
// CHECK: prefetch of a rank-2 memref takes as many indices, got 1

// -----

func.func @locality(%w: memref<64x64xi8>, %i: index) {
  memref.prefetch %w[%i, %i], read, locality<4>, data : memref<64x64xi8>
  func.return
}
// CHECK: prefetch locality is an i32 from 0 to 3, got 4 : i32
