// RUN: tcc-opt %s -split-input-file -canonicalize | FileCheck %s

// CHECK-LABEL: func @identity_removed
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: onnx.Identity
// CHECK: return %[[X]]
func.func @identity_removed(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Identity %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @dropout_removed
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: onnx.Dropout
// CHECK: return %[[X]]
func.func @dropout_removed(%x: tensor<4xf32>) -> tensor<4xf32> {
  %none = onnx.NoValue
  %0 = onnx.Dropout %x, %none, %none : (tensor<4xf32>, none, none) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The inference mask is an all-true constant.
// CHECK-LABEL: func @dropout_mask
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: onnx.Dropout
// CHECK: %[[M:.*]] = onnx.Constant dense<true> : tensor<4xi1>
// CHECK: return %[[X]], %[[M]]
func.func @dropout_mask(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) {
  %none = onnx.NoValue
  %0, %1 = onnx.Dropout %x, %none, %none : (tensor<4xf32>, none, none) -> (tensor<4xf32>, tensor<4xi1>)
  return %0, %1 : tensor<4xf32>, tensor<4xi1>
}

// -----

// W' = W * scale / sqrt(var + eps), B' = (B - mean) * scale / sqrt(var + eps) + beta
// with W = 1, B = 1, scale = [2, 4], beta = [1, 0], mean = [1, 3], var = [3, 15],
// eps = 1: s = [1, 1], W' = [1, 1], B' = [1, -2].
// CHECK-LABEL: func @bn_folded_into_conv
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense_resource<bn_folded_weight> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense_resource<bn_folded_bias> : tensor<2xf32>
// CHECK: %[[C:.*]] = onnx.Conv %{{.*}}, %[[W]], %[[B]]
// CHECK-NOT: onnx.BatchNormalization
// CHECK: return %[[C]]
// CHECK: bn_folded_weight: "0x040000000000803F0000803F"
// CHECK: bn_folded_bias: "0x040000000000803F000000C0"
func.func @bn_folded_into_conv(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = onnx.Constant dense<1.0> : tensor<2x1x1x1xf32>
  %b = onnx.Constant dense<1.0> : tensor<2xf32>
  %scale = onnx.Constant dense<[2.0, 4.0]> : tensor<2xf32>
  %beta = onnx.Constant dense<[1.0, 0.0]> : tensor<2xf32>
  %mean = onnx.Constant dense<[1.0, 3.0]> : tensor<2xf32>
  %var = onnx.Constant dense<[3.0, 15.0]> : tensor<2xf32>
  %c = onnx.Conv %x, %w, %b : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = onnx.BatchNormalization %c, %scale, %beta, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// A Conv with a second user keeps its BatchNormalization.
// CHECK-LABEL: func @bn_not_folded_when_shared
// CHECK: onnx.Conv
// CHECK: onnx.BatchNormalization
func.func @bn_not_folded_when_shared(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<2x1x1x1xf32>
  %p = onnx.Constant dense<1.0> : tensor<2xf32>
  %c = onnx.Conv %x, %w, %none : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, none) -> tensor<1x2x4x4xf32>
  %y = onnx.BatchNormalization %c, %p, %p, %p, %p : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y, %c : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// The shape sub-graph of a PyTorch `x.view(x.size(0), -1)` folds to a
// constant shape.
// CHECK-LABEL: func @shape_subgraph_folded
// CHECK-DAG: %[[S:.*]] = onnx.Constant dense<[2, -1]> : tensor<2xi64>
// CHECK-DAG: %[[N:.*]] = onnx.Constant dense<24> : tensor<i64>
// CHECK-NOT: onnx.Shape
// CHECK-NOT: onnx.Gather
// CHECK-NOT: onnx.Unsqueeze
// CHECK-NOT: onnx.Concat
// CHECK: %[[R:.*]] = onnx.Reshape %arg0, %[[S]]
// CHECK: return %[[R]], %[[N]]
func.func @shape_subgraph_folded(%x: tensor<2x3x4xf32>) -> (tensor<2x?xf32>, tensor<i64>) {
  %shape = onnx.Shape %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %zero = onnx.Constant dense<0> : tensor<i64>
  %n = onnx.Gather %shape, %zero : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %axes = onnx.Constant dense<[0]> : tensor<1xi64>
  %n1 = onnx.Unsqueeze %n, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %m1 = onnx.Constant dense<[-1]> : tensor<1xi64>
  %target = onnx.Concat %n1, %m1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = onnx.Reshape %x, %target : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x?xf32>
  %size = onnx.Size %x : (tensor<2x3x4xf32>) -> tensor<i64>
  return %r, %size : tensor<2x?xf32>, tensor<i64>
}

// -----

// Integer arithmetic on shape values (a dialect-wide fallback folder), with
// broadcasting; Slice, Squeeze, Range and ConstantOfShape of constants.
// CHECK-LABEL: func @shape_arith_folded
// CHECK-DAG: onnx.Constant dense<[12, 8]> : tensor<2xi64>
// CHECK-DAG: onnx.Constant dense<[4, 2]> : tensor<2xi64>
// CHECK-DAG: onnx.Constant dense<[4, 6]> : tensor<2xi64>
// CHECK-DAG: onnx.Constant dense<7> : tensor<i64>
// CHECK-DAG: onnx.Constant dense<[0, 3, 6]> : tensor<3xi64>
// CHECK-DAG: onnx.Constant dense<1> : tensor<4x2xi32>
// CHECK-NOT: onnx.{{Mul|Div|Sub|Slice|Squeeze|Range|ConstantOfShape|Shape}}
func.func @shape_arith_folded(%x: tensor<6x4xf32>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<i64>, tensor<3xi64>, tensor<4x2xi32>) {
  %shape = onnx.Shape %x : (tensor<6x4xf32>) -> tensor<2xi64>
  %two = onnx.Constant dense<2> : tensor<i64>
  %mul = onnx.Mul %shape, %two : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %div = onnx.Div %mul, %two : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %sub = onnx.Sub %div, %two : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %none = onnx.NoValue
  %st = onnx.Constant dense<[-1]> : tensor<1xi64>
  %en = onnx.Constant dense<[-10]> : tensor<1xi64>
  %sp = onnx.Constant dense<[-1]> : tensor<1xi64>
  %rev = onnx.Slice %div, %st, %en, %none, %sp : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>, none, tensor<1xi64>) -> tensor<2xi64>
  %c = onnx.Constant dense<[7]> : tensor<1xi64>
  %sq = onnx.Squeeze %c, %none : (tensor<1xi64>, none) -> tensor<i64>
  %lo = onnx.Constant dense<0> : tensor<i64>
  %hi = onnx.Constant dense<8> : tensor<i64>
  %d = onnx.Constant dense<3> : tensor<i64>
  %range = onnx.Range %lo, %hi, %d : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %fill = onnx.ConstantOfShape %sub {value = dense<1> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<4x2xi32>
  return %mul, %sub, %rev, %sq, %range, %fill : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<i64>, tensor<3xi64>, tensor<4x2xi32>
}

// -----

// Shape arithmetic of ONNX function bodies (Attention's GQA test) folds:
// Not, Mod (divisor's sign), And, Where, Max, Less on integer constants.
// CHECK-LABEL: func @fold_int_logic
// CHECK-DAG: %[[W:.*]] = onnx.Constant dense<[3, 1]> : tensor<2xi64>
// CHECK-DAG: %[[M:.*]] = onnx.Constant dense<[1, -1]> : tensor<2xi64>
// CHECK-DAG: %[[X:.*]] = onnx.Constant dense<[4, 5]> : tensor<2xi64>
// CHECK: return %[[W]], %[[M]], %[[X]]
func.func @fold_int_logic() -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) {
  %a = onnx.Constant dense<[4, 5]> : tensor<2xi64>
  %b = onnx.Constant dense<[3, -2]> : tensor<2xi64>
  %eq = "onnx.Equal"(%a, %b) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
  %ne = "onnx.Not"(%eq) : (tensor<2xi1>) -> tensor<2xi1>
  %lt = "onnx.Less"(%b, %a) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
  %and = "onnx.And"(%ne, %lt) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %one = onnx.Constant dense<1> : tensor<1xi64>
  %w = "onnx.Where"(%and, %b, %one) : (tensor<2xi1>, tensor<2xi64>, tensor<1xi64>) -> tensor<2xi64>
  %wb = "onnx.Max"(%w, %one) : (tensor<2xi64>, tensor<1xi64>) -> tensor<2xi64>
  %m = "onnx.Mod"(%a, %b) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %x = "onnx.Max"(%a, %b) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %wb, %m, %x : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>
}

// -----

// A Split of a small integer constant (a shape split into its dims) folds.
// CHECK-LABEL: func @split_constant_folds
// CHECK-DAG: %[[A:.*]] = onnx.Constant dense<[2, 3]> : tensor<2xi64>
// CHECK-DAG: %[[B:.*]] = onnx.Constant dense<5> : tensor<1xi64>
// CHECK: return %[[A]], %[[B]]
func.func @split_constant_folds() -> (tensor<2xi64>, tensor<1xi64>) {
  %s = onnx.Constant dense<[2, 3, 5]> : tensor<3xi64>
  %sizes = onnx.Constant dense<[2, 1]> : tensor<2xi64>
  %0:2 = onnx.Split %s, %sizes : (tensor<3xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<1xi64>)
  return %0#0, %0#1 : tensor<2xi64>, tensor<1xi64>
}

// -----

// Gather indices computed from Range-like constants (as TorchScript exports
// mask[:, None, None, :]): b * 4 + s enumerates the flattened [3, 4] mask in
// order, so the Gather is a Reshape. (Indices too big to fold are
// evaluated all the same: BERT's at sequence 128 and batch 13.)
// CHECK-LABEL: func @gather_of_iota
// CHECK-SAME: (%[[X:.*]]: tensor<12x1xi1>)
// CHECK-NOT: onnx.Gather
// CHECK: %[[SHAPE:.*]] = onnx.Constant dense<[3, 1, 1, 4, 1]> : tensor<5xi64>
// CHECK: %[[R:.*]] = onnx.Reshape %[[X]], %[[SHAPE]]
// CHECK: return %[[R]]
func.func @gather_of_iota(%x: tensor<12x1xi1>) -> tensor<3x1x1x4x1xi1> {
  %rows = onnx.Constant dense<[[[[0]]], [[[4]]], [[[8]]]]> : tensor<3x1x1x1xi64>
  %cols = onnx.Constant dense<[[[[0, 1, 2, 3]]]]> : tensor<1x1x1x4xi64>
  %i = onnx.Add %rows, %cols : (tensor<3x1x1x1xi64>, tensor<1x1x1x4xi64>) -> tensor<3x1x1x4xi64>
  %0 = onnx.Gather %x, %i : (tensor<12x1xi1>, tensor<3x1x1x4xi64>) -> tensor<3x1x1x4x1xi1>
  return %0 : tensor<3x1x1x4x1xi1>
}

// -----

// Indices that skip or repeat an element stay a Gather.
// CHECK-LABEL: func @gather_not_iota
// CHECK: onnx.Gather
func.func @gather_not_iota(%x: tensor<4xf32>) -> tensor<4xf32> {
  %i = onnx.Constant dense<[0, 1, 3, 2]> : tensor<4xi64>
  %0 = onnx.Gather %x, %i : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The dynamo exporter's form: GatherND at (b, s) tuples that Expand,
// Unsqueeze and Concat build from two ranges.
// CHECK-LABEL: func @gathernd_of_iota
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi1>)
// CHECK-NOT: onnx.GatherND
// CHECK: %[[SHAPE:.*]] = onnx.Constant dense<[2, 1, 1, 3]> : tensor<4xi64>
// CHECK: onnx.Reshape %[[X]], %[[SHAPE]]
func.func @gathernd_of_iota(%x: tensor<2x3xi1>) -> tensor<2x1x1x3xi1> {
  %b = onnx.Constant dense<[[[[0]]], [[[1]]]]> : tensor<2x1x1x1xi64>
  %s = onnx.Constant dense<[[[[0, 1, 2]]]]> : tensor<1x1x1x3xi64>
  %shape = onnx.Constant dense<[2, 1, 1, 3]> : tensor<4xi64>
  %axis = onnx.Constant dense<[-1]> : tensor<1xi64>
  %be = onnx.Expand %b, %shape : (tensor<2x1x1x1xi64>, tensor<4xi64>) -> tensor<2x1x1x3xi64>
  %bu = onnx.Unsqueeze %be, %axis : (tensor<2x1x1x3xi64>, tensor<1xi64>) -> tensor<2x1x1x3x1xi64>
  %se = onnx.Expand %s, %shape : (tensor<1x1x1x3xi64>, tensor<4xi64>) -> tensor<2x1x1x3xi64>
  %su = onnx.Unsqueeze %se, %axis : (tensor<2x1x1x3xi64>, tensor<1xi64>) -> tensor<2x1x1x3x1xi64>
  %i = onnx.Concat %bu, %su {axis = -1 : i64} : (tensor<2x1x1x3x1xi64>, tensor<2x1x1x3x1xi64>) -> tensor<2x1x1x3x2xi64>
  %0 = onnx.GatherND %x, %i : (tensor<2x3xi1>, tensor<2x1x1x3x2xi64>) -> tensor<2x1x1x3xi1>
  return %0 : tensor<2x1x1x3xi1>
}

// -----

// NonZero of a constant folds: the indices of the non-zero elements, row by
// row ([[1, 0], [1, 1]] has them at (0, 0), (1, 0), (1, 1)).
// CHECK-LABEL: func @nonzero_folded
// CHECK: %[[C:.*]] = onnx.Constant dense<{{\[\[}}0, 1, 1], [0, 0, 1]]> : tensor<2x3xi64>
// CHECK: return %[[C]]
func.func @nonzero_folded() -> tensor<2x3xi64> {
  %c = onnx.Constant dense<[[1.0, 0.0], [2.0, -0.5]]> : tensor<2x2xf32>
  %0 = onnx.NonZero %c : (tensor<2x2xf32>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// A dilated Conv on a map smaller than its dilation: only the centre tap
// reaches the input, so it becomes a 1x1 Conv without padding. The kept
// weights are w[:, :, 1, 1] (5.0, 14.0).
// CHECK-LABEL: func @conv_taps_in_padding_dropped
// CHECK: %[[W:.*]] = onnx.Constant dense_resource<conv_taps_weight> : tensor<2x1x1x1xf32>
// CHECK: onnx.Conv %{{.*}}, %[[W]], %{{.*}} {dilations = array<i64: 1, 1>, kernel_shape = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>}
// CHECK-SAME: -> tensor<1x2x4x4xf32>
// CHECK: conv_taps_weight: "0x04000000{{0*}}A040{{0*}}6041"
func.func @conv_taps_in_padding_dropped(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = onnx.Constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[10.0, 11.0, 12.0], [13.0, 14.0, 15.0], [16.0, 17.0, 18.0]]]]> : tensor<2x1x3x3xf32>
  %b = onnx.Constant dense<1.0> : tensor<2xf32>
  %c = onnx.Conv %x, %w, %b {dilations = array<i64: 6, 6>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 6, 6, 6, 6>} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %c : tensor<1x2x4x4xf32>
}

// -----

// Along H the first row of the kernel reads only the padding at the start
// (2 rows, none at the end); along W every tap reaches the input. The
// kernel keeps rows 1 and 2, one row of padding stays, the output is
// unchanged.
// CHECK-LABEL: func @conv_leading_taps_dropped
// CHECK: onnx.Conv
// CHECK-SAME: kernel_shape = array<i64: 2, 3>, pads = array<i64: 1, 1, 0, 1>
// CHECK-SAME: (tensor<1x1x2x4xf32>, tensor<1x1x2x3xf32>, none) -> tensor<1x1x2x4xf32>
func.func @conv_leading_taps_dropped(%x: tensor<1x1x2x4xf32>) -> tensor<1x1x2x4xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<1x1x3x3xf32>
  %c = onnx.Conv %x, %w, %none {kernel_shape = array<i64: 3, 3>, pads = array<i64: 2, 1, 0, 1>} : (tensor<1x1x2x4xf32>, tensor<1x1x3x3xf32>, none) -> tensor<1x1x2x4xf32>
  return %c : tensor<1x1x2x4xf32>
}

