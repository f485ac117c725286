// RUN: xdsl-opt %s --split-input-file --parsing-diagnostics | filecheck %s
// RUN: xdsl-opt %s --split-input-file --parsing-diagnostics | filecheck %s --check-prefix=ALL

// Malformed custom syntax: parse errors, not verifier errors. One a case, in order;
// a case that parsed would print its module:
// ALL-NOT: builtin.module

// A source layout is one of the enum's (`#q8<source "NxK">`), as a string or a bare word.
// CHECK: source must be one of "KxN", "NxK", "NxGx32", got "KxM"
func.func @source_unknown(%q: tensor<64x96xi8>, %s: tensor<2x96xf16>) {
  %w = q8.dequantize %q, %s source "KxM" : tensor<64x96xi8>, tensor<2x96xf16> -> tensor<64x96xf32>
  func.return
}

// -----

// CHECK: source must be one of "KxN", "NxK", "NxGx32", got "NxM"
func.func @source_unknown_word(%q: tensor<64x96xi8>, %s: tensor<2x96xf16>) {
  %w = q8.dequantize %q, %s source NxM : tensor<64x96xi8>, tensor<2x96xf16> -> tensor<64x96xf32>
  func.return
}
