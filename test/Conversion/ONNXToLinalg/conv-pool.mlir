// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg | FileCheck %s
// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg=winograd=false | FileCheck %s --check-prefix=DIRECT
// RUN: tcc-opt %s -split-input-file -verify-diagnostics --tcc-convert-onnx-to-linalg=vector-bits=512 | FileCheck %s --check-prefix=WIDE

// Bias initializes the accumulator; pads become tensor.pad with zeros.
// CHECK-LABEL: func @conv_bias_pads
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[P]], %arg1 : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]]
func.func @conv_bias_pads(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = onnx.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Taps that mostly read padding (3x3 dilated by 4 on a 5x6 map: the
// border taps reach 1 row and 2 columns) become one 1x1 conv per tap over
// the output rectangle it reaches, accumulated in place: no padded copy.
// The centre tap covers the whole output; a corner reaches 1x2 of it.
// CHECK-LABEL: func @conv_tapwise
// CHECK-NOT: tensor.pad
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<2xf32>)
// CHECK: %[[W00:.*]] = arith.constant dense_resource<conv_tap_weight> : tensor<2x3x1x1xf32>
// CHECK: %[[X00:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 3, 1, 2] [1, 1, 1, 1]
// CHECK: %[[Y00:.*]] = tensor.extract_slice %[[INIT]][0, 0, 4, 4] [1, 2, 1, 2] [1, 1, 1, 1]
// CHECK: %[[C00:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X00]], %[[W00]] : tensor<1x3x1x2xf32>, tensor<2x3x1x1xf32>) outs(%[[Y00]]
// CHECK: %[[A00:.*]] = tensor.insert_slice %[[C00]] into %[[INIT]][0, 0, 4, 4] [1, 2, 1, 2] [1, 1, 1, 1]
// CHECK-COUNT-3: linalg.conv_2d_nchw_fchw
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 3, 5, 6] [1, 1, 1, 1]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x2x5x6xf32>
// CHECK-COUNT-4: linalg.conv_2d_nchw_fchw
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv_tapwise(%x: tensor<1x3x5x6xf32>, %b: tensor<2xf32>) -> tensor<1x2x5x6xf32> {
  %w = onnx.Constant dense<1.0> : tensor<2x3x3x3xf32>
  %0 = onnx.Conv %x, %w, %b {dilations = array<i64: 4, 4>, pads = array<i64: 4, 4, 4, 4>} : (tensor<1x3x5x6xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x5x6xf32>
  return %0 : tensor<1x2x5x6xf32>
}

// -----

// Where the taps reach most of the output (3x3 with pads 1), one conv over
// the padded input.
// CHECK-LABEL: func @conv_not_tapwise
// CHECK: tensor.pad
// CHECK-COUNT-1: linalg.conv_2d_nchw_fchw
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv_not_tapwise(%x: tensor<1x3x5x6xf32>) -> tensor<1x2x5x6xf32> {
  %w = onnx.Constant dense<1.0> : tensor<2x3x3x3xf32>
  %none = onnx.NoValue
  %0 = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x6xf32>, tensor<2x3x3x3xf32>, none) -> tensor<1x2x5x6xf32>
  return %0 : tensor<1x2x5x6xf32>
}

// -----

// A group per channel with one filter each (depthwise) is the depthwise
// named op on the NCHW tensors: no group dim.
// CHECK-LABEL: func @conv_depthwise
// CHECK: %[[F:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2], [3]] : tensor<4x1x3x3xf32> into tensor<4x3x3xf32>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%arg0, %[[F]] : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) {{.*}} -> tensor<1x4x6x6xf32>
// CHECK-NOT: tensor.expand_shape
func.func @conv_depthwise(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %none = onnx.NoValue
  %0 = onnx.Conv %x, %w, %none {group = 4} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>, none) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// Other groups split C and M and use the grouped named op.
