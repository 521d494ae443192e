// RUN: tcc-opt %s -split-input-file -canonicalize | FileCheck %s

// CHECK-LABEL: func @identity_removed
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: onnx.Identity
// CHECK: return %[[X]]
func.func @identity_removed(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Identity %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @dropout_removed
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: onnx.Dropout
// CHECK: return %[[X]]
func.func @dropout_removed(%x: tensor<4xf32>) -> tensor<4xf32> {
  %none = onnx.NoValue
  %0 = onnx.Dropout %x, %none, %none : (tensor<4xf32>, none, none) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The inference mask is an all-true constant.
// CHECK-LABEL: func @dropout_mask
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: onnx.Dropout
// CHECK: %[[M:.*]] = onnx.Constant dense<true> : tensor<4xi1>
// CHECK: return %[[X]], %[[M]]
func.func @dropout_mask(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) {
  %none = onnx.NoValue
  %0, %1 = onnx.Dropout %x, %none, %none : (tensor<4xf32>, none, none) -> (tensor<4xf32>, tensor<4xi1>)
  return %0, %1 : tensor<4xf32>, tensor<4xi1>
}

// -----

// W' = W * scale / sqrt(var + eps), B' = (B - mean) * scale / sqrt(var + eps) + beta
// with W = 1, B = 1, scale = [2, 4], beta = [1, 0], mean = [1, 3], var = [3, 15],
// eps = 1: s = [1, 1], W' = [1, 1], B' = [1, -2].
// CHECK-LABEL: func @bn_folded_into_conv
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense_resource<bn_folded_weight> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense_resource<bn_folded_bias> : tensor<2xf32>
// CHECK: %[[C:.*]] = onnx.Conv %{{.*}}, %[[W]], %[[B]]
// CHECK-NOT: onnx.BatchNormalization
// CHECK: return %[[C]]
// CHECK: bn_folded_weight: "0x040000000000803F0000803F"
// CHECK: bn_folded_bias: "0x040000000000803F000000C0"
func.func @bn_folded_into_conv(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = onnx.Constant dense<1.0> : tensor<2x1x1x1xf32>
  %b = onnx.Constant dense<1.0> : tensor<2xf32>
  %scale = onnx.Constant dense<[2.0, 4.0]> : tensor<2xf32>
  %beta = onnx.Constant dense<[1.0, 0.0]> : tensor<2xf32>
  %mean = onnx.Constant dense<[1.0, 3.0]> : tensor<2xf32>
  %var = onnx.Constant dense<[3.0, 15.0]> : tensor<2xf32>
  %c = onnx.Conv %x, %w, %b : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = onnx.BatchNormalization %c, %scale, %beta, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// A Conv with a second user keeps its BatchNormalization.
// CHECK-LABEL: func @bn_not_folded_when_shared
// CHECK: onnx.Conv
// CHECK: onnx.BatchNormalization
func.func @bn_not_folded_when_shared(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<2x1x1x1xf32>
  %p = onnx.Constant dense<1.0> : tensor<2xf32>
  %c = onnx.Conv %x, %w, %none : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, none) -> tensor<1x2x4x4xf32>
  %y = onnx.BatchNormalization %c, %p, %p, %p, %p : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y, %c : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
