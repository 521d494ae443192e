// RUN: tcc-opt %s -split-input-file --tcc-convert-onnx-to-linalg | FileCheck %s

// Float math on f16 computes in f32.
// CHECK-LABEL: func @sqrt_f16
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: %[[S:.*]] = math.sqrt %[[W]] : f32
// CHECK: arith.truncf %[[S]] : f32 to f16
func.func @sqrt_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = onnx.Sqrt %x : (tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// CHECK-LABEL: func @math_fns
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.roundeven
// CHECK: math.erf
// CHECK: math.atanh
func.func @math_fns(%x: tensor<4xf32>) {
  %0 = onnx.Exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Log %x : (tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Round %x : (tensor<4xf32>) -> tensor<4xf32>
  %3 = onnx.Erf %x : (tensor<4xf32>) -> tensor<4xf32>
  %4 = onnx.Atanh %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Integer Neg/Abs/Sign; unsigned Abs is the identity.
// CHECK-LABEL: func @int_unary
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: arith.subi %[[Z]], %{{.*}} : i32
// CHECK: math.absi %{{.*}} : i32
// CHECK: arith.cmpi sgt
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: arith.select
// CHECK: ^bb0(%[[U:[^:]*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: linalg.yield %[[U]] : i8
func.func @int_unary(%i: tensor<4xi32>, %u: tensor<4xui8>) {
  %0 = onnx.Neg %i : (tensor<4xi32>) -> tensor<4xi32>
  %1 = onnx.Abs %i : (tensor<4xi32>) -> tensor<4xi32>
  %2 = onnx.Sign %i : (tensor<4xi32>) -> tensor<4xi32>
  %3 = onnx.Abs %u : (tensor<4xui8>) -> tensor<4xui8>
  return
}

// -----

// CHECK-LABEL: func @predicates
// CHECK: arith.cmpf uno, %[[X:.*]], %[[X]] : f32
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: arith.cmpf oeq, %{{.*}}, %[[INF]]
// CHECK-NOT: 0xFF800000
// CHECK: arith.xori %{{.*}}, %true
func.func @predicates(%x: tensor<4xf32>, %b: tensor<4xi1>) {
  %0 = onnx.IsNaN %x : (tensor<4xf32>) -> tensor<4xi1>
  %1 = onnx.IsInf %x {detect_negative = 0 : i64} : (tensor<4xf32>) -> tensor<4xi1>
  %2 = onnx.Not %b : (tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

// Attributes become constants of the element type.
// CHECK-LABEL: func @leaky_prelu
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[X:.*]], %{{.*}}
// CHECK: %[[A:.*]] = arith.constant 1.000000e-01 : f32
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[X]]
// CHECK: arith.select %[[LT]], %[[M]], %[[X]]
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<3xf32>)
// CHECK: ^bb0(%[[PX:[^:]*]]: f32, %[[S:[^:]*]]: f32, %{{.*}}: f32):
// CHECK: %[[PLT:.*]] = arith.cmpf olt, %[[PX]]
// CHECK: %[[PM:.*]] = arith.mulf %[[S]], %[[PX]]
// CHECK: arith.select %[[PLT]], %[[PM]], %[[PX]]
// CHECK-NOT: linalg.generic
func.func @leaky_prelu(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.LeakyRelu %x {alpha = 0.1 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.PRelu %x, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @gelu
// CHECK: math.erf
// CHECK: math.tanh
func.func @gelu(%x: tensor<4xf32>) {
  %0 = onnx.Gelu %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Gelu %x {approximate = "tanh"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// CHECK-LABEL: func @activations
// CHECK: math.log1p
// CHECK: math.expm1
// CHECK: math.expm1
// CHECK: arith.minimumf
// CHECK: arith.maximumf
func.func @activations(%x: tensor<4xf32>) {
  %0 = onnx.Softplus %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Elu %x : (tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Celu %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// SwiGLU: a * sigmoid(alpha * a) * b in one body.
// CHECK-LABEL: func @swiglu
// CHECK: linalg.generic
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK: arith.mulf
func.func @swiglu(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = onnx.SwiGLU %a, %b {alpha = 0.5 : f32} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// BitCast reinterprets the bits; bool widens by value.
// CHECK-LABEL: func @bitcast
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.extui %{{.*}} : i1 to i8
func.func @bitcast(%x: tensor<3xf32>, %b: tensor<4xi1>) -> (tensor<3xi32>, tensor<4xui8>) {
  %0 = onnx.BitCast %x {to = 6 : i64} : (tensor<3xf32>) -> tensor<3xi32>
  %1 = onnx.BitCast %b {to = 2 : i64} : (tensor<4xi1>) -> tensor<4xui8>
  return %0, %1 : tensor<3xi32>, tensor<4xui8>
}