// CHECK-LABEL: func @conv_grouped
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3], [4]] {{.*}} into tensor<1x2x2x8x8xf32>
// CHECK: tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3], [4]] {{.*}} into tensor<2x4x2x3x3xf32>
// CHECK: linalg.conv_2d_ngchw_gfchw
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x8x6x6xf32>
func.func @conv_grouped(%x: tensor<1x4x8x8xf32>, %w: tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %none = onnx.NoValue
  %0 = onnx.Conv %x, %w, %none {group = 2} : (tensor<1x4x8x8xf32>, tensor<8x2x3x3xf32>, none) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

// CHECK-LABEL: func @maxpool_ceil
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: linalg.fill ins(%[[NEG]]
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
func.func @maxpool_ceil(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32> {
  %0 = onnx.MaxPool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = 1} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %1 = tensor.extract_slice %0[0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1] : tensor<1x2x3x3xf32> to tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

// -----

// Excluded pads are not counted: the corner window sees 4 of 9 values.
// CHECK-LABEL: func @avgpool_exclude_pad
// CHECK: linalg.pooling_nchw_sum
// CHECK: arith.constant dense<{{\[\[}}4.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00, 6.000000e+00], [4.000000e+00, 6.000000e+00, 4.000000e+00]]> : tensor<3x3xf32>
// CHECK: arith.divf
func.func @avgpool_exclude_pad(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// Pools on channels-last tensors (tcc-onnx-channels-last's): the pads go on
// H and W, linalg's NHWC pools; an average pool's counts broadcast along
// the channels as [OH, OW, 1] (with ceil_mode, the last window of the odd
// map sees 2 of 4 values).
// CHECK-LABEL: func @nhwc_pools
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[NEG]]
// CHECK: %[[M:.*]] = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %{{.*}} : tensor<1x7x7x3xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x3x3x3xf32>)
// CHECK: %[[Q:.*]] = tensor.pad %[[M]] low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: %[[S:.*]] = linalg.pooling_nhwc_sum {{.*}} ins(%[[Q]], %{{.*}} : tensor<1x4x4x3xf32>, tensor<2x2xf32>) outs(%{{.*}} : tensor<1x2x2x3xf32>)
// CHECK: %[[N:.*]] = arith.constant dense<{{\[\[\[}}4.000000e+00], [2.000000e+00]], {{\[\[}}2.000000e+00], [1.000000e+00]]]> : tensor<2x2x1xf32>
// CHECK: linalg.generic {{.*}} ins(%[[S]], %[[N]] : tensor<1x2x2x3xf32>, tensor<2x2x1xf32>)
// CHECK: arith.divf
func.func @nhwc_pools(%x: tensor<1x5x5x3xf32>) -> tensor<1x2x2x3xf32> {
  %0 = onnx.NhwcMaxPool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x5x5x3xf32>) -> tensor<1x3x3x3xf32>
  %1 = onnx.NhwcAveragePool %0 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = 1} : (tensor<1x3x3x3xf32>) -> tensor<1x2x2x3xf32>
  return %1 : tensor<1x2x2x3xf32>
}

// -----

// CHECK-LABEL: func @global_average_pool
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.divf
// CHECK: tensor.expand_shape {{.*}} into tensor<1x8x1x1xf32>
func.func @global_average_pool(%x: tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32> {
  %0 = onnx.GlobalAveragePool %x : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
  return %0 : tensor<1x8x1x1xf32>
}

// -----

// Other ranks (and groups) use one grouped linalg.generic; the input map
// reads o * stride + k * dilation.
// CHECK-DAG: #[[$IN3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d6, d3 * 2 + d7, d4 + d8, d5 + d9)>
// CHECK-LABEL: func @conv_3d
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3], [4], [5]]
// CHECK: linalg.generic {indexing_maps = [#[[$IN3]], {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x1x2x3x3xf32>
func.func @conv_3d(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x2x2x2xf32>) -> tensor<1x1x2x3x3xf32> {
  %none = onnx.NoValue
  %0 = onnx.Conv %x, %w, %none {strides = array<i64: 2, 1, 1>} : (tensor<1x1x4x4x4xf32>, tensor<1x1x2x2x2xf32>, none) -> tensor<1x1x2x3x3xf32>
  return %0 : tensor<1x1x2x3x3xf32>
}

// -----

