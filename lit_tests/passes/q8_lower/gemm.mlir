// RUN: spatial-opt %s -p q8-lower | filecheck %s

// A batch of m rows (1 < m <= 32) on the default target (tensix: 1.5 MiB, 8
// accumulator tiles). The view gives each (K block, row) a tile: tile row kb * m + r
// holds row r's K block kb, lifted `rows` rows at a time (the largest divisor of m up
// to 8) through a lanes table whose entry c is (c / 32) * 1024 + c % 32.

// m = 8, K = 4096, N = 4096: 128 column tiles, wb = 8 (buffers 1015808 B), 16 items,
// 4 K blocks; the view is 8 * 4 * 32 = 1024 rows, 4 items of 8 rows.
func.func @gemm_8x4096x4096(%x: tensor<8x4096xbf16>, %W__q8: tensor<4096x4096xi8>, %W__q8_scale: tensor<128x4096xf32>) -> tensor<8x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<4096x4096xi8>, tensor<128x4096xf32> -> tensor<4096x4096xf32>
  %xf = arith.extf %x : tensor<8x4096xbf16> to tensor<8x4096xf32>
  %empty = tensor.empty() : tensor<8x4096xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<8x4096xf32>, tensor<4096x4096xf32>) outs(%acc : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  func.return %y : tensor<8x4096xf32>
}

