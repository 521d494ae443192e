// RUN: tcc-opt %s --tcc-gpu-flatten-loops --sccp | FileCheck %s

// An outermost parallel nest of 2 x 3 x 5 becomes one loop of 30; each
// iteration recovers its indices (innermost fastest); the reduction loop
// inside stays as it is.
// CHECK-LABEL: func.func @nest
// CHECK: scf.parallel (%[[I:.*]]) = (%c0{{.*}}) to (%c30{{.*}}) step (%c1{{.*}})
// CHECK-DAG: %[[K:.*]] = arith.remsi %[[I]], %c5
// CHECK-DAG: arith.divsi %[[I]], %c5
// CHECK: scf.for
// CHECK-NOT: scf.parallel
func.func @nest(%x: memref<2x3x5x7xf32>, %y: memref<2x3x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  scf.parallel (%a, %b, %c) = (%c0, %c0, %c0) to (%c2, %c3, %c5) step (%c1, %c1, %c1) {
    scf.for %k = %c0 to %c7 step %c1 {
      %v = memref.load %x[%a, %b, %c, %k] : memref<2x3x5x7xf32>
      %s = memref.load %y[%a, %b, %c] : memref<2x3x5xf32>
      %r = arith.addf %v, %s : f32
      memref.store %r, %y[%a, %b, %c] : memref<2x3x5xf32>
    }
    scf.reduce
  }
  return
}
