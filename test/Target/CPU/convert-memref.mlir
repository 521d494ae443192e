// RUN: tcc-opt %s --pass-pipeline='builtin.module(func.func(tcc-convert-memref-in-functions))' | FileCheck %s --check-prefix=FUNC
// RUN: tcc-opt %s --pass-pipeline='builtin.module(func.func(tcc-convert-memref-in-functions),tcc-convert-module-leftovers,func.func(convert-arith-to-llvm),convert-func-to-llvm,reconcile-unrealized-casts)' | FileCheck %s --check-prefix=ALL

// Per function: loads, stores and views become LLVM ops; the ops that need
// the module (a global's address, malloc, free, libm) stay, and mark the
// function. A function with none of them is not marked.
// FUNC: memref.global "private" constant @w
// FUNC-LABEL: func.func @kernel
// FUNC-SAME: attributes {tcc.llvm_leftovers}
// FUNC: memref.get_global @w
// FUNC: memref.alloc()
// FUNC: math.erf
// FUNC: memref.dealloc
// FUNC-NOT: memref.load
// FUNC-NOT: memref.store
// FUNC: return
// FUNC-LABEL: func.func @plain
// FUNC-NOT: tcc.llvm_leftovers
// FUNC: llvm.load
// FUNC: llvm.store

// Then the module's globals and the marked functions' leftovers: no memref
// or math op and no mark stays.
// ALL-DAG: llvm.mlir.global private constant @w
// ALL-DAG: llvm.func @malloc
// ALL-DAG: llvm.func @free
// ALL-DAG: llvm.func @erff
// ALL-NOT: memref.
// ALL-NOT: math.
// ALL-NOT: tcc.llvm_leftovers
memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

func.func @kernel(%out: memref<4xf32>, %i: index) {
  %w = memref.get_global @w : memref<4xf32>
  %tmp = memref.alloc() : memref<4xf32>
  %x = memref.load %w[%i] : memref<4xf32>
  %e = math.erf %x : f32
  memref.store %e, %tmp[%i] : memref<4xf32>
  %y = memref.load %tmp[%i] : memref<4xf32>
  memref.store %y, %out[%i] : memref<4xf32>
  memref.dealloc %tmp : memref<4xf32>
  return
}

func.func @plain(%in: memref<4xf32>, %out: memref<4xf32>, %i: index) {
  %x = memref.load %in[%i] : memref<4xf32>
  memref.store %x, %out[%i] : memref<4xf32>
  return
}
