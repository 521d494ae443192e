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
  // expected-error @+2 {{with antialias=1 is not supported yet}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Resize'}}
  %0 = onnx.Resize %x, %none, %scales, %none {mode = "linear", antialias = 1} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @resize_dynamic_scales(%x: tensor<1x1x4x4xf32>, %scales: tensor<4xf32>) -> tensor<1x1x?x?xf32> {
  %none = onnx.NoValue
  // expected-error @+2 {{needs constant scales or sizes (and roi for tf_crop_and_resize); bind them with --bind if they are inputs}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Resize'}}
  %0 = onnx.Resize %x, %none, %scales, %none : (tensor<1x1x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}
