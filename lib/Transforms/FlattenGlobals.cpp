//===- FlattenGlobals.cpp - tcc-flatten-globals ---------------------------===//
//
// Rewrites multi-dimensional constant memref globals (the model's weights
// after bufferization) as one-dimensional ones, reshaped back at each use.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_FLATTENGLOBALS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// `value` with type `flat`: the same elements, one dimension.
static Attribute flattenValue(Attribute value, RankedTensorType flat) {
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.reshape(flat);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(flat, resource.getRawHandle());
  return {};
}

struct FlattenGlobals
    : public tcc::impl::FlattenGlobalsBase<FlattenGlobals> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The new type of each flattened global, by name.
    llvm::StringMap<MemRefType> oldTypes;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      MemRefType type = global.getType();
      auto value = global.getInitialValue();
      if (type.getRank() < 2 || !type.hasStaticShape() ||
          !type.getLayout().isIdentity() || !value || !global.getConstant())
        continue;
      auto flatType = MemRefType::get({type.getNumElements()},
                                      type.getElementType(), AffineMap(),
                                      type.getMemorySpace());
      Attribute flatValue = flattenValue(
          *value, RankedTensorType::get(flatType.getShape(),
                                        type.getElementType()));
      if (!flatValue)
        continue;
      global.setType(flatType);
      global.setInitialValueAttr(flatValue);
      oldTypes[global.getSymName()] = type;
    }
    if (oldTypes.empty())
      return;
    module.walk([&](memref::GetGlobalOp get) {
      auto it = oldTypes.find(get.getName());
      if (it == oldTypes.end())
        return;
      MemRefType type = it->second;
      OpBuilder b(get);
      auto flat = memref::GetGlobalOp::create(
          b, get.getLoc(),
          MemRefType::get({type.getNumElements()}, type.getElementType(),
                          AffineMap(), type.getMemorySpace()),
          get.getName());
      Value shaped = memref::ExpandShapeOp::create(
          b, get.getLoc(), type, flat, tcc::wholeShapeGroup(type.getRank()));
      get.replaceAllUsesWith(shaped);
      get.erase();
    });
  }
};

} // namespace
