// RUN: spatial-opt %s | spatial-opt | filecheck %s
// RUN: spatial-opt %s --print-op-generic | spatial-opt | filecheck %s
// RUN: spatial-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The AMX tile ops convert-spatial-to-linalg{amx=true} emits, in MLIR's syntax for
// upstream's x86 dialect: 8 rows of 32 bf16 activations times 16 lane pairs of 16
// columns of weights, into 8 x 16 f32 sums.

// CHECK-LABEL: func.func @tiles
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = x86.amx.tile_load %{{.*}}[%[[C0]], %[[C0]]] : memref<8x32xbf16, strided<[64, 1], offset: ?>> into !x86.amx.tile<8x32xbf16>
// CHECK-NEXT:    %[[B:.*]] = x86.amx.tile_load %{{.*}}[%[[C0]], %[[C0]]] : memref<16x32xbf16> into !x86.amx.tile<16x32xbf16>
// CHECK-NEXT:    %[[Z:.*]] = x86.amx.tile_zero : !x86.amx.tile<8x16xf32>
// CHECK-NEXT:    %[[P:.*]] = x86.amx.tile_mulf %[[A]], %[[B]], %[[Z]] : !x86.amx.tile<8x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<8x16xf32>
// CHECK-NEXT:    x86.amx.tile_store %{{.*}}[%[[C0]], %[[C0]]], %[[P]] : memref<8x16xf32, strided<[32, 1], offset: ?>>, !x86.amx.tile<8x16xf32>
// CHECK-NEXT:    func.return

// GENERIC:       "x86.amx.tile_load"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<8x32xbf16, strided<[64, 1], offset: ?>>, index, index) -> !x86.amx.tile<8x32xbf16>
// GENERIC:       "x86.amx.tile_zero"() : () -> !x86.amx.tile<8x16xf32>
// GENERIC-NEXT:  "x86.amx.tile_mulf"(%{{.*}}, %{{.*}}, %{{.*}}) : (!x86.amx.tile<8x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<8x16xf32>) -> !x86.amx.tile<8x16xf32>
// GENERIC-NEXT:  "x86.amx.tile_store"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 2, 1, 0>}> : (memref<8x16xf32, strided<[32, 1], offset: ?>>, index, index, !x86.amx.tile<8x16xf32>) -> ()
func.func @tiles(%x: memref<8x32xbf16, strided<[64, 1], offset: ?>>, %w: memref<16x32xbf16>, %s: memref<8x16xf32, strided<[32, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %a = x86.amx.tile_load %x[%c0, %c0] : memref<8x32xbf16, strided<[64, 1], offset: ?>> into !x86.amx.tile<8x32xbf16>
  %b = x86.amx.tile_load %w[%c0, %c0] : memref<16x32xbf16> into !x86.amx.tile<16x32xbf16>
  %z = x86.amx.tile_zero : !x86.amx.tile<8x16xf32>
  %c = x86.amx.tile_mulf %a, %b, %z : !x86.amx.tile<8x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<8x16xf32>
  x86.amx.tile_store %s[%c0, %c0], %c : memref<8x16xf32, strided<[32, 1], offset: ?>>, !x86.amx.tile<8x16xf32>
  func.return
}
