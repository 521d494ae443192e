//===- ONNXDialect.cpp - onnx dialect registration ------------------------===//
#include "dialects/ONNX/OpUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace tcc::onnx;

#include "dialects/ONNX/ONNXOpsDialect.cpp.inc"
#include "dialects/ONNX/ShapeInferenceInterface.cpp.inc"

void ONNXDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/ONNX/ONNXOps.cpp.inc"
      >();
  detail::addFoldInterface(*this);
}

Operation *ONNXDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  if (isa<NoneType>(type))
    return NoValueOp::create(builder, loc, NoneType::get(builder.getContext()));
  if (auto elements = dyn_cast<ElementsAttr>(value))
    if (elements.getType() == type)
      return ConstantOp::create(builder, loc, type, elements);
  return nullptr;
}
