// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-bound-dynamic-results | FileCheck %s

// An output that is the leading block of a static tensor becomes that
// tensor, the block packed at its start, and one more output holds the
// run-time dim. The transpose moves to the whole tensor first.
// CHECK-LABEL: func @main
// CHECK-SAME: -> (tensor<6x2xi64> {tcc.name = "idx"}, tensor<1xi64> {tcc.name = "run_time_dims"})
// CHECK-SAME: tcc.run_time_dims = array<i64: 0, 0, 6>
// CHECK: %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<2x6xi64>) outs(%{{.*}} : tensor<6x2xi64>)
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %[[N:[^ ]*]] : index
// CHECK: %[[TOTAL:.*]] = arith.muli %[[ROWS]], %{{.*}} : index
// CHECK: %[[PACKED:.*]] = linalg.generic
// CHECK:   %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[TOTAL]] : index
// CHECK:   %[[V:.*]] = tensor.extract %[[T]]
// CHECK:   arith.select %[[IN]], %[[V]], %{{.*}} : i64
// CHECK: %[[D:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[DIMS:.*]] = tensor.from_elements %[[D]] : tensor<1xi64>
// CHECK: return %[[PACKED]], %[[DIMS]]
func.func @main(%buf: tensor<2x6xi64>, %n: index) -> (tensor<?x2xi64> {tcc.name = "idx"}) {
  %s = tensor.extract_slice %buf[0, 0] [2, %n] [1, 1] : tensor<2x6xi64> to tensor<2x?xi64>
  %e = tensor.empty(%n) : tensor<?x2xi64>
  %t = linalg.transpose ins(%s : tensor<2x?xi64>) outs(%e : tensor<?x2xi64>) permutation = [1, 0]
  return %t : tensor<?x2xi64>
}

// -----

// A dynamic output from anything else is refused.
func.func @main(%x: tensor<?xf32>) -> (tensor<?xf32> {tcc.name = "y"}) {
  // expected-error @+1 {{output 'y' has a dim known only at run time that tcc cannot bound}}
  return %x : tensor<?xf32>
}

// -----

// So is an op that computes with the run-time dim.
func.func @main(%buf: tensor<6xf32>, %n: index) -> (tensor<f32> {tcc.name = "y"}) {
  %s = tensor.extract_slice %buf[0] [%n] [1] : tensor<6xf32> to tensor<?xf32>
  %init = tensor.empty() : tensor<f32>
  // expected-error @+1 {{computes with a dim known only at run time}}
  %r = linalg.reduce ins(%s : tensor<?xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %sum = arith.addf %a, %b : f32
      linalg.yield %sum : f32
    }
  return %r : tensor<f32>
}
