// RUN: tcc-opt %s | tcc-opt | FileCheck %s

// CHECK-LABEL: func @all_ops
func.func @all_ops(%x: tensor<1x3x8x8xf32>, %v: tensor<8xf32>, %m: tensor<2x8xf32>) -> tensor<1x3x8x8xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<3x3x3x3xf32>
  // CHECK: onnx.Conv %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 1, 1, 1, 1>}
  %c = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>, none) -> tensor<1x3x8x8xf32>
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
