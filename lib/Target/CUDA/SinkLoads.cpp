//===- SinkLoads.cpp - tcc-gpu-sink-loads ---------------------------------===//
//
// A scalar that host code would load from device memory for the kernels
// that use it is loaded by those kernels instead (see Passes.td).
//
//===----------------------------------------------------------------------===//
#include "tcc/Target/CUDA/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <limits>

using namespace mlir;

namespace tcc {
#define GEN_PASS_DEF_GPUSINKLOADS
#include "tcc/Target/CUDA/Passes.h.inc"
} // namespace tcc

namespace {

/// Where a memref is: the buffer it views (through subviews, casts,
/// reshapes) and, for a view of the workspace at a constant byte shift, the
/// bytes of the buffer it may touch.
struct Place {
  Value root;
  int64_t begin = 0, end = std::numeric_limits<int64_t>::max();

  bool overlaps(const Place &other) const {
    return root == other.root && begin < other.end && other.begin < end;
  }
};

Place placeOf(Value v) {
  Place place;
  while (Operation *def = v.getDefiningOp()) {
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      MemRefType type = view.getType();
      if (shift && type.hasStaticShape()) {
        place.begin = *shift;
        place.end = *shift + type.getNumElements() *
                                 ((type.getElementTypeBitWidth() + 7) / 8);
      }
      v = view.getSource();
    } else if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      v = view.getViewSource();
    } else {
      break;
    }
  }
  place.root = v;
  return place;
}

/// Whether `launch` may write memory at `place`.
bool writes(gpu::LaunchOp launch, const Place &place) {
  return tcc::anyMemoryEffect(
      launch, [&](const MemoryEffects::EffectInstance &e) {
        return isa<MemoryEffects::Write>(e.getEffect()) &&
               (!e.getValue() || placeOf(e.getValue()).overlaps(place));
      });
}

struct GPUSinkLoads : tcc::impl::GPUSinkLoadsBase<GPUSinkLoads> {
  void runOnOperation() override {
    SmallVector<memref::LoadOp> loads;
    getOperation().walk([&](memref::LoadOp load) {
      if (!load->getParentOfType<gpu::LaunchOp>())
        loads.push_back(load);
    });
    for (memref::LoadOp load : loads)
      sink(load);
  }

  /// Moves `load` into the launches that use its value when they are the
  /// next launches after it in its block and none of them writes what it
  /// reads: then each reads what the host would have.
  static void sink(memref::LoadOp load) {
    Block *block = load->getBlock();
    SmallVector<gpu::LaunchOp> users;
    for (Operation *user : load->getUsers()) {
      Operation *launch = block->findAncestorOpInBlock(*user);
      auto l = dyn_cast_or_null<gpu::LaunchOp>(launch);
      if (!l || !l->isAncestor(user) || l == user)
        return;
      if (!llvm::is_contained(users, l))
        users.push_back(l);
    }
    if (users.empty())
      return;
    Place place = placeOf(load.getMemRef());
    size_t seen = 0;
    for (Operation *op = load->getNextNode(); op && seen < users.size();
         op = op->getNextNode()) {
      auto launch = dyn_cast<gpu::LaunchOp>(op);
      if (!launch)
        continue;
      if (!llvm::is_contained(users, launch) || writes(launch, place))
        return;
      ++seen;
    }
    if (seen != users.size())
      return;
    for (gpu::LaunchOp launch : users) {
      OpBuilder b(&launch.getBody().front(), launch.getBody().front().begin());
      Operation *copy = b.clone(*load);
      load.getResult().replaceUsesWithIf(copy->getResult(0), [&](OpOperand &u) {
        return launch->isAncestor(u.getOwner());
      });
    }
    load.erase();
  }
};

} // namespace
