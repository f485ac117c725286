// RUN: spatial-opt %s | spatial-opt | filecheck %s
// RUN: spatial-opt %s --print-op-generic | spatial-opt | filecheck %s
// RUN: spatial-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// AVX512-BF16's dot product, which convert-spatial-to-linalg emits for stages marked
// kernel = "dot", in MLIR's syntax for upstream's x86 dialect: 16 f32 lanes, each plus
// the two products of its pair of bf16 activations and weights (and the 256-bit form).

// CHECK-LABEL: func.func @dot
// CHECK-NEXT:    %[[D:.*]] = x86.avx512.dot %{{.*}}, %{{.*}}, %{{.*}} : vector<32xbf16> -> vector<16xf32>
// CHECK-NEXT:    %{{.*}} = x86.avx512.dot %{{.*}}, %{{.*}}, %{{.*}} : vector<16xbf16> -> vector<8xf32>
// CHECK-NEXT:    func.return %[[D]] : vector<16xf32>

// GENERIC:       "x86.avx512.dot"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
// GENERIC-NEXT:  "x86.avx512.dot"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<8xf32>, vector<16xbf16>, vector<16xbf16>) -> vector<8xf32>
func.func @dot(%acc: vector<16xf32>, %x: vector<32xbf16>, %w: vector<32xbf16>, %acc8: vector<8xf32>, %x8: vector<16xbf16>) -> vector<16xf32> {
  %d = x86.avx512.dot %acc, %x, %w : vector<32xbf16> -> vector<16xf32>
  %e = x86.avx512.dot %acc8, %x8, %x8 : vector<16xbf16> -> vector<8xf32>
  func.return %d : vector<16xf32>
}
