// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-onnx-decompose | FileCheck %s

// Plain 4-d attention: Q and K^T scaled by sqrt(1/sqrt(8)), no bias.
// CHECK-LABEL: func @mha_4d
// CHECK: %[[S:.*]] = onnx.Constant dense<0.594603539> : tensor<f32>
// CHECK: %[[QS:.*]] = onnx.Mul %arg0, %[[S]]
// CHECK: %[[KT:.*]] = onnx.Transpose %arg1 {perm = array<i64: 0, 1, 3, 2>}
// CHECK: %[[KS:.*]] = onnx.Mul %[[KT]], %[[S]]
// CHECK: %[[QK:.*]] = onnx.MatMul %[[QS]], %[[KS]] : {{.*}} -> tensor<2x3x4x6xf32>
// CHECK: %[[P:.*]] = onnx.Softmax %[[QK]]
// CHECK-NOT: onnx.Where
// CHECK: %[[Y:.*]] = onnx.MatMul %[[P]], %arg2 : {{.*}} -> tensor<2x3x4x10xf32>
// CHECK: return %[[Y]], %arg1
// CHECK-NOT: onnx.Attention
func.func @mha_4d(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x8xf32>, %v: tensor<2x3x6x10xf32>) -> (tensor<2x3x4x10xf32>, tensor<2x3x6x8xf32>) {
  %none = onnx.NoValue
  %y:4 = onnx.Attention %q, %k, %v, %none, %none, %none, %none : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x10xf32>, none, none, none, none) -> (tensor<2x3x4x10xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x10xf32>, tensor<2x3x4x6xf32>)
  return %y#0, %y#1 : tensor<2x3x4x10xf32>, tensor<2x3x6x8xf32>
}

// -----

// 3-d GQA (9 query heads, 3 KV heads) with a KV cache, a short bool mask,
// causal masking, softcap and the softmax as qk_matmul_output.
// CHECK-LABEL: func @gqa_3d_cache
// CHECK: %[[Q4:.*]] = onnx.Reshape %arg0, %{{.*}} -> tensor<2x4x9x8xf32>
// CHECK: %[[Q:.*]] = onnx.Transpose %[[Q4]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK: %[[PK:.*]] = onnx.Concat %arg3, %{{.*}} {axis = 2 : i64} : {{.*}} -> tensor<2x3x18x8xf32>
// CHECK: onnx.Unsqueeze %[[PK]]
// CHECK: onnx.Expand {{.*}} -> tensor<2x3x3x18x8xf32>
// CHECK: onnx.Reshape {{.*}} -> tensor<2x9x18x8xf32>
// CHECK: %[[QK:.*]] = onnx.MatMul {{.*}} -> tensor<2x9x4x18xf32>
// CHECK: %[[CAP:.*]] = onnx.Constant dense<2.000000e+00> : tensor<f32>
// CHECK: %[[DIV:.*]] = onnx.Div %[[QK]], %[[CAP]]
// CHECK: %[[TANH:.*]] = onnx.Tanh %[[DIV]]
// CHECK: %[[CAPPED:.*]] = onnx.Mul %[[TANH]], %[[CAP]]
// CHECK: %[[MASK:.*]] = onnx.Where %arg2, %{{.*}}, %{{.*}} : {{.*}} -> tensor<4x16xf32>
// CHECK: %[[PAD:.*]] = onnx.Constant dense<0xFF800000> : tensor<4x2xf32>
// CHECK: %[[PADDED:.*]] = onnx.Concat %[[MASK]], %[[PAD]] {axis = 1 : i64} : {{.*}} -> tensor<4x18xf32>
// Query 0 sees the 12 past keys and the first new one.
// CHECK: %[[CAUSAL:.*]] = onnx.Constant dense<{{\[\[}}0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, {{.*}}> : tensor<4x18xf32>
// CHECK: %[[BIAS:.*]] = onnx.Add %[[PADDED]], %[[CAUSAL]]
// CHECK: %[[SCORES:.*]] = onnx.Add %[[CAPPED]], %[[BIAS]]
// CHECK: %[[SM:.*]] = onnx.Softmax %[[SCORES]]
// CHECK: %[[ROWMAX:.*]] = onnx.ReduceMax %[[BIAS]], %{{.*}} -> tensor<4x1xf32>
// CHECK: %[[EMPTY:.*]] = onnx.Equal %[[ROWMAX]], %{{.*}} -> tensor<4x1xi1>
// CHECK: %[[P:.*]] = onnx.Where %[[EMPTY]], %{{.*}}, %[[SM]] : {{.*}} -> tensor<2x9x4x18xf32>
// CHECK: %[[Y4:.*]] = onnx.MatMul %[[P]], %{{.*}} -> tensor<2x9x4x8xf32>
// CHECK: %[[YT:.*]] = onnx.Transpose %[[Y4]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK: %[[Y:.*]] = onnx.Reshape %[[YT]], %{{.*}} -> tensor<2x4x72xf32>
// CHECK: return %[[Y]], %[[PK]], %[[P]]
func.func @gqa_3d_cache(%q: tensor<2x4x72xf32>, %k: tensor<2x6x24xf32>, %mask: tensor<4x16xi1>, %past: tensor<2x3x12x8xf32>) -> (tensor<2x4x72xf32>, tensor<2x3x18x8xf32>, tensor<2x9x4x18xf32>) {
  %none = onnx.NoValue
  %y:4 = onnx.Attention %q, %k, %k, %mask, %past, %past, %none {is_causal = 1 : i64, kv_num_heads = 3 : i64, q_num_heads = 9 : i64, qk_matmul_output_mode = 3 : i64, softcap = 2.0 : f32} : (tensor<2x4x72xf32>, tensor<2x6x24xf32>, tensor<2x6x24xf32>, tensor<4x16xi1>, tensor<2x3x12x8xf32>, tensor<2x3x12x8xf32>, none) -> (tensor<2x4x72xf32>, tensor<2x3x18x8xf32>, tensor<2x3x18x8xf32>, tensor<2x9x4x18xf32>)
  return %y#0, %y#1, %y#3 : tensor<2x4x72xf32>, tensor<2x3x18x8xf32>, tensor<2x9x4x18xf32>
}

