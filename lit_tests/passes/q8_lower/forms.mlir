// The input spellings docs/lowering.md names, the activation and scale precisions, and
// what each changes in the programs and in the byte model.
//
// RUN: spatial-opt %s -p q8-lower | filecheck %s
// RUN: spatial-opt %s -p 'q8-lower{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: spatial-opt %s -p 'q8-lower{act=f32}' | filecheck %s --check-prefix=F32
// RUN: spatial-opt %s -p 'q8-lower{act=f32 report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT-F32

// MLIR's mixed form: bf16 x bf16 -> f32 over a bf16 dequantisation.
func.func @mixed(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xbf16>
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<1x4096xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x4096xbf16>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}

// The form stock xDSL accepts: arith.extf of the bf16 activation into an all-f32
// matmul. The pass looks through the extf and gives the same programs.
func.func @widened(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
  %xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<1x4096xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}

// CHECK-LABEL: func.func @mixed(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2048xbf16>, %[[WQ:.*]]: tensor<2048x4096xi8>, %[[WS:.*]]: tensor<64x4096xf32>)
// CHECK-NEXT:    %[[V:.*]] = spatial.view "q8_view_1x2048_from0" grid [2]
// CHECK:           spatial.tensor "x__q8_rows0" zero : !spatial.tensor<64x32xbf16, output>
// CHECK:         %[[Y:.*]] = spatial.fold "q8_gemv_2048x4096_w8" grid [16]
// CHECK:           ins(%[[V]], %[[WQ]], %[[WS]] : tensor<64x32xbf16>, tensor<2048x4096xi8>, tensor<64x4096xf32>) -> tensor<1x4096xf32> {
// CHECK:           spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
// CHECK:           ^bb0(%[[XE:.*]]: bf16, %[[QE:.*]]: i8, %[[SE:.*]]: f32):
// CHECK-NEXT:        %{{.*}} = arith.extf %[[XE]] : bf16 to f32
// CHECK:         func.return %[[Y]]
// CHECK-LABEL: func.func @widened(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2048xbf16>, %[[WQ:.*]]: tensor<2048x4096xi8>, %[[WS:.*]]: tensor<64x4096xf32>)
// CHECK-NEXT:    %[[V:.*]] = spatial.view "q8_view_1x2048_from0" grid [2]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[X]] : tensor<1x2048xbf16>) -> tensor<64x32xbf16> {
// CHECK:         %[[Y:.*]] = spatial.fold "q8_gemv_2048x4096_w8" grid [16]
// CHECK:           ins(%[[V]], %[[WQ]], %[[WS]] : tensor<64x32xbf16>, tensor<2048x4096xi8>, tensor<64x4096xf32>) -> tensor<1x4096xf32> {
// CHECK:           spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 2>
// CHECK-NOT:     arith.extf %[[X]]
// CHECK:         func.return %[[Y]]

// An f32 activation on a chip that holds bf16 (the presets): it is rounded to bf16 by
// an explicit arith.truncf before its view, and the fold's claim says so. With
// act=f32 the view holds f32, 4 bytes an element, and the fold reads it without
// widening: its in_x doubles (8192 B) and so do the view reads (16 items x 2 K
// blocks x 1 tile x 4096 B).
func.func @f32_act(%x: tensor<1x2048xf32>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}

// CHECK-LABEL: func.func @f32_act(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<1x2048xf32>
// CHECK-NEXT:    %[[XB:.*]] = arith.truncf %[[X]] : tensor<1x2048xf32> to tensor<1x2048xbf16>
// CHECK-NEXT:    spatial.view "q8_view_1x2048_from0" grid [2]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[XB]] : tensor<1x2048xbf16>) -> tensor<64x32xbf16> {
// CHECK:         spatial.fold "q8_gemv_2048x4096_w8" grid [16]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan #spatial.plan<grid = [1, 16], k_blocks = 2, site = [1, 8]> numerics approx "a Q8_0 product over 1 bf16 row; the f32 activation is rounded to bf16"

