// RUN: tcc-opt %s --pass-pipeline='builtin.module(func.func(tcc-split-kernels))' | FileCheck %s

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#red4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// An elementwise op on contiguous buffers: 16 equal runs of its elements.
// CHECK-LABEL: func private @relu
// CHECK-DAG: %[[X:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : memref<1x32x64x64xf32> into memref<131072xf32>
// CHECK-DAG: %[[Y:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : memref<1x32x64x64xf32> into memref<131072xf32>
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c16 step
// CHECK:   %[[AT:.*]] = arith.muli %[[C]], %c8192
// CHECK:   memref.subview %[[X]][%[[AT]]] [8192] [1]
// CHECK:   memref.subview %[[Y]][%[[AT]]] [8192] [1]
// CHECK:   linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK: } {tcc.parallel}
func.func private @relu(%x: memref<1x32x64x64xf32>, %y: memref<1x32x64x64xf32>) attributes {tcc.kernel} {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x32x64x64xf32>) outs(%y : memref<1x32x64x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  return
}

// A reduction over rows: split along the first parallel dim of >= 8
// iterations (the heads); linalg.index of that dim counts from the chunk.
// CHECK-LABEL: func private @row_max
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c12 step
// CHECK:   %[[AT:.*]] = arith.muli %[[C]], %{{.*}}
// CHECK:   memref.subview %{{.*}}[0, %[[AT]], 0, 0] [1, 1, 128, 128] [1, 1, 1, 1]
// CHECK:   memref.subview %{{.*}}[0, %[[AT]], 0] [1, 1, 128] [1, 1, 1]
// CHECK:   linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:     %[[I:.*]] = linalg.index 1
// CHECK:     arith.addi %[[I]], %[[AT]]
// CHECK: } {tcc.parallel}
func.func private @row_max(%x: memref<1x12x128x128xf32>, %y: memref<1x12x128xf32>) attributes {tcc.kernel} {
  linalg.generic {indexing_maps = [#id4, #red4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : memref<1x12x128x128xf32>) outs(%y : memref<1x12x128xf32>) {
  ^bb0(%a: f32, %b: f32):
    %i = linalg.index 1 : index
    %f = arith.index_cast %i : index to i32
    %g = arith.sitofp %f : i32 to f32
    %s = arith.addf %a, %g : f32
    %m = arith.maximumf %s, %b : f32
    linalg.yield %m : f32
  }
  return
}

// Below 2^16 iterations, or not a kernel: left alone.
// CHECK-LABEL: func private @small
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func private @small(%x: memref<1x32x32x32xf32>, %y: memref<1x32x32x32xf32>) attributes {tcc.kernel} {
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x32x32x32xf32>) outs(%y : memref<1x32x32x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}
// CHECK-LABEL: func @not_a_kernel
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @not_a_kernel(%x: memref<1x32x64x64xf32>, %y: memref<1x32x64x64xf32>) {
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x32x64x64xf32>) outs(%y : memref<1x32x64x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

#id_r = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#red_r = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id5_r = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#red5_r = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#col_r = affine_map<(d0, d1, d2, d3) -> (d3)>

// A row group's kernel (tcc-outline-kernels marks each op with its number
// of row dims): one loop nest over the rows 4x8x64 around all the ops, on
// subviews of a chunk of rows. A row is 512 bytes: the innermost row loop
// steps by 32 rows (16 KB). The outermost loop of 8 trips or more (the 8)
// is split over threads. The op with a leading unit dim takes the same
// rows one dim later; the [128] scale no row indexes is read whole; the
// linalg.index of a row dim counts from the chunk's start.
// CHECK-LABEL: func private @softmax
// CHECK: scf.for %[[A:.*]] = %{{.*}} to %c4 step
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %c8 step
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c64 step %c32
// CHECK: %[[M:.*]] = memref.subview %arg0[%[[A]], %[[B]], %[[C]]] [1, 1, 32] [1, 1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[M]] : memref<1x1x32xf32, strided<[512, 64, 1], offset: ?>>)
// CHECK: memref.subview %arg1[%[[A]], %[[B]], %[[C]], 0] [1, 1, 32, 128] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}}"reduction"]}
// CHECK: linalg.generic
// CHECK: linalg.fill
// CHECK: memref.subview %{{.*}}[0, %[[A]], %[[B]], %[[C]], 0] [1, 1, 1, 32, 128] [1, 1, 1, 1, 1]
// CHECK: memref.subview %{{.*}}[0, %[[A]], %[[B]], %[[C]]] [1, 1, 1, 32] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}}"reduction"]}
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %arg3 : {{.*}}, memref<128xf32>)
// CHECK: %[[I:.*]] = linalg.index 2
// CHECK: arith.addi %[[I]], %[[C]]
// CHECK: }
// CHECK: }
// CHECK-NEXT: } {tcc.parallel}
// CHECK-NOT: tcc.rows
func.func private @softmax(%m: memref<4x8x64xf32>, %x: memref<4x8x64x128xf32>, %y: memref<4x8x64x128xf32>, %g: memref<128xf32>) attributes {tcc.kernel} {
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %y5 = memref.expand_shape %y [[0, 1], [2], [3], [4]] output_shape [1, 4, 8, 64, 128] : memref<4x8x64x128xf32> into memref<1x4x8x64x128xf32>
  %m5 = memref.expand_shape %m [[0, 1], [2], [3]] output_shape [1, 4, 8, 64] : memref<4x8x64xf32> into memref<1x4x8x64xf32>
  linalg.fill {tcc.rows = 3 : i64} ins(%lowest : f32) outs(%m : memref<4x8x64xf32>)
  linalg.generic {indexing_maps = [#id_r, #red_r], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x : memref<4x8x64x128xf32>) outs(%m : memref<4x8x64xf32>) attrs = {tcc.rows = 3 : i64} {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.maximumf %a, %b : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id_r, #red_r, #id_r], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %m : memref<4x8x64x128xf32>, memref<4x8x64xf32>) outs(%y : memref<4x8x64x128xf32>) attrs = {tcc.rows = 3 : i64} {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  }
  linalg.fill {tcc.rows = 3 : i64} ins(%zero : f32) outs(%m : memref<4x8x64xf32>)
  linalg.generic {indexing_maps = [#id5_r, #red5_r], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%y5 : memref<1x4x8x64x128xf32>) outs(%m5 : memref<1x4x8x64xf32>) attrs = {tcc.rows = 4 : i64} {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id_r, #red_r, #col_r, #id_r], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %m, %g : memref<4x8x64x128xf32>, memref<4x8x64xf32>, memref<128xf32>) outs(%y : memref<4x8x64x128xf32>) attrs = {tcc.rows = 3 : i64} {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    %i = linalg.index 2 : index
    %f = arith.index_cast %i : index to i32
    %h = arith.sitofp %f : i32 to f32
    %0 = arith.divf %a, %b : f32
    %1 = arith.mulf %0, %c : f32
    %2 = arith.addf %1, %h : f32
    linalg.yield %2 : f32
  }
  return
}

// A transpose is split along a dim neither side walks contiguously: an
// NHWC -> NCHW transpose along H (16 chunks of 7 rows), not along the
// channels, the input's innermost dim, whose chunks of 4 would leave the
// 8x8 register blocks of tcc-tile-transposes nothing to work on.
// CHECK-LABEL: func private @to_nchw
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c16 step
// CHECK:   %[[AT:.*]] = arith.muli %[[C]], %c7
// CHECK:   %[[X:.*]] = memref.subview %{{.*}}[0, %[[AT]], 0, 0] [1, 7, 112, 64] [1, 1, 1, 1]
// CHECK:   %[[Y:.*]] = memref.subview %{{.*}}[0, 0, %[[AT]], 0] [1, 64, 7, 112] [1, 1, 1, 1]
// CHECK:   linalg.transpose ins(%[[X]] : {{.*}}) outs(%[[Y]] : {{.*}}) permutation = [0, 3, 1, 2]
// CHECK: } {tcc.parallel}
func.func private @to_nchw(%x: memref<1x112x112x64xf32>, %y: memref<1x64x112x112xf32>) attributes {tcc.kernel} {
  linalg.transpose ins(%x : memref<1x112x112x64xf32>) outs(%y : memref<1x64x112x112xf32>) permutation = [0, 3, 1, 2]
  return
}

// An input read through windows 2 rows apart (a Winograd input transform's
// 4x4 windows on NHWC tiles): split along the tile rows t, the outermost
// parallel dim of >= 8 iterations, not along the channels; a chunk's
// window on the input starts 2 rows per t in and spans the rows its tiles
// read (58 - 2 * (28 - 1) = 4).
// CHECK-LABEL: func private @window_rows
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c28 step
// CHECK:   %[[AT:.*]] = arith.muli %[[C]], %c1
// CHECK:   %[[ROW:.*]] = arith.muli %[[AT]], %c2
// CHECK:   memref.subview %{{.*}}[0, %[[ROW]], 0, 0] [1, 4, 58, 128] [1, 1, 1, 1]
// CHECK:   memref.subview %{{.*}}[0, %[[AT]], 0, 0] [1, 1, 28, 128] [1, 1, 1, 1]
// CHECK:   linalg.generic
// CHECK: } {tcc.parallel}
#win = affine_map<(d0, d1, d2, d3) -> (d0, d1 * 2 + 3, d2 * 2 + 1, d3)>
func.func private @window_rows(%x: memref<1x58x58x128xf32>, %y: memref<1x28x28x128xf32>) attributes {tcc.kernel} {
  linalg.generic {indexing_maps = [#win, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x58x58x128xf32>) outs(%y : memref<1x28x28x128xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// A row group that a loop nest with memory effects sits between (a
// contraction's tiles, whose init and epilogue did not fuse into them) runs
// op by op: a rows loop around the init and the epilogue would move both
// before the loop nest. The marks go.
// CHECK-LABEL: func.func private @rows_around_tiles
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0
// CHECK-NEXT: linalg.fill ins(%[[Z]] : i32) outs(%arg0 : memref<2x9x10x8xi32>)
// CHECK: scf.for
// CHECK: memref.store
// CHECK: }
// CHECK-NEXT: linalg.generic
// CHECK-NOT: tcc.rows
func.func private @rows_around_tiles(%acc: memref<2x9x10x8xi32>, %y: memref<2x9x10x8xi8>) attributes {tcc.kernel} {
  %zero = arith.constant 0 : i32
  linalg.fill {tcc.rows = 3 : i64} ins(%zero : i32) outs(%acc : memref<2x9x10x8xi32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %n = %c0 to %c2 step %c1 {
    memref.store %zero, %acc[%n, %c0, %c0, %c0] : memref<2x9x10x8xi32>
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc : memref<2x9x10x8xi32>) outs(%y : memref<2x9x10x8xi8>) attrs = {tcc.rows = 3 : i64} {
  ^bb0(%a: i32, %b: i8):
    %t = arith.trunci %a : i32 to i8
    linalg.yield %t : i8
  }
  return
}
