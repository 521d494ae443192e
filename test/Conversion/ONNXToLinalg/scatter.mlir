// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// CHECK-LABEL: func @scatter_elements_add
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[I:.*]]: tensor<3x2xi64>, %[[U:.*]]: tensor<3x2xf32>)
// CHECK: scf.for %[[A:.*]] = {{.*}} iter_args(%[[T0:.*]] = %[[X]])
// CHECK: scf.for %[[B:.*]] = {{.*}} iter_args(%[[T1:.*]] = %[[T0]])
// CHECK: %[[Q:.*]] = tensor.extract %[[I]][%[[A]], %[[B]]]
// CHECK: %[[POS:.*]] = arith.select
// CHECK: %[[V:.*]] = tensor.extract %[[U]][%[[A]], %[[B]]]
// CHECK: %[[OLD:.*]] = tensor.extract %[[T1]][%[[A]], %[[POS]]]
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[V]]
// CHECK: tensor.insert %[[SUM]] into %[[T1]][%[[A]], %[[POS]]]
func.func @scatter_elements_add(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %0 = onnx.ScatterElements %x, %i, %u {axis = 1 : i64, reduction = "add"} : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Rows of data replaced (no reduction): the loops run over updates [2, 4].
// CHECK-LABEL: func @scatter_nd
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xi32>, %[[I:.*]]: tensor<2x1xi64>, %[[U:.*]]: tensor<2x4xi32>)
// CHECK: scf.for %[[A:.*]] = {{.*}} iter_args(%[[T0:.*]] = %[[X]])
// CHECK: scf.for %[[B:.*]] = {{.*}} iter_args(%[[T1:.*]] = %[[T0]])
// CHECK: %[[Q:.*]] = tensor.extract %[[I]][%[[A]], %c0{{.*}}]
// CHECK: %[[ROW:.*]] = arith.select
// CHECK: %[[V:.*]] = tensor.extract %[[U]][%[[A]], %[[B]]]
// CHECK-NOT: tensor.extract %[[T1]]
// CHECK: tensor.insert %[[V]] into %[[T1]][%[[ROW]], %[[B]]]
func.func @scatter_nd(%x: tensor<5x4xi32>, %i: tensor<2x1xi64>, %u: tensor<2x4xi32>) -> tensor<5x4xi32> {
  %0 = onnx.ScatterND %x, %i, %u : (tensor<5x4xi32>, tensor<2x1xi64>, tensor<2x4xi32>) -> tensor<5x4xi32>
  return %0 : tensor<5x4xi32>
}

// -----

// CHECK-LABEL: func @scatter_nd_max_unsigned
// CHECK: arith.maxui
func.func @scatter_nd_max_unsigned(%x: tensor<4xui8>, %i: tensor<2x1xi64>, %u: tensor<2xui8>) -> tensor<4xui8> {
  %0 = onnx.ScatterND %x, %i, %u {reduction = "max"} : (tensor<4xui8>, tensor<2x1xi64>, tensor<2xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// CHECK-LABEL: func @scatter_elements_min_mul
// CHECK: arith.minsi
// CHECK: arith.muli
func.func @scatter_elements_min_mul(%x: tensor<4xi64>, %i: tensor<2xi64>, %u: tensor<2xi64>) -> (tensor<4xi64>, tensor<4xi64>) {
  %0 = onnx.ScatterElements %x, %i, %u {reduction = "min"} : (tensor<4xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  %1 = onnx.ScatterElements %x, %i, %u {reduction = "mul"} : (tensor<4xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  return %0, %1 : tensor<4xi64>, tensor<4xi64>
}

// -----

func.func @scatter_dynamic(%x: tensor<?xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{with dynamic shapes is not supported yet}}
  %0 = onnx.ScatterElements %x, %i, %u : (tensor<?xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Scatter (opsets 9-10) is ScatterElements without reduction.
// CHECK-LABEL: func @scatter_v10
// CHECK: scf.for
// CHECK: %[[V:.*]] = tensor.extract %arg2
// CHECK-NOT: arith.addf
// CHECK: tensor.insert %[[V]]
func.func @scatter_v10(%x: tensor<4xf32>, %i: tensor<2xi32>, %u: tensor<2xf32>) -> tensor<4xf32> {
  %0 = onnx.Scatter %x, %i, %u : (tensor<4xf32>, tensor<2xi32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
