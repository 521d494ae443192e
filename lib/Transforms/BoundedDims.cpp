//===- BoundedDims.cpp - symbolic dims that vary at run time up to a bound ===//
//
// The model's linalg IR at the bound B and at smaller values of S (the
// probes: B - 1, B - 2 and, for dims that strided layers divide, more) is
// walked in step. A dim that differs between them is floor((a x S + b) / d)
// for the dim's value S (checked on every probe; d = 1 but where strided
// convolutions and pools divide it). The IR at B is then made to run at any
// S <= B with the same buffers:
//  - every linalg op with a loop whose extent depends on S is marked with
//    its loops' extents (tcc.loop_extents); after bufferization,
//    tcc-cut-run-time-loops runs it on views of its operands cut to them,
//    so no op reads the padding beyond;
//  - copies into a larger tensor (insert_slice, pad, concat) copy exactly
//    the slice, at offsets computed from S, but an insert_slice whose dims
//    that follow S go whole into dims of the same bound at offset 0 (it may
//    drop dims of 1), which stays as it is;
//  - other ops may touch dims that depend on S only where the bound layout
//    and the actual one agree: reshapes that keep the dim outermost in its
//    group, slices at fixed offsets, constants whose elements at every
//    index do not depend on S (a range of positions, a causal mask).
// A scalar constant that is such an extent at every probe (the count a mean
// over the dim divides by, a recurrence's number of steps) is computed from
// S at run time; any other value that differs between the probes means the
// model computes with S in a way the bound layout cannot serve. An RNN's
// loop over time steps (tcc.samples_apart) reads and writes step t only: it
// runs its actual number of steps, its body unchecked.
//
//===----------------------------------------------------------------------===//
#include "tcc/BoundedDims.h"
#include "tcc/Header.h"
#include "tcc/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <numeric>

using namespace mlir;

namespace {

/// The extent of one dim: m x floor((a x S + b) / d), at least 0 (a == 0:
/// it does not depend on S; b is then the dim, d and m 1). m: a dim that
/// merges a divided one with others (a reshape of [S / 4, 256] to one).
struct Extent {
  int64_t a = 0, b = 0, d = 1, m = 1;
  bool varies() const { return a != 0; }
  int64_t at(int64_t s) const {
    return m * std::max<int64_t>(0, llvm::divideFloorSigned(a * s + b, d));
  }
  bool operator==(const Extent &o) const {
    return a == o.a && b == o.b && d == o.d && m == o.m;
  }
};

/// An op of the model at each probe (the first at the bound).
using Twins = SmallVector<Operation *, 4>;

class Bounder {
public:
  Bounder(MLIRContext *ctx, ArrayRef<int64_t> probes, StringRef dimName)
      : probes(probes), bound(probes.front()), dimName(dimName), b(ctx) {}

  FailureOr<tcc::BoundedLayout> run(ArrayRef<ModuleOp> modules) {
    SmallVector<Twins> ops;
    if (failed(pair(modules, ops)))
      return failure();
    for (Twins &t : ops)
      if (failed(check(t)))
        return failure();
    ModuleOp m0 = modules.front();
    auto main = m0.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return m0.emitError("no @main to bound");
    if (main->hasAttr(tcc::kRunTimeDimsAttr))
      return fail(main, "the outputs have data-dependent dims (NonZero)");
    tcc::BoundedLayout layout;
    auto ret = cast<func::ReturnOp>(main.getBody().front().getTerminator());
    for (BlockArgument arg : main.getArguments()) {
      FailureOr<int64_t> dim = boundary(
          main, arg, "input", main.getArgAttrDict(arg.getArgNumber()), true);
      if (failed(dim))
        return failure();
      layout.inputDims.push_back(*dim);
    }
    for (OpOperand &result : ret->getOpOperands()) {
      FailureOr<int64_t> dim =
          boundary(main, result.get(), "output",
                   main.getResultAttrDict(result.getOperandNumber()), false);
      if (failed(dim))
        return failure();
      layout.outputDims.push_back(*dim);
    }
    if (llvm::all_of(layout.inputDims, [](int64_t d) { return d < 0; }))
      return fail(main, "no input holds it");
    recordOutputs(ret, layout);
    rewrite(main, ret, layout);
    return layout;
  }

private:
  InFlightDiagnostic fail(Operation *op, const Twine &why) {
    return op->emitError() << "symbolic dim '" << dimName
                           << "' cannot vary at run time up to " << bound
                           << ": " << why << "; pin it with --dim " << dimName
                           << "=N";
  }

  //===--------------------------------------------------------------------===//
  // Pairing the three modules
  //===--------------------------------------------------------------------===//

