//===- RunTimeBatch.cpp - may a symbolic batch dim vary at run time? ------===//
//
// The model's linalg IR at batch A and at batch B is walked in step. Every
// value whose type differs between the two holds the batch in one dim
// (`multiple` x batch entries); every op is checked to compute each sample
// from that sample alone: linalg ops index the batch of all their operands
// by one parallel loop, reshapes keep each sample's rows one block (which
// rows sit outside it is tracked, and must be none at the inputs and
// outputs), slices and pads leave it whole. Anything else that touches a
// batched value, and any attribute that differs between the two (a value
// computed from the batch size), refuses.
//
//===----------------------------------------------------------------------===//
#include "tcc/RunTimeBatch.h"
#include "tcc/Header.h"
#include "tcc/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/Format.h"

using namespace mlir;

namespace {

/// Where a value of the model at batch A holds the batch.
struct Batched {
  int64_t axis = -1;    ///< -1: the value does not depend on the batch
  int64_t multiple = 0; ///< the axis has `multiple` x batch entries
  /// The axis runs over [outer][batch][multiple / outer]: 1 when the batch
  /// is its outermost part (as it must be in the inputs and outputs); more
  /// where a reshape merged leading dims into it (sequence-first attention,
  /// [seq, batch, d] -> [seq * batch, d]).
  int64_t outer = 1;
  explicit operator bool() const { return axis >= 0; }
  bool operator==(const Batched &o) const {
    return axis == o.axis && multiple == o.multiple && outer == o.outer;
  }
  bool operator!=(const Batched &o) const { return !(*this == o); }
};

class Analysis {
public:
  Analysis(int64_t probeA, int64_t probeB, StringRef dimName)
      : probeA(probeA), probeB(probeB), dimName(dimName) {}

  FailureOr<tcc::BatchLayout> run(ModuleOp a, ModuleOp b) {
    SmallVector<std::pair<Operation *, Operation *>> ops;
    if (failed(pair(a, b, ops)))
      return failure();
    // Constants last: an op that mixes samples says more than the constant
    // it computes with (a mean's divisor).
    for (bool constants : {false, true})
      for (auto [opA, opB] : ops)
        if (isa<arith::ConstantOp>(opA) == constants &&
            failed(check(opA, opB)))
          return failure();

    auto main = a.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return a.emitError("no @main to analyze");
    tcc::BatchLayout layout;
    layout.dimName = dimName.str();
    auto record = [&](Value v, StringRef what, DictionaryAttr attrs,
                      std::vector<int64_t> &multiples) -> LogicalResult {
      Batched info = batched.lookup(v);
      auto name = attrs ? attrs.getAs<StringAttr>(tcc::kNameAttr) : nullptr;
      if (info && (info.axis != 0 || info.outer != 1))
        return fail(main, Twine(what) + " '" +
                              (name ? name.getValue() : StringRef("?")) +
                              "' holds the batch in dim " + Twine(info.axis) +
                              (info.outer != 1 ? " behind other rows" : "") +
                              "; the samples run one after the other, so it "
                              "must lead dim 0");
      multiples.push_back(info ? info.multiple : 0);
      return success();
    };
    for (BlockArgument arg : main.getArguments())
      if (failed(record(arg, "input", main.getArgAttrDict(arg.getArgNumber()),
                        layout.inputMultiples)))
        return failure();
    auto ret = cast<func::ReturnOp>(main.getBody().front().getTerminator());
    for (OpOperand &result : ret->getOpOperands())
      if (failed(record(result.get(), "output",
                        main.getResultAttrDict(result.getOperandNumber()),
                        layout.outputMultiples)))
        return failure();
    return layout;
  }

private:
  InFlightDiagnostic fail(Operation *op, const Twine &why) {
    return op->emitError() << "symbolic dim '" << dimName
                           << "' cannot vary at run time: " << why
                           << "; pin it with --dim " << dimName << "=N";
  }

