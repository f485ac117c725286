// Tensor parallel from MLIR's shard dialect: a weight whose values and scales carry a
// shard.sharding on a 1-d grid is lowered per chip. Each chip has its own view of the
// activation (x__q8_rows0_c<chip>), its own fold over its shard (a tensor.extract_slice
// of the stored values and scales, the slice recorded in the param's repack), and the
// chips' results are gathered (N) or added in chip order (K).
//
// RUN: xdsl-opt %s -p 'q8-lower{report=true}' 2>&1 | filecheck %s
// RUN: xdsl-opt %s -p 'q8-lower{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: xdsl-opt %s -p q8-lower | xdsl-opt | filecheck %s

// CHECK: shard.grid @four(shape = 4)
shard.grid @four(shape = 4)
// CHECK: shard.grid @two(shape = 2)
shard.grid @two(shape = 2)
shard.grid @square(shape = 2x2)

// N over 4 chips: 64 columns (two tiles) a chip.
func.func @n4(%x: tensor<1x1024xbf16>, %W__q8: tensor<1024x256xi8>, %W__q8_scale: tensor<32x256xf32>) -> tensor<1x256xf32> {
  %cols = shard.sharding @four split_axes = [[], [0]] : !shard.sharding
  %q = shard.shard %W__q8 to %cols : tensor<1024x256xi8>
  %s = shard.shard %W__q8_scale to %cols : tensor<32x256xf32>
  %w = q8.dequantize %q, %s : tensor<1024x256xi8>, tensor<32x256xf32> -> tensor<1024x256xf32>
  %xf = arith.extf %x : tensor<1x1024xbf16> to tensor<1x1024xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<1x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x1024xf32>, tensor<1024x256xf32>) outs(%zero : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %y : tensor<1x256xf32>
}

// CHECK-LABEL: func.func @n4(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<1x1024xbf16>, %[[Q:[^:]*]]: tensor<1024x256xi8>, %[[S:[^:]*]]: tensor<32x256xf32>)
// CHECK-NOT:     shard.
// CHECK-NEXT:    %[[V0:.*]] = spatial.view "q8_view_1x1024_from0_c0" chip 0 grid [1]
// CHECK:           ins(%[[X]] : tensor<1x1024xbf16>) -> tensor<32x32xbf16> {
// CHECK:           spatial.tensor "x__q8_rows0_c0" zero
// CHECK:         %[[V1:.*]] = spatial.view "q8_view_1x1024_from0_c1" chip 1 grid [1]
// CHECK:           ins(%[[X]] : tensor<1x1024xbf16>)
// CHECK:           spatial.tensor "x__q8_rows0_c1" zero
// CHECK:         %[[V2:.*]] = spatial.view "q8_view_1x1024_from0_c2" chip 2
// CHECK:           spatial.tensor "x__q8_rows0_c2" zero
// CHECK:         %[[V3:.*]] = spatial.view "q8_view_1x1024_from0_c3" chip 3
// CHECK:           spatial.tensor "x__q8_rows0_c3" zero
// CHECK:         %[[Q0:.*]] = tensor.extract_slice %[[Q]][0, 0] [1024, 64] [1, 1] : tensor<1024x256xi8> to tensor<1024x64xi8>
// CHECK-NEXT:    %[[S0:.*]] = tensor.extract_slice %[[S]][0, 0] [32, 64] [1, 1] : tensor<32x256xf32> to tensor<32x64xf32>
// CHECK-NEXT:    %[[Y0:.*]] = spatial.fold "q8_gemv_1024x64_w2_c0" chip 0 grid [1]
// CHECK:           ins(%[[V0]], %[[Q0]], %[[S0]] : tensor<32x32xbf16>, tensor<1024x64xi8>, tensor<32x64xf32>) -> tensor<1x64xf32> {
// CHECK:           spatial.tensor "x__q8_rows0_c0" external
// CHECK-NEXT:      spatial.tensor "W__q8" external({{.*}}) repack <q8_0.values [0:1024, 0:64]> : !spatial.tensor<1024x64xi8, param>
// CHECK-NEXT:      spatial.tensor "W__q8_scale" external({{.*}}) repack <q8_0.scales [0:32, 0:64]> : !spatial.tensor<32x64xf32, param>
// CHECK-NEXT:      spatial.tensor "y_c0" zero : !spatial.tensor<1x64xf32, output>
// CHECK:         %[[Q1:.*]] = tensor.extract_slice %[[Q]][0, 64] [1024, 64] [1, 1]
// CHECK-NEXT:    %[[S1:.*]] = tensor.extract_slice %[[S]][0, 64] [32, 64] [1, 1]
// CHECK-NEXT:    %[[Y1:.*]] = spatial.fold "q8_gemv_1024x64_w2_c1" chip 1
// CHECK:           ins(%[[V1]], %[[Q1]], %[[S1]] :
// CHECK:           repack <q8_0.values [0:1024, 64:128]>
// CHECK-NEXT:      repack <q8_0.scales [0:32, 64:128]>
// CHECK:         %[[Y2:.*]] = spatial.fold "q8_gemv_1024x64_w2_c2" chip 2
// CHECK:           ins(%[[V2]],
// CHECK:           repack <q8_0.values [0:1024, 128:192]>
// CHECK:         %[[Y3:.*]] = spatial.fold "q8_gemv_1024x64_w2_c3" chip 3
// CHECK:           ins(%[[V3]],
// CHECK:           repack <q8_0.values [0:1024, 192:256]>
// CHECK:         %[[Y:.*]] = tensor.concat dim(1) %[[Y0]], %[[Y1]], %[[Y2]], %[[Y3]] : (tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x256xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<1x256xf32>

