// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// CHECK-LABEL: func @squeeze_unsqueeze
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<1x3x4xf32> into tensor<3x4xf32>
// CHECK: tensor.expand_shape %[[C]] {{\[\[}}0], [1, 2]] output_shape [3, 4, 1] : tensor<3x4xf32> into tensor<3x4x1xf32>
func.func @squeeze_unsqueeze(%x: tensor<1x3x4xf32>) -> tensor<3x4x1xf32> {
  %a0 = onnx.Constant dense<[0]> : tensor<1xi64>
  %a2 = onnx.Constant dense<[2]> : tensor<1xi64>
  %0 = onnx.Squeeze %x, %a0 : (tensor<1x3x4xf32>, tensor<1xi64>) -> tensor<3x4xf32>
  %1 = onnx.Unsqueeze %0, %a2 : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x4x1xf32>
  return %1 : tensor<3x4x1xf32>
}

// -----

// Too large to fold (small ones fold to constants): a fill.
// CHECK-LABEL: func @constant_of_shape
// CHECK: %[[V:.*]] = arith.constant 5 : i32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x128xi32>
// CHECK: linalg.fill ins(%[[V]] : i32) outs(%[[E]] : tensor<64x128xi32>)
func.func @constant_of_shape() -> tensor<64x128xui32> {
  %s = onnx.Constant dense<[64, 128]> : tensor<2xi64>
  %0 = onnx.ConstantOfShape %s {value = dense<5> : tensor<1xui32>} : (tensor<2xi64>) -> tensor<64x128xui32>
  return %0 : tensor<64x128xui32>
}

// -----

// CHECK-LABEL: func @range_f32
// CHECK-DAG: %[[START:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK-DAG: %[[DELTA:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[F:.*]] = arith.sitofp %[[I64]] : i64 to f32
// CHECK: %[[M:.*]] = arith.mulf %[[F]], %[[DELTA]]
// CHECK: arith.addf %[[START]], %[[M]]
func.func @range_f32() -> tensor<4xf32> {
  %a = onnx.Constant dense<1.0> : tensor<f32>
  %b = onnx.Constant dense<-1.0> : tensor<f32>
  %c = onnx.Constant dense<-0.5> : tensor<f32>
  %0 = onnx.Range %a, %b, %c : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// One-element 1-d start/limit/delta (ONNX's function bodies slice them out
// of a shape) read element 0.
// CHECK-LABEL: func @range_one_element
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: tensor.extract %arg0[%[[C0]]] : tensor<1xi64>
func.func @range_one_element(%a: tensor<1xi64>, %b: tensor<i64>) -> tensor<4xi64> {
  %0 = onnx.Range %a, %b, %b : (tensor<1xi64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @expand
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]]
// CHECK-SAME: ins(%arg0 : tensor<3x1xf32>)
func.func @expand(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %t = onnx.Constant dense<[2, 1, 4]> : tensor<3xi64>
  %0 = onnx.Expand %x, %t : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @reshape_runtime_shape(%x: tensor<2x6xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{needs constant shape (here computed at run time); dynamic shapes are not supported yet}}
  %0 = onnx.Reshape %x, %s : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @unsqueeze_runtime_axes(%x: tensor<2x6xf32>, %a: tensor<1xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{needs constant axes}}
  %0 = onnx.Unsqueeze %x, %a : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @shape_dynamic(%x: tensor<?x6xf32>) -> tensor<2xi64> {
  // expected-error @+1 {{of an input with a dynamic shape is not supported yet}}
  %0 = onnx.Shape %x : (tensor<?x6xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @size_dynamic(%x: tensor<?x6xf32>) -> tensor<i64> {
  // expected-error @+1 {{of an input with a dynamic shape is not supported yet}}
  %0 = onnx.Size %x : (tensor<?x6xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

func.func @constant_of_shape_runtime(%s: tensor<2xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{needs constant shape}}
  %0 = onnx.ConstantOfShape %s : (tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @range_runtime(%a: tensor<i64>) -> tensor<?xi64> {
  // expected-error @+1 {{needs constant start, limit and delta}}
  %0 = onnx.Range %a, %a, %a : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @expand_runtime(%x: tensor<3xf32>, %s: tensor<2xi64>) -> tensor<?x3xf32> {
  // expected-error @+1 {{needs constant shape}}
  %0 = onnx.Expand %x, %s : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @range_bool(%a: tensor<i1>) -> tensor<2xi1> {
  // expected-error @+1 {{of 'i1' is not supported}}
  %0 = onnx.Range %a, %a, %a : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

// A periodic Hann window of 4 points is the constant [0, 0.5, 1, 0.5].
// CHECK-LABEL: func @hann_window
// CHECK: arith.constant dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, 5.000000e-01]> : tensor<4xf32>
func.func @hann_window() -> tensor<4xf32> {
  %n = onnx.Constant dense<4> : tensor<i64>
  %0 = onnx.HannWindow %n : (tensor<i64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
