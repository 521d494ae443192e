// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// Gather on axis 1 with 2-d indices: result [d0, i(d1, d2), d3], negative
// indices wrapped by the dim size.
// CHECK-LABEL: func @gather
// CHECK-SAME: (%[[X:.*]]: tensor<2x5x3xf32>, %[[I:.*]]: tensor<4x2xi32>)
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<2x4x2x3xf32>)
// CHECK-DAG: %[[D0:.*]] = linalg.index 0
// CHECK-DAG: %[[D1:.*]] = linalg.index 1
// CHECK-DAG: %[[D2:.*]] = linalg.index 2
// CHECK-DAG: %[[D3:.*]] = linalg.index 3
// CHECK: %[[Q:.*]] = tensor.extract %[[I]][%[[D1]], %[[D2]]]
// CHECK: %[[QI:.*]] = arith.index_cast %[[Q]] : i32 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[QI]]
// CHECK: %[[W:.*]] = arith.addi %[[QI]], %c5
// CHECK: %[[SEL:.*]] = arith.select %[[NEG]], %[[W]], %[[QI]]
// CHECK: tensor.extract %[[X]][%[[D0]], %[[SEL]], %[[D3]]]
func.func @gather(%x: tensor<2x5x3xf32>, %i: tensor<4x2xi32>) -> tensor<2x4x2x3xf32> {
  %0 = onnx.Gather %x, %i {axis = 1 : i64} : (tensor<2x5x3xf32>, tensor<4x2xi32>) -> tensor<2x4x2x3xf32>
  return %0 : tensor<2x4x2x3xf32>
}

// -----

// One constant index (negative: -2 of 3 is 1): a slice, no copy; rank-
// reducing for a scalar index, not for a 1-d one; two indices stay a gather.
// CHECK-LABEL: func @gather_constant
// CHECK-SAME: (%[[X:.*]]: tensor<3x5x4xf32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]][1, 0, 0] [1, 5, 4] [1, 1, 1] : tensor<3x5x4xf32> to tensor<5x4xf32>
// CHECK: %[[T:.*]] = tensor.extract_slice %[[X]][0, 0, 3] [3, 5, 1] [1, 1, 1] : tensor<3x5x4xf32> to tensor<3x5xf32>
// CHECK: %[[U:.*]] = tensor.extract_slice %[[X]][0, 0, 3] [3, 5, 1] [1, 1, 1] : tensor<3x5x4xf32> to tensor<3x5x1xf32>
// CHECK: %[[V:.*]] = linalg.generic
// CHECK: return %[[S]], %[[T]], %[[U]], %[[V]]
func.func @gather_constant(%x: tensor<3x5x4xf32>) -> (tensor<5x4xf32>, tensor<3x5xf32>, tensor<3x5x1xf32>, tensor<3x5x2xf32>) {
  %i = onnx.Constant dense<-2> : tensor<i64>
  %j = onnx.Constant dense<3> : tensor<i32>
  %k = onnx.Constant dense<[3]> : tensor<1xi64>
  %0 = onnx.Gather %x, %i {axis = 0 : i64} : (tensor<3x5x4xf32>, tensor<i64>) -> tensor<5x4xf32>
  %1 = onnx.Gather %x, %j {axis = -1 : i64} : (tensor<3x5x4xf32>, tensor<i32>) -> tensor<3x5xf32>
  %l = onnx.Constant dense<[3, 0]> : tensor<2xi64>
  %2 = onnx.Gather %x, %k {axis = 2 : i64} : (tensor<3x5x4xf32>, tensor<1xi64>) -> tensor<3x5x1xf32>
  %3 = onnx.Gather %x, %l {axis = 2 : i64} : (tensor<3x5x4xf32>, tensor<2xi64>) -> tensor<3x5x2xf32>
  return %0, %1, %2, %3 : tensor<5x4xf32>, tensor<3x5xf32>, tensor<3x5x1xf32>, tensor<3x5x2xf32>
}