// CHECK-LABEL: func @maxpool_1d
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.maximumf
func.func @maxpool_1d(%x: tensor<1x2x9xf32>) -> tensor<1x2x4xf32> {
  %0 = onnx.MaxPool %x {kernel_shape = array<i64: 3>, strides = array<i64: 2>} : (tensor<1x2x9xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

// Channels last (tcc-onnx-channels-last): the weights are transposed at
// compile time to [M, kH, kW, C], which the reduction reads in the order
// it runs (kh, kw, c); the bias starts the accumulators along the last dim,
// and the pads are on H and W.
// CHECK-LABEL: func @nhwc_conv
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], {{.*}} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>)
// CHECK: %[[W:.*]] = arith.constant dense_resource<nhwc_weight> : tensor<4x3x3x3xf32>
// CHECK: linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[P]], %[[W]] : tensor<1x10x10x3xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]]
func.func @nhwc_conv(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x4xf32> {
  %w = onnx.Constant dense<0.5> : tensor<4x3x3x3xf32>
  %b = onnx.Constant dense<0.25> : tensor<4xf32>
  %0 = onnx.NhwcConv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// A depthwise one reads its weights as [kH, kW, C].
// CHECK-LABEL: func @nhwc_depthwise
// CHECK: %[[W:.*]] = arith.constant dense_resource<nhwc_weight> : tensor<3x3x6xf32>
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x7x7x6xf32>, tensor<3x3x6xf32>) outs(%{{.*}} : tensor<1x5x5x6xf32>)
func.func @nhwc_depthwise(%x: tensor<1x7x7x6xf32>) -> tensor<1x5x5x6xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<0.5> : tensor<6x1x3x3xf32>
  %0 = onnx.NhwcConv %x, %w, %none {group = 6} : (tensor<1x7x7x6xf32>, tensor<6x1x3x3xf32>, none) -> tensor<1x5x5x6xf32>
  return %0 : tensor<1x5x5x6xf32>
}

// -----

func.func @nhwc_conv_weights(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{is supported only with static shapes and f32 constant weights}}
  %0 = onnx.NhwcConv %x, %w, %none : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// A grouped one that is not depthwise splits the channels into [G, C/G]
// and the filters into [G, M/G]: linalg.conv_2d_nhwgc_gfhwc on weights [G,
// M/G, kH, kW, C/G], dilated here.
// CHECK-LABEL: func @nhwc_conv_group
// CHECK: %[[W:.*]] = arith.constant dense_resource<nhwc_weight> : tensor<2x3x3x3x2xf32>
// CHECK: %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 12, 12, 2, 2] : tensor<1x12x12x4xf32> into tensor<1x12x12x2x2xf32>
// CHECK: %[[INIT:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 8, 8, 2, 3]
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<1x12x12x2x2xf32>, tensor<2x3x3x3x2xf32>) outs(%[[INIT]] : tensor<1x8x8x2x3xf32>)
// CHECK: tensor.collapse_shape %[[C]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x8x8x2x3xf32> into tensor<1x8x8x6xf32>
func.func @nhwc_conv_group(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x6xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<0.5> : tensor<6x2x3x3xf32>
  %0 = onnx.NhwcConv %x, %w, %none {group = 2, dilations = array<i64: 2, 2>, pads = array<i64: 2, 2, 2, 2>} : (tensor<1x8x8x4xf32>, tensor<6x2x3x3xf32>, none) -> tensor<1x8x8x6xf32>
  return %0 : tensor<1x8x8x6xf32>
}

// -----

