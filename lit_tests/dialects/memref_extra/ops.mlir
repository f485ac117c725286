// RUN: spatial-opt %s | spatial-opt | filecheck %s
// RUN: spatial-opt %s --print-op-generic | spatial-opt | filecheck %s
// RUN: spatial-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The prefetch hint convert-spatial-to-linalg emits for stages marked kernel = "stream",
// in MLIR's syntax for upstream's memref dialect.

// CHECK-LABEL: func.func @prefetch
// CHECK-NEXT:    memref.prefetch %{{.*}}[%{{.*}}, %{{.*}}], read, locality<2>, data : memref<64x64xi8>
// CHECK-NEXT:    memref.prefetch %{{.*}}[%{{.*}}, %{{.*}}], write, locality<0>, instr : memref<64x64xi8>

// GENERIC:       "memref.prefetch"(%{{.*}}, %{{.*}}, %{{.*}}) <{isWrite = false, localityHint = 2 : i32, isDataCache = true}> : (memref<64x64xi8>, index, index) -> ()
func.func @prefetch(%w: memref<64x64xi8>, %i: index) {
  memref.prefetch %w[%i, %i], read, locality<2>, data : memref<64x64xi8>
  memref.prefetch %w[%i, %i], write, locality<0>, instr : memref<64x64xi8>
  func.return
}
