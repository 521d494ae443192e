// RUN: tcc-opt %s --tcc-dedup-kernels --split-input-file | FileCheck %s

// Two kernels that differ only in the weights they read (@w1, @w2) become
// the first, which takes them as a trailing noalias read-only argument;
// each call passes its own. The bias @b, read by both, stays inside. The
// third kernel scales by 3 instead of 2: a kernel of its own.
// CHECK-LABEL: func.func @main
// CHECK: %[[W1:.*]] = memref.get_global @w1 : memref<4xf32>
// CHECK: call @k0_scale(%arg0, %arg1, %[[W1]])
// CHECK: %[[W2:.*]] = memref.get_global @w2 : memref<4xf32>
// CHECK: call @k0_scale(%arg1, %arg2, %[[W2]])
// CHECK: call @k2_scale(%arg2, %arg0)
// CHECK: func.func private @k0_scale(%{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>, %[[W:.*]]: memref<4xf32> {llvm.noalias, llvm.readonly})
// CHECK-NOT: memref.get_global @w
// CHECK: memref.get_global @b
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[W]], %{{.*}} :
// CHECK-NOT: func.func private @k1_scale
// CHECK: func.func private @k2_scale(
// CHECK: memref.get_global @w1
memref.global "private" constant @w1 : memref<4xf32> = dense<1.0>
memref.global "private" constant @w2 : memref<4xf32> = dense<2.0>
memref.global "private" constant @b : memref<4xf32> = dense<0.5>
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  call @k0_scale(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  call @k1_scale(%b, %c) : (memref<4xf32>, memref<4xf32>) -> ()
  call @k2_scale(%c, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}
func.func private @k0_scale(%x: memref<4xf32>, %y: memref<4xf32>) attributes {tcc.kernel} {
  %w = memref.get_global @w1 : memref<4xf32>
  %bias = memref.get_global @b : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%x, %w, %bias : memref<4xf32>, memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%i: f32, %v: f32, %o: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %p = arith.mulf %i, %v : f32
    %q = arith.mulf %p, %two : f32
    %r = arith.addf %q, %o : f32
    linalg.yield %r : f32
  }
  return
}
func.func private @k1_scale(%x: memref<4xf32>, %y: memref<4xf32>) attributes {tcc.kernel} {
  %w = memref.get_global @w2 : memref<4xf32>
  %bias = memref.get_global @b : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%x, %w, %bias : memref<4xf32>, memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%i: f32, %v: f32, %o: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %p = arith.mulf %i, %v : f32
    %q = arith.mulf %p, %two : f32
    %r = arith.addf %q, %o : f32
    linalg.yield %r : f32
  }
  return
}
func.func private @k2_scale(%x: memref<4xf32>, %y: memref<4xf32>) attributes {tcc.kernel} {
  %w = memref.get_global @w1 : memref<4xf32>
  %bias = memref.get_global @b : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%x, %w, %bias : memref<4xf32>, memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%i: f32, %v: f32, %o: f32, %out: f32):
    %three = arith.constant 3.0 : f32
    %p = arith.mulf %i, %v : f32
    %q = arith.mulf %p, %three : f32
    %r = arith.addf %q, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Kernels whose buffers differ in noalias (the two calls' overlap differs)
// or that read a mutable global stay apart.
// CHECK-LABEL: func.func @main
// CHECK: call @k0_copy(%arg0, %arg1)
// CHECK: call @k1_copy(%arg0, %arg1)
// CHECK: call @k2_state(%arg0)
// CHECK: call @k3_state(%arg0)
// CHECK: func.func private @k0_copy
// CHECK: func.func private @k1_copy
// CHECK: func.func private @k2_state
// CHECK: memref.get_global @s1
// CHECK: func.func private @k3_state
// CHECK: memref.get_global @s2
memref.global "private" @s1 : memref<4xf32> = dense<0.0>
memref.global "private" @s2 : memref<4xf32> = dense<0.0>
func.func @main(%a: memref<4xf32>, %b: memref<4xf32>) {
  call @k0_copy(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  call @k1_copy(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  call @k2_state(%a) : (memref<4xf32>) -> ()
  call @k3_state(%a) : (memref<4xf32>) -> ()
  return
}
func.func private @k0_copy(%x: memref<4xf32> {llvm.noalias}, %y: memref<4xf32> {llvm.noalias}) attributes {tcc.kernel} {
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return
}
func.func private @k1_copy(%x: memref<4xf32>, %y: memref<4xf32>) attributes {tcc.kernel} {
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return
}
func.func private @k2_state(%x: memref<4xf32>) attributes {tcc.kernel} {
  %s = memref.get_global @s1 : memref<4xf32>
  memref.copy %x, %s : memref<4xf32> to memref<4xf32>
  return
}
func.func private @k3_state(%x: memref<4xf32>) attributes {tcc.kernel} {
  %s = memref.get_global @s2 : memref<4xf32>
  memref.copy %x, %s : memref<4xf32> to memref<4xf32>
  return
}
