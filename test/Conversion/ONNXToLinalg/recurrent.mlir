// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s

// RNN: X Wᵀ + Wb + Rb for all steps at once, then one scf.for over time
// carrying the state [1, batch, hidden], Y and the scratch of H Rᵀ; the new
// state goes in element by element (tensor.insert), in place.
// CHECK-LABEL: func @rnn
// CHECK: %[[XW:.*]] = linalg.generic {{.*}}"reduction"]} ins(%arg0
// CHECK: scf.for %[[T:[^ ]*]] = {{.*}} iter_args(%[[S:[^ ]*]] = %{{[^,]*}}, %[[Y:[^ ]*]] = %{{[^,]*}}, %[[ACC:[^ ]*]] = %{{[^)]*}}) -> (tensor<1x2x5xf32>, tensor<3x1x2x5xf32>, tensor<2x5xf32>)
// CHECK:   %[[H:.*]] = tensor.extract_slice %[[S]][0, 0, 0] [1, 2, 5]
// CHECK:   linalg.fill {{.*}} outs(%[[ACC]]
// CHECK:   %[[HR:.*]] = linalg.generic {{.*}} ins(%[[H]], %{{.*}} : tensor<2x5xf32>, tensor<5x5xf32>)
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK:       tensor.extract %[[HR]]
// CHECK:       tensor.extract %[[XW]][%[[T]]
// CHECK:       math.tanh
// CHECK:       tensor.insert
// CHECK:       tensor.insert {{.*}}[%[[T]],
func.func @rnn(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>, %b: tensor<1x10xf32>) -> (tensor<3x1x2x5xf32>, tensor<1x2x5xf32>) {
  %none = onnx.NoValue
  %y:2 = onnx.RNN %x, %w, %r, %b, %none, %none {hidden_size = 5 : i64} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, tensor<1x10xf32>, none, none) -> (tensor<3x1x2x5xf32>, tensor<1x2x5xf32>)
  return %y#0, %y#1 : tensor<3x1x2x5xf32>, tensor<1x2x5xf32>
}

// -----

// Reverse direction: step s reads time seq - 1 - s. Without Y only the
// state and the scratches are carried.
// CHECK-LABEL: func @gru_reverse
// CHECK: scf.for %[[S:[^ ]*]] = {{.*}} -> (tensor<1x1x3xf32>, tensor<1x9xf32>, tensor<1x3xf32>)
// CHECK:   %[[T:.*]] = arith.subi %{{.*}}, %[[S]] : index
// GRU without linear_before_reset: r ⊙ H goes into r's part of the
// scratch, then a second contraction with Rh.
// CHECK:   %[[RH:.*]] = scf.for
// CHECK:     math.exp
// CHECK:     tensor.insert
// CHECK:   %[[P:.*]] = tensor.extract_slice %[[RH]][0, 3] [1, 3]
// CHECK:   linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<1x3xf32>, tensor<3x3xf32>)
func.func @gru_reverse(%x: tensor<4x1x2xf32>, %w: tensor<1x9x2xf32>, %r: tensor<1x9x3xf32>) -> tensor<1x1x3xf32> {
  %none = onnx.NoValue
  %y:2 = onnx.GRU %x, %w, %r, %none, %none, %none {direction = "reverse"} : (tensor<4x1x2xf32>, tensor<1x9x2xf32>, tensor<1x9x3xf32>, none, none, none) -> (tensor<4x1x1x3xf32>, tensor<1x1x3xf32>)
  return %y#1 : tensor<1x1x3xf32>
}

// -----

// Bidirectional LSTM with run-time sequence_lens: one loop per direction;
// steps past a sequence's end keep the states (select) and give Y zeros;
// the reverse direction reads each sequence reversed within its length
// (a gather before its loop and one after).
// CHECK-LABEL: func @lstm_lens
// CHECK: scf.for {{.*}} -> (tensor<2x2x3xf32>, tensor<3x2x2x3xf32>, tensor<2x12xf32>)
// CHECK:   arith.cmpi slt
// CHECK:   arith.select
// CHECK: linalg.generic
// CHECK:   arith.subi
// CHECK:   tensor.extract
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: scf.for {{.*}} -> (tensor<2x2x3xf32>, tensor<3x1x2x3xf32>, tensor<2x12xf32>)
// CHECK: tensor.collapse_shape
// CHECK: linalg.generic
// CHECK: tensor.insert_slice {{.*}}[0, 1, 0, 0] [3, 1, 2, 3]
func.func @lstm_lens(%x: tensor<3x2x2xf32>, %w: tensor<2x12x2xf32>, %r: tensor<2x12x3xf32>, %lens: tensor<2xi32>) -> (tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>) {
  %none = onnx.NoValue
  %y:3 = onnx.LSTM %x, %w, %r, %none, %lens, %none, %none, %none {direction = "bidirectional", hidden_size = 3 : i64} : (tensor<3x2x2xf32>, tensor<2x12x2xf32>, tensor<2x12x3xf32>, none, tensor<2xi32>, none, none, none) -> (tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>
}

// -----

func.func @rnn_dynamic(%x: tensor<?x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) -> tensor<1x2x5xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{with dynamic shapes is not supported yet}}
  %y:2 = onnx.RNN %x, %w, %r, %none, %none, %none : (tensor<?x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, none, none, none) -> (tensor<?x1x2x5xf32>, tensor<1x2x5xf32>)
  return %y#1 : tensor<1x2x5xf32>
}
