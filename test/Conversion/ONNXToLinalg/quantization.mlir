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

// -----

// QLinearMatMul: operands widen to i32 less their zero points, an i32
// batched contraction, then the multiplier in f16 (the scales' type) and
// the rest in f64, rounded half to even and saturated to int8.
// CHECK-LABEL: func @qlinear_matmul
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: arith.subi
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: arith.mulf {{.*}} : f16
// CHECK: arith.divf {{.*}} : f16
// CHECK: arith.sitofp {{.*}} : i32 to f64
// CHECK: math.roundeven {{.*}} : f64
// CHECK: arith.fptosi {{.*}} : f64 to i8
func.func @qlinear_matmul(%a: tensor<2x2x4xi8>, %b: tensor<2x4x3xi8>, %s: tensor<1xf16>, %z: tensor<1xi8>) -> tensor<2x2x3xi8> {
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s, %z, %s, %z : (tensor<2x2x4xi8>, tensor<1xf16>, tensor<1xi8>, tensor<2x4x3xi8>, tensor<1xf16>, tensor<1xi8>, tensor<1xf16>, tensor<1xi8>) -> tensor<2x2x3xi8>
  return %0 : tensor<2x2x3xi8>
}

// -----

// ConvInteger: x and w widen to i32 less their zero points (w's per output
// channel, read along dim 0), then an i32 convolution padded with zeros.
// CHECK-DAG: #[[$PERM:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
// CHECK-LABEL: func @conv_integer
// CHECK: arith.extui {{.*}} : i8 to i32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$PERM]], #{{.*}}]
// CHECK: tensor.pad
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x2x4x4xi32>
func.func @conv_integer(%x: tensor<1x1x3x3xui8>, %w: tensor<2x1x2x2xui8>, %xz: tensor<ui8>, %wz: tensor<2xui8>) -> tensor<1x2x4x4xi32> {
  %0 = onnx.ConvInteger %x, %w, %xz, %wz {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x3xui8>, tensor<2x1x2x2xui8>, tensor<ui8>, tensor<2xui8>) -> tensor<1x2x4x4xi32>
  return %0 : tensor<1x2x4x4xi32>
}

// -----

// QLinearConv: ConvInteger into the broadcast bias, then requantized with
// the per-channel w_scale read along the output channels (dim 1).
// CHECK-DAG: #[[$CHAN:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// CHECK-LABEL: func @qlinear_conv
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[$CHAN]], #{{.*}}, #{{.*}}, #{{.*}}]
// CHECK: math.roundeven {{.*}} : f64
// CHECK: arith.fptoui {{.*}} : f64 to i8
func.func @qlinear_conv(%x: tensor<1x1x3x3xui8>, %w: tensor<2x1x2x2xui8>, %s: tensor<f32>, %z: tensor<ui8>, %ws: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<1x2x2x2xui8> {
  %0 = onnx.QLinearConv %x, %s, %z, %w, %ws, %z, %s, %z, %b : (tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<2x1x2x2xui8>, tensor<2xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x2x2x2xui8>
  return %0 : tensor<1x2x2x2xui8>
}

// -----

// DynamicQuantizeLinear: max and min reductions starting at 0, the scale
// and zero point as 0-d tensors, then x quantized with them.
// CHECK-LABEL: func @dynamic_quantize_linear
// CHECK-SAME: -> (tensor<6xi8>, tensor<f32>, tensor<i8>)
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.select
// CHECK: math.roundeven
// CHECK: arith.fptoui {{.*}} : f32 to i8
func.func @dynamic_quantize_linear(%x: tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>) {
  %0:3 = onnx.DynamicQuantizeLinear %x : (tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
  return %0#0, %0#1, %0#2 : tensor<6xui8>, tensor<f32>, tensor<ui8>
}

// -----

// Blocked: the scale and zero point are first repeated block_size times
// along the axis (read at d1 floordiv 2), then used elementwise.
// CHECK-DAG: #[[$BLOCK:.*]] = affine_map<(d0, d1) -> (d0, d1 floordiv 2)>
// CHECK-LABEL: func @dequantize_blocked
// CHECK: linalg.generic {indexing_maps = [#[[$BLOCK]], #{{.*}}]
// CHECK: arith.uitofp
// CHECK: arith.mulf
func.func @dequantize_blocked(%x: tensor<3x4xui8>, %s: tensor<3x2xf32>, %z: tensor<3x2xui8>) -> tensor<3x4xf32> {
  %0 = onnx.DequantizeLinear %x, %s, %z {axis = 1 : i64, block_size = 2 : i64} : (tensor<3x4xui8>, tensor<3x2xf32>, tensor<3x2xui8>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// NhwcConvInteger: x padded by its zero point (5) spatially and its 3
// channels to a quad; the weights moved to [M, kH, kW, 4] (the fourth
// channel 0); the sum of the plain u8 x s8 products starts from -5 * sum(w[m])
// (-5 * 27 * 2 = -270, -5 * 27 * -1 = 135).
// CHECK-LABEL: func @nhwc_conv_integer
// CHECK: %[[W:.*]] = arith.constant dense_resource<nhwc_weight_i8> : tensor<2x3x3x4xi8>
// CHECK: %[[Z:.*]] = arith.constant 5 : i8
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 1]
// CHECK: tensor.yield %[[Z]] : i8
// CHECK: } : tensor<1x8x8x3xi8> to tensor<1x10x10x4xi8>
// CHECK: %[[START:.*]] = arith.constant dense<[-270, 135]> : tensor<2xi32>
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[START]] : tensor<2xi32>)
// CHECK: linalg.generic {indexing_maps = [#[[X:.*]], #[[WM:.*]], #[[Y:.*]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[P]], %[[W]] : tensor<1x10x10x4xi8>, tensor<2x3x3x4xi8>) outs(%[[INIT]] : tensor<1x4x4x2xi32>)
// CHECK: ^bb0(%[[XI:.*]]: i8, %[[WI:.*]]: i8, %[[ACC:.*]]: i32):
// CHECK-DAG: %[[WE:.*]] = arith.extsi %[[WI]] : i8 to i32
// CHECK-DAG: %[[XE:.*]] = arith.extui %[[XI]] : i8 to i32
// CHECK: %[[PROD:.*]] = arith.muli %[[XE]], %[[WE]] : i32
// CHECK: arith.addi %[[ACC]], %[[PROD]] : i32
// CHECK: nhwc_weight_i8: "0x01000000020202000202020002020200020202000202020002020200020202000202020002020200FFFFFF00FFFFFF00
func.func @nhwc_conv_integer(%x: tensor<1x8x8x3xui8>) -> tensor<1x4x4x2xi32> {
  %w = onnx.Constant dense<[[[[2, 2, 2], [2, 2, 2], [2, 2, 2]], [[2, 2, 2], [2, 2, 2], [2, 2, 2]], [[2, 2, 2], [2, 2, 2], [2, 2, 2]]], [[[-1, -1, -1], [-1, -1, -1], [-1, -1, -1]], [[-1, -1, -1], [-1, -1, -1], [-1, -1, -1]], [[-1, -1, -1], [-1, -1, -1], [-1, -1, -1]]]]> : tensor<2x3x3x3xi8>
  %z = onnx.Constant dense<5> : tensor<ui8>
  %0 = onnx.NhwcConvInteger %x, %w, %z {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xui8>, tensor<2x3x3x3xi8>, tensor<ui8>) -> tensor<1x4x4x2xi32>
  return %0 : tensor<1x4x4x2xi32>
}
