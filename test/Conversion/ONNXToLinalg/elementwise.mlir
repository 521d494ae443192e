// RUN: tcc-opt %s -split-input-file --tcc-convert-onnx-to-linalg | FileCheck %s

// Broadcasting reads size-1 dims at index 0 and drops missing leading dims.
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @add_broadcast
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<1x4xf32>) outs(%[[E]]
// CHECK: arith.addf
func.func @add_broadcast(%a: tensor<2x3x4xf32>, %b: tensor<1x4xf32>) -> tensor<2x3x4xf32> {
  %0 = onnx.Add %a, %b : (tensor<2x3x4xf32>, tensor<1x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Dynamic dims come from the operand that is not broadcast there.
// CHECK-LABEL: func @sub_dynamic
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %arg0, %[[C0]]
// CHECK: tensor.empty(%[[D]]) : tensor<?x4xi64>
// CHECK: arith.subi
func.func @sub_dynamic(%a: tensor<?x4xi64>, %b: tensor<4xi64>) -> tensor<?x4xi64> {
  %0 = onnx.Sub %a, %b : (tensor<?x4xi64>, tensor<4xi64>) -> tensor<?x4xi64>
  return %0 : tensor<?x4xi64>
}

// -----

// CHECK-LABEL: func @mul_div
// CHECK: arith.mulf
// CHECK: arith.divf
func.func @mul_div(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Div %0, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @relu_sigmoid
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.negf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
func.func @relu_sigmoid(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Relu %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Sigmoid %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Clip bounds are scalar tensors broadcast into the body; a missing one is
// no bound.
// CHECK-LABEL: func @clip
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32>)
// CHECK: arith.minimumf
// CHECK-NOT: arith.maximumf
func.func @clip(%a: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf32> {
  %none = onnx.NoValue
  %0 = onnx.Clip %a, %none, %hi : (tensor<4xf32>, none, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @identity_dropout
// CHECK-NOT: onnx.
// CHECK: return %arg0
func.func @identity_dropout(%a: tensor<4xf32>) -> tensor<4xf32> {
  %none = onnx.NoValue
  %0 = onnx.Identity %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.Dropout %0, %none, %none : (tensor<4xf32>, none, none) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
