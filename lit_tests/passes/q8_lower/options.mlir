// One RUN per option value of q8-lower; each prefix pins what that target changes.
//
// RUN: spatial-opt %s -p q8-lower | filecheck %s --check-prefix=TENSIX
// RUN: spatial-opt %s -p 'q8-lower{preset=tensix}' | filecheck %s --check-prefix=TENSIX
// RUN: spatial-opt %s -p 'q8-lower{preset=reference report=true}' 2>&1 | filecheck %s --check-prefix=REF
// RUN: spatial-opt %s -p 'q8-lower{local-mem=393216}' | filecheck %s --check-prefix=MEM384K
// RUN: spatial-opt %s -p 'q8-lower{local-mem=100000 report=true}' 2>&1 | filecheck %s --check-prefix=NOVIEW
// RUN: spatial-opt %s -p 'q8-lower{local-mem=65536 report=true}' 2>&1 | filecheck %s --check-prefix=NOFIT
// RUN: spatial-opt %s -p 'q8-lower{acc-tiles=3}' | filecheck %s --check-prefix=ACC3
// RUN: spatial-opt %s -p 'q8-lower{acc-tiles=16}' | filecheck %s --check-prefix=ACC16
// RUN: spatial-opt %s -p 'q8-lower{tile-rows=16 report=true}' 2>&1 | filecheck %s --check-prefix=TILE16
// RUN: spatial-opt %s -p 'q8-lower{tile-cols=64 report=true}' 2>&1 | filecheck %s --check-prefix=TILE64
// RUN: spatial-opt %s -p 'q8-lower{tile-rows=32 tile-cols=32}' | filecheck %s --check-prefix=TENSIX
// RUN: spatial-opt %s -p 'q8-lower{preset=nope}' --verify-diagnostics | filecheck %s --check-prefix=BADPRESET
// RUN: spatial-opt %s -p 'q8-lower{local-mem=0}' --verify-diagnostics | filecheck %s --check-prefix=BADMEM

func.func @gemv(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xbf16>
  %empty = tensor.empty() : tensor<1x4096xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x4096xbf16>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}

func.func @gemm8(%x: tensor<8x4096xbf16>, %V__q8: tensor<4096x4096xi8>, %V__q8_scale: tensor<128x4096xf32>) -> tensor<8x4096xf32> {
  %w = q8.dequantize %V__q8, %V__q8_scale : tensor<4096x4096xi8>, tensor<128x4096xf32> -> tensor<4096x4096xbf16>
  %empty = tensor.empty() : tensor<8x4096xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x4096xbf16>, tensor<4096x4096xbf16>) outs(%acc : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  func.return %y : tensor<8x4096xf32>
}

// A batch of 16 folds on tensix but not on the reference's site (see REF).
func.func @gemm16(%x: tensor<16x4096xbf16>, %V__q8: tensor<4096x4096xi8>, %V__q8_scale: tensor<128x4096xf32>) -> tensor<16x4096xf32> {
  %w = q8.dequantize %V__q8, %V__q8_scale : tensor<4096x4096xi8>, tensor<128x4096xf32> -> tensor<4096x4096xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<16x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x4096xbf16>, tensor<4096x4096xbf16>) outs(%acc : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  func.return %y : tensor<16x4096xf32>
}

// tensix (the default, or spelled out): 1.5 MiB and 8 accumulator tiles; wb = 8.
// TENSIX-LABEL: func.func @gemv(
// TENSIX:         spatial.fold "q8_gemv_2048x4096_w8" grid [16] owns (d0) -> (0, d0 * 8) size [1, 8]
// TENSIX-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
// TENSIX-NEXT:      plan #spatial.plan<grid = [1, 16], k_blocks = 2, site = [1, 8]>
// TENSIX-LABEL: func.func @gemm8(
// TENSIX:         spatial.fold "q8_gemm_8x4096x4096_w8" grid [16]
// TENSIX-LABEL: func.func @gemm16(
// TENSIX:         spatial.fold "q8_gemm_16x4096x4096_w8" grid [16]

// The reference's site (320 KiB): one row folds wb = 2 (8 needs 757760 B, 4 needs
// 380928 B, 2 needs 192512 B); a batch of 8 also folds wb = 2 (278528 B; 4 would need
// 524288 B), its view reads 64 * 4 * 8 * 2048 = 4194304 B, 22% of the weight's
// 18874368 B.
// A batch of 16 fits only wb = 1 there (221184 B; 2 needs 376832 B): 128 items each
// read the 4 x 16 view tiles, 128 x 4 x 16 x 2048 = 16777216 B, and with the weight's
// 4096 x 4096 + 4 x 128 x 4096 = 18874368 B that is more than a bf16 copy's 33554432 B.
// REF: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 2,
// REF: q8-lower: linalg.matmul %y 8x4096x4096: lowered: wb = 2,
// REF: q8-lower: linalg.matmul %y 16x4096x4096: not lowered: weight 18874368 B + view reads 16777216 B = 35651584 B >= a bf16 copy's 33554432 B
// REF-LABEL: func.func @gemv(
// REF:         spatial.fold "q8_gemv_2048x4096_w2" grid [64] owns (d0) -> (0, d0 * 2) size [1, 2]
// REF-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 8>
// REF-NEXT:      plan #spatial.plan<grid = [1, 64], k_blocks = 2, site = [1, 2]>
// REF:           spatial.buffer "in_q8" : !spatial.buffer<64xi8, depth 2>
// REF:           spatial.load %{{.*}}[%[[K:.*]] * 4096 + %[[I:.*]] * 2] block 32x2 stride 128 repeat 2
// REF:           spatial.store %{{.*}}[%[[I]] * 2] block 1x2 stride 128 repeat 1
// REF-LABEL: func.func @gemm8(
// REF:         spatial.view "q8_view_8x4096_from0" grid [4, 1]
// REF-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 8>
// REF:         spatial.fold "q8_gemm_8x4096x4096_w2" grid [64] owns (d0) -> (0, d0 * 2) size [1, 2]
// REF-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 8>
// REF-NEXT:      plan #spatial.plan<grid = [1, 64], k_blocks = 4, site = [1, 2]>
// REF-LABEL: func.func @gemm16(
// REF-NOT:       spatial.
// REF:           linalg.matmul