  /// Walks both modules in step, pairing ops and classifying the values.
  LogicalResult pair(ModuleOp a, ModuleOp b,
                     SmallVector<std::pair<Operation *, Operation *>> &ops) {
    SmallVector<Operation *> opsA, opsB;
    a->walk<WalkOrder::PreOrder>([&](Operation *op) { opsA.push_back(op); });
    b->walk<WalkOrder::PreOrder>([&](Operation *op) { opsB.push_back(op); });
    for (size_t i = 0; i < opsA.size(); ++i) {
      Operation *opA = opsA[i], *opB = i < opsB.size() ? opsB[i] : nullptr;
      if (!opB || opA->getName() != opB->getName() ||
          opA->getNumResults() != opB->getNumResults() ||
          opA->getNumRegions() != opB->getNumRegions())
        return changes(opA);
      for (auto [ra, rb] : llvm::zip(opA->getResults(), opB->getResults()))
        if (failed(classify(opA, ra, rb)))
          return failure();
      for (auto [regionA, regionB] :
           llvm::zip(opA->getRegions(), opB->getRegions())) {
        if (regionA.getBlocks().size() != regionB.getBlocks().size())
          return changes(opA);
        for (auto [blockA, blockB] : llvm::zip(regionA, regionB)) {
          if (blockA.getNumArguments() != blockB.getNumArguments())
            return changes(opA);
          for (auto [argA, argB] :
               llvm::zip(blockA.getArguments(), blockB.getArguments()))
            if (failed(classify(opA, argA, argB)))
              return failure();
        }
      }
      ops.push_back({opA, opB});
    }
    if (opsA.size() != opsB.size())
      return changes(a);
    return success();
  }

  LogicalResult changes(Operation *op) {
    return fail(op, "the graph changes with its value (compared at " +
                        Twine(probeA) + " and " +
                        Twine(probeB) + ")");
  }

  /// Finds the dim of `a` (batch A) that is `multiple` x the batch in `b`.
  LogicalResult classify(Operation *op, Value a, Value b) {
    if (a.getType() == b.getType())
      return success();
    auto ta = dyn_cast<RankedTensorType>(a.getType());
    auto tb = dyn_cast<RankedTensorType>(b.getType());
    auto differs = [&] {
      return fail(op, "a value's type changes with it in more than one dim "
                      "(" + typeString(a.getType()) + " at " +
                      Twine(probeA) + ", " +
                      typeString(b.getType()) + " at " +
                      Twine(probeB) + ")");
    };
    if (!ta || !tb || ta.getRank() != tb.getRank() ||
        ta.getElementType() != tb.getElementType() ||
        ta.getEncoding() != tb.getEncoding() || !ta.hasStaticShape() ||
        !tb.hasStaticShape())
      return differs();
    Batched info;
    for (int64_t d = 0; d < ta.getRank(); ++d) {
      int64_t da = ta.getDimSize(d), db = tb.getDimSize(d);
      if (da == db)
        continue;
      if (info || da % probeA || db % probeB ||
          da / probeA != db / probeB)
        return differs();
      info = {d, da / probeA};
    }
    batched[a] = info;
    return success();
  }

  static std::string typeString(Type t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    return s;
  }

