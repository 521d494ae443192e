//===- LowerLaunches.cpp - tcc-gpu-lower-launches -------------------------===//
//
// The host side of a CUDA model in the LLVM dialect: the kernels' binary
// and what the runtime needs to load and run them (a tcc_cuda_image, see
// lib/Runtime/cuda.c), each launch a call of the runtime, and a host @main
// that copies the buffers in and out around the device one. The host reads
// device memory only for an If's check (tcc_branch_check): each load its
// condition comes from becomes tcc_cuda_read, a copy to the host.
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tcc/Header.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using tcc::attr::kBufferBytes;
using tcc::attr::kWeightsEmbedded;
using tcc::attr::kWeightsGlobal;

namespace tcc {
#define GEN_PASS_DEF_GPULOWERLAUNCHES
#include "tcc/Target/CUDA/Passes.h.inc"
} // namespace tcc

namespace {

/// The version of the tcc_cuda_image layout (lib/Runtime/cuda.c).
constexpr int32_t kImageVersion = 1;

struct GPULowerLaunches : tcc::impl::GPULowerLaunchesBase<GPULowerLaunches> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto device = module.lookupSymbol<LLVM::LLVMFuncOp>("main");
    auto bufferBytes =
        device ? device->getAttrOfType<DenseI64ArrayAttr>(kBufferBytes)
               : DenseI64ArrayAttr();
    auto workspace = device ? device->getAttrOfType<IntegerAttr>(
                                  "tcc.workspace_size")
                            : IntegerAttr();
    if (!device || !bufferBytes || !workspace) {
      module.emitError("tcc-gpu-lower-launches: no lowered @main with "
                       "tcc.buffer_bytes and tcc.workspace_size");
      return signalPassFailure();
    }
    SmallVector<gpu::BinaryOp> binaries(module.getOps<gpu::BinaryOp>());
    if (binaries.size() > 1) {
      module.emitError("tcc-gpu-lower-launches: one gpu.binary expected");
      return signalPassFailure();
    }

    b = std::make_shared<OpBuilder>(ctx);
    ptrTy = LLVM::LLVMPointerType::get(ctx);
    i32 = b->getI32Type();
    i64 = b->getI64Type();
    Location loc = device.getLoc();

    // The device function takes the run handle last.
    device.setSymName("main_device");
    device.setLinkage(LLVM::Linkage::Internal);
    auto deviceType = device.getFunctionType();
    SmallVector<Type> params(deviceType.getParams());
    params.push_back(ptrTy);
    device.setFunctionType(
        LLVM::LLVMFunctionType::get(deviceType.getReturnType(), params));
    Value run = device.getBody().front().addArgument(ptrTy, loc);
    if (ArrayAttr argAttrs = device.getArgAttrsAttr()) {
      SmallVector<Attribute> attrs(argAttrs.getValue());
      attrs.push_back(b->getDictionaryAttr({}));
      device.setArgAttrsAttr(b->getArrayAttr(attrs));
    }

    if (failed(lowerConditionReads(device, run)))
      return signalPassFailure();

    // Kernels, numbered in the order of their first launch.
    llvm::StringMap<int32_t> kernelIndex;
    std::string names;
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    for (gpu::LaunchFuncOp launch : launches) {
      if (launch->getParentOfType<LLVM::LLVMFuncOp>() != device) {
        launch.emitError("tcc-gpu-lower-launches: a launch outside @main");
        return signalPassFailure();
      }
      StringRef name = launch.getKernelName().getValue();
      auto [it, inserted] = kernelIndex.try_emplace(name, kernelIndex.size());
      if (inserted)
        names += name.str() + '\0';
      lowerLaunch(launch, it->second, run);
    }

