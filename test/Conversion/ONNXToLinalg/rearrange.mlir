// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// CHECK-LABEL: func @split
// CHECK: %[[A:.*]] = tensor.extract_slice %arg0[0, 0] [2, 3] [1, 1] : tensor<2x5xf32> to tensor<2x3xf32>
// CHECK: %[[B:.*]] = tensor.extract_slice %arg0[0, 3] [2, 2] [1, 1] : tensor<2x5xf32> to tensor<2x2xf32>
// CHECK: return %[[A]], %[[B]]
func.func @split(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x2xf32>) {
  %none = onnx.NoValue
  %0:2 = onnx.Split %x, %none {axis = -1 : i64} : (tensor<2x5xf32>, none) -> (tensor<2x3xf32>, tensor<2x2xf32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x2xf32>
}

// -----

func.func @split_runtime(%x: tensor<5xf32>, %s: tensor<2xi64>) -> (tensor<?xf32>, tensor<?xf32>) {
  // expected-error @+1 {{needs constant split sizes}}
  %0:2 = onnx.Split %x, %s : (tensor<5xf32>, tensor<2xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// Negative pads crop first; the value comes from the scalar operand.
// CHECK-LABEL: func @pad_constant
// CHECK-DAG: %[[C:.*]] = tensor.extract_slice %arg0[1, 0] [3, 4] [1, 1] : tensor<4x4xf32> to tensor<3x4xf32>
// CHECK-DAG: %[[V:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: tensor.pad %[[C]] low[0, 2] high[0, 1]
// CHECK: tensor.yield %[[V]]
// CHECK: } : tensor<3x4xf32> to tensor<3x7xf32>
func.func @pad_constant(%x: tensor<4x4xf32>, %v: tensor<f32>) -> tensor<3x7xf32> {
  %none = onnx.NoValue
  %p = onnx.Constant dense<[-1, 2, 0, 1]> : tensor<4xi64>
  %0 = onnx.Pad %x, %p, %v, %none : (tensor<4x4xf32>, tensor<4xi64>, tensor<f32>, none) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// -----

// CHECK-LABEL: func @pad_edge
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[S:.*]] = arith.subi %[[I]], %c2
// CHECK: %[[LO:.*]] = arith.maxsi %[[S]], %c0
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]], %c2
// CHECK: tensor.extract %arg0[%[[HI]]]
func.func @pad_edge(%x: tensor<3xf32>) -> tensor<6xf32> {
  %none = onnx.NoValue
  %p = onnx.Constant dense<[2, 1]> : tensor<2xi64>
  %0 = onnx.Pad %x, %p, %none, %none {mode = "edge"} : (tensor<3xf32>, tensor<2xi64>, none, none) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// reflect: index i - 2 folded into the period 2 * (3 - 1) = 4, mirrored past
// the last element.
// CHECK-LABEL: func @pad_reflect
// CHECK: %[[S:.*]] = arith.subi %{{.*}}, %c2
// CHECK: %[[R:.*]] = arith.remsi %[[S]], %c4
// CHECK: %[[A:.*]] = arith.addi %[[R]], %c4
// CHECK: %[[M:.*]] = arith.remsi %[[A]], %c4
// CHECK: %[[MIR:.*]] = arith.subi %c4{{.*}}, %[[M]]
// CHECK: %[[PAST:.*]] = arith.cmpi sgt, %[[M]], %c2
// CHECK: %[[IDX:.*]] = arith.select %[[PAST]], %[[MIR]], %[[M]]
// CHECK: tensor.extract %arg0[%[[IDX]]]
func.func @pad_reflect(%x: tensor<3xf32>) -> tensor<6xf32> {
  %none = onnx.NoValue
  %p = onnx.Constant dense<[2, 1]> : tensor<2xi64>
  %0 = onnx.Pad %x, %p, %none, %none {mode = "reflect"} : (tensor<3xf32>, tensor<2xi64>, none, none) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// CHECK-LABEL: func @pad_wrap
// CHECK: %[[S:.*]] = arith.subi %{{.*}}, %c1
// CHECK: %[[R:.*]] = arith.remsi %[[S]], %c3
// CHECK: %[[A:.*]] = arith.addi %[[R]], %c3
// CHECK: %[[M:.*]] = arith.remsi %[[A]], %c3
// CHECK: tensor.extract %arg0[%[[M]]]
func.func @pad_wrap(%x: tensor<3xf32>) -> tensor<5xf32> {
  %none = onnx.NoValue
  %p = onnx.Constant dense<[1, 1]> : tensor<2xi64>
  %0 = onnx.Pad %x, %p, %none, %none {mode = "wrap"} : (tensor<3xf32>, tensor<2xi64>, none, none) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @pad_runtime(%x: tensor<3xf32>, %p: tensor<2xi64>) -> tensor<?xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{needs constant pads and axes}}
  %0 = onnx.Pad %x, %p, %none, %none : (tensor<3xf32>, tensor<2xi64>, none, none) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @pad_reflect_crop(%x: tensor<3xf32>) -> tensor<2xf32> {
  %none = onnx.NoValue
  %p = onnx.Constant dense<[-1, 0]> : tensor<2xi64>
  // expected-error @+1 {{with negative pads in mode 'reflect' is not supported yet}}
  %0 = onnx.Pad %x, %p, %none, %none {mode = "reflect"} : (tensor<3xf32>, tensor<2xi64>, none, none) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// DCR: out(n, c, h, w) = in(n, ((h % 2) * 2 + w % 2) * 2 + c, h / 2, w / 2).
// CHECK-LABEL: func @depth_to_space_dcr
// CHECK: %[[N:.*]] = linalg.index 0
// CHECK: %[[C:.*]] = linalg.index 1
// CHECK: %[[H:.*]] = linalg.index 2
// CHECK: %[[W:.*]] = linalg.index 3
// CHECK: %[[BH:.*]] = arith.remui %[[H]], %c2
// CHECK: %[[BW:.*]] = arith.remui %[[W]], %c2
// CHECK: %[[R:.*]] = arith.muli %[[BH]], %c2
// CHECK: %[[BLK:.*]] = arith.addi %[[R]], %[[BW]]
// CHECK: %[[BC:.*]] = arith.muli %[[BLK]], %c2
// CHECK: %[[IC:.*]] = arith.addi %[[BC]], %[[C]]
// CHECK: %[[IH:.*]] = arith.divui %[[H]], %c2
// CHECK: %[[IW:.*]] = arith.divui %[[W]], %c2
// CHECK: tensor.extract %arg0[%[[N]], %[[IC]], %[[IH]], %[[IW]]] : tensor<1x8x2x3xf32>
func.func @depth_to_space_dcr(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = onnx.DepthToSpace %x {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// -----

// CRD: the input channel is c * 4 + block.
// CHECK-LABEL: func @depth_to_space_crd
// CHECK: %[[C:.*]] = linalg.index 1
// CHECK: %[[BH:.*]] = arith.remui
// CHECK: %[[BW:.*]] = arith.remui
// CHECK: %[[R:.*]] = arith.muli %[[BH]], %c2
// CHECK: %[[BLK:.*]] = arith.addi %[[R]], %[[BW]]
// CHECK: %[[CC:.*]] = arith.muli %[[C]], %c4
// CHECK: %[[IC:.*]] = arith.addi %[[CC]], %[[BLK]]
// CHECK: tensor.extract %arg0[%{{.*}}, %[[IC]], %{{.*}}, %{{.*}}]
func.func @depth_to_space_crd(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = onnx.DepthToSpace %x {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// -----

// DCR: out channel oc = block * C + c with C = 2 input channels.
// CHECK-LABEL: func @space_to_depth
// CHECK: %[[OC:.*]] = linalg.index 1
// CHECK: %[[H:.*]] = linalg.index 2
// CHECK: %[[CH:.*]] = arith.remui %[[OC]], %c2
// CHECK: %[[BLK:.*]] = arith.divui %[[OC]], %c2
// CHECK: %[[BH:.*]] = arith.divui %[[BLK]], %c2
// CHECK: %[[H2:.*]] = arith.muli %[[H]], %c2
// CHECK: %[[IH:.*]] = arith.addi %[[H2]], %[[BH]]
// CHECK: tensor.extract %arg0[%{{.*}}, %[[CH]], %[[IH]], %{{.*}}] : tensor<1x2x4x6xf32>
func.func @space_to_depth(%x: tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32> {
  %0 = onnx.SpaceToDepth %x {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  return %0 : tensor<1x8x2x3xf32>
}

// -----

// CHECK-LABEL: func @trilu_lower_runtime_k
// CHECK: %[[K:.*]] = tensor.extract %arg1[] : tensor<i64>
// CHECK: %[[R:.*]] = linalg.index 0
// CHECK: %[[C:.*]] = linalg.index 1
// CHECK: %[[X:.*]] = tensor.extract %arg0[%[[R]], %[[C]]]
// CHECK: %[[D:.*]] = arith.subi %[[C]], %[[R]]
// CHECK: %[[D64:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK: %[[KEEP:.*]] = arith.cmpi sle, %[[D64]], %[[K]]
// CHECK: arith.select %[[KEEP]], %[[X]], %{{.*}}
func.func @trilu_lower_runtime_k(%x: tensor<3x4xf32>, %k: tensor<i64>) -> tensor<3x4xf32> {
  %0 = onnx.Trilu %x, %k {upper = 0 : i64} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func @trilu_upper
// CHECK: %[[K:.*]] = arith.constant 0 : i64
// CHECK: arith.cmpi sge, %{{.*}}, %[[K]]
func.func @trilu_upper(%x: tensor<2x3x4xi32>) -> tensor<2x3x4xi32> {
  %none = onnx.NoValue
  %0 = onnx.Trilu %x, %none : (tensor<2x3x4xi32>, none) -> tensor<2x3x4xi32>
  return %0 : tensor<2x3x4xi32>
}

// -----

// CHECK-LABEL: func @eye_like
// CHECK-DAG: %[[K:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[ON:.*]] = arith.cmpi eq, %{{.*}}, %[[K]]
// CHECK: arith.select %[[ON]], %[[ONE]], %[[ZERO]]
func.func @eye_like(%x: tensor<3x4xf32>) -> tensor<3x4xi32> {
  %0 = onnx.EyeLike %x {dtype = 6 : i64, k = -1 : i64} : (tensor<3x4xf32>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}

// -----

// CHECK-LABEL: func @split_zero_size
// CHECK: %[[A:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: %[[B:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: return %[[A]], %[[B]]
func.func @split_zero_size(%x: tensor<0xf32>) -> (tensor<0xf32>, tensor<0xf32>) {
  %none = onnx.NoValue
  %0:2 = onnx.Split %x, %none : (tensor<0xf32>, none) -> (tensor<0xf32>, tensor<0xf32>)
  return %0#0, %0#1 : tensor<0xf32>, tensor<0xf32>
}

// -----

// CenterCropPad: dim 0 (5 -> 3) crops one from each end, dim 1 (2 -> 5) pads
// one zero before and two after.
// CHECK-LABEL: func @center_crop_pad
// CHECK: tensor.extract_slice %{{.*}}[1, 0] [3, 2] [1, 1]
// CHECK: tensor.pad %{{.*}} low[0, 1] high[0, 2]
func.func @center_crop_pad(%x: tensor<5x2xf32>) -> tensor<3x5xf32> {
  %s = onnx.Constant dense<[3, 5]> : tensor<2xi64>
  %0 = onnx.CenterCropPad %x, %s : (tensor<5x2xf32>, tensor<2xi64>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// ReverseSequence reads step len - 1 - t below len, t itself above.
// CHECK-LABEL: func @reverse_sequence
// CHECK: linalg.generic
// CHECK: tensor.extract %arg1
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: tensor.extract %arg0
func.func @reverse_sequence(%x: tensor<4x2xf32>, %l: tensor<2xi64>) -> tensor<4x2xf32> {
  %0 = onnx.ReverseSequence %x, %l : (tensor<4x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
