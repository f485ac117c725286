// RUN: xdsl-opt %s -p spatial-lower-ops,convert-spatial-to-linalg | filecheck %s

// A state (a KV cache the write at %pos updates) starts its result as a copy of what
// it is given, made only when the result's buffer is not the given one itself: the
// native engine's caller may hand the cache's own array for the result (`donate`),
// which holds the state already, and the write lands where the cache lies.

func.func @cache(%k: tensor<3x64x1xf32>, %kc: tensor<3x64x256xf32>, %pos: tensor<1xi32>) -> tensor<3x64x256xf32> {
  %c0 = arith.constant 0 : index
  %p0 = tensor.extract %pos[%c0] : tensor<1xi32>
  %off = arith.index_cast %p0 : i32 to index
  %k2 = tensor.insert_slice %k into %kc[0, 0, %off] [3, 64, 1] [1, 1, 1] : tensor<3x64x1xf32> into tensor<3x64x256xf32>
  func.return %k2 : tensor<3x64x256xf32>
}

// CHECK-LABEL: func.func @cache(
// CHECK:         %[[GIVEN:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<192x256xf32> to memref<192x256xf32>
// CHECK-NEXT:    %[[RESULT:.*]] = memref.alloc() : memref<192x256xf32>
// CHECK-NEXT:    %[[A:.*]] = "memref.extract_aligned_pointer_as_index"(%[[GIVEN]]) : (memref<192x256xf32>) -> index
// CHECK-NEXT:    %[[B:.*]] = "memref.extract_aligned_pointer_as_index"(%[[RESULT]]) : (memref<192x256xf32>) -> index
// CHECK-NEXT:    %[[APART:.*]] = arith.cmpi ne, %[[A]], %[[B]] : index
// CHECK-NEXT:    scf.if %[[APART]] {
// CHECK-NEXT:      linalg.copy ins(%[[GIVEN]] : memref<192x256xf32>) outs(%[[RESULT]] : memref<192x256xf32>)
// CHECK-NEXT:    }
// CHECK:         bufferization.to_tensor %[[RESULT]] restrict writable