// -----

// An external cache: per-batch causal frontier (j - i + 1 < n[b] for 2
// queries) and padding (j < n[b]); the float mask is added; the bias
// with the mask (qk_matmul_output_mode 2) is the fourth result.
// CHECK-LABEL: func @nonpad_causal
// CHECK: %[[N:.*]] = onnx.Reshape %arg4, %{{.*}} -> tensor<2x1x1x1xi64>
// CHECK: %[[C:.*]] = onnx.Constant dense<{{\[\[\[\[}}1, 2, 3, 4], [0, 1, 2, 3]]]]> : tensor<1x1x2x4xi64>
// CHECK: %[[CAUSAL:.*]] = onnx.Less %[[C]], %[[N]] : {{.*}} -> tensor<2x1x2x4xi1>
// CHECK: %[[J:.*]] = onnx.Constant dense<{{\[\[\[\[}}0, 1, 2, 3]]]]> : tensor<1x1x1x4xi64>
// CHECK: %[[PADDING:.*]] = onnx.Less %[[J]], %[[N]] : {{.*}} -> tensor<2x1x1x4xi1>
// CHECK: %[[ALLOWED:.*]] = onnx.And %[[CAUSAL]], %[[PADDING]] : {{.*}} -> tensor<2x1x2x4xi1>
// CHECK: %[[TERM:.*]] = onnx.Where %[[ALLOWED]]
// CHECK: %[[BIAS:.*]] = onnx.Add %arg3, %[[TERM]] : {{.*}} -> tensor<2x1x2x4xf32>
// CHECK: %[[SCORES:.*]] = onnx.Add %{{.*}}, %[[BIAS]] : {{.*}} -> tensor<2x2x2x4xf32>
// CHECK: return %{{.*}}, %[[SCORES]]
func.func @nonpad_causal(%q: tensor<2x2x2x8xf32>, %k: tensor<2x2x4x8xf32>, %v: tensor<2x2x4x8xf32>, %mask: tensor<2x4xf32>, %n: tensor<2xi64>) -> (tensor<2x2x2x8xf32>, tensor<2x2x2x4xf32>) {
  %none = onnx.NoValue
  %y:4 = onnx.Attention %q, %k, %v, %mask, %none, %none, %n {is_causal = 1 : i64, qk_matmul_output_mode = 2 : i64} : (tensor<2x2x2x8xf32>, tensor<2x2x4x8xf32>, tensor<2x2x4x8xf32>, tensor<2x4xf32>, none, none, tensor<2xi64>) -> (tensor<2x2x2x8xf32>, tensor<2x2x4x8xf32>, tensor<2x2x4x8xf32>, tensor<2x2x2x4xf32>)
  return %y#0, %y#3 : tensor<2x2x2x8xf32>, tensor<2x2x2x4xf32>
}