// CHECK-LABEL: func.func @gemm_8x4096x4096(
// CHECK-SAME:      %[[X:.*]]: tensor<8x4096xbf16>, %[[WQ:.*]]: tensor<4096x4096xi8>, %[[WS:.*]]: tensor<128x4096xf32>)
// CHECK-NEXT:    %[[VIEW:.*]] = spatial.view "q8_view_8x4096_from0" grid [4, 1] owns (d0, d1) -> (d0 * 8 + d1 * 8, 0) size [8, 1]
// CHECK-NEXT:      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
// CHECK-NEXT:      plan #spatial.plan<grid = [4, 1], k_blocks = 1, site = [8, 1]> numerics exact
// CHECK-NEXT:      ins(%[[X]] : tensor<8x4096xbf16>) -> tensor<1024x32xbf16> {
// CHECK-NEXT:    ^bb0(%[[KB:.*]]: index, %[[C:.*]]: index, %[[XIN:.*]]: tensor<8x4096xbf16>):
// CHECK-NEXT:      %[[XT:.*]] = spatial.tensor "x" external(%[[XIN]] : tensor<8x4096xbf16>) : !spatial.tensor<8x4096xbf16, input>
// CHECK-NEXT:      %[[VT:.*]] = spatial.tensor "x__q8_rows0" zero : !spatial.tensor<1024x32xbf16, output>
// CHECK-NEXT:      %[[BIN:.*]] = spatial.buffer "in_block" : !spatial.buffer<32xbf16, depth 2>
// CHECK-NEXT:      %[[BOUT:.*]] = spatial.buffer "out" : !spatial.buffer<8xbf16, depth 2>
// CHECK-NEXT:      %[[PX:.*]] = spatial.load %[[XT]][%[[KB]] * 32] block 1x32 stride 128 repeat 1 into %[[BIN]] : !spatial.tensor<8x4096xbf16, input> -> !spatial.page<32xbf16>
// Lanes 0..31, then 1024.. (row 1 of the x page):
// CHECK-NEXT:      %[[LT:.*]] = spatial.tensor "x__q8_rows0__lanes0" values dense<"0x00000100020003000400050006000700080009000A000B000C000D000E000F0010001100120013001400150016001700180019001A001B001C001D001E001F000004{{[0-9A-F]*}}"> : tensor<1x256xi16> : !spatial.tensor<1x256xi16, param>
// CHECK-NEXT:      %[[BL:.*]] = spatial.buffer "in_lanes" : !spatial.buffer<8xi16, depth 1>
// CHECK-NEXT:      %[[PL:.*]] = spatial.load %[[LT]][%[[C]] * 8] block 1x8 stride 8 repeat 1 into %[[BL]] : !spatial.tensor<1x256xi16, param> -> !spatial.page<8xi16>
// CHECK-NEXT:      %[[LIFT:.*]] = spatial.stage "lift_rows" iters(par 32, par 256)
// CHECK-NEXT:        ins(%[[PX]][d0 * 32 + s0 | s0 = in1], %[[PL]][d1]) into %[[BOUT]][d0 * 256 + d1] : (!spatial.page<32xbf16>, !spatial.page<8xi16>) -> !spatial.page<8xbf16> {
// CHECK-NEXT:      ^bb0(%[[E:.*]]: bf16, %{{.*}}: i16):
// CHECK-NEXT:        spatial.yield %[[E]] : bf16
// CHECK-NEXT:      }
// CHECK-NEXT:      spatial.store %[[LIFT]] to %[[VT]][%[[KB]] * 8 + %[[C]] * 8] block 8x1 stride 1 repeat 1 : !spatial.page<8xbf16> -> !spatial.tensor<1024x32xbf16, output>
// CHECK-NEXT:      spatial.return %[[VT]] : !spatial.tensor<1024x32xbf16, output>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Y:.*]] = spatial.fold "q8_gemm_8x4096x4096_w8" grid [16] owns (d0) -> (0, d0 * 8) size [1, 8]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 16], k_blocks = 4, site = [1, 8]> numerics approx "a Q8_0 product over 8 bf16 rows"
// CHECK-NEXT:      ins(%[[VIEW]], %[[WQ]], %[[WS]] : tensor<1024x32xbf16>, tensor<4096x4096xi8>, tensor<128x4096xf32>) -> tensor<8x4096xf32> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[VIN:.*]]: tensor<1024x32xbf16>, %[[QIN:.*]]: tensor<4096x4096xi8>, %[[SIN:.*]]: tensor<128x4096xf32>):
// CHECK-NEXT:      %[[V:.*]] = spatial.tensor "x__q8_rows0" external(%[[VIN]] : tensor<1024x32xbf16>) : !spatial.tensor<1024x32xbf16, input>
// CHECK-NEXT:      %[[Q:.*]] = spatial.tensor "W__q8" external(%[[QIN]] : tensor<4096x4096xi8>) repack <q8_0.values> : !spatial.tensor<4096x4096xi8, param>
// CHECK-NEXT:      %[[S:.*]] = spatial.tensor "W__q8_scale" external(%[[SIN]] : tensor<128x4096xf32>) repack <q8_0.scales> : !spatial.tensor<128x4096xf32, param>
// CHECK-NEXT:      %[[YT:.*]] = spatial.tensor "y" zero : !spatial.tensor<8x4096xf32, output>
// CHECK-NEXT:      %[[BX:.*]] = spatial.buffer "in_x" : !spatial.buffer<8xbf16, depth 2>
// CHECK-NEXT:      %[[BQ:.*]] = spatial.buffer "in_q8" : !spatial.buffer<256xi8, depth 2>
// CHECK-NEXT:      %[[BS:.*]] = spatial.buffer "in_scale" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[RSUM:.*]] = spatial.buffer "run_sum" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[INIT:.*]] = spatial.stage "init_sum" iters(par 32, par 256)
// CHECK:           %[[B0:.*]] = spatial.buffer "block_0" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[B1:.*]] = spatial.buffer "block_1" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[B2:.*]] = spatial.buffer "block_2" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[B3:.*]] = spatial.buffer "block_3" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[B4:.*]] = spatial.buffer "block_4" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[B5:.*]] = spatial.buffer "block_5" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[B6:.*]] = spatial.buffer "block_6" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[B7:.*]] = spatial.buffer "block_7" : !spatial.buffer<8xf32, depth 1>
// CHECK-NEXT:      %[[SUM:.*]] = spatial.k_loop %[[K:.*]] = 0 to 4 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (!spatial.page<8xf32>) {
// CHECK-NEXT:        %[[PXK:.*]] = spatial.load %[[V]][%[[K]] * 8] block 8x1 stride 1 repeat 4 into %[[BX]] : !spatial.tensor<1024x32xbf16, input> -> !spatial.page<8xbf16>
// CHECK-NEXT:        %[[PQ:.*]] = spatial.load %[[Q]][%[[K]] * 4096 + %[[I]] * 8] block 32x8 stride 128 repeat 4 into %[[BQ]] : !spatial.tensor<4096x4096xi8, param> -> !spatial.page<256xi8>
// CHECK-NEXT:        %[[PS:.*]] = spatial.load %[[S]][%[[K]] * 128 + %[[I]] * 8] block 1x8 stride 128 repeat 4 into %[[BS]] : !spatial.tensor<128x4096xf32, param> -> !spatial.page<8xf32>
//
// Row r reads tile r of the 8-tile view page (element r * 32 + b * 256 + i); every row
// reads the same values and scales.
// CHECK-NEXT:        %[[S0:.*]] = spatial.stage "block_0" iters(sum 32, par 256, sum 32)
// CHECK-NEXT:          ins(%[[PXK]][d0 * 256 + d2], %[[PQ]][d2 * 8192 + d0 * 256 + d1], %[[PS]][d0 * 256 + d1]) into %[[B0]][d1] : (!spatial.page<8xbf16>, !spatial.page<256xi8>, !spatial.page<8xf32>) -> !spatial.page<8xf32> {
// CHECK:             %[[S1:.*]] = spatial.stage "block_1" iters(sum 32, par 256, sum 32)
// CHECK-NEXT:          ins(%[[PXK]][d0 * 256 + d2 + 32], %[[PQ]][d2 * 8192 + d0 * 256 + d1], %[[PS]][d0 * 256 + d1]) into %[[B1]][d1]
// CHECK:             %[[S2:.*]] = spatial.stage "block_2"
// CHECK-NEXT:          ins(%[[PXK]][d0 * 256 + d2 + 64], {{.*}} into %[[B2]][d1]
// CHECK:             %[[S3:.*]] = spatial.stage "block_3"
// CHECK-NEXT:          ins(%[[PXK]][d0 * 256 + d2 + 96], {{.*}} into %[[B3]][d1]
// CHECK:             %[[S4:.*]] = spatial.stage "block_4"
// CHECK-NEXT:          ins(%[[PXK]][d0 * 256 + d2 + 128], {{.*}} into %[[B4]][d1]
// CHECK:             %[[S5:.*]] = spatial.stage "block_5"
// CHECK-NEXT:          ins(%[[PXK]][d0 * 256 + d2 + 160], {{.*}} into %[[B5]][d1]
// CHECK:             %[[S6:.*]] = spatial.stage "block_6"
// CHECK-NEXT:          ins(%[[PXK]][d0 * 256 + d2 + 192], {{.*}} into %[[B6]][d1]
// CHECK:             %[[S7:.*]] = spatial.stage "block_7" iters(sum 32, par 256, sum 32)
// CHECK-NEXT:          ins(%[[PXK]][d0 * 256 + d2 + 224], %[[PQ]][d2 * 8192 + d0 * 256 + d1], %[[PS]][d0 * 256 + d1]) into %[[B7]][d1]
//
// Row r's sum lands in row r of the carry only: carry + sum_r [d0 == r] * sum_r.
// CHECK:             %[[FOLD:.*]] = spatial.stage "fold_sum" iters(par 32, par 256)
// CHECK-NEXT:          ins(%[[ACC]][d0 * 256 + d1], %[[S0]][d1], %[[S1]][d1], %[[S2]][d1], %[[S3]][d1], %[[S4]][d1], %[[S5]][d1], %[[S6]][d1], %[[S7]][d1]) into %[[RSUM]][d0 * 256 + d1]
// CHECK-NEXT:        ^bb0(%[[A:.*]]: f32, %[[R0:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %[[R7:.*]]: f32):
// CHECK-NEXT:          %[[D0:.*]] = spatial.index 0 : index
// CHECK-NEXT:          %[[ZF:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:          %[[ZI:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[ON0:.*]] = arith.cmpi eq, %[[D0]], %[[ZI]] : index
// CHECK-NEXT:          %[[T0:.*]] = arith.select %[[ON0]], %[[R0]], %[[ZF]] : f32
// CHECK-COUNT-6:       arith.select %{{.*}}, %{{.*}}, %[[ZF]] : f32
// CHECK-NEXT:          %[[SEVEN:.*]] = arith.constant 7 : index
// CHECK-NEXT:          %[[ON7:.*]] = arith.cmpi eq, %[[D0]], %[[SEVEN]] : index
// CHECK-NEXT:          %[[T7:.*]] = arith.select %[[ON7]], %[[R7]], %[[ZF]] : f32
// CHECK-NEXT:          %[[P0:.*]] = arith.addf %[[A]], %[[T0]] : f32
// CHECK-COUNT-6:       arith.addf
// CHECK-NEXT:          %[[P7:.*]] = arith.addf %{{.*}}, %[[T7]] : f32
// CHECK-NEXT:          spatial.yield %[[P7]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        spatial.k_yield %[[FOLD]] : !spatial.page<8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[OUT:.*]] = spatial.buffer "out" : !spatial.buffer<8xf32, depth 2>
// CHECK-NEXT:      %[[RES:.*]] = spatial.stage "result" iters(par 32, par 256)
// CHECK-NEXT:        ins(%[[SUM]][d0 * 256 + d1]) into %[[OUT]][d0 * 256 + d1]
// CHECK:           spatial.store %[[RES]] to %[[YT]][%[[I]] * 8] block 1x8 stride 128 repeat 1 : !spatial.page<8xf32> -> !spatial.tensor<8x4096xf32, output>
// CHECK-NEXT:      spatial.return %[[YT]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[Y]] : tensor<8x4096xf32>
// CHECK-NEXT:  }

