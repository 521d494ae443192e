// RUN: tcc-opt %s --tcc-onnx-channels-last --split-input-file | FileCheck %s

// A bottleneck: 1x1 convolutions, ReLUs and a residual add whose other
// operand is the block's input, which the first convolution reads too.
// Everything between the Transpose of the input and the one of the result
// runs channels-last; the add reads the input through the first
// convolution's Transpose.
// CHECK-LABEL: func @bottleneck
// CHECK: %[[X:.*]] = onnx.Transpose %arg0 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x64x8x8xf32>) -> tensor<1x8x8x64xf32>
// CHECK: %[[A:.*]] = onnx.NhwcConv %[[X]], %{{.*}} : (tensor<1x8x8x64xf32>, tensor<16x64x1x1xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
// CHECK: %[[R:.*]] = onnx.Relu %[[A]] : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
// CHECK: %[[B:.*]] = onnx.NhwcConv %[[R]], %{{.*}} -> tensor<1x8x8x64xf32>
// CHECK: %[[S:.*]] = onnx.Add %[[B]], %[[X]] : (tensor<1x8x8x64xf32>, tensor<1x8x8x64xf32>) -> tensor<1x8x8x64xf32>
// CHECK: %[[Y:.*]] = onnx.Relu %[[S]]
// CHECK: %[[T:.*]] = onnx.Transpose %[[Y]] {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x64xf32>) -> tensor<1x64x8x8xf32>
// CHECK: return %[[T]]
func.func @bottleneck(%x: tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32> {
  %w1 = onnx.Constant dense<0.5> : tensor<16x64x1x1xf32>
  %b1 = onnx.Constant dense<0.1> : tensor<16xf32>
  %w2 = onnx.Constant dense<0.25> : tensor<64x16x1x1xf32>
  %b2 = onnx.Constant dense<0.2> : tensor<64xf32>
  %a = onnx.Conv %x, %w1, %b1 : (tensor<1x64x8x8xf32>, tensor<16x64x1x1xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  %r = onnx.Relu %a : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %b = onnx.Conv %r, %w2, %b2 : (tensor<1x16x8x8xf32>, tensor<64x16x1x1xf32>, tensor<64xf32>) -> tensor<1x64x8x8xf32>
  %s = onnx.Add %b, %x : (tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %y = onnx.Relu %s : (tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  return %y : tensor<1x64x8x8xf32>
}

// -----

// A 3x3 convolution that Winograd F(2x2, 3x3) takes (16 channels, 64
// filters, 2^22 multiply-adds) runs channels-last too, on NHWC tiles. A
// depthwise convolution (a group per channel) runs channels-last; SiLU
// (x * sigmoid(x), two readers of one Transpose) and a per-channel scale
// (reshaped to [1, 1, 1, C]) run on its result.
// CHECK-LABEL: func @winograd_depthwise
// CHECK-NOT: onnx.Conv
// CHECK: onnx.NhwcConv {{.*}}pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x32x16xf32>, tensor<64x16x3x3xf32>, none) -> tensor<1x32x32x64xf32>
// CHECK-NEXT: onnx.NhwcConv {{.*}}group = 64 : i64
// CHECK-NEXT: %[[SIG:.*]] = onnx.Sigmoid %{{.*}} : (tensor<1x32x32x64xf32>)
// CHECK-NEXT: %[[SILU:.*]] = onnx.Mul %{{.*}}, %[[SIG]] : (tensor<1x32x32x64xf32>, tensor<1x32x32x64xf32>)
// CHECK: %[[SCALE:.*]] = onnx.Reshape %{{.*}} : (tensor<64x1x1xf32>, tensor<4xi64>) -> tensor<1x1x1x64xf32>
// CHECK: onnx.Mul %[[SILU]], %[[SCALE]] : (tensor<1x32x32x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x32x32x64xf32>
// CHECK: onnx.Transpose %{{.*}} {perm = array<i64: 0, 3, 1, 2>}
func.func @winograd_depthwise(%x: tensor<1x16x32x32xf32>, %scale: tensor<64x1x1xf32>) -> tensor<1x64x32x32xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<0.5> : tensor<64x16x3x3xf32>
  %wd = onnx.Constant dense<0.5> : tensor<64x1x3x3xf32>
  %c = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x32x32xf32>, tensor<64x16x3x3xf32>, none) -> tensor<1x64x32x32xf32>
  %d = onnx.Conv %c, %wd, %none {group = 64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x32x32xf32>, tensor<64x1x3x3xf32>, none) -> tensor<1x64x32x32xf32>
  %s = onnx.Sigmoid %d : (tensor<1x64x32x32xf32>) -> tensor<1x64x32x32xf32>
  %m = onnx.Mul %d, %s : (tensor<1x64x32x32xf32>, tensor<1x64x32x32xf32>) -> tensor<1x64x32x32xf32>
  %y = onnx.Mul %m, %scale : (tensor<1x64x32x32xf32>, tensor<64x1x1xf32>) -> tensor<1x64x32x32xf32>
  return %y : tensor<1x64x32x32xf32>
}

// -----

// An MLP of 1x1 convolutions with GELU between them (PoolFormer's,
// EfficientFormer's): x * (erf(x / sqrt(2)) + 1) * 0.5 reads x three ops
// after the other read, and all of it runs channels-last, with no Transpose
// between the convolutions.
// CHECK-LABEL: func @gelu_mlp
// CHECK: %[[A:.*]] = onnx.NhwcConv
// CHECK-NOT: onnx.Transpose
// CHECK: %[[D:.*]] = onnx.Div %[[A]], %{{.*}} : (tensor<1x8x8x32xf32>, tensor<f32>)
// CHECK-NEXT: %[[E:.*]] = onnx.Erf %[[D]] : (tensor<1x8x8x32xf32>)
// CHECK-NEXT: %[[P:.*]] = onnx.Add %[[E]], %{{.*}} : (tensor<1x8x8x32xf32>, tensor<f32>)
// CHECK-NEXT: %[[M:.*]] = onnx.Mul %[[A]], %[[P]] : (tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>)
// CHECK-NEXT: %[[H:.*]] = onnx.Mul %[[M]], %{{.*}} : (tensor<1x8x8x32xf32>, tensor<f32>)
// CHECK-NEXT: onnx.NhwcConv %[[H]]
// CHECK: onnx.Transpose %{{.*}} {perm = array<i64: 0, 3, 1, 2>}
func.func @gelu_mlp(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %none = onnx.NoValue
  %w1 = onnx.Constant dense<0.5> : tensor<32x16x1x1xf32>
  %w2 = onnx.Constant dense<0.25> : tensor<16x32x1x1xf32>
  %sqrt2 = onnx.Constant dense<1.41421354> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %half = onnx.Constant dense<0.5> : tensor<f32>
  %a = onnx.Conv %x, %w1, %none : (tensor<1x16x8x8xf32>, tensor<32x16x1x1xf32>, none) -> tensor<1x32x8x8xf32>
  %d = onnx.Div %a, %sqrt2 : (tensor<1x32x8x8xf32>, tensor<f32>) -> tensor<1x32x8x8xf32>
  %e = onnx.Erf %d : (tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %p = onnx.Add %e, %one : (tensor<1x32x8x8xf32>, tensor<f32>) -> tensor<1x32x8x8xf32>
  %m = onnx.Mul %a, %p : (tensor<1x32x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %h = onnx.Mul %m, %half : (tensor<1x32x8x8xf32>, tensor<f32>) -> tensor<1x32x8x8xf32>
  %y = onnx.Conv %h, %w2, %none : (tensor<1x32x8x8xf32>, tensor<16x32x1x1xf32>, none) -> tensor<1x16x8x8xf32>
  return %y : tensor<1x16x8x8xf32>
}

// -----

// A global average pool of a channels-last tensor is a mean over its H and
// W, and the Transpose of its [1, 1, 1, C] result a Reshape (it moves only
// dims of size 1); a Concat of two channels-last convolutions along the
// channels is one along the last dim.
// CHECK-LABEL: func @pool_concat
// CHECK: %[[A:.*]] = onnx.NhwcConv
// CHECK: %[[B:.*]] = onnx.NhwcConv
// CHECK: %[[C:.*]] = onnx.Concat %[[A]], %[[B]] {axis = 3 : i64} : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x16xf32>
// CHECK: %[[M:.*]] = onnx.ReduceMean %[[C]], %{{.*}} : (tensor<1x4x4x16xf32>, tensor<2xi64>) -> tensor<1x1x1x16xf32>
// CHECK: onnx.Reshape %[[M]], %{{.*}} : (tensor<1x1x1x16xf32>, tensor<4xi64>) -> tensor<1x16x1x1xf32>
func.func @pool_concat(%x: tensor<1x8x4x4xf32>) -> tensor<1x16x1x1xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<0.5> : tensor<8x8x1x1xf32>
  %w2 = onnx.Constant dense<0.25> : tensor<8x8x1x1xf32>
  %a = onnx.Conv %x, %w, %none : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>, none) -> tensor<1x8x4x4xf32>
  %b = onnx.Conv %x, %w2, %none : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>, none) -> tensor<1x8x4x4xf32>
  %c = onnx.Concat %a, %b {axis = 1} : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x16x4x4xf32>
  %p = onnx.GlobalAveragePool %c : (tensor<1x16x4x4xf32>) -> tensor<1x16x1x1xf32>
  return %p : tensor<1x16x1x1xf32>
}

// -----

// What stays NCHW: a convolution of weights that are not constant, one of
// dynamic shapes. A dilated convolution and a grouped one that is not
// depthwise run channels-last too.
// Before an op that reads NCHW (LpPool), the Transpose stays; and the
// ReLU reading it as well as the pool keeps its NCHW operand: moving the
// Transpose below it would leave one for the pool and add another.
// CHECK-LABEL: func @stays
// CHECK: onnx.NhwcConv {{.*}}dilations = array<i64: 2, 2>
// CHECK: onnx.NhwcConv {{.*}}group = 2 : i64
// CHECK-COUNT-2: onnx.Conv
// CHECK: onnx.NhwcConv
// CHECK: %[[T:.*]] = onnx.Transpose %{{.*}} {perm = array<i64: 0, 3, 1, 2>}
// CHECK: onnx.LpPool %[[T]]
// CHECK: onnx.Relu %[[T]] : (tensor<1x8x8x8xf32>)
func.func @stays(%x: tensor<1x8x8x8xf32>, %wx: tensor<8x8x1x1xf32>, %xd: tensor<?x8x8x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x8x8xf32>, tensor<?x8x8x8xf32>, tensor<1x8x8x8xf32>) {
  %none = onnx.NoValue
  %w = onnx.Constant dense<0.5> : tensor<8x8x3x3xf32>
  %wg = onnx.Constant dense<0.5> : tensor<8x4x1x1xf32>
  %w11 = onnx.Constant dense<0.5> : tensor<8x8x1x1xf32>
  %dil = onnx.Conv %x, %w, %none {dilations = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>, none) -> tensor<1x8x4x4xf32>
  %grp = onnx.Conv %x, %wg, %none {group = 2} : (tensor<1x8x8x8xf32>, tensor<8x4x1x1xf32>, none) -> tensor<1x8x8x8xf32>
  %var = onnx.Conv %x, %wx, %none : (tensor<1x8x8x8xf32>, tensor<8x8x1x1xf32>, none) -> tensor<1x8x8x8xf32>
  %dyn = onnx.Conv %xd, %wx, %none : (tensor<?x8x8x8xf32>, tensor<8x8x1x1xf32>, none) -> tensor<?x8x8x8xf32>
  %c = onnx.Conv %grp, %w11, %none : (tensor<1x8x8x8xf32>, tensor<8x8x1x1xf32>, none) -> tensor<1x8x8x8xf32>
  %p = onnx.LpPool %c {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
  %r = onnx.Relu %c : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %dil, %p, %var, %dyn, %r : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x8x8xf32>, tensor<?x8x8x8xf32>, tensor<1x8x8x8xf32>
}

// -----

// A convolution whose taps mostly read padding (dilated by 5 on 6x7, as
// DeepLabV3's ASPP) stays NCHW: it runs tap by tap, each tap a 1x1
// convolution over the output rectangle it reaches.
// CHECK-LABEL: func @tapwise
// CHECK-NOT: onnx.NhwcConv
// CHECK: onnx.Conv
// CHECK-NOT: onnx.NhwcConv
func.func @tapwise(%x: tensor<1x8x6x7xf32>) -> tensor<1x4x6x7xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<0.5> : tensor<4x8x3x3xf32>
  %y = onnx.Conv %x, %w, %none {dilations = array<i64: 5, 5>, pads = array<i64: 5, 5, 5, 5>} : (tensor<1x8x6x7xf32>, tensor<4x8x3x3xf32>, none) -> tensor<1x4x6x7xf32>
  return %y : tensor<1x4x6x7xf32>
}

// -----

// 2-d MaxPool and AveragePool of channels-last tensors run channels-last
// (NhwcMaxPool, NhwcAveragePool), and so does a BatchNormalization with
// constant parameters, as a per-channel multiply and add ([1, 1, 1, C]):
// s = 2 / sqrt(3 + 1) = 1, b = 0.5 - 1 * 1 = -0.5. The chain from the first
// convolution to the last is then channels-last, a Transpose only at each
// end. A 1-d MaxPool and a BatchNormalization of parameters that are not
// constant stay NCHW.
// CHECK-LABEL: func @pools_batchnorm
// CHECK-DAG: onnx.Constant dense_resource<bn_scale> : tensor<1x1x1x8xf32>
// CHECK-DAG: onnx.Constant dense_resource<bn_shift> : tensor<1x1x1x8xf32>
// CHECK: onnx.NhwcConv
// CHECK-NEXT: %[[M:.*]] = onnx.NhwcMaxPool %{{.*}} {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[A:.*]] = onnx.NhwcAveragePool %[[M]] {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x8xf32>) -> tensor<1x2x2x8xf32>
// CHECK-NEXT: %[[MUL:.*]] = onnx.Mul %[[A]], %{{.*}} : (tensor<1x2x2x8xf32>, tensor<1x1x1x8xf32>)
// CHECK-NEXT: onnx.Add %[[MUL]], %{{.*}} : (tensor<1x2x2x8xf32>, tensor<1x1x1x8xf32>)
// CHECK-NEXT: onnx.Relu
// CHECK-NEXT: onnx.NhwcConv
// CHECK-NEXT: %[[T:.*]] = onnx.Transpose
// CHECK-NEXT: onnx.BatchNormalization %[[T]], {{.*}} : (tensor<1x4x2x2xf32>, tensor<4xf32>
// CHECK: onnx.MaxPool %{{.*}} : (tensor<1x4x8xf32>)
// CHECK: {-#
// CHECK-DAG: bn_scale: "0x040000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F"
// CHECK-DAG: bn_shift: "0x04000000000000BF000000BF000000BF000000BF000000BF000000BF000000BF000000BF"
func.func @pools_batchnorm(%x: tensor<1x8x8x8xf32>, %mean: tensor<4xf32>, %seq: tensor<1x4x8xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x4x4xf32>) {
  %none = onnx.NoValue
  %w = onnx.Constant dense<0.5> : tensor<8x8x1x1xf32>
  %w2 = onnx.Constant dense<0.25> : tensor<4x8x1x1xf32>
  %scale = onnx.Constant dense<2.0> : tensor<8xf32>
  %shift = onnx.Constant dense<0.5> : tensor<8xf32>
  %one = onnx.Constant dense<1.0> : tensor<8xf32>
  %var = onnx.Constant dense<3.0> : tensor<8xf32>
  %one4 = onnx.Constant dense<1.0> : tensor<4xf32>
  %c = onnx.Conv %x, %w, %none : (tensor<1x8x8x8xf32>, tensor<8x8x1x1xf32>, none) -> tensor<1x8x8x8xf32>
  %m = onnx.MaxPool %c {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
  %a = onnx.AveragePool %m {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = 1} : (tensor<1x8x4x4xf32>) -> tensor<1x8x2x2xf32>
  %bn = onnx.BatchNormalization %a, %scale, %shift, %one, %var {epsilon = 1.0 : f32} : (tensor<1x8x2x2xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x2x2xf32>
  %r = onnx.Relu %bn : (tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %d = onnx.Conv %r, %w2, %none : (tensor<1x8x2x2xf32>, tensor<4x8x1x1xf32>, none) -> tensor<1x4x2x2xf32>
  %bn2 = onnx.BatchNormalization %d, %one4, %one4, %mean, %one4 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %p1 = onnx.MaxPool %seq {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x4x8xf32>) -> tensor<1x4x4xf32>
  return %bn2, %p1 : tensor<1x4x2x2xf32>, tensor<1x4x4xf32>
}

// -----

// Two QDQ convolutions as tcc-onnx-decompose leaves them (ConvInteger,
// Cast, a scale per channel, QuantizeLinear): both run channels-last, and
// so does everything between them; QuantizeLinear's scale and zero point
// are read as they are, the scale per channel as [1, 1, 1, C].
// CHECK-LABEL: func @int8_convs
// CHECK: %[[X:.*]] = onnx.Transpose %arg0 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x6x6xui8>) -> tensor<1x6x6x8xui8>
// CHECK: %[[A:.*]] = onnx.NhwcConvInteger %[[X]], %{{.*}}, %{{.*}} {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x6x6x8xui8>, tensor<4x8x3x3xi8>, tensor<ui8>) -> tensor<1x6x6x4xi32>
// CHECK: %[[F:.*]] = onnx.Cast %[[A]] {to = 1 : i64} : (tensor<1x6x6x4xi32>) -> tensor<1x6x6x4xf32>
// CHECK: %[[M:.*]] = onnx.Mul %[[F]], %{{.*}} : (tensor<1x6x6x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK: %[[Q:.*]] = onnx.QuantizeLinear %[[M]], %{{.*}}, %{{.*}} : (tensor<1x6x6x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x6x6x4xui8>
// CHECK: %[[B:.*]] = onnx.NhwcConvInteger %[[Q]], %{{.*}}, %{{.*}} : (tensor<1x6x6x4xui8>, tensor<4x4x1x1xi8>, tensor<ui8>) -> tensor<1x6x6x4xi32>
// CHECK: %[[G:.*]] = onnx.Cast %[[B]]
// CHECK: %[[Y:.*]] = onnx.Transpose %[[G]] {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x6x6x4xf32>) -> tensor<1x4x6x6xf32>
// CHECK: return %[[Y]]
func.func @int8_convs(%x: tensor<1x8x6x6xui8>) -> tensor<1x4x6x6xf32> {
  %z = onnx.Constant dense<3> : tensor<ui8>
  %w1 = onnx.Constant dense<2> : tensor<4x8x3x3xi8>
  %w2 = onnx.Constant dense<-1> : tensor<4x4x1x1xi8>
  %s = onnx.Constant dense<[[[[0.5]], [[0.25]], [[0.125]], [[1.0]]]]> : tensor<1x4x1x1xf32>
  %qs = onnx.Constant dense<0.1> : tensor<f32>
  %none = onnx.NoValue
  %a = onnx.ConvInteger %x, %w1, %z, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xui8>, tensor<4x8x3x3xi8>, tensor<ui8>, none) -> tensor<1x4x6x6xi32>
  %f = onnx.Cast %a {to = 1 : i64} : (tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xf32>
  %m = onnx.Mul %f, %s : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %q = onnx.QuantizeLinear %m, %qs, %z : (tensor<1x4x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  %b = onnx.ConvInteger %q, %w2, %z, %none : (tensor<1x4x6x6xui8>, tensor<4x4x1x1xi8>, tensor<ui8>, none) -> tensor<1x4x6x6xi32>
  %g = onnx.Cast %b {to = 1 : i64} : (tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xf32>
  return %g : tensor<1x4x6x6xf32>
}

// -----

// A QuantizeLinear per channel (its scale along axis 1) stays where it is:
// the Transpose back to NCHW comes before it.
// CHECK-LABEL: func @per_channel_quantize
// CHECK: onnx.NhwcConvInteger
// CHECK: %[[T:.*]] = onnx.Transpose %{{.*}} {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x6x6x4xf32>) -> tensor<1x4x6x6xf32>
// CHECK: onnx.QuantizeLinear %[[T]]
func.func @per_channel_quantize(%x: tensor<1x8x6x6xui8>) -> tensor<1x4x6x6xui8> {
  %w = onnx.Constant dense<2> : tensor<4x8x3x3xi8>
  %qs = onnx.Constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %qz = onnx.Constant dense<[1, 2, 3, 4]> : tensor<4xui8>
  %none = onnx.NoValue
  %a = onnx.ConvInteger %x, %w, %none, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xui8>, tensor<4x8x3x3xi8>, none, none) -> tensor<1x4x6x6xi32>
  %f = onnx.Cast %a {to = 1 : i64} : (tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xf32>
  %q = onnx.QuantizeLinear %f, %qs, %qz {axis = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xui8>) -> tensor<1x4x6x6xui8>
  return %q : tensor<1x4x6x6xui8>
}