// -----

// Every tap of an ordinary padded Conv reaches the input: unchanged.
// CHECK-LABEL: func @conv_taps_kept
// CHECK: onnx.Conv
// CHECK-SAME: kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>
func.func @conv_taps_kept(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<1x1x3x3xf32>
  %c = onnx.Conv %x, %w, %none {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, none) -> tensor<1x1x4x4xf32>
  return %c : tensor<1x1x4x4xf32>
}

// -----

// torchvision's multi-head attention: the q, k, v projection, unsqueezed,
// transposed (the 3 outermost), squeezed, then q, k and v gathered. The
// squeeze goes before the transpose, each gather before it; the transpose
// left moves only size-1 dims: reshapes, and no Transpose stays.
// CHECK-LABEL: func @attention_qkv
// CHECK-SAME: (%[[X:.*]]: tensor<5x1x3x8xf32>)
// CHECK-NOT: onnx.Transpose
// CHECK: %[[P:.*]] = onnx.Reshape %{{.*}} : (tensor<1x5x1x3x8xf32>, tensor<4xi64>) -> tensor<5x1x3x8xf32>
// CHECK: %[[Q:.*]] = onnx.Gather %[[P]], %{{.*}} {axis = 2 : i64} : (tensor<5x1x3x8xf32>, tensor<i64>) -> tensor<5x1x8xf32>
// CHECK: %[[V:.*]] = onnx.Gather %[[P]], %{{.*}} {axis = 2 : i64} : (tensor<5x1x3x8xf32>, tensor<i64>) -> tensor<5x1x8xf32>
// CHECK-NOT: onnx.Transpose
// CHECK: return %[[Q]], %[[V]]
func.func @attention_qkv(%x: tensor<5x1x3x8xf32>) -> (tensor<5x1x8xf32>, tensor<5x1x8xf32>) {
  %zero = onnx.Constant dense<0> : tensor<1xi64>
  %three = onnx.Constant dense<3> : tensor<1xi64>
  %i0 = onnx.Constant dense<0> : tensor<i64>
  %i2 = onnx.Constant dense<-1> : tensor<i64>
  %0 = onnx.Unsqueeze %x, %zero : (tensor<5x1x3x8xf32>, tensor<1xi64>) -> tensor<1x5x1x3x8xf32>
  %1 = onnx.Transpose %0 {perm = array<i64: 3, 1, 2, 0, 4>} : (tensor<1x5x1x3x8xf32>) -> tensor<3x5x1x1x8xf32>
  %2 = onnx.Squeeze %1, %three : (tensor<3x5x1x1x8xf32>, tensor<1xi64>) -> tensor<3x5x1x8xf32>
  %q = onnx.Gather %2, %i0 {axis = 0 : i64} : (tensor<3x5x1x8xf32>, tensor<i64>) -> tensor<5x1x8xf32>
  %v = onnx.Gather %2, %i2 {axis = 0 : i64} : (tensor<3x5x1x8xf32>, tensor<i64>) -> tensor<5x1x8xf32>
  return %q, %v : tensor<5x1x8xf32>, tensor<5x1x8xf32>
}