// m = 4, K = 4096, N = 100: N pads to 4 column tiles (128 columns); wb = 4 (the
// widest divisor of 4 up to 8), one item. The stored weight keeps its 100 columns.
func.func @gemm_4x4096x100(%x: tensor<4x4096xbf16>, %P__q8: tensor<4096x100xi8>, %P__q8_scale: tensor<128x100xf32>) -> tensor<4x100xf32> {
  %w = q8.dequantize %P__q8, %P__q8_scale : tensor<4096x100xi8>, tensor<128x100xf32> -> tensor<4096x100xbf16>
  %empty = tensor.empty() : tensor<4x100xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x100xf32>) -> tensor<4x100xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x4096xbf16>, tensor<4096x100xbf16>) outs(%acc : tensor<4x100xf32>) -> tensor<4x100xf32>
  func.return %y : tensor<4x100xf32>
}

// CHECK-LABEL: func.func @gemm_4x4096x100(
// CHECK-SAME:      %[[X:.*]]: tensor<4x4096xbf16>, %[[PQ:.*]]: tensor<4096x100xi8>, %[[PS:.*]]: tensor<128x100xf32>)
// CHECK-NEXT:    %[[VIEW:.*]] = spatial.view "q8_view_4x4096_from0" grid [4, 1] owns (d0, d1) -> (d0 * 4 + d1 * 4, 0) size [4, 1]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [4, 1], k_blocks = 1, site = [4, 1]> numerics exact
// CHECK-NEXT:      ins(%[[X]] : tensor<4x4096xbf16>) -> tensor<512x32xbf16> {
// CHECK-NEXT:    ^bb0(%[[KB:.*]]: index, %[[C:.*]]: index, %[[XIN:.*]]: tensor<4x4096xbf16>):
// CHECK-NEXT:      %[[XT:.*]] = spatial.tensor "x" external(%[[XIN]] : tensor<4x4096xbf16>)
// CHECK-NEXT:      %[[VT:.*]] = spatial.tensor "x__q8_rows0" zero : !spatial.tensor<512x32xbf16, output>
// CHECK-NEXT:      %[[BIN:.*]] = spatial.buffer "in_block" : !spatial.buffer<32xbf16, depth 2>
// CHECK-NEXT:      %[[BOUT:.*]] = spatial.buffer "out" : !spatial.buffer<4xbf16, depth 2>
// CHECK-NEXT:      %[[PX:.*]] = spatial.load %[[XT]][%[[KB]] * 32] block 1x32 stride 128 repeat 1 into %[[BIN]]
// The whole table: (c / 32) * 1024 + c % 32 for c < 4 * 32, little-endian i16.
// CHECK-NEXT:      %[[LT:.*]] = spatial.tensor "x__q8_rows0__lanes0" values dense<"0x00000100020003000400050006000700080009000A000B000C000D000E000F0010001100120013001400150016001700180019001A001B001C001D001E001F0000040104020403040404050406040704080409040A040B040C040D040E040F0410041104120413041404150416041704180419041A041B041C041D041E041F0400080108020803080408050806080708080809080A080B080C080D080E080F0810081108120813081408150816081708180819081A081B081C081D081E081F08000C010C020C030C040C050C060C070C080C090C0A0C0B0C0C0C0D0C0E0C0F0C100C110C120C130C140C150C160C170C180C190C1A0C1B0C1C0C1D0C1E0C1F0C"> : tensor<1x128xi16> : !spatial.tensor<1x128xi16, param>
// CHECK-NEXT:      %[[BL:.*]] = spatial.buffer "in_lanes" : !spatial.buffer<4xi16, depth 1>
// CHECK-NEXT:      %[[PL:.*]] = spatial.load %[[LT]][%[[C]] * 4] block 1x4 stride 4 repeat 1 into %[[BL]]
// CHECK-NEXT:      %[[LIFT:.*]] = spatial.stage "lift_rows" iters(par 32, par 128)
// CHECK-NEXT:        ins(%[[PX]][d0 * 32 + s0 | s0 = in1], %[[PL]][d1]) into %[[BOUT]][d0 * 128 + d1]
// CHECK:           spatial.store %[[LIFT]] to %[[VT]][%[[KB]] * 4 + %[[C]] * 4] block 4x1 stride 1 repeat 1
// CHECK:         %[[Y:.*]] = spatial.fold "q8_gemm_4x4096x100_w4" grid [1] owns (d0) -> (0, d0 * 4) size [1, 4]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 1], k_blocks = 4, site = [1, 4]> numerics approx "a Q8_0 product over 4 bf16 rows; the source rounds its weight to bf16, the fold multiplies q * s exactly"
// CHECK-NEXT:      ins(%[[VIEW]], %[[PQ]], %[[PS]] : tensor<512x32xbf16>, tensor<4096x100xi8>, tensor<128x100xf32>) -> tensor<4x100xf32> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %{{.*}}: tensor<512x32xbf16>, %{{.*}}: tensor<4096x100xi8>, %{{.*}}: tensor<128x100xf32>):
// CHECK-NEXT:      %[[V:.*]] = spatial.tensor "x__q8_rows0" external({{.*}}) : !spatial.tensor<512x32xbf16, input>
// CHECK-NEXT:      %[[Q:.*]] = spatial.tensor "P__q8" external({{.*}}) repack <q8_0.values> : !spatial.tensor<4096x100xi8, param>
// CHECK-NEXT:      %[[S:.*]] = spatial.tensor "P__q8_scale" external({{.*}}) repack <q8_0.scales> : !spatial.tensor<128x100xf32, param>
// CHECK-NEXT:      %[[YT:.*]] = spatial.tensor "y" zero : !spatial.tensor<4x100xf32, output>
// CHECK-NEXT:      %[[BX:.*]] = spatial.buffer "in_x" : !spatial.buffer<4xbf16, depth 2>
// CHECK-NEXT:      %[[BQ:.*]] = spatial.buffer "in_q8" : !spatial.buffer<128xi8, depth 2>
// CHECK-NEXT:      %[[BS:.*]] = spatial.buffer "in_scale" : !spatial.buffer<4xf32, depth 2>
// CHECK-NEXT:      %[[RSUM:.*]] = spatial.buffer "run_sum" : !spatial.buffer<4xf32, depth 2>
// CHECK:           spatial.buffer "block_3" : !spatial.buffer<4xf32, depth 1>
// CHECK-NEXT:      %[[SUM:.*]] = spatial.k_loop %[[K:.*]] = 0 to 4 iter_args
// CHECK-NEXT:        %[[PXK:.*]] = spatial.load %[[V]][%[[K]] * 4] block 4x1 stride 1 repeat 4 into %[[BX]]
// CHECK-NEXT:        %[[PQK:.*]] = spatial.load %[[Q]][%[[K]] * 128 + %[[I]] * 4] block 32x4 stride 4 repeat 4 into %[[BQ]]
// CHECK-NEXT:        %[[PSK:.*]] = spatial.load %[[S]][%[[K]] * 4 + %[[I]] * 4] block 1x4 stride 4 repeat 4 into %[[BS]]
// CHECK-NEXT:        spatial.stage "block_0" iters(sum 32, par 128, sum 32)
// CHECK-NEXT:          ins(%[[PXK]][d0 * 128 + d2], %[[PQK]][d2 * 4096 + d0 * 128 + d1], %[[PSK]][d0 * 128 + d1])
// CHECK:             spatial.stage "block_3" iters(sum 32, par 128, sum 32)
// CHECK-NEXT:          ins(%[[PXK]][d0 * 128 + d2 + 96], %[[PQK]][d2 * 4096 + d0 * 128 + d1], %[[PSK]][d0 * 128 + d1])
// CHECK:             spatial.stage "fold_sum" iters(par 32, par 128)
// CHECK:           spatial.store %{{.*}} to %[[YT]][%[[I]] * 4] block 1x4 stride 4 repeat 1 : !spatial.page<4xf32> -> !spatial.tensor<4x100xf32, output>
// CHECK:         func.return %[[Y]] : tensor<4x100xf32>