  LogicalResult check(Operation *op, Operation *twin) {
    if (isa<ModuleOp, func::FuncOp, func::ReturnOp, tensor::EmptyOp>(op))
      return success();
    // A loop that keeps the samples apart by construction (an RNN's time
    // steps): each value it carries keeps the batch where it came in; its
    // body (loops over the batch, its size in their bounds) is its own.
    if (isInSamplesApartLoop(op))
      return success();
    if (auto loop = dyn_cast<scf::ForOp>(op);
        loop && loop->hasAttr(tcc::attr::kSamplesApart)) {
      if (failed(sameAttributes(op, twin)))
        return failure();
      for (auto [init, result] :
           llvm::zip(loop.getInitArgs(), loop.getResults()))
        if (failed(sameAs(op, batched.lookup(init), batched.lookup(result))))
          return failure();
      return success();
    }
    // Reads inside a linalg body are the linalg op's to check.
    if (isa<tensor::ExtractOp>(op) && isa<linalg::LinalgOp>(op->getParentOp()))
      return success();
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return failed(sameAttributes(op, twin)) ? failure()
                                              : checkLinalg(linalgOp);
    if (auto c = dyn_cast<arith::ConstantOp>(op))
      return checkConstant(c, cast<arith::ConstantOp>(twin));
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      return checkReshape(op, expand.getResultType(), expand.getResult(),
                          expand.getSrc(), expand.getReassociationIndices(),
                          /*intoSmall=*/false);
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      return checkReshape(op, collapse.getSrcType(), collapse.getSrc(),
                          collapse.getResult(),
                          collapse.getReassociationIndices(),
                          /*intoSmall=*/true);
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
      return checkExtractSlice(slice);
    if (auto slice = dyn_cast<tensor::InsertSliceOp>(op))
      return checkInsertSlice(slice);
    if (auto pad = dyn_cast<tensor::PadOp>(op)) {
      Batched info = batched.lookup(pad.getSource());
      if (info && (pad.getStaticLow()[info.axis] != 0 ||
                   pad.getStaticHigh()[info.axis] != 0))
        return fail(op, "it pads along the batch");
      return produce(op, pad.getResult(), info);
    }
    if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
      Batched info = batched.lookup(concat.getInputs().front());
      if (info && (int64_t)concat.getDim() == info.axis)
        return fail(op, "it concatenates along the batch");
      for (Value input : concat.getInputs())
        if (failed(sameAs(op, batched.lookup(input), info)))
          return failure();
      return produce(op, concat.getResult(), info);
    }
    if (auto cast = dyn_cast<tensor::CastOp>(op))
      return produce(op, cast.getResult(), batched.lookup(cast.getSource()));
    // Any other op: it must not see the batch.
    for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (batched.lookup(v))
        return fail(op, "'" + op->getName().getStringRef() +
                            "' is not known to keep the samples apart");
    return sameAttributes(op, twin);
  }

  static bool isInSamplesApartLoop(Operation *op) {
    for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
      if (isa<scf::ForOp>(p) && p->hasAttr(tcc::attr::kSamplesApart))
        return true;
    return false;
  }

  LogicalResult sameAttributes(Operation *op, Operation *twin) {
    if (op->getRawDictionaryAttrs() != twin->getRawDictionaryAttrs() ||
        op->getPropertiesAsAttribute() != twin->getPropertiesAsAttribute())
      return fail(op, "'" + op->getName().getStringRef() +
                          "' computes with the batch size");
    return success();
  }

  LogicalResult sameAs(Operation *op, Batched in, Batched out) {
    if (in != out)
      return fail(op, "'" + op->getName().getStringRef() +
                          "' moves the batch to another dim");
    return success();
  }

  /// Records that `result` of `op` holds the batch as `expected` says (its
  /// type must agree).
  LogicalResult produce(Operation *op, Value result, Batched expected) {
    Batched &info = batched[result];
    if (info.axis != expected.axis || info.multiple != expected.multiple)
      return fail(op, "'" + op->getName().getStringRef() +
                          "' moves the batch to another dim");
    info.outer = expected.outer;
    return success();
  }

  /// A tensor whose every sample is the same (an init without data), so
  /// how the batch sits in it does not matter.
  static bool uniform(Value v) {
    Operation *def = v.getDefiningOp();
    if (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                        tensor::CastOp>(def))
      return uniform(def->getOperand(0));
    return isa_and_nonnull<tensor::EmptyOp, linalg::FillOp, arith::ConstantOp>(
        def);
  }

