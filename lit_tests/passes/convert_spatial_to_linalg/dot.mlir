// convert-spatial-to-linalg of stages marked `kernel = "dot"` (by
// spatial-native-kernels{kind=bf16}): a Q8_0 fold of 8 bf16 rows sums each block's 32
// lanes as AVX512-BF16 dot products. The int8 weights are read where the tensor holds
// them (no copy into a page), all 256 columns of the item a trip; each trip pairs the
// block's lanes as i32 words (the low half lane 2p, the high half lane 2p + 1, as for
// the AMX tiles), then, for each 32 columns, an scf.for over the 16 pairs carries 16
// accumulators (8 rows x two groups of 16 columns): each pair of a row's activations,
// read straight from the bf16 page (not widened), broadcast, `x86.avx512.dot` with the
// pair's two weight vectors. Before each such loop the trip asks for its share of the
// rows of the block two on (64 rows, 16384 bytes ahead: 4 rows of 4 lines a loop, into
// the second-level cache). Each row's sums are then scaled where they are: the
// block's 16 scales of a column group loaded once, `vector.fma` into the row's output
// (no scratch of sums, no scaling generic). Unmarked, the lanes are a `reduction,
// parallel` generic over a copied int8 page, 32 columns at a time.
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=bf16},convert-spatial-to-linalg' %s | filecheck %s
// RUN: xdsl-opt -p 'q8-lower{optimize=true},convert-spatial-to-linalg' %s | filecheck %s --check-prefix=PLAIN

func.func @gemm_8x256x256(%x: tensor<8x256xbf16>, %W__q8: tensor<256x256xi8>, %W__q8_scale: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x256xi8>, tensor<8x256xf32> -> tensor<256x256xf32>
  %xf = arith.extf %x : tensor<8x256xbf16> to tensor<8x256xf32>
  %empty = tensor.empty() : tensor<8x256xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<8x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<8x256xf32>) -> tensor<8x256xf32>
  func.return %y : tensor<8x256xf32>
}

