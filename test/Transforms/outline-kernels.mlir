// RUN: tcc-opt %s --tcc-outline-kernels=model-name=net --split-input-file | FileCheck %s

// Each linalg op becomes a call of a kernel named after it and its loop
// ranges. Views of a buffer (a strided subview, an expand_shape) and
// constants are recreated inside the kernel; the buffers they start from
// (arguments, workspace views) are passed.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: memref<2x3x4xf32>, %[[Z:.*]]: memref<2x3x6xf32>, %[[Y:.*]]: memref<2x30xf32>, %[[WS:.*]]: memref<384xi8>)
// CHECK: %[[T:.*]] = memref.view %[[WS]]
// CHECK: call @net_k0_transpose_2x2x6(%[[X]], %[[T]]) : (memref<2x3x4xf32>, memref<2x2x6xf32>) -> ()
// CHECK: %[[C:.*]] = memref.view %[[WS]]
// CHECK: call @net_k1_copy_2x2x6(%[[T]], %[[C]])
// CHECK: call @net_k2_copy_2x3x6(%[[Z]], %[[C]])
// CHECK: call @net_k3_generic_2x30(%[[C]], %[[Y]])
// CHECK-NOT: linalg.

// Arguments whose memory no other argument's overlaps are marked noalias.
// CHECK: func.func private @net_k0_transpose_2x2x6(%[[A:.*]]: memref<2x3x4xf32> {llvm.noalias}, %[[B:.*]]: memref<2x2x6xf32> {llvm.noalias}) attributes {tcc.kernel}
// CHECK-NEXT: %[[F:.*]] = memref.collapse_shape %[[A]]
// CHECK-NEXT: %[[E:.*]] = memref.expand_shape %[[F]]
// CHECK-NEXT: linalg.transpose ins(%[[E]] : memref<2x6x2xf32>) outs(%[[B]] : memref<2x2x6xf32>)
// CHECK-NEXT: return

// CHECK: func.func private @net_k1_copy_2x2x6(%[[S:.*]]: memref<2x2x6xf32> {llvm.noalias}, %[[D:.*]]: memref<2x5x6xf32> {llvm.noalias})
// CHECK-NEXT: %[[SV:.*]] = memref.subview %[[D]][0, 0, 0] [2, 2, 6] [1, 1, 1]
// CHECK-NEXT: linalg.copy ins(%[[S]] : memref<2x2x6xf32>) outs(%[[SV]] :