  LogicalResult pair(ArrayRef<ModuleOp> modules, SmallVector<Twins> &ops) {
    size_t n = modules.size();
    SmallVector<SmallVector<Operation *>> walked(n);
    for (size_t i = 0; i < n; ++i)
      modules[i]->walk<WalkOrder::PreOrder>(
          [&](Operation *op) { walked[i].push_back(op); });
    for (size_t i = 1; i < n; ++i)
      if (walked[i].size() != walked[0].size())
        return changes(modules[0]);
    for (size_t k = 0; k < walked[0].size(); ++k) {
      Twins t;
      for (size_t i = 0; i < n; ++i)
        t.push_back(walked[i][k]);
      for (size_t i = 1; i < n; ++i)
        if (t[i]->getName() != t[0]->getName() ||
            t[i]->getNumResults() != t[0]->getNumResults() ||
            t[i]->getNumOperands() != t[0]->getNumOperands() ||
            t[i]->getNumRegions() != t[0]->getNumRegions())
          return changes(t[0]);
      for (unsigned r = 0; r < t[0]->getNumResults(); ++r) {
        SmallVector<Value> v;
        for (Operation *op : t)
          v.push_back(op->getResult(r));
        if (failed(classify(t[0], v)))
          return failure();
      }
      for (unsigned r = 0; r < t[0]->getNumRegions(); ++r) {
        Region &r0 = t[0]->getRegion(r);
        for (size_t i = 1; i < n; ++i)
          if (r0.getBlocks().size() != t[i]->getRegion(r).getBlocks().size())
            return changes(t[0]);
        if (r0.empty())
          continue;
        // Only entry blocks carry arguments worth pairing here (linalg bodies
        // and functions have one block).
        for (size_t i = 1; i < n; ++i)
          if (t[i]->getRegion(r).front().getNumArguments() !=
              r0.front().getNumArguments())
            return changes(t[0]);
        for (unsigned a = 0; a < r0.front().getNumArguments(); ++a) {
          SmallVector<Value> v;
          for (Operation *op : t)
            v.push_back(op->getRegion(r).front().getArgument(a));
          if (failed(classify(t[0], v)))
            return failure();
        }
      }
      ops.push_back(t);
    }
    return success();
  }

  /// "B, B - 1 and B - 2" (or "B, B - 1, ..., B - k and F"): the probes,
  /// for messages.
  std::string probeList() const {
    std::string list;
    size_t n = probes.size();
    for (size_t i = 0; i < n; ++i) {
      if (n > 5 && i >= 2 && i + 2 < n) {
        if (i == 2)
          list += ", ...";
        continue;
      }
      list += (i == 0 ? "" : i + 1 == n ? " and " : ", ") +
              std::to_string(probes[i]);
    }
    return list;
  }

  LogicalResult changes(Operation *op) {
    changed = true;
    return fail(op, "the graph changes with its value (compared at " +
                        probeList() + "; a fold that fires at " +
                        Twine(bound) + " alone, as a gather of a whole " +
                        "table of " + Twine(bound) +
                        " rows, does this: try a smaller bound)");
  }

  /// The extent that takes values `v` at the probes: floor((a x S + b) /
  /// d) with the smallest d (at most half the run of consecutive probes, so
  /// that each d shows two whole periods), or nullopt.
  std::optional<Extent> fitValues(ArrayRef<int64_t> v) const {
    if (llvm::all_equal(v))
      return Extent{0, v[0], 1, 1};
    if (std::optional<Extent> e = fitDivided(v))
      return e;
    // m x floor(...): m the gcd of the values, when that divides them all.
    int64_t m = 0;
    for (int64_t x : v)
      m = std::gcd(m, x);
    if (m <= 1)
      return std::nullopt;
    SmallVector<int64_t> quotients;
    for (int64_t x : v)
      quotients.push_back(x / m);
    std::optional<Extent> e = fitDivided(quotients);
    if (e && e->d != 1)
      e->m = m;
    else
      e.reset();
    return e;
  }

  /// floor((a x S + b) / d) taking values `v` at the probes, or nullopt.
  std::optional<Extent> fitDivided(ArrayRef<int64_t> v) const {
    // The consecutive probes B, B - 1, ...: all but a last far one.
    int64_t run = probes.size() > 3 ? probes.size() - 1 : probes.size();
    int64_t last = run - 1;
    for (int64_t d = 1; d <= std::max<int64_t>(1, last / 2); ++d) {
      double slope = (double)(v[0] - v[last]) * d / (probes[0] - probes[last]);
      int64_t a = std::llround(slope);
      if (a <= 0)
        continue;
      for (int64_t b0 = v[0] * d - a * bound, bEnd = b0 + d; b0 < bEnd; ++b0) {
        Extent e{a, b0, d, 1};
        if (llvm::all_of(llvm::enumerate(probes), [&](auto p) {
              return e.at(p.value()) == v[p.index()] &&
                     llvm::divideFloorSigned(a * p.value() + b0, d) >= 0;
            }))
          return e;
      }
    }
    return std::nullopt;
  }

