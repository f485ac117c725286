// convert-spatial-to-linalg{parallel=true}: a program's items as one scf.parallel over
// its grid, each item with buffers of its own (the threads that run items at once have
// one each), for upstream's convert-scf-to-openmp. The fold's 16 items over its buffers
// and its two scratches.
// RUN: xdsl-opt -p 'q8-lower,convert-spatial-to-linalg{parallel=true}' %S/../../../examples/gemv_q8.mlir | filecheck %s
// CHECK:       %[[Y:.*]] = memref.alloc() : memref<1x4096xf32>
// CHECK:       "scf.parallel"(%[[LO:.*]], %[[HI:.*]], %[[STEP:.*]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// CHECK-NEXT:  ^bb{{.*}}(%[[ITEM:.*]]: index):
// CHECK-NEXT:    %{{.*}} = memref.alloca() : memref<2x32x32xbf16>
// CHECK-NEXT:    %{{.*}} = memref.alloca() : memref<2x32x8192xi8>
// CHECK-NEXT:    %{{.*}} = memref.alloca() : memref<2x32x256xf32>
// CHECK-NEXT:    %{{.*}} = memref.alloca() : memref<2x32x256xf32>
// CHECK-NEXT:    %{{.*}} = memref.alloca() : memref<1x32x256xf32>
// CHECK-NEXT:    %{{.*}} = memref.alloca() : memref<2x32x256xf32>
// CHECK-NEXT:    %{{.*}} = memref.alloca() : memref<1024xf32>
// CHECK-NEXT:    %{{.*}} = memref.alloca() : memref<32xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK:         linalg.copy ins(%{{.*}} : {{.*}}) outs(%{{.*}} : memref<1x1x256xf32, strided<[131072, 4096, 1], offset: ?>>)
// CHECK-NEXT:    scf.reduce
// CHECK-NEXT:  }) : (index, index, index) -> ()
// CHECK-NEXT:  %{{.*}} = bufferization.to_tensor %[[Y]] restrict writable : memref<1x4096xf32> to tensor<1x4096xf32>
