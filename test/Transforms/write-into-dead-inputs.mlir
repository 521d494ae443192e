// RUN: tcc-opt %s --tcc-write-into-dead-inputs --split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// A residual add after a matmul: the residual (dead after the add) becomes
// its init; the matmul's result, which the add would be the epilogue of,
// does not.
// CHECK-LABEL: func.func @residual
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x8xf32>)
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%[[M]], %[[R]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[R]] : tensor<4x8xf32>)
func.func @residual(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %m = linalg.matmul ins(%r, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %r : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Left alone: an input used after the op, a function argument, a
// broadcast input, an input of another type, the result of the op just
// before, and an init the op reads.
// CHECK-LABEL: func.func @kept
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: %[[NEG:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<4x8xf32>)
// CHECK: %[[COPY:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[NEG]] : {{.*}}) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: %[[BCAST:.*]] = linalg.generic {{.*}} ins(%arg1, %arg2 : {{.*}}) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: %[[PREV:.*]] = linalg.generic {{.*}} ins(%[[BCAST]] : {{.*}}) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[COPY]] : {{.*}}) outs(%[[PREV]] : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @kept(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %h: tensor<4x8xf16>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %copy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %neg : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %1 = arith.addf %a, %c : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%b, %h : tensor<8xf32>, tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f16, %out: f32):
    %2 = arith.extf %c : f16 to f32
    %3 = arith.addf %a, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %4 = arith.mulf %a, %a : f32
    linalg.yield %4 : f32
  } -> tensor<4x8xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%copy : tensor<4x8xf32>) outs(%2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %5 = arith.addf %a, %out : f32
    linalg.yield %5 : f32
  } -> tensor<4x8xf32>
  return %neg, %0, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Slices of one buffer are left alone. The first is dead after its
// negation, but its buffer is also the second's, read after it (writing
// over it would make bufferization copy it); the second is dead after the
// add, but a slice's buffer is strided (a contraction could not store an
// epilogue there).
// CHECK-LABEL: func.func @slices
// CHECK: %[[E8:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[A:.*]] = tensor.extract_slice
// CHECK: %[[B:.*]] = tensor.extract_slice
// CHECK: %[[NA:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x8xf32>) outs(%[[E8]] : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[NA]], %[[B]] : {{.*}}) outs(%[[E8]] : tensor<4x8xf32>)
func.func @slices(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %e8 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x16xf32>
  %a = tensor.extract_slice %y[0, 0] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
  %b = tensor.extract_slice %y[0, 8] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
  %na = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e8 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%na, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e8 : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %0 = arith.addf %p, %q : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// %w is written into the caller's buffer %arg1 (its init): not taken.
// (The constant between keeps %w from being the result just before.)
// CHECK-LABEL: func.func @argument_init
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: %[[W:.*]] = linalg.generic {{.*}} outs(%arg1 : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<4x8xf32>)
func.func @argument_init(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%y : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %c = arith.constant 1.0 : f32
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %out: f32):
    %0 = arith.addf %p, %c : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
