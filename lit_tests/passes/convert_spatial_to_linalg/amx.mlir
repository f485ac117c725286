// convert-spatial-to-linalg of stages marked `kernel = "amx"` (by
// spatial-native-kernels{kind=amx}): a Q8_0 fold of 8 bf16 rows sums each block's 32
// lanes on x86's AMX tile unit, in units of two groups of 16 columns. A loop over the
// 16 lane pairs converts a unit's int8 weights in registers (widened to f32, the top
// halves of lanes 2p and 2p + 1 shuffled into bf16 pairs) and stores them as the rows
// of each group's right-hand tile, the next unit's into the other slot before this
// unit's are loaded; the 8 rows' activations are one bf16 tile read straight from the
// page (not widened), once a trip; each group's product is made, and only then are
// the unit before's products stored and read back a row a vector, and each sum times
// its column's scale added into the row's output (`vector.fma`). Unmarked, the lanes
// are a `reduction, parallel` generic.
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=amx},convert-spatial-to-linalg' %s | filecheck %s
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
// CHECK:       %[[PAIRS:.*]] = memref.alloca() : memref<2048xbf16>
// CHECK-NEXT:  %[[SUMS:.*]] = memref.alloca() : memref<512xf32>
// CHECK:       scf.for %[[ITEM:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// the first unit's pairs, into slot 0
// CHECK:         %[[W0:.*]] = memref.reinterpret_cast %[[PAIRS]] to offset: [%{{.*}}], sizes: [16, 32], strides: [32, 1]
// CHECK:         %[[W1:.*]] = memref.reinterpret_cast %[[PAIRS]] to offset: [%{{.*}}], sizes: [16, 32], strides: [32, 1]
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[Q0:.*]] = vector.load %{{.*}} : memref<32x256xi8, strided<[256, 1], offset: ?>>, vector<16xi8>
// CHECK-NEXT:      %[[I0:.*]] = llvm.sext %[[Q0]] : vector<16xi8> to vector<16xi32>
// CHECK-NEXT:      %[[F0:.*]] = llvm.sitofp %[[I0]] : vector<16xi32> to vector<16xf32>
// CHECK-NEXT:      %[[H0:.*]] = vector.bitcast %[[F0]] : vector<16xf32> to vector<32xi16>
// CHECK:           %[[H1:.*]] = vector.bitcast %{{.*}} : vector<16xf32> to vector<32xi16>
// CHECK-NEXT:      %[[BOTH:.*]] = vector.shuffle %[[H0]], %[[H1]] [1, 33, 3, 35, {{.*}}, 31, 63] : vector<32xi16>, vector<32xi16>
// CHECK-NEXT:      %[[PAIR:.*]] = vector.bitcast %[[BOTH]] : vector<32xi16> to vector<32xbf16>
// CHECK:           vector.store %[[PAIR]], %[[W0]][%[[P]], %{{.*}}] : memref<16x32xbf16, strided<[32, 1], offset: ?>>, vector<32xbf16>
// CHECK:           vector.store %{{.*}}, %[[W1]][%[[P]], %{{.*}}] : memref<16x32xbf16, strided<[32, 1], offset: ?>>, vector<32xbf16>
// CHECK-NEXT:    }
// the second unit's pairs, into slot 1, before the first unit's tiles are loaded
// CHECK:         scf.for
// CHECK:         }
// CHECK-NEXT:    %[[A:.*]] = x86.amx.tile_load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x32xbf16, strided<[32, 1], offset: ?>> into !x86.amx.tile<8x32xbf16>
// CHECK:         %[[B0:.*]] = x86.amx.tile_load %[[W0]][%{{.*}}, %{{.*}}] : memref<16x32xbf16, strided<[32, 1], offset: ?>> into !x86.amx.tile<16x32xbf16>
// CHECK-NEXT:    %[[Z0:.*]] = x86.amx.tile_zero : !x86.amx.tile<8x16xf32>
// CHECK-NEXT:    %[[C0:.*]] = x86.amx.tile_mulf %[[A]], %[[B0]], %[[Z0]] : !x86.amx.tile<8x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<8x16xf32>
// CHECK:         %[[C1:.*]] = x86.amx.tile_mulf %[[A]], %{{.*}}, %{{.*}} : !x86.amx.tile<8x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<8x16xf32>
// the third unit's pairs, then the second unit's products, then the first's stored
// CHECK:         scf.for
// CHECK:         }
// CHECK-NOT:     x86.amx.tile_store
// CHECK-COUNT-2: x86.amx.tile_mulf %[[A]], %{{.*}}, %{{.*}} : !x86.amx.tile<8x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<8x16xf32>
// CHECK:         %[[S0:.*]] = memref.reinterpret_cast %[[SUMS]] to offset: [%{{.*}}], sizes: [8, 16], strides: [16, 1]
// CHECK:         x86.amx.tile_store %[[S0]][%{{.*}}, %{{.*}}], %[[C0]] : memref<8x16xf32, strided<[16, 1], offset: ?>>, !x86.amx.tile<8x16xf32>
// CHECK-NEXT:    x86.amx.tile_store %{{.*}}[%{{.*}}, %{{.*}}], %[[C1]] : memref<8x16xf32, strided<[16, 1], offset: ?>>, !x86.amx.tile<8x16xf32>
// CHECK:         %[[ROW0:.*]] = vector.load %[[S0]][%{{.*}}, %{{.*}}] : memref<8x16xf32, strided<[16, 1], offset: ?>>, vector<16xf32>
// CHECK:         %[[SCALE:.*]] = vector.load %{{.*}} : memref<256xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK:         %[[Y:.*]] = vector.load %[[OUT:.*]][%{{.*}}] : memref<256xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-NEXT:    %[[FUSED:.*]] = vector.fma %[[ROW0]], %[[SCALE]], %[[Y]] : vector<16xf32>
// CHECK:         vector.store %[[FUSED]], %[[OUT]][%{{.*}}] : memref<256xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-NOT:     iterator_types = ["reduction", "parallel"]

// PLAIN-LABEL: func.func @gemm_8x256x256(
// PLAIN-NOT:   x86.amx
// PLAIN:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// PLAIN-NOT:   x86.amx
