// RUN: tcc-opt %s --split-input-file --verify-diagnostics --tcc-gpu-lower-launches=model-name=net | FileCheck %s

// An If's check (tcc_branch_check) reads its condition from device memory:
// the load becomes tcc_cuda_read(run, slot, address, 1 byte), the runtime's
// copy to the host once the kernels before it have run, and a load of the
// stack slot.
// CHECK-LABEL: llvm.func internal @main_device
// CHECK-SAME:    (%[[A:.*]]: !llvm.ptr, %[[WS:.*]]: !llvm.ptr, %[[HANDLE:.*]]: !llvm.ptr)
// CHECK:         %[[SLOT:.*]] = llvm.alloca %{{.*}} x i1
// CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:         llvm.call @tcc_cuda_read(%[[HANDLE]], %[[SLOT]], %[[WS]], %[[ONE]])
// CHECK:         %[[C:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> i1
// CHECK:         %[[OK:.*]] = llvm.zext %[[C]] : i1 to i32
// CHECK:         llvm.call @tcc_branch_check(%[[OK]], %{{.*}})
// CHECK:       llvm.func @tcc_cuda_read(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64)
module {
  llvm.mlir.global internal constant @tcc_branch_message_0("the If\00")
  llvm.func @tcc_branch_check(i32, !llvm.ptr)
  llvm.func @main(%a: !llvm.ptr, %ws: !llvm.ptr)
      attributes {tcc.buffer_bytes = array<i64: 8>, tcc.workspace_size = 64 : i64,
                  tcc.num_inputs = 1 : i64} {
    %c = llvm.load %ws : !llvm.ptr -> i1
    %ok = llvm.zext %c : i1 to i32
    %m = llvm.mlir.addressof @tcc_branch_message_0 : !llvm.ptr
    llvm.call @tcc_branch_check(%ok, %m) : (i32, !llvm.ptr) -> ()
    llvm.return
  }
}

// -----

// Any other load on the host would read device memory there.
module {
  llvm.func @main(%a: !llvm.ptr, %ws: !llvm.ptr)
      attributes {tcc.buffer_bytes = array<i64: 8>, tcc.workspace_size = 64 : i64,
                  tcc.num_inputs = 1 : i64} {
    // expected-error @+1 {{tcc-gpu-lower-launches: a load on the host, of device memory}}
    %x = llvm.load %a : !llvm.ptr -> f32
    llvm.store %x, %ws : f32, !llvm.ptr
    llvm.return
  }
}
