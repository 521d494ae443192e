// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// One generic over the target gathers -x[n, t, d] * weight[t] (0 where t is
// ignore_index) and the weights; mean divides the two sums.
// CHECK-LABEL: func @nllloss_mean_weight_ii
// CHECK-SAME: %[[X:.*]]: tensor<3x5x2xf32>, %[[T:.*]]: tensor<3x2xi32>, %[[W:.*]]: tensor<5xf32>
// CHECK: %[[G:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[T]] : tensor<3x2xi32>)
// CHECK: %[[T64:.*]] = arith.extsi
// CHECK: %[[C:.*]] = arith.minsi
// CHECK: %[[N:.*]] = linalg.index 0
// CHECK: %[[D:.*]] = linalg.index 1
// CHECK: %[[V:.*]] = tensor.extract %[[X]][%[[N]], %[[C]], %[[D]]]
// CHECK: %[[NEG:.*]] = arith.negf %[[V]]
// CHECK: %[[WT:.*]] = tensor.extract %[[W]][%[[C]]]
// CHECK: %[[L:.*]] = arith.mulf %[[NEG]], %[[WT]]
// CHECK: %[[KEPT:.*]] = arith.cmpi ne, %[[T64]], %c1_i64
// CHECK: %[[LK:.*]] = arith.select %[[KEPT]], %[[L]]
// CHECK: %[[WK:.*]] = arith.select %[[KEPT]], %[[WT]]
// CHECK: linalg.yield %[[LK]], %[[WK]]
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%[[G]]#0
// CHECK: %[[WSUM:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%[[G]]#1
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %[[WSUM]] : tensor<f32>, tensor<f32>)
// CHECK: arith.divf
func.func @nllloss_mean_weight_ii(%x: tensor<3x5x2xf32>, %t: tensor<3x2xi32>, %w: tensor<5xf32>) -> tensor<f32> {
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %w {ignore_index = 1 : i64} : (tensor<3x5x2xf32>, tensor<3x2xi32>, tensor<5xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// reduction none: the gathered losses themselves, no weights, no select.
// CHECK-LABEL: func @nllloss_none
// CHECK: %[[G:.*]] = linalg.generic
// CHECK-NOT: arith.select
// CHECK: linalg.yield
// CHECK-NEXT: } -> tensor<3xf32>
// CHECK-NEXT: return %[[G]]
func.func @nllloss_none(%x: tensor<3x5xf32>, %t: tensor<3xi64>) -> tensor<3xf32> {
  %none = onnx.NoValue
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none {reduction = "none"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// reduction sum: one reduction, no division.
// CHECK-LABEL: func @nllloss_sum
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK-NOT: arith.divf
// CHECK: return
func.func @nllloss_sum(%x: tensor<3x5xf32>, %t: tensor<3xi64>) -> tensor<f32> {
  %none = onnx.NoValue
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none {reduction = "sum"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// LogSoftmax over dim 1, gathered by the NLL generic; both are results.
// CHECK-LABEL: func @sceloss_log_prob
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: math.log
// CHECK: %[[LOSS:.*]] = linalg.generic
// CHECK: tensor.extract %[[LP:.*]][
// CHECK: return %[[LOSS]], %[[LP]]
func.func @sceloss_log_prob(%x: tensor<3x5xf32>, %t: tensor<3xi64>) -> (tensor<3xf32>, tensor<3x5xf32>) {
  %none = onnx.NoValue
  %0:2 = onnx.SoftmaxCrossEntropyLoss %x, %t, %none {reduction = "none"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> (tensor<3xf32>, tensor<3x5xf32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3x5xf32>
}

// -----

func.func @nllloss_dynamic(%x: tensor<?x5xf32>, %t: tensor<?xi64>) -> tensor<f32> {
  %none = onnx.NoValue
  // expected-error @+1 {{with a dynamic shape is not supported yet}}
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none : (tensor<?x5xf32>, tensor<?xi64>, none) -> tensor<f32>
  return %0 : tensor<f32>
}