  LogicalResult checkConstant(arith::ConstantOp op, arith::ConstantOp twin) {
    // A bound of a loop over the batch inside a loop that keeps the samples
    // apart, hoisted out of it.
    if (!op->use_empty() &&
        llvm::all_of(op->getUsers(), [](Operation *user) {
          return isInSamplesApartLoop(user);
        }))
      return success();
    if (!batched.lookup(op.getResult()) &&
        isa<IntegerAttr, FloatAttr, SplatElementsAttr>(op.getValue()) &&
        op.getValue() != twin.getValue()) {
      auto scalar = [](Attribute a) {
        if (auto splat = dyn_cast<SplatElementsAttr>(a))
          a = splat.getSplatValue<Attribute>();
        std::string s;
        llvm::raw_string_ostream os(s);
        if (auto f = dyn_cast<FloatAttr>(a))
          os << llvm::format("%g", f.getValueAsDouble());
        else if (auto i = dyn_cast<IntegerAttr>(a))
          os << i.getValue();
        else
          os << a;
        return s;
      };
      return fail(op, "the model computes with the batch size (a constant "
                      "is " + scalar(op.getValue()) + " at batch " +
                      Twine(probeA) + ", " +
                      scalar(twin.getValue()) + " at " +
                      Twine(probeB) + ")");
    }
    if (!batched.lookup(op.getResult())) {
      // Each import names its blobs anew: compare their bytes.
      auto a = dyn_cast<DenseResourceElementsAttr>(op.getValue());
      auto b = dyn_cast<DenseResourceElementsAttr>(twin.getValue());
      if (!a || !b)
        return sameAttributes(op, twin);
      AsmResourceBlob *blobA = a.getRawHandle().getBlob();
      AsmResourceBlob *blobB = b.getRawHandle().getBlob();
      if (a.getType() != b.getType() || !blobA || !blobB ||
          blobA->getData() != blobB->getData())
        return fail(op, "a constant changes with its value");
      return success();
    }
    auto a = dyn_cast<DenseElementsAttr>(op.getValue());
    auto b = dyn_cast<DenseElementsAttr>(twin.getValue());
    if (!a || !b || !a.isSplat() || !b.isSplat() ||
        a.getSplatValue<Attribute>() != b.getSplatValue<Attribute>())
      return fail(op, "a constant differs from sample to sample");
    return success();
  }

  /// A collapse (or expand) of `big` (more dims) into `small`: the dims of
  /// the batch's group before it join its outer part, those after it its
  /// inner part. `intoSmall`: the small side is the result (a collapse).
  LogicalResult checkReshape(Operation *op, RankedTensorType bigType,
                             Value bigValue, Value smallValue,
                             ArrayRef<ReassociationIndices> groups,
                             bool intoSmall) {
    Batched big = batched.lookup(bigValue), small = batched.lookup(smallValue);
    if (!big && !small)
      return success();
    if (!big || !small || small.axis >= (int64_t)groups.size() ||
        !llvm::is_contained(groups[small.axis], big.axis))
      return fail(op, "the reshape mixes the batch with other dims");
    int64_t before = 1, after = 1;
    for (int64_t d : groups[small.axis]) {
      if (d < big.axis)
        before *= bigType.getDimSize(d);
      else if (d > big.axis)
        after *= bigType.getDimSize(d);
    }
    if (intoSmall)
      return produce(op, smallValue,
                     {small.axis, small.multiple, before * big.outer});
    if (uniform(smallValue))
      return success();
    // The small side's outer rows must be whole rows of the dims before.
    int64_t inner = small.multiple / small.outer;
    if (small.outer % before || inner % after ||
        (small.outer / before) * (inner / after) != big.multiple)
      return fail(op, "the reshape mixes the batch with other dims");
    return produce(op, bigValue,
                   {big.axis, big.multiple, small.outer / before});
  }

  /// Whether a slice takes the whole of `axis` (of a dim of `size`).
  static bool whole(OffsetSizeAndStrideOpInterface slice, int64_t axis,
                    int64_t size) {
    return slice.getStaticOffsets()[axis] == 0 &&
           slice.getStaticStrides()[axis] == 1 &&
           slice.getStaticSizes()[axis] == size;
  }

  LogicalResult checkExtractSlice(tensor::ExtractSliceOp op) {
    Batched src = batched.lookup(op.getSource());
    Batched result = batched.lookup(op.getResult());
    if (!src)
      return sameAs(op, src, result);
    if (!whole(op, src.axis, op.getSourceType().getDimSize(src.axis)))
      return fail(op, "it slices the batch");
    llvm::SmallBitVector dropped = op.getDroppedDims();
    int64_t axis = src.axis;
    for (int64_t d = 0; d < src.axis; ++d)
      axis -= dropped.test(d);
    return produce(op, op.getResult(), {axis, src.multiple, src.outer});
  }

