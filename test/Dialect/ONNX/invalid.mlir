// RUN: tcc-opt %s -split-input-file -verify-diagnostics

func.func @add_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{cannot broadcast shapes [2,3] and [4]}}
  %0 = onnx.Add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @add_mixed_types(%a: tensor<2xf32>, %b: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects operands of one element type}}
  %0 = onnx.Add %a, %b : (tensor<2xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects input channels 3 = W.shape[1] (2) * group (1)}}
  %0 = onnx.Conv %x, %w, %none : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nhwc_conv_channels(%x: tensor<1x8x8x3xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects input channels 3 = W.shape[1] (2) * group (1)}}
  %0 = onnx.NhwcConv %x, %w, %none : (tensor<1x8x8x3xf32>, tensor<4x2x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nhwc_conv_rank(%x: tensor<1x8x3xf32>, %w: tensor<4x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects X of rank 4 [N, H, W, C], got [1,8,3]}}
  %0 = onnx.NhwcConv %x, %w, %none : (tensor<1x8x3xf32>, tensor<4x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects bias of shape [4], got [5]}}
  %0 = onnx.Conv %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_group(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects output channels 3 divisible by group 2}}
  %0 = onnx.Conv %x, %w, %none {group = 2} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_kernel_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has kernel_shape [5,5] that does not match W's shape [4,3,3,3]}}
  %0 = onnx.Conv %x, %w, %none {kernel_shape = array<i64: 5, 5>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pool_rank(%x: tensor<1x3x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects an input of rank 4, got [1,3,8]}}
  %0 = onnx.MaxPool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pool_storage_order(%x: tensor<1x3x8x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects storage_order 0 or 1, got 2}}
  %0 = onnx.MaxPool %x {kernel_shape = array<i64: 2, 2>, storage_order = 2} : (tensor<1x3x8x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @global_pool_rank(%x: tensor<1x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects an input of rank >= 3, got [1,3]}}
  %0 = onnx.GlobalAveragePool %x : (tensor<1x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bn_training(%x: tensor<1x3x4x4xf32>, %c: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{with training_mode=1 is not supported}}
  %0 = onnx.BatchNormalization %x, %c, %c, %c, %c {training_mode = 1} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bn_channels(%x: tensor<1x3x4x4xf32>, %c: tensor<3xf32>, %d: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects scale, B, mean and var of shape [3], got [4]}}
  %0 = onnx.BatchNormalization %x, %c, %d, %c, %c : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0 = onnx.Softmax %x {axis = 2} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gemm_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects A of rank 2, got [2,3,4]}}
  %0 = onnx.Gemm %a, %b, %none : (tensor<2x3x4xf32>, tensor<4x5xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gemm_inner(%a: tensor<2x3xf32>, %b: tensor<5x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has mismatched inner dims: A [2,3], B [5,4] (transposed)}}
  %0 = onnx.Gemm %a, %b, %none {transB = 1} : (tensor<2x3xf32>, tensor<5x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @matmul_inner(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has mismatched inner dims: [2,3] x [4,5]}}
  %0 = onnx.MatMul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @matmul_batch(%a: tensor<2x2x3xf32>, %b: tensor<3x3x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{cannot broadcast batch dims of [2,2,3] and [3,3,5]}}
  %0 = onnx.MatMul %a, %b : (tensor<2x2x3xf32>, tensor<3x3x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @flatten_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis 3 out of range [-2, 2] for rank 2}}
  %0 = onnx.Flatten %x {axis = 3} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reshape_rank(%x: tensor<2x3xf32>, %s: tensor<2x2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a 1-d shape operand, got [2,2]}}
  %0 = onnx.Reshape %x, %s : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @transpose_perm(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has perm [0,0] that is not a permutation}}
  %0 = onnx.Transpose %x {perm = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @transpose_perm_size(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has perm of size 3 for an input of rank 2}}
  %0 = onnx.Transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @concat_shapes(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects inputs to match except on axis 0, got [2,3] and [2,4]}}
  %0 = onnx.Concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @clip_bounds(%x: tensor<4xf32>, %lo: tensor<2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects scalar min/max, got shape [2]}}
  %0 = onnx.Clip %x, %lo, %none : (tensor<4xf32>, tensor<2xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @dropout_training(%x: tensor<4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %t = onnx.Constant dense<true> : tensor<i1>
  // expected-error @+1 {{with training_mode=true is not supported}}
  %0 = onnx.Dropout %x, %none, %t : (tensor<4xf32>, none, tensor<i1>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @constant_type() -> tensor<3xf32> {
  // expected-error @+1 {{failed to verify that all of {value, output} have same type}}
  %0 = "onnx.Constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @compare_types(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<*xi1> {
  // expected-error @+1 {{expects operands of one element type, got 'tensor<3xf32>' and 'tensor<3xi32>'}}
  %0 = onnx.Less %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<*xi1>
  return %0 : tensor<*xi1>
}

// -----

func.func @bitshift_direction(%a: tensor<3xui8>) -> tensor<*xui8> {
  // expected-error @+1 {{has direction 'UP'; expected LEFT or RIGHT}}
  %0 = onnx.BitShift %a, %a {direction = "UP"} : (tensor<3xui8>, tensor<3xui8>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}

// -----

func.func @variadic_empty() -> tensor<*xf32> {
  // expected-error @+1 {{needs at least one operand}}
  %0 = onnx.Max : () -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @variadic_broadcast(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{cannot broadcast shapes [2] and [3]}}
  %0 = onnx.Sum %a, %a, %b : (tensor<2xf32>, tensor<2xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pow_broadcast(%a: tensor<2xf32>, %b: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{cannot broadcast shapes [2] and [3]}}
  %0 = onnx.Pow %a, %b : (tensor<2xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @where_types(%c: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xf16>) -> tensor<*xf32> {
  // expected-error @+1 {{expects operands of one element type, got 'tensor<3xf32>' and 'tensor<3xf16>'}}
  %0 = onnx.Where %c, %a, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xf16>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @where_broadcast(%c: tensor<2xi1>, %a: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{cannot broadcast shapes [2] and [3]}}
  %0 = onnx.Where %c, %a, %a : (tensor<2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @cast_fp8(%a: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{to data type 17 is not supported yet}}
  %0 = onnx.Cast %a {to = 17 : i64} : (tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gelu_approximate(%a: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has approximate 'exact'; expected none or tanh}}
  %0 = onnx.Gelu %a {approximate = "exact"} : (tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x3x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects input channels 3 = W.shape[0] (2)}}
  %0 = onnx.ConvTranspose %x, %w, %none : (tensor<1x3x4x4xf32>, tensor<2x2x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_transpose_group(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects input channels 3 divisible by group 2}}
  %0 = onnx.ConvTranspose %x, %w, %none {group = 2} : (tensor<1x3x4x4xf32>, tensor<3x2x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_transpose_kernel_shape(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has kernel_shape [2,2] that does not match W's shape [3,2,3,3]}}
  %0 = onnx.ConvTranspose %x, %w, %none {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>, tensor<3x2x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_transpose_rank(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects X and W of one rank >= 3, got shapes [1,3,4,4] and [3,2,3]}}
  %0 = onnx.ConvTranspose %x, %w, %none : (tensor<1x3x4x4xf32>, tensor<3x2x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @resize_mode(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has unknown mode 'bilinear'}}
  %0 = onnx.Resize %x, %none, %s, %none {mode = "bilinear"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @resize_coordinates(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has unknown coordinate_transformation_mode 'corners'}}
  %0 = onnx.Resize %x, %none, %s, %none {coordinate_transformation_mode = "corners"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @resize_nearest_mode(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has unknown nearest_mode 'round'}}
  %0 = onnx.Resize %x, %none, %s, %none {nearest_mode = "round"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----


func.func @quantize_axis_size(%x: tensor<2x4xf32>, %s: tensor<3xf32>) -> tensor<*xui8> {
  %none = onnx.NoValue
  // expected-error @+1 {{has a scale of 3 values for an axis of size 4}}
  %0 = onnx.QuantizeLinear %x, %s, %none : (tensor<2x4xf32>, tensor<3xf32>, none) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}

// -----

func.func @quantize_type(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{to this type is not supported yet (8- and 16-bit integers are)}}
  %0 = onnx.QuantizeLinear %x, %s, %none {output_dtype = 6} : (tensor<4xf32>, tensor<f32>, none) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

// -----

func.func @quantize_zero_point_shape(%x: tensor<2x4xf32>, %s: tensor<4xf32>, %z: tensor<2xui8>) -> tensor<*xui8> {
  // expected-error @+1 {{expects the zero point shaped like the scale}}
  %0 = onnx.QuantizeLinear %x, %s, %z : (tensor<2x4xf32>, tensor<4xf32>, tensor<2xui8>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}

// -----

func.func @dequantize_type(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{from 'f32' is not supported yet (8-, 16- and 32-bit integers are)}}
  %0 = onnx.DequantizeLinear %x, %s, %none : (tensor<4xf32>, tensor<f32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @matmul_integer_type(%a: tensor<2x3xi16>, %b: tensor<3x4xi8>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects 8-bit integer operands}}
  %0 = onnx.MatMulInteger %a, %b, %none, %none : (tensor<2x3xi16>, tensor<3x4xi8>, none, none) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

// -----

func.func @reduce_axes_rank(%x: tensor<2x3xf32>, %a: tensor<1x1xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects 1-d axes, got [1,1]}}
  %0 = onnx.ReduceSum %x, %a : (tensor<2x3xf32>, tensor<1x1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reduce_axis_range(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %a = onnx.Constant dense<[2]> : tensor<1xi64>
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0 = onnx.ReduceMax %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reduce_axis_twice(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %a = onnx.Constant dense<[1, -1]> : tensor<2xi64>
  // expected-error @+1 {{has axis -1 twice}}
  %0 = onnx.ReduceMean %x, %a : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @argmax_axis(%x: tensor<2x3xf32>) -> tensor<*xi64> {
  // expected-error @+1 {{has axis -3 out of range [-2, 1] for rank 2}}
  %0 = onnx.ArgMax %x {axis = -3} : (tensor<2x3xf32>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @logsoftmax_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0 = onnx.LogSoftmax %x {axis = 2} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @hardmax_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis -3 out of range [-2, 1] for rank 2}}
  %0 = onnx.Hardmax %x {axis = -3} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @layernorm_stash(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{with stash_type 0 is not supported}}
  %0:3 = onnx.LayerNormalization %x, %s, %none {stash_type = 0} : (tensor<2x3xf32>, tensor<3xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @layernorm_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0:3 = onnx.LayerNormalization %x, %s, %none {axis = 2} : (tensor<2x3xf32>, tensor<3xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @layernorm_scale(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects Scale and B broadcastable to [3], got [2]}}
  %0:3 = onnx.LayerNormalization %x, %s, %none : (tensor<2x3xf32>, tensor<2xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @instancenorm_rank(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects an input of rank >= 3, got [2,3]}}
  %0 = onnx.InstanceNormalization %x, %s, %s : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @instancenorm_scale(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects scale and B of shape [3], got [4]}}
  %0 = onnx.InstanceNormalization %x, %s, %s : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @groupnorm_groups(%x: tensor<2x6x4xf32>, %s: tensor<6xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects num_groups (4) to divide the channels (6)}}
  %0 = onnx.GroupNormalization %x, %s, %s {num_groups = 4} : (tensor<2x6x4xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @groupnorm_zero_groups(%x: tensor<2x6x4xf32>, %s: tensor<6xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects num_groups > 0, got 0}}
  %0 = onnx.GroupNormalization %x, %s, %s {num_groups = 0} : (tensor<2x6x4xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @groupnorm_stash(%x: tensor<2x6x4xf32>, %s: tensor<6xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{with stash_type 0 is not supported}}
  %0 = onnx.GroupNormalization %x, %s, %s {num_groups = 2, stash_type = 0} : (tensor<2x6x4xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @groupnorm_rank(%x: tensor<6xf32>, %s: tensor<6xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects an input of rank >= 2, got [6]}}
  %0 = onnx.GroupNormalization %x, %s, %s {num_groups = 2} : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @groupnorm_scale(%x: tensor<2x6x4xf32>, %s: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects scale and bias of shape [6], got [2]}}
  %0 = onnx.GroupNormalization %x, %s, %s {num_groups = 2} : (tensor<2x6x4xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @mvn_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis 3 out of range [-2, 1] for rank 2}}
  %0 = onnx.MeanVarianceNormalization %x {axes = array<i64: 3>} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @mvn_axis_twice(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis -2 twice}}
  %0 = onnx.MeanVarianceNormalization %x {axes = array<i64: 0, -2>} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @lrn_size(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects size > 0, got 0}}
  %0 = onnx.LRN %x {size = 0} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @lrn_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects an input of rank >= 2, got [3]}}
  %0 = onnx.LRN %x {size = 3} : (tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @globalmaxpool_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects an input of rank >= 2, got [3]}}
  %0 = onnx.GlobalMaxPool %x : (tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @topk_k_shape(%x: tensor<2x3xf32>, %k: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects K to be a scalar or of shape [1], got [2]}}
  %0:2 = onnx.TopK %x, %k : (tensor<2x3xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @topk_k_range(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %k = onnx.Constant dense<[4]> : tensor<1xi64>
  // expected-error @+1 {{has K 4 out of range [0, 3]}}
  %0:2 = onnx.TopK %x, %k : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @topk_axis(%x: tensor<2x3xf32>, %k: tensor<1xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0:2 = onnx.TopK %x, %k {axis = 2} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @cumsum_axis_shape(%x: tensor<2x3xf32>, %a: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects axis to be a scalar or of shape [1], got [2]}}
  %0 = onnx.CumSum %x, %a : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @cumsum_axis_range(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %a = onnx.Constant dense<-3> : tensor<i64>
  // expected-error @+1 {{has axis -3 out of range [-2, 1] for rank 2}}
  %0 = onnx.CumSum %x, %a : (tensor<2x3xf32>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @squeeze_non_one(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{cannot squeeze dim 1 of size 3 (input shape [2,3])}}
  %0 = onnx.Squeeze %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @squeeze_axis_range(%x: tensor<2x1xf32>) -> tensor<*xf32> {
  %axes = onnx.Constant dense<[2]> : tensor<1xi64>
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0 = onnx.Squeeze %x, %axes : (tensor<2x1xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @squeeze_axis_twice(%x: tensor<1x1xf32>) -> tensor<*xf32> {
  %axes = onnx.Constant dense<[1, -1]> : tensor<2xi64>
  // expected-error @+1 {{has axis -1 more than once}}
  %0 = onnx.Squeeze %x, %axes : (tensor<1x1xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @constant_of_shape_value(%s: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a one-element value, got 2 elements}}
  %0 = onnx.ConstantOfShape %s {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @constant_of_shape_rank(%s: tensor<2x2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a 1-d shape operand, got [2,2]}}
  %0 = onnx.ConstantOfShape %s : (tensor<2x2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @expand_negative(%x: tensor<3xf32>) -> tensor<*xf32> {
  %s = onnx.Constant dense<[-2, 3]> : tensor<2xi64>
  // expected-error @+1 {{has a negative dim in its shape [-2,3]}}
  %0 = onnx.Expand %x, %s : (tensor<3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @range_types(%a: tensor<f32>, %b: tensor<i64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects start, limit and delta of one type}}
  %0 = onnx.Range %a, %a, %b : (tensor<f32>, tensor<f32>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----


func.func @range_zero_delta(%a: tensor<i64>) -> tensor<*xi64> {
  %d = onnx.Constant dense<0> : tensor<i64>
  // expected-error @+1 {{has a zero delta}}
  %0 = onnx.Range %a, %a, %d : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @gather_rank0(%x: tensor<f32>, %i: tensor<1xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects data of rank >= 1}}
  %0 = onnx.Gather %x, %i : (tensor<f32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gather_axis(%x: tensor<2x3xf32>, %i: tensor<1xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0 = onnx.Gather %x, %i {axis = 2 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gather_index(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %i = onnx.Constant dense<[0, -4]> : tensor<2xi64>
  // expected-error @+1 {{has index -4 out of range for dim of size 3}}
  %0 = onnx.Gather %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @slice_lengths(%x: tensor<4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %s = onnx.Constant dense<[0]> : tensor<1xi64>
  %e = onnx.Constant dense<[1, 2]> : tensor<2xi64>
  // expected-error @+1 {{expects starts, ends, axes and steps of one length, got 2 ends}}
  %0 = onnx.Slice %x, %s, %e, %none, %none : (tensor<4xf32>, tensor<1xi64>, tensor<2xi64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @slice_zero_step(%x: tensor<4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %s = onnx.Constant dense<[0]> : tensor<1xi64>
  %z = onnx.Constant dense<[0]> : tensor<1xi64>
  // expected-error @+1 {{has a zero step}}
  %0 = onnx.Slice %x, %s, %s, %none, %z : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, none, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @slice_axis(%x: tensor<4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %s = onnx.Constant dense<[0]> : tensor<1xi64>
  %a = onnx.Constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{has axis 1 out of range [-1, 0] for rank 1}}
  %0 = onnx.Slice %x, %s, %s, %a, %none : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tile_repeats(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %r = onnx.Constant dense<[2]> : tensor<1xi64>
  // expected-error @+1 {{expects 2 repeats, got 1}}
  %0 = onnx.Tile %x, %r : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tile_negative(%x: tensor<2xf32>) -> tensor<*xf32> {
  %r = onnx.Constant dense<[-1]> : tensor<1xi64>
  // expected-error @+1 {{has a negative repeat}}
  %0 = onnx.Tile %x, %r : (tensor<2xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gather_elements_rank(%x: tensor<2x3xf32>, %i: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects indices of the data's rank 2, got [2]}}
  %0 = onnx.GatherElements %x, %i : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gathernd_batch(%x: tensor<2x3xf32>, %i: tensor<2x1xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{has batch_dims 2 out of range for data [2,3] and indices [2,1]}}
  %0 = onnx.GatherND %x, %i {batch_dims = 2 : i64} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gathernd_tuple(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{has index tuples of length 3 for data of rank 2 and batch_dims 0}}
  %0 = onnx.GatherND %x, %i : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @scatter_reduction(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{has unknown reduction 'sub'}}
  %0 = onnx.ScatterElements %x, %i, %x {reduction = "sub"} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @scatter_elements_shapes(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects indices and updates of one shape, got [2,3] and [2,2]}}
  %0 = onnx.ScatterElements %x, %i, %u : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @scatter_elements_rank(%x: tensor<2x3xf32>, %i: tensor<3xi64>, %u: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects indices of the data's rank 2, got [3]}}
  %0 = onnx.ScatterElements %x, %i, %u : (tensor<2x3xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @scatternd_tuple(%x: tensor<2x3xf32>, %i: tensor<1x3xi64>, %u: tensor<1xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has index tuples of length 3 for data of rank 2}}
  %0 = onnx.ScatterND %x, %i, %u : (tensor<2x3xf32>, tensor<1x3xi64>, tensor<1xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @scatternd_updates(%x: tensor<2x3xf32>, %i: tensor<4x1xi64>, %u: tensor<4x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects updates of shape [4,3], got [4,2]}}
  %0 = onnx.ScatterND %x, %i, %u : (tensor<2x3xf32>, tensor<4x1xi64>, tensor<4x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @onehot_values(%i: tensor<3xi64>, %d: tensor<i64>, %v: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects values of shape [2], got [3]}}
  %0 = onnx.OneHot %i, %d, %v : (tensor<3xi64>, tensor<i64>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @onehot_axis(%i: tensor<3xi64>, %d: tensor<i64>, %v: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0 = onnx.OneHot %i, %d, %v {axis = 2 : i64} : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @trilu_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects an input of rank >= 2, got [3]}}
  %0 = onnx.Trilu %x, %none : (tensor<3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @eyelike_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a 2-d input, got [3]}}
  %0 = onnx.EyeLike %x : (tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @eyelike_dtype(%x: tensor<3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has unsupported dtype 8}}
  %0 = onnx.EyeLike %x {dtype = 8 : i64} : (tensor<3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @split_sum(%x: tensor<5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = onnx.Constant dense<[2, 2]> : tensor<2xi64>
  // expected-error @+1 {{has split sizes [2,2] that do not add up to dim 5}}
  %0:2 = onnx.Split %x, %s : (tensor<5xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @split_count(%x: tensor<5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = onnx.Constant dense<[5]> : tensor<1xi64>
  // expected-error @+1 {{has 1 split sizes for 2 outputs}}
  %0:2 = onnx.Split %x, %s : (tensor<5xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @split_negative(%x: tensor<5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = onnx.Constant dense<[6, -1]> : tensor<2xi64>
  // expected-error @+1 {{has a negative split size}}
  %0:2 = onnx.Split %x, %s : (tensor<5xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @split_parts(%x: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{cannot split dim 2 into 4 parts}}
  %0:4 = onnx.Split %x, %none : (tensor<2xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @split_num_outputs(%x: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{has num_outputs 3 but 2 outputs}}
  %0:2 = onnx.Split %x, %none {num_outputs = 3 : i64} : (tensor<4xf32>, none) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @split_axis(%x: tensor<4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has axis 1 out of range [-1, 0] for rank 1}}
  %0 = onnx.Split %x, %none {axis = 1 : i64} : (tensor<4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pad_mode(%x: tensor<4xf32>, %p: tensor<2xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has unknown mode 'mirror'}}
  %0 = onnx.Pad %x, %p, %none, %none {mode = "mirror"} : (tensor<4xf32>, tensor<2xi64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pad_count(%x: tensor<4x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %p = onnx.Constant dense<[1, 1]> : tensor<2xi64>
  // expected-error @+1 {{expects 4 pads, got 2}}
  %0 = onnx.Pad %x, %p, %none, %none : (tensor<4x4xf32>, tensor<2xi64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pad_axes(%x: tensor<4x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %p = onnx.Constant dense<[1, 1]> : tensor<2xi64>
  %a = onnx.Constant dense<[2]> : tensor<1xi64>
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0 = onnx.Pad %x, %p, %none, %a : (tensor<4x4xf32>, tensor<2xi64>, none, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @depth_to_space_channels(%x: tensor<1x6x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects channels 6 divisible by blocksize^2 = 4}}
  %0 = onnx.DepthToSpace %x {blocksize = 2 : i64} : (tensor<1x6x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @depth_to_space_mode(%x: tensor<1x4x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has unknown mode 'XYZ'}}
  %0 = onnx.DepthToSpace %x {blocksize = 2 : i64, mode = "XYZ"} : (tensor<1x4x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @depth_to_space_blocksize(%x: tensor<1x4x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a blocksize from 1 to 2^20, got 0}}
  %0 = onnx.DepthToSpace %x {blocksize = 0 : i64} : (tensor<1x4x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// (fuzzer) blocksize^2 overflowed.
func.func @depth_to_space_blocksize_huge(%x: tensor<1x4x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a blocksize from 1 to 2^20, got 9223372036854775807}}
  %0 = onnx.DepthToSpace %x {blocksize = 9223372036854775807 : i64} : (tensor<1x4x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @space_to_depth_rank(%x: tensor<4x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a 4-d input, got [4,2,2]}}
  %0 = onnx.SpaceToDepth %x {blocksize = 2 : i64} : (tensor<4x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @space_to_depth_spatial(%x: tensor<1x1x3x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects spatial dims divisible by blocksize 2, got [1,1,3,2]}}
  %0 = onnx.SpaceToDepth %x {blocksize = 2 : i64} : (tensor<1x1x3x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @scatter_v10_axis(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis -3 out of range [-2, 1] for rank 2}}
  %0 = onnx.Scatter %x, %i, %x {axis = -3 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @lppool_p(%x: tensor<1x1x4x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects p >= 1, got 0}}
  %0 = onnx.LpPool %x {kernel_shape = array<i64: 2, 2>, p = 0 : i64} : (tensor<1x1x4x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @lpnorm_p(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects p to be 1 or 2, got 3}}
  %0 = onnx.LpNormalization %x {p = 3 : i64} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bitcast_width(%x: tensor<3xf32>) -> tensor<*xi64> {
  // expected-error @+1 {{expects element types of one width, got 'f32' to 'i64'}}
  %0 = onnx.BitCast %x {to = 7 : i64} : (tensor<3xf32>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @swiglu_shapes(%a: tensor<2x4xf32>, %b: tensor<1x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects A and B of one shape and type (no broadcasting), got [2,4] and [1,4]}}
  %0 = onnx.SwiGLU %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @mul_add_ints(%a: tensor<2x4xi32>) -> tensor<*xi32> {
  // expected-error @+1 {{expects float operands, got 'tensor<2x4xi32>'}}
  %0 = onnx.MulAdd %a, %a, %a : (tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

// -----

func.func @mul_add_types(%a: tensor<2x4xf32>, %b: tensor<f16>) -> tensor<*xf32> {
  // expected-error @+1 {{expects operands of one element type, got 'tensor<2x4xf32>' and 'tensor<f16>'}}
  %0 = onnx.MulAdd %a, %b, %a : (tensor<2x4xf32>, tensor<f16>, tensor<2x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_terms(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{equation 'ij,jk->ik' has 2 operand terms for 1 inputs}}
  %0 = onnx.Einsum %a {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_rank(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{equation term 'ijk' does not match an input of rank 2}}
  %0 = onnx.Einsum %a {equation = "ijk->i"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{equation 'ij,jk->ik' gives one label the sizes 3 and 4}}
  %0 = onnx.Einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_output_label(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{equation 'ij->iz' has output label 'z' that no input has}}
  %0 = onnx.Einsum %a {equation = "ij->iz"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @center_crop_pad_axes(%x: tensor<4x4xf32>, %s: tensor<1xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{has axes out of range or repeated for rank 2}}
  %0 = onnx.CenterCropPad %x, %s {axes = array<i64: 2>} : (tensor<4x4xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @center_crop_pad_shape(%x: tensor<4x4xf32>, %s: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects shape of shape [2], got [3]}}
  %0 = onnx.CenterCropPad %x, %s : (tensor<4x4xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @window_size(%n: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a scalar size, got [2]}}
  %0 = onnx.HannWindow %n : (tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @window_dtype(%n: tensor<i64>) -> tensor<*xf32> {
  // expected-error @+1 {{output_datatype 8 is not supported yet}}
  %0 = onnx.HammingWindow %n {output_datatype = 8 : i64} : (tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @attention_rank(%q: tensor<2x3x4x8xf32>, %k: tensor<2x6x24xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects Q, K and V of one rank, 3 or 4, got [2,3,4,8], [2,6,24] and [2,6,24]}}
  %0:4 = onnx.Attention %q, %k, %k, %none, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x6x24xf32>, tensor<2x6x24xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_3d_heads(%q: tensor<2x4x24xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects q_num_heads and kv_num_heads with 3-d inputs}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none : (tensor<2x4x24xf32>, tensor<2x4x24xf32>, tensor<2x4x24xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_hidden(%q: tensor<2x4x24xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects the hidden size of Q (24) to be a multiple of its q_num_heads (5)}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none {q_num_heads = 5 : i64, kv_num_heads = 3 : i64} : (tensor<2x4x24xf32>, tensor<2x4x24xf32>, tensor<2x4x24xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_groups(%q: tensor<2x4x3x8xf32>, %k: tensor<2x3x6x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects the number of query heads (4) to be a multiple of the number of key/value heads (3)}}
  %0:4 = onnx.Attention %q, %k, %k, %none, %none, %none, %none : (tensor<2x4x3x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_head_size(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects Q and K of one head size, got [2,3,4,8] and [2,3,6,4]}}
  %0:4 = onnx.Attention %q, %k, %k, %none, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x3x6x4xf32>, tensor<2x3x6x4xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_kv_seq(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x8xf32>, %v: tensor<2x3x5x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects K and V of one sequence length, got [2,3,6,8] and [2,3,5,8]}}
  %0:4 = onnx.Attention %q, %k, %v, %none, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x5x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_batch(%q: tensor<2x3x4x8xf32>, %k: tensor<1x3x6x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects Q, K and V of one batch size}}
  %0:4 = onnx.Attention %q, %k, %k, %none, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<1x3x6x8xf32>, tensor<1x3x6x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_kv_heads(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x8xf32>, %v: tensor<2x1x6x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects K and V of one number of heads, got [2,3,6,8] and [2,1,6,8]}}
  %0:4 = onnx.Attention %q, %k, %v, %none, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>, tensor<2x1x6x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_4d_num_heads(%q: tensor<2x3x4x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has q_num_heads 4 but Q of shape [2,3,4,8]}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none {q_num_heads = 4 : i64} : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_past_alone(%q: tensor<2x3x4x8xf32>, %p: tensor<2x3x2x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects past_key and past_value together}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %p, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, tensor<2x3x2x8xf32>, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_past_shape(%q: tensor<2x3x4x8xf32>, %p: tensor<2x3x2x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects past_key of shape [2,3,?,8], got [2,3,2,4]}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %p, %p, %none : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, tensor<2x3x2x4xf32>, tensor<2x3x2x4xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_past_lengths(%q: tensor<2x3x4x8xf32>, %pk: tensor<2x3x2x8xf32>, %pv: tensor<2x3x3x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects past_key and past_value of one sequence length, got [2,3,2,8] and [2,3,3,8]}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %pk, %pv, %none : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, tensor<2x3x2x8xf32>, tensor<2x3x3x8xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_nonpad_with_past(%q: tensor<2x3x4x8xf32>, %p: tensor<2x3x2x8xf32>, %n: tensor<2xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects nonpad_kv_seqlen without past_key and past_value}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %p, %p, %n : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, tensor<2x3x2x8xf32>, tensor<2x3x2x8xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_nonpad_shape(%q: tensor<2x3x4x8xf32>, %n: tensor<3xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects nonpad_kv_seqlen of shape [2], got [3]}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %n : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, none, none, tensor<3xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_nonpad_type(%q: tensor<2x3x4x8xf32>, %n: tensor<2xi32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects nonpad_kv_seqlen of int64}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %n : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, none, none, tensor<2xi32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_mask_shape(%q: tensor<2x3x4x8xf32>, %m: tensor<2x4x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects attn_mask to broadcast to [2,3,4,4] (its last dim may be shorter), got [2,4,4]}}
  %0:4 = onnx.Attention %q, %q, %q, %m, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x4x4xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_mask_too_long(%q: tensor<2x3x4x8xf32>, %m: tensor<4x5xi1>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects attn_mask to broadcast to [2,3,4,4] (its last dim may be shorter), got [4,5]}}
  %0:4 = onnx.Attention %q, %q, %q, %m, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<4x5xi1>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_qk_mode(%q: tensor<2x3x4x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects qk_matmul_output_mode in [0, 3], got 4}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none {qk_matmul_output_mode = 4 : i64} : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_softmax_precision(%q: tensor<2x3x4x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects softmax_precision to be a float type (1, 10, 11 or 16), got 7}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none {softmax_precision = 7 : i64} : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_window(%q: tensor<2x3x4x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects window sizes >= -1}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none {left_window_size = -2 : i64} : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_num_heads(%q: tensor<2x4x24xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects q_num_heads and kv_num_heads > 0}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none {q_num_heads = 0 : i64, kv_num_heads = 3 : i64} : (tensor<2x4x24xf32>, tensor<2x4x24xf32>, tensor<2x4x24xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_qk_types(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x4x8xf16>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects Q and K of one element type}}
  %0:4 = onnx.Attention %q, %k, %q, %none, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf16>, tensor<2x3x4x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_past_types(%q: tensor<2x3x4x8xf32>, %p: tensor<2x3x2x8xf16>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects past_key and past_value of the element types of K and V}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %p, %p, %none : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, tensor<2x3x2x8xf16>, tensor<2x3x2x8xf16>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_4d_kv_num_heads(%q: tensor<2x3x4x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has kv_num_heads 1 but K of shape [2,3,4,8]}}
  %0:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none {kv_num_heads = 1 : i64} : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @attention_mask_type(%q: tensor<2x3x4x8xf32>, %m: tensor<4x4xcomplex<f32>>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects attn_mask of bool, integer or float}}
  %0:4 = onnx.Attention %q, %q, %q, %m, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<4x4xcomplex<f32>>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}
// -----
func.func @rmsnorm_stash_type(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{with stash_type 0 is not supported}}
  %0 = onnx.RMSNormalization %x, %s {stash_type = 0} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rmsnorm_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis -3 out of range [-2, 1] for rank 2}}
  %0 = onnx.RMSNormalization %x, %s {axis = -3} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rmsnorm_scale(%x: tensor<2x3xf32>, %s: tensor<2x1xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects scale broadcastable to [3], got [2,1]}}
  %0 = onnx.RMSNormalization %x, %s : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @nllloss_reduction(%x: tensor<3x5xf32>, %t: tensor<3xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has unknown reduction 'max' (expected none, sum or mean)}}
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none {reduction = "max"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @nllloss_rank(%x: tensor<5xf32>, %t: tensor<i64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects an input of rank >= 2 (N, C, ...), got [5]}}
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none : (tensor<5xf32>, tensor<i64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @nllloss_target(%x: tensor<3x5x2xf32>, %t: tensor<3x5xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a target of shape [3,2] (the input's without dim 1), got [3,5]}}
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none : (tensor<3x5x2xf32>, tensor<3x5xi64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @nllloss_target_type(%x: tensor<3x5xf32>, %t: tensor<3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{operand #1 must be tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none : (tensor<3x5xf32>, tensor<3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @sceloss_weights(%x: tensor<3x5xf32>, %t: tensor<3xi32>, %w: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a weight of shape [5] (the input's classes), got [3]}}
  %0:2 = onnx.SoftmaxCrossEntropyLoss %x, %t, %w : (tensor<3x5xf32>, tensor<3xi32>, tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @reverse_sequence_axes(%x: tensor<4x2xf32>, %l: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects batch_axis and time_axis to be 0 and 1 in some order, got 1 and 1}}
  %0 = onnx.ReverseSequence %x, %l {batch_axis = 1 : i64, time_axis = 1 : i64} : (tensor<4x2xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reverse_sequence_lens(%x: tensor<4x2xf32>, %l: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects sequence_lens of shape [2] (the batch dim), got [3]}}
  %0 = onnx.ReverseSequence %x, %l : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @col2im_blocks(%x: tensor<1x4x5xf32>) -> tensor<*xf32> {
  %image = onnx.Constant dense<[3, 3]> : tensor<2xi64>
  %block = onnx.Constant dense<[2, 2]> : tensor<2xi64>
  // expected-error @+1 {{expects 4 blocks (dim 2 of the input), got [1,4,5]}}
  %0 = onnx.Col2Im %x, %image, %block : (tensor<1x4x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @col2im_rank(%x: tensor<4x5xf32>, %image: tensor<2xi64>, %block: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects an input of rank 3 (N, C*prod(block), L), got [4,5]}}
  %0 = onnx.Col2Im %x, %image, %block : (tensor<4x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @range_not_scalar(%a: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects scalar start, limit and delta, got [2]}}
  %0 = onnx.Range %a, %a, %a : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rnn_direction(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{has unknown direction 'backward' (expected forward, reverse or bidirectional)}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %none, %none {direction = "backward"} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_layout(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{has layout 2, expected 0 or 1}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %none, %none {layout = 2 : i64} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_hidden_size(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a hidden_size from 1 to 2^32, got 0}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 0 : i64} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
// (fuzzer) A hidden_size whose gates' rows, 4 * hidden_size, overflowed.
func.func @lstm_hidden_size_huge(%x: tensor<3x2x4xf32>, %w: tensor<1x20x4xf32>, %r: tensor<1x20x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a hidden_size from 1 to 2^32, got 9223372036854775807}}
  %0:3 = onnx.LSTM %x, %w, %r, %none, %none, %none, %none, %none {hidden_size = 9223372036854775807 : i64} : (tensor<3x2x4xf32>, tensor<1x20x4xf32>, tensor<1x20x5xf32>, none, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_clip(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a positive clip, got -1}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %none, %none {clip = -1.0 : f32} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_activation_count(%x: tensor<3x2x4xf32>, %w: tensor<2x5x4xf32>, %r: tensor<2x5x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects 2 activations (1 per direction), got 3}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %none, %none {direction = "bidirectional", activations = ["Tanh", "Relu", "Tanh"]} : (tensor<3x2x4xf32>, tensor<2x5x4xf32>, tensor<2x5x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_activation_name(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{has unknown activation function 'swish'}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %none, %none {activations = ["Swish"]} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_x_rank(%x: tensor<3x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects X of rank 3, got [3,4]}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %none, %none : (tensor<3x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_w_shape(%x: tensor<3x2x3xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects W of shape [1,5,3] (num_directions, hidden_size, input_size), got [1,5,4]}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %none, %none : (tensor<3x2x3xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @gru_r_shape(%x: tensor<3x2x4xf32>, %w: tensor<1x15x4xf32>, %r: tensor<1x15x4xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects R of shape [1,15,5] (num_directions, 3*hidden_size, hidden_size), got [1,15,4]}}
  %0:2 = onnx.GRU %x, %w, %r, %none, %none, %none {hidden_size = 5 : i64} : (tensor<3x2x4xf32>, tensor<1x15x4xf32>, tensor<1x15x4xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_b_shape(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>, %b: tensor<1x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects B of shape [1,10] (num_directions, 2*hidden_size), got [1,5]}}
  %0:2 = onnx.RNN %x, %w, %r, %b, %none, %none : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, tensor<1x5xf32>, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_lens_shape(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>, %lens: tensor<3xi32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects sequence_lens of shape [2] (batch_size), got [3]}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %lens, %none : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, tensor<3xi32>, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_lens_type(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>, %lens: tensor<2xi64>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects int32 sequence_lens, got 'i64'}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %lens, %none : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, tensor<2xi64>, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @rnn_initial_h_shape(%x: tensor<2x3x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>, %h: tensor<1x2x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects initial_h of shape [2,1,5] (batch_size, num_directions, hidden_size), got [1,2,5]}}
  %0:2 = onnx.RNN %x, %w, %r, %none, %none, %h {layout = 1 : i64} : (tensor<2x3x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, tensor<1x2x5xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @gru_linear_before_reset(%x: tensor<3x2x4xf32>, %w: tensor<1x15x4xf32>, %r: tensor<1x15x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{has linear_before_reset 2, expected 0 or 1}}
  %0:2 = onnx.GRU %x, %w, %r, %none, %none, %none {linear_before_reset = 2 : i64} : (tensor<3x2x4xf32>, tensor<1x15x4xf32>, tensor<1x15x5xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @lstm_input_forget(%x: tensor<3x2x4xf32>, %w: tensor<1x20x4xf32>, %r: tensor<1x20x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{has input_forget 2, expected 0 or 1}}
  %0:3 = onnx.LSTM %x, %w, %r, %none, %none, %none, %none, %none {input_forget = 2 : i64} : (tensor<3x2x4xf32>, tensor<1x20x4xf32>, tensor<1x20x5xf32>, none, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @lstm_initial_c_shape(%x: tensor<3x2x4xf32>, %w: tensor<1x20x4xf32>, %r: tensor<1x20x5xf32>, %c: tensor<1x3x5xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects initial_c of shape [1,2,5] (num_directions, batch_size, hidden_size), got [1,3,5]}}
  %0:3 = onnx.LSTM %x, %w, %r, %none, %none, %none, %c, %none : (tensor<3x2x4xf32>, tensor<1x20x4xf32>, tensor<1x20x5xf32>, none, none, none, tensor<1x3x5xf32>, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @lstm_p_shape(%x: tensor<3x2x4xf32>, %w: tensor<1x20x4xf32>, %r: tensor<1x20x5xf32>, %p: tensor<1x20xf32>) {
  %none = onnx.NoValue
  // expected-error @+1 {{expects P of shape [1,15] (num_directions, 3*hidden_size), got [1,20]}}
  %0:3 = onnx.LSTM %x, %w, %r, %none, %none, %none, %none, %p : (tensor<3x2x4xf32>, tensor<1x20x4xf32>, tensor<1x20x5xf32>, none, none, none, none, tensor<1x20xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return
}
// -----
func.func @gridsample_mode(%x: tensor<1x1x4x4xf32>, %g: tensor<1x3x3x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has unknown mode 'bilinear' (expected nearest, linear or cubic)}}
  %0 = onnx.GridSample %x, %g {mode = "bilinear"} : (tensor<1x1x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @gridsample_padding(%x: tensor<1x1x4x4xf32>, %g: tensor<1x3x3x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has unknown padding_mode 'wrap' (expected zeros, border or reflection)}}
  %0 = onnx.GridSample %x, %g {padding_mode = "wrap"} : (tensor<1x1x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @gridsample_align_corners(%x: tensor<1x1x4x4xf32>, %g: tensor<1x3x3x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{has align_corners 2, expected 0 or 1}}
  %0 = onnx.GridSample %x, %g {align_corners = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @gridsample_x_rank(%x: tensor<4x4xf32>, %g: tensor<1x3x3x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects X of rank >= 3 (N, C, spatial dims), got [4,4]}}
  %0 = onnx.GridSample %x, %g : (tensor<4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @gridsample_grid_shape(%x: tensor<1x1x4x4xf32>, %g: tensor<1x3x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects grid of shape [1,?,?,2] for X of shape [1,1,4,4], got [1,3,3,3]}}
  %0 = onnx.GridSample %x, %g : (tensor<1x1x4x4xf32>, tensor<1x3x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @affine_grid_align_corners(%theta: tensor<1x2x3xf32>, %size: tensor<4xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{has align_corners 2, expected 0 or 1}}
  %0 = onnx.AffineGrid %theta, %size {align_corners = 2 : i64} : (tensor<1x2x3xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @affine_grid_size_shape(%theta: tensor<1x2x3xf32>, %size: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects size of shape [4] (N, C, H, W) or [5] (N, C, D, H, W), got [3]}}
  %0 = onnx.AffineGrid %theta, %size : (tensor<1x2x3xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @affine_grid_theta_rank(%theta: tensor<2x3xf32>, %size: tensor<4xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects theta of rank 3, got [2,3]}}
  %0 = onnx.AffineGrid %theta, %size : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @affine_grid_theta_shape(%theta: tensor<1x2x3xf32>, %size: tensor<5xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects theta of shape [?,3,4], got [1,2,3]}}
  %0 = onnx.AffineGrid %theta, %size : (tensor<1x2x3xf32>, tensor<5xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @affine_grid_theta_batch(%theta: tensor<1x2x3xf32>) -> tensor<*xf32> {
  %size = onnx.Constant dense<[2, 1, 4, 4]> : tensor<4xi64>
  // expected-error @+1 {{expects theta of shape [2,2,3], got [1,2,3]}}
  %0 = onnx.AffineGrid %theta, %size : (tensor<1x2x3xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @affine_grid_negative_size(%theta: tensor<1x2x3xf32>) -> tensor<*xf32> {
  %size = onnx.Constant dense<[1, 1, -4, 4]> : tensor<4xi64>
  // expected-error @+1 {{expects a size without negative values, got [1,1,-4,4]}}
  %0 = onnx.AffineGrid %theta, %size : (tensor<1x2x3xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_cache_type(%x: tensor<2x4x3x8xf32>, %c: tensor<2x3x4xf16>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects cos_cache and sin_cache of the element type of X}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none : (tensor<2x4x3x8xf32>, tensor<2x3x4xf16>, tensor<2x3x4xf16>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_interleaved(%x: tensor<2x4x3x8xf32>, %c: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects interleaved 0 or 1, got 2}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none {interleaved = 2 : i64} : (tensor<2x4x3x8xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_num_heads(%x: tensor<2x4x3x8xf32>, %c: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects num_heads > 0, got 0}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none {num_heads = 0 : i64} : (tensor<2x4x3x8xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_odd_dim(%x: tensor<2x4x3x8xf32>, %c: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects an even, non-negative rotary_embedding_dim, got 3}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none {rotary_embedding_dim = 3 : i64} : (tensor<2x4x3x8xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_position_type(%x: tensor<2x4x3x8xf32>, %c: tensor<50x4xf32>, %p: tensor<2x3xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects position_ids of int64}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %p : (tensor<2x4x3x8xf32>, tensor<50x4xf32>, tensor<50x4xf32>, tensor<2x3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_rank(%x: tensor<2x4x3x8x1xf32>, %c: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects X of rank 3 or 4, got [2,4,3,8,1]}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none : (tensor<2x4x3x8x1xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_heads_4d(%x: tensor<2x4x3x8xf32>, %c: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{has num_heads 2 but X of shape [2,4,3,8]}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none {num_heads = 2 : i64} : (tensor<2x4x3x8xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_3d_no_heads(%x: tensor<2x3x32xf32>, %c: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects num_heads with a 3-d X}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none : (tensor<2x3x32xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_3d_hidden(%x: tensor<2x3x30xf32>, %c: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects the hidden size of X (30) to be a multiple of num_heads (4)}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none {num_heads = 4 : i64} : (tensor<2x3x30xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_dim_too_big(%x: tensor<2x4x3x8xf32>, %c: tensor<2x3x5xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects rotary_embedding_dim (10) <= the head size (8)}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none {rotary_embedding_dim = 10 : i64} : (tensor<2x4x3x8xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_odd_head(%x: tensor<2x4x3x7xf32>, %c: tensor<2x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects an even head size to rotate, got 7}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none : (tensor<2x4x3x7xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_cache_shapes(%x: tensor<2x4x3x8xf32>, %c: tensor<2x3x4xf32>, %s: tensor<2x3x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects cos_cache and sin_cache of one shape, got [2,3,4] and [2,3,2]}}
  %0 = onnx.RotaryEmbedding %x, %c, %s, %none : (tensor<2x4x3x8xf32>, tensor<2x3x4xf32>, tensor<2x3x2xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_positions_shape(%x: tensor<2x4x3x8xf32>, %c: tensor<50x4xf32>, %p: tensor<2x4xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects position_ids of shape [2,3], got [2,4]}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %p : (tensor<2x4x3x8xf32>, tensor<50x4xf32>, tensor<50x4xf32>, tensor<2x4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_gathered_cache(%x: tensor<2x4x3x8xf32>, %c: tensor<50x2xf32>, %p: tensor<2x3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{expects caches of shape [?,4] with position_ids, got [50,2]}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %p : (tensor<2x4x3x8xf32>, tensor<50x2xf32>, tensor<50x2xf32>, tensor<2x3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @rotary_embedding_cache(%x: tensor<2x4x3x8xf32>, %c: tensor<2x4x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects caches of shape [2,3,4] without position_ids, got [2,4,4]}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none : (tensor<2x4x3x8xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dft_inverse(%x: tensor<4x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects inverse 0 or 1, got 2}}
  %0 = onnx.DFT %x, %none, %none {inverse = 2 : i64} : (tensor<4x2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dft_onesided(%x: tensor<4x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects onesided 0 or 1, got -1}}
  %0 = onnx.DFT %x, %none, %none {onesided = -1 : i64} : (tensor<4x2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dft_length_type(%x: tensor<4x2xf32>, %n: tensor<f32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects an integer dft_length}}
  %0 = onnx.DFT %x, %n, %none : (tensor<4x2xf32>, tensor<f32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dft_axis_shape(%x: tensor<4x2xf32>, %a: tensor<2xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a scalar axis, got [2]}}
  %0 = onnx.DFT %x, %none, %a : (tensor<4x2xf32>, none, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dft_length_value(%x: tensor<4x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %n = onnx.Constant dense<0> : tensor<i64>
  // expected-error @+1 {{expects a positive dft_length, got 0}}
  %0 = onnx.DFT %x, %n, %none : (tensor<4x2xf32>, tensor<i64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dft_rank(%x: tensor<2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects an input of rank >= 2 (signal dims and a last dim of 1 or 2), got [2]}}
  %0 = onnx.DFT %x, %none, %none : (tensor<2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dft_complex_dim(%x: tensor<4x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects the last dim of the input to be 1 (real) or 2 (complex), got [4,3]}}
  %0 = onnx.DFT %x, %none, %none : (tensor<4x3xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dft_axis(%x: tensor<3x4x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %a = onnx.Constant dense<-1> : tensor<i64>
  // expected-error @+1 {{expects axis in [-3, -2] or [0, 1], got -1}}
  %0 = onnx.DFT %x, %none, %a : (tensor<3x4x2xf32>, none, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dft_irfft_length(%x: tensor<1x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a one-sided inverse of at least 2 frequencies, got [1,2]}}
  %0 = onnx.DFT %x, %none, %none {inverse = 1 : i64, onesided = 1 : i64} : (tensor<1x2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @stft_onesided(%x: tensor<1x128x1xf32>, %step: tensor<i64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects onesided 0 or 1, got 3}}
  %0 = onnx.STFT %x, %step, %none, %none {onesided = 3 : i64} : (tensor<1x128x1xf32>, tensor<i64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @stft_step(%x: tensor<1x128x1xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %step = onnx.Constant dense<-8> : tensor<i64>
  // expected-error @+1 {{expects a positive frame_step, got -8}}
  %0 = onnx.STFT %x, %step, %none, %none : (tensor<1x128x1xf32>, tensor<i64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @stft_signal_rank(%x: tensor<128x1xf32>, %step: tensor<i64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a signal of shape [batch, length, 1 or 2], got [128,1]}}
  %0 = onnx.STFT %x, %step, %none, %none : (tensor<128x1xf32>, tensor<i64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @stft_complex_dim(%x: tensor<1x128x4xf32>, %step: tensor<i64>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects the last dim of the signal to be 1 (real) or 2 (complex), got [1,128,4]}}
  %0 = onnx.STFT %x, %step, %none, %none : (tensor<1x128x4xf32>, tensor<i64>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @stft_window_type(%x: tensor<1x128x1xf32>, %step: tensor<i64>, %w: tensor<16xf16>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a window of the signal's element type}}
  %0 = onnx.STFT %x, %step, %w, %none : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf16>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @stft_window_rank(%x: tensor<1x128x1xf32>, %step: tensor<i64>, %w: tensor<4x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a 1-d window, got [4,4]}}
  %0 = onnx.STFT %x, %step, %w, %none : (tensor<1x128x1xf32>, tensor<i64>, tensor<4x4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @stft_window_length(%x: tensor<1x128x1xf32>, %step: tensor<i64>, %w: tensor<16xf32>) -> tensor<*xf32> {
  %n = onnx.Constant dense<8> : tensor<i64>
  // expected-error @+1 {{expects a window of frame_length (8) points, got [16]}}
  %0 = onnx.STFT %x, %step, %w, %n : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @stft_frame_length(%x: tensor<1x12x1xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  %step = onnx.Constant dense<8> : tensor<i64>
  %n = onnx.Constant dense<16> : tensor<i64>
  // expected-error @+1 {{expects frames of at most the signal's length (12), got 16}}
  %0 = onnx.STFT %x, %step, %none, %n : (tensor<1x12x1xf32>, tensor<i64>, none, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @quantize_blocked(%x: tensor<4x5xf32>, %s: tensor<4x2xf32>) -> tensor<*xui8> {
  %none = onnx.NoValue
  // expected-error @+1 {{with block_size 2 expects a scale of shape [4,3], got [4,2]}}
  %0 = onnx.QuantizeLinear %x, %s, %none {block_size = 2} : (tensor<4x5xf32>, tensor<4x2xf32>, none) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}
// -----
func.func @qlinearmatmul_int16(%a: tensor<2x4xi16>, %b: tensor<4x3xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<*xi8> {
  // expected-error @+1 {{expects 8-bit integer a and b}}
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s, %z, %s, %z : (tensor<2x4xi16>, tensor<f32>, tensor<i8>, tensor<4x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<*xi8>
  return %0 : tensor<*xi8>
}
// -----
func.func @qlinearmatmul_zero_point_type(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>, %s: tensor<f32>, %z: tensor<i8>, %zu: tensor<ui8>) -> tensor<*xui8> {
  // expected-error @+1 {{expects a_zero_point of a's element type 'ui8', got 'i8'}}
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s, %zu, %s, %zu : (tensor<2x4xui8>, tensor<f32>, tensor<i8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}
// -----
func.func @qlinearmatmul_int_scale(%a: tensor<2x4xi8>, %b: tensor<4x3xi8>, %s: tensor<f32>, %si: tensor<i32>, %z: tensor<i8>) -> tensor<*xi8> {
  // expected-error @+1 {{expects a float a_scale}}
  %0 = onnx.QLinearMatMul %a, %si, %z, %b, %s, %z, %s, %z : (tensor<2x4xi8>, tensor<i32>, tensor<i8>, tensor<4x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<*xi8>
  return %0 : tensor<*xi8>
}
// -----
func.func @qlinearmatmul_per_column_scale(%a: tensor<2x4xi8>, %b: tensor<4x3xi8>, %s: tensor<f32>, %s3: tensor<3xf32>, %z: tensor<i8>) -> tensor<*xi8> {
  // expected-error @+1 {{expects a per-tensor (one-element) b_scale}}
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s3, %z, %s, %z : (tensor<2x4xi8>, tensor<f32>, tensor<i8>, tensor<4x3xi8>, tensor<3xf32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<*xi8>
  return %0 : tensor<*xi8>
}
// -----
func.func @qlinearmatmul_y_zero_point(%a: tensor<2x4xi8>, %b: tensor<4x3xi8>, %s: tensor<f32>, %z: tensor<i8>, %z16: tensor<i16>) -> tensor<*xi16> {
  // expected-error @+1 {{expects an 8-bit integer y_zero_point}}
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s, %z, %s, %z16 : (tensor<2x4xi8>, tensor<f32>, tensor<i8>, tensor<4x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i16>) -> tensor<*xi16>
  return %0 : tensor<*xi16>
}
// -----
func.func @qlinearmatmul_y_zero_point_per_column(%a: tensor<2x4xi8>, %b: tensor<4x3xi8>, %s: tensor<f32>, %z: tensor<i8>, %z3: tensor<3xi8>) -> tensor<*xi8> {
  // expected-error @+1 {{expects a per-tensor (one-element) y_zero_point}}
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s, %z, %s, %z3 : (tensor<2x4xi8>, tensor<f32>, tensor<i8>, tensor<4x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<3xi8>) -> tensor<*xi8>
  return %0 : tensor<*xi8>
}
// -----
func.func @qlinearmatmul_per_row_zero_point(%a: tensor<2x4xi8>, %b: tensor<4x3xi8>, %s: tensor<f32>, %z: tensor<i8>, %z2: tensor<2xi8>) -> tensor<*xi8> {
  // expected-error @+1 {{with per-row or per-column zero points is not supported yet}}
  %0 = onnx.QLinearMatMul %a, %s, %z2, %b, %s, %z, %s, %z : (tensor<2x4xi8>, tensor<f32>, tensor<2xi8>, tensor<4x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<*xi8>
  return %0 : tensor<*xi8>
}
// -----
func.func @qlinearmatmul_inner_dims(%a: tensor<2x4xi8>, %b: tensor<5x3xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<*xi8> {
  // expected-error @+1 {{has mismatched inner dims: [2,4] x [5,3]}}
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s, %z, %s, %z : (tensor<2x4xi8>, tensor<f32>, tensor<i8>, tensor<5x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<*xi8>
  return %0 : tensor<*xi8>
}
// -----
func.func @convinteger_float(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xui8>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects 8-bit integer x and w}}
  %0 = onnx.ConvInteger %x, %w, %none, %none : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xui8>, none, none) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
// -----
func.func @convinteger_zero_point_type(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>, %z: tensor<i8>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects x_zero_point of x's element type 'ui8', got 'i8'}}
  %0 = onnx.ConvInteger %x, %w, %z, %none : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>, tensor<i8>, none) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
// -----
func.func @convinteger_x_zero_point_per_channel(%x: tensor<1x2x3x3xui8>, %w: tensor<1x2x2x2xui8>, %z: tensor<2xui8>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a per-tensor (one-element) x_zero_point}}
  %0 = onnx.ConvInteger %x, %w, %z, %none : (tensor<1x2x3x3xui8>, tensor<1x2x2x2xui8>, tensor<2xui8>, none) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
// -----
func.func @convinteger_w_zero_point_shape(%x: tensor<1x1x3x3xui8>, %w: tensor<2x1x2x2xui8>, %z: tensor<3xui8>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects w_zero_point per tensor or per output channel, got [3]}}
  %0 = onnx.ConvInteger %x, %w, %none, %z : (tensor<1x1x3x3xui8>, tensor<2x1x2x2xui8>, none, tensor<3xui8>) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
// -----
func.func @convinteger_channels(%x: tensor<1x3x3x3xui8>, %w: tensor<2x1x2x2xui8>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects input channels 3 = W.shape[1] (1) * group (1)}}
  %0 = onnx.ConvInteger %x, %w, %none, %none : (tensor<1x3x3x3xui8>, tensor<2x1x2x2xui8>, none, none) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
// -----
func.func @qlinearconv_w_scale_type(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>, %s: tensor<f32>, %si: tensor<i32>, %z: tensor<ui8>) -> tensor<*xui8> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a float w_scale}}
  %0 = onnx.QLinearConv %x, %s, %z, %w, %si, %z, %s, %z, %none : (tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<1x1x2x2xui8>, tensor<i32>, tensor<ui8>, tensor<f32>, tensor<ui8>, none) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}
// -----
func.func @qlinearconv_w_scale_shape(%x: tensor<1x1x3x3xui8>, %w: tensor<2x1x2x2xui8>, %s: tensor<f32>, %s3: tensor<3xf32>, %z: tensor<ui8>) -> tensor<*xui8> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects w_scale per tensor or per output channel, got [3]}}
  %0 = onnx.QLinearConv %x, %s, %z, %w, %s3, %z, %s, %z, %none : (tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<2x1x2x2xui8>, tensor<3xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>, none) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}
// -----
func.func @qlinearconv_bias_type(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>, %s: tensor<f32>, %z: tensor<ui8>, %b: tensor<1xf32>) -> tensor<*xui8> {
  // expected-error @+1 {{expects an int32 bias}}
  %0 = onnx.QLinearConv %x, %s, %z, %w, %s, %z, %s, %z, %b : (tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<1x1x2x2xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>, tensor<1xf32>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}
// -----
func.func @qlinearconv_bias_shape(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>, %s: tensor<f32>, %z: tensor<ui8>, %b: tensor<2xi32>) -> tensor<*xui8> {
  // expected-error @+1 {{expects bias of shape [1], got [2]}}
  %0 = onnx.QLinearConv %x, %s, %z, %w, %s, %z, %s, %z, %b : (tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<1x1x2x2xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}
// -----
func.func @dynamicquantizelinear_f16(%x: tensor<4xf16>) -> tensor<*xui8> {
  // expected-error @+1 {{expects a float32 input, got 'f16'}}
  %0:3 = onnx.DynamicQuantizeLinear %x : (tensor<4xf16>) -> (tensor<*xui8>, tensor<*xf32>, tensor<*xui8>)
  return %0#0 : tensor<*xui8>
}
// -----
func.func @dequantize_negative_block_size(%x: tensor<4x4xui8>, %s: tensor<4x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects block_size >= 0, got -2}}
  %0 = onnx.DequantizeLinear %x, %s, %none {block_size = -2} : (tensor<4x4xui8>, tensor<4x2xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nhwc_max_pool_1d(%x: tensor<1x8x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a 2-d kernel_shape}}
  %0 = onnx.NhwcMaxPool %x {kernel_shape = array<i64: 2>} : (tensor<1x8x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nhwc_max_pool_storage_order(%x: tensor<1x8x8x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{with storage_order=1 is not supported}}
  %0 = onnx.NhwcMaxPool %x {kernel_shape = array<i64: 2, 2>, storage_order = 1} : (tensor<1x8x8x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nhwc_average_pool_rank(%x: tensor<1x8x8x8x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expects an input of rank 4, got [1,8,8,8,3]}}
  %0 = onnx.NhwcAveragePool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x8x8x8x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @compress_condition_rank(%x: tensor<3x2xf32>, %c: tensor<2x2xi1>) -> tensor<*xf32> {
  // expected-error @+1 {{expects a 1-D condition, got [2,2]}}
  %0 = onnx.Compress %x, %c {axis = 0 : i64} : (tensor<3x2xf32>, tensor<2x2xi1>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @compress_axis(%x: tensor<3x2xf32>, %c: tensor<2xi1>) -> tensor<*xf32> {
  // expected-error @+1 {{has axis 2 out of range [-2, 1] for rank 2}}
  %0 = onnx.Compress %x, %c {axis = 2 : i64} : (tensor<3x2xf32>, tensor<2xi1>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nms_boxes(%b: tensor<1x6x5xf32>, %s: tensor<1x1x6xf32>) -> tensor<*xi64> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects boxes of shape [batch, boxes, 4], got [1,6,5]}}
  %0 = onnx.NonMaxSuppression %b, %s, %none, %none, %none : (tensor<1x6x5xf32>, tensor<1x1x6xf32>, none, none, none) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @nms_counts(%b: tensor<1x6x4xf32>, %s: tensor<1x1x5xf32>) -> tensor<*xi64> {
  %none = onnx.NoValue
  // expected-error @+1 {{has boxes [1,6,4] and scores [1,1,5] of different batches or box counts}}
  %0 = onnx.NonMaxSuppression %b, %s, %none, %none, %none : (tensor<1x6x4xf32>, tensor<1x1x5xf32>, none, none, none) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @nms_limit(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %m: tensor<2xi64>) -> tensor<*xi64> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects scalar limits, got a tensor of shape [2]}}
  %0 = onnx.NonMaxSuppression %b, %s, %m, %none, %none : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<2xi64>, none, none) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @nms_center(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>) -> tensor<*xi64> {
  %none = onnx.NoValue
  // expected-error @+1 {{has center_point_box 2, expected 0 or 1}}
  %0 = onnx.NonMaxSuppression %b, %s, %none, %none, %none {center_point_box = 2 : i64} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, none, none, none) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}
// -----
// Constant scales are finite and > 0 (quantizing divides by them); a
// constant zero point of an int32 tensor is 0; a zero point has the data's
// type.
func.func @quantize_zero_scale(%x: tensor<4xf32>) -> tensor<*xui8> {
  %s = onnx.Constant dense<0.0> : tensor<f32>
  %none = onnx.NoValue
  // expected-error @+1 {{expects y_scale to be finite and > 0, got 0}}
  %0 = onnx.QuantizeLinear %x, %s, %none : (tensor<4xf32>, tensor<f32>, none) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}
// -----
func.func @dequantize_negative_channel_scale(%x: tensor<2x4xui8>) -> tensor<*xf32> {
  %s = onnx.Constant dense<[1.0, 2.0, -1.0, 1.0]> : tensor<4xf32>
  %none = onnx.NoValue
  // expected-error @+1 {{expects x_scale to be finite and > 0, got -1 at index 2}}
  %0 = onnx.DequantizeLinear %x, %s, %none {axis = 1 : i64} : (tensor<2x4xui8>, tensor<4xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dequantize_nan_scale(%x: tensor<4xui8>) -> tensor<*xf32> {
  %s = onnx.Constant dense<0x7FC00000> : tensor<f32>
  %none = onnx.NoValue
  // expected-error @+1 {{expects x_scale to be finite and > 0, got NaN}}
  %0 = onnx.DequantizeLinear %x, %s, %none : (tensor<4xui8>, tensor<f32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dequantize_int32_zero_point(%x: tensor<4xi32>) -> tensor<*xf32> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<3> : tensor<i32>
  // expected-error @+1 {{expects x_zero_point of an int32 tensor to be 0, got 3}}
  %0 = onnx.DequantizeLinear %x, %s, %z : (tensor<4xi32>, tensor<f32>, tensor<i32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @dequantize_zero_point_type(%x: tensor<4xui8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<*xf32> {
  // expected-error @+1 {{expects x_zero_point of x's element type 'ui8', got 'i8'}}
  %0 = onnx.DequantizeLinear %x, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<i8>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @qlinearmatmul_inf_scale(%a: tensor<2x4xi8>, %b: tensor<4x3xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<*xi8> {
  %inf = onnx.Constant dense<0x7F800000> : tensor<f32>
  // expected-error @+1 {{expects y_scale to be finite and > 0, got +Inf}}
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s, %z, %inf, %z : (tensor<2x4xi8>, tensor<f32>, tensor<i8>, tensor<4x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<*xi8>
  return %0 : tensor<*xi8>
}
// -----
func.func @qlinearconv_zero_channel_scale(%x: tensor<1x1x3x3xui8>, %w: tensor<2x1x2x2xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<*xui8> {
  %ws = onnx.Constant dense<[0.5, 0.0]> : tensor<2xf32>
  %none = onnx.NoValue
  // expected-error @+1 {{expects w_scale to be finite and > 0, got 0 at index 1}}
  %0 = onnx.QLinearConv %x, %s, %z, %w, %ws, %z, %s, %z, %none : (tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<2x1x2x2xui8>, tensor<2xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>, none) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}
// -----
func.func @matmulinteger_rank(%a: tensor<4xui8>, %b: tensor<4x3xi8>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{with a of rank below 2 or b of rank other than 2 is not supported yet, got a [4] and b [4,3]}}
  %0 = onnx.MatMulInteger %a, %b, %none, %none : (tensor<4xui8>, tensor<4x3xi8>, none, none) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
// -----
func.func @matmulinteger_k(%a: tensor<2x5x4xui8>, %b: tensor<3x3xi8>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{expects a's last dim (4) to equal b's first (3)}}
  %0 = onnx.MatMulInteger %a, %b, %none, %none : (tensor<2x5x4xui8>, tensor<3x3xi8>, none, none) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}
// -----
func.func @matmulinteger_row_zero_point(%a: tensor<2x5x4xui8>, %b: tensor<4x3xi8>, %z: tensor<5xui8>) -> tensor<*xi32> {
  %none = onnx.NoValue
  // expected-error @+1 {{with a of rank 3 expects a per-tensor a_zero_point, got [5]}}
  %0 = onnx.MatMulInteger %a, %b, %z, %none : (tensor<2x5x4xui8>, tensor<4x3xi8>, tensor<5xui8>, none) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

// -----

func.func @nhwc_conv_integer_signed_x(%x: tensor<1x3x3x4xi8>, %w: tensor<2x4x1x1xi8>) {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.NhwcConvInteger' op expects uint8 x and int8 w}}
  %0 = onnx.NhwcConvInteger %x, %w, %none : (tensor<1x3x3x4xi8>, tensor<2x4x1x1xi8>, none) -> tensor<1x3x3x2xi32>
  return
}

// -----

func.func @nhwc_conv_integer_grouped(%x: tensor<1x3x3x4xui8>, %w: tensor<2x2x1x1xi8>) {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.NhwcConvInteger' op expects group 1, got 2}}
  %0 = onnx.NhwcConvInteger %x, %w, %none {group = 2 : i64} : (tensor<1x3x3x4xui8>, tensor<2x2x1x1xi8>, none) -> tensor<1x3x3x2xi32>
  return
}

// -----

func.func @nhwc_conv_integer_rank(%x: tensor<1x3x4xui8>, %w: tensor<2x4x1xi8>) {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.NhwcConvInteger' op expects x of rank 4 [N, H, W, C], got [1,3,4]}}
  %0 = onnx.NhwcConvInteger %x, %w, %none : (tensor<1x3x4xui8>, tensor<2x4x1xi8>, none) -> tensor<1x3x2xi32>
  return
}

// -----

func.func @nhwc_conv_integer_zero_point(%x: tensor<1x3x3x4xui8>, %w: tensor<2x4x1x1xi8>, %z: tensor<2xui8>) {
  // expected-error @+1 {{'onnx.NhwcConvInteger' op expects a per-tensor (one-element) x_zero_point}}
  %0 = onnx.NhwcConvInteger %x, %w, %z : (tensor<1x3x3x4xui8>, tensor<2x4x1x1xi8>, tensor<2xui8>) -> tensor<1x3x3x2xi32>
  return
}

// -----

func.func @nhwc_conv_integer_channels(%x: tensor<1x3x3x4xui8>, %w: tensor<2x3x1x1xi8>) {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.NhwcConvInteger' op expects input channels 4 = W.shape[1] (3) * group (1)}}
  %0 = onnx.NhwcConvInteger %x, %w, %none : (tensor<1x3x3x4xui8>, tensor<2x3x1x1xi8>, none) -> tensor<1x3x3x2xi32>
  return
}
