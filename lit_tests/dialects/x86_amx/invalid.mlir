// RUN: spatial-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: spatial-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALL

// One verifier error a case, in order. A case that verified would print its module
// in the custom form, so ALL checks that every case failed.
// ALL-NOT: {{^}}builtin.module

func.func @too_many_rows() {
  %z = x86.amx.tile_zero : !x86.amx.tile<17x16xf32>
  func.return
}
// CHECK: a tile holds at most 16 rows of 64 bytes, got 17x16 of 4-byte elements

// -----

func.func @pairs_do_not_match(%x: memref<8x32xbf16>) {
  %c0 = arith.constant 0 : index
  %a = x86.amx.tile_load %x[%c0, %c0] : memref<8x32xbf16> into !x86.amx.tile<8x32xbf16>
  %z = x86.amx.tile_zero : !x86.amx.tile<8x16xf32>
  %c = x86.amx.tile_mulf %a, %a, %z : !x86.amx.tile<8x32xbf16>, !x86.amx.tile<8x32xbf16>, !x86.amx.tile<8x16xf32>
  func.return
}
// CHECK: tile_mulf of 8x32 and 8x32 (pairs of rows) into 8x16: expected 8x32 . 16x32 into 8x16

// -----

func.func @f32_inputs(%x: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %a = x86.amx.tile_load %x[%c0, %c0] : memref<8x16xf32> into !x86.amx.tile<8x16xf32>
  %c = x86.amx.tile_mulf %a, %a, %a : !x86.amx.tile<8x16xf32>, !x86.amx.tile<8x16xf32>, !x86.amx.tile<8x16xf32>
  func.return
}
// CHECK: tile_mulf multiplies bf16 tiles, got f32 and f32

// -----

func.func @bf16_accumulator(%x: memref<16x32xbf16>) {
  %c0 = arith.constant 0 : index
  %a = x86.amx.tile_load %x[%c0, %c0] : memref<16x32xbf16> into !x86.amx.tile<16x32xbf16>
  %c = x86.amx.tile_mulf %a, %a, %a : !x86.amx.tile<16x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<16x32xbf16>
  func.return
}
// CHECK: tile_mulf accumulates into an f32 tile, got bf16
