// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-emit-entry-points=model-name=net | FileCheck %s

// Kernels become internal and are never inlined back into @main.
// CHECK-LABEL: llvm.func internal @net_k0_generic_4(%{{.*}}: !llvm.ptr) attributes {no_inline, tcc.kernel}
// CHECK-LABEL: llvm.func internal @net_main(
// CHECK-LABEL: llvm.func @net_workspace_size() -> i64
// CHECK: llvm.mlir.constant(256 : i64)
// CHECK-LABEL: llvm.func @net_run_ctx(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
// Null buffers and a null or misaligned workspace are rejected with status 1:
// the workspace's alignment, then a loop over the buffers stored on the stack
// (not a comparison per buffer, which LLVM takes cubic time to optimize).
// CHECK: llvm.mlir.constant(63 : i64)
// CHECK: %[[N:.*]] = llvm.mlir.constant(3 : i64)
// CHECK: %[[ARRAY:.*]] = llvm.alloca %[[N]] x !llvm.ptr
// CHECK-COUNT-3: llvm.store %arg{{[1-3]}}, %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK: ^[[FAIL:bb[0-9]+]]:
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: llvm.return
// CHECK: ^[[HEAD:bb[0-9]+]](%[[I:.*]]: i64):
// CHECK: llvm.icmp "slt" %[[I]]
// CHECK: llvm.getelementptr %[[ARRAY]][%[[I]]]
// CHECK: llvm.icmp "eq"
// CHECK: llvm.cond_br %{{.*}}, ^[[FAIL]], ^[[HEAD]](
// @main takes no context here: the call passes the buffers and workspace.
// Without parallel loops the run needs no tcc_run_begin / tcc_run_end.
// CHECK-NOT: tcc_run_begin
// CHECK: llvm.call @net_main(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NOT: tcc_run_end
// The call without a context runs on the calling thread: a null context.
// CHECK-LABEL: llvm.func @net_run(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @net_run_ctx(%[[NULL]],
// CHECK-LABEL: llvm.func @net_run_packed_ctx(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
// CHECK: llvm.load
// CHECK: llvm.load
// CHECK: llvm.call @net_run_ctx
// CHECK-LABEL: llvm.func @net_run_packed(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
// CHECK: llvm.call @net_run_packed_ctx
llvm.func @net_k0_generic_4(%buf: !llvm.ptr) attributes {tcc.kernel} {
  llvm.return
}
llvm.func @main(%in: !llvm.ptr, %out: !llvm.ptr, %ws: !llvm.ptr) attributes {tcc.num_inputs = 1 : i64, tcc.workspace_size = 256 : i64} {
  llvm.call @net_k0_generic_4(%out) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// With a context (tcc-parallelize-loops): @main gets the caller's, and a
// call of a parallel chunk, chunk(args..., 0, n, context), becomes
// tcc_parallel_for(context, n, chunk_task, argv) with the arguments stored
// in 8-byte slots, which chunk_task loads back to call the chunk with a
// null context.
// CHECK-LABEL: llvm.func internal @net_k0_par0(
// CHECK-LABEL: llvm.func internal @net_k0(
// CHECK-SAME: %[[BUF:[a-z0-9]+]]: !llvm.ptr, %[[ROW:[a-z0-9]+]]: i64, %[[CTX:[a-z0-9]+]]: !llvm.ptr)
// CHECK: %[[ARGV:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x i64> {alignment = 8 : i64}
// CHECK: %[[N:.*]] = llvm.mlir.constant(12 : index) : i64
// CHECK: %[[S0:.*]] = llvm.getelementptr %[[ARGV]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: llvm.store %[[BUF]], %[[S0]] : !llvm.ptr, !llvm.ptr
// CHECK: %[[S1:.*]] = llvm.getelementptr %[[ARGV]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: llvm.store %[[ROW]], %[[S1]] : i64, !llvm.ptr
// CHECK: %[[TASK:.*]] = llvm.mlir.addressof @net_k0_par0_task
// CHECK: llvm.call @tcc_parallel_for(%[[CTX]], %[[N]], %[[TASK]], %[[ARGV]])
// CHECK-NOT: llvm.call @net_k0_par0(
// CHECK-LABEL: llvm.func internal @net_main(
// CHECK-LABEL: llvm.func @tcc_parallel_for(!llvm.ptr, i64, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func internal @net_k0_par0_task(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[B:[a-z0-9]+]]: i64, %[[E:[a-z0-9]+]]: i64)
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[Z:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @net_k0_par0(%{{.*}}, %{{.*}}, %[[B]], %[[E]], %[[Z]])
// With parallel loops, the run is bracketed by tcc_run_begin and tcc_run_end
// (the caller's CPU binding), which share a 256-byte scope on the stack.
// CHECK-LABEL: llvm.func @net_run_ctx(
// CHECK: %[[WORDS:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[SCOPE:.*]] = llvm.alloca %[[WORDS]] x i64 {alignment = 8 : i64}
// CHECK: llvm.call @tcc_run_begin(%arg0, %[[SCOPE]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT: llvm.call @net_main(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %arg0)
// CHECK-NEXT: llvm.call @tcc_run_end(%arg0, %[[SCOPE]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK: llvm.return
// CHECK-DAG: llvm.func @tcc_run_begin(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @tcc_run_end(!llvm.ptr, !llvm.ptr)
llvm.func @net_k0_par0(%buf: !llvm.ptr, %row: i64, %begin: i64, %end: i64, %ctx: !llvm.ptr) attributes {tcc.parallel_chunk} {
  llvm.return
}
llvm.func @net_k0(%buf: !llvm.ptr, %row: i64, %ctx: !llvm.ptr) attributes {tcc.kernel, tcc.takes_context} {
  %c0 = llvm.mlir.constant(0 : index) : i64
  %c12 = llvm.mlir.constant(12 : index) : i64
  llvm.call @net_k0_par0(%buf, %row, %c0, %c12, %ctx) : (!llvm.ptr, i64, i64, i64, !llvm.ptr) -> ()
  llvm.return
}
llvm.func @main(%in: !llvm.ptr, %out: !llvm.ptr, %ws: !llvm.ptr, %ctx: !llvm.ptr) attributes {tcc.num_inputs = 1 : i64, tcc.workspace_size = 256 : i64, tcc.takes_context} {
  %c3 = llvm.mlir.constant(3 : index) : i64
  llvm.call @net_k0(%out, %c3, %ctx) : (!llvm.ptr, i64, !llvm.ptr) -> ()
  llvm.return
}

// -----

// With the weights in a file (tcc-externalize-weights): the entry points
// take the caller's `tcc_weights *` after the context, and pass @main the
// data tcc_weights_bind returns for the model's bytes and fingerprint; null
// (no weights, or another model's) fails the call with status 1.
// CHECK-LABEL: llvm.func @net_run_ctx(
// CHECK-SAME: %[[CTX:[a-z0-9]+]]: !llvm.ptr, %[[W:[a-z0-9]+]]: !llvm.ptr, %[[IN:[a-z0-9]+]]: !llvm.ptr, %[[OUT:[a-z0-9]+]]: !llvm.ptr, %[[WS:[a-z0-9]+]]: !llvm.ptr) -> i32
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(4096 : i64) : i64
// CHECK: %[[FP:.*]] = llvm.mlir.constant(-81985529216486896 : i64) : i64
// CHECK: %[[DATA:.*]] = llvm.call @tcc_weights_bind(%[[W]], %[[BYTES]], %[[FP]]) : (!llvm.ptr, i64, i64) -> !llvm.ptr
// CHECK: llvm.icmp "eq" %[[DATA]]
// CHECK: llvm.call @net_main(%[[DATA]], %[[IN]], %[[OUT]], %[[WS]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-LABEL: llvm.func @net_run(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
// CHECK-LABEL: llvm.func @net_run_packed_ctx(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %[[PW:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[PWS:[a-z0-9]+]]: !llvm.ptr) -> i32
// CHECK: llvm.call @net_run_ctx(%{{[^,]*}}, %[[PW]], %{{[^,]*}}, %{{[^,]*}}, %[[PWS]])
// CHECK-LABEL: llvm.func @net_run_packed(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
llvm.func @main(%w: !llvm.ptr, %in: !llvm.ptr, %out: !llvm.ptr, %ws: !llvm.ptr) attributes {tcc.num_inputs = 1 : i64, tcc.workspace_size = 256 : i64, tcc.weights_bytes = 4096 : i64, tcc.weights_fingerprint = -81985529216486896 : i64} {
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
