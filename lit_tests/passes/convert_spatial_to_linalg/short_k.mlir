// RUN: spatial-opt -p 'q8-lower,convert-spatial-to-linalg' %s | filecheck %s

// A product whose K is 8 blocks (256) at m = 1, as a decode step's are (K = 576 is 18):
// its view writes 8 rows of one tile row, and the fold reads them as they are given
// (no zero-padded copy), loads those 8 rows into its page (once, before the items'
// loop: every item reads the same block), and widens those 8 rows alone to f32, which
// are all its sum reads of the page.

func.func @gemv(%x: tensor<1x256xbf16>, %W__q8: tensor<256x64xi8>, %W__q8_scale: tensor<8x64xf32>) -> tensor<1x64xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x64xi8>, tensor<8x64xf32> -> tensor<256x64xf32>
  %xf = arith.extf %x : tensor<1x256xbf16> to tensor<1x256xf32>
  %empty = tensor.empty() : tensor<1x64xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x256xf32>, tensor<256x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %y : tensor<1x64xf32>
}

// CHECK-LABEL: func.func @gemv(
// CHECK:         %[[VIEW:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<8x32xbf16> to memref<8x32xbf16>
// CHECK-NOT:     memref<32x32xbf16>
// CHECK:         %[[PAGE:.*]] = memref.alloca() : memref<1x32x32xbf16>
// CHECK:         %[[WIDE:.*]] = memref.alloca() : memref<256xf32>
// CHECK:         %[[FROM:.*]] = memref.reinterpret_cast %[[VIEW]] to offset: [%{{.*}}], sizes: [1, 8, 32], strides: [1024, 32, 1]
// CHECK-NEXT:    %[[TO:.*]] = memref.reinterpret_cast %[[PAGE]] to offset: [%{{.*}}], sizes: [1, 8, 32], strides: [32, 32, 1]
// CHECK-NEXT:    linalg.copy ins(%[[FROM]] : {{.*}}) outs(%[[TO]] : {{.*}})
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[ROWS:.*]] = memref.reinterpret_cast %[[PAGE]] to offset: [%{{.*}}], sizes: [8, 32], strides: [32, 1]
// CHECK:           %[[F32:.*]] = memref.reinterpret_cast %[[WIDE]] to offset: [%{{.*}}], sizes: [8, 32], strides: [32, 1]
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[ROWS]] : memref<8x32xbf16, strided<[32, 1], offset: ?>>) outs(%[[F32]] : memref<8x32xf32, strided<[32, 1], offset: ?>>)
// CHECK-NEXT:      ^bb0(%[[B:.*]]: bf16, %{{.*}}: f32):
// CHECK-NEXT:        arith.extf %[[B]] : bf16 to f32
