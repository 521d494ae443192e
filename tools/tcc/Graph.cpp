//===- Graph.cpp - tcc compile --graph: the fused graph as a picture ------===//
//
// The kernels @main calls (after tcc-dedup-kernels), in run order, as
// Graphviz boxes labelled with the kernel, the shape it writes and the ONNX
// nodes inside it; the model's inputs and outputs as ellipses; an edge from
// the kernel that last wrote a buffer to each kernel that reads it,
// labelled with the buffer's shape. Buffers are told apart by their base
// (a workspace view, an allocation, an argument of @main), through the
// views that reshape them; weights are not drawn.
//
//===----------------------------------------------------------------------===//
#include "Graph.h"

#include "tcc/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace mlir;

namespace {

using Buffer = tcc::driver::KernelGraph::Buffer;
using Kernel = tcc::driver::KernelGraph::Kernel;

/// The buffer `v` views: through reshapes, subviews and casts; `sliced`
/// (when given) is set if one of them is a subview.
Value baseOf(Value v, bool *sliced = nullptr) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<memref::ViewOp>(def))
      break; // a workspace slot of its own
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    if (sliced && isa<memref::SubViewOp>(def))
      *sliced = true;
    v = view.getViewSource();
  }
  return v;
}

std::string typeText(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return "";
  std::string s;
  llvm::raw_string_ostream os(s);
  for (auto [i, d] : llvm::enumerate(shaped.getShape()))
    os << (i ? "x" : "") << (ShapedType::isDynamic(d) ? std::string("?")
                                                      : std::to_string(d));
  if (shaped.getShape().empty())
    os << "scalar";
  os << " " << shaped.getElementType();
  return s;
}

/// What a kernel does with its arguments.
struct Effects {
  llvm::SmallBitVector reads, writes;
  /// Written through a subview only: the rest of the buffer keeps what an
  /// earlier kernel wrote (a padded input's border).
  llvm::SmallBitVector partial;
};

/// Which arguments of `kernel` it reads and which it writes (all of, or
/// part of).
Effects argumentEffects(func::FuncOp kernel) {
  unsigned n = kernel.getNumArguments();
  Effects e{llvm::SmallBitVector(n), llvm::SmallBitVector(n),
            llvm::SmallBitVector(n, true)};
  llvm::SmallBitVector &reads = e.reads, &writes = e.writes;
  // The argument `v` views, and whether through a subview.
  auto argOf = [&](Value v, bool *sliced = nullptr)
      -> std::optional<unsigned> {
    v = baseOf(v, sliced);
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &kernel.getBody().front())
      return std::nullopt;
    return arg.getArgNumber();
  };
  auto write = [&](Value v) {
    bool sliced = false;
    if (auto i = argOf(v, &sliced)) {
      writes.set(*i);
      if (!sliced)
        e.partial.reset(*i);
    }
  };
  kernel.walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      // Unknown effects (a call): every memref it takes, both ways.
      if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return;
      for (Value operand : op->getOperands())
        if (auto i = argOf(operand)) {
          reads.set(*i);
          write(operand);
        }
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &effect : list) {
      Value value = effect.getValue();
      if (!value)
        continue;
      if (auto i = argOf(value)) {
        if (isa<MemoryEffects::Read>(effect.getEffect()))
          reads.set(*i);
        if (isa<MemoryEffects::Write>(effect.getEffect()))
          write(value);
      }
    }
  });
  e.partial &= writes;
  return e;
}

/// Text for a double-quoted DOT string: quotes and backslashes escaped,
/// control characters as \xNN, so that no name from the model can end the
/// string or the graph.
std::string dotEscape(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += std::string("\\") + c;
    else if ((unsigned char)c < 0x20 || c == 0x7f)
      out += "\\\\x" + llvm::utohexstr((unsigned char)c, true, 2);
    else
      out += c;
  }
  return out;
}

} // namespace

