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