// m = 4, K = 4096, N = 288: 9 column tiles, whose widest divisor up to 8 is 3, so
// wb = 3 and 3 items. The accumulator is a dense zero constant.
func.func @gemm_4x4096x288(%x: tensor<4x4096xbf16>, %R__q8: tensor<4096x288xi8>, %R__q8_scale: tensor<128x288xf32>) -> tensor<4x288xf32> {
  %w = q8.dequantize %R__q8, %R__q8_scale : tensor<4096x288xi8>, tensor<128x288xf32> -> tensor<4096x288xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<4x288xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x4096xbf16>, tensor<4096x288xbf16>) outs(%acc : tensor<4x288xf32>) -> tensor<4x288xf32>
  func.return %y : tensor<4x288xf32>
}

// CHECK-LABEL: func.func @gemm_4x4096x288(
// CHECK:         spatial.view "q8_view_4x4096_from0" grid [4, 1]
// CHECK:         spatial.fold "q8_gemm_4x4096x288_w3" grid [3] owns (d0) -> (0, d0 * 3) size [1, 3]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 3], k_blocks = 4, site = [1, 3]>
// CHECK:           spatial.buffer "in_q8" : !spatial.buffer<96xi8, depth 2>
// CHECK:           spatial.load %{{.*}}[%[[K:.*]] * 288 + %[[I:.*]] * 3] block 32x3 stride 9 repeat 4
// CHECK:           spatial.store %{{.*}}[%[[I]] * 3] block 1x3 stride 9 repeat 1 : !spatial.page<3xf32> -> !spatial.tensor<4x288xf32, output>
// CHECK-NOT:     arith.constant dense
// CHECK:         func.return

