// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-plan-workspace | FileCheck %s

// Three 4 KiB buffers: %a dies when %c is written, so %c reuses its offset;
// %b is live meanwhile and gets its own. Copies become linalg.copy.
// CHECK-LABEL: func @main
// CHECK-SAME: (%[[IN:.*]]: memref<1024xf32>, %[[OUT:.*]]: memref<1024xf32>, %[[WS:.*]]: memref<8192xi8>)
// CHECK-SAME: attributes {tcc.workspace_buffers = 3 : i64, tcc.workspace_buffers_bytes = 12288 : i64, tcc.workspace_lower_bound = 8192 : i64, tcc.workspace_size = 8192 : i64}
// CHECK-NOT: memref.alloc
// CHECK: %[[O1:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %[[WS]][%[[O1]]][] : memref<8192xi8> to memref<1024xf32>
// CHECK: linalg.copy ins(%[[IN]] : memref<1024xf32>) outs(%[[A]] : memref<1024xf32>)
// CHECK: %[[O2:.*]] = arith.constant 4096 : index
// CHECK: memref.view %[[WS]][%[[O2]]][]
// CHECK: %[[O3:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[WS]][%[[O3]]][]
// CHECK-NOT: memref.copy
func.func @main(%in: memref<1024xf32>, %out: memref<1024xf32>) {
  %a = memref.alloc() : memref<1024xf32>
  memref.copy %in, %a : memref<1024xf32> to memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  memref.copy %a, %b : memref<1024xf32> to memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  memref.copy %b, %c : memref<1024xf32> to memref<1024xf32>
  memref.copy %c, %out : memref<1024xf32> to memref<1024xf32>
  return
}

// -----

