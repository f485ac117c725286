// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// A Q8_0 weight of K = 64 rows (two blocks of 32) and N = 96 columns: int8 values
// and one scale per block and column, f32 as the chip stores it or f16 as GGML does.

// CHECK-LABEL: func.func @dequantize
// CHECK-SAME:    (%[[Q:.*]]: tensor<64x96xi8>, %[[S:.*]]: tensor<2x96xf32>, %[[H:.*]]: tensor<2x96xf16>)
// CHECK-NEXT:    %[[W:.*]] = q8.dequantize %[[Q]], %[[S]] : tensor<64x96xi8>, tensor<2x96xf32> -> tensor<64x96xf32>
// CHECK-NEXT:    %[[WB:.*]] = q8.dequantize %[[Q]], %[[H]] : tensor<64x96xi8>, tensor<2x96xf16> -> tensor<64x96xbf16>
// CHECK-NEXT:    func.return %[[W]], %[[WB]] : tensor<64x96xf32>, tensor<64x96xbf16>

// GENERIC-LABEL: "func.func"() <{sym_name = "dequantize"
// GENERIC:         "q8.dequantize"(%{{.*}}, %{{.*}}) : (tensor<64x96xi8>, tensor<2x96xf32>) -> tensor<64x96xf32>
// GENERIC-NEXT:    "q8.dequantize"(%{{.*}}, %{{.*}}) : (tensor<64x96xi8>, tensor<2x96xf16>) -> tensor<64x96xbf16>
func.func @dequantize(%q: tensor<64x96xi8>, %s: tensor<2x96xf32>, %h: tensor<2x96xf16>) -> (tensor<64x96xf32>, tensor<64x96xbf16>) {
  %w = q8.dequantize %q, %s : tensor<64x96xi8>, tensor<2x96xf32> -> tensor<64x96xf32>
  %wb = q8.dequantize %q, %h : tensor<64x96xi8>, tensor<2x96xf16> -> tensor<64x96xbf16>
  func.return %w, %wb : tensor<64x96xf32>, tensor<64x96xbf16>
}

// A weight a frontend stored N x K, with bf16 scales: its operands are the K x N
// transposes, and the op names the layout they came from.
// CHECK-LABEL: func.func @dequantize_source
// CHECK-NEXT:    q8.dequantize %{{.*}}, %{{.*}} source "NxK" : tensor<64x96xi8>, tensor<2x96xbf16> -> tensor<64x96xf32>
// GENERIC-LABEL: "func.func"() <{sym_name = "dequantize_source"
// GENERIC:         "q8.dequantize"(%{{.*}}, %{{.*}}) <{source = #q8<source "NxK">}> : (tensor<64x96xi8>, tensor<2x96xbf16>) -> tensor<64x96xf32>
func.func @dequantize_source(%q: tensor<64x96xi8>, %s: tensor<2x96xbf16>) -> tensor<64x96xf32> {
  %w = q8.dequantize %q, %s source "NxK" : tensor<64x96xi8>, tensor<2x96xbf16> -> tensor<64x96xf32>
  func.return %w : tensor<64x96xf32>
}

// CHECK-LABEL: func.func @quantize
// CHECK-SAME:    (%[[W:.*]]: tensor<64x96xf32>, %[[WB:.*]]: tensor<64x96xbf16>)
// CHECK-NEXT:    %{{.*}}, %{{.*}} = q8.quantize %[[W]] : tensor<64x96xf32> -> tensor<64x96xi8>, tensor<2x96xf32>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = q8.quantize %[[W]] exact : tensor<64x96xf32> -> tensor<64x96xi8>, tensor<2x96xf32>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = q8.quantize %[[WB]] exact : tensor<64x96xbf16> -> tensor<64x96xi8>, tensor<2x96xf16>
// CHECK-NEXT:    func.return

// GENERIC-LABEL: "func.func"() <{sym_name = "quantize"
// GENERIC:         "q8.quantize"(%{{.*}}) : (tensor<64x96xf32>) -> (tensor<64x96xi8>, tensor<2x96xf32>)
// GENERIC-NEXT:    "q8.quantize"(%{{.*}}) <{exact}> : (tensor<64x96xf32>) -> (tensor<64x96xi8>, tensor<2x96xf32>)
// GENERIC-NEXT:    "q8.quantize"(%{{.*}}) <{exact}> : (tensor<64x96xbf16>) -> (tensor<64x96xi8>, tensor<2x96xf16>)
func.func @quantize(%w: tensor<64x96xf32>, %wb: tensor<64x96xbf16>) {
  %q, %s = q8.quantize %w : tensor<64x96xf32> -> tensor<64x96xi8>, tensor<2x96xf32>
  %qe, %se = q8.quantize %w exact : tensor<64x96xf32> -> tensor<64x96xi8>, tensor<2x96xf32>
  %qh, %sh = q8.quantize %wb exact : tensor<64x96xbf16> -> tensor<64x96xi8>, tensor<2x96xf16>
  func.return
}
