// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

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

// max, exp(x - max), sum along axis 1, then each exp times the
// reciprocal of its sum.
// CHECK-LABEL: func @softmax
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.addf
// CHECK: ^bb0(%[[EXP:.*]]: f32, %[[SUM:.*]]: f32, %{{.*}}: f32):
// CHECK:   %[[R:.*]] = arith.divf %{{.*}}, %[[SUM]] : f32
// CHECK:   arith.mulf %[[EXP]], %[[R]] : f32
func.func @softmax(%x: tensor<2x5x3xf32>) -> tensor<2x5x3xf32> {
  %0 = onnx.Softmax %x {axis = 1} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

// The sum of bf16 exponentials accumulates in f32, rounded once; each exp
// is divided by it, as numpy does.
// CHECK-LABEL: func @softmax_bf16
// CHECK: math.exp %{{.*}} : bf16
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.addf %[[W]], %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.divf %{{.*}}, %{{.*}} : bf16
// CHECK-NOT: arith.mulf
func.func @softmax_bf16(%x: tensor<2x5xbf16>) -> tensor<2x5xbf16> {
  %0 = onnx.Softmax %x : (tensor<2x5xbf16>) -> tensor<2x5xbf16>
  return %0 : tensor<2x5xbf16>
}

// -----

// (x - max) - log(sum(exp(x - max))) along the last axis.
// CHECK-LABEL: func @logsoftmax
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: %[[SHIFTED:.*]] = arith.subf
// CHECK: %[[LOG:.*]] = math.log
// CHECK: arith.subf %[[SHIFTED]], %[[LOG]]
func.func @logsoftmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = onnx.LogSoftmax %x : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// The first index of the max, then a one-hot along the axis.
// CHECK-LABEL: func @hardmax
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// CHECK: arith.cmpf ogt
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[IDX:.*]] = arith.index_cast %[[I]]
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %[[IDX]]
// CHECK: arith.uitofp %[[HIT]] : i1 to f32
func.func @hardmax(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = onnx.Hardmax %x {axis = 0} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Mean and variance over dims [1, 3), then Scale and B; Mean and
// InvStdDev get their unit dims back.
// CHECK-LABEL: func @layernorm
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]
// CHECK: arith.constant 1.200000e+01 : f32
// CHECK: arith.divf
// CHECK: math.rsqrt
// CHECK: tensor.expand_shape {{.*}} : tensor<2xf32> into tensor<2x1x1xf32>
// CHECK: tensor.expand_shape {{.*}} : tensor<2xf32> into tensor<2x1x1xf32>
func.func @layernorm(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>, %b: tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) {
  %0:3 = onnx.LayerNormalization %x, %s, %b {axis = 1} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>
}

// -----

func.func @layernorm_f16(%x: tensor<2x3xf16>, %s: tensor<3xf16>) -> tensor<2x3xf16> {
  %none = onnx.NoValue
  // expected-error @+1 {{of 'f16' is not supported yet}}
  %0:3 = onnx.LayerNormalization %x, %s, %none : (tensor<2x3xf16>, tensor<3xf16>, none) -> (tensor<2x3xf16>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0 : tensor<2x3xf16>
}

// -----

// x * rsqrt(mean(x^2) + eps) over dims [1, 3), then scale (no mean
// subtracted, no bias).
// CHECK-LABEL: func @rmsnorm
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>, %[[S:.*]]: tensor<3x4xf32>
// CHECK: arith.mulf %[[IN:.*]], %[[IN]] : f32
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]
// CHECK: arith.constant 1.200000e+01 : f32
// CHECK: arith.divf
// CHECK: arith.constant 1.000000e-01 : f32
// CHECK: math.rsqrt
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %{{.*}} : tensor<2x3x4xf32>, tensor<2xf32>)
// CHECK-NOT: arith.subf
// CHECK: linalg.generic {{.*}} ins(%[[Y]], %[[S]] : tensor<2x3x4xf32>, tensor<3x4xf32>)
// CHECK: arith.mulf
// CHECK-NOT: arith.addf
// CHECK: return
func.func @rmsnorm(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = onnx.RMSNormalization %x, %s {axis = -2, epsilon = 0.1 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @rmsnorm_dynamic(%x: tensor<?x3xf32>, %s: tensor<3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{with a dynamic shape is not supported yet}}
  %0 = onnx.RMSNormalization %x, %s : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Statistics over the spatial dims, per-channel scale and B.
// CHECK-DAG: #[[$CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[$NC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func @instancenorm
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: math.rsqrt
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$NC]], #[[$NC]], #[[$CH]], #[[$CH]], #{{.*}}]
func.func @instancenorm(%x: tensor<1x3x4x4xf32>, %c: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = onnx.InstanceNormalization %x, %c, %c : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @instancenorm_dynamic(%x: tensor<?x3x4xf32>, %c: tensor<3xf32>) -> tensor<?x3x4xf32> {
  // expected-error @+1 {{with a dynamic shape is not supported yet}}
  %0 = onnx.InstanceNormalization %x, %c, %c : (tensor<?x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3x4xf32>
  return %0 : tensor<?x3x4xf32>
}

// -----

// Grouped as (N, G, C/G * spatial), standardized over dim 2, scaled per channel.
// CHECK-LABEL: func @groupnorm
// CHECK: tensor.collapse_shape {{.*}} : tensor<2x4x3xf32> into tensor<24xf32>
// CHECK: tensor.expand_shape {{.*}} : tensor<24xf32> into tensor<2x2x6xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: math.rsqrt
// CHECK: tensor.expand_shape {{.*}} : tensor<24xf32> into tensor<2x4x3xf32>
func.func @groupnorm(%x: tensor<2x4x3xf32>, %c: tensor<4xf32>) -> tensor<2x4x3xf32> {
  %0 = onnx.GroupNormalization %x, %c, %c {num_groups = 2} : (tensor<2x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// CHECK-LABEL: func @mvn
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "reduction"]
// CHECK: %[[EPS:.*]] = arith.constant 9.99999971E-10 : f32
// CHECK: %[[SD:.*]] = math.sqrt
// CHECK: %[[DEN:.*]] = arith.addf %[[SD]], %[[EPS]]
// CHECK: arith.divf %{{.*}}, %[[DEN]]
func.func @mvn(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = onnx.MeanVarianceNormalization %x {axes = array<i64: 0, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Squares padded along C by (size-1)/2 before and the rest after, summed
// over the window dim d3.
// CHECK-DAG: #[[$READ:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1 + d3, d2)>
// CHECK-DAG: #[[$WIN:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func @lrn
// CHECK: tensor.pad %{{.*}} low[0, 1, 0] high[0, 2, 0]
// CHECK: linalg.generic {indexing_maps = [#[[$READ]], #[[$WIN]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: tensor<4xf32>
// CHECK: math.powf
func.func @lrn(%x: tensor<1x5x2xf32>) -> tensor<1x5x2xf32> {
  %0 = onnx.LRN %x {size = 4} : (tensor<1x5x2xf32>) -> tensor<1x5x2xf32>
  return %0 : tensor<1x5x2xf32>
}

// -----

// LpNormalization p=2: sum of squares, then x / sqrt(sum), 0 where it is 0.
// CHECK-LABEL: func @lpnorm
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: math.sqrt
// CHECK: arith.cmpf oeq
// CHECK: arith.select
func.func @lpnorm(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.LpNormalization %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
