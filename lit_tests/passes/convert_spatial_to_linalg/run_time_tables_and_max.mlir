// RUN: xdsl-opt %s -p 'spatial-lower-ops,convert-spatial-to-linalg' | filecheck %s

// convert-spatial-to-linalg on two kinds of program spatial-lower-ops makes: a move
// through a table another program made when the step runs (a KV cache write at %pos),
// and a stage that takes the largest value along an axis (a row's maximum).

func.func @write(%k: tensor<1x64x1xf32>, %kc: tensor<1x64x64xf32>, %pos: tensor<1xi32>) -> tensor<1x64x64xf32> {
  %c0 = arith.constant 0 : index
  %p0 = tensor.extract %pos[%c0] : tensor<1xi32>
  %off = arith.index_cast %p0 : i32 to index
  %k2 = tensor.insert_slice %k into %kc[0, 0, %off] [1, 64, 1] [1, 1, 1] : tensor<1x64x1xf32> into tensor<1x64x64xf32>
  func.return %k2 : tensor<1x64x64xf32>
}

// The write's block starts where the table %at says. Its stage changes the cache's
// tiles where they lie (the load and the store of the same tiles copy nothing: the
// stage reads and writes the cache's buffer), and only when the block lies inside the
// cache's 2 x 2 tiles (a first tile not negative, its last before tile 4, its columns
// within a tile row) and inside the tiles its item owns: never a write out of bounds.
// The stage changes one column of its window of 32 (where the value of the table
// %lane says): where that column lies in the window, only it is written (a generic
// over its 32 x 2 elements, no select); else the stage runs over the whole window,
// selecting, as written.
// CHECK-LABEL: func.func @write(
// (The cache is copied into its result unless that is the cache's own buffer: state.mlir.)
// CHECK:         %[[KC:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      linalg.copy ins(%{{.*}} : memref<64x64xf32>) outs(%[[KC]] : memref<64x64xf32>)
// CHECK-NEXT:    }
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:       linalg.copy
// CHECK:           %[[ENTRY:.*]] = memref.load %[[AT:.*]][%{{.*}}, %{{.*}}] : memref<32x32xi32>
// CHECK-NEXT:      %[[T0:.*]] = arith.index_cast %[[ENTRY]] : i32 to index
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.addi %[[T0]], %[[TWO]] : index
// CHECK:           %[[COL:.*]] = arith.remui %[[T0]], %{{.*}} : index
// CHECK:           %[[NOTNEG:.*]] = arith.cmpi sge, %[[T0]], %{{.*}} : index
// CHECK-NEXT:      %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[BEFORE:.*]] = arith.cmpi slt, %[[LAST]], %[[FOUR]] : index
// CHECK:           %[[INROW:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[OK1:.*]] = arith.andi %[[NOTNEG]], %[[BEFORE]] : i1
// CHECK-NEXT:      %[[IN:.*]] = arith.andi %[[OK1]], %[[INROW]] : i1
// CHECK:           %[[OW1:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:      %[[OW2:.*]] = arith.andi %[[OW1]], %{{.*}} : i1
// CHECK-NEXT:      %[[OW:.*]] = arith.andi %[[OW2]], %{{.*}} : i1
// CHECK-NEXT:      %[[BOTH:.*]] = arith.andi %[[IN]], %[[OW]] : i1
// CHECK-NEXT:      scf.if %[[BOTH]] {
// CHECK-NOT:         linalg.copy
// CHECK:             %[[LANE:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<1xi32, strided<[1], offset: ?>>
// CHECK-NEXT:        %[[AT0:.*]] = arith.index_cast %[[LANE]] : i32 to index
// CHECK-NEXT:        %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:        %[[AFTER:.*]] = arith.cmpi sge, %[[AT0]], %[[ZERO]] : index
// CHECK-NEXT:        %[[C31:.*]] = arith.constant 31 : index
// CHECK-NEXT:        %[[UPTO:.*]] = arith.cmpi sle, %[[AT0]], %[[C31]] : index
// CHECK-NEXT:        %[[INSIDE:.*]] = arith.andi %[[AFTER]], %[[UPTO]] : i1
// CHECK-NEXT:        scf.if %[[INSIDE]] {
// CHECK-NEXT:          %[[VALUES:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [32, 2], strides: [64, 32]
// CHECK-NEXT:          %[[START:.*]] = arith.addi %{{.*}}, %[[AT0]] : index
// CHECK-NEXT:          %[[COLUMN:.*]] = memref.reinterpret_cast %[[KC]] to offset: [%[[START]]], sizes: [32, 2], strides: [64, 2048]
// CHECK-NEXT:          linalg.generic {{.*}} ins(%[[VALUES]] : {{.*}}) outs(%[[COLUMN]] : memref<32x2xf32, strided<[64, 2048], offset: ?>>) {
// CHECK-NEXT:          ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:            linalg.yield %[[V]] : f32
// CHECK-NEXT:          }
// CHECK-NEXT:        } else {
// CHECK-NEXT:          %[[OLD:.*]] = memref.reinterpret_cast %[[KC]] to offset: [%{{.*}}], sizes: [32, 2, 32], strides: [64, 2048, 1]
// CHECK:               %[[NEW:.*]] = memref.reinterpret_cast %[[KC]] to offset: [%{{.*}}], sizes: [32, 2, 32], strides: [64, 2048, 1]
// CHECK-NEXT:          linalg.generic {{.*}} ins(%[[OLD]], %{{.*}}, %{{.*}} : {{.*}}) outs(%[[NEW]] : memref<32x2x32xf32, strided<[64, 2048, 1], offset: ?>>) {
// CHECK:                 arith.select
// CHECK:               }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = bufferization.to_tensor %[[KC]] restrict writable : memref<64x64xf32> to tensor<64x64xf32>

func.func @row_max(%s: tensor<2x64xf32>) -> tensor<2xf32> {
  %lo = arith.constant -3.40282347e+38 : f32
  %e = tensor.empty() : tensor<2xf32>
  %lowest = linalg.fill ins(%lo : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<2x64xf32>) outs(%lowest : tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  func.return %max : tensor<2xf32>
}

// The stage's `max` axis is a reduction iterator (outside, as a sum's is), its two
// outputs start at -inf and each takes the largest of its 64 values.
// CHECK-LABEL: func.func @row_max(
// CHECK:         %[[PART:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [2], strides: [1] : memref<1x32x32xf32> to memref<2xf32, strided<[1], offset: ?>>
// CHECK-NEXT:    %[[NEGINF:.*]] = arith.constant 0xff800000 : f32
// CHECK-NEXT:    linalg.fill ins(%[[NEGINF]] : f32) outs(%[[PART]] : memref<2xf32, strided<[1], offset: ?>>)
// CHECK-NEXT:    %[[ROWS:.*]] = memref.reinterpret_cast %{{.*}} sizes: [64, 2], strides: [1, 64] : memref<1x32x64xf32> to memref<64x2xf32, strided<[1, 64], offset: ?>>
// CHECK-NEXT:    %[[OUT:.*]] = memref.reinterpret_cast %{{.*}} sizes: [2], strides: [1] : memref<1x32x32xf32> to memref<2xf32, strided<[1], offset: ?>>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%[[ROWS]] : memref<64x2xf32, strided<[1, 64], offset: ?>>) outs(%[[OUT]] : memref<2xf32, strided<[1], offset: ?>>) {
// CHECK-NEXT:    ^bb{{.*}}(%[[V:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK-NEXT:    }
