//===- Graph.h - tcc compile --graph ----------------------------*- C++ -*-===//
//
// Private to tools/tcc: the fused graph of a compiled model (Graph.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TOOLS_TCC_GRAPH_H
#define TCC_TOOLS_TCC_GRAPH_H

#include "tcc/Import.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace tcc::driver {

struct KernelGraph {
  /// A buffer kernels read or write: a model input or output, or an
  /// intermediate in the workspace.
  struct Buffer {
    std::string name, type; // name: the model's, for inputs and outputs
    bool input = false, output = false, modelArgument = false;
  };
  struct Kernel {
    std::string name, shape; // shape: of the first buffer it writes
    std::vector<std::string> nodes; // the ONNX nodes it computes
    std::vector<int> reads, writes; // buffers
    std::vector<int> partialWrites; // buffers it writes parts of
    /// Iterations of its linalg ops with reduction loops (static ranges):
    /// which of the kernels computing a node does its contraction.
    int64_t reductionWork = 0;
  };
  std::vector<Buffer> buffers;
  std::vector<Kernel> kernels; // in run order, one per call
};

/// The kernels @main of `module` calls (after tcc-dedup-kernels), the ONNX
/// nodes of `nodes` in each, and the buffers between them.
KernelGraph buildKernelGraph(mlir::ModuleOp module,
                             const std::map<std::string, NodeInfo> &nodes);

/// The FLOPs of each kernel call of `kernels`: each node's FLOPs of `flops`
/// go to the call among those computing it with the most reduction work
/// (its contraction, not its padding or transposes); on a tie, to the one
/// with the larger `tieBreak` when given (a profile's times), else the
/// first.
std::vector<int64_t> kernelFlops(llvm::ArrayRef<KernelGraph::Kernel> kernels,
                                 const std::map<std::string, int64_t> &flops,
                                 llvm::ArrayRef<int64_t> tieBreak = {});

/// The ONNX nodes of `kernel` in a few words: the node that carries the
/// FLOPs first (the Conv, not its Relu), "+N" for the others; "-" for none.
std::string nodesSummary(const KernelGraph::Kernel &kernel,
                         const std::map<std::string, int64_t> *flops);

/// `graph` in Graphviz's DOT language.
void writeDot(const KernelGraph &graph, llvm::StringRef modelName,
              llvm::raw_ostream &os);

} // namespace tcc::driver

#endif // TCC_TOOLS_TCC_GRAPH_H
