// RUN: tcc-opt %s --split-input-file --verify-diagnostics --tcc-gpu-prepare-kernels --convert-linalg-to-parallel-loops --gpu-map-parallel-loops --convert-parallel-loops-to-gpu --gpu-kernel-outlining --tcc-gpu-merge-kernels=model-name=net | FileCheck %s

// The outlined kernels go into one gpu.module named after the model, each
// named after its kernel (from tcc-gpu-prepare-kernels) in C's alphabet: a
// loop from elsewhere keeps the name of its location with '/' and '.' as
// '_'. @main records the bytes of its buffers for the runtime.
// CHECK-LABEL: func.func @main
// CHECK-SAME: tcc.buffer_bytes = array<i64: 32, 32>
// CHECK: gpu.launch_func @net_kernels::@net_k0_copy_8
// CHECK: gpu.launch_func @net_kernels::@net_bad_name_x
// CHECK-NOT: gpu.module @main_kernel
// CHECK: gpu.module @net_kernels
// CHECK: gpu.func @net_k0_copy_8
// CHECK: gpu.func @net_bad_name_x
// CHECK-NOT: gpu.module
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>, %ws: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %x = memref.load %b[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%i] : memref<8xf32>
    scf.reduce
  } loc("bad/name.x")
  return
}

// -----

// Kernels with equal bodies (the same op on the same shapes) are compiled
// once: the second copy's launch calls the first kernel; a body that
// differs (a product, not a sum) is a kernel of its own.
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @net_kernels::@net_k0_generic_8
// CHECK: gpu.launch_func @net_kernels::@net_k0_generic_8
// CHECK: gpu.launch_func @net_kernels::@net_k2_generic_8
// CHECK: gpu.module @net_kernels
// CHECK-COUNT-2: gpu.func
// CHECK-NOT: gpu.func
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>, %ws: memref<64xi8>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// What stays on the host may only view buffers and launch kernels.
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>, %ws: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{--target cuda: 'memref.load' would run on the host, on device memory; it has no GPU kernel yet}}
  %x = memref.load %a[%c0] : memref<8xf32>
  memref.store %x, %b[%c0] : memref<8xf32>
  return
}

// -----

// Except an If's check (onnx.CheckCondition): its condition is read on the
// host (tcc-gpu-lower-launches copies it from the GPU).
// CHECK-LABEL: func.func @main
// CHECK:         %[[C:.*]] = memref.load %{{.*}}[] : memref<i1>
// CHECK:         %[[OK:.*]] = arith.extui %[[C]] : i1 to i32
// CHECK:         call @tcc_branch_check(%[[OK]], %{{.*}})
llvm.mlir.global internal constant @tcc_branch_message_0("the If\00")
func.func private @tcc_branch_check(i32, !llvm.ptr)
func.func @main(%cond: memref<i1>, %ws: memref<64xi8>) {
  %m = llvm.mlir.addressof @tcc_branch_message_0 : !llvm.ptr
  %c = memref.load %cond[] : memref<i1>
  %ok = arith.extui %c : i1 to i32
  call @tcc_branch_check(%ok, %m) : (i32, !llvm.ptr) -> ()
  return
}

// -----

// A condition that also goes elsewhere is no longer the check's alone.
func.func private @tcc_branch_check(i32, !llvm.ptr)
func.func @main(%cond: memref<i1>, %out: memref<i1>, %m: !llvm.ptr) {
  // expected-error @+1 {{--target cuda: 'memref.load' would run on the host, on device memory; it has no GPU kernel yet}}
  %c = memref.load %cond[] : memref<i1>
  %ok = arith.extui %c : i1 to i32
  call @tcc_branch_check(%ok, %m) : (i32, !llvm.ptr) -> ()
  memref.store %c, %out[] : memref<i1>
  return
}
