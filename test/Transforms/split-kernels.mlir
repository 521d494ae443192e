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
