// convert-spatial-to-linalg of a stage marked `kernel = "stream"` (by
// spatial-native-kernels{kind=loop}): a product of one row streams its weight. The
// int8 and scale pages, which only the row's sum reads, each element once, are read
// where the weight holds them (a view of the tensor at the item's columns, no copy), and
// a block's 32 lanes run over all of the item's 256 columns into one scratch row, then
// scaled once. Each lane first asks for the same columns 32 rows on (memref.prefetch,
// 16384 elements ahead, into the first-level cache), a cache line each; each block first
// asks for the next block's scales (a row of 512 on, into the second level), a line
// each. Each row's start is clamped once so that its lines are all in the tensor.
// Unmarked, the pages are copied and the lanes run 32 columns at a time.
// The same sums in the same order (tests/test_kernels.py).
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=loop},convert-spatial-to-linalg' %s | filecheck %s
// RUN: xdsl-opt -p 'q8-lower{optimize=true},convert-spatial-to-linalg' %s | filecheck %s --check-prefix=PLAIN

func.func @gemv_1x2048x512(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x512xi8>, %W__q8_scale: tensor<64x512xf32>) -> tensor<1x512xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x512xi8>, tensor<64x512xf32> -> tensor<2048x512xf32>
  %xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %empty = tensor.empty() : tensor<1x512xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x512xf32>) -> tensor<1x512xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x512xf32>) outs(%acc : tensor<1x512xf32>) -> tensor<1x512xf32>
  func.return %y : tensor<1x512xf32>
}

// CHECK-LABEL: func.func @gemv_1x2048x512(
// CHECK:       %[[WQ:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<2048x512xi8> to memref<2048x512xi8>
// CHECK-NEXT:  %[[WS:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<64x512xf32> to memref<64x512xf32>
// CHECK:       %[[SUMS:.*]] = memref.alloca() : memref<256xf32>
// CHECK:       scf.for %[[ITEM:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:     linalg.copy ins(%{{.*}} : memref<{{.*}}xi8
// CHECK:         %{{.*}} = memref.reinterpret_cast %[[WQ]] to offset: [%[[QAT:.*]]], sizes: [1], strides: [1]
// CHECK-NOT:     linalg.copy ins(%{{.*}} : memref<{{.*}}xi8
// CHECK:         scf.for %[[GROUP:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[BLOCK:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[SFLAT:.*]] = memref.reinterpret_cast %[[WS]] to offset: [%{{.*}}], sizes: [32768], strides: [1]
// CHECK-NEXT:        %[[NEXT:.*]] = arith.constant 512 : index
// CHECK-NEXT:        %[[SAT:.*]] = arith.addi %{{.*}}, %[[NEXT]] : index
// CHECK-NEXT:        %[[SLAST:.*]] = arith.constant 32512 : index
// CHECK-NEXT:        %[[SAT0:.*]] = arith.minui %[[SAT]], %[[SLAST]] : index
// CHECK-NEXT:        memref.prefetch %[[SFLAT]][%[[SAT0]]], read, locality<2>, data : memref<32768xf32, strided<[1], offset: ?>>
// CHECK-NEXT:        %[[S16:.*]] = arith.constant 16 : index
// CHECK-NEXT:        %[[SAT1:.*]] = arith.addi %[[SAT0]], %[[S16]] : index
// CHECK-NEXT:        memref.prefetch %[[SFLAT]][%[[SAT1]]], read, locality<2>, data
// CHECK-COUNT-14:    memref.prefetch %[[SFLAT]][%{{.*}}], read, locality<2>, data
// CHECK:             %[[ROWS:.*]] = memref.reinterpret_cast %[[SUMS]] to offset: [%{{.*}}], sizes: [256], strides: [1]
// CHECK:             linalg.fill ins(%{{.*}} : f32) outs(%[[ROWS]] : memref<256xf32, {{.*}}>)
// CHECK:             scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:               %[[FLAT:.*]] = memref.reinterpret_cast %[[WQ]] to offset: [%{{.*}}], sizes: [1048576], strides: [1]
// CHECK-NEXT:          %[[AHEAD:.*]] = arith.constant 16384 : index
// CHECK-NEXT:          %[[AT:.*]] = arith.addi %{{.*}}, %[[AHEAD]] : index
// CHECK-NEXT:          %[[LAST:.*]] = arith.constant 1048320 : index
// CHECK-NEXT:          %[[AT0:.*]] = arith.minui %[[AT]], %[[LAST]] : index
// CHECK-NEXT:          memref.prefetch %[[FLAT]][%[[AT0]]], read, locality<3>, data : memref<1048576xi8, strided<[1], offset: ?>>
// CHECK-NEXT:          %[[L1:.*]] = arith.constant 64 : index
// CHECK-NEXT:          %[[AT1:.*]] = arith.addi %[[AT0]], %[[L1]] : index
// CHECK-NEXT:          memref.prefetch %[[FLAT]][%[[AT1]]], read, locality<3>, data
// CHECK-COUNT-2:       memref.prefetch %[[FLAT]][%{{.*}}], read, locality<3>, data
// CHECK:               %[[LANES:.*]] = memref.reinterpret_cast %[[WQ]] to offset: [%{{.*}}], sizes: [256], strides: [1]
// CHECK-NEXT:          linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%{{.*}}, %[[LANES]] : memref<f32, {{.*}}>, memref<256xi8, {{.*}}>) outs(%[[ROWS]] : memref<256xf32, {{.*}}>)
// CHECK:             }
// CHECK:             %[[SCALES:.*]] = memref.reinterpret_cast %[[WS]] to offset: [%{{.*}}], sizes: [256], strides: [1]
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[SCALES]], %[[ROWS]] : {{.*}})

// PLAIN-LABEL: func.func @gemv_1x2048x512(
// PLAIN:       %[[SUMS:.*]] = memref.alloca() : memref<32xf32>
// PLAIN:       linalg.copy ins(%{{.*}} : memref<{{.*}}xi8, {{.*}}>) outs(%{{.*}} : memref<{{.*}}xi8, {{.*}}>)
// PLAIN:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}}, %{{.*}} : memref<32xf32, {{.*}}>, memref<32x32xi8, {{.*}}>)
