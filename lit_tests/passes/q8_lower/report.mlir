// `report=true` prints one line per linalg.matmul to stderr: lowered with the plan and
// its bytes, or not lowered and why. Without it the pass prints nothing.
//
// RUN: spatial-opt %s -p 'q8-lower{report=true}' 2>&1 >/dev/null | filecheck %s
// RUN: spatial-opt %s -p q8-lower 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

// QUIET-NOT: q8-lower

// K = 1536, N = 2048: wb = 8, 8 items, 1 K block and a tail of 16 Q8_0 blocks.
// Local memory: out 65536 + in_x 4096 + in_q8 524288 + in_scale 65536 + block 32768
// + run_sum 65536 + in_x_tail 2048 + in_q8_tail 131072 + in_scale_tail 32768 + tail
// 32768 = 956416 B; the view's larger section 2 x 32 x 2048 + 2 x 2048 = 135168 B.
// Gate (docs/lowering.md): weight 1536 x 2048 + 4 x 48 x 2048 = 3538944, view reads
// 8 x 2 x 1 x 1024 x 2 = 32768, against 2 x 1536 x 2048 = 6291456. What moves counts
// the tail's tile row of scales whole: 1536 x 2048 + 4 x 64 x 2048 + 32768 = 3702784
// B, 1.1771 B a weight.
// CHECK: q8-lower: linalg.matmul %y 1x1536x2048: lowered: wb = 8, items = 8, K blocks = 1, tail = 16 Q8_0 blocks, local memory = 956,416 B (view 135,168 B); bytes: weight 3,538,944 + view reads 32,768 = 3,571,712 < bf16 copy 6,291,456; moves 3,702,784 B (1.1771 B/weight)
func.func @tail(%x: tensor<1x1536xbf16>, %U__q8: tensor<1536x2048xi8>, %U__q8_scale: tensor<48x2048xf32>) -> tensor<1x2048xf32> {
  %w = q8.dequantize %U__q8, %U__q8_scale : tensor<1536x2048xi8>, tensor<48x2048xf32> -> tensor<1536x2048xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x1536xbf16>, tensor<1536x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  func.return %y : tensor<1x2048xf32>
}

// K = 64, N = 64: the gate weighs 64 x 64 + 4 x 2 x 64 = 4608 + 2048 B of view
// against 8192 B; the scales' one tile row moves whole (8192 B), so the fold moves
// 14336 B.
// CHECK: q8-lower: linalg.matmul %small 1x64x64: lowered: wb = 2, items = 1, K blocks = 0, tail = 2 Q8_0 blocks, local memory = 38,912 B (view 12,288 B); bytes: weight 4,608 + view reads 2,048 = 6,656 < bf16 copy 8,192; moves 14,336 B (3.5000 B/weight)
func.func @small(%x: tensor<1x64xbf16>, %S__q8: tensor<64x64xi8>, %S__q8_scale: tensor<2x64xf32>) -> tensor<1x64xf32> {
  %w = q8.dequantize %S__q8, %S__q8_scale : tensor<64x64xi8>, tensor<2x64xf32> -> tensor<64x64xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x64xf32>
  %small = linalg.matmul ins(%x, %w : tensor<1x64xbf16>, tensor<64x64xbf16>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %small : tensor<1x64xf32>
}

// K = 64, N = 32: 64 x 32 + 4 x 2 x 32 + 2048 = 4352 B >= 4096 B.
// CHECK: q8-lower: linalg.matmul %narrow 1x64x32: not lowered: weight 2304 B + view reads 2048 B = 4352 B >= a bf16 copy's 4096 B
func.func @narrow(%x: tensor<1x64xbf16>, %S__q8: tensor<64x32xi8>, %S__q8_scale: tensor<2x32xf32>) -> tensor<1x32xf32> {
  %w = q8.dequantize %S__q8, %S__q8_scale : tensor<64x32xi8>, tensor<2x32xf32> -> tensor<64x32xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x32xf32>
  %narrow = linalg.matmul ins(%x, %w : tensor<1x64xbf16>, tensor<64x32xbf16>) outs(%acc : tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %narrow : tensor<1x32xf32>
}

// Unnamed results are numbered in the order the pass meets them.
// CHECK: q8-lower: linalg.matmul #3: not lowered: the weight is not a q8.dequantize
// CHECK-NOT: q8-lower
func.func @dense(%0: tensor<1x64xf32>, %1: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %2 = arith.constant dense<0.000000e+00> : tensor<1x64xf32>
  %3 = linalg.matmul ins(%0, %1 : tensor<1x64xf32>, tensor<64x64xf32>) outs(%2 : tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %3 : tensor<1x64xf32>
}
