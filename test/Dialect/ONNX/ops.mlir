// RUN: tcc-opt %s | tcc-opt | FileCheck %s

// CHECK-LABEL: func @all_ops
func.func @all_ops(%x: tensor<1x3x8x8xf32>, %v: tensor<8xf32>, %m: tensor<2x8xf32>) -> tensor<1x3x8x8xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<3x3x3x3xf32>
  // CHECK: onnx.Conv %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 1, 1, 1, 1>}
  %c = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>, none) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.ConvTranspose {{.*}}strides = array<i64: 2, 2>
  %ct = onnx.ConvTranspose %x, %w, %none {strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>, none) -> tensor<1x3x17x17xf32>
  %sc = onnx.Constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  // CHECK: onnx.Resize {{.*}}mode = "linear"
  %rz = onnx.Resize %x, %none, %sc, %none {mode = "linear"} : (tensor<1x3x8x8xf32>, none, tensor<4xf32>, none) -> tensor<1x3x16x16xf32>
  %qs = onnx.Constant dense<0.5> : tensor<f32>
  %qz = onnx.Constant dense<3> : tensor<ui8>
  // CHECK: onnx.QuantizeLinear {{.*}} -> tensor<1x3x8x8xui8>
  %qx = onnx.QuantizeLinear %x, %qs, %qz : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xui8>
  // CHECK: onnx.DequantizeLinear
  %dq = onnx.DequantizeLinear %qx, %qs, %qz : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Relu
  %r = onnx.Relu %c : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Sigmoid
  %s = onnx.Sigmoid %r : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Add
  %a = onnx.Add %s, %r : (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Sub
  %b = onnx.Sub %a, %v : (tensor<1x3x8x8xf32>, tensor<8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Mul
  %d = onnx.Mul %b, %v : (tensor<1x3x8x8xf32>, tensor<8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Div
  %e = onnx.Div %d, %v : (tensor<1x3x8x8xf32>, tensor<8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Clip
  %f = onnx.Clip %e, %none, %none : (tensor<1x3x8x8xf32>, none, none) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.MaxPool {{.*}}kernel_shape = array<i64: 2, 2>
  %p = onnx.MaxPool %f {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  // CHECK: onnx.AveragePool
  %q = onnx.AveragePool %f {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: onnx.GlobalAveragePool
  %g = onnx.GlobalAveragePool %q : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32>
  %ch = onnx.Constant dense<1.0> : tensor<3xf32>
  // CHECK: onnx.BatchNormalization {{.*}}epsilon = 1.000000e-03
  %bn = onnx.BatchNormalization %f, %ch, %ch, %ch, %ch {epsilon = 1.0e-3 : f32} : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Flatten
  %fl = onnx.Flatten %g : (tensor<1x3x1x1xf32>) -> tensor<1x3xf32>
  // CHECK: onnx.Gemm {{.*}}transB = 1
  %wt = onnx.Constant dense<1.0> : tensor<8x3xf32>
  %gm = onnx.Gemm %fl, %wt, %v {transB = 1} : (tensor<1x3xf32>, tensor<8x3xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  // CHECK: onnx.MatMul
  %mm = onnx.MatMul %gm, %v : (tensor<1x8xf32>, tensor<8xf32>) -> tensor<1xf32>
  // CHECK: onnx.Softmax {{.*}}axis = 1
  %sm = onnx.Softmax %m {axis = 1} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: onnx.Transpose {{.*}}perm = array<i64: 1, 0>
  %t = onnx.Transpose %sm {perm = array<i64: 1, 0>} : (tensor<2x8xf32>) -> tensor<8x2xf32>
  %shape = onnx.Constant dense<[4, -1]> : tensor<2xi64>
  // CHECK: onnx.Reshape
  %rs = onnx.Reshape %t, %shape : (tensor<8x2xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  // CHECK: onnx.Concat {{.*}}axis = 0
  %cc = onnx.Concat %rs, %rs {axis = 0} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  // CHECK: onnx.Identity
  %id = onnx.Identity %bn : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Dropout
  %dr = onnx.Dropout %id, %none, %none : (tensor<1x3x8x8xf32>, none, none) -> tensor<1x3x8x8xf32>
  return %dr : tensor<1x3x8x8xf32>
}