// A view keeps its source alive: %a is read through %v after %b is made.
// CHECK-LABEL: func @main
// CHECK-SAME: memref<128xi8>
// CHECK: arith.constant 0 : index
// CHECK: arith.constant 64 : index
func.func @main(%in: memref<4x4xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>
  %v = memref.collapse_shape %a [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %v, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

func.func @main(%in: memref<?xf32>, %n: index) {
  // expected-error @+1 {{dynamic shapes need a run-time memory plan, which is not supported yet}}
  %a = memref.alloc(%n) : memref<?xf32>
  memref.copy %in, %a : memref<?xf32> to memref<?xf32>
  return
}

// -----

// Arguments without elements become memref<0xT> (the bare-pointer calling
// convention cannot lower memref<2x0x4xf32>); their uses read an empty stack
// buffer of the original type.
// CHECK-LABEL: func @main
// CHECK-SAME: (%{{.*}}: memref<0xf32>, %{{.*}}: memref<0xf32>, %[[OUT:.*]]: memref<2xf32>
// CHECK: %[[IN:.*]] = memref.alloca() : memref<2x0x4xf32>
// CHECK: linalg.copy ins(%[[IN]] : memref<2x0x4xf32>)
func.func @main(%in: memref<2x0x4xf32>, %flat: memref<0xf32>, %out: memref<2xf32>) {
  %a = memref.alloc() : memref<2x0x4xf32>
  memref.copy %in, %a : memref<2x0x4xf32> to memref<2x0x4xf32>
  return
}

// -----

// An output copied whole from a buffer at its last use is computed in place:
// %a becomes %out1, and %out0, a copy of the same value before it, a copy of
// %out1. %b is read after its copy into %out2 (by the copy into %c), so it
// keeps its buffer and its copy; %c becomes %out3.
// CHECK-LABEL: func @main
// CHECK-SAME: (%[[IN:.*]]: memref<16xf32>, %[[OUT0:.*]]: memref<16xf32>, %[[OUT1:.*]]: memref<16xf32>, %[[OUT2:.*]]: memref<16xf32>, %[[OUT3:.*]]: memref<16xf32>, %[[WS:.*]]: memref<64xi8>)
// CHECK-SAME: tcc.workspace_buffers = 1 : i64
// CHECK: linalg.copy ins(%[[IN]] : memref<16xf32>) outs(%[[OUT1]] : memref<16xf32>)
// CHECK-NEXT: linalg.copy ins(%[[OUT1]] : memref<16xf32>) outs(%[[OUT0]] : memref<16xf32>)
// CHECK: %[[B:.*]] = memref.view %[[WS]]
// CHECK-NEXT: linalg.copy ins(%[[IN]] : memref<16xf32>) outs(%[[B]] : memref<16xf32>)
// CHECK-NEXT: linalg.copy ins(%[[B]] : memref<16xf32>) outs(%[[OUT2]] : memref<16xf32>)
// CHECK-NEXT: linalg.copy ins(%[[B]] : memref<16xf32>) outs(%[[OUT3]] : memref<16xf32>)
// CHECK-NEXT: return
func.func @main(%in: memref<16xf32>, %out0: memref<16xf32>, %out1: memref<16xf32>,
                %out2: memref<16xf32>, %out3: memref<16xf32>) attributes {tcc.num_inputs = 1 : i64} {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out0 : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out1 : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out2 : memref<16xf32> to memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  memref.copy %b, %c : memref<16xf32> to memref<16xf32>
  memref.copy %c, %out3 : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Concat in place: %a and %b are copied whole into the two channel halves
// of %d and die there, so they are placed inside %d (at 0 and 128 bytes
// into it), the ops computing them write the concat's memory, and the
// copies go. %d lives from %a's alloc on.
// CHECK-LABEL: func @main
// CHECK-SAME: memref<256xi8>
// CHECK-SAME: tcc.workspace_buffers = 3 : i64, tcc.workspace_buffers_bytes = 256 : i64
// CHECK: %[[OA:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %{{.*}}[%[[OA]]][] : memref<256xi8> to memref<1x2x4x4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<1x2x4x4xf32>)
// CHECK: %[[OB:.*]] = arith.constant 128 : index
// CHECK: %[[B:.*]] = memref.view %{{.*}}[%[[OB]]][] : memref<256xi8> to memref<1x2x4x4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[B]] : memref<1x2x4x4xf32>)
// CHECK: %[[OD:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = memref.view %{{.*}}[%[[OD]]][] : memref<256xi8> to memref<1x4x4x4xf32>
// CHECK-NOT: copy
// CHECK: linalg.map { arith.negf } ins(%[[D]]
func.func @main(%in: memref<1xf32>, %out: memref<1x4x4x4xf32>) attributes {tcc.num_inputs = 1 : i64} {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<1x2x4x4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1x2x4x4xf32>)
  %b = memref.alloc() : memref<1x2x4x4xf32>
  linalg.fill ins(%two : f32) outs(%b : memref<1x2x4x4xf32>)
  %d = memref.alloc() : memref<1x4x4x4xf32>
  %s0 = memref.subview %d[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x4x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1]>>
  memref.copy %a, %s0 : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1]>>
  %s1 = memref.subview %d[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x4x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: 32>>
  memref.copy %b, %s1 : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: 32>>
  linalg.map { arith.negf } ins(%d : memref<1x4x4x4xf32>) outs(%out : memref<1x4x4x4xf32>)
  return
}

// -----

// Not when that part of %d is written while %a is live: the fill of %s0
// must be overwritten by the copy, not the other way round.
// CHECK-LABEL: func @main
// CHECK: linalg.fill
// CHECK: linalg.fill
// CHECK: linalg.copy
func.func @main(%in: memref<1xf32>, %out: memref<1x4x4x4xf32>) attributes {tcc.num_inputs = 1 : i64} {
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %a = memref.alloc() : memref<1x2x4x4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1x2x4x4xf32>)
  %d = memref.alloc() : memref<1x4x4x4xf32>
  %s0 = memref.subview %d[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x4x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1]>>
  linalg.fill ins(%five : f32) outs(%s0 : memref<1x2x4x4xf32, strided<[64, 16, 4, 1]>>)
  memref.copy %a, %s0 : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1]>>
  linalg.map { arith.negf } ins(%d : memref<1x4x4x4xf32>) outs(%out : memref<1x4x4x4xf32>)
  return
}

