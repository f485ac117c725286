// spatial-native-layout: a Q8_0 weight's values that every reader can read laid in
// tile columns (each 32-column strip all of K in one piece), whatever their width
// (@near too), are marked `layout = "tile_columns"`;
// convert-spatial-to-linalg then reads them so: a streamed row a lane's strips at a
// time (a lane's row 32 elements on, a strip K x 32 on), a copy tile by tile (each
// 1 KiB in one piece). A weight something else reads too (here: returned) stays in
// rows, and so do the scales.
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-layout' %s | filecheck %s
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-layout,spatial-native-kernels{kind=loop},convert-spatial-to-linalg' %s | filecheck %s --check-prefix=STREAM
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-layout,convert-spatial-to-linalg' %s | filecheck %s --check-prefix=COPY
// RUN: xdsl-opt -p 'q8-lower{optimize=true},spatial-native-layout' %s | xdsl-opt -p 'spatial-native-layout' | filecheck %s

func.func @gemv(%x: tensor<1x256xbf16>, %W__q8: tensor<256x4096xi8>, %W__q8_scale: tensor<8x4096xf32>) -> tensor<1x4096xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x4096xi8>, tensor<8x4096xf32> -> tensor<256x4096xf32>
  %xf = arith.extf %x : tensor<1x256xbf16> to tensor<1x256xf32>
  %empty = tensor.empty() : tensor<1x4096xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x256xf32>, tensor<256x4096xf32>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y : tensor<1x4096xf32>
}

func.func @also_returned(%x: tensor<1x256xbf16>, %W__q8: tensor<256x4096xi8>, %W__q8_scale: tensor<8x4096xf32>) -> (tensor<1x4096xf32>, tensor<256x4096xi8>) {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x4096xi8>, tensor<8x4096xf32> -> tensor<256x4096xf32>
  %xf = arith.extf %x : tensor<1x256xbf16> to tensor<1x256xf32>
  %empty = tensor.empty() : tensor<1x4096xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x256xf32>, tensor<256x4096xf32>) outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  func.return %y, %W__q8 : tensor<1x4096xf32>, tensor<256x4096xi8>
}


func.func @near(%x: tensor<1x256xbf16>, %W__q8: tensor<256x256xi8>, %W__q8_scale: tensor<8x256xf32>) -> tensor<1x256xf32> {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x256xi8>, tensor<8x256xf32> -> tensor<256x256xf32>
  %xf = arith.extf %x : tensor<1x256xbf16> to tensor<1x256xf32>
  %empty = tensor.empty() : tensor<1x256xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x256xf32>) -> tensor<1x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %y : tensor<1x256xf32>
}
// CHECK-LABEL: func.func @gemv(
// CHECK:         spatial.tensor "W__q8" external(%{{.*}} : tensor<256x4096xi8>) repack <q8_0.values> {layout = "tile_columns"} : !spatial.tensor<256x4096xi8, param>
// CHECK-NEXT:    spatial.tensor "W__q8_scale" external(%{{.*}} : tensor<8x4096xf32>) repack <q8_0.scales> : !spatial.tensor<8x4096xf32, param>
// CHECK-LABEL: func.func @also_returned(
// CHECK-NOT:     layout
// CHECK:         spatial.tensor "W__q8" external(%{{.*}} : tensor<256x4096xi8>) repack <q8_0.values> : !spatial.tensor<256x4096xi8, param>
// CHECK-LABEL: func.func @near(
// CHECK:         spatial.tensor "W__q8" external(%{{.*}} : tensor<256x256xi8>) repack <q8_0.values> {layout = "tile_columns"} : !spatial.tensor<256x256xi8, param>
// CHECK-NEXT:    spatial.tensor "W__q8_scale" external(%{{.*}} : tensor<8x256xf32>) repack <q8_0.scales> : !spatial.tensor<8x256xf32, param>

// STREAM-LABEL: func.func @gemv(
// STREAM:         %[[W:.*]] = bufferization.to_buffer %W__q8 read_only : tensor<256x4096xi8> to memref<256x4096xi8>
// STREAM:         memref.reinterpret_cast %[[W]] to offset: [%{{.*}}], sizes: [32, 8, 32], strides: [32, 8192, 1]
// STREAM-NEXT:    linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel"]
// STREAM-LABEL: func.func @also_returned(
// STREAM-NOT:     strides: [32, 8192, 1]
// STREAM-LABEL: func.func @near(
// STREAM:         %[[N:.*]] = bufferization.to_buffer %W__q8 read_only : tensor<256x256xi8> to memref<256x256xi8>
// STREAM:         memref.reinterpret_cast %[[N]] to offset: [%{{.*}}], sizes: [32, 8, 32], strides: [32, 8192, 1]

// COPY-LABEL: func.func @gemv(
// COPY:         %[[W:.*]] = bufferization.to_buffer %W__q8 read_only : tensor<256x4096xi8> to memref<256x4096xi8>
// COPY:         %[[SRC:.*]] = memref.reinterpret_cast %[[W]] to offset: [%{{.*}}], sizes: [32, 8, 8, 32], strides: [32, 1024, 8192, 1]
// COPY:         linalg.copy ins(%[[SRC]] : {{.*}})
