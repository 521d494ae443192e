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

// int8 activations (quantize_static's default) that a QuantizeLinear makes
// become uint8 ones with zero points + 128 (-3 -> 125, 2 -> 130): the same
// values, saturated alike. The convolution then sums in ConvInteger as for
// uint8 activations; without int8-convolutions it stays f32, of uint8.
// CHECK-LABEL: func @int8_activations
// CHECK-SAME: (%[[V:.*]]: tensor<1x3x8x8xf32>)
// CHECK-DAG: %[[ZQ:.*]] = onnx.Constant dense<125> : tensor<ui8>
// CHECK-DAG: %[[ZD:.*]] = onnx.Constant dense<130> : tensor<ui8>
// CHECK: %[[Q:.*]] = onnx.QuantizeLinear %[[V]], %{{.*}}, %[[ZQ]] : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xui8>
// CHECK: onnx.ConvInteger %[[Q]], %{{.*}}, %[[ZD]], %{{.*}} {{.*}} : (tensor<1x3x8x8xui8>, tensor<2x3x3x3xi8>, tensor<ui8>, none) -> tensor<1x2x4x4xi32>
// CHECK-NOT: tensor<1x3x8x8xi8>
// OFF-LABEL: func @int8_activations
// OFF: onnx.QuantizeLinear {{.*}} -> tensor<1x3x8x8xui8>
// OFF-NOT: tensor<1x3x8x8xi8>
// OFF: onnx.Conv
func.func @int8_activations(%v: tensor<1x3x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %zq = onnx.Constant dense<-3> : tensor<i8>
  %zd = onnx.Constant dense<2> : tensor<i8>
  %q = onnx.QuantizeLinear %v, %s, %zq : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x8x8xi8>
  %xd = onnx.DequantizeLinear %q, %s, %zd : (tensor<1x3x8x8xi8>, tensor<f32>, tensor<i8>) -> tensor<1x3x8x8xf32>
  %w = onnx.Constant dense<3> : tensor<2x3x3x3xi8>
  %ws = onnx.Constant dense<[0.5, 0.25]> : tensor<2xf32>
  %wz = onnx.Constant dense<0> : tensor<2xi8>
  %wd = onnx.DequantizeLinear %w, %ws, %wz {axis = 0 : i64} : (tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3x3x3xf32>
  %none = onnx.NoValue
  %0 = onnx.Conv %xd, %wd, %none {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>, none) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Weights with a zero point other than 0, int8 activations that no
// QuantizeLinear makes (an input), and a grouped convolution stay f32
// convolutions of dequantized values.
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

// -----

// A QDQ convolution whose one user quantizes it per tensor, its bias int32
// dequantized by x_scale * w_scale: onnxruntime's QLinearConv arithmetic.
// The bias joins the int32 sums, then one multiply by x_scale * w_scale[m] /
// y_scale (0.5 * [0.5, 0.25] / 0.25 = [1, 0.5]) and a QuantizeLinear of
// scale 1 round them once.
// CHECK-LABEL: func @requantized_conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xui8>)
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<[7, -9]> : tensor<2xi32>
// CHECK-DAG: %[[YZ:.*]] = onnx.Constant dense<5> : tensor<ui8>
// CHECK: %[[ACC:.*]] = onnx.ConvInteger %[[X]], %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xui8>, tensor<2x3x3x3xi8>, tensor<ui8>, none) -> tensor<1x2x4x4xi32>
// CHECK: %[[BR:.*]] = onnx.Reshape %[[B]], %{{.*}} : (tensor<2xi32>, tensor<4xi64>) -> tensor<1x2x1x1xi32>
// CHECK: %[[SUM:.*]] = onnx.Add %[[ACC]], %[[BR]] : (tensor<1x2x4x4xi32>, tensor<1x2x1x1xi32>) -> tensor<1x2x4x4xi32>
// CHECK: %[[F:.*]] = onnx.Cast %[[SUM]] {to = 1 : i64}
// CHECK: %[[S:.*]] = onnx.Mul %[[F]], %{{.*}} : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[ONE:.*]] = onnx.Constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear %[[S]], %[[ONE]], %[[YZ]] : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
// CHECK: return %[[Y]]
// CHECK: conv_scale{{.*}}: "0x040000000000803F0000003F"
// OFF-LABEL: func @requantized_conv
// OFF-NOT: onnx.ConvInteger
// OFF: onnx.QuantizeLinear
func.func @requantized_conv(%x: tensor<1x3x8x8xui8>) -> tensor<1x2x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<3> : tensor<2x3x3x3xi8>
  %ws = onnx.Constant dense<[0.5, 0.25]> : tensor<2xf32>
  %wz = onnx.Constant dense<0> : tensor<2xi8>
  %b = onnx.Constant dense<[7, -9]> : tensor<2xi32>
  %bs = onnx.Constant dense<[0.25, 0.125]> : tensor<2xf32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %xd = onnx.DequantizeLinear %x, %xs, %xz : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
  %wd = onnx.DequantizeLinear %w, %ws, %wz {axis = 0 : i64} : (tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3x3x3xf32>
  %none = onnx.NoValue
  %bd = onnx.DequantizeLinear %b, %bs, %none {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, none) -> tensor<2xf32>
  %0 = onnx.Conv %xd, %wd, %bd {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %1 = onnx.QuantizeLinear %0, %ys, %yz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %1 : tensor<1x2x4x4xui8>
}

// -----

// A bias dequantized by another scale than x_scale * w_scale cannot join the
// int32 sums: the float form (scale, then the f32 bias), then the quantize.
// CHECK-LABEL: func @requantized_conv_other_bias_scale
// CHECK: onnx.ConvInteger
// CHECK: onnx.Cast
// CHECK: onnx.Mul
// CHECK: onnx.Add {{.*}} : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>)
// CHECK: onnx.QuantizeLinear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>)
func.func @requantized_conv_other_bias_scale(%x: tensor<1x3x8x8xui8>) -> tensor<1x2x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<3> : tensor<2x3x3x3xi8>
  %ws = onnx.Constant dense<[0.5, 0.25]> : tensor<2xf32>
  %b = onnx.Constant dense<[7, -9]> : tensor<2xi32>
  %bs = onnx.Constant dense<[0.5, 0.125]> : tensor<2xf32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %none = onnx.NoValue
  %xd = onnx.DequantizeLinear %x, %xs, %xz : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
  %wd = onnx.DequantizeLinear %w, %ws, %none {axis = 0 : i64} : (tensor<2x3x3x3xi8>, tensor<2xf32>, none) -> tensor<2x3x3x3xf32>
  %bd = onnx.DequantizeLinear %b, %bs, %none {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, none) -> tensor<2xf32>
  %0 = onnx.Conv %xd, %wd, %bd {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %1 = onnx.QuantizeLinear %0, %ys, %yz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %1 : tensor<1x2x4x4xui8>
}

// -----

// QLinearConv (QOperator) takes the same int32 path.
// CHECK-LABEL: func @qlinear_conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xui8>)
// CHECK: %[[ACC:.*]] = onnx.ConvInteger %[[X]]
// CHECK: %[[SUM:.*]] = onnx.Add %[[ACC]], %{{.*}} : (tensor<1x2x4x4xi32>, tensor<1x2x1x1xi32>) -> tensor<1x2x4x4xi32>
// CHECK: %[[F:.*]] = onnx.Cast %[[SUM]] {to = 1 : i64}
// CHECK: %[[S:.*]] = onnx.Mul %[[F]]
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear %[[S]]
// CHECK-NOT: onnx.QLinearConv
// CHECK: return %[[Y]]
// CHECK: conv_scale{{.*}}: "0x040000000000803F0000003F"
// OFF-LABEL: func @qlinear_conv
// OFF: onnx.QLinearConv
func.func @qlinear_conv(%x: tensor<1x3x8x8xui8>) -> tensor<1x2x4x4xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<3> : tensor<2x3x3x3xi8>
  %ws = onnx.Constant dense<[0.5, 0.25]> : tensor<2xf32>
  %wz = onnx.Constant dense<0> : tensor<2xi8>
  %b = onnx.Constant dense<[7, -9]> : tensor<2xi32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %0 = onnx.QLinearConv %x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x2x4x4xui8>
  return %0 : tensor<1x2x4x4xui8>
}

// -----

// A QDQ residual add of uint8 per tensor: onnxruntime's QLinearAdd, two
// fused multiply-adds by sa / sc = 0.5 and sb / sc = 0.25 (b's first) from
// zc - (0.5 * za + 0.25 * zb) = 3 - (5 + 1) = -3, quantized by scale 1.
// CHECK-LABEL: func @requantized_add
// CHECK-SAME: (%[[A:.*]]: tensor<1x2x4x4xui8>, %[[B:.*]]: tensor<1x2x4x4xui8>)
// CHECK: %[[FIXED:.*]] = onnx.Constant dense<-3.000000e+00> : tensor<f32>
// CHECK: %[[BF:.*]] = onnx.Cast %[[B]] {to = 1 : i64}
// CHECK: %[[RB:.*]] = onnx.Constant dense<2.500000e-01> : tensor<f32>
// CHECK: %[[T:.*]] = onnx.MulAdd %[[BF]], %[[RB]], %[[FIXED]]
// CHECK: %[[AF:.*]] = onnx.Cast %[[A]] {to = 1 : i64}
// CHECK: %[[RA:.*]] = onnx.Constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[S:.*]] = onnx.MulAdd %[[AF]], %[[RA]], %[[T]]
// CHECK: %[[Z:.*]] = onnx.Constant dense<0> : tensor<ui8>
// CHECK: %[[ONE:.*]] = onnx.Constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear %[[S]], %[[ONE]], %[[Z]]
// CHECK: return %[[Y]]
// It does not depend on 8-bit dot products: the same without the option.
// OFF-LABEL: func @requantized_add
// OFF: onnx.MulAdd
// OFF: onnx.MulAdd
func.func @requantized_add(%a: tensor<1x2x4x4xui8>, %b: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %az = onnx.Constant dense<10> : tensor<ui8>
  %bs = onnx.Constant dense<0.25> : tensor<f32>
  %bz = onnx.Constant dense<4> : tensor<ui8>
  %cs = onnx.Constant dense<1.0> : tensor<f32>
  %cz = onnx.Constant dense<3> : tensor<ui8>
  %ad = onnx.DequantizeLinear %a, %as, %az : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %bd = onnx.DequantizeLinear %b, %bs, %bz : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %0 = onnx.Add %ad, %bd : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = onnx.QuantizeLinear %0, %cs, %cz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %1 : tensor<1x2x4x4xui8>
}

// -----

// Broadcast operands (a per-channel add) keep the float form.
// CHECK-LABEL: func @broadcast_add
// CHECK-NOT: onnx.MulAdd
func.func @broadcast_add(%a: tensor<1x2x4x4xui8>, %b: tensor<1x2x1x1xui8>) -> tensor<1x2x4x4xui8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %none = onnx.NoValue
  %ad = onnx.DequantizeLinear %a, %s, %none : (tensor<1x2x4x4xui8>, tensor<f32>, none) -> tensor<1x2x4x4xf32>
  %bd = onnx.DequantizeLinear %b, %s, %none : (tensor<1x2x1x1xui8>, tensor<f32>, none) -> tensor<1x2x1x1xf32>
  %0 = onnx.Add %ad, %bd : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = onnx.QuantizeLinear %0, %s, %none : (tensor<1x2x4x4xf32>, tensor<f32>, none) -> tensor<1x2x4x4xui8>
  return %1 : tensor<1x2x4x4xui8>
}

// -----

// A grouped (depthwise) QLinearConv: ConvInteger's kernels do not tile it,
// so its sums are an f32 Conv of the integers (x - zx by w as f32), exact
// below 2^24 and so equal to the int32 sums, the bias added as f32, then the
// same requantization.
// CHECK-LABEL: func @grouped_qlinear_conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x8x8xui8>)
// CHECK-DAG: %[[XZ:.*]] = onnx.Constant dense<128> : tensor<ui8>
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<[7, -9]> : tensor<2xi32>
// CHECK-NOT: onnx.ConvInteger
// CHECK: %[[XF:.*]] = onnx.Cast %[[X]] {to = 1 : i64} : (tensor<1x2x8x8xui8>) -> tensor<1x2x8x8xf32>
// CHECK: %[[ZF:.*]] = onnx.Cast %[[XZ]] {to = 1 : i64} : (tensor<ui8>) -> tensor<f32>
// CHECK: %[[XC:.*]] = onnx.Sub %[[XF]], %[[ZF]]
// CHECK: %[[W:.*]] = onnx.Constant dense_resource<conv_weights> : tensor<2x1x3x3xf32>
// CHECK: %[[SUM:.*]] = onnx.Conv %[[XC]], %[[W]], %{{.*}} {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<2x1x3x3xf32>, none) -> tensor<1x2x8x8xf32>
// CHECK: %[[BF:.*]] = onnx.Cast %[[B]] {to = 1 : i64} : (tensor<2xi32>) -> tensor<2xf32>
// CHECK: %[[BR:.*]] = onnx.Reshape %[[BF]]
// CHECK: %[[ACC:.*]] = onnx.Add %[[SUM]], %[[BR]]
// CHECK: %[[S:.*]] = onnx.Mul %[[ACC]], %{{.*}} : (tensor<1x2x8x8xf32>, tensor<1x2x1x1xf32>)
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear %[[S]]
// CHECK: return %[[Y]]
// The weights' integers as f32: 1, -2, 3, 4, 5, -6, 7, 8, 9, -1, 2, -3, ...
// CHECK: conv_weights: "0x040000000000803F000000C000004040000080400000A0400000C0C00000E0400000004100001041000080BF00000040000040C0
// CHECK: conv_scale: "0x040000000000803F0000003F"
// Nor does this: the same without the option.
// OFF-LABEL: func @grouped_qlinear_conv
// OFF-NOT: onnx.QLinearConv
// OFF: onnx.Conv %{{.*}} {group = 2 : i64
// OFF: onnx.QuantizeLinear
func.func @grouped_qlinear_conv(%x: tensor<1x2x8x8xui8>) -> tensor<1x2x8x8xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<[[[[1, -2, 3], [4, 5, -6], [7, 8, 9]]], [[[-1, 2, -3], [4, -5, 6], [-7, 8, -9]]]]> : tensor<2x1x3x3xi8>
  %ws = onnx.Constant dense<[0.5, 0.25]> : tensor<2xf32>
  %wz = onnx.Constant dense<0> : tensor<2xi8>
  %b = onnx.Constant dense<[7, -9]> : tensor<2xi32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %0 = onnx.QLinearConv %x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<2x1x3x3xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x2x8x8xui8>
  return %0 : tensor<1x2x8x8xui8>
}

