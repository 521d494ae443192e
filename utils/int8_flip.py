"""int8_flip.py - a QDQ model's int8 activations as uint8: each QuantizeLinear to int8 whose
result only DequantizeLinear nodes read, and those, get their zero point + 128 (a new uint8
initializer). Exactly the same values (q_u8 = q_s8 + 128, saturated alike), which onnxruntime's
optimizer then fuses into its uint8 kernels (QLinearConv, QLinearAdd, ...) throughout, where with
int8 activations (quantize_static's default) it fuses some groups and leaves others in float: the
reference for tcc's int8 kernels, which flip int8 activations the same way (utils/int8_check.py
and utils/model_suite.py's int8 arbiter use it). Weights (constant inputs) stay int8.

    .venv/bin/python utils/int8_flip.py IN.onnx OUT.onnx"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper


def has_int8_activations(model):
    """Whether some QuantizeLinear of `model` writes int8 (an activation)."""
    inits = {i.name: i for i in model.graph.initializer}
    return any(n.op_type == "QuantizeLinear" and len(n.input) > 2 and n.input[2] in inits and
               inits[n.input[2]].data_type == TensorProto.INT8 for n in model.graph.node)


def uint8_activations(model):
    """`model` (changed in place and returned) with its int8 activations flipped to uint8."""
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    readers = {}
    for n in g.node:
        for name in n.input:
            readers.setdefault(name, []).append(n)
    outputs = {o.name for o in g.output}
    shifted = {}

    def plus128(name):
        if name not in shifted:
            z = numpy_helper.to_array(inits[name]).astype(np.int16) + 128
            shifted[name] = name + "_as_uint8"
            g.initializer.append(numpy_helper.from_array(z.astype(np.uint8), shifted[name]))
        return shifted[name]

    def int8_zero(n):
        return (len(n.input) > 2 and n.input[2] in inits and
                inits[n.input[2]].data_type == TensorProto.INT8)

    flipped = set()
    for n in g.node:
        users = readers.get(n.output[0], [])
        if (n.op_type == "QuantizeLinear" and int8_zero(n) and n.output[0] not in outputs and
                users and all(u.op_type == "DequantizeLinear" and int8_zero(u) for u in users)):
            n.input[2] = plus128(n.input[2])
            flipped.add(n.output[0])
    for n in g.node:
        if n.op_type == "DequantizeLinear" and n.input[0] in flipped:
            n.input[2] = plus128(n.input[2])
    used = {name for n in g.node for name in n.input}
    for init in [i for i in g.initializer if i.name in shifted and i.name not in used]:
        g.initializer.remove(init)
    # Shapes and types are inferred again.
    for vi in list(g.value_info):
        if vi.name in flipped:
            g.value_info.remove(vi)
    return model


if __name__ == "__main__":
    onnx.save(uint8_activations(onnx.load(sys.argv[1])), sys.argv[2])