// K over 2 chips, the activation's K axis annotated alike: 1024 rows (one K block)
// a chip, each chip viewing its slice of x; the partial sums added in chip order.
func.func @k2(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x64xi8>, %W__q8_scale: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %rows = shard.sharding @two split_axes = [[0]] : !shard.sharding
  %ks = shard.sharding @two split_axes = [[], [0]] : !shard.sharding
  %q = shard.shard %W__q8 to %rows : tensor<2048x64xi8>
  %s = shard.shard %W__q8_scale to %rows : tensor<64x64xf32>
  %xs = shard.shard %x to %ks : tensor<1x2048xbf16>
  %w = q8.dequantize %q, %s : tensor<2048x64xi8>, tensor<64x64xf32> -> tensor<2048x64xf32>
  %xf = arith.extf %xs : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<1x64xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x64xf32>) outs(%zero : tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %y : tensor<1x64xf32>
}

// CHECK-LABEL: func.func @k2(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<1x2048xbf16>, %[[Q:[^:]*]]: tensor<2048x64xi8>, %[[S:[^:]*]]: tensor<64x64xf32>)
// CHECK-NOT:     shard.
// CHECK-NEXT:    %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0] [1, 1024] [1, 1] : tensor<1x2048xbf16> to tensor<1x1024xbf16>
// CHECK-NEXT:    %[[V0:.*]] = spatial.view "q8_view_1x1024_from0_c0" chip 0
// CHECK:           ins(%[[X0]] : tensor<1x1024xbf16>) -> tensor<32x32xbf16> {
// CHECK:           spatial.tensor "x_c0" external
// CHECK-NEXT:      spatial.tensor "x__q8_rows0_c0" zero
// CHECK:         %[[X1:.*]] = tensor.extract_slice %[[X]][0, 1024] [1, 1024] [1, 1] : tensor<1x2048xbf16> to tensor<1x1024xbf16>
// CHECK-NEXT:    %[[V1:.*]] = spatial.view "q8_view_1x1024_from0_c1" chip 1
// CHECK:           ins(%[[X1]] : tensor<1x1024xbf16>)
// CHECK:           spatial.tensor "x__q8_rows0_c1" zero
// CHECK:         %[[Q0:.*]] = tensor.extract_slice %[[Q]][0, 0] [1024, 64] [1, 1] : tensor<2048x64xi8> to tensor<1024x64xi8>
// CHECK-NEXT:    %[[S0:.*]] = tensor.extract_slice %[[S]][0, 0] [32, 64] [1, 1] : tensor<64x64xf32> to tensor<32x64xf32>
// CHECK-NEXT:    %[[Y0:.*]] = spatial.fold "q8_gemv_1024x64_w2_c0" chip 0
// CHECK:           ins(%[[V0]], %[[Q0]], %[[S0]] :
// CHECK:           repack <q8_0.values [0:1024, 0:64]>
// CHECK-NEXT:      repack <q8_0.scales [0:32, 0:64]>
// CHECK:         %[[Q1:.*]] = tensor.extract_slice %[[Q]][1024, 0] [1024, 64] [1, 1]
// CHECK-NEXT:    %[[S1:.*]] = tensor.extract_slice %[[S]][32, 0] [32, 64] [1, 1]
// CHECK-NEXT:    %[[Y1:.*]] = spatial.fold "q8_gemv_1024x64_w2_c1" chip 1
// CHECK:           ins(%[[V1]], %[[Q1]], %[[S1]] :
// CHECK:           repack <q8_0.values [1024:2048, 0:64]>
// CHECK-NEXT:      repack <q8_0.scales [32:64, 0:64]>
// CHECK:         %[[Y:.*]] = arith.addf %[[Y0]], %[[Y1]] : tensor<1x64xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<1x64xf32>

