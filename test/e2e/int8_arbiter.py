"""Checks utils/model_suite.py's int8 arbiter on a QDQ model (a convolution and a residual add,
as onnxruntime's quantize_static writes them) whose unoptimized onnxruntime run (each op in float)
and optimized run (fused into its QLinearConv and QLinearAdd kernels) round differently.

  differ:  the two onnxruntime runs differ (else the check below proves nothing);
  kernels: a result equal to the optimized run's passes against the unoptimized reference;
  worse:   the optimized run's result with one element moved further than the reference is from
           it does not."""
import argparse
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T, helper as h, numpy_helper as nh

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "utils"))
import model_suite  # noqa: E402

rng = np.random.default_rng(3)
c = lambda name, v: nh.from_array(np.asarray(v), name)  # noqa: E731
nodes = [
    h.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
    h.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
    h.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"], axis=0),
    h.make_node("DequantizeLinear", ["b", "bs"], ["bd"], axis=0),
    h.make_node("Conv", ["xd", "wd", "bd"], ["cv"], pads=[1, 1, 1, 1]),
    h.make_node("QuantizeLinear", ["cv", "cs", "cz"], ["cq"]),
    h.make_node("DequantizeLinear", ["cq", "cs", "cz"], ["cd"]),
    h.make_node("Add", ["cd", "xd"], ["s"]),
    h.make_node("QuantizeLinear", ["s", "ss", "sz"], ["sq"]),
    h.make_node("DequantizeLinear", ["sq", "ss", "sz"], ["y"]),
]
ws = (rng.random(16) * 0.01 + 0.002).astype(np.float32)
xs = np.float32(0.03)
inits = [c("xs", xs), c("xz", np.uint8(128)), c("w", rng.integers(-127, 128, (16, 16, 3, 3)).astype(np.int8)),
         c("ws", ws), c("wz", np.zeros(16, np.int8)),
         c("b", rng.integers(-500, 500, 16).astype(np.int32)), c("bs", (xs * ws).astype(np.float32)),
         c("cs", np.float32(0.05)), c("cz", np.uint8(120)), c("ss", np.float32(0.06)), c("sz", np.uint8(125))]
graph = h.make_graph(nodes, "qdq_block", [h.make_tensor_value_info("x", T.FLOAT, [1, 16, 16, 16])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1, 16, 16, 16])], inits)
path = os.path.join(tempfile.mkdtemp(), "qdq_block.onnx")
onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)]), path)

feeds = {"x": (rng.standard_normal((1, 16, 16, 16)) * 1.5).astype(np.float32)}
refs = {"y": model_suite.e2e_check.reference(path, feeds)["y"]}
kernels = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, feeds)[0]
args = argparse.Namespace(rtol=1e-3, atol=1e-4)

print("differ:", bool((refs["y"] != kernels).any()))
print("kernels:", model_suite.int8_arbiter(args, path, feeds, refs, {"y": kernels})["closer"])
worse = kernels.copy()
worse.flat[7] += np.abs(refs["y"] - kernels).max() + np.float32(0.06)
verdict = model_suite.int8_arbiter(args, path, feeds, refs, {"y": worse})
print("worse:", verdict["closer"], "|", verdict["detail"])
