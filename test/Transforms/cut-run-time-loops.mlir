// RUN: tcc-opt %s --tcc-cut-run-time-loops --split-input-file --verify-diagnostics | FileCheck %s

// A bounded dim (tcc compile --max-dim): the buffers are sized for the bound
// (8), and each marked op runs on views cut to its loops' extents, from S =
// input_dims[0]: loop 1 of the softmax-like reduction runs S times, loop 0
// of the shifted copy S + 1 times. Dims indexed through other expressions
// (the constant 0) keep their size.

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.*]]: memref<4x8xf32>, %[[DIMS:.*]]: memref<1xi64>, %[[OUT:.*]]: memref<4xf32>, %[[WIDE:.*]]: memref<9x8xf32>)
// CHECK:         %[[V:.*]] = memref.load %[[DIMS]][%{{.*}}] : memref<1xi64>
// CHECK:         %[[S:.*]] = arith.index_cast %[[V]] : i64 to index
// CHECK:         %[[S1:.*]] = arith.addi %[[S]], %c1
// CHECK:         %[[X_CUT:.*]] = memref.subview %[[X]][0, 0] [4, %[[S]]] [1, 1] : memref<4x8xf32> to memref<4x?xf32, strided<[8, 1]>>
// CHECK:         linalg.generic {{.*}} ins(%[[X_CUT]] : {{.*}}) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NOT:     tcc.loop_extents
// CHECK:         %[[WIDE_CUT:.*]] = memref.subview %[[WIDE]][0, 0] [%[[S1]], 8] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : memref<4x8xf32>) outs(%[[WIDE_CUT]] :
#row = affine_map<(d0, d1) -> (d0, d1)>
#sum = affine_map<(d0, d1) -> (d0)>
#first = affine_map<(d0, d1) -> (0, d1)>
func.func @main(%x: memref<4x8xf32>, %dims: memref<1xi64>, %out: memref<4xf32>,
                %wide: memref<9x8xf32>)
    attributes {tcc.num_inputs = 2 : i64,
                tcc.run_time_inputs = array<i64: 0, 1, 8>} {
  linalg.generic {indexing_maps = [#row, #sum],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%out : memref<4xf32>)
      attrs = {tcc.loop_extents = array<i64: 0, 4, 1, 0>} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#first, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%wide : memref<9x8xf32>)
      attrs = {tcc.loop_extents = array<i64: 1, 1, 0, 8>} {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

// A malformed mark: two loops, one pair.
#row = affine_map<(d0, d1) -> (d0, d1)>
#sum = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: memref<4x8xf32>, %dims: memref<1xi64>, %out: memref<4xf32>)
    attributes {tcc.num_inputs = 2 : i64,
                tcc.run_time_inputs = array<i64: 0, 1, 8>} {
  // expected-error @+1 {{tcc-cut-run-time-loops: malformed tcc.loop_extents}}
  linalg.generic {indexing_maps = [#row, #sum],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%out : memref<4xf32>)
      attrs = {tcc.loop_extents = array<i64: 0, 4>} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Without its input_dims buffer.
// expected-error @+1 {{tcc-cut-run-time-loops: @main lacks its input_dims buffer (its last input)}}
func.func @main(%x: memref<4x8xf32>)
    attributes {tcc.num_inputs = 3 : i64,
                tcc.run_time_inputs = array<i64: 0, 1, 8>} {
  return
}

// -----

// An op whose loops that follow S are all parallel and whose body reads
// only its operands' elements, on buffers of the workspace: it runs in
// blocks of 32 rows (32 divides the bound, 64), ceil(S / 32) of them, in a
// parallel loop; the padding rows of the last block are computed too.

// CHECK-LABEL: func.func @main
// CHECK:         %[[S:.*]] = arith.index_cast
// CHECK:         %[[UP:.*]] = arith.addi %[[S]], %c31
// CHECK:         %[[BLOCKS:.*]] = arith.divui %[[UP]], %c32
// CHECK:         %[[ROWS:.*]] = arith.muli %[[BLOCKS]], %c32
// CHECK:         scf.for %[[I:.*]] = %c0{{.*}} to %[[ROWS]] step %c32
// CHECK:           %[[A:.*]] = memref.subview %{{.*}}[%[[I]], 0] [32, 8] [1, 1] : memref<64x8xf32> to memref<32x8xf32, strided<[8, 1], offset: ?>>
// CHECK:           %[[B:.*]] = memref.subview %{{.*}}[%[[I]], 0] [32, 8] [1, 1]
// CHECK:           linalg.generic {{.*}} ins(%[[A]] : {{.*}}) outs(%[[B]] : {{.*}})
// CHECK:         } {tcc.parallel}
#row = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: memref<4x64xf32>, %dims: memref<1xi64>, %out: memref<64x8xf32>)
    attributes {tcc.num_inputs = 2 : i64,
                tcc.run_time_inputs = array<i64: 0, 1, 64>} {
  %a = memref.alloc() : memref<64x8xf32>
  linalg.generic {indexing_maps = [#row, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x8xf32>) outs(%out : memref<64x8xf32>)
      attrs = {tcc.loop_extents = array<i64: 1, 0, 0, 8>} {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %o : f32
    linalg.yield %r : f32
  }
  return
}