func.func @conv_dynamic_spatial(%x: tensor<1x3x?x?xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x?x?xf32> {
  %none = onnx.NoValue
  // expected-error @+1 {{with dynamic channel or spatial dims is not supported yet}}
  %0 = onnx.Conv %x, %w, %none : (tensor<1x3x?x?xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x?x?xf32>
  return %0 : tensor<1x4x?x?xf32>
}

// -----

// A dynamic batch is fine: it comes from the input.
// CHECK-LABEL: func @conv_dynamic_batch
// CHECK: tensor.dim %arg0
// CHECK: linalg.conv_2d_nchw_fchw
func.func @conv_dynamic_batch(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32> {
  %none = onnx.NoValue
  %0 = onnx.Conv %x, %w, %none : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<?x4x6x6xf32>
  return %0 : tensor<?x4x6x6xf32>
}

// -----

func.func @avgpool_f64(%x: tensor<1x1x4x4xf64>) -> tensor<1x1x2x2xf64> {
  // expected-error @+1 {{is only supported for f32 yet}}
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf64>) -> tensor<1x1x2x2xf64>
  return %0 : tensor<1x1x2x2xf64>
}

// -----

// The input is spread by the strides into a zero tensor (a strided
// insert_slice, offset by dilated kernel - 1 - pads), then convolved with
// the kernel read flipped: the input map is o + (K - 1 - k) * d.
// CHECK-DAG: #[[$CTIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 - d6 + 2, d4 - d7 + 2)>
// CHECK-DAG: #[[$CTW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d2, d6, d7)>
// CHECK-LABEL: func @conv_transpose
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: tensor.insert_slice %arg0 into %[[Z]][0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 2, 2] : tensor<1x2x4x4xf32> into tensor<1x2x10x10xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$CTIN]], #[[$CTW]], {{.*}}]
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x3x8x8xf32>
func.func @conv_transpose(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x8x8xf32> {
  %none = onnx.NoValue
  %0 = onnx.ConvTranspose %x, %w, %none {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

// LpPool p=2: squares, a sum pool, square roots.
// CHECK-LABEL: func @lppool
// CHECK: linalg.generic
// CHECK: math.absf
// CHECK: arith.mulf
// CHECK: linalg.pooling_nchw_sum
// CHECK: linalg.generic
// CHECK: math.sqrt
func.func @lppool(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %0 = onnx.LpPool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// Col2Im gathers: block offsets are reduction loops over an empty tensor
// of the block's shape; positions off the stride grid add 0.
// CHECK-LABEL: func @col2im
// CHECK: tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.remsi
// CHECK: tensor.extract %arg0
// CHECK: arith.select
func.func @col2im(%x: tensor<1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %image = onnx.Constant dense<[3, 3]> : tensor<2xi64>
  %block = onnx.Constant dense<[2, 2]> : tensor<2xi64>
  %0 = onnx.Col2Im %x, %image, %block : (tensor<1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// A 3x3 stride-1 conv with constant weights runs as Winograd F(2x2, 3x3).
// The input is padded to whole 4x4 windows of 2x2 tiles (the odd height 23
// gets one more row of zeros); one generic transforms each window into its
// 16 values, each written to its slice of one [16, N, C, T, S] tensor; one
// contraction multiplies them by the transformed weights [16, F, C] over
// the flattened tiles; the output transform reads the 16 slices of the
// products and writes the tiles in the output's layout, adding the bias;
// the odd height's extra row is cut.
// CHECK-LABEL: func @conv_winograd
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 2, 1]
// CHECK: %[[VE:.*]] = tensor.empty() : tensor<16x1x16x12x10xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[VE]][0, 0, 0, 0, 0] [1, 1, 16, 12, 10] [1, 1, 1, 1, 1] : tensor<16x1x16x12x10xf32> to tensor<1x16x12x10xf32>
// CHECK: %[[V:.*]]:16 = linalg.generic
// CHECK-SAME: library_call = "winograd_input"
// CHECK-SAME: ins(%[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]], %[[P]] : tensor<1x16x26x22xf32>,
// CHECK-SAME: outs(%[[S0]],
// CHECK-NOT: arith.negf
// CHECK: linalg.yield
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[V]]#0 into %[[VE]][0, 0, 0, 0, 0]
// CHECK: %[[I15:.*]] = tensor.insert_slice %[[V]]#15 into %{{.*}}[15, 0, 0, 0, 0]
// CHECK: %[[U:.*]] = arith.constant dense_resource<winograd_weight> : tensor<16x64x16xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[I15]] {{\[}}[0], [1], [2], [3, 4]] : tensor<16x1x16x12x10xf32> into tensor<16x1x16x120xf32>
// CHECK: %[[M:.*]] = linalg.generic {{.*}}library_call = "winograd_matmul"} ins(%[[FLAT]], %[[U]] : tensor<16x1x16x120xf32>, tensor<16x64x16xf32>) outs(%{{.*}} : tensor<16x1x64x120xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[ME:.*]] = tensor.expand_shape %[[M]]
// CHECK: %[[M0:.*]] = tensor.extract_slice %[[ME]][0, 0, 0, 0, 0] [1, 1, 64, 12, 10] [1, 1, 1, 1, 1] : tensor<16x1x64x12x10xf32> to tensor<1x64x12x10xf32>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}library_call = "winograd_output"} ins(%[[M0]], {{.*}}, %arg1 : tensor<1x64x12x10xf32>, {{.*}}, tensor<64xf32>) outs(%{{.*}} : tensor<1x64x12x2x10x2xf32>)
// CHECK: linalg.index 5
// CHECK: linalg.index 3
// CHECK: %[[E:.*]] = tensor.collapse_shape %[[Y]] {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x64x12x2x10x2xf32> into tensor<1x64x24x20xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 64, 23, 20] [1, 1, 1, 1]
// CHECK: return %[[S]]
// Without it (tcc --no-winograd), a direct conv.
// DIRECT-LABEL: func @conv_winograd
// DIRECT-NOT: linalg.generic {{.*}}2 + 3
// DIRECT: linalg.conv_2d_nchw_fchw {{.*}} tensor<64x16x3x3xf32>
// DIRECT: return
// With 512-bit vectors, where Winograd takes 128 filters or more, a direct
// conv too.
// WIDE-LABEL: func @conv_winograd
// WIDE-NOT: winograd
// WIDE: linalg.conv_2d_nchw_fchw {{.*}} tensor<64x16x3x3xf32>
// WIDE: return
func.func @conv_winograd(%x: tensor<1x16x23x20xf32>, %b: tensor<64xf32>) -> tensor<1x64x23x20xf32> {
  %w = onnx.Constant dense<1.0> : tensor<64x16x3x3xf32>
  %0 = onnx.Conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x23x20xf32>, tensor<64x16x3x3xf32>, tensor<64xf32>) -> tensor<1x64x23x20xf32>
  return %0 : tensor<1x64x23x20xf32>
}

// -----

// The same on channels-last tensors (tcc-onnx-channels-last's NhwcConv):
// NHWC tiles, [16, N, T, S, C]; the contraction reads a row of channels per
// tile and writes a row of filters, [16, N, T*S, F]; the output transform
// writes [N, T, 2, S, 2, F].
// CHECK-LABEL: func @nhwc_conv_winograd
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 2, 1, 0]
// CHECK: tensor.empty() : tensor<16x1x12x10x16xf32>
// CHECK: linalg.generic
// CHECK-SAME: library_call = "winograd_input"
// CHECK-SAME: ins(%[[P]], {{.*}} : tensor<1x26x22x16xf32>,
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4]] : tensor<16x1x12x10x16xf32> into tensor<16x1x120x16xf32>
// CHECK: %[[M:.*]] = linalg.generic {{.*}}library_call = "winograd_matmul"} ins(%[[FLAT]], %{{.*}} : tensor<16x1x120x16xf32>, tensor<16x64x16xf32>) outs(%{{.*}} : tensor<16x1x120x64xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}library_call = "winograd_output"} ins({{.*}} : tensor<1x12x10x64xf32>, {{.*}}, tensor<64xf32>) outs(%{{.*}} : tensor<1x12x2x10x2x64xf32>)
// CHECK: linalg.index 4
// CHECK: linalg.index 2
// CHECK: %[[E:.*]] = tensor.collapse_shape %[[Y]] {{\[}}[0], [1, 2], [3, 4], [5]] : tensor<1x12x2x10x2x64xf32> into tensor<1x24x20x64xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 23, 20, 64] [1, 1, 1, 1]
// CHECK: return %[[S]]
// DIRECT-LABEL: func @nhwc_conv_winograd
// DIRECT-NOT: winograd
// DIRECT: linalg.conv_2d_nhwc_fhwc
// WIDE-LABEL: func @nhwc_conv_winograd
// WIDE-NOT: winograd
// WIDE: linalg.conv_2d_nhwc_fhwc
func.func @nhwc_conv_winograd(%x: tensor<1x23x20x16xf32>, %b: tensor<64xf32>) -> tensor<1x23x20x64xf32> {
  %w = onnx.Constant dense<1.0> : tensor<64x16x3x3xf32>
  %0 = onnx.NhwcConv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x23x20x16xf32>, tensor<64x16x3x3xf32>, tensor<64xf32>) -> tensor<1x23x20x64xf32>
  return %0 : tensor<1x23x20x64xf32>
}

