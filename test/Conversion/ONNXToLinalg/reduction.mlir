// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// Sum over dim 1 into a zero-filled init, then the unit dim put back.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$KEPT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func @reduce_sum
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$KEPT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME: outs(%[[INIT]] : tensor<2x4xf32>)
// CHECK: arith.addf
// CHECK: tensor.expand_shape %[[SUM]] {{\[\[}}0], [1, 2]] output_shape [2, 1, 4] : tensor<2x4xf32> into tensor<2x1x4xf32>
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = onnx.ReduceSum %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

// Mean of everything (no axes), keepdims=0: a 0-d sum divided by 24.
// CHECK-LABEL: func @reduce_mean_all
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CHECK: arith.addf
// CHECK: %[[N:.*]] = arith.constant 2.400000e+01 : f32
// CHECK: arith.divf %{{.*}}, %[[N]]
// CHECK-NOT: tensor.expand_shape
func.func @reduce_mean_all(%x: tensor<4x6xf32>) -> tensor<f32> {
  %none = onnx.NoValue
  %0 = onnx.ReduceMean %x, %none {keepdims = 0} : (tensor<4x6xf32>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Max of signed and unsigned ints starts from the type's lowest value.
// CHECK-LABEL: func @reduce_max_int
// CHECK: arith.constant -128 : i8
// CHECK: arith.maxsi
// CHECK: arith.constant 0 : i8
// CHECK: arith.maxui
func.func @reduce_max_int(%x: tensor<2x3xi8>, %u: tensor<2x3xui8>) -> (tensor<2x1xi8>, tensor<2x1xui8>) {
  %axes = onnx.Constant dense<[-1]> : tensor<1xi64>
  %0 = onnx.ReduceMax %x, %axes : (tensor<2x3xi8>, tensor<1xi64>) -> tensor<2x1xi8>
  %1 = onnx.ReduceMax %u, %axes : (tensor<2x3xui8>, tensor<1xi64>) -> tensor<2x1xui8>
  return %0, %1 : tensor<2x1xi8>, tensor<2x1xui8>
}

// -----

// Min of floats starts from +inf and propagates NaN.
// CHECK-LABEL: func @reduce_min
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.minimumf
func.func @reduce_min(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = onnx.ReduceMin %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// noop_with_empty_axes: only the elementwise part (x^2), no reduced dim.
// CHECK-LABEL: func @reduce_sum_square_noop
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: tensor.expand_shape
func.func @reduce_sum_square_noop(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %none = onnx.NoValue
  %0 = onnx.ReduceSumSquare %x, %none {noop_with_empty_axes = 1} : (tensor<2x3xf32>, none) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @reduce_prod_l1_l2_logsum
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: arith.mulf
// CHECK: math.absf
// CHECK: arith.mulf
// CHECK: math.sqrt
// CHECK: math.log
func.func @reduce_prod_l1_l2_logsum(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = onnx.ReduceProd %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %1 = onnx.ReduceL1 %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %2 = onnx.ReduceL2 %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %3 = onnx.ReduceLogSum %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0, %1, %2, %3 : tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>
}

// -----

// log(sum(exp(x - m))) + m, m the max with infinities replaced by 0.
// CHECK-LABEL: func @reduce_log_sum_exp
// CHECK: arith.maxnumf
// CHECK: math.absf
// CHECK: arith.select
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: math.log
// CHECK: arith.addf
func.func @reduce_log_sum_exp(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = onnx.ReduceLogSumExp %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @reduce_dynamic_axes(%x: tensor<2x3xf32>, %axes: tensor<1xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{with non-constant axes is not supported yet}}
  %0 = onnx.ReduceSum %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reduce_l2_int(%x: tensor<2x3xi32>) -> tensor<2x1xi32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{of integers is not supported yet}}
  %0 = onnx.ReduceL2 %x, %axes : (tensor<2x3xi32>, tensor<1xi64>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}

// -----

func.func @reduce_sum_bool(%x: tensor<2x3xi1>) -> tensor<2x1xi1> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{of booleans is not supported yet}}
  %0 = onnx.ReduceSum %x, %axes : (tensor<2x3xi1>, tensor<1xi64>) -> tensor<2x1xi1>
  return %0 : tensor<2x1xi1>
}

// -----

func.func @reduce_mean_dynamic(%x: tensor<?x3xf32>) -> tensor<1x3xf32> {
  %axes = onnx.Constant dense<[0]> : tensor<1xi64>
  // expected-error @+1 {{over dynamic dims is not supported yet}}
  %0 = onnx.ReduceMean %x, %axes : (tensor<?x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// A (value, index) pair reduced along the axis; ties keep the first index.
// CHECK-LABEL: func @argmax
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi64>)
// CHECK: arith.cmpf ogt
// CHECK: linalg.index 1
// CHECK: tensor.expand_shape {{.*}} : tensor<2xi64> into tensor<2x1xi64>
func.func @argmax(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
  %0 = onnx.ArgMax %x {axis = 1} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

// select_last_index on unsigned ints: ule keeps the last of equal minima.
// CHECK-LABEL: func @argmin_last
// CHECK: arith.constant -1 : i16
// CHECK: arith.cmpi ule
// CHECK: linalg.index 0
// CHECK-NOT: tensor.expand_shape
func.func @argmin_last(%x: tensor<5x2xui16>) -> tensor<2xi64> {
  %0 = onnx.ArgMin %x {keepdims = 0, select_last_index = 1} : (tensor<5x2xui16>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func @globalmaxpool
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape {{.*}} : tensor<1x3xf32> into tensor<1x3x1x1xf32>
func.func @globalmaxpool(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32> {
  %0 = onnx.GlobalMaxPool %x : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// Reverse exclusive CumSum along dim 0: the extra loop d2 reads x at
// (d2, d1) and adds it where j > i.
// CHECK-DAG: #[[$ALONG:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @cumsum
// CHECK: linalg.generic {indexing_maps = [#[[$ALONG]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = linalg.index 2
// CHECK: arith.cmpi sgt, %[[J]], %[[I]]
// CHECK: arith.addi
func.func @cumsum(%x: tensor<3x2xi32>) -> tensor<3x2xi32> {
  %a = onnx.Constant dense<0> : tensor<i64>
  %0 = onnx.CumSum %x, %a {exclusive = 1, reverse = 1} : (tensor<3x2xi32>, tensor<i64>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

func.func @cumsum_dynamic_axis(%x: tensor<3x2xf32>, %a: tensor<i64>) -> tensor<3x2xf32> {
  // expected-error @+1 {{needs a constant axis (here known only at run time); bind the inputs it depends on with --bind}}
  %0 = onnx.CumSum %x, %a : (tensor<3x2xf32>, tensor<i64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// The axis is a model input: the message says which, and how to bind it.
func.func @cumsum_input_axis(%x: tensor<3x2xf32>, %a: tensor<i64> {tcc.name = "axis"}) -> tensor<3x2xf32> {
  // expected-error @+1 {{needs a constant axis (here known only at run time); it is input 'axis': bind it with --bind axis=FILE}}
  %0 = onnx.CumSum %x, %a : (tensor<3x2xf32>, tensor<i64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Ranks by an O(n^2) generic, then slot t takes the element of rank t.
// CHECK-LABEL: func @topk
// CHECK: %[[RANKS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: outs(%{{.*}} : tensor<2x5xi64>)
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oeq
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%{{.*}}, %[[RANKS]] : tensor<2x5xf32>, tensor<2x5xi64>)
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x3xi64>)
func.func @topk(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>) {
  %k = onnx.Constant dense<[3]> : tensor<1xi64>
  %0:2 = onnx.TopK %x, %k : (tensor<2x5xf32>, tensor<1xi64>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi64>
}

// -----

// A K known only at run time: the whole axis sorted (2x5), then its first K
// slots, K clamped into [0, 5].
// CHECK-LABEL: func @topk_dynamic_k
// CHECK: %[[SORTED:.*]]:2 = linalg.generic {{.*}} outs({{.*}} : tensor<2x5xf32>, tensor<2x5xi64>)
// CHECK: %[[K:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<1xi64>
// CHECK: %[[KI:.*]] = arith.index_cast %[[K]] : i64 to index
// CHECK: %[[MIN:.*]] = arith.minsi %[[KI]], %c5
// CHECK: %[[N:.*]] = arith.maxsi %[[MIN]], %c0
// CHECK: tensor.extract_slice %[[SORTED]]#0[0, 0] [2, %[[N]]] [1, 1] : tensor<2x5xf32> to tensor<2x?xf32>
// CHECK: tensor.extract_slice %[[SORTED]]#1[0, 0] [2, %[[N]]] [1, 1] : tensor<2x5xi64> to tensor<2x?xi64>
func.func @topk_dynamic_k(%x: tensor<2x5xf32>, %k: tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>) {
  %0:2 = onnx.TopK %x, %k : (tensor<2x5xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return %0#0, %0#1 : tensor<2x?xf32>, tensor<2x?xi64>
}

// -----

// CumProd: a product over j <= i, starting at 1.
// CHECK-LABEL: func @cumprod
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.cmpi sle
// CHECK: arith.mulf
func.func @cumprod(%x: tensor<5xf32>) -> tensor<5xf32> {
  %axis = onnx.Constant dense<0> : tensor<i64>
  %0 = onnx.CumProd %x, %axis : (tensor<5xf32>, tensor<i64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
