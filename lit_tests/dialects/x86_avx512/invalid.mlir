// RUN: spatial-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: spatial-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALL

// One verifier error a case, in order. A case that verified would print its module
// in the custom form, so ALL checks that every case failed.
// ALL-NOT: {{^}}builtin.module

func.func @four_lanes(%acc: vector<4xf32>, %x: vector<8xbf16>) {
  %d = x86.avx512.dot %acc, %x, %x : vector<8xbf16> -> vector<4xf32>
  func.return
}
// CHECK: dot accumulates into vector<8xf32> or vector<16xf32>, got vector<4xf32>

// -----

func.func @f16_pairs(%acc: vector<16xf32>, %x: vector<32xf16>) {
  %d = x86.avx512.dot %acc, %x, %x : vector<32xf16> -> vector<16xf32>
  func.return
}
// CHECK: dot of vector<16xf32> multiplies vector<32xbf16> pairs, got vector<32xf16>

// -----

func.func @too_few_pairs(%acc: vector<16xf32>, %x: vector<16xbf16>) {
  %d = x86.avx512.dot %acc, %x, %x : vector<16xbf16> -> vector<16xf32>
  func.return
}
// CHECK: dot of vector<16xf32> multiplies vector<32xbf16> pairs, got vector<16xbf16>

// -----

func.func @f64_sums(%acc: vector<16xf64>, %x: vector<32xbf16>) {
  %d = x86.avx512.dot %acc, %x, %x : vector<32xbf16> -> vector<16xf64>
  func.return
}
// CHECK: dot accumulates into vector<8xf32> or vector<16xf32>, got vector<16xf64>
