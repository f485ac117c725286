// spatial-native-kernels{kind=...}: each summing stage marked with the kernel a CPU
// runs it as (`kernel = "stream"`, `"fma"`, `"fma512"`, `"dot"` or `"amx"`), which
// convert-spatial-to-linalg builds. kind=loop marks every summing stage `stream`; kind=amx
// marks a run of 2 rows or more whose lanes are a Q8_0 block's bf16 x int8 terms `amx`,
// kind=bf16 such a run `dot`, kind=avx2 `fma`, kind=avx512 `fma512`, the others `stream`;
// kind=generic leaves (or makes) them unmarked. Stages that do not sum are not marked.
// The marks print and parse: the converted IR of a marked module read back is the
// chosen kernel's.
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=loop}' %s | filecheck %s --check-prefix=LOOP
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=amx}' %s | filecheck %s --check-prefix=AMX
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=bf16}' %s | filecheck %s --check-prefix=BF16
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=bf16}' %s | xdsl-opt -p 'convert-spatial-to-linalg' | filecheck %s --check-prefix=DOTS
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=avx2}' %s | filecheck %s --check-prefix=AVX2
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=avx2}' %s | xdsl-opt -p 'convert-spatial-to-linalg' | filecheck %s --check-prefix=FMAS
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=avx512}' %s | filecheck %s --check-prefix=AVX512
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=avx512}' %s | xdsl-opt -p 'convert-spatial-to-linalg' | filecheck %s --check-prefix=WIDE
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=amx}' %s | xdsl-opt -p 'spatial-native-kernels{kind=generic}' | filecheck %s --check-prefix=GENERIC
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-kernels{kind=amx}' %s | xdsl-opt -p 'convert-spatial-to-linalg' | filecheck %s --check-prefix=TILES

func.func @gemv_1x256x256(%x: tensor<1x256xbf16>, %W__q8: tensor<256x256xi8>, %W__q8_scale: tensor<8x256xf32>) -> tensor<1x256xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x256xi8>, tensor<8x256xf32> -> tensor<256x256xf32>
  %xf = arith.extf %x : tensor<1x256xbf16> to tensor<1x256xf32>
  %empty = tensor.empty() : tensor<1x256xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x256xf32>) -> tensor<1x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %y : tensor<1x256xf32>
}

func.func @gemm_8x256x256(%x: tensor<8x256xbf16>, %W__q8: tensor<256x256xi8>, %W__q8_scale: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x256xi8>, tensor<8x256xf32> -> tensor<256x256xf32>
  %xf = arith.extf %x : tensor<8x256xbf16> to tensor<8x256xf32>
  %empty = tensor.empty() : tensor<8x256xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<8x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<8x256xf32>) -> tensor<8x256xf32>
  func.return %y : tensor<8x256xf32>
}

func.func @gemm_2x256x256(%x: tensor<2x256xbf16>, %W__q8: tensor<256x256xi8>, %W__q8_scale: tensor<8x256xf32>) -> tensor<2x256xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x256xi8>, tensor<8x256xf32> -> tensor<256x256xf32>
  %xf = arith.extf %x : tensor<2x256xbf16> to tensor<2x256xf32>
  %empty = tensor.empty() : tensor<2x256xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x256xf32>) -> tensor<2x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<2x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<2x256xf32>) -> tensor<2x256xf32>
  func.return %y : tensor<2x256xf32>
}

// LOOP-LABEL: func.func @gemv_1x256x256(
// LOOP:         %{{.*}} = spatial.stage "lift_rows" iters(par 8, par 32)
// LOOP-NEXT:      ins(%{{.*}}) into %{{.*}} : (!spatial.page<8xbf16>) -> !spatial.page<1xbf16> {
// LOOP:         %[[TAIL:.*]] = spatial.stage "tail" iters(sum 8, par 256, sum 32)
// LOOP-NEXT:      ins({{.*}}) into %{{.*}}[d1] : ({{.*}}) -> !spatial.page<8xf32> attributes {kernel = "stream"} {
// LOOP:         %{{.*}} = spatial.stage "result" iters(par 32, par 256)
// LOOP-NEXT:      ins(%{{.*}}) into %{{.*}} : (!spatial.page<8xf32>) -> !spatial.page<8xf32> {
// LOOP-LABEL: func.func @gemm_8x256x256(
// LOOP:         %{{.*}} = spatial.stage "tail" iters(par 8, sum 8, par 256, sum 32)
// LOOP-NEXT:      ins({{.*}}) into %{{.*}} : ({{.*}}) -> !spatial.page<64xf32> attributes {kernel = "stream"} {
// LOOP-LABEL: func.func @gemm_2x256x256(
// LOOP:         %{{.*}} = spatial.stage "tail" iters(par 2, sum 8, par 256, sum 32)
// LOOP-NEXT:      ins({{.*}}) into %{{.*}}[{{.*}}] : ({{.*}}) -> !spatial.page<{{.*}}xf32> attributes {kernel = "stream"} {