// -----

// Grouped, with 258 products per sum (258 * 255 * 128 >= 2^23) or a bias of
// 2^23: f32 sums would not be exact, so the QLinearConvs stay.
// CHECK-LABEL: func @grouped_not_exact
// CHECK-COUNT-2: onnx.QLinearConv
func.func @grouped_not_exact(%x: tensor<1x516x1x1xui8>, %d: tensor<1x2x8x8xui8>) -> (tensor<1x2x1x1xui8>, tensor<1x2x8x8xui8>) {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<1> : tensor<2x258x1x1xi8>
  %dw = onnx.Constant dense<1> : tensor<2x1x3x3xi8>
  %wz = onnx.Constant dense<0> : tensor<i8>
  %b = onnx.Constant dense<[8388608, 0]> : tensor<2xi32>
  %none = onnx.NoValue
  %0 = onnx.QLinearConv %x, %s, %z, %w, %s, %wz, %s, %z, %none {group = 2 : i64} : (tensor<1x516x1x1xui8>, tensor<f32>, tensor<ui8>, tensor<2x258x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>, none) -> tensor<1x2x1x1xui8>
  %1 = onnx.QLinearConv %d, %s, %z, %dw, %s, %wz, %s, %z, %b {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<2x1x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x2x8x8xui8>
  return %0, %1 : tensor<1x2x1x1xui8>, tensor<1x2x8x8xui8>
}

// -----

// A QDQ Gemm (quantize_static's classifier: weights per output column,
// transposed) whose one user quantizes it: onnxruntime's QGemm arithmetic,
// MatMulInteger's exact sums plus the int32 bias, one multiply by
// sa * sw[n] / sy (0.5 * [0.5, 0.25, 1] / 0.25 = [1, 0.5, 2]) and a
// QuantizeLinear by 1. The weights are transposed at compile time (a
// Transpose would run at every call).
// CHECK-LABEL: func @requantized_gemm
// CHECK-SAME: (%[[A:.*]]: tensor<2x4xui8>)
// CHECK-DAG: %[[AZ:.*]] = onnx.Constant dense<128> : tensor<ui8>
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<[7, -9, 3]> : tensor<3xi32>
// CHECK-DAG: %[[YZ:.*]] = onnx.Constant dense<5> : tensor<ui8>
// CHECK-NOT: onnx.Transpose
// CHECK: %[[WT:.*]] = onnx.Constant dense<{{\[}}[1, -1, 5], [2, -2, 6], [3, -3, 7], [4, -4, 8]]> : tensor<4x3xi8>
// CHECK-NOT: onnx.Transpose
// CHECK: %[[ACC:.*]] = onnx.MatMulInteger %[[A]], %[[WT]], %[[AZ]], %{{.*}} : (tensor<2x4xui8>, tensor<4x3xi8>, tensor<ui8>, none) -> tensor<2x3xi32>
// CHECK: %[[SUM:.*]] = onnx.Add %[[ACC]], %[[B]] : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK: %[[F:.*]] = onnx.Cast %[[SUM]] {to = 1 : i64}
// CHECK: %[[S:.*]] = onnx.Mul %[[F]], %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear %[[S]], %{{.*}}, %[[YZ]]
// CHECK: return %[[Y]]
// CHECK: gemm_scale: "0x040000000000803F0000003F00000040"
// OFF-LABEL: func @requantized_gemm
// OFF-NOT: onnx.MatMulInteger
// OFF: onnx.Gemm
func.func @requantized_gemm(%a: tensor<2x4xui8>) -> tensor<2x3xui8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %az = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<[[1, 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]]> : tensor<3x4xi8>
  %ws = onnx.Constant dense<[0.5, 0.25, 1.0]> : tensor<3xf32>
  %wz = onnx.Constant dense<0> : tensor<3xi8>
  %b = onnx.Constant dense<[7, -9, 3]> : tensor<3xi32>
  %bs = onnx.Constant dense<[0.25, 0.125, 0.5]> : tensor<3xf32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %none = onnx.NoValue
  %ad = onnx.DequantizeLinear %a, %as, %az : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x4xf32>
  %wd = onnx.DequantizeLinear %w, %ws, %wz {axis = 0 : i64} : (tensor<3x4xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<3x4xf32>
  %bd = onnx.DequantizeLinear %b, %bs, %none {axis = 0 : i64} : (tensor<3xi32>, tensor<3xf32>, none) -> tensor<3xf32>
  %0 = onnx.Gemm %ad, %wd, %bd {transB = 1 : i64} : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = onnx.QuantizeLinear %0, %ys, %yz : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %1 : tensor<2x3xui8>
}

// -----

// Per-column scales along the wrong axis of W (per row of W' = its rows
// untransposed) cannot scale the sums per column: the Gemm stays.
// CHECK-LABEL: func @gemm_scale_axis
// CHECK-NOT: onnx.MatMulInteger
// CHECK: onnx.Gemm
func.func @gemm_scale_axis(%a: tensor<2x4xui8>) -> tensor<2x4xui8> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %w = onnx.Constant dense<1> : tensor<4x4xi8>
  %ws = onnx.Constant dense<[0.5, 0.25, 1.0, 2.0]> : tensor<4xf32>
  %none = onnx.NoValue
  %ad = onnx.DequantizeLinear %a, %s, %none : (tensor<2x4xui8>, tensor<f32>, none) -> tensor<2x4xf32>
  %wd = onnx.DequantizeLinear %w, %ws, %none {axis = 1 : i64} : (tensor<4x4xi8>, tensor<4xf32>, none) -> tensor<4x4xf32>
  %0 = onnx.Gemm %ad, %wd, %none {transB = 1 : i64} : (tensor<2x4xf32>, tensor<4x4xf32>, none) -> tensor<2x4xf32>
  %1 = onnx.QuantizeLinear %0, %s, %none : (tensor<2x4xf32>, tensor<f32>, none) -> tensor<2x4xui8>
  return %1 : tensor<2x4xui8>
}