// -----

// Where the transforms cost more than the products save, one direct conv:
// below 16 channels, below 64 filters (each transformed value is used by
// too few), below 2^22 multiply-adds (here 64 * 16 * 9 * 22 * 20 = 4.06 M
// against conv_winograd's 4.24 M), and beyond 16 MiB of transformed inputs
// and products unless C * F / (C + F) >= 40 (32 -> 64 channels on 147x147:
// 32 MiB, ratio 21; 64 -> 96 on 112x112: 31 MiB, ratio 38.4).
// CHECK-LABEL: func @conv_not_winograd
// CHECK-NOT: linalg.generic {{.*}}2 + 3
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x25x22xf32>, tensor<64x8x3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x128x30x30xf32>, tensor<32x128x3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x16x24x22xf32>, tensor<64x16x3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x32x149x149xf32>, tensor<64x32x3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x64x114x114xf32>, tensor<96x64x3x3xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv_not_winograd(%x8: tensor<1x8x23x20xf32>, %x128: tensor<1x128x28x28xf32>, %x16: tensor<1x16x22x20xf32>, %x32: tensor<1x32x147x147xf32>, %x64: tensor<1x64x112x112xf32>) -> (tensor<1x64x23x20xf32>, tensor<1x32x28x28xf32>, tensor<1x64x22x20xf32>, tensor<1x64x147x147xf32>, tensor<1x96x112x112xf32>) {
  %none = onnx.NoValue
  %w8 = onnx.Constant dense<1.0> : tensor<64x8x3x3xf32>
  %0 = onnx.Conv %x8, %w8, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x23x20xf32>, tensor<64x8x3x3xf32>, none) -> tensor<1x64x23x20xf32>
  %w128 = onnx.Constant dense<1.0> : tensor<32x128x3x3xf32>
  %1 = onnx.Conv %x128, %w128, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x128x28x28xf32>, tensor<32x128x3x3xf32>, none) -> tensor<1x32x28x28xf32>
  %w16 = onnx.Constant dense<1.0> : tensor<64x16x3x3xf32>
  %2 = onnx.Conv %x16, %w16, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x22x20xf32>, tensor<64x16x3x3xf32>, none) -> tensor<1x64x22x20xf32>
  %w32 = onnx.Constant dense<1.0> : tensor<64x32x3x3xf32>
  %3 = onnx.Conv %x32, %w32, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x147x147xf32>, tensor<64x32x3x3xf32>, none) -> tensor<1x64x147x147xf32>
  %w64 = onnx.Constant dense<1.0> : tensor<96x64x3x3xf32>
  %4 = onnx.Conv %x64, %w64, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x112x112xf32>, tensor<96x64x3x3xf32>, none) -> tensor<1x96x112x112xf32>
  return %0, %1, %2, %3, %4 : tensor<1x64x23x20xf32>, tensor<1x32x28x28xf32>, tensor<1x64x22x20xf32>, tensor<1x64x147x147xf32>, tensor<1x96x112x112xf32>
}