    // The image: the binary, the kernels' names, the sizes.
    b->setInsertionPointToStart(module.getBody());
    std::string prefix = modelName + "_cuda_";
    auto bytesGlobal = [&](StringRef name, StringRef bytes) {
      auto type = LLVM::LLVMArrayType::get(b->getI8Type(), bytes.size());
      auto global = LLVM::GlobalOp::create(
          *b, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal,
          (prefix + name).str(), b->getStringAttr(bytes), /*alignment=*/16);
      return global;
    };
    std::string binary;
    if (!binaries.empty()) {
      ArrayAttr objects = binaries.front().getObjects();
      if (objects.size() != 1) {
        binaries.front().emitError(
            "tcc-gpu-lower-launches: one object (one target) expected");
        return signalPassFailure();
      }
      binary = cast<gpu::ObjectAttr>(objects[0]).getObject().getValue().str();
      // PTX is read as a C string.
      binary.push_back('\0');
      binaries.front().erase();
    }
    LLVM::GlobalOp binaryGlobal = bytesGlobal("binary", binary);
    LLVM::GlobalOp namesGlobal = bytesGlobal("kernel_names", names);
    auto sizesType = LLVM::LLVMArrayType::get(i64, bufferBytes.size());
    SmallVector<int64_t> sizes(bufferBytes.asArrayRef());
    auto sizesGlobal = LLVM::GlobalOp::create(
        *b, loc, sizesType, true, LLVM::Linkage::Internal,
        prefix + "buffer_bytes",
        sizes.empty() ? Attribute()
                      : Attribute(DenseElementsAttr::get(
                            RankedTensorType::get(
                                {(int64_t)sizes.size()}, i64),
                            ArrayRef<int64_t>(sizes))));
    if (sizes.empty()) {
      OpBuilder::InsertionGuard g(*b);
      b->setInsertionPointToStart(b->createBlock(&sizesGlobal.getInitializerRegion()));
      Value zero = LLVM::ZeroOp::create(*b, loc, sizesType);
      LLVM::ReturnOp::create(*b, loc, zero);
    }

    bool embedded = device->hasAttr(kWeightsEmbedded);
    auto weightsBytes =
        device->getAttrOfType<IntegerAttr>(tcc::attr::kWeightsBytes);
    int64_t numWeights = weightsBytes ? 1 : 0;
    auto numInputs = device->getAttrOfType<IntegerAttr>("tcc.num_inputs");
    int64_t numBuffers = sizes.size();
    if (!numInputs ||
        (int64_t)deviceType.getNumParams() != numWeights + numBuffers + 1) {
      device.emitError("tcc-gpu-lower-launches: @main's parameters are not "
                       "[weights,] the buffers of tcc.buffer_bytes and the "
                       "workspace");
      return signalPassFailure();
    }

    // struct tcc_cuda_image (lib/Runtime/cuda.c).
    auto imageType = LLVM::LLVMStructType::getLiteral(
        ctx, {i32, i32, ptrTy, i64, ptrTy, ptrTy, i64, i64, i32, i32, ptrTy});
    auto image = LLVM::GlobalOp::create(*b, loc, imageType, true,
                                        LLVM::Linkage::Internal,
                                        prefix + "image", Attribute(), 8);
    {
      OpBuilder::InsertionGuard g(*b);
      b->setInsertionPointToStart(
          b->createBlock(&image.getInitializerRegion()));
      Value v = LLVM::UndefOp::create(*b, loc, imageType);
      auto set = [&](int64_t pos, Value x) {
        v = LLVM::InsertValueOp::create(*b, loc, v, x, pos);
      };
      auto addr = [&](LLVM::GlobalOp g) -> Value {
        return LLVM::AddressOfOp::create(*b, loc, g);
      };
      Value weightsData;
      if (auto weights = module.lookupSymbol<LLVM::GlobalOp>(kWeightsGlobal);
          embedded && weights)
        weightsData = addr(weights);
      else
        weightsData = LLVM::ZeroOp::create(*b, loc, ptrTy);
      set(0, constant(i32, kImageVersion));
      set(1, constant(i32, kernelIndex.size()));
      set(2, addr(binaryGlobal));
      set(3, constant(i64, binaries.empty() ? 0 : binary.size()));
      set(4, addr(namesGlobal));
      set(5, weightsData);
      set(6, constant(i64, weightsBytes ? weightsBytes.getInt() : 0));
      set(7, constant(i64, workspace.getInt()));
      set(8, constant(i32, numInputs.getInt()));
      set(9, constant(i32, numBuffers));
      set(10, addr(sizesGlobal));
      LLVM::ReturnOp::create(*b, loc, v);
    }

