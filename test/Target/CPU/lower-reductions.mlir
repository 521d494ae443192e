// RUN: tcc-opt %s --tcc-lower-reductions -split-input-file | FileCheck %s

// A sum over the innermost loop: the output element is loaded once, the
// partial sum carried through the loop with a reassociable add, then stored.
// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: (%[[X:.*]]: memref<4x64xf32>, %[[S:.*]]: memref<4xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[INIT:.*]] = memref.load %[[S]][%[[I]]] : memref<4xf32>
// CHECK-NEXT: %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK-NEXT: %[[IN:.*]] = memref.load %[[X]][%[[I]], %[[K]]] : memref<4x64xf32>
// CHECK-NEXT: %[[NEXT:.*]] = arith.addf %[[IN]], %[[ACC]] fastmath<reassoc> : f32
// CHECK-NEXT: scf.yield %[[NEXT]] : f32
// CHECK: memref.store %[[SUM]], %[[S]][%[[I]]] : memref<4xf32>
// CHECK-NOT: linalg.generic
#x = affine_map<(d0, d1) -> (d0, d1)>
#s = affine_map<(d0, d1) -> (d0)>
func.func @row_sums(%x: memref<4x64xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [#x, #s], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A sum over the two innermost loops, contiguous in memory (a global average
// pool over a 7x7 map): one loop over the 49 elements of a collapsed view.
// CHECK-LABEL: func.func @average_pool
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : memref<8x7x7xf32> into memref<8x49xf32>
// CHECK: scf.for %[[C:.*]] =
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N:.*]] step %{{.*}} iter_args
// CHECK-NEXT: memref.load %[[FLAT]][%[[C]], %[[K]]]
// CHECK-NEXT: arith.addf {{.*}} fastmath<reassoc>
// CHECK-NOT: scf.for
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
func.func @average_pool(%x: memref<8x7x7xf32>, %m: memref<8xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : memref<8x7x7xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// The same over a strided view (a channel's rows of a wider map) stays two
// loops: its rows are not contiguous.
// CHECK-LABEL: func.func @strided_pool
// CHECK-NOT: memref.collapse_shape
// CHECK: scf.for
// CHECK: scf.for {{.*}} iter_args
// CHECK: scf.for {{.*}} iter_args
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
func.func @strided_pool(%x: memref<8x7x7xf32, strided<[98, 14, 1]>>, %m: memref<8xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : memref<8x7x7xf32, strided<[98, 14, 1]>>) outs(%m : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A max over the two innermost loops (a global max pool) whose body reads
// the loop index: both loops carry it (not collapsed, which would make the
// index a division); the index is the loop's.
// CHECK-LABEL: func.func @max_pool
// CHECK: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: scf.for {{.*}} iter_args
// CHECK-NEXT: scf.for %[[W:.*]] = {{.*}} iter_args(%[[ACC:.*]] = {{.*}}) -> (f32)
// CHECK: arith.index_cast %[[W]]
// CHECK: arith.maximumf %{{.*}}, %[[ACC]] fastmath<reassoc> : f32
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
func.func @max_pool(%x: memref<8x7x7xf32>, %m: memref<8xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : memref<8x7x7xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %w = linalg.index 2 : index
    %i = arith.index_cast %w : index to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.addf %in, %f : f32
    %0 = arith.maximumf %v, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Left to the loop lowering: an innermost parallel loop (LLVM vectorizes it
// as it is), and an elementwise op.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: linalg.generic
#a = affine_map<(d0, d1) -> (d0, d1)>
#c = affine_map<(d0, d1) -> (d1)>
func.func @kept(%x: memref<4x64xf32>, %s: memref<64xf32>, %y: memref<4x64xf32>) {
  linalg.generic {indexing_maps = [#a, #c], iterator_types = ["reduction", "parallel"]} ins(%x : memref<4x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#a, #a], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x64xf32>) outs(%y : memref<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// An operand read at a constant index (a broadcast scale) keeps the loops
// apart (collapseOpIterationDims takes projected permutations only).
// CHECK-LABEL: func.func @constant_index
// CHECK-NOT: memref.collapse_shape
// CHECK: scf.for {{.*}} iter_args
// CHECK: scf.for {{.*}} iter_args
// CHECK: arith.addf {{.*}} fastmath<reassoc>
#x = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#s = affine_map<(d0, d1, d2) -> (d0, 0, 0)>
#o = affine_map<(d0, d1, d2) -> (d0)>
func.func @constant_index(%x: memref<8x7x7xf32>, %scale: memref<8x1x1xf32>, %m: memref<8xf32>) {
  linalg.generic {indexing_maps = [#x, #s, #o], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x, %scale : memref<8x7x7xf32>, memref<8x1x1xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %p = arith.mulf %in, %sc : f32
    %0 = arith.addf %p, %out : f32
    linalg.yield %0 : f32
  }
  return
}