// -----

// The add after the matmul may become its epilogue (one kernel, writing %d
// tile by tile while the matmul still reads %a): %d lives from the matmul,
// so it does not reuse %a's memory although %a dies there.
// CHECK-LABEL: func @main
// CHECK-SAME: memref<3072xi8>
// CHECK: %[[A:.*]] = arith.constant 0 : index
// CHECK: %[[C:.*]] = arith.constant 1024 : index
// CHECK: linalg.matmul
// CHECK: %[[D:.*]] = arith.constant 2048 : index
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%in: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<16x16xf32>
  memref.copy %in, %a : memref<16x16xf32> to memref<16x16xf32>
  %c = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  %d = memref.alloc() : memref<16x16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x16xf32>) outs(%d : memref<16x16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  memref.copy %d, %out : memref<16x16xf32> to memref<16x16xf32>
  return
}

// -----

// A buffer of each iteration of a loop (tcc-fuse-attention's scores of a
// block) is allocated once, before it, and planned like the others.
// CHECK-LABEL: func @main
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<256xi8>)
// CHECK: %[[S:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<256xi8> to memref<64xf32>
// CHECK: scf.for
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : memref<64xf32>)
// CHECK-NOT: memref.alloc
func.func @main(%in: memref<4x64xf32>, %out: memref<4x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %s = memref.alloc() : memref<64xf32>
    linalg.fill ins(%zero : f32) outs(%s : memref<64xf32>)
    %row = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    memref.copy %s, %row : memref<64xf32> to memref<64xf32, strided<[1], offset: ?>>
  }
  return
}

// -----

// In a loop marked tcc.parallel (3 iterations, from 2 by 3), whose
// iterations may run at once, each iteration views a copy of its own:
// 3 x 256 bytes, at ((i - 2) / 3) x 256.
// CHECK-LABEL: func @main
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<768xi8>)
// CHECK: %[[COPIES:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<768xi8> to memref<768xi8>
// CHECK: scf.for %[[I:[a-z0-9]+]] = %[[LB:[a-z0-9]+]] to %{{.*}} step %[[STEP:[a-z0-9]+]]
// CHECK: %[[D:.*]] = arith.subi %[[I]], %[[LB]]
// CHECK: %[[N:.*]] = arith.divui %[[D]], %[[STEP]]
// CHECK: %[[OFF:.*]] = arith.muli %[[N]], %{{.*}}
// CHECK: %[[OWN:.*]] = memref.view %[[COPIES]][%[[OFF]]][] : memref<768xi8> to memref<64xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[OWN]] : memref<64xf32>)
// CHECK: } {tcc.parallel}
func.func @main(%in: memref<9x64xf32>, %out: memref<9x64xf32>) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c2 to %c9 step %c3 {
    %s = memref.alloc() : memref<64xf32>
    linalg.fill ins(%zero : f32) outs(%s : memref<64xf32>)
    %row = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<9x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    memref.copy %s, %row : memref<64xf32> to memref<64xf32, strided<[1], offset: ?>>
  } {tcc.parallel}
  return
}

// -----

// A buffer a loop yields to its next iteration cannot be one for all of
// them.
func.func @main(%in: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %in) -> (memref<64xf32>) {
    // expected-error @+1 {{allocation inside a region is not supported}}
    %s = memref.alloc() : memref<64xf32>
    memref.copy %acc, %s : memref<64xf32> to memref<64xf32>
    scf.yield %s : memref<64xf32>
  }
  memref.copy %r, %out : memref<64xf32> to memref<64xf32>
  return
}
