// The bundled GEMV (K = 2048, N = 4096) lowered with q8-lower, then converted to
// upstream dialects: each program's buffers as allocas of their declared bytes, its
// items and K blocks as scf.for, its loads and stores as copies of whole tiles, its
// stages as linalg.generics over views of the pages.
// RUN: xdsl-opt -p q8-lower,convert-spatial-to-linalg %S/../../../examples/gemv_q8.mlir | filecheck %s
// RUN: xdsl-opt -p q8-lower,convert-spatial-to-linalg %S/../../../examples/gemv_q8.mlir | filecheck %s --check-prefix=GONE

// GONE-NOT: spatial.
// GONE-NOT: q8.

// CHECK-LABEL: func.func @gemv(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2048xbf16>, %[[WQ:.*]]: tensor<2048x4096xi8>, %[[WS:.*]]: tensor<64x4096xf32>)
//
// The view: x enters as a read-only buffer and is read as it is: it is one row of a
// tile row, and what reads its pages (lift_rows) reads their first row alone, so no
// zero-padded copy is made. The view tensor is a buffer of its own.
// CHECK-NEXT:    %[[XB:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<1x2048xbf16> to memref<1x2048xbf16>
// CHECK-NOT:     memref<32x2048xbf16>
// CHECK-NEXT:    %[[VIEW:.*]] = memref.alloc() : memref<64x32xbf16>
//
// Its buffers: in_block holds 2 pages of 32 tiles of bf16 (131,072 bytes), out 2
// pages of one tile; then the item loop, one item per K block.
// CHECK-NEXT:    %[[INB:.*]] = memref.alloca() : memref<2x32x1024xbf16>
// CHECK-NEXT:    %[[OUT:.*]] = memref.alloca() : memref<2x32x32xbf16>
// CHECK:         scf.for %[[KB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[PIN:.*]] = memref.reinterpret_cast %[[INB]] to offset: [%{{.*}}], sizes: [32, 1024], strides: [1024, 1]
//
// The load: a block of 1 x 32 tiles of x at tile kb * 32, into the page: x's one
// row of each tile (the page's first row), the rest of the page unwritten.
// CHECK:           %[[FROM:.*]] = memref.reinterpret_cast %[[XB]] to offset: [%{{.*}}], sizes: [1, 1, 1024], strides: [65536, 2048, 1]
// CHECK-NEXT:      %[[TO:.*]] = memref.reinterpret_cast %[[INB]] to offset: [%{{.*}}], sizes: [1, 1, 1024], strides: [1024, 1024, 1]
// CHECK-NEXT:      linalg.copy ins(%[[FROM]] : memref<1x1x1024xbf16, strided<[65536, 2048, 1], offset: ?>>) outs(%[[TO]] : memref<1x1x1024xbf16, strided<[1024, 1024, 1], offset: ?>>)
//
// lift_rows: element 32 * b + i of the page's first row to element (b, i) of a tile.
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : memref<32x32xbf16, strided<[32, 1], offset: ?>>) outs(%{{.*}} : memref<32x32xbf16, strided<[32, 1], offset: ?>>)
// CHECK-NEXT:      ^bb0(%[[V:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:        linalg.yield %[[V]] : bf16
// CHECK-NEXT:      }
//
// The store: the tile to view tile row kb.
// CHECK:           %[[DST:.*]] = memref.reinterpret_cast %[[VIEW]] to offset: [%{{.*}}], sizes: [1, 32, 32], strides: [1024, 32, 1]
// CHECK-NEXT:      %[[SRC:.*]] = memref.reinterpret_cast %[[OUT]]
// CHECK-NEXT:      linalg.copy ins(%[[SRC]] : {{.*}}) outs(%[[DST]] : memref<1x32x32xbf16, strided<[1024, 32, 1], offset: ?>>)
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[VT:.*]] = bufferization.to_tensor %[[VIEW]] restrict writable : memref<64x32xbf16> to tensor<64x32xbf16>
//
// The fold: its inputs as read-only buffers, y a buffer of its one live row (its stores
// write no padding row), the buffers' allocas (757,760 bytes in all: in_q8 is 2 pages of
// 256 int8 tiles), then two scratches no buffer declares: the page of x widened to f32
// and the 32 sums of a Q8_0 block's lanes.
// CHECK-NEXT:    %[[VB:.*]] = bufferization.to_buffer %[[VT]] read_only : tensor<64x32xbf16> to memref<64x32xbf16>
// CHECK-NEXT:    %[[QB:.*]] = bufferization.to_buffer %[[WQ]] read_only : tensor<2048x4096xi8> to memref<2048x4096xi8>
// CHECK-NEXT:    %[[SB:.*]] = bufferization.to_buffer %[[WS]] read_only : tensor<64x4096xf32> to memref<64x4096xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc() : memref<1x4096xf32>
// CHECK-NEXT:    %[[INX:.*]] = memref.alloca() : memref<2x32x32xbf16>
// CHECK-NEXT:    %[[INQ:.*]] = memref.alloca() : memref<2x32x8192xi8>
// CHECK-NEXT:    %[[INS:.*]] = memref.alloca() : memref<2x32x256xf32>
// CHECK-NEXT:    %[[RSUM:.*]] = memref.alloca() : memref<2x32x256xf32>
// CHECK-NEXT:    %[[BLK:.*]] = memref.alloca() : memref<1x32x256xf32>
// CHECK-NEXT:    %[[RES:.*]] = memref.alloca() : memref<2x32x256xf32>
// CHECK-NEXT:    %[[XW:.*]] = memref.alloca() : memref<1024xf32>
// CHECK-NEXT:    %[[LS:.*]] = memref.alloca() : memref<32xf32>
//
// The 16 items; init_sum zeroes page 0 of run_sum.
// CHECK:         scf.for %[[ITEM:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[INIT:.*]] = memref.reinterpret_cast %[[RSUM]] to offset: [%{{.*}}], sizes: [32, 256], strides: [256, 1]
//
// The K loop: 2 trips carrying the running sum's page.
// CHECK:           %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (memref<32x256xf32, strided<[256, 1], offset: ?>>) {
//
// in_q8's page of this trip: slot kb mod 2.
// CHECK:             %[[SLOT:.*]] = arith.remui %[[K]], %{{.*}} : index
// CHECK:             %[[PQ:.*]] = memref.reinterpret_cast %[[INQ]] to offset: [%{{.*}}], sizes: [32, 8192], strides: [8192, 1]
//
// The int8 values: 32 x 8 tiles at tile kb * 4096 + item * 8 (stride 128): tile row a
// of the block to page tiles 8a .. 8a + 7, copied page row by page row (row r of
// every tile row, 8 KiB written contiguously).
// CHECK:             %[[QFROM:.*]] = memref.reinterpret_cast %[[QB]] to offset: [%{{.*}}], sizes: [32, 32, 256], strides: [4096, 131072, 1]
// CHECK-NEXT:        %[[QTO:.*]] = memref.reinterpret_cast %[[INQ]] to offset: [%{{.*}}], sizes: [32, 32, 256], strides: [8192, 256, 1]
// CHECK-NEXT:        linalg.copy ins(%[[QFROM]] : {{.*}}) outs(%[[QTO]] : memref<32x32x256xi8, strided<[8192, 256, 1], offset: ?>>)
//
// The scales: 1 x 8 tiles.
// CHECK:             linalg.copy ins(%{{.*}} : memref<1x32x256xf32, strided<[131072, 4096, 1], offset: ?>>) outs(%{{.*}} : memref<1x32x256xf32, strided<[256, 256, 1], offset: ?>>)
//
// block: y[n] = sum over blocks b of s[b, n] * (sum over lanes i of x[32b + i] * q[32b + i, n]).
// Only the 256 sums it writes start as zeros (the page's other rows are read by no one).
// x's page is widened to f32 once (extf is exact), so the lanes' loop reads f32.
// CHECK:             linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<8x32xf32, strided<[32, 1], offset: ?>>)
// CHECK:             %[[XWV:.*]] = memref.reinterpret_cast %[[XW]] to offset: [%{{.*}}], sizes: [32, 32], strides: [32, 1]
// CHECK-NEXT:        linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : memref<32x32xbf16, strided<[32, 1], offset: ?>>) outs(%[[XWV]] : memref<32x32xf32, strided<[32, 1], offset: ?>>)
// CHECK-NEXT:        ^bb0(%[[XIN:.*]]: bf16, %{{.*}}: f32):
// CHECK-NEXT:          %[[XE:.*]] = arith.extf %[[XIN]] : bf16 to f32
// CHECK-NEXT:          linalg.yield %[[XE]] : f32
// CHECK-NEXT:        }
//
// The 8 blocks of 32 columns, then the 32 Q8_0 blocks of the K block: the loops
// outside the lanes' sum.
// CHECK:             scf.for %[[CB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:               scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:                 %[[SUMS:.*]] = memref.reinterpret_cast %[[LS]] to offset: [%{{.*}}], sizes: [32], strides: [1]
// CHECK:                 linalg.fill ins(%{{.*}} : f32) outs(%[[SUMS]] : memref<32xf32, strided<[1], offset: ?>>)
//
// The lanes' sum: 32 lanes (reduction) of 32 columns (held in registers), each term
// x * q fused with its add (contract: a multiply-add).
// CHECK:                 linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK-SAME:              ins(%{{.*}}, %{{.*}} : memref<32xf32, strided<[1], offset: ?>>, memref<32x32xi8, strided<[8192, 1], offset: ?>>) outs(%[[SUMS]] : memref<32xf32, strided<[1], offset: ?>>)
// CHECK-NEXT:            ^bb0(%[[LX:.*]]: f32, %[[LQ:.*]]: i8, %[[LACC:.*]]: f32):
// CHECK-NEXT:              %[[QF:.*]] = arith.sitofp %[[LQ]] : i8 to f32
// CHECK-NEXT:              %[[P:.*]] = arith.mulf %[[LX]], %[[QF]] fastmath<contract> : f32
// CHECK-NEXT:              %[[NEW:.*]] = arith.addf %[[LACC]], %[[P]] fastmath<contract> : f32
// CHECK-NEXT:              linalg.yield %[[NEW]] : f32
// CHECK-NEXT:            }
//
// The block's sums times its scales, added into the output's 32 columns: one
// multiply-add a column.
// CHECK:                 linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-SAME:              ins(%{{.*}}, %[[SUMS]] : memref<32xf32, strided<[1], offset: ?>>, memref<32xf32, strided<[1], offset: ?>>) outs(%{{.*}} : memref<32xf32, strided<[1], offset: ?>>)
// CHECK-NEXT:            ^bb0(%[[SS:.*]]: f32, %[[SL:.*]]: f32, %[[SACC:.*]]: f32):
// CHECK-NEXT:              %[[SP:.*]] = arith.mulf %[[SL]], %[[SS]] fastmath<contract> : f32
// CHECK-NEXT:              %[[SNEW:.*]] = arith.addf %[[SACC]], %[[SP]] fastmath<contract> : f32
// CHECK-NEXT:              linalg.yield %[[SNEW]] : f32
// CHECK-NEXT:            }
// CHECK-NEXT:          }
// CHECK-NEXT:        }
//
// fold_sum: the carried page plus this block's sums, into the other page of run_sum.
// CHECK:             %[[NEXT:.*]] = memref.reinterpret_cast %[[RSUM]] to offset: [%{{.*}}], sizes: [32, 256], strides: [256, 1]
// CHECK:             memref.extract_strided_metadata %[[ACC]]
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:               arith.addf
// CHECK:             scf.yield %[[NEXT]] : memref<32x256xf32, strided<[256, 1], offset: ?>>
// CHECK-NEXT:      }
//
// The store: row 0 of the item's 8 tiles of y's only tile row (the rest is padding).
// CHECK:           %[[YTO:.*]] = memref.reinterpret_cast %[[Y]] to offset: [%{{.*}}], sizes: [1, 1, 256], strides: [131072, 4096, 1]
// CHECK-NEXT:      %[[YFROM:.*]] = memref.reinterpret_cast %[[RES]] to offset: [%{{.*}}], sizes: [1, 1, 256], strides: [256, 256, 1]
// CHECK-NEXT:      linalg.copy ins(%[[YFROM]] : {{.*}}) outs(%[[YTO]] : {{.*}})
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[RESULT:.*]] = bufferization.to_tensor %[[Y]] restrict writable : memref<1x4096xf32> to tensor<1x4096xf32>
// CHECK-NEXT:    func.return %[[RESULT]] : tensor<1x4096xf32>
