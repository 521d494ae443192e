// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// CHECK-LABEL: func @flatten
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0], [1, 2, 3]] : tensor<1x512x1x1xf32> into tensor<1x512xf32>
func.func @flatten(%x: tensor<1x512x1x1xf32>) -> tensor<1x512xf32> {
  %0 = onnx.Flatten %x : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
  return %0 : tensor<1x512xf32>
}

// -----

// A reshape that does not regroup dims goes through 1-d.
// CHECK-LABEL: func @reshape
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<2x6xf32> into tensor<12xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
func.func @reshape(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %s = onnx.Constant dense<[3, 4]> : tensor<2xi64>
  %0 = onnx.Reshape %x, %s : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func @transpose
// CHECK: linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<4x2x3xf32>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = onnx.Transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func @concat
// CHECK: tensor.concat dim(1) %arg0, %arg1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = onnx.Concat %a, %b {axis = -1} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func @constant
// CHECK: arith.constant dense<[1, 2]> : tensor<2xi64>
func.func @constant() -> tensor<2xi64> {
  %0 = onnx.Constant dense<[1, 2]> : tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @reshape_dynamic(%x: tensor<?x6xf32>) -> tensor<?x3xf32> {
  %s = onnx.Constant dense<[-1, 3]> : tensor<2xi64>
  // expected-error @+1 {{with dynamic shapes is not supported yet}}
  %0 = onnx.Reshape %x, %s : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// An input empty along the axis is dropped: its insert_slice at the end of
// the result would be out of bounds.
// CHECK-LABEL: func @concat_empty_input
// CHECK-NOT: tensor.concat
// CHECK: return %arg0
func.func @concat_empty_input(%a: tensor<2x8xf32>, %b: tensor<2x0xf32>) -> tensor<2x8xf32> {
  %0 = onnx.Concat %a, %b {axis = 1 : i64} : (tensor<2x8xf32>, tensor<2x0xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// An If compiled one branch of: the run reports a condition that selects
// the other (expected = false: the kept branch is else_branch).
// CHECK-LABEL: func @check_condition
// CHECK: %[[C:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK: %[[OK:.*]] = arith.xori %[[C]], %true
// CHECK: %[[OK32:.*]] = arith.extui %[[OK]] : i1 to i32
// CHECK: %[[MSG:.*]] = llvm.mlir.addressof @tcc_branch_message_0
// CHECK: call @tcc_branch_check(%[[OK32]], %[[MSG]]) : (i32, !llvm.ptr) -> ()
llvm.mlir.global internal constant @tcc_branch_message_0("node 'if0' (If): the condition selects then_branch\00")
func.func private @tcc_branch_check(i32, !llvm.ptr)
func.func @check_condition(%c: tensor<i1>) {
  onnx.CheckCondition %c {expected = false, message = @tcc_branch_message_0} : tensor<i1>
  return
}