// -----

// softmax_precision 1: the softmax runs in f32; a sliding window of one key
// to the left, none to the right.
// CHECK-LABEL: func @f16_precision_window
// CHECK: onnx.Constant dense<{{\[\[}}0.000000e+00, 0xFC00, 0xFC00], [0.000000e+00, 0.000000e+00, 0xFC00], [0xFC00, 0.000000e+00, 0.000000e+00]]> : tensor<3x3xf16>
// CHECK: %[[WIDE:.*]] = onnx.Cast %{{.*}} {to = 1 : i64} : (tensor<1x1x3x3xf16>) -> tensor<1x1x3x3xf32>
// CHECK: %[[SM:.*]] = onnx.Softmax %[[WIDE]] : (tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
// CHECK: onnx.CastLike %[[SM]], %arg0 : {{.*}} -> tensor<1x1x3x3xf16>
func.func @f16_precision_window(%q: tensor<1x1x3x4xf16>) -> tensor<1x1x3x4xf16> {
  %none = onnx.NoValue
  %y:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none {left_window_size = 1 : i64, right_window_size = 0 : i64, softmax_precision = 1 : i64} : (tensor<1x1x3x4xf16>, tensor<1x1x3x4xf16>, tensor<1x1x3x4xf16>, none, none, none, none) -> (tensor<1x1x3x4xf16>, tensor<1x1x3x4xf16>, tensor<1x1x3x4xf16>, tensor<1x1x3x3xf16>)
  return %y#0 : tensor<1x1x3x4xf16>
}

// -----

func.func @dynamic(%q: tensor<?x3x4x8xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{'onnx.Attention' op with dynamic shapes is not supported yet}}
  %y:4 = onnx.Attention %q, %q, %q, %none, %none, %none, %none : (tensor<?x3x4x8xf32>, tensor<?x3x4x8xf32>, tensor<?x3x4x8xf32>, none, none, none, none) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %y#0 : tensor<*xf32>
}

// -----

// RoPE of a 4-d X with position ids: the gathered caches are unsqueezed at
// the heads axis, the halves rotated and concatenated back.
// CHECK-LABEL: func @rotary_embedding_4d
// CHECK: %[[COS:.*]] = onnx.Gather %arg1, %arg3
// CHECK: %[[C:.*]] = onnx.Unsqueeze %[[COS]], %{{.*}} -> tensor<2x1x3x4xf32>
// CHECK: %[[X1:.*]] = onnx.Slice %arg0, {{.*}} -> tensor<2x4x3x4xf32>
// CHECK: %[[X2:.*]] = onnx.Slice %arg0, {{.*}} -> tensor<2x4x3x4xf32>
// CHECK: %[[CX1:.*]] = onnx.Mul %[[C]], %[[X1]]
// CHECK: %[[RE:.*]] = onnx.Sub %[[CX1]], %{{.*}}
// CHECK: %[[IM:.*]] = onnx.Add
// CHECK: %[[Y:.*]] = onnx.Concat %[[RE]], %[[IM]] {axis = 3 : i64} {{.*}} -> tensor<2x4x3x8xf32>
// CHECK: return %[[Y]]
// CHECK-NOT: onnx.RotaryEmbedding
func.func @rotary_embedding_4d(%x: tensor<2x4x3x8xf32>, %cos: tensor<50x4xf32>, %sin: tensor<50x4xf32>, %pos: tensor<2x3xi64>) -> tensor<2x4x3x8xf32> {
  %0 = onnx.RotaryEmbedding %x, %cos, %sin, %pos : (tensor<2x4x3x8xf32>, tensor<50x4xf32>, tensor<50x4xf32>, tensor<2x3xi64>) -> tensor<2x4x3x8xf32>
  return %0 : tensor<2x4x3x8xf32>
}

// -----

