//===- ExternalizeWeights.cpp - tcc-externalize-weights -------------------===//
//
// Moves the model's constant globals (its weights, packed as the kernels read
// them) out of the object into a weights file that the runtime maps at load
// time (tcc compile --weights file). The code reads them through a new first
// argument of @main, which the entry points fill from a `tcc_weights *`.
//
//===----------------------------------------------------------------------===//
#include "tcc/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include <deque>
#include <vector>
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_EXTERNALIZEWEIGHTS
#include "tcc/Passes.h.inc"
} // namespace tcc

namespace {

/// The weights file's layout (lib/Runtime/runtime.c reads it).
constexpr int64_t kHeaderBytes = 64;
constexpr int64_t kAlignment = 64;
constexpr char kMagic[8] = {'T', 'C', 'C', 'W', 'G', 'H', 'T', '1'};

/// The bytes of a constant global's value, as the target lays them out;
/// nothing for splats and sub-byte element types, which stay in the object,
/// unless `all`: then a splat's and an i1's bytes are made in `storage`.
std::optional<ArrayRef<char>>
rawBytes(memref::GlobalOp global, bool all,
         std::deque<std::vector<char>> &storage) {
  MemRefType type = global.getType();
  std::optional<Attribute> value = global.getInitialValue();
  Type element = type.getElementType();
  if (!global.getConstant() || !value || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || !element.isIntOrFloat())
    return std::nullopt;
  unsigned bits = element.getIntOrFloatBitWidth();
  auto dense = dyn_cast<DenseElementsAttr>(*value);
  if (all && dense && (dense.isSplat() || bits == 1)) {
    std::vector<char> &bytes = storage.emplace_back();
    if (bits == 1) {
      // LLVM keeps an i1 in a byte.
      for (bool v : dense.getValues<bool>())
        bytes.push_back(v);
      return ArrayRef<char>(bytes);
    }
    if (bits % 8 != 0)
      return std::nullopt;
    ArrayRef<char> one = dense.getRawData();
    if ((int64_t)one.size() != bits / 8)
      return std::nullopt;
    for (int64_t i = 0; i < type.getNumElements(); ++i)
      bytes.insert(bytes.end(), one.begin(), one.end());
    return ArrayRef<char>(bytes);
  }
  if (bits % 8 != 0)
    return std::nullopt;
  ArrayRef<char> bytes;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(*value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    bytes = blob->getData();
  } else if (dense) {
    if (dense.isSplat())
      return std::nullopt;
    bytes = dense.getRawData();
  } else {
    return std::nullopt;
  }
  if ((int64_t)bytes.size() != type.getNumElements() * (bits / 8))
    return std::nullopt;
  return bytes;
}

/// Each weight at its offset in the array.
using Layout = SmallVector<std::pair<int64_t, ArrayRef<char>>>;

/// Calls `fn` with the array's bytes in order, zero padding included.
void forEachPiece(const Layout &layout,
                  llvm::function_ref<void(ArrayRef<char>)> fn) {
  static const char zeros[kAlignment] = {};
  int64_t at = 0;
  for (auto [offset, bytes] : layout) {
    fn(ArrayRef<char>(zeros, offset - at));
    fn(bytes);
    at = offset + bytes.size();
  }
}

/// 64-bit FNV-1a, continued from `hash`.
uint64_t fnv1a(ArrayRef<char> bytes, uint64_t hash) {
  for (char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

struct ExternalizeWeights
    : tcc::impl::ExternalizeWeightsBase<ExternalizeWeights> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal()) {
      module.emitError("tcc-externalize-weights: no @main");
      return signalPassFailure();
    }
    if (main->hasAttr(tcc::attr::kWeightsBytes))
      return;

    // Only the globals the code reads: others are dead (LLVM would drop
    // them from the object), such as weights repacked into panels.
    for (bool erased = true; erased;) {
      SmallVector<Operation *> dead;
      for (auto fn : module.getOps<func::FuncOp>())
        fn.getBody().walk([&](Operation *op) {
          if (op->getNumResults() && isOpTriviallyDead(op))
            dead.push_back(op);
        });
      for (Operation *op : dead)
        op->erase();
      erased = !dead.empty();
    }
    SmallVector<memref::GetGlobalOp> gets;
    llvm::StringSet<> read;
    module.walk([&](memref::GetGlobalOp get) {
      gets.push_back(get);
      read.insert(get.getName());
    });

    // The layout: each weight at a 64-byte aligned offset.
    Layout layout;
    llvm::StringMap<int64_t> offsets;
    int64_t size = 0;
    std::deque<std::vector<char>> storage;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      if (!read.contains(global.getSymName()))
        continue;
      std::optional<ArrayRef<char>> bytes =
          rawBytes(global, allConstants, storage);
      if (!bytes) {
        if (!allConstants)
          continue;
        global.emitError("tcc-externalize-weights: a constant whose bytes "
                         "cannot be laid out: ")
            << global.getType();
        return signalPassFailure();
      }
      size = llvm::alignTo(size, kAlignment);
      offsets[global.getSymName()] = size;
      layout.push_back({size, *bytes});
      size += bytes->size();
    }
    // The fingerprint hashes the array as the file holds it, padding
    // included.
    uint64_t fingerprint = 0xcbf29ce484222325ULL; // FNV-1a's offset basis
    forEachPiece(layout, [&](ArrayRef<char> piece) {
      fingerprint = fnv1a(piece, fingerprint);
    });
    if (!weightsFile.empty() && failed(write(layout, size, fingerprint)))
      return signalPassFailure();
    if (embed && size > 0)
      embedArray(layout, size);