tcc::driver::KernelGraph
tcc::driver::buildKernelGraph(ModuleOp module,
                              const std::map<std::string, NodeInfo> &nodes) {
  KernelGraph graph;
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return graph;
  // Buffers by base value; the model's inputs and outputs first.
  llvm::DenseMap<Value, int> buffers;
  auto bufferOf = [&](Value base) {
    auto [it, inserted] = buffers.try_emplace(base, graph.buffers.size());
    if (inserted) {
      Buffer b;
      b.type = typeText(base.getType());
      if (auto arg = dyn_cast<BlockArgument>(base);
          arg && arg.getOwner() == &main.getBody().front()) {
        auto name = main.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      "tcc.name");
        b.name = name ? name.getValue().str() : "";
        b.modelArgument = true;
      }
      graph.buffers.push_back(b);
    }
    return it->second;
  };
  auto numInputs = main->getAttrOfType<IntegerAttr>("tcc.num_inputs");
  for (BlockArgument arg : main.getArguments())
    if (main.getArgAttr(arg.getArgNumber(), "tcc.name")) {
      int id = bufferOf(arg);
      graph.buffers[id].input =
          numInputs && arg.getArgNumber() < numInputs.getInt();
      graph.buffers[id].output = !graph.buffers[id].input;
    }
  llvm::DenseMap<Operation *, Effects> effects;
  main.walk([&](func::CallOp call) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!callee || !callee->hasAttr(tcc::attr::kKernel))
      return;
    auto it = effects.find(callee);
    if (it == effects.end())
      it = effects.try_emplace(callee, argumentEffects(callee)).first;
    const Effects &e = it->second;
    Kernel k;
    k.name = callee.getName().str();
    llvm::SetVector<std::string, std::vector<std::string>, std::set<std::string>> names;
    auto collect = [&](Location loc) {
      loc->walk([&](Location l) {
        if (auto name = dyn_cast<NameLoc>(l))
          if (nodes.count(name.getName().str()))
            names.insert(name.getName().str());
        return WalkResult::advance();
      });
    };
    collect(call.getLoc());
    // Views and constants compute nothing; CSE may have left them located
    // at another node's op.
    callee.walk([&](Operation *op) {
      if (!isa<ViewLikeOpInterface>(op) &&
          !op->hasTrait<OpTrait::ConstantLike>())
        collect(op->getLoc());
    });
    k.nodes.assign(names.begin(), names.end());
    callee.walk([&](linalg::LinalgOp op) {
      if (!op.getNumReductionLoops())
        return;
      int64_t n = 1;
      for (int64_t range : op.getStaticLoopRanges())
        if (!ShapedType::isDynamic(range) && __builtin_mul_overflow(n, range, &n))
          n = INT64_MAX;
      k.reductionWork = std::max(k.reductionWork, n);
    });
    for (auto [i, operand] : llvm::enumerate(call.getOperands())) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      Value base = baseOf(operand);
      if (auto get = base.getDefiningOp<memref::GetGlobalOp>())
        continue; // weights
      int id = bufferOf(base);
      if (e.reads.test(i))
        k.reads.push_back(id);
      if (e.partial.test(i))
        k.partialWrites.push_back(id);
      else if (e.writes.test(i))
        k.writes.push_back(id);
      if (e.writes.test(i)) {
        if (k.shape.empty())
          k.shape = typeText(operand.getType());
      }
    }
    graph.kernels.push_back(std::move(k));
  });
  return graph;
}

std::vector<int64_t>
tcc::driver::kernelFlops(ArrayRef<Kernel> kernels,
                         const std::map<std::string, int64_t> &flops,
                         ArrayRef<int64_t> tieBreak) {
  std::vector<int64_t> result(kernels.size(), 0);
  auto rank = [&](size_t i) {
    return std::make_pair(kernels[i].reductionWork,
                          tieBreak.empty() ? 0 : tieBreak[i]);
  };
  for (const auto &[node, count] : flops) {
    int best = -1;
    for (size_t i = 0; i < kernels.size(); ++i)
      if (llvm::is_contained(kernels[i].nodes, node) &&
          (best < 0 || rank(i) > rank(best)))
        best = i;
    if (best >= 0)
      result[best] += count;
  }
  return result;
}

std::string
tcc::driver::nodesSummary(const Kernel &kernel,
                          const std::map<std::string, int64_t> *flops) {
  if (kernel.nodes.empty())
    return "-";
  std::string what = kernel.nodes[0];
  if (flops)
    for (const std::string &node : kernel.nodes)
      if (flops->count(node)) {
        what = node;
        break;
      }
  if (kernel.nodes.size() > 1)
    what += " +" + std::to_string(kernel.nodes.size() - 1);
  return what;
}

void tcc::driver::writeDot(const KernelGraph &graph, StringRef modelName,
                           llvm::raw_ostream &os) {
  os << "// The fused graph of '" << dotEscape(modelName)
     << "' (tcc compile --graph): kernels in run order.\n";
  os << "digraph \"" << dotEscape(modelName) << "\" {\n"
     << "  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
     << "  edge [fontname=\"monospace\", fontsize=9];\n";
  for (auto [i, b] : llvm::enumerate(graph.buffers))
    if (b.input || b.output)
      os << "  b" << i << " [shape=ellipse, label=\""
         << (b.input ? "input " : "output ") << dotEscape(b.name) << "\\n"
         << dotEscape(b.type) << "\"];\n";
  // The kernels whose writes a buffer holds: the last that wrote all of
  // it, and those that wrote parts of it since.
  std::vector<std::vector<int>> writers(graph.buffers.size());
  for (auto [k, kernel] : llvm::enumerate(graph.kernels)) {
    os << "  k" << k << " [label=\"" << dotEscape(kernel.name);
    if (!kernel.shape.empty())
      os << "\\n" << dotEscape(kernel.shape);
    const size_t shown = 8;
    for (size_t n = 0; n < kernel.nodes.size() && n < shown; ++n)
      os << "\\n" << dotEscape(kernel.nodes[n]);
    if (kernel.nodes.size() > shown)
      os << "\\n(" << kernel.nodes.size() - shown << " more nodes)";
    os << "\"];\n";
    llvm::SmallSet<std::pair<int, int>, 8> seen;
    for (int id : kernel.reads) {
      const Buffer &b = graph.buffers[id];
      std::vector<int> from = writers[id];
      if (from.empty() && b.input)
        from.push_back(-1);
      for (int w : from)
        if (seen.insert({w, id}).second)
          os << "  " << (w < 0 ? "b" + std::to_string(id)
                               : "k" + std::to_string(w))
             << " -> k" << k << " [label=\"" << dotEscape(b.type) << "\"];\n";
    }
    for (int id : kernel.writes)
      writers[id] = {(int)k};
    for (int id : kernel.partialWrites)
      writers[id].push_back(k);
  }
  for (auto [i, b] : llvm::enumerate(graph.buffers))
    if (b.output)
      for (int w : writers[i])
        os << "  k" << w << " -> b" << i << " [label=\"" << dotEscape(b.type)
           << "\"];\n";
  os << "}\n";
}
