// linalg-contraction-in-registers on a masked sum, `out + (seen ? x * y : +0.0)`, as a
// batched step's attention reads each row's position (its third input): in @values the
// position is the sum's axis, so a step the row does not see loads nothing, and the
// +0.0 the body adds to each sum there is added once after the loop where some step
// was skipped (the loop carries whether one was); in @scores it is the output's columns, so the
// sum runs once for each vector of 16 columns, a run none of whose columns the row sees
// is skipped (each sum its initial value plus +0.0), and after a run a column the row
// does not see is overwritten so.
// RUN: xdsl-opt -p linalg-contraction-in-registers %s | filecheck %s

func.func @values(%p: tensor<1x2x2x32xf32>, %v: tensor<2x1x32x16xf32>, %pos: tensor<2xi32>, %acc: tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel"]} ins(%p, %v, %pos : tensor<1x2x2x32xf32>, tensor<2x1x32x16xf32>, tensor<2xi32>) outs(%acc : tensor<1x2x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %q: i32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %j = linalg.index 2 : index
    %at = arith.index_cast %q : i32 to index
    %ok = arith.cmpi ule, %j, %at : index
    %z = arith.constant 0.000000e+00 : f32
    %t = arith.select %ok, %m, %z : f32
    %s = arith.addf %o, %t : f32
    linalg.yield %s : f32
  } -> tensor<1x2x2x16xf32>
  func.return %r : tensor<1x2x2x16xf32>
}

func.func @scores(%q: tensor<1x2x2x4xf32>, %k: tensor<2x1x4x32xf32>, %pos: tensor<2xi32>, %acc: tensor<1x2x2x32xf32>) -> tensor<1x2x2x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel"]} ins(%q, %k, %pos : tensor<1x2x2x4xf32>, tensor<2x1x4x32xf32>, tensor<2xi32>) outs(%acc : tensor<1x2x2x32xf32>) {
  ^bb0(%a: f32, %b: f32, %q2: i32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %j = linalg.index 4 : index
    %at = arith.index_cast %q2 : i32 to index
    %ok = arith.cmpi ule, %j, %at : index
    %z = arith.constant 0.000000e+00 : f32
    %t = arith.select %ok, %m, %z : f32
    %s = arith.addf %o, %t : f32
    linalg.yield %s : f32
  } -> tensor<1x2x2x32xf32>
  func.return %r : tensor<1x2x2x32xf32>
}

// CHECK-LABEL: func.func @values(
// CHECK:         %[[POS:[0-9]+]] = bufferization.to_buffer %pos read_only : tensor<2xi32> to memref<2xi32>
// CHECK:         %[[ZERO:[0-9]+]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK:         scf.for %[[S:[0-9]+]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %{{[0-9]+}} = %{{.*}} to %{{.*}} step
// CHECK:             %[[NONE:[0-9]+]] = arith.constant false
// CHECK:             %[[X:[0-9]+]], %[[Y:[0-9]+]], %[[SKIPPED:[0-9]+]] = scf.for %[[J:[0-9]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:[0-9]+]] = %{{.*}}, %[[B:[0-9]+]] = %{{.*}}, %[[F:[0-9]+]] = %[[NONE]]) -> (vector<16xf32>, vector<16xf32>, i1) {
// CHECK-NEXT:          %[[P:[0-9]+]] = memref.load %[[POS]][%[[S]]] : memref<2xi32>
// CHECK-NEXT:          %[[AT:.+]] = arith.index_cast %[[P]] : i32 to index
// CHECK-NEXT:          %[[OK:.+]] = arith.cmpi ule, %[[J]], %[[AT]] : index
// CHECK-NEXT:          %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = scf.if %[[OK]] -> (vector<16xf32>, vector<16xf32>, i1) {
// CHECK:                 memref.prefetch
// CHECK:                 vector.load
// CHECK-COUNT-2:         arith.mulf
// CHECK:                 scf.yield %{{[0-9]+}}, %{{[0-9]+}}, %[[F]] : vector<16xf32>, vector<16xf32>, i1
// CHECK-NEXT:          } else {
// CHECK-NEXT:            %[[YES:[0-9]+]] = arith.constant true
// CHECK-NEXT:            scf.yield %[[A]], %[[B]], %[[YES]] : vector<16xf32>, vector<16xf32>, i1
// CHECK-NEXT:          }
// CHECK:             }
// CHECK-NEXT:        %[[XZ:[0-9]+]] = arith.addf %[[X]], %[[ZERO]] : vector<16xf32>
// CHECK-NEXT:        %{{[0-9]+}} = arith.select %[[SKIPPED]], %[[XZ]], %[[X]] : vector<16xf32>
// CHECK-NEXT:        %[[YZ:[0-9]+]] = arith.addf %[[Y]], %[[ZERO]] : vector<16xf32>
// CHECK-NEXT:        %{{[0-9]+}} = arith.select %[[SKIPPED]], %[[YZ]], %[[Y]] : vector<16xf32>
// CHECK-NOT:         linalg.generic
// CHECK:         func.return