// -----

// Positive steps: one strided extract_slice (start -3 of 10 is 7).
// CHECK-LABEL: func @slice_positive
// CHECK: tensor.extract_slice %arg0[0, 7] [4, 2] [1, 2] : tensor<4x10xf32> to tensor<4x2xf32>
func.func @slice_positive(%x: tensor<4x10xf32>) -> tensor<4x2xf32> {
  %none = onnx.NoValue
  %s = onnx.Constant dense<[-3]> : tensor<1xi64>
  %e = onnx.Constant dense<[1000]> : tensor<1xi64>
  %a = onnx.Constant dense<[1]> : tensor<1xi64>
  %st = onnx.Constant dense<[2]> : tensor<1xi64>
  %0 = onnx.Slice %x, %s, %e, %a, %st : (tensor<4x10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// A negative step reads start + i * step.
// CHECK-LABEL: func @slice_negative
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[M0:.*]] = arith.muli %[[I]], %c1
// CHECK: %[[S0:.*]] = arith.addi %[[M0]], %c0
// CHECK: %[[M1:.*]] = arith.muli %[[J]], %c-1
// CHECK: %[[S1:.*]] = arith.addi %[[M1]], %c9
// CHECK: tensor.extract %arg0[%[[S0]], %[[S1]]]
func.func @slice_negative(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %none = onnx.NoValue
  %s = onnx.Constant dense<[-1]> : tensor<1xi32>
  %e = onnx.Constant dense<[-1000]> : tensor<1xi32>
  %a = onnx.Constant dense<[-1]> : tensor<1xi32>
  %st = onnx.Constant dense<[-1]> : tensor<1xi32>
  %0 = onnx.Slice %x, %s, %e, %a, %st : (tensor<4x10xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

// CHECK-LABEL: func @tile
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[RI:.*]] = arith.remui %[[I]], %c2
// CHECK: %[[RJ:.*]] = arith.remui %[[J]], %c3
// CHECK: tensor.extract %arg0[%[[RI]], %[[RJ]]] : tensor<2x3xi64>
func.func @tile(%x: tensor<2x3xi64>) -> tensor<4x9xi64> {
  %r = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %0 = onnx.Tile %x, %r : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<4x9xi64>
  return %0 : tensor<4x9xi64>
}

// -----

func.func @slice_runtime(%x: tensor<4xf32>, %s: tensor<1xi64>) -> tensor<?xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{needs constant starts, ends, axes and steps}}
  %0 = onnx.Slice %x, %s, %s, %none, %none : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @tile_runtime(%x: tensor<4xf32>, %r: tensor<1xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{needs constant repeats}}
  %0 = onnx.Tile %x, %r : (tensor<4xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @gather_dynamic(%x: tensor<?x4xf32>, %i: tensor<2xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{with dynamic shapes is not supported yet}}
  %0 = onnx.Gather %x, %i : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @slice_dynamic(%x: tensor<?xf32>) -> tensor<2xf32> {
  %none = onnx.NoValue
  %s = onnx.Constant dense<[0]> : tensor<1xi64>
  %e = onnx.Constant dense<[2]> : tensor<1xi64>
  // expected-error @+1 {{with dynamic shapes is not supported yet}}
  %0 = onnx.Slice %x, %s, %e, %none, %none : (tensor<?xf32>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func @gather_elements
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[I:.*]]: tensor<3x2xi64>)
// CHECK: %[[D0:.*]] = linalg.index 0
// CHECK: %[[D1:.*]] = linalg.index 1
// CHECK: %[[Q:.*]] = tensor.extract %[[I]][%[[D0]], %[[D1]]]
// CHECK: %[[SEL:.*]] = arith.select
// CHECK: tensor.extract %[[X]][%[[D0]], %[[SEL]]]
func.func @gather_elements(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %0 = onnx.GatherElements %x, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// batch_dims = 1: out[b, i] = data[b, idx[b, i, 0], idx[b, i, 1]].
// CHECK-LABEL: func @gather_nd
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<2x5x2xi64>)
// CHECK: %[[B:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[Q0:.*]] = tensor.extract %[[I]][%[[B]], %[[J]], %c0]
// CHECK: %[[S0:.*]] = arith.select
// CHECK: %[[Q1:.*]] = tensor.extract %[[I]][%[[B]], %[[J]], %c1]
// CHECK: %[[S1:.*]] = arith.select
// CHECK: tensor.extract %[[X]][%[[B]], %[[S0]], %[[S1]]]
func.func @gather_nd(%x: tensor<2x3x4xf32>, %i: tensor<2x5x2xi64>) -> tensor<2x5xf32> {
  %0 = onnx.GatherND %x, %i {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x2xi64>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func @one_hot
// CHECK-DAG: %[[OFF:.*]] = tensor.extract %{{.*}}[%c0{{.*}}] : tensor<2xf32>
// CHECK-DAG: %[[ON:.*]] = tensor.extract %{{.*}}[%c1{{.*}}] : tensor<2xf32>
// CHECK: %[[D0:.*]] = linalg.index 0
// CHECK: %[[D1:.*]] = linalg.index 1
// CHECK: %[[Q:.*]] = tensor.extract %arg0[%[[D1]]]
// CHECK: %[[W:.*]] = arith.select
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %[[W]], %[[D0]]
// CHECK: arith.select %[[HIT]], %[[ON]], %[[OFF]]
func.func @one_hot(%i: tensor<3xi64>) -> tensor<5x3xf32> {
  %d = onnx.Constant dense<5> : tensor<i64>
  %v = onnx.Constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = onnx.OneHot %i, %d, %v {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @one_hot_runtime_depth(%i: tensor<3xi64>, %d: tensor<i64>) -> tensor<3x?xf32> {
  %v = onnx.Constant dense<[0.0, 1.0]> : tensor<2xf32>
  // expected-error @+1 {{needs constant depth}}
  %0 = onnx.OneHot %i, %d, %v : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

// Starts past the end give an empty slice (no out-of-bounds offset).
// CHECK-LABEL: func @slice_empty
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x0xf32>
// CHECK: return %[[E]]
func.func @slice_empty(%x: tensor<2x10xf32>) -> tensor<2x0xf32> {
  %none = onnx.NoValue
  %s = onnx.Constant dense<[1000]> : tensor<1xi64>
  %e = onnx.Constant dense<[1001]> : tensor<1xi64>
  %a = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = onnx.Slice %x, %s, %e, %a, %none : (tensor<2x10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

// -----

// NonZero: one scan writes each non-zero element's index into the next
// column of a [rank, elements] buffer; the result is its first `count`
// columns.
// CHECK-LABEL: func @nonzero
// CHECK: %[[BUF:.*]] = linalg.fill {{.*}} -> tensor<2x6xi64>
// CHECK: %[[SCAN:.*]]:2 = scf.for %[[F:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %[[BUF]], %[[K:.*]] = %{{.*}}) -> (tensor<2x6xi64>, index)
// CHECK:   %[[V:.*]] = tensor.extract %{{.*}} : tensor<2x3xf32>
// CHECK:   %[[NZ:.*]] = arith.cmpf une, %[[V]]
// CHECK:   scf.if %[[NZ]] -> (tensor<2x6xi64>, index)
// CHECK:     tensor.insert %{{.*}} into %[[T]][%{{.*}}, %[[K]]]
// CHECK:     tensor.insert
// CHECK: tensor.extract_slice %[[SCAN]]#0[0, 0] [2, %[[SCAN]]#1] [1, 1] : tensor<2x6xi64> to tensor<2x?xi64>
func.func @nonzero(%x: tensor<2x3xf32>) -> tensor<2x?xi64> {
  %0 = onnx.NonZero %x : (tensor<2x3xf32>) -> tensor<2x?xi64>
  return %0 : tensor<2x?xi64>
}
