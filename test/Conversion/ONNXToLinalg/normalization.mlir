// RUN: tcc-opt %s -split-input-file --tcc-convert-onnx-to-linalg | FileCheck %s

// CHECK-DAG: #[[$CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func @batchnorm
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$CH]], #[[$CH]], #[[$CH]], #[[$CH]], #{{.*}}]
// CHECK: math.sqrt
// CHECK: arith.subf
func.func @batchnorm(%x: tensor<1x3x4x4xf32>, %c: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = onnx.BatchNormalization %x, %c, %c, %c, %c : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

// max, exp(x - max), sum, divide along axis 1.
// CHECK-LABEL: func @softmax
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.addf
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x5x3xf32>) -> tensor<2x5x3xf32> {
  %0 = onnx.Softmax %x {axis = 1} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}