// CHECK-LABEL: func.func @scores(
// CHECK:         %[[POS:[0-9]+]] = bufferization.to_buffer %pos read_only : tensor<2xi32> to memref<2xi32>
// CHECK-NEXT:    %[[INIT:[0-9]+]] = bufferization.to_buffer %acc read_only
// CHECK-NEXT:    %[[OUT:[0-9]+]] = memref.alloc() : memref<1x2x2x32xf32>
// CHECK-NEXT:    %[[ZERO:[0-9]+]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-NEXT:    %[[ZERO1:[0-9]+]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.for %[[S:[0-9]+]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[H:[0-9]+]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[NO:[0-9]+]] = arith.constant false
// CHECK:             %[[SEEN:[0-9]+]] = scf.for %[[C:[0-9]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ANY:[0-9]+]] = %[[NO]]) -> (i1) {
// CHECK-NEXT:          %[[P:[0-9]+]] = memref.load %[[POS]][%[[S]]] : memref<2xi32>
// CHECK-NEXT:          %[[AT:.+]] = arith.index_cast %[[P]] : i32 to index
// CHECK-NEXT:          %[[OK:.+]] = arith.cmpi ule, %[[C]], %[[AT]] : index
// CHECK-NEXT:          %[[OR:[0-9]+]] = arith.ori %[[ANY]], %[[OK]] : i1
// CHECK-NEXT:          scf.yield %[[OR]] : i1
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.if %[[SEEN]] {
// CHECK:               scf.for %{{.*}} iter_args(
// CHECK-COUNT-2:         arith.addf
// CHECK:               }
// CHECK-COUNT-2:       vector.store
// CHECK:               scf.for %[[C2:[0-9]+]] = %{{.*}} to %{{.*}} step
// CHECK:                 %[[OK2:.+]] = arith.cmpi ule, %[[C2]], %{{.+}} : index
// CHECK-NEXT:            scf.if %[[OK2]] {
// CHECK-NEXT:            } else {
// CHECK:                   %[[V:[0-9]+]] = memref.load %[[INIT]][%[[H]], %{{[0-9]+}}, %[[S]], %[[C2]]] : memref<1x2x2x32xf32>
// CHECK-NEXT:              %[[V0:[0-9]+]] = arith.addf %[[V]], %[[ZERO1]] : f32
// CHECK-NEXT:              memref.store %[[V0]], %[[OUT]][%[[H]], %{{[0-9]+}}, %[[S]], %[[C2]]] : memref<1x2x2x32xf32>
// CHECK:             } else {
// CHECK-COUNT-2:       arith.addf %{{[0-9]+}}, %[[ZERO]] : vector<16xf32>
// CHECK:             }
// the second run, columns 16 to 31
// CHECK:             %{{[0-9]+}} = scf.for %{{[0-9]+}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{[0-9]+}} = %{{[0-9]+}}) -> (i1) {
// CHECK:             scf.if
// CHECK-NOT:     linalg.generic
// CHECK:         func.return