  /// The extent of each loop or dim from its static sizes at the probes
  /// (sizes[i]: at probes[i]).
  FailureOr<SmallVector<Extent>> fit(Operation *op,
                                     ArrayRef<SmallVector<int64_t>> sizes) {
    SmallVector<Extent> extents;
    for (size_t d = 0; d < sizes[0].size(); ++d) {
      SmallVector<int64_t> v;
      for (const SmallVector<int64_t> &s : sizes) {
        if (ShapedType::isDynamic(s[d])) {
          (void)fail(op, "a dim of its value is not known at compile time");
          return failure();
        }
        v.push_back(s[d]);
      }
      std::optional<Extent> e = fitValues(v);
      if (!e) {
        unfitted = true;
        std::string seen;
        for (auto [i, x] : llvm::enumerate(v))
          seen += (i ? ", " : "") + std::to_string(x);
        (void)fail(op, "a dim changes with it other than as floor((a x " +
                           dimName + " + b) / d) (" + seen + " at " +
                           probeList() + ")");
        return failure();
      }
      extents.push_back(*e);
    }
    return extents;
  }

  LogicalResult classify(Operation *op, ArrayRef<Value> v) {
    if (llvm::all_of(v, [&](Value x) { return x.getType() == v[0].getType(); }))
      return success();
    SmallVector<SmallVector<int64_t>> shapes;
    auto t0 = dyn_cast<RankedTensorType>(v[0].getType());
    for (Value x : v) {
      auto t = dyn_cast<RankedTensorType>(x.getType());
      if (!t || !t0 || t.getRank() != t0.getRank() ||
          t.getElementType() != t0.getElementType() ||
          t.getEncoding() != t0.getEncoding())
        return fail(op, "a value's type changes with it in more than its dims");
      shapes.emplace_back(t.getShape());
    }
    FailureOr<SmallVector<Extent>> e = fit(op, shapes);
    if (failed(e))
      return failure();
    extents[v[0]] = *e;
    return success();
  }

  /// The extents of the dims of `v` (a value at the bound); empty when none
  /// depends on S.
  ArrayRef<Extent> of(Value v) {
    auto it = extents.find(v);
    return it == extents.end() ? ArrayRef<Extent>() : ArrayRef(it->second);
  }
  bool varies(Value v) { return extents.count(v); }

  //===--------------------------------------------------------------------===//
  // Checks
  //===--------------------------------------------------------------------===//

  static bool inRecurrence(Operation *op) {
    for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
      if (isa<scf::ForOp>(p) && p->hasAttr(tcc::attr::kSamplesApart))
        return true;
    return false;
  }

