// RUN: tcc-opt %s --split-input-file --verify-diagnostics --tcc-gpu-emulate-launches | FileCheck %s

// A launch becomes loops over its blocks and threads (z, y, x each; the
// blocks outside), the body inlined with the ids and dims the loops give.
// CHECK-LABEL: func.func @launch
// CHECK-NOT: gpu.launch
// CHECK: scf.for %[[BZ:.*]] = %c0 to %c1
// CHECK: scf.for %[[BY:.*]] = %c0 to %c1
// CHECK: scf.for %[[BX:.*]] = %c0 to %c4
// CHECK: scf.for %[[TZ:.*]] = %c0 to %c1
// CHECK: scf.for %[[TY:.*]] = %c0 to %c1
// CHECK: scf.for %[[TX:.*]] = %c0 to %c16
// CHECK: %[[I:.*]] = arith.muli %[[BX]], %c16
// CHECK: %[[J:.*]] = arith.addi %[[I]], %[[TX]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[J]]]
func.func @launch(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %sx : index
    %j = arith.addi %i, %tx : index
    memref.store %zero, %x[%j] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// Threads that wait for each other cannot run one after the other.
func.func @barrier(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{tcc-gpu-emulate-launches: barriers are not}}
    gpu.barrier
    gpu.terminator
  }
  return
}
