// RUN: tcc-opt %s -split-input-file --tcc-onnx-decompose=int8-convolutions=1 | FileCheck %s
// RUN: tcc-opt %s -split-input-file --tcc-onnx-decompose | FileCheck %s --check-prefix=OFF

// A QDQ convolution (uint8 activations, per-channel int8 weights, an int32
// bias dequantized) sums the 8-bit products in ConvInteger, then scales by
// x_scale * w_scale[m] (0.5 * [0.5, 0.25]) and adds the bias as [1, M, 1, 1].
// CHECK-LABEL: func @qdq_conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xui8>)
// CHECK: %[[ACC:.*]] = onnx.ConvInteger %[[X]], %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xui8>, tensor<2x3x3x3xi8>, tensor<ui8>, none) -> tensor<1x2x4x4xi32>
// CHECK: %[[F:.*]] = onnx.Cast %[[ACC]] {to = 1 : i64} : (tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[S:.*]] = onnx.Mul %[[F]], %{{.*}} : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
// CHECK: onnx.Reshape
// CHECK: %[[Y:.*]] = onnx.Add %[[S]], %{{.*}} : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
// CHECK: return %[[Y]]
// CHECK: conv_scale{{.*}}: "0x040000000000803E0000003E"
// The switch is off by default (no VNNI): the convolution stays f32.
// OFF-LABEL: func @qdq_conv
// OFF-NOT: onnx.ConvInteger
// OFF: onnx.Conv
func.func @qdq_conv(%x: tensor<1x3x8x8xui8>) -> tensor<1x2x4x4xf32> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<3> : tensor<2x3x3x3xi8>
  %ws = onnx.Constant dense<[0.5, 0.25]> : tensor<2xf32>
  %wz = onnx.Constant dense<0> : tensor<2xi8>
  %b = onnx.Constant dense<[7, -9]> : tensor<2xi32>
  %bs = onnx.Constant dense<[0.25, 0.125]> : tensor<2xf32>
  %xd = onnx.DequantizeLinear %x, %xs, %xz : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
  %wd = onnx.DequantizeLinear %w, %ws, %wz {axis = 0 : i64} : (tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3x3x3xf32>
  %none = onnx.NoValue
  %bd = onnx.DequantizeLinear %b, %bs, %none {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, none) -> tensor<2xf32>
  %0 = onnx.Conv %xd, %wd, %bd {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Weights with a zero point other than 0, int8 activations, and a grouped
// convolution stay f32 convolutions of dequantized values.
// CHECK-LABEL: func @not_int8_convs
// CHECK-NOT: onnx.ConvInteger
// CHECK-COUNT-3: onnx.Conv
func.func @not_int8_convs(%x: tensor<1x4x8x8xui8>, %s: tensor<1x4x8x8xi8>) -> (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %w = onnx.Constant dense<3> : tensor<2x4x3x3xi8>
  %ws = onnx.Constant dense<0.5> : tensor<f32>
  %wz = onnx.Constant dense<1> : tensor<i8>
  %wg = onnx.Constant dense<3> : tensor<2x2x3x3xi8>
  %none = onnx.NoValue
  %xd = onnx.DequantizeLinear %x, %xs, %none : (tensor<1x4x8x8xui8>, tensor<f32>, none) -> tensor<1x4x8x8xf32>
  %sd = onnx.DequantizeLinear %s, %xs, %none : (tensor<1x4x8x8xi8>, tensor<f32>, none) -> tensor<1x4x8x8xf32>
  %wd = onnx.DequantizeLinear %w, %ws, %none : (tensor<2x4x3x3xi8>, tensor<f32>, none) -> tensor<2x4x3x3xf32>
  %wzd = onnx.DequantizeLinear %w, %ws, %wz : (tensor<2x4x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x4x3x3xf32>
  %wgd = onnx.DequantizeLinear %wg, %ws, %none : (tensor<2x2x3x3xi8>, tensor<f32>, none) -> tensor<2x2x3x3xf32>
  %0 = onnx.Conv %xd, %wzd, %none : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>, none) -> tensor<1x2x6x6xf32>
  %1 = onnx.Conv %sd, %wd, %none : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>, none) -> tensor<1x2x6x6xf32>
  %2 = onnx.Conv %xd, %wgd, %none {group = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<2x2x3x3xf32>, none) -> tensor<1x2x6x6xf32>
  return %0, %1, %2 : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
}
