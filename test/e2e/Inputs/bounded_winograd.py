"""bounded_winograd.py OUT.onnx [--rows] - 3x3 convolutions that tcc runs as Winograd
F(2x2, 3x3) on an image whose width varies (tcc compile --max-dim seq=N): one
at the full width (16 -> 128 channels, 16 rows), then a 1x1 back to 16 and a
2x2 max pool, and one at half the width (8 rows); the output holds the
columns first ([1, seq / 2, 128, 8]). Weights are seeded random numbers; the
model is made here rather than committed (150 KB). --rows: the height varies
instead ([1, 16, seq, 16] in, [1, seq / 2, 128, 8] out), which the
column-major tiles cannot keep outermost: tcc compiles it without Winograd."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)
rows = "--rows" in sys.argv[2:]


def weight(name, shape):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) * 0.1).astype(np.float32), name)


inits = [weight("w0", (128, 16, 3, 3)), weight("b0", (128,)),
         weight("w1", (16, 128, 1, 1)), weight("w2", (128, 16, 3, 3))]
nodes = [
    helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], name="wide", pads=[1] * 4),
    helper.make_node("Relu", ["c0"], ["r0"], name="relu0"),
    helper.make_node("Conv", ["r0", "w1"], ["c1"], name="narrow"),
    helper.make_node("MaxPool", ["c1"], ["p1"], name="pool", kernel_shape=[2, 2],
                     strides=[2, 2]),
    helper.make_node("Conv", ["p1", "w2"], ["c2"], name="half", pads=[1] * 4),
    helper.make_node("Transpose", ["c2"], ["y"], name="columns",
                     perm=[0, 2, 1, 3] if rows else [0, 3, 1, 2]),
]
graph = helper.make_graph(
    nodes, "bounded_winograd",
    [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, 16, "seq", 16] if rows else [1, 16, 16, "seq"])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "cols", 128, 8])],
    inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
