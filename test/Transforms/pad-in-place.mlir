// RUN: tcc-opt %s --tcc-pad-in-place -split-input-file | FileCheck %s

// A bias, the convolution that adds to it and the ReLU after it compute
// into the interior of the padded tensor, filled with the padding value;
// the pad becomes an insert_slice of the result at the same place. The
// other op that used the same tensor.empty keeps it.
// CHECK-LABEL: func.func @padded_conv
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x34x34xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x4x34x34xf32>)
// CHECK: %[[I:.*]] = tensor.extract_slice %[[F]][0, 0, 1, 1] [1, 4, 32, 32] [1, 1, 1, 1]
// CHECK: %[[OLD:.*]] = tensor.empty() : tensor<1x4x32x32xf32>
// CHECK: %[[B:.*]] = linalg.generic {{.*}} outs(%[[I]] : tensor<1x4x32x32xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%[[B]] : tensor<1x4x32x32xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x4x32x32xf32>) outs(%[[I]] : tensor<1x4x32x32xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[OLD]] : tensor<1x4x32x32xf32>)
// CHECK: tensor.insert_slice %[[R]] into %[[F]][0, 0, 1, 1] [1, 4, 32, 32] [1, 1, 1, 1]
// CHECK-NOT: tensor.pad
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @padded_conv(%x: tensor<1x3x32x32xf32>, %w: tensor<4x3x1x1xf32>, %b: tensor<4xf32>) -> (tensor<1x4x34x34xf32>, tensor<1x4x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x32x32xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x32x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x32x32xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x3x32x32xf32>, tensor<4x3x1x1xf32>) outs(%init : tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv : tensor<1x4x32x32xf32>) outs(%e : tensor<1x4x32x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x32x32xf32>
  %other = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x32x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x32x32xf32>
  %p = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x32x32xf32> to tensor<1x4x34x34xf32>
  return %p, %other : tensor<1x4x34x34xf32>, tensor<1x4x32x32xf32>
}

// -----

// Kept: rows under 7 (a tile of the convolution computing them would hold
// fewer map positions than its runs), and a source that is not computed
// into a tensor.empty.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: tensor.pad
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @kept(%x: tensor<1x4x4x4xf32>, %y: tensor<1x4x32x32xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x34x34xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
  %q = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x32x32xf32> to tensor<1x4x34x34xf32>
  return %p, %q : tensor<1x4x6x6xf32>, tensor<1x4x34x34xf32>
}
