// RUN: tcc-opt %s | tcc-opt | FileCheck %s

// CHECK-LABEL: func @all_ops
func.func @all_ops(%x: tensor<1x3x8x8xf32>, %v: tensor<8xf32>, %m: tensor<2x8xf32>) -> tensor<1x3x8x8xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<3x3x3x3xf32>
  // CHECK: onnx.Conv %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 1, 1, 1, 1>}
  %c = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>, none) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.NhwcConv %{{.*}}, %{{.*}}, %{{.*}} {group = 3 : i64, pads = array<i64: 1, 1, 1, 1>}
  %wd = onnx.Constant dense<1.0> : tensor<3x1x3x3xf32>
  %xt = onnx.Transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
  %nc = onnx.NhwcConv %xt, %wd, %none {group = 3, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x1x3x3xf32>, none) -> tensor<1x8x8x3xf32>
  // CHECK: onnx.ConvTranspose {{.*}}strides = array<i64: 2, 2>
  %ct = onnx.ConvTranspose %x, %w, %none {strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>, none) -> tensor<1x3x17x17xf32>
  %sc = onnx.Constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  // CHECK: onnx.Resize {{.*}}mode = "linear"
  %rz = onnx.Resize %x, %none, %sc, %none {mode = "linear"} : (tensor<1x3x8x8xf32>, none, tensor<4xf32>, none) -> tensor<1x3x16x16xf32>
  %qs = onnx.Constant dense<0.5> : tensor<f32>
  %qz = onnx.Constant dense<3> : tensor<ui8>
  // CHECK: onnx.QuantizeLinear {{.*}} -> tensor<1x3x8x8xui8>
  %qx = onnx.QuantizeLinear %x, %qs, %qz : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xui8>
  // CHECK: onnx.DequantizeLinear
  %dq = onnx.DequantizeLinear %qx, %qs, %qz : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Relu
  %r = onnx.Relu %c : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Sigmoid
  %s = onnx.Sigmoid %r : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Add
  %a = onnx.Add %s, %r : (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Sub
  %b = onnx.Sub %a, %v : (tensor<1x3x8x8xf32>, tensor<8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Mul
  %d = onnx.Mul %b, %v : (tensor<1x3x8x8xf32>, tensor<8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Div
  %e = onnx.Div %d, %v : (tensor<1x3x8x8xf32>, tensor<8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Clip
  %f = onnx.Clip %e, %none, %none : (tensor<1x3x8x8xf32>, none, none) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.MaxPool {{.*}}kernel_shape = array<i64: 2, 2>
  %p = onnx.MaxPool %f {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  // CHECK: onnx.AveragePool
  %q = onnx.AveragePool %f {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: onnx.NhwcMaxPool %{{.*}} {kernel_shape = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x7x7x3xf32>
  %np = onnx.NhwcMaxPool %xt {kernel_shape = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x7x7x3xf32>
  // CHECK: onnx.NhwcAveragePool %{{.*}} {count_include_pad = 1 : i64, kernel_shape = array<i64: 2, 2>
  %nq = onnx.NhwcAveragePool %xt {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad = 1} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  // CHECK: onnx.GlobalAveragePool
  %g = onnx.GlobalAveragePool %q : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32>
  %ch = onnx.Constant dense<1.0> : tensor<3xf32>
  // CHECK: onnx.BatchNormalization {{.*}}epsilon = 1.000000e-03
  %bn = onnx.BatchNormalization %f, %ch, %ch, %ch, %ch {epsilon = 1.0e-3 : f32} : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Flatten
  %fl = onnx.Flatten %g : (tensor<1x3x1x1xf32>) -> tensor<1x3xf32>
  // CHECK: onnx.Gemm {{.*}}transB = 1
  %wt = onnx.Constant dense<1.0> : tensor<8x3xf32>
  %gm = onnx.Gemm %fl, %wt, %v {transB = 1} : (tensor<1x3xf32>, tensor<8x3xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  // CHECK: onnx.MatMul
  %mm = onnx.MatMul %gm, %v : (tensor<1x8xf32>, tensor<8xf32>) -> tensor<1xf32>
  // CHECK: onnx.Softmax {{.*}}axis = 1
  %sm = onnx.Softmax %m {axis = 1} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: onnx.Transpose {{.*}}perm = array<i64: 1, 0>
  %t = onnx.Transpose %sm {perm = array<i64: 1, 0>} : (tensor<2x8xf32>) -> tensor<8x2xf32>
  %shape = onnx.Constant dense<[4, -1]> : tensor<2xi64>
  // CHECK: onnx.Reshape
  %rs = onnx.Reshape %t, %shape : (tensor<8x2xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  // CHECK: onnx.Concat {{.*}}axis = 0
  %cc = onnx.Concat %rs, %rs {axis = 0} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  // CHECK: onnx.Identity
  %id = onnx.Identity %bn : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: onnx.Dropout
  %dr = onnx.Dropout %id, %none, %none : (tensor<1x3x8x8xf32>, none, none) -> tensor<1x3x8x8xf32>
  return %dr : tensor<1x3x8x8xf32>
}

// CHECK-LABEL: func @elementwise_ops
func.func @elementwise_ops(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %i: tensor<2x3xi32>, %u: tensor<3xui8>, %c: tensor<2x3xi1>) {
  // CHECK: onnx.Mod {{.*}} {fmod = 1 : i64}
  %0 = onnx.Mod %x, %y {fmod = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Pow {{.*}} : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  %1 = onnx.Pow %x, %i : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  // CHECK: onnx.And
  %2 = onnx.And %c, %c : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Or
  %3 = onnx.Or %c, %c : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Xor
  %4 = onnx.Xor %c, %c : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.Not
  %5 = onnx.Not %c : (tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: onnx.BitwiseAnd
  %6 = onnx.BitwiseAnd %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: onnx.BitwiseOr
  %7 = onnx.BitwiseOr %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: onnx.BitwiseXor
  %8 = onnx.BitwiseXor %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: onnx.BitwiseNot
  %9 = onnx.BitwiseNot %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: onnx.BitShift {{.*}} {direction = "LEFT"}
  %10 = onnx.BitShift %u, %u {direction = "LEFT"} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  // CHECK: onnx.Equal
  %11 = onnx.Equal %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.Less
  %12 = onnx.Less %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.LessOrEqual
  %13 = onnx.LessOrEqual %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.Greater
  %14 = onnx.Greater %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.GreaterOrEqual
  %15 = onnx.GreaterOrEqual %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.Where
  %16 = onnx.Where %c, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Max {{.*}} : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %17 = onnx.Max %x, %y, %x : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Min
  %18 = onnx.Min %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sum
  %19 = onnx.Sum %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Mean
  %20 = onnx.Mean %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Cast {{.*}} {to = 7 : i64}
  %21 = onnx.Cast %x {to = 7 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
  // CHECK: onnx.CastLike
  %22 = onnx.CastLike %x, %u : (tensor<2x3xf32>, tensor<3xui8>) -> tensor<2x3xui8>
  // CHECK: onnx.PRelu
  %23 = onnx.PRelu %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.IsNaN
  %24 = onnx.IsNaN %x : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.IsInf {{.*}} {detect_negative = 0 : i64}
  %25 = onnx.IsInf %x {detect_negative = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: onnx.Neg
  %26 = onnx.Neg %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: onnx.Abs
  %27 = onnx.Abs %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: onnx.Sign
  %28 = onnx.Sign %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sqrt
  %m0 = onnx.Sqrt %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Exp
  %m1 = onnx.Exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Log
  %m2 = onnx.Log %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Reciprocal
  %m3 = onnx.Reciprocal %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Floor
  %m4 = onnx.Floor %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Ceil
  %m5 = onnx.Ceil %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Round
  %m6 = onnx.Round %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Erf
  %m7 = onnx.Erf %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Tanh
  %m8 = onnx.Tanh %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sin
  %m9 = onnx.Sin %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Cos
  %m10 = onnx.Cos %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Tan
  %m11 = onnx.Tan %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Asin
  %m12 = onnx.Asin %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Acos
  %m13 = onnx.Acos %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Atan
  %m14 = onnx.Atan %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Sinh
  %m15 = onnx.Sinh %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Cosh
  %m16 = onnx.Cosh %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Asinh
  %m17 = onnx.Asinh %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Acosh
  %m18 = onnx.Acosh %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Atanh
  %m19 = onnx.Atanh %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Softplus
  %a0 = onnx.Softplus %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Softsign
  %a1 = onnx.Softsign %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Mish
  %a2 = onnx.Mish %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.HardSwish
  %a3 = onnx.HardSwish %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.LeakyRelu {{.*}} {alpha = 1.000000e-01 : f32}
  %a4 = onnx.LeakyRelu %x {alpha = 0.1 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Elu
  %a5 = onnx.Elu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Selu
  %a6 = onnx.Selu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Celu
  %a7 = onnx.Celu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.HardSigmoid
  %a8 = onnx.HardSigmoid %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.ThresholdedRelu
  %a9 = onnx.ThresholdedRelu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Gelu {{.*}} {approximate = "tanh"}
  %a10 = onnx.Gelu %x {approximate = "tanh"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Shrink {{.*}} {bias = 1.500000e+00 : f32, lambd = 1.500000e+00 : f32}
  %a11 = onnx.Shrink %x {bias = 1.5 : f32, lambd = 1.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x1x4xf32> {
  %none = onnx.NoValue
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  // CHECK: onnx.ReduceSum %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  %0 = onnx.ReduceSum %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ReduceMax {{.*}}keepdims = 0
  %1 = onnx.ReduceMax %i, %none {keepdims = 0} : (tensor<2x3xi32>, none) -> tensor<i32>
  // CHECK: onnx.ReduceMin {{.*}}noop_with_empty_axes = 1
  %2 = onnx.ReduceMin %x, %none {noop_with_empty_axes = 1} : (tensor<2x3x4xf32>, none) -> tensor<2x3x4xf32>
  // CHECK: onnx.ReduceMean
  %3 = onnx.ReduceMean %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ReduceProd
  %4 = onnx.ReduceProd %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ReduceL1
  %5 = onnx.ReduceL1 %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ReduceL2
  %6 = onnx.ReduceL2 %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ReduceLogSum %
  %7 = onnx.ReduceLogSum %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ReduceLogSumExp
  %8 = onnx.ReduceLogSumExp %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ReduceSumSquare
  %9 = onnx.ReduceSumSquare %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ArgMax {{.*}}axis = 1{{.*}}select_last_index = 1
  %10 = onnx.ArgMax %x {axis = 1, select_last_index = 1} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  // CHECK: onnx.ArgMin {{.*}}keepdims = 0
  %11 = onnx.ArgMin %x {keepdims = 0} : (tensor<2x3x4xf32>) -> tensor<3x4xi64>
  %k = onnx.Constant dense<[2]> : tensor<1xi64>
  // CHECK: onnx.TopK {{.*}}largest = 0
  %12:2 = onnx.TopK %x, %k {largest = 0} : (tensor<2x3x4xf32>, tensor<1xi64>) -> (tensor<2x3x2xf32>, tensor<2x3x2xi64>)
  %ax = onnx.Constant dense<1> : tensor<i32>
  // CHECK: onnx.CumSum {{.*}}exclusive = 1{{.*}}reverse = 1
  %13 = onnx.CumSum %x, %ax {exclusive = 1, reverse = 1} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// CHECK-LABEL: func @normalizations
func.func @normalizations(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>, %c: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %none = onnx.NoValue
  // CHECK: onnx.LogSoftmax {{.*}}axis = 1
  %0 = onnx.LogSoftmax %x {axis = 1} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.Hardmax
  %1 = onnx.Hardmax %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.LayerNormalization {{.*}}epsilon = 1.000000e-03
  %2:3 = onnx.LayerNormalization %x, %s, %none {epsilon = 1.0e-3 : f32} : (tensor<2x3x4xf32>, tensor<4xf32>, none) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  // CHECK: onnx.RMSNormalization {{.*}}axis = 1
  %rms = onnx.RMSNormalization %x, %s {axis = 1, epsilon = 1.0e-3 : f32} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.InstanceNormalization
  %3 = onnx.InstanceNormalization %x, %c, %c : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.GroupNormalization {{.*}}num_groups = 3
  %4 = onnx.GroupNormalization %x, %c, %c {num_groups = 3} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.MeanVarianceNormalization {{.*}}axes = array<i64: 0, 2>
  %5 = onnx.MeanVarianceNormalization %x {axes = array<i64: 0, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.LRN {{.*}}size = 3
  %6 = onnx.LRN %x {size = 3} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: onnx.GlobalMaxPool
  %7 = onnx.GlobalMaxPool %x : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  return %3 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func @shape_and_data_movement_ops
func.func @shape_and_data_movement_ops(%x: tensor<2x1x4xf32>, %i: tensor<3xi64>) -> tensor<6x4xf32> {
  %none = onnx.NoValue
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  // CHECK: onnx.Shape %{{.*}} {end = 2 : i64, start = -3 : i64}
  %shape = onnx.Shape %x {start = -3 : i64, end = 2 : i64} : (tensor<2x1x4xf32>) -> tensor<2xi64>
  // CHECK: onnx.Size
  %size = onnx.Size %x : (tensor<2x1x4xf32>) -> tensor<i64>
  // CHECK: onnx.Squeeze %{{.*}}, %{{.*}} :
  %sq = onnx.Squeeze %x, %axes : (tensor<2x1x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
  // CHECK: onnx.Squeeze %{{.*}}, %{{.*}} : (tensor<2x1x4xf32>, none)
  %sq2 = onnx.Squeeze %x, %none : (tensor<2x1x4xf32>, none) -> tensor<2x4xf32>
  // CHECK: onnx.Unsqueeze
  %un = onnx.Unsqueeze %sq, %axes : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  // CHECK: onnx.ConstantOfShape %{{.*}} {value = dense<1> : tensor<1xi32>}
  %cos = onnx.ConstantOfShape %shape {value = dense<1> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<2x1xi32>
  %s0 = onnx.Constant dense<0> : tensor<i64>
  %s1 = onnx.Constant dense<6> : tensor<i64>
  %s2 = onnx.Constant dense<2> : tensor<i64>
  // CHECK: onnx.Range
  %range = onnx.Range %s0, %s1, %s2 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %target = onnx.Constant dense<[3, 2, 1, 4]> : tensor<4xi64>
  // CHECK: onnx.Expand
  %ex = onnx.Expand %un, %target : (tensor<2x1x4xf32>, tensor<4xi64>) -> tensor<3x2x1x4xf32>
  %reps = onnx.Constant dense<[3, 1]> : tensor<2xi64>
  // CHECK: onnx.Tile
  %tile = onnx.Tile %sq2, %reps : (tensor<2x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  // CHECK: onnx.Gather %{{.*}}, %{{.*}} {axis = 1 : i64}
  %g = onnx.Gather %tile, %i {axis = 1 : i64} : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<6x3xf32>
  %st = onnx.Constant dense<[0]> : tensor<1xi64>
  %en = onnx.Constant dense<[2]> : tensor<1xi64>
  // CHECK: onnx.Slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :
  %sl = onnx.Slice %g, %st, %en, %axes, %none : (tensor<6x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<6x2xf32>
  return %tile : tensor<6x4xf32>
}

// CHECK-LABEL: func @indexing_and_rearrange_ops
func.func @indexing_and_rearrange_ops(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>, %q: tensor<2x1xi64>, %img: tensor<1x8x2x2xf32>) -> tensor<2x3xf32> {
  %none = onnx.NoValue
  // CHECK: onnx.GatherElements %{{.*}}, %{{.*}} {axis = 1 : i64}
  %ge = onnx.GatherElements %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  // CHECK: onnx.GatherND
  %gn = onnx.GatherND %x, %q : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>
  // CHECK: onnx.ScatterElements %{{.*}}, %{{.*}}, %{{.*}} {reduction = "add"}
  %se = onnx.ScatterElements %x, %i, %ge {reduction = "add"} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Scatter %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64}
  %sc = onnx.Scatter %x, %i, %ge {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.ScatterND
  %sn = onnx.ScatterND %x, %q, %gn : (tensor<2x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %depth = onnx.Constant dense<4> : tensor<i64>
  %vals = onnx.Constant dense<[0.0, 1.0]> : tensor<2xf32>
  // CHECK: onnx.OneHot
  %oh = onnx.OneHot %i, %depth, %vals {axis = 1 : i64} : (tensor<2x3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<2x4x3xf32>
  // CHECK: onnx.NonZero %{{.*}} : (tensor<2x3xf32>) -> tensor<2x?xi64>
  %nz = onnx.NonZero %x : (tensor<2x3xf32>) -> tensor<2x?xi64>
  // CHECK: onnx.Trilu %{{.*}}, %{{.*}} {upper = 0 : i64}
  %tr = onnx.Trilu %x, %none {upper = 0 : i64} : (tensor<2x3xf32>, none) -> tensor<2x3xf32>
  // CHECK: onnx.EyeLike %{{.*}} {dtype = 7 : i64, k = 1 : i64}
  %eye = onnx.EyeLike %x {dtype = 7 : i64, k = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
  // CHECK: onnx.Split %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3xf32>, none) -> (tensor<2x2xf32>, tensor<2x1xf32>)
  %s:2 = onnx.Split %x, %none {axis = 1 : i64} : (tensor<2x3xf32>, none) -> (tensor<2x2xf32>, tensor<2x1xf32>)
  %pads = onnx.Constant dense<[0, 1, 0, 1]> : tensor<4xi64>
  // CHECK: onnx.Pad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {mode = "reflect"}
  %p = onnx.Pad %x, %pads, %none, %none {mode = "reflect"} : (tensor<2x3xf32>, tensor<4xi64>, none, none) -> tensor<2x5xf32>
  // CHECK: onnx.DepthToSpace %{{.*}} {blocksize = 2 : i64, mode = "CRD"}
  %d2s = onnx.DepthToSpace %img {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
  // CHECK: onnx.SpaceToDepth %{{.*}} {blocksize = 2 : i64}
  %s2d = onnx.SpaceToDepth %d2s {blocksize = 2 : i64} : (tensor<1x2x4x4xf32>) -> tensor<1x8x2x2xf32>
  return %tr : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @misc_ops
func.func @misc_ops(%x: tensor<2x3xf32>, %img: tensor<1x1x4x4xf32>, %axis: tensor<i64>) -> tensor<2x3xi32> {
  // CHECK: onnx.CumProd %{{.*}}, %{{.*}} {exclusive = 1 : i64}
  %cp = onnx.CumProd %x, %axis {exclusive = 1 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  // CHECK: onnx.LpPool %{{.*}} {kernel_shape = array<i64: 2, 2>, p = 3 : i64}
  %lp = onnx.LpPool %img {kernel_shape = array<i64: 2, 2>, p = 3 : i64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  // CHECK: onnx.LpNormalization %{{.*}} {axis = 0 : i64, p = 1 : i64}
  %ln = onnx.LpNormalization %x {axis = 0 : i64, p = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Swish %{{.*}} {alpha = 5.000000e-01 : f32}
  %sw = onnx.Swish %x {alpha = 0.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.SwiGLU %{{.*}}, %{{.*}} :
  %sg = onnx.SwiGLU %sw, %ln : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.Einsum %{{.*}}, %{{.*}} {equation = "ij,ij->ij"}
  %e = onnx.Einsum %sg, %cp {equation = "ij,ij->ij"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: onnx.BitCast %{{.*}} {to = 6 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %bc = onnx.BitCast %e {to = 6 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  return %bc : tensor<2x3xi32>
}

// CHECK-LABEL: func @attention_ops
func.func @attention_ops(%q: tensor<2x4x24xf32>, %kv: tensor<2x6x24xf32>, %mask: tensor<4x18xi1>, %past: tensor<2x3x12x8xf32>) -> tensor<2x4x24xf32> {
  %none = onnx.NoValue
  // CHECK: onnx.Attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {is_causal = 1 : i64, kv_num_heads = 3 : i64, q_num_heads = 3 : i64, qk_matmul_output_mode = 2 : i64, scale = 1.250000e-01 : f32, softcap = 2.000000e+00 : f32}
  // CHECK-SAME: -> (tensor<2x4x24xf32>, tensor<2x3x18x8xf32>, tensor<2x3x18x8xf32>, tensor<2x3x4x18xf32>)
  %y:4 = onnx.Attention %q, %kv, %kv, %mask, %past, %past, %none {is_causal = 1 : i64, kv_num_heads = 3 : i64, q_num_heads = 3 : i64, qk_matmul_output_mode = 2 : i64, scale = 0.125 : f32, softcap = 2.0 : f32} : (tensor<2x4x24xf32>, tensor<2x6x24xf32>, tensor<2x6x24xf32>, tensor<4x18xi1>, tensor<2x3x12x8xf32>, tensor<2x3x12x8xf32>, none) -> (tensor<2x4x24xf32>, tensor<2x3x18x8xf32>, tensor<2x3x18x8xf32>, tensor<2x3x4x18xf32>)
  return %y#0 : tensor<2x4x24xf32>
}

// CHECK-LABEL: func @losses
func.func @losses(%x: tensor<3x5x2xf32>, %t: tensor<3x2xi64>, %w: tensor<5xf32>) -> tensor<f32> {
  %none = onnx.NoValue
  // CHECK: onnx.NegativeLogLikelihoodLoss %{{.*}}, %{{.*}}, %{{.*}} {ignore_index = -1 : i64, reduction = "sum"}
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %w {ignore_index = -1 : i64, reduction = "sum"} : (tensor<3x5x2xf32>, tensor<3x2xi64>, tensor<5xf32>) -> tensor<f32>
  // CHECK: onnx.NegativeLogLikelihoodLoss %{{.*}}, %{{.*}}, %{{.*}} :
  %1 = onnx.NegativeLogLikelihoodLoss %x, %t, %none : (tensor<3x5x2xf32>, tensor<3x2xi64>, none) -> tensor<f32>
  // CHECK: onnx.SoftmaxCrossEntropyLoss {{.*}}reduction = "none"{{.*}} -> (tensor<3x2xf32>, tensor<3x5x2xf32>)
  %2:2 = onnx.SoftmaxCrossEntropyLoss %x, %t, %none {reduction = "none"} : (tensor<3x5x2xf32>, tensor<3x2xi64>, none) -> (tensor<3x2xf32>, tensor<3x5x2xf32>)
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @recurrent_ops
func.func @recurrent_ops(%x: tensor<3x2x4xf32>, %w1: tensor<1x5x4xf32>, %r1: tensor<1x5x5xf32>, %w3: tensor<2x15x4xf32>, %r3: tensor<2x15x5xf32>, %w4: tensor<1x20x4xf32>, %r4: tensor<1x20x5xf32>, %lens: tensor<2xi32>) {
  %none = onnx.NoValue
  // CHECK: onnx.RNN {{.*}}hidden_size = 5 : i64
  %rnn:2 = onnx.RNN %x, %w1, %r1, %none, %none, %none {hidden_size = 5 : i64, activations = ["Relu"]} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, none) -> (tensor<3x1x2x5xf32>, tensor<1x2x5xf32>)
  // CHECK: onnx.GRU {{.*}}direction = "bidirectional"{{.*}}linear_before_reset = 1 : i64
  %gru:2 = onnx.GRU %x, %w3, %r3, %none, %lens, %none {direction = "bidirectional", linear_before_reset = 1 : i64} : (tensor<3x2x4xf32>, tensor<2x15x4xf32>, tensor<2x15x5xf32>, none, tensor<2xi32>, none) -> (tensor<3x2x2x5xf32>, tensor<2x2x5xf32>)
  // CHECK: onnx.LSTM {{.*}}clip = 3.000000e+00 : f32{{.*}}layout = 1 : i64
  %lstm:3 = onnx.LSTM %x, %w4, %r4, %none, %none, %none, %none, %none {clip = 3.0 : f32, layout = 1 : i64} : (tensor<3x2x4xf32>, tensor<1x20x4xf32>, tensor<1x20x5xf32>, none, none, none, none, none) -> (tensor<3x2x1x5xf32>, tensor<3x1x5xf32>, tensor<3x1x5xf32>)
  return
}

// CHECK-LABEL: func @grid_ops
func.func @grid_ops(%x: tensor<1x3x4x4xf32>, %theta: tensor<1x2x3xf32>) -> tensor<1x3x5x6xf32> {
  %size = onnx.Constant dense<[1, 3, 5, 6]> : tensor<4xi64>
  // CHECK: onnx.AffineGrid %{{.*}}, %{{.*}} {align_corners = 1 : i64}
  %g = onnx.AffineGrid %theta, %size {align_corners = 1 : i64} : (tensor<1x2x3xf32>, tensor<4xi64>) -> tensor<1x5x6x2xf32>
  // CHECK: onnx.GridSample %{{.*}}, %{{.*}} {mode = "cubic", padding_mode = "reflection"}
  %y = onnx.GridSample %x, %g {mode = "cubic", padding_mode = "reflection"} : (tensor<1x3x4x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x3x5x6xf32>
  return %y : tensor<1x3x5x6xf32>
}
// -----
// CHECK-LABEL: func @rotary_embedding_ops
func.func @rotary_embedding_ops(%x: tensor<2x3x32xf32>, %cache: tensor<50x2xf32>, %pos: tensor<2x3xi64>) -> tensor<2x3x32xf32> {
  // CHECK: onnx.RotaryEmbedding %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {interleaved = 1 : i64, num_heads = 4 : i64, rotary_embedding_dim = 4 : i64} : (tensor<2x3x32xf32>, tensor<50x2xf32>, tensor<50x2xf32>, tensor<2x3xi64>) -> tensor<2x3x32xf32>
  %0 = onnx.RotaryEmbedding %x, %cache, %cache, %pos {interleaved = 1 : i64, num_heads = 4 : i64, rotary_embedding_dim = 4 : i64} : (tensor<2x3x32xf32>, tensor<50x2xf32>, tensor<50x2xf32>, tensor<2x3xi64>) -> tensor<2x3x32xf32>
  return %0 : tensor<2x3x32xf32>
}
// -----
// CHECK-LABEL: func @signal_ops
func.func @signal_ops(%x: tensor<1x10x10x1xf32>, %s: tensor<1x128x1xf32>, %w: tensor<16xf32>) -> tensor<1x6x10x2xf32> {
  %none = onnx.NoValue
  %axis = onnx.Constant dense<1> : tensor<i64>
  %step = onnx.Constant dense<8> : tensor<i64>
  // CHECK: onnx.DFT %{{.*}}, %{{.*}}, %{{.*}} {onesided = 1 : i64} : (tensor<1x10x10x1xf32>, none, tensor<i64>) -> tensor<1x6x10x2xf32>
  %0 = onnx.DFT %x, %none, %axis {onesided = 1 : i64} : (tensor<1x10x10x1xf32>, none, tensor<i64>) -> tensor<1x6x10x2xf32>
  // CHECK: onnx.STFT %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>, none) -> tensor<1x15x9x2xf32>
  %1 = onnx.STFT %s, %step, %w, %none : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>, none) -> tensor<1x15x9x2xf32>
  return %0 : tensor<1x6x10x2xf32>
}
// -----
// CHECK-LABEL: func @quantized_ops
func.func @quantized_ops(%a: tensor<2x2x4xi8>, %b: tensor<2x4x3xi8>, %s: tensor<1xf16>, %z: tensor<1xi8>,
                         %x: tensor<1x1x5x5xui8>, %w: tensor<2x1x2x2xui8>, %xs: tensor<f32>, %xz: tensor<ui8>,
                         %ws: tensor<2xf32>, %wz: tensor<2xui8>, %bias: tensor<2xi32>, %f: tensor<6xf32>) -> tensor<2x2x3xi8> {
  %none = onnx.NoValue
  // CHECK: onnx.QLinearMatMul {{.*}} -> tensor<2x2x3xi8>
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s, %z, %s, %z : (tensor<2x2x4xi8>, tensor<1xf16>, tensor<1xi8>, tensor<2x4x3xi8>, tensor<1xf16>, tensor<1xi8>, tensor<1xf16>, tensor<1xi8>) -> tensor<2x2x3xi8>
  // CHECK: onnx.ConvInteger {{.*}} {pads = array<i64: 1, 1, 1, 1>} {{.*}} -> tensor<1x2x6x6xi32>
  %1 = onnx.ConvInteger %x, %w, %xz, %wz {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x5xui8>, tensor<2x1x2x2xui8>, tensor<ui8>, tensor<2xui8>) -> tensor<1x2x6x6xi32>
  // CHECK: onnx.QLinearConv {{.*}} -> tensor<1x2x4x4xui8>
  %2 = onnx.QLinearConv %x, %xs, %xz, %w, %ws, %wz, %xs, %xz, %bias : (tensor<1x1x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<2x1x2x2xui8>, tensor<2xf32>, tensor<2xui8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x2x4x4xui8>
  // CHECK: onnx.DynamicQuantizeLinear {{.*}} -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
  %3:3 = onnx.DynamicQuantizeLinear %f : (tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
  return %0 : tensor<2x2x3xi8>
}