// CHECK-LABEL: func.func @gemm_8x256x256(
// CHECK-SAME:    %[[W:[^ ]*]]: tensor<256x256xi8>
// CHECK:       %[[WM:.*]] = bufferization.to_buffer %[[W]] read_only
// CHECK-NOT:   memref<2048xf32>
// CHECK:       %[[VNNI:.*]] = memref.alloca() : memref<16384xi8>
// CHECK:       scf.for %[[ITEM:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:     linalg.copy ins(%{{.*}} : memref<{{.*}}xi8
// CHECK:         %[[WORDS:.*]] = memref.view %[[VNNI]][%{{.*}}][] : memref<16384xi8> to memref<16x256xi32>
// CHECK-NEXT:    %[[EVEN:.*]] = memref.reinterpret_cast %[[WM]] to offset: [%{{.*}}], sizes: [16, 256], strides: [512, 1]
// CHECK:         %[[ODD:.*]] = memref.reinterpret_cast %[[WM]] to offset: [%{{.*}}], sizes: [16, 256], strides: [512, 1]
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[EVEN]], %[[ODD]] : {{.*}}) outs(%[[WORDS]] : memref<16x256xi32>) {
// CHECK:         %[[SCALES:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [256], strides: [1] : memref<8x256xf32> to memref<256xf32, strided<[1], offset: ?>>
// CHECK-NEXT:    %[[ROW0:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [256], strides: [1] : memref<1x32x2048xf32> to memref<256xf32, strided<[1], offset: ?>>
// CHECK:         %[[XS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [8, 32], strides: [32, 1] : memref<1x32x256xbf16> to memref<8x32xbf16, strided<[32, 1], offset: ?>>
// CHECK:         %[[FLAT:.*]] = memref.reinterpret_cast %[[WM]] to offset: [%{{.*}}], sizes: [65536], strides: [1]
// CHECK-NEXT:    %[[AHEAD:.*]] = arith.constant 16384 : index
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %{{.*}}, %[[AHEAD]] : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.constant 65280 : index
// CHECK-NEXT:    %[[AT0:.*]] = arith.minui %[[AT]], %[[LAST]] : index
// CHECK-NEXT:    memref.prefetch %[[FLAT]][%[[AT0]]], read, locality<2>, data
// CHECK-COUNT-15: memref.prefetch %{{.*}}[%{{.*}}], read, locality<2>, data
// CHECK-NOT:     memref.prefetch
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK:         %[[ACC0:[^ ,]*]], %[[ACC1:[^ ,]*]], {{.*}} = scf.for %[[P:[^ ]*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A0:[^ ]*]] = %[[ZERO]], %[[A1:[^ ]*]] = %[[ZERO]], {{.*}}) -> (vector<16xf32>, {{.*}}) {
// CHECK:           %[[W0:.*]] = vector.load %[[WORDS]][%[[P]], %{{.*}}] : memref<16x256xi32>, vector<16xi32>
// CHECK-NEXT:      %[[B0:.*]] = vector.bitcast %[[W0]] : vector<16xi32> to vector<32xbf16>
// CHECK:           %[[W1:.*]] = vector.load %[[WORDS]][%[[P]], %{{.*}}] : memref<16x256xi32>, vector<16xi32>
// CHECK-NEXT:      %[[B1:.*]] = vector.bitcast %[[W1]] : vector<16xi32> to vector<32xbf16>
// CHECK:           %[[K:.*]] = arith.muli %[[P]], %{{.*}} : index
// CHECK:           %[[TWO:.*]] = vector.load %[[XS]][%{{.*}}, %[[K]]] : memref<8x32xbf16, strided<[32, 1], offset: ?>>, vector<2xbf16>
// CHECK-NEXT:      %[[WORD:.*]] = vector.bitcast %[[TWO]] : vector<2xbf16> to vector<1xi32>
// CHECK-NEXT:      %[[ONE:.*]] = vector.extract %[[WORD]][0] : i32 from vector<1xi32>
// CHECK-NEXT:      %[[EVERY:.*]] = vector.broadcast %[[ONE]] : i32 to vector<16xi32>
// CHECK-NEXT:      %[[XV:.*]] = vector.bitcast %[[EVERY]] : vector<16xi32> to vector<32xbf16>
// CHECK-NEXT:      %{{.*}} = x86.avx512.dot %[[A0]], %[[XV]], %[[B0]] : vector<32xbf16> -> vector<16xf32>
// CHECK-NEXT:      %{{.*}} = x86.avx512.dot %[[A1]], %[[XV]], %[[B1]] : vector<32xbf16> -> vector<16xf32>
// CHECK:           scf.yield
// row 0's first 16 columns: the block's scales times the sums, added into the output
// CHECK:         %[[S0:.*]] = vector.load %[[SCALES]][%{{.*}}] : memref<256xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[Y0:.*]] = vector.load %[[ROW0]][%[[C0]]] : memref<256xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-NEXT:    %[[F0:.*]] = vector.fma %[[ACC0]], %[[S0]], %[[Y0]] : vector<16xf32>
// CHECK-NEXT:    %[[C0S:.*]] = arith.constant 0 : index
// CHECK-NEXT:    vector.store %[[F0]], %[[ROW0]][%[[C0S]]] : memref<256xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-COUNT-15: vector.fma
// the next 32 columns: first the next 4 rows ahead, then another loop over the pairs,
// the weights 32 words on
// CHECK-COUNT-4: memref.prefetch
// CHECK:         %{{.*}} = scf.for %{{.*}} iter_args(
// CHECK-NEXT:      %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT:      %{{.*}} = vector.load %[[WORDS]][%{{.*}}, %[[C32]]] : memref<16x256xi32>, vector<16xi32>
// CHECK-NOT:     iterator_types = ["reduction", "parallel"]
// CHECK-NOT:     iterator_types = ["parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]

// PLAIN-LABEL: func.func @gemm_8x256x256(
// PLAIN-NOT:   x86.avx512.dot
// PLAIN:       linalg.copy ins(%{{.*}} : memref<{{.*}}xi8
// PLAIN:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// PLAIN-NOT:   x86.avx512.dot

// f16 scales (a Q8_0 file's): widened as each column group's 16 are loaded, then the
// same `vector.fma` into the row's output; no scratch of sums here either.
func.func @gemm_f16_scales(%x: tensor<8x256xbf16>, %W__q8: tensor<256x256xi8>, %W__q8_scale: tensor<8x256xf16>) -> tensor<8x256xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x256xi8>, tensor<8x256xf16> -> tensor<256x256xf32>
  %xf = arith.extf %x : tensor<8x256xbf16> to tensor<8x256xf32>
  %empty = tensor.empty() : tensor<8x256xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<8x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<8x256xf32>) -> tensor<8x256xf32>
  func.return %y : tensor<8x256xf32>
}

// CHECK-LABEL: func.func @gemm_f16_scales(
// CHECK-NOT:     _sums
// CHECK:         %[[SCALES:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [256], strides: [1] : memref<1x32x256xf16> to memref<256xf16, strided<[1], offset: ?>>
// CHECK:         x86.avx512.dot
// CHECK:         %[[H0:.*]] = vector.load %[[SCALES]][%{{.*}}] : memref<256xf16, strided<[1], offset: ?>>, vector<16xf16>
// CHECK-NEXT:    %[[S0:.*]] = arith.extf %[[H0]] : vector<16xf16> to vector<16xf32>
// CHECK:         %{{.*}} = vector.fma %{{.*}}, %[[S0]], %{{.*}} : vector<16xf32>
// CHECK-NOT:     _sums
// CHECK:         func.return
