// convert-spatial-to-linalg of stages marked `kernel = "amx"` (by
// spatial-native-kernels{kind=amx}): a Q8_0 fold of 8 bf16 rows sums each block's 32
// lanes on x86's AMX tile unit. Each trip turns the block's int8 weights (32 lanes x 32
// columns) into two bf16 tiles of 16 columns, a pair of lanes a row (made as i32 words:
// the low half lane 2p, the high half lane 2p + 1), reads the 8 rows' activations as one
// bf16 tile straight from the page (not widened), multiplies, and stores each product
// where the generic that scales the sums reads them. Unmarked, the lanes are a
// `reduction, parallel` generic.
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
// CHECK:       %[[SUMS:.*]] = memref.alloca() : memref<256xf32>
// CHECK-NEXT:  %[[VNNI:.*]] = memref.alloca() : memref<2048xi8>
// CHECK-NOT:   memref<{{.*}}x256xf32>
// CHECK:       scf.for %[[ITEM:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:         %[[WORDS:.*]] = memref.view %[[VNNI]][%{{.*}}][] : memref<2048xi8> to memref<16x32xi32>
// CHECK-NEXT:    %[[EVEN:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [16, 32], strides: [4096, 1]
// CHECK:         %[[ODD:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [16, 32], strides: [4096, 1]
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[EVEN]], %[[ODD]] : {{.*}}) outs(%[[WORDS]] : memref<16x32xi32>) {
// CHECK-NEXT:    ^bb{{.*}}(%[[LO:.*]]: i8, %[[HI:.*]]: i8, %{{.*}}: i32):
// CHECK-NEXT:      %[[LOF:.*]] = arith.sitofp %[[LO]] : i8 to f32
// CHECK-NEXT:      %[[LOW:.*]] = arith.bitcast %[[LOF]] : f32 to i32
// CHECK-NEXT:      %[[HIF:.*]] = arith.sitofp %[[HI]] : i8 to f32
// CHECK-NEXT:      %[[HIW:.*]] = arith.bitcast %[[HIF]] : f32 to i32
// CHECK-NEXT:      %[[TOP:.*]] = arith.constant -65536 : i32
// CHECK-NEXT:      %[[SIXTEEN:.*]] = arith.constant 16 : i32
// CHECK-NEXT:      %[[L:.*]] = arith.shrui %[[LOW]], %[[SIXTEEN]] : i32
// CHECK-NEXT:      %[[H:.*]] = arith.andi %[[HIW]], %[[TOP]] : i32
// CHECK-NEXT:      %[[PAIR:.*]] = arith.ori %[[L]], %[[H]] : i32
// CHECK-NEXT:      linalg.yield %[[PAIR]] : i32
// CHECK:         %[[BF16:.*]] = memref.view %[[VNNI]][%{{.*}}][] : memref<2048xi8> to memref<16x64xbf16>
// CHECK:         %[[B0:.*]] = x86.amx.tile_load %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x32xbf16, strided<[64, 1], offset: ?>> into !x86.amx.tile<16x32xbf16>
// CHECK:         %[[B1:.*]] = x86.amx.tile_load %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x32xbf16, strided<[64, 1], offset: ?>> into !x86.amx.tile<16x32xbf16>
// CHECK:         %[[A:.*]] = x86.amx.tile_load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x32xbf16, strided<[32, 1], offset: ?>> into !x86.amx.tile<8x32xbf16>
// CHECK-NEXT:    %[[Z0:.*]] = x86.amx.tile_zero : !x86.amx.tile<8x16xf32>
// CHECK-NEXT:    %[[C0:.*]] = x86.amx.tile_mulf %[[A]], %[[B0]], %[[Z0]] : !x86.amx.tile<8x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<8x16xf32>
// CHECK-NEXT:    %[[Z1:.*]] = x86.amx.tile_zero : !x86.amx.tile<8x16xf32>
// CHECK-NEXT:    %[[C1:.*]] = x86.amx.tile_mulf %[[A]], %[[B1]], %[[Z1]] : !x86.amx.tile<8x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<8x16xf32>
// CHECK:         %[[S0:.*]] = memref.reinterpret_cast %[[SUMS]] to offset: [%{{.*}}], sizes: [8, 16], strides: [32, 1]
// CHECK:         x86.amx.tile_store %[[S0]][%{{.*}}, %{{.*}}], %[[C0]] : memref<8x16xf32, strided<[32, 1], offset: ?>>, !x86.amx.tile<8x16xf32>
// CHECK:         %[[S1:.*]] = memref.reinterpret_cast %[[SUMS]] to offset: [%{{.*}}], sizes: [8, 16], strides: [32, 1]
// CHECK:         x86.amx.tile_store %[[S1]][%{{.*}}, %{{.*}}], %[[C1]] : memref<8x16xf32, strided<[32, 1], offset: ?>>, !x86.amx.tile<8x16xf32>
// CHECK-NOT:     iterator_types = ["reduction", "parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]

// PLAIN-LABEL: func.func @gemm_8x256x256(
// PLAIN-NOT:   x86.amx
// PLAIN:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// PLAIN-NOT:   x86.amx