// -----

// Below 32 tiles (the batch's included), the products would read 16/9 as
// many weights from memory for too few multiply-adds each: 128 -> 128 on
// 7x7 (16 tiles) is a direct conv; on two 7x7 images (32 tiles), Winograd.
// CHECK-LABEL: func @conv_few_tiles
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x128x9x9xf32>, tensor<128x128x3x3xf32>)
// CHECK: library_call = "winograd_matmul"} ins(%{{.*}}, %{{.*}} : tensor<16x2x128x16xf32>, tensor<16x128x128xf32>)
func.func @conv_few_tiles(%x: tensor<1x128x7x7xf32>, %x2: tensor<2x128x7x7xf32>) -> (tensor<1x128x7x7xf32>, tensor<2x128x7x7xf32>) {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<128x128x3x3xf32>
  %0 = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x128x7x7xf32>, tensor<128x128x3x3xf32>, none) -> tensor<1x128x7x7xf32>
  %1 = onnx.Conv %x2, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x128x7x7xf32>, tensor<128x128x3x3xf32>, none) -> tensor<2x128x7x7xf32>
  return %0, %1 : tensor<1x128x7x7xf32>, tensor<2x128x7x7xf32>
}

// -----

// Beyond 16 MiB, Winograd where each tile's C + F streamed values save
// enough products: 80 -> 80 on 82x82 (17.2 MiB, C * F / (C + F) = 40).
// CHECK-LABEL: func @conv_winograd_streamed
// CHECK: library_call = "winograd_input"
// CHECK: linalg.generic {{.*}}library_call = "winograd_matmul"} ins(%{{.*}}, %{{.*}} : tensor<16x1x80x1681xf32>, tensor<16x80x80xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv_winograd_streamed(%x: tensor<1x80x82x82xf32>) -> tensor<1x80x82x82xf32> {
  %none = onnx.NoValue
  %w = onnx.Constant dense<1.0> : tensor<80x80x3x3xf32>
  %0 = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x80x82x82xf32>, tensor<80x80x3x3xf32>, none) -> tensor<1x80x82x82xf32>
  return %0 : tensor<1x80x82x82xf32>
}
