// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// A one-sided real DFT along axis 1: one contraction of x[b, n, c, ci] with
// the table W[k, n, ci, co] of cos and -sin, reducing n and ci.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d4, d2, d5)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5, d3)>
// CHECK-LABEL: func @dft_rfft
// CHECK: %[[T:.*]] = arith.constant dense<{{.*}}> : tensor<3x4x1x2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[W]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %[[T]] : tensor<1x4x3x1xf32>, tensor<3x4x1x2xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: } -> tensor<1x3x3x2xf32>
func.func @dft_rfft(%x: tensor<1x4x3x1xf32>) -> tensor<1x3x3x2xf32> {
  %none = onnx.NoValue
  %axis = onnx.Constant dense<1> : tensor<i64>
  %0 = onnx.DFT %x, %none, %axis {onesided = 1 : i64} : (tensor<1x4x3x1xf32>, none, tensor<i64>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}

// -----

// The inverse one-sided DFT (irfft) of 2 frequencies into 2 real points:
// the weights 1/2 (k = 0 and k = L/2) times cos, and 0 for the
// imaginary parts (sin is 0 there).
// CHECK-LABEL: func @dft_irfft
// CHECK: arith.constant dense<{{\[\[\[}}[5.000000e-01], [-0.000000e+00]], {{\[\[}}5.000000e-01], [-0.000000e+00]]], {{\[\[\[}}5.000000e-01], [-0.000000e+00]], {{\[\[}}-5.000000e-01], [-0.000000e+00]]]]> : tensor<2x2x2x1xf32>
// CHECK: linalg.generic
// CHECK: } -> tensor<2x1xf32>
func.func @dft_irfft(%x: tensor<2x2xf32>) -> tensor<2x1xf32> {
  %none = onnx.NoValue
  %0 = onnx.DFT %x, %none, %none {inverse = 1 : i64, onesided = 1 : i64} : (tensor<2x2xf32>, none, none) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// STFT with a window: frames read x[b, f * 8 + n, ci], times window[n].
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 8 + d4, d5)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4)>
// CHECK-LABEL: func @stft_window
// CHECK: %[[T:.*]] = arith.constant dense<{{.*}}> : tensor<9x16x1x2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[X]], {{.*}}, #[[WIN]], {{.*}}]{{.*}} ins(%arg0, %[[T]], %arg1 :
// CHECK: } -> tensor<1x15x9x2xf32>
func.func @stft_window(%x: tensor<1x128x1xf32>, %w: tensor<16xf32>) -> tensor<1x15x9x2xf32> {
  %none = onnx.NoValue
  %step = onnx.Constant dense<8> : tensor<i64>
  %0 = onnx.STFT %x, %step, %w, %none : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>, none) -> tensor<1x15x9x2xf32>
  return %0 : tensor<1x15x9x2xf32>
}

// -----

func.func @dft_runtime_length(%x: tensor<4x2xf32>, %n: tensor<i64>) -> tensor<?x2xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{needs constant dft_length and axis (here computed at run time)}}
  %0 = onnx.DFT %x, %n, %none : (tensor<4x2xf32>, tensor<i64>, none) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