// AMX-LABEL: func.func @gemv_1x256x256(
// AMX:         %{{.*}} = spatial.stage "tail" iters(sum 8, par 256, sum 32)
// AMX-NEXT:      ins({{.*}}) into %{{.*}}[d1] : ({{.*}}) -> !spatial.page<8xf32> attributes {kernel = "stream"} {
// AMX-LABEL: func.func @gemm_8x256x256(
// AMX:         %{{.*}} = spatial.stage "tail" iters(par 8, sum 8, par 256, sum 32)
// AMX-NEXT:      ins({{.*}}) into %{{.*}} : ({{.*}}) -> !spatial.page<64xf32> attributes {kernel = "amx"} {
// AMX-LABEL: func.func @gemm_2x256x256(
// AMX:         %{{.*}} = spatial.stage "tail" iters(par 2, sum 8, par 256, sum 32)
// AMX-NEXT:      ins({{.*}}) into %{{.*}}[{{.*}}] : ({{.*}}) -> !spatial.page<{{.*}}xf32> attributes {kernel = "amx"} {

// GENERIC-LABEL: func.func @gemv_1x256x256(
// GENERIC-NOT:   kernel =
// GENERIC-LABEL: func.func @gemm_8x256x256(
// GENERIC-NOT:   kernel =

// TILES-LABEL: func.func @gemv_1x256x256(
// TILES-NOT:   x86.amx
// TILES:       memref.alloca() : memref<256xf32>
// TILES-NOT:   x86.amx
// TILES-LABEL: func.func @gemm_8x256x256(
// TILES:       x86.amx.tile_mulf
// TILES-LABEL: func.func @gemm_2x256x256(
// TILES:       x86.amx.tile_mulf {{.*}} : !x86.amx.tile<2x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<2x16xf32>

// BF16-LABEL: func.func @gemv_1x256x256(
// BF16:         %{{.*}} = spatial.stage "tail" iters(sum 8, par 256, sum 32)
// BF16-NEXT:      ins({{.*}}) into %{{.*}}[d1] : ({{.*}}) -> !spatial.page<8xf32> attributes {kernel = "stream"} {
// BF16-LABEL: func.func @gemm_8x256x256(
// BF16:         %{{.*}} = spatial.stage "tail" iters(par 8, sum 8, par 256, sum 32)
// BF16-NEXT:      ins({{.*}}) into %{{.*}} : ({{.*}}) -> !spatial.page<64xf32> attributes {kernel = "dot"} {
// BF16-LABEL: func.func @gemm_2x256x256(
// BF16:         %{{.*}} = spatial.stage "tail" iters(par 2, sum 8, par 256, sum 32)
// BF16-NEXT:      ins({{.*}}) into %{{.*}}[{{.*}}] : ({{.*}}) -> !spatial.page<{{.*}}xf32> attributes {kernel = "dot"} {

// DOTS-LABEL: func.func @gemv_1x256x256(
// DOTS-NOT:   x86.avx512.dot
// DOTS-LABEL: func.func @gemm_8x256x256(
// DOTS:       x86.avx512.dot
// DOTS-LABEL: func.func @gemm_2x256x256(
// DOTS:       x86.avx512.dot

// AVX2-LABEL: func.func @gemv_1x256x256(
// AVX2:         %{{.*}} = spatial.stage "tail" iters(sum 8, par 256, sum 32)
// AVX2-NEXT:      ins({{.*}}) into %{{.*}}[d1] : ({{.*}}) -> !spatial.page<8xf32> attributes {kernel = "stream"} {
// AVX2-LABEL: func.func @gemm_8x256x256(
// AVX2:         %{{.*}} = spatial.stage "tail" iters(par 8, sum 8, par 256, sum 32)
// AVX2-NEXT:      ins({{.*}}) into %{{.*}} : ({{.*}}) -> !spatial.page<64xf32> attributes {kernel = "fma"} {
// AVX2-LABEL: func.func @gemm_2x256x256(
// AVX2:         %{{.*}} = spatial.stage "tail" iters(par 2, sum 8, par 256, sum 32)
// AVX2-NEXT:      ins({{.*}}) into %{{.*}}[{{.*}}] : ({{.*}}) -> !spatial.page<{{.*}}xf32> attributes {kernel = "fma"} {