// -----

// A transpose of only size-1 dims is a reshape; one of larger dims stays.
// CHECK-LABEL: func @transpose_unit_dims
// CHECK: onnx.Reshape %arg0
// CHECK: onnx.Transpose %arg0 {perm = array<i64: 2, 1, 0>}
func.func @transpose_unit_dims(%x: tensor<4x1x3xf32>) -> (tensor<1x4x3xf32>, tensor<3x1x4xf32>) {
  %0 = onnx.Transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<4x1x3xf32>) -> tensor<1x4x3xf32>
  %1 = onnx.Transpose %x {perm = array<i64: 2, 1, 0>} : (tensor<4x1x3xf32>) -> tensor<3x1x4xf32>
  return %0, %1 : tensor<1x4x3xf32>, tensor<3x1x4xf32>
}

// -----

// Gathers stay after a transpose that would still move dims of size > 1,
// or that has another user; a transpose left with its dims in order goes.
// CHECK-LABEL: func @gather_transpose_kept
// CHECK: %[[T:.*]] = onnx.Transpose %arg0 {perm = array<i64: 2, 1, 0>}
// CHECK: onnx.Gather %[[T]]
// CHECK: %[[U:.*]] = onnx.Transpose %arg1 {perm = array<i64: 1, 0>}
// CHECK: onnx.Gather %[[U]]
// CHECK: %[[G:.*]] = onnx.Gather %arg0, %{{.*}} {axis = 2 : i64} : (tensor<4x5x3xf32>, tensor<i64>) -> tensor<4x5xf32>
// CHECK: return %{{.*}}, %{{.*}}, %[[U]], %[[G]]
func.func @gather_transpose_kept(%x: tensor<4x5x3xf32>, %y: tensor<4x3xf32>) -> (tensor<5x4xf32>, tensor<4xf32>, tensor<3x4xf32>, tensor<4x5xf32>) {
  %i = onnx.Constant dense<1> : tensor<i64>
  %0 = onnx.Transpose %x {perm = array<i64: 2, 1, 0>} : (tensor<4x5x3xf32>) -> tensor<3x5x4xf32>
  %1 = onnx.Gather %0, %i {axis = 0 : i64} : (tensor<3x5x4xf32>, tensor<i64>) -> tensor<5x4xf32>
  %2 = onnx.Transpose %y {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %3 = onnx.Gather %2, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<i64>) -> tensor<4xf32>
  %4 = onnx.Transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<4x5x3xf32>) -> tensor<3x4x5xf32>
  %5 = onnx.Gather %4, %i {axis = 0 : i64} : (tensor<3x4x5xf32>, tensor<i64>) -> tensor<4x5xf32>
  return %1, %3, %2, %5 : tensor<5x4xf32>, tensor<4xf32>, tensor<3x4xf32>, tensor<4x5xf32>
}

