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

// Threads that wait for each other run piece by piece: each stretch between
// barriers is a loop over all the block's threads. Shared memory is one
// buffer for the block; a thread's value used past a barrier is kept in a
// buffer with an element per thread; a pure op (the index arithmetic) is
// computed again in the piece that needs it.
// CHECK-LABEL: func.func @barrier
// CHECK-DAG: %[[SHARED:.*]] = memref.alloca() : memref<16xf32>
// CHECK-DAG: %[[KEPT:.*]] = memref.alloca() : memref<1x1x16xf32>
// CHECK: scf.for %[[B:.*]] = %c0 to %c1
// CHECK: scf.for %[[TX1:.*]] = %c0 to %c16
// CHECK: %[[V:.*]] = memref.load %arg0[%[[TX1]]]
// CHECK: memref.store %[[V]], %[[SHARED]][%[[TX1]]]
// CHECK: memref.store %[[V]], %[[KEPT]][%{{.*}}, %{{.*}}, %[[TX1]]]
// CHECK: }
// CHECK: scf.for %[[TX2:.*]] = %c0 to %c16
// CHECK: %[[R:.*]] = arith.subi %c15, %[[TX2]]
// CHECK: %[[W:.*]] = memref.load %[[SHARED]][%[[R]]]
// CHECK: %[[OWN:.*]] = memref.load %[[KEPT]][%{{.*}}, %{{.*}}, %[[TX2]]]
// CHECK: %[[S:.*]] = arith.addf %[[W]], %[[OWN]]
// CHECK: memref.store %[[S]], %arg1[%[[TX2]]]
// CHECK-NOT: memref.store
func.func @barrier(%x: memref<16xf32>, %y: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1)
             workgroup(%s : memref<16xf32, #gpu.address_space<workgroup>>) {
    %r = arith.subi %c15, %tx : index
    %v = memref.load %x[%tx] : memref<16xf32>
    memref.store %v, %s[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %s[%r] : memref<16xf32, #gpu.address_space<workgroup>>
    %sum = arith.addf %w, %v : f32
    memref.store %sum, %y[%tx] : memref<16xf32>
    gpu.terminator
  }
  return
}

// -----

// A loop holding a barrier runs once for the block; its iteration
// arguments have an element per thread, set before it, read and written
// in each iteration's pieces, and read after it for its results.
// CHECK-LABEL: func.func @loop
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<1x1x4xf32>
// CHECK: %[[V:.*]] = memref.alloca() : memref<1x1x4xf32>
// CHECK: scf.for %[[T0:.*]] = %c0{{.*}} to %c4
// CHECK: memref.store %cst, %[[ACC]][%{{.*}}, %{{.*}}, %[[T0]]]
// CHECK: scf.for %{{.*}} = %c0 to %c3
// CHECK: scf.for %[[T1:.*]] = %c0{{.*}} to %c4
// CHECK: memref.store %{{.*}}, %[[V]][%{{.*}}, %{{.*}}, %[[T1]]]
// CHECK: scf.for %[[T2:.*]] = %c0{{.*}} to %c4
// CHECK: %[[A:.*]] = memref.load %[[ACC]][%{{.*}}, %{{.*}}, %[[T2]]]
// CHECK: %[[B:.*]] = memref.load %[[V]][%{{.*}}, %{{.*}}, %[[T2]]]
// CHECK: %[[N:.*]] = arith.addf %[[A]], %[[B]]
// CHECK: memref.store %[[N]], %[[ACC]][%{{.*}}, %{{.*}}, %[[T2]]]
// After the loop, each thread's result.
// CHECK: scf.for %[[T3:.*]] = %c0{{.*}} to %c4
// CHECK: %[[R:.*]] = memref.load %[[ACC]][%{{.*}}, %{{.*}}, %[[T3]]]
// CHECK: memref.store %[[R]], %arg0[%[[T3]]]
func.func @loop(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %x[%tx] : memref<4xf32>
      gpu.barrier
      %n = arith.addf %acc, %v : f32
      scf.yield %n : f32
    }
    memref.store %r, %x[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Barriers the emulation cannot order: one under a condition, one in a
// loop whose bounds differ between threads.
func.func @conditional(%x: memref<64xf32>, %c: i1) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{tcc-gpu-emulate-launches: a barrier is expected at the top of the launch or in an scf.for}}
    scf.if %c {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

func.func @varying_bounds(%x: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{tcc-gpu-emulate-launches: the bounds of a loop holding a barrier depend on the thread}}
    scf.for %i = %c0 to %tx step %c1 {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