// The fma kernel: a trip's 32 x 256 weights widened once into a scratch, then for 6
// rows (and then 2) each lane's two 8-column vectors of weights, each row's activation
// broadcast, a fused multiply-add per row and vector, the sums carried by the lanes'
// loop and scaled into the rows' outputs in registers.
// FMAS-LABEL: func.func @gemv_1x256x256(
// FMAS-NOT:   vector.fma
// FMAS-LABEL: func.func @gemm_8x256x256(
// FMAS:       %q8_f32 = memref.alloca() : memref<8192xf32>
// FMAS:       linalg.generic {{.*}} ins(%{{.*}} : memref<32x256xi8, strided<[256, 1], offset: ?>>) outs(%{{.*}} : memref<32x256xf32, strided<[256, 1], offset: ?>>)
// FMAS:       arith.sitofp
// FMAS:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// FMAS-NEXT:    %{{.*}} = arith.constant 0 : index
// FMAS-NEXT:    %[[W0:.*]] = vector.load %{{.*}} : memref<32x256xf32, strided<[256, 1], offset: ?>>, vector<8xf32>
// FMAS-NEXT:    %{{.*}} = arith.constant 8 : index
// FMAS-NEXT:    %[[W1:.*]] = vector.load %{{.*}} : memref<32x256xf32, strided<[256, 1], offset: ?>>, vector<8xf32>
// FMAS-NEXT:    %{{.*}} = arith.constant 0 : index
// FMAS-NEXT:    %[[X0:.*]] = memref.load %{{.*}} : memref<6x32xf32, strided<[32, 1], offset: ?>>
// FMAS-NEXT:    %[[B0:.*]] = vector.broadcast %[[X0]] : f32 to vector<8xf32>
// FMAS-NEXT:    %{{.*}} = vector.fma %[[B0]], %[[W0]], %{{.*}} : vector<8xf32>
// FMAS-NEXT:    %{{.*}} = vector.fma %[[B0]], %[[W1]], %{{.*}} : vector<8xf32>
// FMAS:       vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
// FMAS:       iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// FMAS:       memref.load %{{.*}} : memref<2x32xf32, strided<[32, 1], offset: ?>>

// AVX512-LABEL: func.func @gemv_1x256x256(
// AVX512:         %{{.*}} = spatial.stage "tail" iters(sum 8, par 256, sum 32)
// AVX512-NEXT:      ins({{.*}}) into %{{.*}}[d1] : ({{.*}}) -> !spatial.page<8xf32> attributes {kernel = "stream"} {
// AVX512-LABEL: func.func @gemm_8x256x256(
// AVX512:         %{{.*}} = spatial.stage "tail" iters(par 8, sum 8, par 256, sum 32)
// AVX512-NEXT:      ins({{.*}}) into %{{.*}} : ({{.*}}) -> !spatial.page<64xf32> attributes {kernel = "fma512"} {
// AVX512-LABEL: func.func @gemm_2x256x256(
// AVX512:         %{{.*}} = spatial.stage "tail" iters(par 2, sum 8, par 256, sum 32)
// AVX512-NEXT:      ins({{.*}}) into %{{.*}}[{{.*}}] : ({{.*}}) -> !spatial.page<{{.*}}xf32> attributes {kernel = "fma512"} {

// The fma512 kernel: the fma kernel's steps in 16-column vectors, 8 rows of two at once.
// Its 8 rows are one register block, so each weight is multiplied once a trip: widened
// in registers where it is loaded (16 int8), not first into a scratch as the fma
// kernel's 6-row blocks read it.
// WIDE-LABEL: func.func @gemv_1x256x256(
// WIDE-NOT:   vector.fma
// WIDE-LABEL: func.func @gemm_8x256x256(
// WIDE-NOT:   q8_f32
// WIDE:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// WIDE-NEXT:    %{{.*}} = arith.constant 0 : index
// WIDE-NEXT:    %[[Q0:.*]] = vector.load %{{.*}} : memref<32x256xi8, strided<[256, 1], offset: ?>>, vector<16xi8>
// WIDE-NEXT:    %[[S0:.*]] = llvm.sext %[[Q0]] : vector<16xi8> to vector<16xi32>
// WIDE-NEXT:    %[[W0:.*]] = llvm.sitofp %[[S0]] : vector<16xi32> to vector<16xf32>
// WIDE-NEXT:    %{{.*}} = arith.constant 16 : index
// WIDE-NEXT:    %[[Q1:.*]] = vector.load %{{.*}} : memref<32x256xi8, strided<[256, 1], offset: ?>>, vector<16xi8>
// WIDE-NEXT:    %[[S1:.*]] = llvm.sext %[[Q1]] : vector<16xi8> to vector<16xi32>
// WIDE-NEXT:    %[[W1:.*]] = llvm.sitofp %[[S1]] : vector<16xi32> to vector<16xf32>
// WIDE-NEXT:    %{{.*}} = arith.constant 0 : index
// WIDE-NEXT:    %[[X0:.*]] = memref.load %{{.*}} : memref<8x32xf32, strided<[32, 1], offset: ?>>
// WIDE-NEXT:    %[[B0:.*]] = vector.broadcast %[[X0]] : f32 to vector<16xf32>
// WIDE-NEXT:    %{{.*}} = vector.fma %[[B0]], %[[W0]], %{{.*}} : vector<16xf32>
// WIDE-NEXT:    %{{.*}} = vector.fma %[[B0]], %[[W1]], %{{.*}} : vector<16xf32>
// WIDE-LABEL: func.func @gemm_2x256x256(
// WIDE:       vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<16xf32>