// Shardings the pass cannot honour leave the product exactly as it was.
func.func @refused(%x: tensor<1x1024xbf16>, %A__q8: tensor<1024x256xi8>, %A__q8_scale: tensor<32x256xf32>, %B__q8: tensor<1024x200xi8>, %B__q8_scale: tensor<32x200xf32>) -> (tensor<1x256xf32>, tensor<1x200xf32>) {
  %sq = shard.sharding @square split_axes = [[], [0]] : !shard.sharding
  %qa = shard.shard %A__q8 to %sq : tensor<1024x256xi8>
  %sa = shard.shard %A__q8_scale to %sq : tensor<32x256xf32>
  %wa = q8.dequantize %qa, %sa : tensor<1024x256xi8>, tensor<32x256xf32> -> tensor<1024x256xf32>
  %xf = arith.extf %x : tensor<1x1024xbf16> to tensor<1x1024xf32>
  %za = arith.constant dense<0.000000e+00> : tensor<1x256xf32>
  %ya = linalg.matmul ins(%xf, %wa : tensor<1x1024xf32>, tensor<1024x256xf32>) outs(%za : tensor<1x256xf32>) -> tensor<1x256xf32>
  %cols = shard.sharding @two split_axes = [[], [0]] : !shard.sharding
  %qb = shard.shard %B__q8 to %cols : tensor<1024x200xi8>
  %sb = shard.shard %B__q8_scale to %cols : tensor<32x200xf32>
  %wb = q8.dequantize %qb, %sb : tensor<1024x200xi8>, tensor<32x200xf32> -> tensor<1024x200xf32>
  %zb = arith.constant dense<0.000000e+00> : tensor<1x200xf32>
  %yb = linalg.matmul ins(%xf, %wb : tensor<1x1024xf32>, tensor<1024x200xf32>) outs(%zb : tensor<1x200xf32>) -> tensor<1x200xf32>
  func.return %ya, %yb : tensor<1x256xf32>, tensor<1x200xf32>
}

// CHECK-LABEL: func.func @refused(
// CHECK-NOT:     spatial.
// CHECK:         %[[QA:.*]] = shard.shard %{{.*}} to %{{.*}} : tensor<1024x256xi8>
// CHECK:         linalg.matmul
// CHECK:         shard.shard %{{.*}} to %{{.*}} : tensor<1024x200xi8>
// CHECK:         linalg.matmul
// CHECK-NOT:     spatial.
// CHECK:         func.return

// REPORT:      q8-lower: linalg.matmul %y 1x1024x256: lowered over 4 chips (shard.sharding @four), split on N, columns gathered by tensor.concat
// REPORT-NEXT: q8-lower:   chip 0: columns 0..64: 1024x64, wb = 2, items = 1, K blocks = 1, tail = 0 Q8_0 blocks, local memory = 192,512 B (view 135,168 B); moves: fold 73,728 + 2,048 + 8,192 B (1.1562 B/weight), view 65,536 + 2,048 B; chip loads 141,312 B, stores 10,240 B
// REPORT-NEXT: q8-lower:   chip 1: columns 64..128:
// REPORT-NEXT: q8-lower:   chip 2: columns 128..192:
// REPORT-NEXT: q8-lower:   chip 3: columns 192..256:
// REPORT-NEXT: q8-lower: linalg.matmul %y 1x2048x64: lowered over 2 chips (shard.sharding @two), split on K, partial sums added in chip order by arith.addf
// REPORT-NEXT: q8-lower:   chip 0: K rows 0..1024: 1024x64,
// REPORT-NEXT: q8-lower:   chip 1: K rows 1024..2048: 1024x64,
// REPORT-NEXT: q8-lower: linalg.matmul %ya 1x1024x256: not lowered: grid @square is 2x2: the pass splits a product over a 1-d grid of chips
// REPORT-NEXT: q8-lower: linalg.matmul %yb 1x1024x200: not lowered: shard.sharding @two: a chip's columns start at 100, inside a 32-column tile; every chip but the last holds whole column tiles