    // The functions that read a weight, and (transitively) their callers.
    llvm::DenseMap<StringAttr, SmallVector<func::CallOp>> callsOf;
    module.walk([&](func::CallOp call) {
      callsOf[call.getCalleeAttr().getAttr()].push_back(call);
    });
    llvm::erase_if(gets, [&](memref::GetGlobalOp get) {
      return !offsets.contains(get.getName());
    });
    llvm::SetVector<func::FuncOp> users;
    users.insert(main);
    for (memref::GetGlobalOp get : gets)
      users.insert(get->getParentOfType<func::FuncOp>());
    for (size_t i = 0; i < users.size(); ++i) {
      func::FuncOp user = users[i];
      for (func::CallOp call : callsOf.lookup(user.getSymNameAttr()))
        users.insert(call->getParentOfType<func::FuncOp>());
    }

    MLIRContext *ctx = &getContext();
    auto arrayType = MemRefType::get({size}, IntegerType::get(ctx, 8));
    for (func::FuncOp fn : users)
      if (failed(fn.insertArgument(0, arrayType, DictionaryAttr::get(ctx),
                                   fn.getLoc()))) {
        fn.emitError("tcc-externalize-weights: cannot add the weights "
                     "argument");
        return signalPassFailure();
      }
    for (func::FuncOp fn : users)
      for (func::CallOp call : callsOf.lookup(fn.getSymNameAttr()))
        call->insertOperands(
            0, call->getParentOfType<func::FuncOp>().getArgument(0));
    for (memref::GetGlobalOp get : gets) {
      OpBuilder b(get);
      Value array = get->getParentOfType<func::FuncOp>().getArgument(0);
      Value shift = arith::ConstantIndexOp::create(
          b, get.getLoc(), offsets.lookup(get.getName()));
      Value view = memref::ViewOp::create(b, get.getLoc(), get.getType(),
                                          array, shift, ValueRange());
      get.replaceAllUsesWith(view);
      get.erase();
    }
    for (auto global : llvm::to_vector(module.getOps<memref::GlobalOp>()))
      if (offsets.contains(global.getSymName()))
        global.erase();

    OpBuilder b(ctx);
    main->setAttr(tcc::attr::kWeightsBytes, b.getI64IntegerAttr(size));
    main->setAttr(tcc::attr::kWeightsFingerprint,
                  b.getI64IntegerAttr(static_cast<int64_t>(fingerprint)));
    if (embed)
      main->setAttr(tcc::attr::kWeightsEmbedded, b.getUnitAttr());
  }

  /// Adds the array as the constant global kWeightsGlobal.
  void embedArray(const Layout &layout, int64_t size) {
    ModuleOp module = getOperation();
    std::vector<char> bytes;
    bytes.reserve(size);
    forEachPiece(layout, [&](ArrayRef<char> piece) {
      bytes.insert(bytes.end(), piece.begin(), piece.end());
    });
    auto type = MemRefType::get({size}, IntegerType::get(&getContext(), 8));
    auto value = DenseResourceElementsAttr::get(
        RankedTensorType::get({size}, type.getElementType()),
        tcc::attr::kWeightsGlobal,
        HeapAsmResourceBlob::allocateAndCopyWithAlign(ArrayRef<char>(bytes),
                                                       kAlignment));
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    memref::GlobalOp::create(b, module.getLoc(), tcc::attr::kWeightsGlobal,
                             b.getStringAttr("private"), type, value,
                             /*constant=*/true,
                             b.getI64IntegerAttr(kAlignment));
  }

  /// Writes the header and the array to `weightsFile`.
  LogicalResult write(const Layout &layout, int64_t size,
                      uint64_t fingerprint) {
    std::error_code ec;
    llvm::raw_fd_ostream os(weightsFile, ec, llvm::sys::fs::OF_None);
    if (ec)
      return getOperation().emitError("cannot write the weights file '")
             << weightsFile << "': " << ec.message();
    using namespace llvm::support;
    char header[kHeaderBytes] = {};
    memcpy(header, kMagic, sizeof(kMagic));
    endian::write32le(header + 8, kHeaderBytes);
    endian::write64le(header + 16, size);
    endian::write64le(header + 24, fingerprint);
    os.write(header, kHeaderBytes);
    forEachPiece(layout, [&](ArrayRef<char> piece) {
      os.write(piece.data(), piece.size());
    });
    os.close();
    if (os.has_error())
      return getOperation().emitError("cannot write the weights file '")
             << weightsFile << "': " << os.error().message();
    return success();
  }
};

} // namespace