// -----

// A QDQ Mul of uint8 per tensor (here a squeeze-and-excitation scale,
// broadcast): onnxruntime's QLinearMul, the product of the integers less
// their zero points (exact in f32), times sa * sb / sc = 0.5 * 0.25 / 2,
// plus zc, each rounded apart, then quantized by 1. On any target.
// CHECK-LABEL: func @requantized_mul
// CHECK-SAME: (%[[A:.*]]: tensor<1x2x4x4xui8>, %[[B:.*]]: tensor<1x2x1x1xui8>)
// CHECK: %[[AF:.*]] = onnx.Cast %[[A]] {to = 1 : i64}
// CHECK: %[[ZA:.*]] = onnx.Constant dense<1.000000e+01> : tensor<f32>
// CHECK: %[[AC:.*]] = onnx.Sub %[[AF]], %[[ZA]]
// CHECK: %[[BF:.*]] = onnx.Cast %[[B]] {to = 1 : i64} : (tensor<1x2x1x1xui8>) -> tensor<1x2x1x1xf32>
// CHECK: %[[P:.*]] = onnx.Mul %[[AC]], %[[BF]] : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[R:.*]] = onnx.Constant dense<6.250000e-02> : tensor<f32>
// CHECK: %[[S:.*]] = onnx.Mul %[[P]], %[[R]]
// CHECK: %[[ZC:.*]] = onnx.Constant dense<3.000000e+00> : tensor<f32>
// CHECK: %[[T:.*]] = onnx.Add %[[S]], %[[ZC]]
// CHECK: %[[Z:.*]] = onnx.Constant dense<0> : tensor<ui8>
// CHECK: %[[ONE:.*]] = onnx.Constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear %[[T]], %[[ONE]], %[[Z]]
// CHECK: return %[[Y]]
// OFF-LABEL: func @requantized_mul
// OFF: onnx.Constant dense<6.250000e-02>
func.func @requantized_mul(%a: tensor<1x2x4x4xui8>, %b: tensor<1x2x1x1xui8>) -> tensor<1x2x4x4xui8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %az = onnx.Constant dense<10> : tensor<ui8>
  %bs = onnx.Constant dense<0.25> : tensor<f32>
  %cs = onnx.Constant dense<2.0> : tensor<f32>
  %cz = onnx.Constant dense<3> : tensor<ui8>
  %none = onnx.NoValue
  %ad = onnx.DequantizeLinear %a, %as, %az : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %bd = onnx.DequantizeLinear %b, %bs, %none : (tensor<1x2x1x1xui8>, tensor<f32>, none) -> tensor<1x2x1x1xf32>
  %0 = onnx.Mul %ad, %bd : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = onnx.QuantizeLinear %0, %cs, %cz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %1 : tensor<1x2x4x4xui8>
}