// -----

// Reductions of small constants fold, as in a detector's transform (the
// largest image size of a batch, reduced in its shape sub-graph): ReduceMax
// and ReduceMin of floats (NaN wins), all four of integers, over given axes
// or all of them.
// CHECK-LABEL: func @reduce_constants
// CHECK-DAG: onnx.Constant dense<3.200000e+02> : tensor<f32>
// CHECK-DAG: onnx.Constant dense<0x7FC00000> : tensor<1xf32>
// CHECK-DAG: onnx.Constant dense<[1, 4]> : tensor<2xi64>
// CHECK-DAG: onnx.Constant dense<{{\[\[}}5, 7, 9]]> : tensor<1x3xi64>
// CHECK-DAG: onnx.Constant dense<720> : tensor<i64>
// CHECK-NOT: onnx.Reduce
func.func @reduce_constants() -> (tensor<f32>, tensor<1xf32>, tensor<2xi64>, tensor<1x3xi64>, tensor<i64>) {
  %none = onnx.NoValue
  %sizes = onnx.Constant dense<[3.0, 320.0, 224.0]> : tensor<3xf32>
  %nan = onnx.Constant dense<[[1.0, 0x7FC00000]]> : tensor<1x2xf32>
  %ints = onnx.Constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %six = onnx.Constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>
  %axis1 = onnx.Constant dense<1> : tensor<1xi64>
  %axis0 = onnx.Constant dense<0> : tensor<1xi64>
  %0 = onnx.ReduceMax %sizes, %none {keepdims = 0 : i64} : (tensor<3xf32>, none) -> tensor<f32>
  %1 = onnx.ReduceMin %nan, %axis1 {keepdims = 0 : i64} : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<1xf32>
  %2 = onnx.ReduceMin %ints, %axis1 {keepdims = 0 : i64} : (tensor<2x3xi64>, tensor<1xi64>) -> tensor<2xi64>
  %3 = onnx.ReduceSum %ints, %axis0 : (tensor<2x3xi64>, tensor<1xi64>) -> tensor<1x3xi64>
  %4 = onnx.ReduceProd %six, %none {keepdims = 0 : i64} : (tensor<6xi64>, none) -> tensor<i64>
  return %0, %1, %2, %3, %4 : tensor<f32>, tensor<1xf32>, tensor<2xi64>, tensor<1x3xi64>, tensor<i64>
}

// -----

// A float ReduceSum stays (its rounding depends on the order), and so does
// a reduction with noop_with_empty_axes and no axes (an Identity).
// CHECK-LABEL: func @reduce_constants_kept
// CHECK: onnx.ReduceSum
// CHECK: onnx.ReduceMax
func.func @reduce_constants_kept() -> (tensor<f32>, tensor<3xi64>) {
  %none = onnx.NoValue
  %f = onnx.Constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
  %i = onnx.Constant dense<[1, 2, 3]> : tensor<3xi64>
  %0 = onnx.ReduceSum %f, %none {keepdims = 0 : i64} : (tensor<3xf32>, none) -> tensor<f32>
  %1 = onnx.ReduceMax %i, %none {noop_with_empty_axes = 1 : i64} : (tensor<3xi64>, none) -> tensor<3xi64>
  return %0, %1 : tensor<f32>, tensor<3xi64>
}