  LogicalResult check(Twins t) {
    Operation *op = t[0];
    if (isa<ModuleOp, func::FuncOp, func::ReturnOp, tensor::EmptyOp,
            tensor::CastOp>(op))
      return success();
    // An RNN's loop over time steps: it runs its actual number of steps
    // (its upper bound a constant extent, computed from S at run time), and
    // step t reads and writes step t of the values it carries and reads
    // only: those may follow S. Its body is the lowering's.
    if (auto loop = dyn_cast<scf::ForOp>(op);
        loop && loop->hasAttr(tcc::attr::kSamplesApart)) {
      if (!isa_and_nonnull<arith::ConstantOp>(
              loop.getUpperBound().getDefiningOp()) ||
          !isa_and_nonnull<arith::ConstantOp>(
              loop.getLowerBound().getDefiningOp()) ||
          !isa_and_nonnull<arith::ConstantOp>(loop.getStep().getDefiningOp()))
        return fail(op, "a recurrence's number of steps is not a constant");
      return sameAttributes(t);
    }
    if (inRecurrence(op) && !isa<arith::ConstantOp>(op))
      return success();
    // Reads inside a linalg body stay inside the loops' (actual) extents.
    if (isa<tensor::ExtractOp>(op) && isa<linalg::LinalgOp>(op->getParentOp()))
      return success();
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return failed(sameAttributes(t)) ? failure() : checkLinalg(t);
    if (auto c = dyn_cast<arith::ConstantOp>(op))
      return checkConstant(t);
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      return checkReshape(op, expand.getResult(),
                          expand.getReassociationIndices());
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      return checkReshape(op, collapse.getSrc(),
                          collapse.getReassociationIndices());
    if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(op))
      return checkSlice(t);
    if (auto pad = dyn_cast<tensor::PadOp>(op)) {
      for (size_t i = 1; i < t.size(); ++i) {
        auto twin = cast<tensor::PadOp>(t[i]);
        if (twin.getStaticLow() != pad.getStaticLow() ||
            twin.getStaticHigh() != pad.getStaticHigh())
          return fail(op, "it pads by an amount that depends on it");
      }
      if (!pad.getLow().empty() || !pad.getHigh().empty() ||
          !pad.getConstantPaddingValue())
        return varies(pad.getSource())
                   ? fail(op, "it pads a value that depends on it with other "
                              "than a constant")
                   : success();
      if (varies(pad.getSource()))
        copies.push_back(op);
      return success();
    }
    if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
      if (llvm::any_of(concat.getInputs(), [&](Value v) { return varies(v); }))
        copies.push_back(op);
      return success();
    }
    // Any other op: it must not see a dim that depends on S.
    for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (varies(v))
        return fail(op, "'" + op->getName().getStringRef() +
                            "' is not known to keep to a dim's actual extent");
    return sameAttributes(t);
  }

  LogicalResult sameAttributes(Twins t) {
    for (size_t i = 1; i < t.size(); ++i)
      if (t[0]->getRawDictionaryAttrs() != t[i]->getRawDictionaryAttrs() ||
          t[0]->getPropertiesAsAttribute() != t[i]->getPropertiesAsAttribute())
        return fail(t[0], "'" + t[0]->getName().getStringRef() +
                              "' computes with its value");
    return success();
  }

  /// A linalg op: every loop whose extent depends on S must index some
  /// operand directly (so slicing the operands sets it).
  LogicalResult checkLinalg(Twins t) {
    auto op = cast<linalg::LinalgOp>(t[0]);
    SmallVector<SmallVector<int64_t>> r;
    for (Operation *twin : t)
      r.push_back(cast<linalg::LinalgOp>(twin).getStaticLoopRanges());
    FailureOr<SmallVector<Extent>> loops = fit(op, r);
    if (failed(loops))
      return failure();
    if (llvm::none_of(*loops, [](Extent e) { return e.varies(); }))
      return success();
    for (auto [l, e] : llvm::enumerate(*loops)) {
      if (!e.varies())
        continue;
      bool direct = llvm::any_of(op.getIndexingMapsArray(), [&](AffineMap m) {
        return llvm::any_of(m.getResults(), [&](AffineExpr x) {
          auto dim = dyn_cast<AffineDimExpr>(x);
          return dim && dim.getPosition() == l;
        });
      });
      if (!direct)
        return fail(op, "loop " + Twine(l) + " depends on it but indexes no "
                                             "operand directly");
    }
    loopExtents[op] = *loops;
    return success();
  }

  /// The raw bytes of element `i` of a constant (`data` holds one element
  /// when `splat`).
  static ArrayRef<char> element(ArrayRef<char> data, bool splat, int64_t i,
                                int64_t bytes) {
    return data.slice(splat ? 0 : i * bytes, bytes);
  }

  static std::optional<std::pair<ArrayRef<char>, bool>> rawData(Attribute a) {
    if (auto dense = dyn_cast<DenseElementsAttr>(a)) {
      if (dense.getElementType().isInteger(1))
        return std::nullopt; // bit-packed
      return std::make_pair(dense.getRawData(), dense.isSplat());
    }
    if (auto res = dyn_cast<DenseResourceElementsAttr>(a))
      if (AsmResourceBlob *blob = res.getRawHandle().getBlob())
        return std::make_pair(blob->getData(), false);
    return std::nullopt;
  }

  /// A constant: the same at the three sizes, or (when its type depends on
  /// S) the same element at every index the smaller ones have.
  /// A scalar (or splat) constant's value as a double.
  static std::optional<double> scalarValue(Attribute a) {
    if (auto splat = dyn_cast<SplatElementsAttr>(a))
      a = splat.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(a))
      return f.getValueAsDouble();
    if (auto i = dyn_cast<IntegerAttr>(a))
      return (double)i.getValue().getSExtValue();
    return std::nullopt;
  }

  LogicalResult checkConstant(Twins t) {
    auto c0 = cast<arith::ConstantOp>(t[0]);
    auto type0 = dyn_cast<RankedTensorType>(c0.getType());
    // A scalar that is an extent (the count a mean over the dim divides by,
    // a recurrence's number of steps): computed from S at run time.
    SmallVector<std::optional<double>> v;
    for (Operation *twin : t)
      v.push_back(scalarValue(cast<arith::ConstantOp>(twin).getValue()));
    bool scalar = llvm::all_of(v, [](auto x) { return x.has_value(); }) &&
                  llvm::any_of(v, [&](auto x) { return *x != *v[0]; }) &&
                  llvm::all_of(t, [&](Operation *twin) {
                    return twin->getResultTypes()[0] == c0.getType();
                  });
    if (scalar) {
      SmallVector<int64_t> values;
      for (std::optional<double> x : v)
        if (*x == std::round(*x) && std::abs(*x) < 1e15)
          values.push_back((int64_t)*x);
      std::optional<Extent> e;
      if (values.size() == v.size())
        e = fitValues(values);
      if (!e)
        return fail(c0, "the model computes with its value (a constant is " +
                            llvm::formatv("{0}", *v[0]) + " at " +
                            Twine(bound) + ", " + llvm::formatv("{0}", *v[1]) +
                            " at " + Twine(probes[1]) + ")");
      scalars.push_back({c0, *e});
      return success();
    }
    for (size_t i = 1; i < t.size(); ++i) {
      auto ci = cast<arith::ConstantOp>(t[i]);
      auto d0 = rawData(c0.getValue()), di = rawData(ci.getValue());
      if (!type0 || !d0 || !di) {
        if (c0.getValue() != ci.getValue())
          return fail(c0, "the model computes with its value (a constant "
                          "differs)");
        continue;
      }
      auto typeI = cast<RankedTensorType>(ci.getType());
      int64_t bytes =
          (int64_t)llvm::divideCeil(type0.getElementTypeBitWidth(), 8);
      SmallVector<int64_t> strides0 = computeStrides(type0.getShape());
      int64_t n = typeI.getNumElements();
      if ((!d0->second && (int64_t)d0->first.size() < type0.getNumElements() * bytes) ||
          (!di->second && (int64_t)di->first.size() < n * bytes))
        return fail(c0, "a constant cannot be read");
      SmallVector<int64_t> stridesI = computeStrides(typeI.getShape());
      for (int64_t k = 0; k < n; ++k) {
        int64_t at0 = 0, rest = k;
        for (size_t d = 0; d < stridesI.size(); ++d) {
          at0 += rest / stridesI[d] * strides0[d];
          rest %= stridesI[d];
        }
        if (element(d0->first, d0->second, at0, bytes) !=
            element(di->first, di->second, k, bytes))
          return fail(c0, "the model computes with its value (a constant's "
                          "elements depend on it)");
      }
    }
    return success();
  }

  /// A reshape between `big` (more dims) and the other side: in each group,
  /// a dim that depends on S must be the group's outermost one that is not
  /// 1, so the bound layout and the actual one agree.
  LogicalResult checkReshape(Operation *op, Value big,
                             ArrayRef<ReassociationIndices> groups) {
    ArrayRef<Extent> e = of(big);
    if (e.empty())
      return success();
    for (const ReassociationIndices &group : groups) {
      bool outer = true;
      for (int64_t d : group) {
        if (e[d].varies() && !outer)
          return fail(op, "the reshape merges a dim that depends on it "
                          "behind another dim");
        if (e[d].varies() || e[d].b != 1)
          outer = false;
      }
    }
    return success();
  }

  LogicalResult checkSlice(Twins t) {
    auto s0 = cast<OffsetSizeAndStrideOpInterface>(t[0]);
    if (!s0.getOffsets().empty() || !s0.getSizes().empty() ||
        !s0.getStrides().empty())
      return llvm::any_of(t[0]->getOperands(),
                          [&](Value v) { return varies(v); })
                 ? fail(t[0], "it slices at run-time offsets")
                 : success();
    for (size_t i = 1; i < t.size(); ++i) {
      auto si = cast<OffsetSizeAndStrideOpInterface>(t[i]);
      if (si.getStaticOffsets() != s0.getStaticOffsets() ||
          si.getStaticStrides() != s0.getStaticStrides())
        return fail(t[0], "it slices at offsets that depend on it");
    }
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(t[0])) {
      if (!varies(insert.getSource()))
        return success();
      // Where every dim that follows S goes whole into a dim of the same
      // bound at offset 0 (Winograd's tiles into their [16, ...] array,
      // dropping its dim of 1), the bound layout and the actual one agree:
      // the insert copies the padding too, where the padding is, and stays
      // in place. Else it copies the actual part.
      llvm::SmallBitVector dropped = insert.getDroppedDims();
      ArrayRef<Extent> e = of(insert.getSource());
      bool aligned = true;
      for (int64_t d = 0, s = 0; d < insert.getDestType().getRank(); ++d) {
        if (dropped[d])
          continue;
        if (e[s].varies())
          aligned &= insert.getStaticOffsets()[d] == 0 &&
                     insert.getStaticSizes()[d] ==
                         insert.getDestType().getDimSize(d) &&
                     insert.getSourceType().getDimSize(s) ==
                         insert.getDestType().getDimSize(d);
        ++s;
      }
      if (aligned)
        return success();
      if (insert.getSourceType().getRank() != insert.getDestType().getRank())
        return fail(t[0], "it inserts a value that depends on it into one of "
                          "higher rank");
      copies.push_back(t[0]);
    }
    return success();
  }

  /// Input or output `v` of @main: it may hold S in one dim, behind dims of
  /// 1 only, so its bound layout starts with the actual one. Inputs hold S
  /// itself. Returns the dim, or -1.
  FailureOr<int64_t> boundary(func::FuncOp main, Value v, StringRef what,
                              DictionaryAttr attrs, bool input) {
    ArrayRef<Extent> e = of(v);
    auto name = attrs ? attrs.getAs<StringAttr>(tcc::kNameAttr) : nullptr;
    auto refuse = [&](const Twine &why) {
      return fail(main, Twine(what) + " '" +
                            (name ? name.getValue() : StringRef("?")) + "' " +
                            why);
    };
    int64_t found = -1;
    bool behind = false;
    for (int64_t d = 0; d < (int64_t)e.size(); ++d) {
      if (!e[d].varies()) {
        if (found < 0 && e[d].b != 1 && llvm::any_of(e.drop_front(d), [](Extent x) {
              return x.varies();
            })) {
          // An input's actual elements are copied into the bound layout
          // on entry (an image of a variable width: [1, 32, width]).
          if (!input)
            return refuse("holds it behind dim " + Twine(d) +
                          "; it must lead the dims that are not 1");
          behind = true;
        }
        continue;
      }
      if (found >= 0)
        return refuse("holds it in more than one dim");
      if (input && !(e[d] == Extent{1, 0}))
        return refuse("holds a multiple of it");
      found = d;
    }
    if (behind)
      repacked.push_back(cast<BlockArgument>(v));
    return found;
  }

  /// Input `arg` (at the bound), whose caller's buffer holds the actual
  /// elements in a row-major run, in the bound layout: the run reshaped to
  /// the actual dims and inserted into a tensor of the bound's.
  void repack(BlockArgument arg) {
    Location loc = arg.getLoc();
    auto type = cast<RankedTensorType>(arg.getType());
    SmallVector<OpFoldResult> sizes = actualSizes(arg);
    Value count = arith::ConstantIndexOp::create(b, loc, 1);
    for (OpFoldResult size : sizes)
      count = arith::MulIOp::create(
          b, loc, count, getValueOrCreateConstantIndexOp(b, loc, size));
    auto flatType =
        RankedTensorType::get({type.getNumElements()}, type.getElementType());
    Value flat = tensor::CollapseShapeOp::create(
        b, loc, flatType, arg, tcc::wholeShapeGroup(type.getRank()));
    Value run = tensor::ExtractSliceOp::create(
        b, loc, flat, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{count},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    SmallVector<int64_t> actualShape;
    for (OpFoldResult size : sizes) {
      std::optional<int64_t> c = getConstantIntValue(size);
      actualShape.push_back(c ? *c : ShapedType::kDynamic);
    }
    Value actual = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(actualShape, type.getElementType()), run,
        tcc::wholeShapeGroup(type.getRank()), sizes);
    Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                          type.getElementType());
    Value bound = tensor::InsertSliceOp::create(
        b, loc, actual, empty,
        SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(0)), sizes,
        SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(1)));
    arg.replaceAllUsesExcept(bound, flat.getDefiningOp());
  }

  //===--------------------------------------------------------------------===//
  // The rewrite
  //===--------------------------------------------------------------------===//

  /// m x floor((a x S + b) / d) as an index.
  Value extent(Extent e) {
    auto key = std::make_tuple(e.a, e.b, e.d, e.m);
    if (auto it = extentValues.find(key); it != extentValues.end())
      return it->second;
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointAfter(s.getDefiningOp());
    return extentValues[key] =
               tcc::buildExtent(b, s.getLoc(), s, {e.a, e.b, e.d, e.m});
  }

  /// The sizes of `v` with each dim that depends on S at its actual extent.
  SmallVector<OpFoldResult> actualSizes(Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    ArrayRef<Extent> e = of(v);
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(!e.empty() && e[d].varies()
                          ? OpFoldResult(extent(e[d]))
                          : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
    return sizes;
  }

  Value slice(Value v, ArrayRef<OpFoldResult> sizes) {
    int64_t rank = sizes.size();
    return tensor::ExtractSliceOp::create(
        b, v.getLoc(), v, SmallVector<OpFoldResult>(rank, b.getIndexAttr(0)),
        sizes, SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
  }

  /// Marks `op` with its loops' extents; tcc-cut-run-time-loops cuts its
  /// operands to them after bufferization (slices of its inits here would
  /// make one-shot bufferization copy them).
  void markLinalg(linalg::LinalgOp op, ArrayRef<Extent> loops) {
    SmallVector<int64_t> quads;
    for (Extent e : loops)
      quads.append({e.a, e.b, e.d, e.m});
    op->setAttr(tcc::kLoopExtentsAttr, b.getDenseI64ArrayAttr(quads));
  }

  /// Replaces constant `c` (a scalar or a splat) by a x S + b.
  void replaceScalar(arith::ConstantOp c, Extent e) {
    Value v = extent(e);
    b.setInsertionPointAfterValue(v);
    Location loc = c.getLoc();
    Type type = c.getType();
    auto shaped = dyn_cast<RankedTensorType>(type);
    Type element = shaped ? shaped.getElementType() : type;
    if (isa<FloatType>(element)) {
      v = arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
      v = arith::SIToFPOp::create(b, loc, element, v);
    } else if (!element.isIndex()) {
      v = arith::IndexCastOp::create(b, loc, element, v);
    }
    if (shaped)
      v = tensor::SplatOp::create(b, loc, shaped, v);
    c.replaceAllUsesWith(v);
    c.erase();
  }

  /// Inserts the actual part of `src` into `dest` at `offsets`.
  Value insertActual(Value src, Value dest, ArrayRef<OpFoldResult> offsets) {
    SmallVector<OpFoldResult> sizes = actualSizes(src);
    Value part = varies(src) ? slice(src, sizes) : src;
    return tensor::InsertSliceOp::create(
        b, src.getLoc(), part, dest, offsets, sizes,
        SmallVector<OpFoldResult>(sizes.size(), b.getIndexAttr(1)));
  }

  void rewriteCopy(Operation *op) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    Value result;
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      result = insertActual(insert.getSource(), insert.getDest(),
                            insert.getMixedOffsets());
    } else if (auto pad = dyn_cast<tensor::PadOp>(op)) {
      auto type = pad.getResultType();
      Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                            type.getElementType());
      Value filled = linalg::FillOp::create(b, loc, pad.getConstantPaddingValue(),
                                            empty)
                         .getResult(0);
      result = insertActual(pad.getSource(), filled, pad.getMixedLowPad());
    } else {
      auto concat = cast<tensor::ConcatOp>(op);
      auto type = concat.getResultType();
      result = tensor::EmptyOp::create(b, loc, type.getShape(),
                                       type.getElementType());
      int64_t dim = concat.getDim();
      OpFoldResult at = b.getIndexAttr(0);
      for (Value input : concat.getInputs()) {
        SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
        offsets[dim] = at;
        result = insertActual(input, result, offsets);
        OpFoldResult size = actualSizes(input)[dim];
        at = getAsOpFoldResult(arith::AddIOp::create(
            b, loc, getValueOrCreateConstantIndexOp(b, loc, at),
            getValueOrCreateConstantIndexOp(b, loc, size)));
      }
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }

  void rewrite(func::FuncOp main, func::ReturnOp ret,
               const tcc::BoundedLayout &layout) {
    // S comes in as one more input, after the model's: its value in each
    // input that holds it (checked equal and within the bound by the entry
    // points); the first one serves.
    SmallVector<int64_t> inputTriples;
    for (auto [i, d] : llvm::enumerate(layout.inputDims))
      if (d >= 0)
        inputTriples.append({(int64_t)i, d, bound});
    unsigned numInputs = main.getNumArguments();
    auto dimsType =
        RankedTensorType::get({(int64_t)inputTriples.size() / 3}, b.getI64Type());
    (void)main.insertArgument(
        numInputs, dimsType,
        b.getDictionaryAttr(
            {b.getNamedAttr(tcc::kNameAttr, b.getStringAttr("input_dims")),
             b.getNamedAttr(tcc::kDtypeAttr, b.getI64IntegerAttr(7))}),
        main.getLoc());
    main->setAttr("tcc.num_inputs", b.getI64IntegerAttr(numInputs + 1));
    main->setAttr(tcc::kRunTimeInputsAttr, b.getDenseI64ArrayAttr(inputTriples));
    Block &entry = main.getBody().front();
    b.setInsertionPointToStart(&entry);
    Location loc = main.getLoc();
    Value first = tensor::ExtractOp::create(
        b, loc, entry.getArgument(numInputs),
        ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
    s = arith::IndexCastOp::create(b, loc, b.getIndexType(), first);
    for (BlockArgument arg : repacked)
      repack(arg);

    for (auto &[op, loops] : loopExtents)
      markLinalg(cast<linalg::LinalgOp>(op), loops);
    for (auto [c, e] : scalars)
      replaceScalar(c, e);
    for (Operation *op : copies)
      rewriteCopy(op);

    // The outputs' actual dims, as for a NonZero.
    SmallVector<int64_t> outputTriples;
    SmallVector<Value> values;
    b.setInsertionPoint(ret);
    for (auto [i, d] : llvm::enumerate(layout.outputDims)) {
      if (d < 0)
        continue;
      Value result = ret.getOperand(i);
      Extent e = extentsAtReturn[i];
      outputTriples.append(
          {(int64_t)i, d, cast<RankedTensorType>(result.getType()).getDimSize(d)});
      values.push_back(
          arith::IndexCastOp::create(b, loc, b.getI64Type(), extent(e)));
    }
    if (!values.empty())
      (void)tcc::appendRunTimeDims(main, ret, outputTriples, values);
  }

  /// The extent of each output's dim that holds S (recorded before the
  /// rewrite replaces the returned values).
  void recordOutputs(func::ReturnOp ret, const tcc::BoundedLayout &layout) {
    for (auto [i, d] : llvm::enumerate(layout.outputDims))
      extentsAtReturn.push_back(d >= 0 ? of(ret.getOperand(i))[d] : Extent());
  }

public:
  /// Whether a dim did not fit floor((a x S + b) / d) at these probes (more
  /// probes may find its d).
  bool unfitted = false;
  /// Whether the graph differs between the probes.
  bool changed = false;

private:
  SmallVector<int64_t> probes;
  int64_t bound;
  StringRef dimName;
  DenseMap<Value, SmallVector<Extent>> extents;
  llvm::MapVector<Operation *, SmallVector<Extent>> loopExtents;
  SmallVector<Operation *> copies;
  SmallVector<std::pair<arith::ConstantOp, Extent>> scalars;
  SmallVector<Extent> extentsAtReturn;
  /// Inputs that hold S behind other dims (copied into the bound layout).
  SmallVector<BlockArgument> repacked;
  OpBuilder b;
  Value s;
  std::map<std::tuple<int64_t, int64_t, int64_t, int64_t>, Value>
      extentValues;
};

} // namespace

