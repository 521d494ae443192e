// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-onnx-shape-inference | FileCheck %s

// CHECK-LABEL: func @conv_pool_chain
// CHECK-SAME: -> tensor<1x8x56x56xf32>
// CHECK: onnx.Conv {{.*}} -> tensor<1x8x112x112xf32>
// CHECK: onnx.MaxPool {{.*}} -> tensor<1x8x56x56xf32>
func.func @conv_pool_chain(%x: tensor<1x3x224x224xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<8x3x7x7xf32>
  %c = onnx.Conv %x, %w, %none {pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<8x3x7x7xf32>, none) -> tensor<*xf32>
  %p = onnx.MaxPool %c {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<*xf32>) -> tensor<*xf32>
  return %p : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @same_upper_and_ceil
// CHECK: onnx.Conv {{.*}} -> tensor<1x4x4x4xf32>
// CHECK: onnx.AveragePool {{.*}} -> tensor<1x4x2x2xf32>
func.func @same_upper_and_ceil(%x: tensor<1x2x7x7xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<4x2x3x3xf32>
  %c = onnx.Conv %x, %w, %none {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x2x7x7xf32>, tensor<4x2x3x3xf32>, none) -> tensor<*xf32>
  %p = onnx.AveragePool %c {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = 1} : (tensor<*xf32>) -> tensor<*xf32>
  return %p : tensor<*xf32>
}

// -----

// Channels last: the channels are the last dim of X and Y.
// CHECK-LABEL: func @nhwc_conv
// CHECK: onnx.NhwcConv {{.*}} -> tensor<1x4x4x8xf32>
func.func @nhwc_conv(%x: tensor<1x7x7x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<8x2x3x3xf32>
  %c = onnx.NhwcConv %x, %w, %none {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x7x7x2xf32>, tensor<8x2x3x3xf32>, none) -> tensor<*xf32>
  return %c : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @dynamic_batch
// CHECK: onnx.Add {{.*}} -> tensor<?x3x4xf32>
// CHECK: onnx.MatMul {{.*}} -> tensor<?x3x5xf32>
// CHECK: onnx.Gemm {{.*}} -> tensor<2x6xf32>
// CHECK: onnx.Flatten {{.*}} -> tensor<?x15xf32>
func.func @dynamic_batch(%x: tensor<?x3x4xf32>, %b: tensor<4xf32>, %m: tensor<4x5xf32>, %a: tensor<3x2xf32>, %g: tensor<6x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue
  %0 = onnx.Add %x, %b : (tensor<?x3x4xf32>, tensor<4xf32>) -> tensor<*xf32>
  %1 = onnx.MatMul %0, %m : (tensor<*xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  %2 = onnx.Gemm %a, %g, %none {transA = 1, transB = 1} : (tensor<3x2xf32>, tensor<6x3xf32>, none) -> tensor<*xf32>
  %3 = onnx.Flatten %1 : (tensor<*xf32>) -> tensor<*xf32>
  return %2, %3 : tensor<*xf32>, tensor<*xf32>
}

// -----

// CHECK-LABEL: func @reshape_transpose_concat
// CHECK: onnx.Reshape {{.*}} -> tensor<2x12xf32>
// CHECK: onnx.Transpose {{.*}} -> tensor<12x2xf32>
// CHECK: onnx.Concat {{.*}} -> tensor<12x4xf32>
func.func @reshape_transpose_concat(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %s = onnx.Constant dense<[0, -1]> : tensor<2xi64>
  %r = onnx.Reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  %t = onnx.Transpose %r : (tensor<*xf32>) -> tensor<*xf32>
  %c = onnx.Concat %t, %t {axis = -1} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %c : tensor<*xf32>
}

// -----

func.func @reshape_mismatch(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %s = onnx.Constant dense<[4, 2]> : tensor<2xi64>
  // expected-error @+1 {{cannot reshape [2,3] (6 elements) to [4,2] (8 elements)}}
  %r = onnx.Reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// A shape whose dims multiply past int64 (found by fuzz_import: the product
// overflowed before the sizes were compared), with a dynamic input dim.
func.func @reshape_overflow(%x: tensor<?x3xf32>) -> tensor<*xf32> {
  %s = onnx.Constant dense<[7953764122169061634, 724844680246685811, 470070685700]> : tensor<3xi64>
  // expected-error @+1 {{cannot reshape [?,3] to [7953764122169061634,724844680246685811,470070685700]: a tensor of over 2^48 bytes}}
  %r = onnx.Reshape %x, %s : (tensor<?x3xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// One -1 among dims that multiply past int64 on their own.
func.func @reshape_overflow_inferred(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %s = onnx.Constant dense<[-1, 4294967296, 4294967296]> : tensor<3xi64>
  // expected-error @+1 {{cannot reshape [2,3] to [-1,4294967296,4294967296]: a tensor of over 2^48 bytes}}
  %r = onnx.Reshape %x, %s : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// Comparisons and predicates give bool; Cast takes `to`, CastLike the
// target's element type; variadic and Where broadcast all operands.
// CHECK-LABEL: func @elementwise_shapes
// CHECK: onnx.Less {{.*}} -> tensor<2x3xi1>
// CHECK: onnx.IsNaN {{.*}} -> tensor<3xi1>
// CHECK: onnx.Cast {{.*}} -> tensor<3xui8>
// CHECK: onnx.CastLike {{.*}} -> tensor<2x3xf16>
// CHECK: onnx.Max {{.*}} -> tensor<4x2x3xf32>
// CHECK: onnx.Where {{.*}} -> tensor<2x3xf32>
// CHECK: onnx.Pow {{.*}} -> tensor<2x3xf32>
// CHECK: onnx.Dropout {{.*}} -> (tensor<3xf32>, tensor<3xi1>)
func.func @elementwise_shapes(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %z: tensor<4x1x1xf32>, %h: tensor<1xf16>, %c: tensor<2x1xi1>, %e: tensor<3xi64>) {
  %0 = onnx.Less %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<*xi1>
  %1 = onnx.IsNaN %y : (tensor<3xf32>) -> tensor<*xi1>
  %2 = onnx.Cast %y {to = 2 : i64} : (tensor<3xf32>) -> tensor<*xf32>
  %3 = onnx.CastLike %x, %h : (tensor<2x3xf32>, tensor<1xf16>) -> tensor<*xf32>
  %4 = onnx.Max %x, %y, %z : (tensor<2x3xf32>, tensor<3xf32>, tensor<4x1x1xf32>) -> tensor<*xf32>
  %5 = onnx.Where %c, %y, %x : (tensor<2x1xi1>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  %6 = onnx.Pow %x, %e : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<*xf32>
  %none = onnx.NoValue
  %7, %8 = onnx.Dropout %y, %none, %none : (tensor<3xf32>, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

// out = stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - pads;
// output_shape or SAME_* give the pads instead.
// CHECK-LABEL: func @conv_transpose_shapes
// CHECK: onnx.ConvTranspose {{.*}} -> tensor<1x4x9x10xf32>
// CHECK: onnx.ConvTranspose {{.*}} -> tensor<1x4x10x8xf32>
// CHECK: onnx.ConvTranspose {{.*}} -> tensor<1x4x8x8xf32>
func.func @conv_transpose_shapes(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue
  %0 = onnx.ConvTranspose %x, %w, %none {group = 2, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, output_padding = array<i64: 0, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, none) -> tensor<*xf32>
  %1 = onnx.ConvTranspose %x, %w, %none {group = 2, strides = array<i64: 3, 2>, output_shape = array<i64: 10, 8>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, none) -> tensor<*xf32>
  %2 = onnx.ConvTranspose %x, %w, %none {group = 2, strides = array<i64: 2, 2>, auto_pad = "SAME_UPPER"} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, none) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @conv_transpose_output_padding(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects 'output_padding' to have 2 values, got 1}}
  %0 = onnx.ConvTranspose %x, %w, %none {output_padding = array<i64: 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// An output_shape value no tensor can have (the fuzzer's INT64_MIN overflowed
// the padding computed from it).
func.func @conv_transpose_output_shape_min(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects 'output_shape' values from 1 to 2^62, got -9223372036854775808 along spatial dim 0}}
  %0 = onnx.ConvTranspose %x, %w, %none {output_shape = array<i64: -9223372036854775808, 8>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Scales: floor(in * scale). Sizes with not_larger: one scale for the axes,
// the smallest, and round(in * scale).
// CHECK-LABEL: func @resize_shapes
// CHECK: onnx.Resize {{.*}} -> tensor<1x3x5x12xf32>
// CHECK: onnx.Resize {{.*}} -> tensor<1x3x4x6xf32>
// CHECK: onnx.Resize {{.*}} -> tensor<?x?x?x?xf32>
func.func @resize_shapes(%x: tensor<1x3x4x6xf32>, %dyn: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue
  %scales = onnx.Constant dense<[1.0, 1.0, 1.3, 2.0]> : tensor<4xf32>
  %sizes = onnx.Constant dense<[6, 6]> : tensor<2xi64>
  %0 = onnx.Resize %x, %none, %scales, %none : (tensor<1x3x4x6xf32>, none, tensor<4xf32>, none) -> tensor<*xf32>
  %1 = onnx.Resize %x, %none, %none, %sizes {axes = array<i64: 2, 3>, keep_aspect_ratio_policy = "not_larger"} : (tensor<1x3x4x6xf32>, none, none, tensor<2xi64>) -> tensor<*xf32>
  %2 = onnx.Resize %x, %none, %dyn, %none : (tensor<1x3x4x6xf32>, none, tensor<4xf32>, none) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @resize_scales_and_sizes(%x: tensor<1x3x4x6xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %scales = onnx.Constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %sizes = onnx.Constant dense<[1, 3, 8, 12]> : tensor<4xi64>
  // expected-error @+1 {{expects exactly one of scales and sizes}}
  %0 = onnx.Resize %x, %none, %scales, %sizes : (tensor<1x3x4x6xf32>, none, tensor<4xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @reduce_shapes
// CHECK: onnx.ReduceSum {{.*}} -> tensor<2x1x4xf32>
// CHECK: onnx.ReduceMax {{.*}} -> tensor<3xi32>
// CHECK: onnx.ReduceMean {{.*}} -> tensor<1x1x1xf32>
// CHECK: onnx.ReduceL2 {{.*}} -> tensor<f32>
// CHECK: onnx.ReduceMin {{.*}} -> tensor<2x3x4xf32>
// CHECK: onnx.ReduceProd {{.*}} -> tensor<*xf32>
// CHECK: onnx.ArgMax {{.*}} -> tensor<2x4xi64>
// CHECK: onnx.ArgMin {{.*}} -> tensor<2x3x1xi64>
func.func @reduce_shapes(%x: tensor<2x3x4xf32>, %i: tensor<2x3xi32>, %dyn: tensor<1xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %a1 = onnx.Constant dense<[-2]> : tensor<1xi64>
  %a0 = onnx.Constant dense<[0]> : tensor<1xi64>
  %empty = onnx.Constant dense<> : tensor<0xi64>
  %0 = onnx.ReduceSum %x, %a1 : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<*xf32>
  %1 = onnx.ReduceMax %i, %a0 {keepdims = 0} : (tensor<2x3xi32>, tensor<1xi64>) -> tensor<*xi32>
  %2 = onnx.ReduceMean %x, %none : (tensor<2x3x4xf32>, none) -> tensor<*xf32>
  %3 = onnx.ReduceL2 %x, %empty {keepdims = 0} : (tensor<2x3x4xf32>, tensor<0xi64>) -> tensor<*xf32>
  %4 = onnx.ReduceMin %x, %empty {noop_with_empty_axes = 1} : (tensor<2x3x4xf32>, tensor<0xi64>) -> tensor<*xf32>
  %5 = onnx.ReduceProd %x, %dyn : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<*xf32>
  %6 = onnx.ArgMax %x {axis = 1, keepdims = 0} : (tensor<2x3x4xf32>) -> tensor<*xi64>
  %7 = onnx.ArgMin %x {axis = -1} : (tensor<2x3x4xf32>) -> tensor<*xi64>
  return %5 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @layernorm_shapes
// CHECK: onnx.LayerNormalization {{.*}} -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
func.func @layernorm_shapes(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %0:3 = onnx.LayerNormalization %x, %s, %none {axis = 1} : (tensor<2x3x4xf32>, tensor<3x4xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#1 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @rmsnorm_shapes
// CHECK: onnx.RMSNormalization {{.*}} -> tensor<2x3x4xf32>
func.func @rmsnorm_shapes(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>) -> tensor<*xf32> {
  %0 = onnx.RMSNormalization %x, %s {axis = 1} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @loss_shapes
// CHECK: onnx.NegativeLogLikelihoodLoss {{.*}} -> tensor<3x6x7xf32>
// CHECK: onnx.NegativeLogLikelihoodLoss {{.*}} -> tensor<f32>
// CHECK: onnx.SoftmaxCrossEntropyLoss {{.*}} -> (tensor<f32>, tensor<3x5x6x7xf32>)
func.func @loss_shapes(%x: tensor<3x5x6x7xf32>, %t: tensor<3x6x7xi32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none {reduction = "none"} : (tensor<3x5x6x7xf32>, tensor<3x6x7xi32>, none) -> tensor<*xf32>
  %1 = onnx.NegativeLogLikelihoodLoss %x, %t, %none : (tensor<3x5x6x7xf32>, tensor<3x6x7xi32>, none) -> tensor<*xf32>
  %2:2 = onnx.SoftmaxCrossEntropyLoss %x, %t, %none : (tensor<3x5x6x7xf32>, tensor<3x6x7xi32>, none) -> (tensor<*xf32>, tensor<*xf32>)
  return %0, %1, %2#1 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// CHECK-LABEL: func @topk_shapes
// CHECK: onnx.TopK {{.*}} -> (tensor<2x2x4xf32>, tensor<2x2x4xi64>)
// CHECK: onnx.TopK {{.*}} -> (tensor<2x3x?xf32>, tensor<2x3x?xi64>)
// CHECK: onnx.CumSum {{.*}} -> tensor<2x3x4xf32>
func.func @topk_shapes(%x: tensor<2x3x4xf32>, %dyn: tensor<1xi64>) -> tensor<*xf32> {
  %k = onnx.Constant dense<[2]> : tensor<1xi64>
  %0:2 = onnx.TopK %x, %k {axis = 1} : (tensor<2x3x4xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  %1:2 = onnx.TopK %x, %dyn : (tensor<2x3x4xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  %2 = onnx.CumSum %x, %dyn : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0#0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @shape_ops
// CHECK: onnx.Shape {{.*}} -> tensor<2xi64>
// CHECK: onnx.Shape {{.*}} -> tensor<?xi64>
// CHECK: onnx.Size {{.*}} -> tensor<i64>
// CHECK: onnx.Squeeze {{.*}} -> tensor<3x?xf32>
// CHECK: onnx.Squeeze {{.*}} -> tensor<*xf32>
// CHECK: onnx.Unsqueeze {{.*}} -> tensor<1x3x1x1x?xf32>
func.func @shape_ops(%x: tensor<1x3x1x?xf32>, %u: tensor<*xf32>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue
  %0 = onnx.Shape %x {start = 1 : i64, end = -1 : i64} : (tensor<1x3x1x?xf32>) -> tensor<*xi64>
  %1 = onnx.Shape %u : (tensor<*xf32>) -> tensor<*xi64>
  %2 = onnx.Size %x : (tensor<1x3x1x?xf32>) -> tensor<*xi64>
  %axes = onnx.Constant dense<[0, -2]> : tensor<2xi64>
  %3 = onnx.Squeeze %x, %axes : (tensor<1x3x1x?xf32>, tensor<2xi64>) -> tensor<*xf32>
  // Without axes a dynamic dim might be 1: the rank stays open.
  %4 = onnx.Squeeze %x, %none : (tensor<1x3x1x?xf32>, none) -> tensor<*xf32>
  %uaxes = onnx.Constant dense<[-2]> : tensor<1xi64>
  %5 = onnx.Unsqueeze %x, %uaxes : (tensor<1x3x1x?xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// CHECK-LABEL: func @generators
// CHECK: onnx.ConstantOfShape {{.*}} -> tensor<2x3xi64>
// CHECK: onnx.ConstantOfShape {{.*}} -> tensor<?x?xf32>
// CHECK: onnx.Range {{.*}} -> tensor<4xf32>
// CHECK: onnx.Range {{.*}} -> tensor<?xi64>
// CHECK: onnx.Expand {{.*}} -> tensor<2x3x4xf32>
func.func @generators(%s: tensor<2xi64>, %n: tensor<i64>, %x: tensor<3x1xf32>) -> (tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
  %shape = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %0 = onnx.ConstantOfShape %shape {value = dense<7> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<*xi64>
  %1 = onnx.ConstantOfShape %s : (tensor<2xi64>) -> tensor<*xf32>
  %a = onnx.Constant dense<1.0> : tensor<f32>
  %b = onnx.Constant dense<-1.0> : tensor<f32>
  %c = onnx.Constant dense<-0.5> : tensor<f32>
  // ceil((-1 - 1) / -0.5) = 4 elements.
  %2 = onnx.Range %a, %b, %c : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  %3 = onnx.Range %n, %n, %n : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  %t = onnx.Constant dense<[2, 1, 4]> : tensor<3xi64>
  %4 = onnx.Expand %x, %t : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0, %1, %2, %3, %4 : tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>
}

// -----

// CHECK-LABEL: func @indexing
// CHECK: onnx.Gather {{.*}} -> tensor<5x2x3x6x7xf32>
// CHECK: onnx.Slice {{.*}} -> tensor<5x3x0x7xf32>
// CHECK: onnx.Slice {{.*}} -> tensor<5x?x?x7xf32>
// CHECK: onnx.Tile {{.*}} -> tensor<10x6x6x7xf32>
func.func @indexing(%x: tensor<5x6x6x7xf32>, %i: tensor<2x3xi32>, %p: tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue
  %0 = onnx.Gather %x, %i {axis = -3 : i64} : (tensor<5x6x6x7xf32>, tensor<2x3xi32>) -> tensor<*xf32>
  // Axis 1: 5, 3, 1 (step -2 from the clamped 5); axis 2: start 4 >= end 2.
  %st = onnx.Constant dense<[100, 4]> : tensor<2xi64>
  %en = onnx.Constant dense<[0, -4]> : tensor<2xi64>
  %ax = onnx.Constant dense<[1, 2]> : tensor<2xi64>
  %sp = onnx.Constant dense<[-2, 1]> : tensor<2xi64>
  %1 = onnx.Slice %x, %st, %en, %ax, %sp : (tensor<5x6x6x7xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  %2 = onnx.Slice %x, %p, %p, %ax, %none : (tensor<5x6x6x7xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, none) -> tensor<*xf32>
  %r = onnx.Constant dense<[2, 1, 1, 1]> : tensor<4xi64>
  %3 = onnx.Tile %x, %r : (tensor<5x6x6x7xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @expand_mismatch(%x: tensor<3xf32>) -> tensor<*xf32> {
  %s = onnx.Constant dense<[2, 4]> : tensor<2xi64>
  // expected-error @+1 {{cannot expand [3] to [2,4]}}
  %0 = onnx.Expand %x, %s : (tensor<3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @unsqueeze_axis(%x: tensor<3xf32>) -> tensor<*xf32> {
  %a = onnx.Constant dense<[2]> : tensor<1xi64>
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0 = onnx.Unsqueeze %x, %a : (tensor<3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @indexing_shapes
// CHECK: onnx.GatherElements {{.*}} -> tensor<4x3xf32>
// CHECK: onnx.GatherND {{.*}} -> tensor<2x5xf32>
// CHECK: onnx.GatherND {{.*}} -> tensor<2xf32>
// CHECK: onnx.OneHot {{.*}} -> tensor<4x3x6xf32>
// CHECK: onnx.EyeLike {{.*}} -> tensor<3x5xi32>
// CHECK: onnx.Split {{.*}} -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf32>)
// CHECK: onnx.Pad {{.*}} -> tensor<5x4xf32>
// CHECK: onnx.DepthToSpace {{.*}} -> tensor<1x2x6x4xf32>
// CHECK: onnx.SpaceToDepth {{.*}} -> tensor<1x8x3x2xf32>
func.func @indexing_shapes(%x: tensor<5x3xf32>, %i: tensor<4x3xi64>, %q: tensor<2x1xi64>, %q2: tensor<2x2xi32>, %img: tensor<1x8x3x2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue
  %0 = onnx.GatherElements %x, %i : (tensor<5x3xf32>, tensor<4x3xi64>) -> tensor<*xf32>
  %t = onnx.Transpose %x : (tensor<5x3xf32>) -> tensor<3x5xf32>
  %1 = onnx.GatherND %t, %q : (tensor<3x5xf32>, tensor<2x1xi64>) -> tensor<*xf32>
  %2 = onnx.GatherND %t, %q2 : (tensor<3x5xf32>, tensor<2x2xi32>) -> tensor<*xf32>
  %d = onnx.Constant dense<6.0> : tensor<f32>
  %v = onnx.Constant dense<[0.0, 1.0]> : tensor<2xf32>
  %3 = onnx.OneHot %i, %d, %v : (tensor<4x3xi64>, tensor<f32>, tensor<2xf32>) -> tensor<*xf32>
  %4 = onnx.EyeLike %t {dtype = 6 : i64} : (tensor<3x5xf32>) -> tensor<*xi32>
  %s:3 = onnx.Split %x, %none {num_outputs = 3 : i64} : (tensor<5x3xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  %p = onnx.Constant dense<[-1, 2]> : tensor<2xi64>
  %a = onnx.Constant dense<[-1]> : tensor<1xi64>
  %5 = onnx.Pad %x, %p, %none, %a : (tensor<5x3xf32>, tensor<2xi64>, none, tensor<1xi64>) -> tensor<*xf32>
  %6 = onnx.DepthToSpace %img {blocksize = 2 : i64} : (tensor<1x8x3x2xf32>) -> tensor<*xf32>
  %7 = onnx.SpaceToDepth %6 {blocksize = 2 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3, %4, %s#0, %s#1, %5, %6, %7 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @pad_crop_too_much(%x: tensor<2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %p = onnx.Constant dense<[-2, -1]> : tensor<2xi64>
  // expected-error @+1 {{crops dim 0 of size 2 below zero}}
  %0 = onnx.Pad %x, %p, %none, %none : (tensor<2xf32>, tensor<2xi64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @onehot_depth(%i: tensor<3xi64>, %v: tensor<2xf32>) -> tensor<*xf32> {
  %d = onnx.Constant dense<0> : tensor<i64>
  // expected-error @+1 {{has depth 0 < 1}}
  %0 = onnx.OneHot %i, %d, %v : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Einsum: explicit output, implicit output (labels used once, sorted), a
// diagonal, and an ellipsis.
// CHECK-LABEL: func @einsum_shapes
// CHECK: onnx.Einsum {{.*}} -> tensor<2x5xf32>
// CHECK: onnx.Einsum {{.*}} -> tensor<2x5xf32>
// CHECK: onnx.Einsum {{.*}} -> tensor<3xf32>
// CHECK: onnx.Einsum {{.*}} -> tensor<7x3xf32>
func.func @einsum_shapes(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %sq: tensor<3x3xf32>, %batch: tensor<7x3x3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = onnx.Einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<*xf32>
  %1 = onnx.Einsum %b, %a {equation = "jk,ij"} : (tensor<3x5xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  %2 = onnx.Einsum %sq {equation = "ii->i"} : (tensor<3x3xf32>) -> tensor<*xf32>
  %3 = onnx.Einsum %batch {equation = "...ii->...i"} : (tensor<7x3x3xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Y is [seq, directions, batch, hidden] (layout 1: [batch, seq, directions,
// hidden]), Y_h and Y_c [directions, batch, hidden] (layout 1: [batch,
// directions, hidden]); hidden_size comes from R when not given.
// CHECK-LABEL: func @recurrent
// CHECK: onnx.GRU {{.*}} -> (tensor<3x2x2x5xf32>, tensor<2x2x5xf32>)
// CHECK: onnx.LSTM {{.*}} -> (tensor<3x2x1x5xf32>, tensor<3x1x5xf32>, tensor<3x1x5xf32>)
func.func @recurrent(%x: tensor<3x2x4xf32>, %w3: tensor<2x15x4xf32>, %r3: tensor<2x15x5xf32>, %w4: tensor<1x20x4xf32>, %r4: tensor<1x20x5xf32>) {
  %none = onnx.NoValue
  %0:2 = onnx.GRU %x, %w3, %r3, %none, %none, %none {direction = "bidirectional"} : (tensor<3x2x4xf32>, tensor<2x15x4xf32>, tensor<2x15x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  %1:3 = onnx.LSTM %x, %w4, %r4, %none, %none, %none, %none, %none {layout = 1 : i64, hidden_size = 5 : i64} : (tensor<3x2x4xf32>, tensor<1x20x4xf32>, tensor<1x20x5xf32>, none, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

// CHECK-LABEL: func @grids
// CHECK: onnx.AffineGrid {{.*}} -> tensor<2x4x5x6x3xf32>
// CHECK: onnx.GridSample {{.*}} -> tensor<2x7x4x5x6xf32>
func.func @grids(%theta: tensor<2x3x4xf32>, %x: tensor<2x7x3x3x3xf32>) {
  %size = onnx.Constant dense<[2, 7, 4, 5, 6]> : tensor<5xi64>
  %g = onnx.AffineGrid %theta, %size : (tensor<2x3x4xf32>, tensor<5xi64>) -> tensor<*xf32>
  %y = onnx.GridSample %x, %g : (tensor<2x7x3x3x3xf32>, tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

// NonZero: [rank, count]; the count is known at compile time only for a
// constant input.
// CHECK-LABEL: func @nonzero
// CHECK: onnx.NonZero %{{.*}} : (tensor<2x3x4xf32>) -> tensor<3x?xi64>
// CHECK: onnx.NonZero %{{.*}} : (tensor<2x2xi1>) -> tensor<2x3xi64>
func.func @nonzero(%x: tensor<2x3x4xf32>) {
  %0 = onnx.NonZero %x : (tensor<2x3x4xf32>) -> tensor<*xi64>
  %c = onnx.Constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %1 = onnx.NonZero %c : (tensor<2x2xi1>) -> tensor<*xi64>
  return
}

// -----

// Channels-last pools keep the channels last.
// CHECK-LABEL: func @nhwc_pools
// CHECK: onnx.NhwcMaxPool {{.*}} -> tensor<1x56x56x8xf32>
// CHECK: onnx.NhwcAveragePool {{.*}} -> tensor<1x28x28x8xf32>
func.func @nhwc_pools(%x: tensor<1x112x112x8xf32>) -> tensor<*xf32> {
  %p = onnx.NhwcMaxPool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x112x112x8xf32>) -> tensor<*xf32>
  %q = onnx.NhwcAveragePool %p {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<*xf32>) -> tensor<*xf32>
  return %q : tensor<*xf32>
}

// -----

// (fuzzer) A stride whose window arithmetic overflowed.
func.func @conv_stride_huge(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects kernel sizes, strides and dilations up to 2^31}}
  %0 = onnx.Conv %x, %w, %none {strides = array<i64: 9223372036854775807, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_pads_huge(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects pads up to 2^31}}
  %0 = onnx.Conv %x, %w, %none {pads = array<i64: 0, 0, 4611686018427387904, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// (fuzzer) ConvTranspose's output, stride x (input - 1) + kernel, overflowed.
func.func @conv_transpose_stride_huge(%x: tensor<1x3x8x8xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects kernel sizes, strides, dilations and output_padding up to 2^31}}
  %0 = onnx.ConvTranspose %x, %w, %none {strides = array<i64: 9223372036854775807, 1>} : (tensor<1x3x8x8xf32>, tensor<3x4x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Compress: the kept count is known at compile time only for a constant
// condition (counted up to the dim's end); without axis, the input is
// flattened. NonMaxSuppression: [count, 3].
// CHECK-LABEL: func @compress_nms
// CHECK: onnx.Compress {{.*}} -> tensor<3x?xf32>
// CHECK: onnx.Compress {{.*}} -> tensor<?xf32>
// CHECK: onnx.Compress {{.*}} -> tensor<2x4xf32>
// CHECK: onnx.NonMaxSuppression {{.*}} -> tensor<?x3xi64>
func.func @compress_nms(%x: tensor<3x4xf32>, %c: tensor<4xi1>, %b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>) {
  %0 = onnx.Compress %x, %c {axis = -1 : i64} : (tensor<3x4xf32>, tensor<4xi1>) -> tensor<*xf32>
  %1 = onnx.Compress %x, %c : (tensor<3x4xf32>, tensor<4xi1>) -> tensor<*xf32>
  %k = onnx.Constant dense<[false, true, true, true, true]> : tensor<5xi1>
  %2 = onnx.Compress %x, %k {axis = 0 : i64} : (tensor<3x4xf32>, tensor<5xi1>) -> tensor<*xf32>
  %none = onnx.NoValue
  %3 = onnx.NonMaxSuppression %b, %s, %none, %none, %none : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, none, none, none) -> tensor<*xi64>
  return
}
