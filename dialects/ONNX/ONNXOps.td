//===- ONNXOps.td - onnx dialect operations ------------------*- tablegen -*-===//
//
// Operations of the onnx dialect, one file per op family (mirrored by the
// family's .cpp here and in lib/Conversion/ONNXToLinalg). Names, operands
// and attributes follow https://onnx.ai/onnx/operators/.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_ONNX_OPS_TD
#define TCC_ONNX_OPS_TD

include "ActivationOps.td"
include "AttentionOps.td"
include "ConvPoolOps.td"
include "ElementwiseOps.td"
include "ImageOps.td"
include "IndexingOps.td"
include "LinearOps.td"
include "LossOps.td"
include "NormalizationOps.td"
include "QuantizationOps.td"
include "RearrangeOps.td"
include "RecurrentOps.td"
include "ReductionOps.td"
include "ShapeOps.td"
include "SignalOps.td"
include "TensorOps.td"

#endif // TCC_ONNX_OPS_TD
