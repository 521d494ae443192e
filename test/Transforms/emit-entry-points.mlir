// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-emit-entry-points=model-name=net | FileCheck %s

// Kernels become internal and are never inlined back into @main.
// CHECK-LABEL: llvm.func internal @net_k0_generic_4(%{{.*}}: !llvm.ptr) attributes {no_inline, tcc.kernel}
// CHECK-LABEL: llvm.func internal @net_main(
// CHECK-LABEL: llvm.func @net_workspace_size() -> i64
// CHECK: llvm.mlir.constant(256 : i64)
// CHECK-LABEL: llvm.func @net_run(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
// Null buffers and a null or misaligned workspace are rejected with status 1.
// CHECK: llvm.icmp "eq"
// CHECK: llvm.icmp "eq"
// CHECK: llvm.icmp "eq"
// CHECK: llvm.mlir.constant(63 : i64)
// CHECK: llvm.cond_br
// CHECK: llvm.call @net_main
// CHECK-LABEL: llvm.func @net_run_packed(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
// CHECK: llvm.load
// CHECK: llvm.load
// CHECK: llvm.call @net_run
llvm.func @net_k0_generic_4(%buf: !llvm.ptr) attributes {tcc.kernel} {
  llvm.return
}
llvm.func @main(%in: !llvm.ptr, %out: !llvm.ptr, %ws: !llvm.ptr) attributes {tcc.num_inputs = 1 : i64, tcc.workspace_size = 256 : i64} {
  llvm.call @net_k0_generic_4(%out) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// expected-error @+1 {{@main lacks tcc.num_inputs or tcc.workspace_size}}
llvm.func @main(%in: !llvm.ptr, %ws: !llvm.ptr) {
  llvm.return
}

// -----

// expected-error @+1 {{tcc-emit-entry-points: no lowered @main}}
module {
}