// F32-LABEL: func.func @f32_act(
// F32-NEXT:    spatial.view "q8_view_1x2048_from0" grid [2]
// F32-NEXT:      target
// F32-NEXT:      plan
// F32-NEXT:      ins(%{{.*}} : tensor<1x2048xf32>) -> tensor<64x32xf32> {
// F32:           spatial.tensor "x__q8_rows0" zero : !spatial.tensor<64x32xf32, output>
// F32-NEXT:      spatial.buffer "in_block" : !spatial.buffer<32xf32, depth 2>
// F32-NEXT:      spatial.buffer "out" : !spatial.buffer<1xf32, depth 2>
// F32:         spatial.fold "q8_gemv_2048x4096_w8" grid [16]
// F32-NEXT:      target
// F32-NEXT:      plan #spatial.plan<grid = [1, 16], k_blocks = 2, site = [1, 8]> numerics approx "a Q8_0 product over 1 f32 row"
// F32:           spatial.buffer "in_x" : !spatial.buffer<1xf32, depth 2>
// F32:           spatial.load %{{.*}}[%{{.*}}] block 1x1 stride 1 repeat 2 into %{{.*}} : !spatial.tensor<64x32xf32, input> -> !spatial.page<1xf32>
// F32:           spatial.stage "block" iters(sum 32, par 256, sum 32)
// F32-NEXT:        ins({{.*}}) into %{{.*}}[d1] : (!spatial.page<1xf32>, !spatial.page<256xi8>, !spatial.page<8xf32>) -> !spatial.page<8xf32> {
// F32-NEXT:      ^bb0(%[[XE:.*]]: f32, %[[QE:.*]]: i8, %[[SE:.*]]: f32):
// F32-NEXT:        %[[QF:.*]] = arith.sitofp %[[QE]] : i8 to f32
// F32-NEXT:        %[[XQ:.*]] = arith.mulf %[[XE]], %[[QF]] : f32
// F32-NEXT:        %[[XQS:.*]] = arith.mulf %[[XQ]], %[[SE]] : f32
// F32-NEXT:        spatial.yield %[[XQS]] : f32

// f16 scales, as GGML stores them: the fold loads them as they are (2 bytes a
// scale) and widens each in the stage body.
func.func @f16_scales(%x: tensor<1x2048xbf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf16>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf16> -> tensor<2048x4096xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x4096xbf16>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}

// CHECK-LABEL: func.func @f16_scales(
// CHECK:         spatial.fold "q8_gemv_2048x4096_w8" grid [16]
// CHECK:           ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<2048x4096xi8>, tensor<64x4096xf16>) -> tensor<1x4096xf32> {
// CHECK:           %[[S:.*]] = spatial.tensor "W__q8_scale" external(%{{.*}} : tensor<64x4096xf16>) repack <q8_0.scales> : !spatial.tensor<64x4096xf16, param>
// CHECK:           %[[BS:.*]] = spatial.buffer "in_scale" : !spatial.buffer<8xf16, depth 2>
// CHECK:             spatial.load %[[S]][%[[K:.*]] * 128 + %[[I:.*]] * 8] block 1x8 stride 128 repeat 2 into %[[BS]] : !spatial.tensor<64x4096xf16, param> -> !spatial.page<8xf16>
// CHECK-NEXT:        spatial.stage "block" iters(sum 32, par 256, sum 32)
// CHECK-NEXT:          ins({{.*}}) into %{{.*}}[d1] : (!spatial.page<1xbf16>, !spatial.page<256xi8>, !spatial.page<8xf16>) -> !spatial.page<8xf32> {
// CHECK-NEXT:        ^bb0(%[[XE:.*]]: bf16, %[[QE:.*]]: i8, %[[SE:.*]]: f16):
// CHECK-NEXT:          %[[XF:.*]] = arith.extf %[[XE]] : bf16 to f32
// CHECK-NEXT:          %[[QF:.*]] = arith.sitofp %[[QE]] : i8 to f32
// CHECK-NEXT:          %[[SF:.*]] = arith.extf %[[SE]] : f16 to f32
// CHECK-NEXT:          %[[XQ:.*]] = arith.mulf %[[XF]], %[[QF]] : f32
// CHECK-NEXT:          %[[XQS:.*]] = arith.mulf %[[XQ]], %[[SF]] : f32
// CHECK-NEXT:          spatial.yield %[[XQS]] : f32