// 384 KiB: wb = 8 needs 757760 B, wb = 4 needs 380928 B and fits. The batch of 8 fits
// wb = 2 (278528 B; wb = 4 needs 524288 B).
// MEM384K-LABEL: func.func @gemv(
// MEM384K:         spatial.view "q8_view_1x2048_from0" grid [2]
// MEM384K-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 393216, acc_tiles = 8>
// MEM384K:         spatial.fold "q8_gemv_2048x4096_w4" grid [32] owns (d0) -> (0, d0 * 4) size [1, 4]
// MEM384K-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 393216, acc_tiles = 8>
// MEM384K-NEXT:      plan #spatial.plan<grid = [1, 32], k_blocks = 2, site = [1, 4]>
// MEM384K:           spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
// MEM384K-NEXT:      spatial.buffer "in_q8" : !spatial.buffer<128xi8, depth 2>
// MEM384K-NEXT:      spatial.buffer "in_scale" : !spatial.buffer<4xf32, depth 2>
// MEM384K-NEXT:      spatial.buffer "run_sum" : !spatial.buffer<4xf32, depth 2>
// MEM384K:           spatial.buffer "block" : !spatial.buffer<4xf32, depth 1>
// MEM384K:             spatial.load %{{.*}}[%[[K:.*]] * 4096 + %[[I:.*]] * 4] block 32x4 stride 128 repeat 2
// MEM384K-NEXT:        spatial.load %{{.*}}[%[[K]] * 128 + %[[I]] * 4] block 1x4 stride 128 repeat 2
// MEM384K-NEXT:        spatial.stage "block" iters(sum 32, par 128, sum 32)
// MEM384K:           spatial.buffer "out" : !spatial.buffer<4xf32, depth 2>
// MEM384K:           spatial.store %{{.*}}[%[[I]] * 4] block 1x4 stride 128 repeat 1
// MEM384K-LABEL: func.func @gemm8(
// MEM384K:         spatial.fold "q8_gemm_8x4096x4096_w2" grid [64]

// 100000 B: the fold fits one column tile (98304 B) but the view's page of a whole K
// block does not (2 x 32 tiles x 2 KiB + 2 x 1 tile x 2 KiB = 135168 B): untouched.
// NOVIEW: q8-lower: linalg.matmul %y 1x2048x4096: not lowered: the view's buffers need 135168 B of local memory, a site has 100000
// NOVIEW: q8-lower: linalg.matmul %y 8x4096x4096: not lowered: no column group fits: one column tile needs 155648 B of local memory, a site has 100000
// NOVIEW-LABEL: func.func @gemv(
// NOVIEW-NOT:     spatial.
// NOVIEW:         linalg.matmul
// NOVIEW-LABEL: func.func @gemm8(
// NOVIEW-NOT:     spatial.
// NOVIEW:         linalg.matmul

// 64 KiB: not even one column tile's buffers fit (98304 B): untouched.
// NOFIT: q8-lower: linalg.matmul %y 1x2048x4096: not lowered: no column group fits: one column tile needs 98304 B of local memory, a site has 65536
// NOFIT-LABEL: func.func @gemv(
// NOFIT-NEXT:    %[[W:.*]] = q8.dequantize
// NOFIT-NOT:     spatial.
// NOFIT:         linalg.matmul ins(%{{.*}}, %[[W]] :

// 3 accumulator tiles: 3 does not divide 128 column tiles, so wb = 2.
// ACC3-LABEL: func.func @gemv(
// ACC3:         spatial.fold "q8_gemv_2048x4096_w2" grid [64]
// ACC3-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 3>

// 16 accumulator tiles: wb = 16 fits tensix (1511424 B) for one row; the batch of 8
// needs 1998848 B at 16 and folds 8.
// ACC16-LABEL: func.func @gemv(
// ACC16:         spatial.fold "q8_gemv_2048x4096_w16" grid [8] owns (d0) -> (0, d0 * 16) size [1, 16]
// ACC16:           spatial.buffer "in_q8" : !spatial.buffer<512xi8, depth 2>
// ACC16-LABEL: func.func @gemm8(
// ACC16:         spatial.fold "q8_gemm_8x4096x4096_w8" grid [16]

// A tile that is not 32x32 cannot hold a Q8_0 block a tile row: untouched.
// TILE16: q8-lower: linalg.matmul %y 1x2048x4096: not lowered: the tile must be square with 32 rows (one Q8_0 block), the target's is 16x32
// TILE16-LABEL: func.func @gemv(
// TILE16-NOT:     spatial.
// TILE16:         linalg.matmul
// TILE64: q8-lower: linalg.matmul %y 1x2048x4096: not lowered: the tile must be square with 32 rows (one Q8_0 block), the target's is 32x64
// TILE64-LABEL: func.func @gemv(
// TILE64-NOT:     spatial.
// TILE64:         linalg.matmul

// BADPRESET: q8-lower: unknown target preset 'nope', expected one of blackhole_p150, reference, tensix, wormhole_n150
// BADMEM: q8-lower: local-mem must be positive, got 0