// m = 32 (a whole tile of rows), K = 1024, N = 4096: wb = 8 needs 1900544 B, so
// wb = 4 (1015808 B), 32 items. The view lifts 8 of the 32 rows an item (4 chunks);
// its offsets reach 32 * 1024, past i16, so the lanes table is i32.
func.func @gemm_32x1024x4096(%x: tensor<32x1024xbf16>, %G__q8: tensor<1024x4096xi8>, %G__q8_scale: tensor<32x4096xf32>) -> tensor<32x4096xf32> {
  %w = q8.dequantize %G__q8, %G__q8_scale : tensor<1024x4096xi8>, tensor<32x4096xf32> -> tensor<1024x4096xbf16>
  %empty = tensor.empty() : tensor<32x4096xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x4096xf32>) -> tensor<32x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<32x1024xbf16>, tensor<1024x4096xbf16>) outs(%acc : tensor<32x4096xf32>) -> tensor<32x4096xf32>
  func.return %y : tensor<32x4096xf32>
}

// CHECK-LABEL: func.func @gemm_32x1024x4096(
// CHECK-NEXT:    %[[VIEW:.*]] = spatial.view "q8_view_32x1024_from0" grid [1, 4] owns (d0, d1) -> (d0 * 32 + d1 * 8, 0) size [8, 1]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [4, 1], k_blocks = 1, site = [8, 1]> numerics exact
// CHECK-NEXT:      ins(%{{.*}} : tensor<32x1024xbf16>) -> tensor<1024x32xbf16> {
// CHECK-NEXT:    ^bb0(%[[KB:.*]]: index, %[[C:.*]]: index, %{{.*}}: tensor<32x1024xbf16>):
// CHECK:           %[[LT:.*]] = spatial.tensor "x__q8_rows0__lanes0" values dense<"0x000000000100000002000000{{[0-9A-F]*}}"> : tensor<1x1024xi32> : !spatial.tensor<1x1024xi32, param>
// CHECK-NEXT:      %[[BL:.*]] = spatial.buffer "in_lanes" : !spatial.buffer<8xi32, depth 1>
// CHECK-NEXT:      %[[PL:.*]] = spatial.load %[[LT]][%[[C]] * 8] block 1x8 stride 32 repeat 1 into %[[BL]]
// CHECK:           spatial.store %{{.*}} to %{{.*}}[%[[KB]] * 32 + %[[C]] * 8] block 8x1 stride 1 repeat 1
// CHECK:         spatial.fold "q8_gemm_32x1024x4096_w4" grid [32] owns (d0) -> (0, d0 * 4) size [1, 4]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 32], k_blocks = 1, site = [1, 4]> numerics approx "a Q8_0 product over 32 bf16 rows; the source rounds its weight to bf16, the fold multiplies q * s exactly"
// CHECK:           spatial.buffer "in_x" : !spatial.buffer<32xbf16, depth 2>
// CHECK:           spatial.buffer "block_31" : !spatial.buffer<4xf32, depth 1>
// CHECK:             spatial.load %{{.*}}[%[[K:.*]] * 32] block 32x1 stride 1 repeat 1
// CHECK:             spatial.stage "block_31" iters(sum 32, par 128, sum 32)
// CHECK-NEXT:          ins(%{{.*}}[d0 * 1024 + d2 + 992],

// CHECK-NOT:   linalg.matmul
// CHECK-NOT:   q8.dequantize