FailureOr<tcc::BoundedLayout>
tcc::boundRunTimeDim(ArrayRef<ModuleOp> modules, ArrayRef<int64_t> probes,
                     StringRef dimName, tcc::BoundFailure *why) {
  ModuleOp first = modules.front();
  Bounder bounder(first.getContext(), probes, dimName);
  FailureOr<tcc::BoundedLayout> layout = bounder.run(modules);
  if (why)
    *why = bounder.unfitted  ? tcc::BoundFailure::Unfitted
           : bounder.changed ? tcc::BoundFailure::GraphChanges
                             : tcc::BoundFailure::Other;
  return layout;
}

SmallVector<int64_t> tcc::boundProbes(int64_t bound, int64_t divisor) {
  SmallVector<int64_t> probes;
  int64_t run = divisor == 1 ? 3 : 2 * divisor + 1;
  for (int64_t i = 0; i < run && bound - i >= 1; ++i)
    probes.push_back(bound - i);
  // A far probe: a dim divided by more than the run shows changes there.
  int64_t far = bound - std::max<int64_t>(run, bound / 4);
  if (divisor > 1 && far >= 1)
    probes.push_back(far);
  return probes;
}

Value tcc::buildExtent(OpBuilder &b, Location loc, Value s,
                       ArrayRef<int64_t> extent) {
  int64_t a = extent[0], c = extent[1], d = extent.size() > 2 ? extent[2] : 1,
          m = extent.size() > 3 ? extent[3] : 1;
  Value v = s;
  if (a != 1)
    v = arith::MulIOp::create(b, loc, v,
                              arith::ConstantIndexOp::create(b, loc, a));
  if (c != 0)
    v = arith::AddIOp::create(b, loc, v,
                              arith::ConstantIndexOp::create(b, loc, c));
  // Never below 0 (an extent of S - 1 at S = 0 is no iterations).
  if (c < 0)
    v = arith::MaxSIOp::create(b, loc, v,
                               arith::ConstantIndexOp::create(b, loc, 0));
  // The floor of a value at least 0.
  if (d != 1)
    v = arith::DivUIOp::create(b, loc, v,
                               arith::ConstantIndexOp::create(b, loc, d));
  if (m != 1)
    v = arith::MulIOp::create(b, loc, v,
                              arith::ConstantIndexOp::create(b, loc, m));
  return v;
}
