// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// Linear 2x upsampling of the last axis only (the others keep scale 1):
// compile-time tables of source indices and weights (half_pixel: output 0
// reads 0 and 0 with weights 0.25/0.75 once clamped, output 1 reads 0 and 1
// with 0.75/0.25, ...), then one gather-and-weigh generic.
// CHECK-LABEL: func @resize_linear
// CHECK-DAG: arith.constant dense<{{\[\[}}0, 0], [0, 1], [0, 1], [1, 1]]> : tensor<4x2xi64>
// CHECK-DAG: arith.constant dense<{{\[\[}}2.500000e-01, 7.500000e-01], [7.500000e-01, 2.500000e-01], [2.500000e-01, 7.500000e-01], [7.500000e-01, 2.500000e-01]]> : tensor<4x2xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: tensor.extract %arg0
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK: return {{.*}} : tensor<1x2x4xf32>
func.func @resize_linear(%x: tensor<1x2x2xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue
  %scales = onnx.Constant dense<[1.0, 1.0, 2.0]> : tensor<3xf32>
  %0 = onnx.Resize %x, %none, %scales, %none {mode = "linear"} : (tensor<1x2x2xf32>, none, tensor<3xf32>, none) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

func.func @resize_antialias(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %none = onnx.NoValue
  %scales = onnx.Constant dense<[1.0, 1.0, 0.5, 0.5]> : tensor<4xf32>
  // expected-error @+1 {{with antialias=1 is not supported yet}}
  %0 = onnx.Resize %x, %none, %scales, %none {mode = "linear", antialias = 1} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @resize_dynamic_scales(%x: tensor<1x1x4x4xf32>, %scales: tensor<4xf32>) -> tensor<1x1x?x?xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{needs constant scales or sizes (and roi for tf_crop_and_resize); bind them with --bind if they are inputs}}
  %0 = onnx.Resize %x, %none, %scales, %none : (tensor<1x1x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}

// -----

// GridSample, bilinear with zeros padding: one generic over the output; per
// spatial dim the grid coordinate (x for W, y for H: the grid's last dim
// reversed) is denormalized, then the 2x2 taps are gathered, the ones
// outside the input read as 0, and weighed.
// CHECK-LABEL: func @gridsample_linear
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: tensor.extract %arg1[%{{.*}}, %{{.*}}, %{{.*}}, %[[C1]]]
// CHECK: math.floor
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: tensor.extract %arg1[%{{.*}}, %{{.*}}, %{{.*}}, %[[C0]]]
// CHECK: math.floor
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK: linalg.yield
func.func @gridsample_linear(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x5x2xf32>) -> tensor<1x2x3x5xf32> {
  %y = onnx.GridSample %x, %g : (tensor<1x2x4x4xf32>, tensor<1x3x5x2xf32>) -> tensor<1x2x3x5xf32>
  return %y : tensor<1x2x3x5xf32>
}

// -----

// Nearest rounds half to even (as PyTorch); border padding clamps the
// coordinate: one tap.
// CHECK-LABEL: func @gridsample_nearest
// CHECK: math.roundeven
// CHECK: math.roundeven
// CHECK: arith.fptosi
// CHECK-COUNT-1: tensor.extract %arg0
// CHECK-NEXT: linalg.yield
func.func @gridsample_nearest(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32> {
  %y = onnx.GridSample %x, %g {mode = "nearest", padding_mode = "border"} : (tensor<1x2x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// Bicubic over a volume would be 64 taps; a 2-d one has 16.
// CHECK-LABEL: func @gridsample_cubic
// CHECK-COUNT-16: tensor.extract %arg0
func.func @gridsample_cubic(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %y = onnx.GridSample %x, %g {mode = "cubic", padding_mode = "reflection", align_corners = 1 : i64} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

func.func @gridsample_int(%x: tensor<1x1x4x4xi32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xi32> {
  // expected-error @+1 {{with 'i32' data is not supported yet}}
  %y = onnx.GridSample %x, %g : (tensor<1x1x4x4xi32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xi32>
  return %y : tensor<1x1x2x2xi32>
}

// -----

// AffineGrid: grid[n, h, w, j] = theta[n, j, 0] * x_w + theta[n, j, 1] * y_h
// + theta[n, j, 2], the positions x_w, y_h from the indices, in f64.
// CHECK-LABEL: func @affine_grid
// CHECK: linalg.generic
// CHECK: arith.sitofp {{.*}} to f64
// CHECK: tensor.extract %arg0
// CHECK: arith.extf {{.*}} to f64
// CHECK-COUNT-2: tensor.extract %arg0
// CHECK: arith.truncf {{.*}} : f64 to f32
func.func @affine_grid(%theta: tensor<2x2x3xf32>) -> tensor<2x4x5x2xf32> {
  %size = onnx.Constant dense<[2, 3, 4, 5]> : tensor<4xi64>
  %g = onnx.AffineGrid %theta, %size : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x4x5x2xf32>
  return %g : tensor<2x4x5x2xf32>
}

// -----

func.func @affine_grid_size_input(%theta: tensor<1x2x3xf32>, %size: tensor<4xi64>) -> tensor<1x?x?x2xf32> {
  // expected-error @+1 {{needs a constant size; bind it with --bind if it is an input}}
  %g = onnx.AffineGrid %theta, %size : (tensor<1x2x3xf32>, tensor<4xi64>) -> tensor<1x?x?x2xf32>
  return %g : tensor<1x?x?x2xf32>
}
