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
