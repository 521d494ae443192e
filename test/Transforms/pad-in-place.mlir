// RUN: tcc-opt %s --tcc-pad-in-place -split-input-file | FileCheck %s

// A bias, the convolution that adds to it and the ReLU after it compute
// into the interior of the padded tensor, whose border alone (an eighth of
// it or less) is filled with the padding value, one slab per side: the top
// and bottom rows whole, the left and right columns of the interior rows.
// The pad becomes an insert_slice of the result at the same place. The
// other op that used the same tensor.empty keeps it.
// CHECK-LABEL: func.func @padded_conv
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x34x34xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 4, 1, 34] [1, 1, 1, 1]
// CHECK: %[[F0:.*]] = linalg.fill ins(%[[Z:.*]] : f32) outs(%[[S0]] : tensor<1x4x1x34xf32>)
// CHECK: %[[E1:.*]] = tensor.insert_slice %[[F0]] into %[[E]][0, 0, 0, 0] [1, 4, 1, 34] [1, 1, 1, 1]
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[E1]][0, 0, 33, 0] [1, 4, 1, 34] [1, 1, 1, 1]
// CHECK: %[[F1:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[S1]] : tensor<1x4x1x34xf32>)
// CHECK: %[[E2:.*]] = tensor.insert_slice %[[F1]] into %[[E1]][0, 0, 33, 0] [1, 4, 1, 34] [1, 1, 1, 1]
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[E2]][0, 0, 1, 0] [1, 4, 32, 1] [1, 1, 1, 1]
// CHECK: %[[F2:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[S2]] : tensor<1x4x32x1xf32>)
// CHECK: %[[E3:.*]] = tensor.insert_slice %[[F2]] into %[[E2]][0, 0, 1, 0] [1, 4, 32, 1] [1, 1, 1, 1]
// CHECK: %[[S3:.*]] = tensor.extract_slice %[[E3]][0, 0, 1, 33] [1, 4, 32, 1] [1, 1, 1, 1]
// CHECK: %[[F3:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[S3]] : tensor<1x4x32x1xf32>)
// CHECK: %[[F:.*]] = tensor.insert_slice %[[F3]] into %[[E3]][0, 0, 1, 33] [1, 4, 32, 1] [1, 1, 1, 1]
// CHECK-NOT: linalg.fill
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

// Copied, not computed in place: rows under 7 (a tile of the convolution
// computing them would hold fewer map positions than its runs), and a
// source that is not computed into a tensor.empty. Each is inserted into a
// filled padded tensor: filled whole where the border is more than an
// eighth of it (6x6 around 4x4), its border alone otherwise.
// CHECK-LABEL: func.func @copied
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x6x6xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x4x6x6xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %[[R]] into %[[F]][0, 0, 1, 1] [1, 4, 4, 4] [1, 1, 1, 1]
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<1x4x34x34xf32>
// CHECK-COUNT-4: linalg.fill {{.*}} -> tensor<1x4x{{1x34|32x1}}xf32>
// CHECK: %[[Q:.*]] = tensor.insert_slice %arg1 into %{{.*}}[0, 0, 1, 1] [1, 4, 32, 32] [1, 1, 1, 1]
// CHECK: return %[[P]], %[[Q]]
// CHECK-NOT: tensor.pad
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @copied(%x: tensor<1x4x4x4xf32>, %y: tensor<1x4x32x32xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x34x34xf32>) {
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

// -----

// Channels last: the pad is on H and W, so the interior's contiguous runs
// are rows of pixels (4 x 3 channels = 12 elements), not the 3 channels
// alone: the ReLU computes into the padded tensor.
// CHECK-LABEL: func.func @channels_last
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x3xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x6x6x3xf32>)
// CHECK: %[[I:.*]] = tensor.extract_slice %[[F]][0, 1, 1, 0] [1, 4, 4, 3] [1, 1, 1, 1]
// CHECK: %[[R:.*]] = linalg.generic {{.*}} outs(%[[I]] : tensor<1x4x4x3xf32>)
// CHECK: tensor.insert_slice %[[R]] into %[[F]][0, 1, 1, 0] [1, 4, 4, 3] [1, 1, 1, 1]
// CHECK-NOT: tensor.pad
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @channels_last(%x: tensor<1x4x4x3xf32>) -> tensor<1x6x6x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x3xf32>) outs(%e : tensor<1x4x4x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x3xf32>
  %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x3xf32> to tensor<1x6x6x3xf32>
  return %p : tensor<1x6x6x3xf32>
}

// -----

// The padding value may be a constant inside the pad's region.
// CHECK-LABEL: func.func @constant_inside
// CHECK: %[[C:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.fill ins(%[[C]] : f32) outs(%{{.*}} : tensor<1x2x6x6xf32>)
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1]
// CHECK-NOT: tensor.pad
func.func @constant_inside(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32> {
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %one = arith.constant 1.0 : f32
    tensor.yield %one : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  return %p : tensor<1x2x6x6xf32>
}

// -----

// Only the sides that are padded are filled, with the pad's value: here
// the end of dim 1 (channels), -inf, and the start of the rows. Pads of
// dynamic shapes stay.
// CHECK-LABEL: func.func @sides
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x34x64x66xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[E]][0, 32, 0, 0] [1, 2, 64, 66] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[NEG:.*]] : f32) outs(%[[S0]] : tensor<1x2x64x66xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 32, 64, 2] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<1x32x64x2xf32>)
// CHECK-NOT: linalg.fill
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 0, 2] [1, 32, 64, 64] [1, 1, 1, 1]
// CHECK: tensor.pad %arg1
func.func @sides(%x: tensor<1x32x64x64xf32>, %y: tensor<?x4xf32>) -> (tensor<1x34x64x66xf32>, tensor<?x6xf32>) {
  %neg = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 0, 2] high[0, 2, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %neg : f32
  } : tensor<1x32x64x64xf32> to tensor<1x34x64x66xf32>
  %q = tensor.pad %y low[0, 1] high[0, 1] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %neg : f32
  } : tensor<?x4xf32> to tensor<?x6xf32>
  return %p, %q : tensor<1x34x64x66xf32>, tensor<?x6xf32>
}
