"""twin_convs.py OUT.onnx [--hostile] - two convolutions of the same shape without bias,
one after the other: their zero inits are equal ops, which CSE makes one.
Each kernel must still name its own Conv only. --hostile names the first
one with a terminal escape and a newline that would fake a line."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
w1, w2 = (numpy_helper.from_array(
    rng.standard_normal((16, 16, 3, 3)).astype(np.float32), name)
    for name in ("w1", "w2"))
first = ("conv_a\x1b[2J\nkernel plan: fake" if "--hostile" in sys.argv
         else "conv_a")
nodes = [
    helper.make_node("Conv", ["x", "w1"], ["a"], name=first, pads=[1] * 4),
    helper.make_node("Relu", ["a"], ["r"], name="relu_a"),
    helper.make_node("Conv", ["r", "w2"], ["y"], name="conv_b", pads=[1] * 4),
]
graph = helper.make_graph(
    nodes, "twin_convs",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 12, 12])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 12, 12])],
    [w1, w2])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
