// RUN: xdsl-opt %s -p math-exp-as-arith | filecheck %s

// Every math.exp of f32 values, a scalar or a tensor of them, becomes arith ops in
// f64 (clamp, 2^z split at the nearest integer, the series of 2^f, the exponent's
// bits, one rounding to f32); an f64 exp is left as it is.

func.func @scalar(%x: f32) -> f32 {
  %y = math.exp %x : f32
  func.return %y : f32
}

// CHECK-LABEL: func.func @scalar(
// CHECK-SAME:    %[[X:.*]]: f32) -> f32 {
// CHECK-NOT:     math.exp
// CHECK-NEXT:    %[[D:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:    %[[LO:.*]] = arith.constant -1.040000e+02 : f64
// CHECK-NEXT:    %[[A:.*]] = arith.maximumf %[[D]], %[[LO]] : f64
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 8.900000e+01 : f64
// CHECK-NEXT:    %[[C:.*]] = arith.minimumf %[[A]], %[[HI]] : f64
// CHECK-NEXT:    %[[L2E:.*]] = arith.constant 1.4426950408889634 : f64
// CHECK-NEXT:    %[[Z:.*]] = arith.mulf %[[C]], %[[L2E]] : f64
// CHECK-NEXT:    %[[R:.*]] = arith.constant 0x4338000000000000 : f64
// CHECK-NEXT:    %[[M:.*]] = arith.addf %[[Z]], %[[R]] : f64
// CHECK-NEXT:    %[[K:.*]] = arith.subf %[[M]], %[[R]] : f64
// CHECK-NEXT:    %[[F:.*]] = arith.subf %[[Z]], %[[K]] : f64
// CHECK-COUNT-10: arith.addf
// CHECK-NEXT:    %[[MB:.*]] = arith.bitcast %[[M]] : f64 to i64
// CHECK-NEXT:    %[[RB:.*]] = arith.constant 4843621399236968448 : i64
// CHECK-NEXT:    %[[KI:.*]] = arith.subi %[[MB]], %[[RB]] : i64
// CHECK-NEXT:    %[[BIAS:.*]] = arith.constant 1023 : i64
// CHECK-NEXT:    %[[E:.*]] = arith.addi %[[KI]], %[[BIAS]] : i64
// CHECK-NEXT:    %[[SH:.*]] = arith.constant 52 : i64
// CHECK-NEXT:    %[[BITS:.*]] = arith.shli %[[E]], %[[SH]] : i64
// CHECK-NEXT:    %[[S:.*]] = arith.bitcast %[[BITS]] : i64 to f64
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %{{.*}}, %[[S]] : f64
// CHECK-NEXT:    %[[OUT:.*]] = arith.truncf %[[Y]] : f64 to f32
// CHECK-NEXT:    func.return %[[OUT]] : f32

func.func @tensor(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = math.exp %x : tensor<8x16xf32>
  func.return %y : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @tensor(
// CHECK-NOT:     math.exp
// CHECK:         arith.extf %{{.*}} : tensor<8x16xf32> to tensor<8x16xf64>
// CHECK:         arith.constant dense<-1.040000e+02> : tensor<8x16xf64>
// CHECK:         arith.bitcast %{{.*}} : tensor<8x16xi64> to tensor<8x16xf64>
// CHECK:         arith.truncf %{{.*}} : tensor<8x16xf64> to tensor<8x16xf32>

func.func @double(%x: f64) -> f64 {
  %y = math.exp %x : f64
  func.return %y : f64
}

// CHECK-LABEL: func.func @double(
// CHECK-NEXT:    %{{.*}} = math.exp %{{.*}} : f64