  LogicalResult checkInsertSlice(tensor::InsertSliceOp op) {
    Batched src = batched.lookup(op.getSource());
    Batched dest = batched.lookup(op.getDest());
    if (!dest)
      return sameAs(op, src, dest);
    if (!whole(op, dest.axis, op.getDestType().getDimSize(dest.axis)))
      return fail(op, "it writes part of the batch");
    // A rank-reducing insert (a Winograd transform's slice of its 16 values)
    // drops unit dims of the dest: the source's batch is the dest's.
    if (src) {
      llvm::SmallBitVector dropped = op.getDroppedDims();
      int64_t axis = dest.axis;
      for (int64_t d = 0; d < dest.axis; ++d)
        axis -= dropped.test(d);
      if (src.axis != axis)
        return sameAs(op, src, dest);
      src.axis = dest.axis;
    }
    if (!src || (src.outer != dest.outer && !uniform(op.getDest())))
      return sameAs(op, src, dest);
    return produce(op, op.getResult(), src);
  }

  /// A linalg op keeps the samples apart when one parallel loop indexes the
  /// batch of every batched operand (each of its inits among them) and no
  /// other operand, and its body reads batched tensors at that loop only.
  LogicalResult checkLinalg(linalg::LinalgOp op) {
    std::optional<unsigned> loop;
    for (OpOperand &operand : op->getOpOperands()) {
      Batched info = batched.lookup(operand.get());
      if (!info)
        continue;
      AffineExpr e = op.getMatchingIndexingMap(&operand).getResult(info.axis);
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim || (loop && *loop != dim.getPosition()))
        return fail(op, "it reads the batch of operand #" +
                            Twine(operand.getOperandNumber()) +
                            " at other positions than the sample it writes");
      loop = dim.getPosition();
    }
    if (loop &&
        op.getIteratorTypesArray()[*loop] != utils::IteratorType::parallel)
      return fail(op, "it reduces over the batch");
    // How the batch sits in its dim: as in the inputs (the inits' data, if
    // they have any, must agree), all alike.
    std::optional<int64_t> outer;
    for (OpOperand &operand : op->getOpOperands()) {
      Batched info = batched.lookup(operand.get());
      if (!info || (op.isDpsInit(&operand) && uniform(operand.get())))
        continue;
      if (outer && *outer != info.outer)
        return fail(op, "its operands hold the batch behind different rows");
      outer = info.outer;
    }
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<ShapedType>(operand.get().getType()) ||
          batched.lookup(operand.get()) || !loop)
        continue;
      if (op.isDpsInit(&operand))
        return fail(op, "it writes a result that holds no batch from one "
                        "that does");
      if (op.getMatchingIndexingMap(&operand).isFunctionOfDim(*loop))
        return fail(op, "it reads operand #" +
                            Twine(operand.getOperandNumber()) +
                            " along the batch loop");
    }
    // Tensors the body reads directly (gathers).
    WalkResult walk = op->walk([&](Operation *inner) {
      if (inner == op.getOperation())
        return WalkResult::advance();
      for (OpOperand &use : inner->getOpOperands()) {
        Batched info = batched.lookup(use.get());
        if (!info)
          continue;
        auto extract = dyn_cast<tensor::ExtractOp>(inner);
        auto index =
            extract && use.getOperandNumber() == 0
                ? extract.getIndices()[info.axis].getDefiningOp<linalg::IndexOp>()
                : linalg::IndexOp();
        if (!loop || !index || index.getDim() != *loop ||
            index->getParentOp() != op.getOperation() ||
            info.outer != outer.value_or(1)) {
          (void)fail(op, "its body reads a batched tensor at another sample");
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    for (Value result : op->getResults())
      if (Batched info = batched.lookup(result))
        batched[result].outer = outer.value_or(1);
    return success();
  }

  int64_t probeA, probeB;
  StringRef dimName;
  DenseMap<Value, Batched> batched;
};

} // namespace

FailureOr<tcc::BatchLayout> tcc::analyzeRunTimeBatch(ModuleOp a, ModuleOp b,
                                                     int64_t probeA,
                                                     int64_t probeB,
                                                     StringRef dimName) {
  return Analysis(probeA, probeB, dimName).run(a, b);
}