// A captured constant is recreated too.
// CHECK: func.func private @net_k3_generic_2x30(
// CHECK: memref.collapse_shape
// CHECK-NEXT: arith.constant 2.000000e+00 : f32
// CHECK-NEXT: linalg.generic
func.func @main(%arg0: memref<2x3x4xf32>, %arg1: memref<2x3x6xf32>, %arg2: memref<2x30xf32>, %arg3: memref<384xi8>) {
  %collapse_shape = memref.collapse_shape %arg0 [[0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
  %expand_shape = memref.expand_shape %collapse_shape [[0, 1, 2]] output_shape [2, 6, 2] : memref<24xf32> into memref<2x6x2xf32>
  %c256 = arith.constant 256 : index
  %view = memref.view %arg3[%c256][] : memref<384xi8> to memref<2x2x6xf32>
  linalg.transpose ins(%expand_shape : memref<2x6x2xf32>) outs(%view : memref<2x2x6xf32>) permutation = [0, 2, 1]
  %c0 = arith.constant 0 : index
  %view_0 = memref.view %arg3[%c0][] : memref<384xi8> to memref<2x5x6xf32>
  %subview = memref.subview %view_0[0, 0, 0] [2, 2, 6] [1, 1, 1] : memref<2x5x6xf32> to memref<2x2x6xf32, strided<[30, 6, 1]>>
  linalg.copy ins(%view : memref<2x2x6xf32>) outs(%subview : memref<2x2x6xf32, strided<[30, 6, 1]>>)
  %subview_1 = memref.subview %view_0[0, 2, 0] [2, 3, 6] [1, 1, 1] : memref<2x5x6xf32> to memref<2x3x6xf32, strided<[30, 6, 1], offset: 12>>
  linalg.copy ins(%arg1 : memref<2x3x6xf32>) outs(%subview_1 : memref<2x3x6xf32, strided<[30, 6, 1], offset: 12>>)
  %collapse_shape_2 = memref.collapse_shape %view_0 [[0], [1, 2]] : memref<2x5x6xf32> into memref<2x30xf32>
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%collapse_shape_2 : memref<2x30xf32>) outs(%arg2 : memref<2x30xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A contraction, the op before it that initializes its output (a bias
// broadcast) and the elementwise op after it that consumes the output
// become one kernel named after the contraction, the init and epilogue
// marked for tcc-vectorize-contractions. The second matmul's epilogue
// writes elsewhere and the output is read again afterwards: only its init
// joins it. The third's epilogue would write over the matmul's input
// while the matmul still reads it: it stays a kernel of its own.
#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @main
// CHECK: call @net_k0_matmul_4x8x16(
// CHECK-NEXT: memref.view
// CHECK-NEXT: call @net_k1_matmul_4x8x16(
// CHECK-NEXT: call @net_k2_generic_4x8(
// CHECK: call @net_k3_matmul_4x8x16(
// CHECK: call @net_k4_generic_4x8(
// CHECK-NEXT: call @net_k5_copy_4x8(
// CHECK: func.func private @net_k0_matmul_4x8x16(
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<8xf32>) {{.*}} attrs = {tcc.epilogue_init}
// CHECK: linalg.matmul
// CHECK-NEXT: linalg.generic {{.*}} attrs = {tcc.epilogue}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: func.func private @net_k1_matmul_4x8x16(
// CHECK-NEXT: linalg.generic {{.*}} attrs = {tcc.epilogue_init}
// CHECK: linalg.matmul
// CHECK-NEXT: return
// CHECK: func.func private @net_k3_matmul_4x8x16(
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: return
func.func @main(%a: memref<4x16xf32>, %w: memref<16x8xf32>, %bias: memref<8xf32>, %out: memref<4x8xf32>, %ws: memref<384xi8>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %t = memref.view %ws[%c0][] : memref<384xi8> to memref<4x8xf32>
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.matmul ins(%a, %w : memref<4x16xf32>, memref<16x8xf32>) outs(%t : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %cst : f32
    linalg.yield %r : f32
  }
  %u = memref.view %ws[%c128][] : memref<384xi8> to memref<4x8xf32>
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<8xf32>) outs(%u : memref<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.matmul ins(%a, %w : memref<4x16xf32>, memref<16x8xf32>) outs(%u : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%u, %t : memref<4x8xf32>, memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %o: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  }
  %a2 = memref.view %ws[%c256][] : memref<384xi8> to memref<4x16xf32>
  %v = memref.view %ws[%c0][] : memref<384xi8> to memref<4x8xf32>
  linalg.matmul ins(%a2, %w : memref<4x16xf32>, memref<16x8xf32>) outs(%u : memref<4x8xf32>)
  %over = memref.view %ws[%c256][] : memref<384xi8> to memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%u : memref<4x8xf32>) outs(%over : memref<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.copy ins(%u : memref<4x8xf32>) outs(%out : memref<4x8xf32>)
  return
}

// -----

// A matmul computed in place in an output (%qk, which the caller reads)
// keeps its stores when an elementwise op after it writes elsewhere: only
// its init joins it.
#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @main
// CHECK: call @net_k0_matmul_4x8x16(
// CHECK-NEXT: call @net_k1_generic_4x8(
// CHECK: func.func private @net_k0_matmul_4x8x16(
// CHECK-NEXT: linalg.generic {{.*}} attrs = {tcc.epilogue_init}
// CHECK: linalg.matmul
// CHECK-NEXT: return
func.func @main(%a: memref<4x16xf32>, %w: memref<16x8xf32>, %bias: memref<8xf32>, %qk: memref<4x8xf32>, %y: memref<4x8xf32>, %ws: memref<0xi8>) {
  %cst = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<8xf32>) outs(%qk : memref<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.matmul ins(%a, %w : memref<4x16xf32>, memref<16x8xf32>) outs(%qk : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%qk : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %cst : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The fills of a padded buffer's border (tcc-pad-in-place), one per side,
// are one kernel named for the buffer; a fill of another buffer after them
// is a kernel of its own.
// CHECK-LABEL: func.func @main
// CHECK: call @net_k0_fill_border_1x2x6x6(
// CHECK-NEXT: call @net_k1_fill_1x2x4x4(
// CHECK: func.func private @net_k0_fill_border_1x2x6x6(
// CHECK-COUNT-4: linalg.fill
// CHECK-NEXT: return
func.func @main(%x: memref<1x2x4x4xf32>, %ws: memref<288xi8>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %p = memref.view %ws[%c0][] : memref<288xi8> to memref<1x2x6x6xf32>
  %top = memref.subview %p[0, 0, 0, 0] [1, 2, 1, 6] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x1x6xf32, strided<[72, 36, 6, 1]>>
  linalg.fill ins(%cst : f32) outs(%top : memref<1x2x1x6xf32, strided<[72, 36, 6, 1]>>)
  %bottom = memref.subview %p[0, 0, 5, 0] [1, 2, 1, 6] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x1x6xf32, strided<[72, 36, 6, 1], offset: 30>>
  linalg.fill ins(%cst : f32) outs(%bottom : memref<1x2x1x6xf32, strided<[72, 36, 6, 1], offset: 30>>)
  %left = memref.subview %p[0, 0, 1, 0] [1, 2, 4, 1] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x4x1xf32, strided<[72, 36, 6, 1], offset: 6>>
  linalg.fill ins(%cst : f32) outs(%left : memref<1x2x4x1xf32, strided<[72, 36, 6, 1], offset: 6>>)
  %right = memref.subview %p[0, 0, 1, 5] [1, 2, 4, 1] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x4x1xf32, strided<[72, 36, 6, 1], offset: 11>>
  linalg.fill ins(%cst : f32) outs(%right : memref<1x2x4x1xf32, strided<[72, 36, 6, 1], offset: 11>>)
  linalg.fill ins(%cst : f32) outs(%x : memref<1x2x4x4xf32>)
  return
}

// -----

// A lone fill of a buffer a matmul then accumulates into is the matmul's
// init, in its kernel (not a border's group of fills).
// CHECK-LABEL: func.func @main
// CHECK: call @net_k0_matmul_4x8x16(
// CHECK-NOT: call
// CHECK: func.func private @net_k0_matmul_4x8x16(
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill {tcc.epilogue_init}
// CHECK-NEXT: linalg.matmul
func.func @main(%a: memref<4x16xf32>, %w: memref<16x8xf32>, %y: memref<4x8xf32>, %ws: memref<0xi8>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%y : memref<4x8xf32>)
  linalg.matmul ins(%a, %w : memref<4x16xf32>, memref<16x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// A softmax's passes (the max's init, the max, the exponentials, the sum's
// init, the sum, the quotient, here times a broadcast [32] scale) share
// their rows (2x4x8 of 32): one kernel, each op marked with its number of
// row dims for tcc-split-kernels. The sum runs on views with a leading
// unit dim (the same rows: 4 row dims). The scale, which no row indexes,
// is only read. The fill that initializes the matmul's output stays out.
// CHECK-LABEL: func.func @main
// CHECK: call @net_k0_rows_2x4x8x32(
// CHECK-NEXT: call @net_k1_fill_256x16(
// CHECK: call @net_k2_matmul_64x16x32(
// CHECK: func.func private @net_k0_rows_2x4x8x32(
// CHECK: linalg.fill {tcc.rows = 3 : i64}
// CHECK: linalg.generic {{.*}}"reduction"]}{{.*}}tcc.rows = 3 : i64
// CHECK: linalg.generic {{.*}}tcc.rows = 3 : i64
// CHECK: linalg.fill {tcc.rows = 3 : i64}
// CHECK: linalg.generic {{.*}}memref<1x2x4x8x32xf32>{{.*}}tcc.rows = 4 : i64
// CHECK: linalg.generic {{.*}}memref<32xf32>{{.*}}tcc.rows = 3 : i64
// CHECK-NEXT: ^bb0
// CHECK-NOT: tcc.rows
#id_r = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#red_r = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id5_r = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#red5_r = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#col_r = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @main(%x: memref<2x4x8x32xf32>, %g: memref<32xf32>, %w: memref<32x16xf32>, %y: memref<2x4x8x32xf32>, %z: memref<256x16xf32>, %ws: memref<256xi8>) {
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = memref.view %ws[%c0][] : memref<256xi8> to memref<2x4x8xf32>
  linalg.fill ins(%lowest : f32) outs(%m : memref<2x4x8xf32>)
  linalg.generic {indexing_maps = [#id_r, #red_r], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x : memref<2x4x8x32xf32>) outs(%m : memref<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.maximumf %a, %b : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id_r, #red_r, #id_r], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %m : memref<2x4x8x32xf32>, memref<2x4x8xf32>) outs(%y : memref<2x4x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  }
  linalg.fill ins(%zero : f32) outs(%m : memref<2x4x8xf32>)
  %y5 = memref.expand_shape %y [[0, 1], [2], [3], [4]] output_shape [1, 2, 4, 8, 32] : memref<2x4x8x32xf32> into memref<1x2x4x8x32xf32>
  %m5 = memref.expand_shape %m [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : memref<2x4x8xf32> into memref<1x2x4x8xf32>
  linalg.generic {indexing_maps = [#id5_r, #red5_r], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%y5 : memref<1x2x4x8x32xf32>) outs(%m5 : memref<1x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id_r, #red_r, #col_r, #id_r], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %m, %g : memref<2x4x8x32xf32>, memref<2x4x8xf32>, memref<32xf32>) outs(%y : memref<2x4x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    %0 = arith.divf %a, %b : f32
    %1 = arith.mulf %0, %c : f32
    linalg.yield %1 : f32
  }
  linalg.fill ins(%zero : f32) outs(%z : memref<256x16xf32>)
  %y2 = memref.collapse_shape %y [[0, 1, 2], [3]] : memref<2x4x8x32xf32> into memref<64x32xf32>
  %z2 = memref.subview %z[0, 0] [64, 16] [1, 1] : memref<256x16xf32> to memref<64x16xf32, strided<[16, 1]>>
  linalg.matmul ins(%y2, %w : memref<64x32xf32>, memref<32x16xf32>) outs(%z2 : memref<64x16xf32, strided<[16, 1]>>)
  return
}

// -----

// No row group: the exponentials go to a view that shares bytes with the
// max's (the workspace plan reuses them; row by row, the max of a later
// row would overwrite exponentials already written), and two elementwise
// ops alone have no reduction to keep in cache between them.
// CHECK-LABEL: func.func @main
// CHECK: call @net_k0_fill_2x8(
// CHECK-NEXT: call @net_k1_generic_2x8x32(
// CHECK-NEXT: call @net_k2_generic_2x8x32(
// CHECK-NEXT: call @net_k3_generic_2x8x32(
// CHECK-NEXT: call @net_k4_generic_2x8x32(
// CHECK-NOT: tcc.rows
#id_n = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red_n = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @main(%x: memref<2x8x32xf32>, %y: memref<2x8x32xf32>, %ws: memref<2048xi8>) {
  %lowest = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %m = memref.view %ws[%c0][] : memref<2048xi8> to memref<2x8xf32>
  %e = memref.view %ws[%c0][] : memref<2048xi8> to memref<2x8x32xf32>
  linalg.fill ins(%lowest : f32) outs(%m : memref<2x8xf32>)
  linalg.generic {indexing_maps = [#id_n, #red_n], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<2x8x32xf32>) outs(%m : memref<2x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.maximumf %a, %b : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id_n, #red_n, #id_n], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : memref<2x8x32xf32>, memref<2x8xf32>) outs(%e : memref<2x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id_n, #id_n], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e : memref<2x8x32xf32>) outs(%y : memref<2x8x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id_n, #id_n], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : memref<2x8x32xf32>) outs(%y : memref<2x8x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.negf %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A bias [1, 3, 8, 8] that every window (d0) reads whole, at (0, d1, d2,
// d3): the rows of its op stop before the heads (d1), which the bias
// indexes while no row does. The group's rows are the 4 windows.
// CHECK-LABEL: func.func @main
// CHECK: call @net_k0_rows_4x3x8x8(
// CHECK-NOT: call
// CHECK: linalg.generic {{.*}}tcc.rows = 1 : i64
// CHECK: linalg.fill {tcc.rows = 1 : i64}
// CHECK: linalg.generic {{.*}}tcc.rows = 1 : i64
// CHECK: linalg.generic {{.*}}tcc.rows = 1 : i64
#id_b = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias_b = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#red_b = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @main(%x: memref<4x3x8x8xf32>, %bias: memref<1x3x8x8xf32>, %y: memref<4x3x8x8xf32>, %ws: memref<384xi8>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %s = memref.view %ws[%c0][] : memref<384xi8> to memref<4x3x8xf32>
  linalg.generic {indexing_maps = [#id_b, #bias_b, #id_b], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %bias : memref<4x3x8x8xf32>, memref<1x3x8x8xf32>) outs(%y : memref<4x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%s : memref<4x3x8xf32>)
  linalg.generic {indexing_maps = [#id_b, #red_b], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%y : memref<4x3x8x8xf32>) outs(%s : memref<4x3x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id_b, #red_b, #id_b], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %s : memref<4x3x8x8xf32>, memref<4x3x8xf32>) outs(%y : memref<4x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A gather's body loads from a buffer (%t) whose bytes the sum after it
// reuses: row by row, the sum of row 0 would overwrite %t before the gather
// read its row 1. The gather stays out of the row group; the sum's init,
// the sum and the quotient make one.
// CHECK-LABEL: func.func @main
// CHECK: call @net_k0_generic_4x8(
// CHECK-NEXT: call @net_k1_rows_4x8(
// CHECK-NOT: call
#id_g = affine_map<(d0, d1) -> (d0, d1)>
#red_g = affine_map<(d0, d1) -> (d0)>
func.func @main(%y: memref<4x8xf32>, %ws: memref<128xi8>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %t = memref.view %ws[%c0][] : memref<128xi8> to memref<4x8xf32>
  %s = memref.view %ws[%c0][] : memref<128xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#id_g], iterator_types = ["parallel", "parallel"]} outs(%y : memref<4x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = memref.load %t[%i, %j] : memref<4x8xf32>
    linalg.yield %v : f32
  }
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [#id_g, #red_g], iterator_types = ["parallel", "reduction"]} ins(%y : memref<4x8xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id_g, #red_g, #id_g], iterator_types = ["parallel", "parallel"]} ins(%y, %s : memref<4x8xf32>, memref<4xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Workspace views whose bytes overlap are not noalias; one apart from both
// is. Nor is anything beside a buffer of unknown extent (an alloc).
// CHECK-LABEL: func.func @main(%{{.*}}: memref<16xf32>, %{{.*}}: memref<256xi8>)
// CHECK-LABEL: func.func private @net_k0_generic_16(
// CHECK-SAME: %{{.*}}: memref<16xf32>, %{{.*}}: memref<16xf32>, %{{.*}}: memref<16xf32> {llvm.noalias}) attributes {tcc.kernel}
// CHECK-LABEL: func.func private @net_k1_generic_16(
// CHECK-SAME: %{{.*}}: memref<16xf32>, %{{.*}}: memref<16xf32>) attributes {tcc.kernel}
#id = affine_map<(d0) -> (d0)>
func.func @main(%arg0: memref<16xf32>, %arg1: memref<256xi8>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %a = memref.view %arg1[%c0][] : memref<256xi8> to memref<16xf32>
  %b = memref.view %arg1[%c32][] : memref<256xi8> to memref<16xf32>
  %c = memref.view %arg1[%c128][] : memref<256xi8> to memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b, %c : memref<16xf32>, memref<16xf32>) {
  ^bb0(%in: f32, %o1: f32, %o2: f32):
    %n = arith.negf %in : f32
    linalg.yield %n, %in : f32, f32
  }
  %alloc = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%alloc : memref<16xf32>) outs(%arg0 : memref<16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  return
}
