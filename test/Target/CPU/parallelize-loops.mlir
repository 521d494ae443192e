// RUN: tcc-opt %s --tcc-parallelize-loops --split-input-file | FileCheck %s

// The loop marked tcc.parallel (iterations 1, 4, 7 of a loop nested in
// another) becomes a call of @k0_par0 over iterations [0, 3); the chunk
// takes what the loop reads (the buffers, the outer induction variable),
// recreates the view, and maps its own counter back to 1 + 3 * i. The
// kernel and @main take a trailing context, which @main passes on.
// CHECK-LABEL: func.func private @k0(
// CHECK-SAME: %[[IN:[a-z0-9]+]]: memref<4x8xf32>, %[[OUT:[a-z0-9]+]]: memref<4x8xf32>, %[[CTX:[a-z0-9]+]]: !llvm.ptr) attributes {tcc.kernel, tcc.takes_context}
// CHECK: scf.for %[[N:[a-z0-9]+]] =
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[TRIPS:.*]] = arith.constant 3 : index
// CHECK: func.call @k0_par0(%[[IN]], %[[N]], %[[OUT]], %[[ZERO]], %[[TRIPS]], %[[CTX]])
// CHECK-NOT: tcc.parallel}
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[MCTX:[a-z0-9]+]]: !llvm.ptr) attributes {tcc.takes_context}
// CHECK: call @k0(%{{.*}}, %{{.*}}, %[[MCTX]])
// CHECK-LABEL: func.func private @k0_par0(
// CHECK-SAME: %[[PIN:[a-z0-9]+]]: memref<4x8xf32>, %[[PN:[a-z0-9]+]]: index, %[[POUT:[a-z0-9]+]]: memref<4x8xf32>, %[[B:[a-z0-9]+]]: index, %[[E:[a-z0-9]+]]: index, %{{.*}}: !llvm.ptr) attributes {tcc.parallel_chunk}
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[POUT]]
// CHECK: scf.for %[[I:[a-z0-9]+]] = %[[B]] to %[[E]] step
// CHECK: %[[SCALED:.*]] = arith.muli %[[I]], %{{.*}}
// CHECK: %[[IV:.*]] = arith.addi %[[SCALED]], %{{.*}}
// CHECK: memref.load %[[PIN]][%[[PN]], %[[IV]]]
// CHECK: memref.store %{{.*}}, %[[FLAT]]
func.func private @k0(%in: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {tcc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %flat = memref.collapse_shape %out [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  scf.for %n = %c0 to %c3 step %c1 {
    scf.for %i = %c1 to %c8 step %c3 {
      %v = memref.load %in[%n, %i] : memref<4x8xf32>
      %j = arith.addi %i, %c8 : index
      memref.store %v, %flat[%j] : memref<32xf32>
    } {tcc.parallel}
  }
  return
}
func.func @main(%in: memref<4x8xf32>, %out: memref<4x8xf32>) {
  call @k0(%in, %out) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  return
}

// -----

// A loop reading a value no function can take (a dynamic memref) stays
// serial; @main still takes a context.
// CHECK-LABEL: func.func private @dynamic(
// CHECK-SAME: attributes {tcc.kernel}
// CHECK: scf.for
// CHECK-NOT: call
// CHECK-LABEL: func.func @main(
// CHECK-SAME: !llvm.ptr) attributes {tcc.takes_context}
func.func private @dynamic(%out: memref<?xf32>) attributes {tcc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %f, %out[%i] : memref<?xf32>
  } {tcc.parallel}
  return
}
func.func @main(%out: memref<?xf32>) {
  call @dynamic(%out) : (memref<?xf32>) -> ()
  return
}

// -----

// A run-time upper bound (blocks of a bounded dim, tcc-cut-run-time-loops):
// the trip count, ceil((n - 0) / 32), is computed at the call.
// CHECK-LABEL: func.func private @k0(
// CHECK-SAME: %[[BUF:[a-z0-9]+]]: memref<64x8xf32>, %[[N:[a-z0-9]+]]: index, %[[CTX:[a-z0-9]+]]: !llvm.ptr)
// CHECK: %[[SPAN:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[UP:.*]] = arith.addi %[[SPAN]], %{{.*}} : index
// CHECK: %[[TRIPS:.*]] = arith.divui %[[UP]], %{{.*}} : index
// CHECK: call @k0_par0(%[[N]], %[[BUF]], %{{.*}}, %[[TRIPS]], %[[CTX]])
func.func private @k0(%buf: memref<64x8xf32>, %n: index) attributes {tcc.kernel} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c32 {
    memref.store %zero, %buf[%i, %c0] : memref<64x8xf32>
  } {tcc.parallel}
  return
}

func.func @main(%buf: memref<64x8xf32>, %n: index) {
  call @k0(%buf, %n) : (memref<64x8xf32>, index) -> ()
  return
}

// -----

// A parallel loop inside another (a contraction's in tcc-fuse-attention's
// blocks) runs on the thread of the outer one's iteration: one chunk, the
// outer loop; the inner one stays in it, serial and unmarked.
// CHECK-LABEL: func.func private @nested(
// CHECK: call @nested_par0(
// CHECK-NOT: call @nested_par1
// CHECK-LABEL: func.func private @nested_par0(
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: tcc.parallel
// CHECK-NOT: func.func private @nested_par1
func.func private @nested(%out: memref<4x8xf32>) attributes {tcc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.for %n = %c0 to %c4 step %c1 {
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %zero, %out[%n, %i] : memref<4x8xf32>
    } {tcc.parallel}
  } {tcc.parallel}
  return
}
func.func @main(%out: memref<4x8xf32>) {
  call @nested(%out) : (memref<4x8xf32>) -> ()
  return
}
