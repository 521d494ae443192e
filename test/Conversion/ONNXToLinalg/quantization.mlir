// RUN: tcc-opt %s -split-input-file --tcc-convert-onnx-to-linalg | FileCheck %s

// Per-axis uint8: the scale and zero point broadcast along axis 1; round
// half to even, clamp to [0, 255], convert unsigned. The signature is
// signless (ui8 -> i8).
// CHECK-LABEL: func @quantize_per_axis
// CHECK-SAME: -> tensor<2x3xi8>
// CHECK: math.roundeven
// CHECK: arith.uitofp
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptoui {{.*}} : f32 to i8
func.func @quantize_per_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<3xui8>) -> tensor<2x3xui8> {
  %0 = onnx.QuantizeLinear %x, %s, %z : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

// CHECK-LABEL: func @dequantize_int8
// CHECK: arith.sitofp
// CHECK: arith.subf
// CHECK: arith.mulf
func.func @dequantize_int8(%x: tensor<4xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xf32> {
  %0 = onnx.DequantizeLinear %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A per-row zero point of A reads (m); operands widen to i32 unsigned.
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func @matmul_integer
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[$ROW]], #{{.*}}]
// CHECK: arith.extui {{.*}} : i8 to i32
// CHECK: arith.subi
// CHECK: arith.muli
func.func @matmul_integer(%a: tensor<2x3xui8>, %b: tensor<3x4xui8>, %za: tensor<2xui8>) -> tensor<2x4xi32> {
  %none = onnx.NoValue
  %0 = onnx.MatMulInteger %a, %b, %za, %none : (tensor<2x3xui8>, tensor<3x4xui8>, tensor<2xui8>, none) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
