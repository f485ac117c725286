// convert-spatial-to-linalg of stages marked `kernel = "dot"` (by
// spatial-native-kernels{kind=bf16}): a Q8_0 fold of 8 bf16 rows sums each block's 32
// lanes as AVX512-BF16 dot products. The int8 weights are read where the tensor holds
// them (no copy into a page, no scratch of paired weights), all 256 columns of the
// item a trip; for each 16 columns, an scf.for over the 16 lane pairs carries 8
// accumulators (a row each): each step converts lanes 2p and 2p + 1 of the 16 columns
// to f32 in registers (`llvm.sext`, `llvm.sitofp`) and pairs their top halves (the
// bf16s) as words (the low half lane 2p, the high half lane 2p + 1, as for the AMX
// tiles: one `vector.shuffle`), then each row's pair of activations, read straight
// from the bf16 activation where its tensor holds it (not copied, not widened),
// broadcast, `x86.avx512.dot` with the pairs.
// Before each such loop the trip asks for its share of the rows of the block two on
// (64 rows, 16384 bytes ahead: 2 rows of 4 lines a loop, into the second-level
// cache). Each row's sums are then scaled where they are: the block's 16 scales of
// the columns loaded once, `vector.fma` into the row's output (no scratch of sums,
// no scaling generic). The fold's tile of 32 rows is then gathered row by row, each
// row's index a constant (`loops.picked_rows`), and only the 8 rows its store keeps
// (`loops.read_rows`): one generic of 8 outputs along the columns, then the store.
// Unmarked, the lanes are a `reduction, parallel` generic over a copied int8 page, 32
// columns at a time.
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
// CHECK-NOT:     memref.view
// CHECK:       scf.for %[[ITEM:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:     linalg.copy ins(%{{.*}} : memref<{{.*}}xi8
// CHECK-NOT:     memref.view
// CHECK:         %[[BLOCK:.*]] = memref.reinterpret_cast %[[WM]] to offset: [%{{.*}}], sizes: [32, 256], strides: [256, 1]
// CHECK:         %[[SCALES:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [256], strides: [1] : memref<8x256xf32> to memref<256xf32, strided<[1], offset: ?>>
// CHECK-NEXT:    %[[ROW0:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [256], strides: [1] : memref<1x32x2048xf32> to memref<256xf32, strided<[1], offset: ?>>
// CHECK:         %[[XS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [8, 32], strides: [1024, 1] : memref<256x32xbf16> to memref<8x32xbf16, strided<[1024, 1], offset: ?>>
// CHECK:         %[[FLAT:.*]] = memref.reinterpret_cast %[[WM]] to offset: [%{{.*}}], sizes: [65536], strides: [1]
// CHECK-NEXT:    %[[AHEAD:.*]] = arith.constant 16384 : index
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %{{.*}}, %[[AHEAD]] : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.constant 65280 : index
// CHECK-NEXT:    %[[AT0:.*]] = arith.minui %[[AT]], %[[LAST]] : index
// CHECK-NEXT:    memref.prefetch %[[FLAT]][%[[AT0]]], read, locality<2>, data
// CHECK-COUNT-7: memref.prefetch %{{.*}}[%{{.*}}], read, locality<2>, data
// CHECK-NOT:     memref.prefetch
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK:         %[[ACC0:[^ ,]*]], {{.*}} = scf.for %[[P:[^ ]*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A0:[^ ]*]] = %[[ZERO]], {{.*}}) -> (vector<16xf32>, {{.*}}) {
// CHECK:           %[[K:.*]] = arith.muli %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[C0:[^ ]*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[Q0:.*]] = vector.load %[[BLOCK]][%[[K]], %[[C0]]] : memref<32x256xi8, strided<[256, 1], offset: ?>>, vector<16xi8>
// CHECK-NEXT:      %[[I0:.*]] = llvm.sext %[[Q0]] : vector<16xi8> to vector<16xi32>
// CHECK-NEXT:      %[[F0:.*]] = llvm.sitofp %[[I0]] : vector<16xi32> to vector<16xf32>
// CHECK-NEXT:      %[[H0:.*]] = vector.bitcast %[[F0]] : vector<16xf32> to vector<32xi16>
// CHECK:           %[[K1:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT:      %[[Q1:.*]] = vector.load %[[BLOCK]][%[[K1]], %[[C0]]] : memref<32x256xi8, strided<[256, 1], offset: ?>>, vector<16xi8>
// CHECK:           %[[H1:.*]] = vector.bitcast %{{.*}} : vector<16xf32> to vector<32xi16>
// CHECK-NEXT:      %[[PAIRS:.*]] = vector.shuffle %[[H0]], %[[H1]] [1, 33, 3, 35, {{.*}}, 31, 63] : vector<32xi16>, vector<32xi16>
// CHECK-NEXT:      %[[WV:.*]] = vector.bitcast %[[PAIRS]] : vector<32xi16> to vector<32xbf16>
// CHECK:           %[[TWO:.*]] = vector.load %[[XS]][%{{.*}}, %[[K]]] : memref<8x32xbf16, strided<[1024, 1], offset: ?>>, vector<2xbf16>
// CHECK-NEXT:      %[[WORD:.*]] = vector.bitcast %[[TWO]] : vector<2xbf16> to vector<1xi32>
// CHECK-NEXT:      %[[ONE:.*]] = vector.extract %[[WORD]][0] : i32 from vector<1xi32>
// CHECK-NEXT:      %[[EVERY:.*]] = vector.broadcast %[[ONE]] : i32 to vector<16xi32>
// CHECK-NEXT:      %[[XV:.*]] = vector.bitcast %[[EVERY]] : vector<16xi32> to vector<32xbf16>
// CHECK-NEXT:      %{{.*}} = x86.avx512.dot %[[A0]], %[[WV]], %[[XV]] : vector<32xbf16> -> vector<16xf32>
// CHECK-COUNT-7:   x86.avx512.dot %{{.*}}, %[[WV]], %{{.*}} : vector<32xbf16> -> vector<16xf32>
// CHECK:           scf.yield
// row 0's first 16 columns: the block's scales times the sums, added into the output
// CHECK:         %[[S0:.*]] = vector.load %[[SCALES]][%{{.*}}] : memref<256xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-NEXT:    %[[C0Y:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[Y0:.*]] = vector.load %[[ROW0]][%[[C0Y]]] : memref<256xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-NEXT:    %[[F0Y:.*]] = vector.fma %[[ACC0]], %[[S0]], %[[Y0]] : vector<16xf32>
// CHECK-NEXT:    %[[C0S:.*]] = arith.constant 0 : index
// CHECK-NEXT:    vector.store %[[F0Y]], %[[ROW0]][%[[C0S]]] : memref<256xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-COUNT-7: vector.fma
// the next 16 columns: first the next 2 rows ahead, then another loop over the pairs,
// its weights 16 columns on
// CHECK-COUNT-8: memref.prefetch
// CHECK:         %{{.*}} = scf.for %{{.*}} iter_args(
// CHECK-NEXT:      arith.constant 2 : index
// CHECK-NEXT:      %[[K2:.*]] = arith.muli
// CHECK-NEXT:      %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %{{.*}} = vector.load %[[BLOCK]][%[[K2]], %[[C16]]] : memref<32x256xi8, strided<[256, 1], offset: ?>>, vector<16xi8>
// CHECK-NOT:     iterator_types = ["reduction", "parallel"]
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel"]} ins({{.*}}) outs(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}} :
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   linalg.fill
// CHECK:       linalg.copy

// PLAIN-LABEL: func.func @gemm_8x256x256(
// PLAIN-NOT:   x86.avx512.dot
// PLAIN:       linalg.copy ins(%{{.*}} : memref<{{.*}}xi8
// PLAIN:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// PLAIN-NOT:   x86.avx512.dot

// f16 scales (a Q8_0 file's), read where their tensor holds them: widened as each
// column group's 16 are loaded, then the same `vector.fma` into the row's output; no
// scratch of sums here either.
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
// CHECK:         %[[SCALES:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [256], strides: [1] : memref<8x256xf16> to memref<256xf16, strided<[1], offset: ?>>
// CHECK:         x86.avx512.dot
// CHECK:         %[[H0:.*]] = vector.load %[[SCALES]][%{{.*}}] : memref<256xf16, strided<[1], offset: ?>>, vector<16xf16>
// CHECK-NEXT:    %[[S0:.*]] = arith.extf %[[H0]] : vector<16xf16> to vector<16xf32>
// CHECK:         %{{.*}} = vector.fma %{{.*}}, %[[S0]], %{{.*}} : vector<16xf32>
// CHECK-NOT:     _sums
// CHECK:         func.return