    // The host @main: [weights,] buffers, workspace (unused), context.
    bool takesWeights = weightsBytes && !embedded;
    SmallVector<Type> hostParams(takesWeights + numBuffers + 2, ptrTy);
    b->setInsertionPointToEnd(module.getBody());
    auto host = LLVM::LLVMFuncOp::create(
        *b, loc, "main", LLVM::LLVMFunctionType::get(i32, hostParams));
    for (NamedAttribute attr : device->getDiscardableAttrs())
      host->setAttr(attr.getName(), attr.getValue());
    host->setAttr("tcc.device_workspace_size", workspace);
    host->setAttr("tcc.workspace_size", b->getI64IntegerAttr(0));
    host->setAttr(tcc::attr::kTakesContext, b->getUnitAttr());
    host->removeAttr(kBufferBytes);
    host->removeAttr(kWeightsEmbedded);
    if (!takesWeights) {
      host->removeAttr(tcc::attr::kWeightsBytes);
      host->removeAttr(tcc::attr::kWeightsFingerprint);
    }
    Block *entry = host.addEntryBlock(*b);
    Block *fail = b->createBlock(&host.getBody());
    Value failStatus = fail->addArgument(i32, loc);
    LLVM::ReturnOp::create(*b, loc, failStatus);
    Block *body = b->createBlock(&host.getBody());
    b->setInsertionPointToStart(entry);
    auto hostBuffers = entry->getArguments().slice(takesWeights, numBuffers);
    Value context = entry->getArguments().back();
    Value hostArray = stackArray(ptrTy, std::max<int64_t>(numBuffers, 1));
    Value devArray = stackArray(ptrTy, numBuffers + 2);
    Value runSlot = stackArray(ptrTy, 1);
    for (auto [i, buffer] : llvm::enumerate(hostBuffers))
      LLVM::StoreOp::create(*b, loc, buffer, element(hostArray, i));
    Value weightsHost = takesWeights
                            ? Value(entry->getArgument(0))
                            : Value(LLVM::ZeroOp::create(*b, loc, ptrTy));
    Value status =
        call("tcc_cuda_begin", {ptrTy, ptrTy, ptrTy, ptrTy, ptrTy, ptrTy}, i32,
             {context, LLVM::AddressOfOp::create(*b, loc, image), weightsHost,
              hostArray, devArray, runSlot});
    Value failed = LLVM::ICmpOp::create(*b, loc, LLVM::ICmpPredicate::ne,
                                        status, constant(i32, 0));
    LLVM::CondBrOp::create(*b, loc, failed, fail, ValueRange{status}, body,
                           ValueRange{});
    b->setInsertionPointToStart(body);
    SmallVector<Value> args;
    if (weightsBytes)
      args.push_back(LLVM::LoadOp::create(*b, loc, ptrTy, element(devArray, 0)));
    for (int64_t i = 0; i < numBuffers + 1; ++i)
      args.push_back(
          LLVM::LoadOp::create(*b, loc, ptrTy, element(devArray, i + 1)));
    Value runHandle = LLVM::LoadOp::create(*b, loc, ptrTy, runSlot);
    args.push_back(runHandle);
    LLVM::CallOp::create(*b, loc, device, args);
    LLVM::ReturnOp::create(
        *b, loc,
        call("tcc_cuda_end", {ptrTy, ptrTy}, i32, {runHandle, hostArray}));

    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
    for (NamedAttribute attr : device->getDiscardableAttrs())
      device->removeAttr(attr.getName());
  }

  /// The loads that the conditions of tcc_branch_check calls in `device`
  /// come from read device memory: each becomes tcc_cuda_read(run, slot,
  /// address, bytes) into a stack slot, and a load of the slot. Any other
  /// load there is an error (tcc-gpu-merge-kernels lets no other through).
  LogicalResult lowerConditionReads(LLVM::LLVMFuncOp device, Value run) {
    SetVector<LLVM::LoadOp> reads;
    device.walk([&](LLVM::CallOp call) {
      if (call.getCallee() != tcc::kBranchCheckFn || call.getNumOperands() < 1)
        return;
      SmallVector<Value> work{call.getOperand(0)};
      while (!work.empty()) {
        Operation *def = work.pop_back_val().getDefiningOp();
        if (auto load = dyn_cast_if_present<LLVM::LoadOp>(def))
          reads.insert(load);
        else if (def && !isa<LLVM::CallOp>(def))
          llvm::append_range(work, def->getOperands());
      }
    });
    WalkResult other = device.walk([&](LLVM::LoadOp load) {
      if (reads.contains(load))
        return WalkResult::advance();
      load.emitError("tcc-gpu-lower-launches: a load on the host, of device "
                     "memory");
      return WalkResult::interrupt();
    });
    if (other.wasInterrupted())
      return failure();
    for (LLVM::LoadOp load : reads) {
      Type type = load.getType();
      if (!type.isIntOrFloat())
        return load.emitError("tcc-gpu-lower-launches: an If's condition of "
                              "type ")
               << type;
      Value slot;
      {
        OpBuilder::InsertionGuard g(*b);
        b->setInsertionPointToStart(&device.getBody().front());
        slot = LLVM::AllocaOp::create(*b, load.getLoc(), ptrTy, type,
                                      constant(i64, 1), /*alignment=*/8);
      }
      b->setInsertionPoint(load);
      call("tcc_cuda_read", {ptrTy, ptrTy, ptrTy, i64}, Type(),
           {run, slot, load.getAddr(),
            constant(i64, (type.getIntOrFloatBitWidth() + 7) / 8)});
      load.getAddrMutable().assign(slot);
    }
    return success();
  }

  /// tcc_cuda_launch(run, kernel, grid xyz, block xyz, shared bytes,
  /// params), params[i] pointing at a stack slot that holds argument i.
  void lowerLaunch(gpu::LaunchFuncOp launch, int32_t kernel, Value run) {
    Location loc = launch.getLoc();
    auto operands = launch.getKernelOperands();
    Value params;
    {
      OpBuilder::InsertionGuard g(*b);
      b->setInsertionPointToStart(
          &launch->getParentOfType<LLVM::LLVMFuncOp>().getBody().front());
      int64_t n = std::max<size_t>(operands.size(), 1);
      Value slots = stackArray(i64, n);
      params = stackArray(ptrTy, n);
      b->setInsertionPoint(launch);
      for (auto [i, operand] : llvm::enumerate(operands)) {
        Value slot = element(slots, i, i64);
        LLVM::StoreOp::create(*b, loc, operand, slot);
        LLVM::StoreOp::create(*b, loc, slot, element(params, i));
      }
    }
    b->setInsertionPoint(launch);
    auto toI64 = [&](Value v) -> Value {
      auto type = cast<IntegerType>(v.getType());
      if (type.getWidth() == 64)
        return v;
      return LLVM::ZExtOp::create(*b, loc, i64, v);
    };
    Value shared = launch.getDynamicSharedMemorySize();
    call("tcc_cuda_launch",
         {ptrTy, i32, i64, i64, i64, i64, i64, i64, i32, ptrTy}, Type(),
         {run, constant(i32, kernel), toI64(launch.getGridSizeX()),
          toI64(launch.getGridSizeY()), toI64(launch.getGridSizeZ()),
          toI64(launch.getBlockSizeX()), toI64(launch.getBlockSizeY()),
          toI64(launch.getBlockSizeZ()), shared ? shared : constant(i32, 0),
          params});
    launch.erase();
  }

  Value constant(Type type, int64_t v) {
    return LLVM::ConstantOp::create(*b, b->getUnknownLoc(), type,
                                    b->getIntegerAttr(type, v));
  }

  /// An array of `n` `type`s on the stack.
  Value stackArray(Type type, int64_t n) {
    return LLVM::AllocaOp::create(*b, b->getUnknownLoc(), ptrTy, type,
                                  constant(i64, n), /*alignment=*/8);
  }

  /// &array[i] of an array of `type`s (pointers by default).
  Value element(Value array, int64_t i, Type type = {}) {
    return LLVM::GEPOp::create(*b, b->getUnknownLoc(), ptrTy,
                               type ? type : ptrTy, array,
                               ArrayRef<LLVM::GEPArg>{(int32_t)i});
  }

  /// Calls runtime function `name`, declared at the module's end when it
  /// is not yet; a null `result` is void.
  Value call(StringRef name, ArrayRef<Type> params, Type result,
             ValueRange args) {
    ModuleOp module = getOperation();
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!fn) {
      OpBuilder::InsertionGuard g(*b);
      b->setInsertionPointToEnd(module.getBody());
      fn = LLVM::LLVMFuncOp::create(
          *b, module.getLoc(), name,
          LLVM::LLVMFunctionType::get(
              result ? result : LLVM::LLVMVoidType::get(&getContext()),
              params));
    }
    auto op = LLVM::CallOp::create(*b, b->getUnknownLoc(), fn, args);
    return result ? op.getResult() : Value();
  }

  std::shared_ptr<OpBuilder> b;
  Type ptrTy, i32, i64;
};

} // namespace
