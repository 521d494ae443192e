// RUN: tcc-opt %s --tcc-clone-inits --split-input-file | FileCheck %s

// One zero fill is the init of two matmuls (CSE merged theirs): the second
// gets a fill of its own, so neither copies the other's init.
// CHECK-LABEL: func.func @shared_fill
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x4xf32>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : {{.*}}) outs(%[[F0]] : tensor<4x4xf32>)
// CHECK: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x4xf32>)
// CHECK: linalg.matmul ins(%arg1, %arg0 : {{.*}}) outs(%[[F1]] : tensor<4x4xf32>)
func.func @shared_fill(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.matmul ins(%b, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A broadcast of a constant bias is cloned too; one of an argument reads
// memory, and copying it costs no more than recomputing it: left shared.
// CHECK-LABEL: func.func @bias_inits
// CHECK-COUNT-2: linalg.generic {{.*}} ins(%cst
// CHECK-NOT: linalg.generic {{.*}} ins(%cst
#row = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @bias_inits(%a: tensor<4x4xf32>, %bias: tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %c = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%cst : tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  %v = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%v : tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%v : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1, %2, %3 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// One writer and a reader: nothing to clone.
// CHECK-LABEL: func.func @one_writer
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT: linalg.fill
func.func @one_writer(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.add ins(%f, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// No writer at all (a tap-by-tap conv slices its bias init): unchanged.
// CHECK-LABEL: func.func @no_writer
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT: linalg.fill
func.func @no_writer() -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = tensor.extract_slice %f[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// -----

// CSE makes the empty tensors of a shape one value: after 32 uses, the next
// 32 get an empty tensor of their own (one-shot bufferization compares each
// write into a shared one with all its other uses: quadratic).
// CHECK-LABEL: func.func @many_empty_uses
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-COUNT-32: linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<4xf32>)
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-COUNT-2: linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<4xf32>)
// CHECK-NOT: tensor.empty
func.func @many_empty_uses(%v0: f32, %v1: f32, %v2: f32, %v3: f32, %v4: f32, %v5: f32, %v6: f32, %v7: f32, %v8: f32, %v9: f32, %v10: f32, %v11: f32, %v12: f32, %v13: f32, %v14: f32, %v15: f32, %v16: f32, %v17: f32, %v18: f32, %v19: f32, %v20: f32, %v21: f32, %v22: f32, %v23: f32, %v24: f32, %v25: f32, %v26: f32, %v27: f32, %v28: f32, %v29: f32, %v30: f32, %v31: f32, %v32: f32, %v33: f32) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %f0 = linalg.fill ins(%v0 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f1 = linalg.fill ins(%v1 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f2 = linalg.fill ins(%v2 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f3 = linalg.fill ins(%v3 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f4 = linalg.fill ins(%v4 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f5 = linalg.fill ins(%v5 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f6 = linalg.fill ins(%v6 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f7 = linalg.fill ins(%v7 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f8 = linalg.fill ins(%v8 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f9 = linalg.fill ins(%v9 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f10 = linalg.fill ins(%v10 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f11 = linalg.fill ins(%v11 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f12 = linalg.fill ins(%v12 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f13 = linalg.fill ins(%v13 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f14 = linalg.fill ins(%v14 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f15 = linalg.fill ins(%v15 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f16 = linalg.fill ins(%v16 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f17 = linalg.fill ins(%v17 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f18 = linalg.fill ins(%v18 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f19 = linalg.fill ins(%v19 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f20 = linalg.fill ins(%v20 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f21 = linalg.fill ins(%v21 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f22 = linalg.fill ins(%v22 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f23 = linalg.fill ins(%v23 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f24 = linalg.fill ins(%v24 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f25 = linalg.fill ins(%v25 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f26 = linalg.fill ins(%v26 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f27 = linalg.fill ins(%v27 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f28 = linalg.fill ins(%v28 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f29 = linalg.fill ins(%v29 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f30 = linalg.fill ins(%v30 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f31 = linalg.fill ins(%v31 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f32 = linalg.fill ins(%v32 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f33 = linalg.fill ins(%v33 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18, %f19, %f20, %f21, %f22, %f23, %f24, %f25, %f26, %f27, %f28, %f29, %f30, %f31, %f32, %f33 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
