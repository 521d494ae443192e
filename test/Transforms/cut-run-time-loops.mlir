// RUN: tcc-opt %s --tcc-cut-run-time-loops --split-input-file --verify-diagnostics | FileCheck %s

// A bounded dim (tcc compile --max-dim): the buffers are sized for the bound
// (8), and each marked op runs on views cut to its loops' extents (m x
// floor((a x S + b) / d) for the quadruple (a, b, d, m) of each loop), from
// S = input_dims[0]: loop 1 of the softmax-like reduction runs S times,
// loop 0 of the shifted copy S + 1 times. Dims indexed through other expressions
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
      attrs = {tcc.loop_extents = array<i64: 0, 4, 1, 1, 1, 0, 1, 1>} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#first, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%wide : memref<9x8xf32>)
      attrs = {tcc.loop_extents = array<i64: 1, 1, 1, 1, 0, 8, 1, 1>} {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

// A malformed mark: two loops, one (a, b, d, m) quadruple but half.
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
// blocks of 8 rows (8 divides the bound, 64), ceil(S / 8) of them, in a
// parallel loop; the padding rows of the last block are computed too.

// CHECK-LABEL: func.func @main
// CHECK:         %[[S:.*]] = arith.index_cast
// CHECK:         %[[UP:.*]] = arith.addi %[[S]], %c7
// CHECK:         %[[BLOCKS:.*]] = arith.divui %[[UP]], %c8
// CHECK:         %[[ROWS:.*]] = arith.muli %[[BLOCKS]], %c8
// CHECK:         scf.for %[[I:.*]] = %c0{{.*}} to %[[ROWS]] step %c8
// CHECK:           %[[A:.*]] = memref.subview %{{.*}}[%[[I]], 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
// CHECK:           %[[B:.*]] = memref.subview %{{.*}}[%[[I]], 0] [8, 8] [1, 1]
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
      attrs = {tcc.loop_extents = array<i64: 1, 0, 1, 1, 0, 8, 1, 1>} {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A strided layer's output runs floor((S + 1) / 2) rows (a stride-2
// convolution of the bounded dim). It reads the caller's input (which holds
// the actual elements only), so it is not run in blocks of rows: its
// operands are cut, the input (along 2 x d0 + d1, no loop of its own) not.
// CHECK-LABEL: func.func @main
// CHECK:         %[[S:.*]] = arith.index_cast
// CHECK:         %[[S1:.*]] = arith.addi %[[S]], %c1
// CHECK:         %[[HALF:.*]] = arith.divui %[[S1]], %c2
// CHECK:         %[[OUT_CUT:.*]] = memref.subview %{{.*}}[0] [%[[HALF]]] [1]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<17xf32>, memref<3xf32>) outs(%[[OUT_CUT]]
#in = affine_map<(d0, d1) -> (d0 * 2 + d1)>
#w = affine_map<(d0, d1) -> (d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: memref<17xf32>, %dims: memref<1xi64>, %k: memref<3xf32>, %out: memref<8xf32>)
    attributes {tcc.num_inputs = 2 : i64,
                tcc.run_time_inputs = array<i64: 0, 0, 16>} {
  linalg.generic {indexing_maps = [#in, #w, #out],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %k : memref<17xf32>, memref<3xf32>) outs(%out : memref<8xf32>)
      attrs = {tcc.loop_extents = array<i64: 1, 1, 2, 1, 0, 3, 1, 1>} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Its loop over the bounded dim parallel, in blocks of 8 rows (a pool of
// stride 2 over the bounded dim): the input is read in spans of 2 x 7 + 2 =
// 16 elements from 2 x the block's first row.
// CHECK-LABEL: func.func @main
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[AT:.*]] = arith.muli %[[IV]], %{{.*}}
// CHECK:           memref.subview %{{.*}}[%[[AT]]] [16] [1] : memref<17xf32> to memref<16xf32, strided<[1], offset: ?>>
// CHECK:           memref.subview %{{.*}}[%[[IV]]] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1], offset: ?>>
// CHECK:         } {tcc.parallel}
#in = affine_map<(d0, d1) -> (d0 * 2 + d1)>
#win = affine_map<(d0, d1) -> (d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: memref<17xf32>, %dims: memref<1xi64>, %out: memref<8xf32>)
    attributes {tcc.num_inputs = 2 : i64,
                tcc.run_time_inputs = array<i64: 0, 0, 16>} {
  %a = memref.alloc() : memref<17xf32>
  %w = memref.alloc() : memref<2xf32>
  linalg.generic {indexing_maps = [#in, #win, #out],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a, %w : memref<17xf32>, memref<2xf32>) outs(%out : memref<8xf32>)
      attrs = {tcc.loop_extents = array<i64: 1, 0, 2, 1, 0, 2, 1, 1>} {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %r = arith.maximumf %in, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// 8 does not divide the bound's extent (81 rows, floor((S +
// 2) / 2) for S up to 160: Winograd's tiles under --max-dim): the op runs
// exactly its rows, which it accumulates into, in floor(e / 8) blocks of 8
// in the parallel loop, then a piece of 4, 2 and 1 rows at e & ~7, e & ~3
// and e & ~1 where e has that bit. Each sees static shapes.
// CHECK-LABEL: func.func @main
// CHECK:         %[[S:.*]] = arith.index_cast
// CHECK:         %[[S2:.*]] = arith.addi %[[S]], %c2
// CHECK:         %[[E:.*]] = arith.divui %[[S2]], %c2
// CHECK:         %[[BLOCKS:.*]] = arith.divui %[[E]], %c8
// CHECK:         %[[ROWS:.*]] = arith.muli %[[BLOCKS]], %c8
// CHECK:         scf.for %[[I:.*]] = %c0{{.*}} to %[[ROWS]] step %c8
// CHECK:           memref.subview %{{.*}}[%[[I]], 0] [8, 16] [1, 1] : memref<81x16xf32> to memref<8x16xf32, strided<[16, 1], offset: ?>>
// CHECK:           memref.subview %{{.*}}[%[[I]], 0] [8, 4] [1, 1] : memref<81x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
// CHECK:           linalg.generic
// CHECK:         } {tcc.parallel}
// CHECK:         %[[BIT4:.*]] = arith.andi %[[E]], %c4
// CHECK:         %[[HAS4:.*]] = arith.cmpi ne, %[[BIT4]], %c0
// CHECK:         scf.if %[[HAS4]] {
// CHECK:           %[[AT4:.*]] = arith.andi %[[E]], %c-8
// CHECK:           memref.subview %{{.*}}[%[[AT4]], 0] [4, 16] [1, 1]
// CHECK:           memref.subview %{{.*}}[%[[AT4]], 0] [4, 4] [1, 1]
// CHECK:           linalg.generic
// CHECK:         }
// CHECK:         scf.if
// CHECK:           %[[AT2:.*]] = arith.andi %[[E]], %c-4
// CHECK:           memref.subview %{{.*}}[%[[AT2]], 0] [2, 16] [1, 1]
// CHECK:         scf.if
// CHECK:           %[[AT1:.*]] = arith.andi %[[E]], %c-2
// CHECK:           memref.subview %{{.*}}[%[[AT1]], 0] [1, 16] [1, 1]
// CHECK:           linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @main(%x: memref<4x160xf32>, %dims: memref<1xi64>, %out: memref<81x4xf32>)
    attributes {tcc.num_inputs = 2 : i64,
                tcc.run_time_inputs = array<i64: 0, 1, 160>} {
  %a = memref.alloc() : memref<81x16xf32>
  %w = memref.alloc() : memref<16x4xf32>
  linalg.generic {indexing_maps = [#a, #b, #c],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<81x16xf32>, memref<16x4xf32>) outs(%out : memref<81x4xf32>)
      attrs = {tcc.loop_extents = array<i64: 1, 2, 2, 1, 0, 4, 1, 1, 0, 16, 1, 1>} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