// An arith.extf from f16 is not a bf16 activation: the extf stays, and a bf16 chip
// rounds its f32 result to bf16 for the view (with act=f32, the view reads it as is).
func.func @from_f16(%x: tensor<1x2048xf16>, %W__q8: tensor<2048x4096xi8>, %W__q8_scale: tensor<64x4096xf32>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
  %xf = arith.extf %x : tensor<1x2048xf16> to tensor<1x2048xf32>
  %acc = arith.constant dense<0.000000e+00> : tensor<1x4096xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}

// CHECK-LABEL: func.func @from_f16(
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %{{.*}} : tensor<1x2048xf16> to tensor<1x2048xf32>
// CHECK-NEXT:    %[[XB:.*]] = arith.truncf %[[XF]] : tensor<1x2048xf32> to tensor<1x2048xbf16>
// CHECK-NEXT:    %[[V:.*]] = spatial.view "q8_view_1x2048_from0" grid [2]
// CHECK-NEXT:      target
// CHECK-NEXT:      plan
// CHECK-NEXT:      ins(%[[XB]] : tensor<1x2048xbf16>) -> tensor<64x32xbf16> {
// CHECK:           spatial.tensor "xf" external
// CHECK:           spatial.tensor "xf__q8_rows0" zero : !spatial.tensor<64x32xbf16, output>
// CHECK:         spatial.fold "q8_gemv_2048x4096_w8"
// CHECK-SAME:      grid [16]

// F32-LABEL: func.func @from_f16(
// F32-NEXT:    %[[XF:.*]] = arith.extf %{{.*}} : tensor<1x2048xf16> to tensor<1x2048xf32>
// F32-NEXT:    %[[V:.*]] = spatial.view "q8_view_1x2048_from0" grid [2]
// F32-NEXT:      target
// F32-NEXT:      plan
// F32-NEXT:      ins(%[[XF]] : tensor<1x2048xf32>) -> tensor<64x32xf32> {

// CHECK-NOT:   linalg.matmul
// CHECK-NOT:   q8.dequantize

// Byte model (docs/lowering.md): weight K * Np + scale bytes * K/32 * Np; view reads
// items * K blocks * m * 1024 * activation bytes.
// REPORT: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 757,760 B (view 135,168 B); bytes: weight 9,437,184 + view reads 65,536 = 9,502,720 < bf16 copy 16,777,216; moves 9,502,720 B (1.1328 B/weight)
// REPORT: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 757,760 B (view 135,168 B); bytes: weight 9,437,184 + view reads 65,536 = 9,502,720 < bf16 copy 16,777,216
// REPORT: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 757,760 B (view 135,168 B); bytes: weight 9,437,184 + view reads 65,536 = 9,502,720 < bf16 copy 16,777,216
// REPORT: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 724,992 B (view 135,168 B); bytes: weight 8,912,896 + view reads 65,536 = 8,978,432 < bf16 copy 16,777,216
// REPORT: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 757,760 B (view 135,168 B); bytes: weight 9,437,184 + view reads 65,536 = 9,502,720 < bf16 copy 16,777,216
// With act=f32 every activation is viewed in f32 (a bf16 one widened first): 4
// bytes a view element.
// REPORT-F32: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 761,856 B (view 270,336 B); bytes: weight 9,437,184 + view reads 131,072 = 9,568,256 < bf16 copy 16,777,216; moves 9,568,256 B (1.1406 B/weight)
// REPORT-F32: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 761,856 B (view 270,336 B); bytes: weight 9,437,184 + view reads 131,072 = 9,568,256 < bf16 copy 16,777,216; moves 9,568,256 B (1.1406 B/weight)
// REPORT-F32: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 761,856 B (view 270,336 B); bytes: weight 9,437,184 + view reads 131,072 = 9,568,256 < bf16 copy 16,777,216; moves 9,568,256 B (1.1406 B/weight)
// REPORT-F32: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 729,088 B (view 270,336 B); bytes: weight 8,912,896 + view reads 131,072 = 9,043,968 < bf16 copy 16,777,216; moves 9,043,968 B (1.0781 B/weight)
// REPORT-F32: q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, K blocks = 2, tail = 0 Q8_0 blocks, local memory = 761,856 B (view 270,336 B); bytes: weight 9,437,184 + view reads 131,072 = 9,568,256 < bf16 copy 16,777,216; moves 9,568,256 B (1.1406 B/weight)

