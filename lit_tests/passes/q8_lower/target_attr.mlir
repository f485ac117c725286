// A module's `spatial.target` attribute is the target when no preset is given; a
// preset replaces it, and each of local-mem/acc-tiles/tile-* overrides its field.
//
// RUN: spatial-opt %s --split-input-file -p q8-lower | filecheck %s --check-prefix=ATTR
// RUN: spatial-opt %s --split-input-file -p 'q8-lower{preset=tensix}' | filecheck %s --check-prefix=PRESET
// RUN: spatial-opt %s --split-input-file -p 'q8-lower{acc-tiles=2}' | filecheck %s --check-prefix=ACC2
// RUN: spatial-opt %s --split-input-file -p 'q8-lower{tile-rows=16 report=true}' 2>&1 | filecheck %s --check-prefix=TILE

builtin.module attributes {spatial.target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 393216, acc_tiles = 4>} {
  func.func @gemv(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
    %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xbf16>
    %acc = arith.constant dense<0.000000e+00> : tensor<1x4096xf32>
    %y = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x4096xbf16>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
    func.return %y : tensor<1x4096xf32>
  }
}

// ATTR-LABEL: func.func @gemv(
// ATTR:         spatial.view "q8_view_1x2048_from0" grid [2]
// ATTR-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 393216, acc_tiles = 4>
// ATTR:         spatial.fold "q8_gemv_2048x4096_w4" grid [32] owns (d0) -> (0, d0 * 4) size [1, 4]
// ATTR-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 393216, acc_tiles = 4>
// PRESET-LABEL: func.func @gemv(
// PRESET:         spatial.fold "q8_gemv_2048x4096_w8" grid [16]
// PRESET-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
// ACC2-LABEL: func.func @gemv(
// ACC2:         spatial.fold "q8_gemv_2048x4096_w2" grid [64]
// ACC2-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 393216, acc_tiles = 2>
// TILE: q8-lower: linalg.matmul %y 1x2048x4096: not lowered: the tile must be square with 32 rows (one Q8_0 block), the target's is 16x32

// -----

// The named form of the attribute.
builtin.module attributes {spatial.target = #spatial.target<"reference">} {
  func.func @gemv_ref(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
    %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xbf16>
    %acc = arith.constant dense<0.000000e+00> : tensor<1x4096xf32>
    %y = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x4096xbf16>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
    func.return %y : tensor<1x4096xf32>
  }
}

// ATTR-LABEL: func.func @gemv_ref(
// ATTR:         spatial.fold "q8_gemv_2048x4096_w2" grid [64]
// ATTR-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 8>
// PRESET-LABEL: func.func @gemv_ref(
// PRESET:         spatial.fold "q8_gemv_2048x4096_w8" grid [16]
// ACC2-LABEL: func.func @gemv_ref(
// ACC2:         spatial.fold "q8_gemv_2048x4096_w2" grid [64]
// ACC2-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 2>
// TILE: q8-lower: linalg.matmul %y 1x2048x4096: not lowered: the tile must be square with 32 rows (one Q8_0 block), the target's is 16x32