// Interleaved partial rotation of a 3-d X: (batch, seq, heads, head size),
// the first 4 features as (2, 2) pairs, the other 4 left alone.
// CHECK-LABEL: func @rotary_embedding_3d_interleaved_partial
// CHECK: %[[X:.*]] = onnx.Reshape %arg0, {{.*}} -> tensor<2x3x4x8xf32>
// CHECK: onnx.Unsqueeze %arg1, {{.*}} -> tensor<2x3x1x2xf32>
// CHECK: %[[R:.*]] = onnx.Slice %[[X]], {{.*}} -> tensor<2x3x4x4xf32>
// CHECK: %[[P:.*]] = onnx.Reshape %[[R]], {{.*}} -> tensor<2x3x4x2x2xf32>
// CHECK: onnx.Slice %[[P]], {{.*}} -> tensor<2x3x4x2x1xf32>
// CHECK: %[[RI:.*]] = onnx.Concat {{.*}} {axis = 4 : i64} {{.*}} -> tensor<2x3x4x2x2xf32>
// CHECK: %[[ROT:.*]] = onnx.Reshape %[[RI]], {{.*}} -> tensor<2x3x4x4xf32>
// CHECK: %[[PASS:.*]] = onnx.Slice %[[X]], {{.*}} -> tensor<2x3x4x4xf32>
// CHECK: %[[Y:.*]] = onnx.Concat %[[ROT]], %[[PASS]] {axis = 3 : i64} {{.*}} -> tensor<2x3x4x8xf32>
// CHECK: onnx.Reshape %[[Y]], {{.*}} -> tensor<2x3x32xf32>
func.func @rotary_embedding_3d_interleaved_partial(%x: tensor<2x3x32xf32>, %cos: tensor<2x3x2xf32>, %sin: tensor<2x3x2xf32>) -> tensor<2x3x32xf32> {
  %none = onnx.NoValue
  %0 = onnx.RotaryEmbedding %x, %cos, %sin, %none {interleaved = 1 : i64, num_heads = 4 : i64, rotary_embedding_dim = 4 : i64} : (tensor<2x3x32xf32>, tensor<2x3x2xf32>, tensor<2x3x2xf32>, none) -> tensor<2x3x32xf32>
  return %0 : tensor<2x3x32xf32>
}

// -----

func.func @rotary_embedding_dynamic(%x: tensor<?x4x3x8xf32>, %c: tensor<?x3x4xf32>) -> tensor<?x4x3x8xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{with dynamic shapes is not supported yet}}
  %0 = onnx.RotaryEmbedding %x, %c, %c, %none : (tensor<?x4x3x8xf32>, tensor<?x3x4xf32>, tensor<?x3x4xf32>, none) -> tensor<?x4x3x8xf32>
  return %0 : tensor<?x4x3x8xf32>
}

// -----

// A DequantizeLinear of constants (quantized weights) becomes an f32
// constant, per output channel: (x - zero point) * scale.
// Channel 0: (-3 - 1) * 0.5 = -2, (5 - 1) * 0.5 = 2; channel 1: (7 - 0) *
// 0.25 = 1.75, (-128 - 0) * 0.25 = -32.
// CHECK-LABEL: func @dequantize_weights
// CHECK-NOT: onnx.DequantizeLinear
// CHECK: %[[W:.*]] = onnx.Constant dense_resource<dequantized> : tensor<2x2xf32>
// CHECK: return %[[W]]
// CHECK: dequantized: "0x04000000000000C000000040{{0*}}E03F000000C2"
func.func @dequantize_weights() -> tensor<2x2xf32> {
  %x = onnx.Constant dense<[[-3, 5], [7, -128]]> : tensor<2x2xi8>
  %s = onnx.Constant dense<[0.5, 0.25]> : tensor<2xf32>
  %z = onnx.Constant dense<[1, 0]> : tensor<2xi8>
  %0 = onnx.DequantizeLinear %x, %s, %z {axis = 0 : i64} : (tensor<2x2xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// An activation is dequantized at run time.
// CHECK-LABEL: func @dequantize_activation
// CHECK: onnx.DequantizeLinear
func.func @dequantize_activation(%x: tensor<4xui8>) -> tensor<4xf32> {
  %s = onnx.Constant dense<0.5> : tensor<f32>
  %z = onnx.Constant dense<3> : tensor<ui8>
  %0 = onnx.DequantizeLinear %x, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
