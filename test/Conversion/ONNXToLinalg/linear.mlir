// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// transB reads B as (n, k); alpha scales the product, beta * C starts the sum.
// CHECK-DAG: #[[$A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @gemm_transb
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<3xf32>)
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic {indexing_maps = [#[[$A]], #[[$BT]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK: arith.constant 2.000000e+00 : f32
func.func @gemm_transb(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Gemm %a, %b, %c {transB = 1, alpha = 2.0 : f32, beta = 0.5 : f32} : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Batch dims broadcast: B's missing batch dim is dropped from its map.
// CHECK-DAG: #[[$MA:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$MB:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG: #[[$MO:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func @matmul_batched
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[$MA]], #[[$MB]], #[[$MO]]]
func.func @matmul_batched(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// A 1-d right operand is a vector: no n dim.
// CHECK-DAG: #[[$VB:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func @matmul_vector
// CHECK: linalg.generic {{.*}}#[[$VB]]
// CHECK-SAME: outs(%{{.*}} : tensor<3xi64>)
// CHECK: arith.muli
// CHECK: arith.addi
func.func @matmul_vector(%a: tensor<3x4xi64>, %b: tensor<4xi64>) -> tensor<3xi64> {
  %0 = onnx.MatMul %a, %b : (tensor<3x4xi64>, tensor<4xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @gemm_dynamic_with_c(%a: tensor<?x4xf32>, %b: tensor<4x3xf32>, %c: tensor<3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{with a dynamic shape and C is not supported yet}}
  %0 = onnx.Gemm %a, %b, %c : (tensor<?x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Without C, a dynamic M is fine: the accumulator takes it from A.
// CHECK-LABEL: func @gemm_dynamic
// CHECK: %[[M:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4xf32>
// CHECK: tensor.empty(%[[M]]) : tensor<?x3xf32>
func.func @gemm_dynamic(%a: tensor<?x4xf32>, %b: tensor<4x3xf32>) -> tensor<?x3xf32> {
  %none = onnx.NoValue
  %0 = onnx.Gemm %a, %b, %none : (tensor<?x4xf32>, tensor<4x3xf32>, none) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Einsum: one generic, a loop per label; the diagonal reads (d0, d0) and the
// label missing from the output is a reduction.
// CHECK-DAG: #[[$DIAG:.*]] = affine_map<(d0, d1) -> (d0, d0)>
// CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func @einsum_diag_vec
// CHECK: linalg.generic {indexing_maps = [#[[$DIAG]], #[[$B]], #[[$OUT]]], iterator_types = ["reduction", "parallel"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @einsum_diag_vec(%a: tensor<3x3xf32>, %b: tensor<3x4xf32>) -> tensor<4xf32> {
  %0 = onnx.Einsum %a, %b {equation = "ii,ij->j"} : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// f16 products accumulate in f32, rounded once.
// CHECK-LABEL: func @matmul_f16
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-DAG: %[[AW:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-DAG: %[[BW:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK: %[[P:.*]] = arith.mulf %[[AW]], %[[BW]] : f32
// CHECK: arith.addf %[[ACC]], %[[P]] : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @matmul_f16(%a: tensor<2x4xf16>, %b: tensor<4x3xf16>) -> tensor<2x3xf16> {
  %0 = onnx.MatMul %a, %b : (tensor<2x4xf16>, tensor<4x3xf16>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}
