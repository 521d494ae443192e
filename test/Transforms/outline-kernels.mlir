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

// CHECK: func.func private @net_k0_transpose_2x2x6(%[[A:.*]]: memref<2x3x4xf32>, %[[B:.*]]: memref<2x2x6xf32>) attributes {tcc.kernel}
// CHECK-NEXT: %[[F:.*]] = memref.collapse_shape %[[A]]
// CHECK-NEXT: %[[E:.*]] = memref.expand_shape %[[F]]
// CHECK-NEXT: linalg.transpose ins(%[[E]] : memref<2x6x2xf32>) outs(%[[B]] : memref<2x2x6xf32>)
// CHECK-NEXT: return

// CHECK: func.func private @net_k1_copy_2x2x6(%[[S:.*]]: memref<2x2x6xf32>, %[[D:.*]]: memref<2x5x6xf32>)
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