// -----

// A QDQ MatMul of [batch, seq, k] activations by [k, n] weights per column
// (axis 1): onnxruntime's QLinearMatMul, as the Gemm without a bias
// (0.5 * [0.5, 0.25, 1] / 0.25 = [1, 0.5, 2]).
// CHECK-LABEL: func @requantized_matmul
// CHECK-SAME: (%[[A:.*]]: tensor<2x5x4xui8>)
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense<{{.*}}> : tensor<4x3xi8>
// CHECK-NOT: onnx.Transpose
// CHECK: %[[ACC:.*]] = onnx.MatMulInteger %[[A]], %[[W]], %{{.*}}, %{{.*}} : (tensor<2x5x4xui8>, tensor<4x3xi8>, tensor<ui8>, none) -> tensor<2x5x3xi32>
// CHECK: %[[F:.*]] = onnx.Cast %[[ACC]] {to = 1 : i64}
// CHECK: %[[S:.*]] = onnx.Mul %[[F]], %{{.*}} : (tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear %[[S]]
// CHECK: return %[[Y]]
// CHECK: gemm_scale: "0x040000000000803F0000003F00000040"
// OFF-LABEL: func @requantized_matmul
// OFF-NOT: onnx.MatMulInteger
// OFF: onnx.MatMul
func.func @requantized_matmul(%a: tensor<2x5x4xui8>) -> tensor<2x5x3xui8> {
  %as = onnx.Constant dense<0.5> : tensor<f32>
  %az = onnx.Constant dense<128> : tensor<ui8>
  %w = onnx.Constant dense<[[1, 2, 3], [4, -1, -2], [-3, -4, 5], [6, 7, 8]]> : tensor<4x3xi8>
  %ws = onnx.Constant dense<[0.5, 0.25, 1.0]> : tensor<3xf32>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<5> : tensor<ui8>
  %none = onnx.NoValue
  %ad = onnx.DequantizeLinear %a, %as, %az : (tensor<2x5x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x5x4xf32>
  %wd = onnx.DequantizeLinear %w, %ws, %none {axis = 1 : i64} : (tensor<4x3xi8>, tensor<3xf32>, none) -> tensor<4x3xf32>
  %0 = onnx.MatMul %ad, %wd : (tensor<2x5x4xf32>, tensor<4x3xf32>) -> tensor<2x5x3xf32>
  %1 = onnx.QuantizeLinear %0, %ys, %yz : (tensor<2x5x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x5x3xui8>
  return %1 : tensor<2x5x3xui8>
}

// -----

// A QDQ GlobalAveragePool of uint8 per tensor: onnxruntime's
// QLinearGlobalAveragePool, the int32 sum over the image less zx * size
// (10 * 15), times xs / (ys * size) = 0.5 / (0.25 * 15), rounded once. On
// any target.
// CHECK-LABEL: func @requantized_gap
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x5xui8>)
// CHECK-DAG: %[[YZ:.*]] = onnx.Constant dense<7> : tensor<ui8>
// CHECK: %[[XI:.*]] = onnx.Cast %[[X]] {to = 6 : i64} : (tensor<1x2x3x5xui8>) -> tensor<1x2x3x5xi32>
// CHECK: %[[AXES:.*]] = onnx.Constant dense<[2, 3]> : tensor<2xi64>
// CHECK: %[[SUM:.*]] = onnx.ReduceSum %[[XI]], %[[AXES]] : (tensor<1x2x3x5xi32>, tensor<2xi64>) -> tensor<1x2x1x1xi32>
// CHECK: %[[ZS:.*]] = onnx.Constant dense<150> : tensor<i32>
// CHECK: %[[C:.*]] = onnx.Sub %[[SUM]], %[[ZS]]
// CHECK: %[[F:.*]] = onnx.Cast %[[C]] {to = 1 : i64}
// CHECK: %[[S:.*]] = onnx.Constant dense<0.13333334> : tensor<f32>
// CHECK: %[[M:.*]] = onnx.Mul %[[F]], %[[S]]
// CHECK: %[[ONE:.*]] = onnx.Constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[Y:.*]] = onnx.QuantizeLinear %[[M]], %[[ONE]], %[[YZ]]
// CHECK: return %[[Y]]
// OFF-LABEL: func @requantized_gap
// OFF: onnx.ReduceSum
func.func @requantized_gap(%x: tensor<1x2x3x5xui8>) -> tensor<1x2x1x1xui8> {
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %xz = onnx.Constant dense<10> : tensor<ui8>
  %ys = onnx.Constant dense<0.25> : tensor<f32>
  %yz = onnx.Constant dense<7> : tensor<ui8>
  %xd = onnx.DequantizeLinear %x, %xs, %xz : (tensor<1x2x3x5xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x5xf32>
  %0 = onnx.GlobalAveragePool %xd : (tensor<1x2x3x5xf32>) -> tensor<1x2x1x1xf32>
  %1 = onnx.QuantizeLinear %0, %ys, %yz : (tensor<1x2x1x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x1x1xui8>
  return %1 : tensor<1x2x1x1xui8>
}

// -----

// A Transpose of a constant 2-D 8-bit tensor (QGemm's transB weights) folds
// into the transposed constant, uint8 values above 127 included; one of a
// non-constant tensor stays.
// CHECK-LABEL: func @int8_weights_transpose
// CHECK-DAG: %[[U:.*]] = onnx.Constant dense<{{\[}}[0, 128], [255, 7], [1, 2]]> : tensor<3x2xui8>
// CHECK-DAG: onnx.Transpose %arg0
// CHECK: return %[[U]]
// OFF-LABEL: func @int8_weights_transpose
// OFF-NOT: onnx.Transpose {{.*}}tensor<2x3xui8>
func.func @int8_weights_transpose(%x: tensor<2x3xi8>) -> (tensor<3x2xui8>, tensor<3x2xi8>) {
  %w = onnx.Constant dense<[[0, 255, 1], [128, 7, 2]]> : tensor<2x3xui8>
  %0 = onnx.Transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xui8>) -> tensor<3x2xui8>
  %1 = onnx.Transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xi8>) -> tensor<3x2xi8>
  return %0, %1 : tensor<3x2xui8>, tensor<3x2xi8>
}
