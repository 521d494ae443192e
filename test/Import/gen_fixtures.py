#!/usr/bin/env python3
"""gen_fixtures.py - writes the small ONNX importer fixtures (valid and bad models, .npy inputs).

Valid fixtures pass onnx.checker and run in onnxruntime (unless --no-check). The error fixtures
(BAD) are models tcc must reject; many of them the checker would refuse too, so they are written
as raw protobuf bytes and never checked. The conv_input* files exercise the driver's input checks.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
F32 = TensorProto.FLOAT
IR_VERSION = 8  # opset 17's IR version; readable by ONNX >= 1.12 (Debian 12's libonnx-dev)


def rng(seed):
    return np.random.default_rng(seed)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def vi(name, shape, dtype=F32):
    return helper.make_tensor_value_info(name, dtype, shape)


def model(name, nodes, inputs, outputs, inits=(), opset=17, extra_opsets=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    m = helper.make_model(graph, opset_imports=opsets, producer_name="tcc-gen_fixtures")
    m.ir_version = IR_VERSION
    return m


def conv():
    r = rng(1)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv0", kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1], strides=[2, 2]),
             helper.make_node("Relu", ["c"], ["y"], name="relu0")]
    inits = [init("w", r.standard_normal((4, 3, 3, 3), dtype=np.float32)),
             init("b", r.standard_normal(4, dtype=np.float32))]
    return model("conv", nodes, [vi("x", [1, 3, 8, 8])], [vi("y", [1, 4, 4, 4])], inits)


def conv_padding_taps():
    """Convs with kernel taps that read only padding (tcc drops them):
    an ASPP-like rate larger than the map, a strided one, and one whose
    first two kernel rows read only the padding at the start."""
    r = rng(7)
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["y1"], name="aspp", kernel_shape=[3, 3],
                              pads=[6, 6, 6, 6], dilations=[6, 6]),
             helper.make_node("Conv", ["x", "w2"], ["y2"], name="strided", kernel_shape=[3, 3],
                              pads=[5, 2, 5, 2], dilations=[5, 2], strides=[2, 2]),
             helper.make_node("Conv", ["x", "w3", "b3"], ["y3"], name="leading", kernel_shape=[7, 2],
                              pads=[2, 0, 0, 1])]
    inits = [init("w1", r.standard_normal((4, 3, 3, 3), dtype=np.float32)),
             init("b1", r.standard_normal(4, dtype=np.float32)),
             init("w2", r.standard_normal((2, 3, 3, 3), dtype=np.float32)),
             init("w3", r.standard_normal((5, 3, 7, 2), dtype=np.float32)),
             init("b3", r.standard_normal(5, dtype=np.float32))]
    return model("conv_padding_taps", nodes, [vi("x", [1, 3, 5, 5])],
                 [vi("y1", [1, 4, 5, 5]), vi("y2", [1, 2, 3, 3]), vi("y3", [1, 5, 1, 5])], inits)


def conv_tapwise():
    """Convs whose taps all reach the input but mostly read padding (tcc
    computes each tap as a 1x1 conv over the output rectangle it reaches):
    ASPP-like (3x3 dilated by 5 on 6x7), strided (dilation 4, stride 2),
    and a 3x2 kernel with uneven pads and dilations, without bias, feeding
    a ReLU."""
    r = rng(9)
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["y1"], name="aspp", kernel_shape=[3, 3],
                              pads=[5, 5, 5, 5], dilations=[5, 5]),
             helper.make_node("Conv", ["x2", "w2", "b2"], ["y2"], name="strided", kernel_shape=[3, 3],
                              pads=[4, 4, 4, 4], dilations=[4, 4], strides=[2, 2]),
             helper.make_node("Conv", ["x", "w3"], ["c3"], name="uneven", kernel_shape=[3, 2],
                              pads=[6, 5, 5, 0], dilations=[5, 5]),
             helper.make_node("Relu", ["c3"], ["y3"], name="relu")]
    inits = [init("w1", r.standard_normal((20, 8, 3, 3), dtype=np.float32)),
             init("b1", r.standard_normal(20, dtype=np.float32)),
             init("w2", r.standard_normal((16, 8, 3, 3), dtype=np.float32)),
             init("b2", r.standard_normal(16, dtype=np.float32)),
             init("w3", r.standard_normal((3, 8, 3, 2), dtype=np.float32))]
    return model("conv_tapwise", nodes, [vi("x", [1, 8, 6, 7]), vi("x2", [1, 8, 7, 7])],
                 [vi("y1", [1, 20, 6, 7]), vi("y2", [1, 16, 4, 4]), vi("y3", [1, 3, 7, 7])], inits)


def conv_grouped():
    """2-d grouped Convs that are not depthwise (channels-last: the channels
    split into [groups, C/groups]): 4 groups of 4 -> 6 channels, strided and
    padded, into a 1x1 conv; and 2 groups, dilated by 2."""
    r = rng(31)
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="grouped", kernel_shape=[3, 3],
                              group=4, pads=[1, 1, 1, 1], strides=[2, 2]),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu"),
             helper.make_node("Conv", ["r1", "w2"], ["y1"], name="pointwise", kernel_shape=[1, 1]),
             helper.make_node("Conv", ["x", "w3"], ["y2"], name="dilated", kernel_shape=[3, 3],
                              group=2, pads=[2, 2, 2, 2], dilations=[2, 2])]
    inits = [init("w1", r.standard_normal((24, 4, 3, 3), dtype=np.float32) * 0.3),
             init("b1", r.standard_normal(24, dtype=np.float32)),
             init("w2", r.standard_normal((8, 24, 1, 1), dtype=np.float32) * 0.2),
             init("w3", r.standard_normal((10, 8, 3, 3), dtype=np.float32) * 0.2)]
    return model("conv_grouped", nodes, [vi("x", [1, 16, 9, 9])],
                 [vi("y1", [1, 8, 5, 5]), vi("y2", [1, 10, 9, 9])], inits)

def conv_channels_vector():
    """Convs whose output channels run along the vector (few map positions,
    long reductions): tiles transposed in registers to be stored, with a
    partial last vector of channels (20 = 16 + 4) and a residual added in
    the epilogue; and a 1x1 conv on a 5x5 map (25 positions: 3 runs of 8
    and a remainder)."""
    r = rng(8)
    nodes = [helper.make_node("Conv", ["x1", "w1", "b1"], ["c1"], name="conv3x3", kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c1", "res"], ["s1"], name="residual"),
             helper.make_node("Relu", ["s1"], ["y1"], name="relu"),
             helper.make_node("Conv", ["x2", "w2", "b2"], ["y2"], name="conv1x1", kernel_shape=[1, 1])]
    inits = [init("w1", r.standard_normal((20, 16, 3, 3), dtype=np.float32) * 0.1),
             init("b1", r.standard_normal(20, dtype=np.float32)),
             init("w2", r.standard_normal((32, 48, 1, 1), dtype=np.float32) * 0.1),
             init("b2", r.standard_normal(32, dtype=np.float32))]
    return model("conv_channels_vector", nodes,
                 [vi("x1", [1, 16, 5, 5]), vi("res", [1, 20, 5, 5]), vi("x2", [1, 48, 5, 5])],
                 [vi("y1", [1, 20, 5, 5]), vi("y2", [1, 32, 5, 5])], inits)


def conv_winograd():
    """3x3 stride-1 convs that tcc runs as Winograd F(2x2, 3x3) (128 filters,
    each over 2^22 multiply-adds): a batch of 2 on a 16x16 map with a bias, a
    residual add and a ReLU after it; the same weights unpadded on a 25x23
    map (a 23x21 output: odd, so the last row and column of 2x2 tiles are
    cut); and without a bias on a 23x20 map. (Its 74 KB of weights are the
    least that qualify with 512-bit vectors.)"""
    r = rng(12)
    nodes = [helper.make_node("Conv", ["x1", "w", "b"], ["c1"], name="same", kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c1", "res"], ["s1"], name="residual"),
             helper.make_node("Relu", ["s1"], ["y1"], name="relu"),
             helper.make_node("Conv", ["x2", "w", "b"], ["y2"], name="valid_odd", kernel_shape=[3, 3]),
             helper.make_node("Conv", ["x3", "w"], ["y3"], name="no_bias", kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1])]
    inits = [init("w", r.standard_normal((128, 16, 3, 3), dtype=np.float32) * 0.1),
             init("b", r.standard_normal(128, dtype=np.float32))]
    return model("conv_winograd", nodes,
                 [vi("x1", [2, 16, 16, 16]), vi("res", [2, 128, 16, 16]), vi("x2", [1, 16, 25, 23]),
                  vi("x3", [1, 16, 23, 20])],
                 [vi("y1", [2, 128, 16, 16]), vi("y2", [1, 128, 23, 21]), vi("y3", [1, 128, 23, 20])],
                 inits)


def gemm():
    r = rng(2)
    nodes = [helper.make_node("Gemm", ["a", "w", "bias"], ["y"], name="gemm0", transB=1,
                              alpha=0.5, beta=2.0)]
    inits = [init("w", r.standard_normal((6, 8), dtype=np.float32)),
             init("bias", r.standard_normal(6, dtype=np.float32))]
    return model("gemm", nodes, [vi("a", [2, 8])], [vi("y", [2, 6])], inits)


def odd_shapes():
    """Contractions at shapes no register tile divides (rows, columns and K odd or prime): the
    micro-kernels' edges on every target (test/e2e/cross.test runs it on aarch64 and riscv64)."""
    r = rng(41)
    nodes = [helper.make_node("MatMul", ["a", "w1"], ["y1"], name="matmul_const"),
             helper.make_node("Gemm", ["a2", "w2", "b2"], ["y2"], name="gemm_transb", transB=1),
             helper.make_node("Conv", ["x", "w3", "b3"], ["y3"], name="conv_odd", pads=[1, 1, 1, 1]),
             helper.make_node("MatMul", ["p", "q"], ["y4"], name="matmul_batched")]
    inits = [init("w1", r.standard_normal((29, 45), dtype=np.float32)),
             init("w2", r.standard_normal((13, 67), dtype=np.float32)),
             init("b2", r.standard_normal(13, dtype=np.float32)),
             init("w3", r.standard_normal((19, 7, 3, 3), dtype=np.float32)),
             init("b3", r.standard_normal(19, dtype=np.float32))]
    return model("odd_shapes", nodes,
                 [vi("a", [37, 29]), vi("a2", [5, 67]), vi("x", [1, 7, 11, 13]),
                  vi("p", [2, 9, 17]), vi("q", [2, 17, 23])],
                 [vi("y1", [37, 45]), vi("y2", [5, 13]), vi("y3", [1, 19, 11, 13]),
                  vi("y4", [2, 9, 23])], inits)


def add_broadcast():
    r = rng(3)
    nodes = [helper.make_node("Add", ["x", "bias"], ["t"], name="add0"),
             helper.make_node("Mul", ["t", "s"], ["y"], name="mul0")]
    inits = [init("bias", r.standard_normal(4, dtype=np.float32))]
    return model("add_broadcast", nodes, [vi("x", [2, 3, 4]), vi("s", [3, 1])],
                 [vi("y", [2, 3, 4])], inits)


def matmul_batched():
    r = rng(4)
    nodes = [helper.make_node("MatMul", ["a", "b"], ["y"], name="matmul0")]
    inits = [init("b", r.standard_normal((4, 5), dtype=np.float32))]
    return model("matmul_batched", nodes, [vi("a", [2, 3, 4])], [vi("y", [2, 3, 5])], inits)


def pool():
    nodes = [helper.make_node("MaxPool", ["x"], ["max"], name="maxpool0", kernel_shape=[3, 3],
                              strides=[2, 2], pads=[1, 1, 1, 1]),
             helper.make_node("AveragePool", ["x"], ["avg"], name="avgpool0", kernel_shape=[2, 2],
                              strides=[2, 2]),
             helper.make_node("GlobalAveragePool", ["x"], ["gap"], name="gap0")]
    return model("pool", nodes, [vi("x", [1, 2, 8, 8])],
                 [vi("max", [1, 2, 4, 4]), vi("avg", [1, 2, 4, 4]), vi("gap", [1, 2, 1, 1])])


def bn():
    r = rng(5)
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv0", kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c", "scale", "shift", "mean", "var"], ["y"],
                              name="bn0", epsilon=1e-3)]
    inits = [init("w", r.standard_normal((4, 3, 3, 3), dtype=np.float32)),
             init("scale", r.uniform(0.5, 1.5, 4).astype(np.float32)),
             init("shift", r.standard_normal(4, dtype=np.float32)),
             init("mean", r.standard_normal(4, dtype=np.float32)),
             init("var", r.uniform(0.5, 2.0, 4).astype(np.float32))]
    return model("bn", nodes, [vi("x", [1, 3, 6, 6])], [vi("y", [1, 4, 6, 6])], inits)


def reshape_transpose_concat():
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape0"),   # [2,6,2]
             helper.make_node("Transpose", ["r"], ["t"], name="transpose0", perm=[0, 2, 1]),  # [2,2,6]
             helper.make_node("Concat", ["t", "z"], ["c"], name="concat0", axis=1),  # [2,5,6]
             helper.make_node("Flatten", ["c"], ["y"], name="flatten0", axis=1)]     # [2,30]
    inits = [init("shape", np.array([0, -1, 2], dtype=np.int64))]
    return model("reshape_transpose_concat", nodes, [vi("x", [2, 3, 4]), vi("z", [2, 3, 6])],
                 [vi("y", [2, 30])], inits)


def softmax():
    nodes = [helper.make_node("Softmax", ["x"], ["y"], name="softmax0"),  # default axis -1
             helper.make_node("Softmax", ["x"], ["y1"], name="softmax1", axis=1)]
    return model("softmax", nodes, [vi("x", [2, 3, 5])], [vi("y", [2, 3, 5]), vi("y1", [2, 3, 5])])


def identity_dropout_clip():
    nodes = [helper.make_node("Identity", ["x"], ["a"], name="identity0"),
             helper.make_node("Dropout", ["a"], ["b"], name="dropout0"),  # inference: identity
             helper.make_node("Constant", [], ["lo"], name="const_lo",
                              value=numpy_helper.from_array(np.array(-0.5, np.float32))),
             helper.make_node("Clip", ["b", "lo", "hi"], ["c"], name="clip0"),
             helper.make_node("Sigmoid", ["c"], ["d"], name="sigmoid0"),
             helper.make_node("Sub", ["d", "x"], ["e"], name="sub0"),
             helper.make_node("Constant", [], ["div"], name="const_div",
                              value=numpy_helper.from_array(np.array([1, 2, 4, 8], np.float32))),
             helper.make_node("Div", ["e", "div"], ["y"], name="div0")]
    inits = [init("hi", np.array(0.5, np.float32))]
    return model("identity_dropout_clip", nodes, [vi("x", [2, 4])], [vi("y", [2, 4])], inits)


def unsupported():
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu0"),
             helper.make_node("Cast", ["r"], ["c"], name="cast0", to=TensorProto.INT64),
             helper.make_node("TfIdfVectorizer", ["c"], ["n"], name="tfidf0", mode="TF",
                              min_gram_length=1, max_gram_length=1, max_skip_count=0,
                              ngram_counts=[0], ngram_indexes=[0], pool_int64s=[1]),
             helper.make_node("Foo", ["n"], ["y"], name="custom0", domain="com.example")]
    return model("unsupported", nodes, [vi("x", [1, 4])], [vi("y", [1, 1])],
                 extra_opsets=[("com.example", 1)])


def conv_nd():
    """1-d grouped, dilated Conv and a 3-d Conv with asymmetric pads."""
    r = rng(30)
    nodes = [helper.make_node("Conv", ["x1", "w1", "b1"], ["y1"], name="conv1d", group=2,
                              dilations=[2], pads=[1, 2], strides=[2]),
             helper.make_node("Conv", ["x3", "w3"], ["y3"], name="conv3d",
                              pads=[0, 1, 1, 1, 0, 1])]
    inits = [init("w1", r.standard_normal((4, 2, 3), dtype=np.float32)),
             init("b1", r.standard_normal(4, dtype=np.float32)),
             init("w3", r.standard_normal((2, 3, 2, 2, 2), dtype=np.float32))]
    return model("conv_nd", nodes, [vi("x1", [1, 4, 11]), vi("x3", [1, 3, 4, 5, 4])],
                 [vi("y1", [1, 4, 5]), vi("y3", [1, 2, 4, 5, 5])], inits)


def pool_nd():
    """1-d and 3-d pooling, with ceil_mode, pads and count_include_pad."""
    nodes = [helper.make_node("MaxPool", ["x1"], ["max1"], name="maxpool1d", kernel_shape=[3],
                              strides=[2], ceil_mode=1),
             helper.make_node("AveragePool", ["x1"], ["avg1"], name="avgpool1d", kernel_shape=[3],
                              strides=[2], pads=[1, 1], count_include_pad=1),
             helper.make_node("AveragePool", ["x3"], ["avg3"], name="avgpool3d",
                              kernel_shape=[2, 2, 2], pads=[1, 0, 1, 1, 0, 1]),
             helper.make_node("MaxPool", ["x3"], ["max3"], name="maxpool3d",
                              kernel_shape=[2, 2, 2], strides=[2, 2, 2])]
    return model("pool_nd", nodes, [vi("x1", [1, 2, 10]), vi("x3", [1, 2, 4, 4, 4])],
                 [vi("max1", [1, 2, 5]), vi("avg1", [1, 2, 5]), vi("avg3", [1, 2, 5, 3, 5]),
                  vi("max3", [1, 2, 2, 2, 2])])


def reshape_shape_input():
    """Reshape whose target shape is a graph input (as in ONNX's node tests)."""
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape0")]
    return model("reshape_shape_input", nodes,
                 [vi("x", [2, 6]), vi("shape", [2], TensorProto.INT64)], [vi("y", [3, 4])])


VALID = [conv, conv_padding_taps, conv_tapwise, conv_channels_vector, conv_grouped, conv_winograd, conv_nd, pool_nd, gemm, odd_shapes, add_broadcast, matmul_batched, pool, bn, reshape_transpose_concat, softmax,
         identity_dropout_clip]


# ---- valid feature fixtures (checked like VALID) ----

def constant_forms():
    nodes = [helper.make_node("Constant", [], ["a"], name="const_float", value_float=2.0),
             helper.make_node("Constant", [], ["b"], name="const_floats",
                              value_floats=[0.5, -1.0, 3.0]),
             helper.make_node("Constant", [], ["shape"], name="const_ints", value_ints=[1, 3]),
             helper.make_node("Add", ["x", "a"], ["t"], name="add0"),
             helper.make_node("Add", ["t", "b"], ["u"], name="add1"),
             helper.make_node("Reshape", ["u", "shape"], ["y"], name="reshape0")]
    return model("constant_forms", nodes, [vi("x", [3])], [vi("y", [1, 3])])


def clip_v6():
    # Clip-6 form (min/max as attributes), valid up to opset 10.
    nodes = [helper.make_node("Clip", ["x"], ["y"], name="clip0", min=-0.5, max=0.5)]
    return model("clip_v6", nodes, [vi("x", [2, 3])], [vi("y", [2, 3])], opset=10)


def softmax_v11():
    # Rank 2, so Softmax-11's flatten-at-axis semantics equal Softmax-13's.
    nodes = [helper.make_node("Softmax", ["x"], ["y"], name="softmax0"),  # default axis 1 in v11
             helper.make_node("Softmax", ["x"], ["y1"], name="softmax1", axis=-1)]
    return model("softmax_v11", nodes, [vi("x", [2, 5])], [vi("y", [2, 5]), vi("y1", [2, 5])],
                 opset=11)


def dynamic_batch():
    # Valid ONNX (checked) with a symbolic batch dimension; r feeds two ops, so it lives in the
    # workspace (abi.test checks the workspace arguments).
    r = rng(20)
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu0"),
             helper.make_node("Softmax", ["r"], ["s"], name="softmax0", axis=-1),
             helper.make_node("Add", ["r", "s"], ["t"], name="add1"),
             helper.make_node("Add", ["t", "bias"], ["y"], name="add0")]
    inits = [init("bias", r.standard_normal(4, dtype=np.float32))]
    return model("dynamic_batch", nodes, [vi("x", ["batch", 3, 4])], [vi("y", ["batch", 3, 4])],
                 inits)


def reductions():
    # Axes as attributes (opset 13 Reduce*) and as an input (ReduceSum-13).
    nodes = [helper.make_node("ReduceMax", ["x"], ["max"], name="max0", axes=[1]),
             helper.make_node("ReduceMean", ["x"], ["mean"], name="mean0", axes=[-1], keepdims=0),
             helper.make_node("ReduceSum", ["x", "axes"], ["sum"], name="sum0"),
             helper.make_node("ReduceLogSumExp", ["x"], ["lse"], name="lse0", axes=[0, 2]),
             helper.make_node("ReduceL2", ["x"], ["l2"], name="l2_0", keepdims=0)]
    inits = [init("axes", np.array([0, 2], dtype=np.int64))]
    return model("reductions", nodes, [vi("x", [2, 3, 4])],
                 [vi("max", [2, 1, 4]), vi("mean", [2, 3]), vi("sum", [1, 3, 1]),
                  vi("lse", [1, 3, 1]), vi("l2", [])], inits, opset=13)


def softmax_like_v11():
    # Opset-11 LogSoftmax/Hardmax on rank 3 at axis 1: over the flattened [3,4].
    nodes = [helper.make_node("LogSoftmax", ["x"], ["y"], name="logsoftmax0"),
             helper.make_node("Hardmax", ["x"], ["y1"], name="hardmax0", axis=1)]
    return model("softmax_like_v11", nodes, [vi("x", [2, 3, 4])],
                 [vi("y", [2, 3, 4]), vi("y1", [2, 3, 4])], opset=11)


def norms():
    # LayerNormalization (Scale broadcast over [axis, rank)) and InstanceNormalization.
    r = rng(23)
    nodes = [helper.make_node("LayerNormalization", ["x", "ls", "lb"], ["l"], name="ln0", axis=2),
             helper.make_node("InstanceNormalization", ["x", "is", "ib"], ["i"], name="in0",
                              epsilon=1e-3)]
    inits = [init("ls", r.uniform(0.5, 1.5, (3, 3)).astype(np.float32)),
             init("lb", r.standard_normal(3, dtype=np.float32)),
             init("is", r.uniform(0.5, 1.5, 4).astype(np.float32)),
             init("ib", r.standard_normal(4, dtype=np.float32))]
    return model("norms", nodes, [vi("x", [2, 4, 3, 3])],
                 [vi("l", [2, 4, 3, 3]), vi("i", [2, 4, 3, 3])], inits)


def topk_cumsum():
    # TopK with a constant K (largest and smallest), CumSum with a constant axis, ArgMax.
    nodes = [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk0", axis=1),
             helper.make_node("TopK", ["x", "k"], ["v1", "i1"], name="topk1", largest=0),
             helper.make_node("CumSum", ["x", "axis"], ["c"], name="cumsum0", exclusive=1,
                              reverse=1),
             helper.make_node("ArgMax", ["x"], ["a"], name="argmax0", axis=2, keepdims=0)]
    inits = [init("k", np.array([2], dtype=np.int64)), init("axis", np.array(1, dtype=np.int32))]
    i64 = TensorProto.INT64
    return model("topk_cumsum", nodes, [vi("x", [2, 5, 4])],
                 [vi("v", [2, 2, 4]), vi("i", [2, 2, 4], i64), vi("v1", [2, 5, 2]),
                  vi("i1", [2, 5, 2], i64), vi("c", [2, 5, 4]), vi("a", [2, 5], i64)],
                 inits, opset=11)


def shape_subgraph():
    # The shape arithmetic PyTorch exporters emit for x.view(x.size(0), -1) and friends:
    # tcc folds it to constants at import, so every shape below is static.
    c = lambda name, v: helper.make_node("Constant", [], [name], name=name,
                                         value=numpy_helper.from_array(np.array(v, dtype=np.int64)))
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape0"),                 # [2,3,4]
             c("zero", 0), c("one", 1), c("two", 2), c("axes0", [0]),
             helper.make_node("Gather", ["s", "zero"], ["n"], name="gather0"),       # 2
             helper.make_node("Gather", ["s", "one"], ["h"], name="gather1"),        # 3
             helper.make_node("Shape", ["x"], ["w"], name="shape_last", start=-1),   # [4]
             helper.make_node("Squeeze", ["w", "axes0"], ["w0"], name="squeeze0"),   # 4
             helper.make_node("Mul", ["h", "w0"], ["hw"], name="mul0"),              # 12
             helper.make_node("Div", ["hw", "two"], ["half"], name="div0"),          # 6
             helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsqueeze0"),
             helper.make_node("Unsqueeze", ["half", "axes0"], ["half1"], name="unsqueeze1"),
             helper.make_node("Concat", ["n1", "half1", "minus1"], ["target"], name="concat0", axis=0),
             helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape0"),  # [2,6,2]
             helper.make_node("Slice", ["s", "start1", "big"], ["tail"], name="slice0"),  # [3,4]
             helper.make_node("ConstantOfShape", ["tail"], ["fill"], name="fill0",
                              value=numpy_helper.from_array(np.array([1.5], dtype=np.float32))),
             helper.make_node("Add", ["x", "fill"], ["z"], name="add0"),
             helper.make_node("Size", ["x"], ["size"], name="size0"),                # 24
             helper.make_node("Div", ["size", "n"], ["per"], name="div1"),           # 12
             helper.make_node("Unsqueeze", ["per", "axes0"], ["per1"], name="unsqueeze2"),
             helper.make_node("Concat", ["n1", "per1"], ["flat"], name="concat1", axis=0),
             helper.make_node("Reshape", ["z", "flat"], ["zf"], name="reshape1")]    # [2,12]
    inits = [init("minus1", np.array([-1], dtype=np.int64)),
             init("start1", np.array([1], dtype=np.int64)),
             init("big", np.array([1000], dtype=np.int64))]
    return model("shape_subgraph", nodes, [vi("x", [2, 3, 4])],
                 [vi("y", [2, 6, 2]), vi("zf", [2, 12])], inits)


def data_movement():
    nodes = [helper.make_node("Gather", ["x", "idx"], ["g"], name="gather0", axis=1),   # [4,2,2,6]
             helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["s"],
                              name="slice0"),                                         # [2,5,2]
             helper.make_node("Tile", ["s", "reps"], ["t"], name="tile0"),             # [2,10,2]
             helper.make_node("Expand", ["t", "eshape"], ["e"], name="expand0"),       # [3,2,10,2]
             helper.make_node("Unsqueeze", ["g", "uaxes"], ["u"], name="unsqueeze0"),  # [4,1,2,2,6]
             helper.make_node("Squeeze", ["u"], ["q"], name="squeeze0")]               # [4,2,2,6]
    inits = [init("idx", np.array([[0, -1], [2, 1]], dtype=np.int64)),
             init("starts", np.array([-1, 0], dtype=np.int64)),
             init("ends", np.array([-100, 6], dtype=np.int64)),
             init("axes", np.array([0, 2], dtype=np.int64)),
             init("steps", np.array([-2, 3], dtype=np.int64)),
             init("reps", np.array([1, 2, 1], dtype=np.int64)),
             init("eshape", np.array([3, 1, 1, 1], dtype=np.int64)),
             init("uaxes", np.array([-4], dtype=np.int64))]
    return model("data_movement", nodes, [vi("x", [4, 5, 6])],
                 [vi("e", [3, 2, 10, 2]), vi("q", [4, 2, 2, 6])], inits)


def slice_squeeze_v9():
    # Slice-1, Squeeze-1 and Unsqueeze-1 take their parameters as attributes.
    nodes = [helper.make_node("Slice", ["x"], ["s"], name="slice0", starts=[1, -3], ends=[2, 100],
                              axes=[0, 2]),                                          # [1,3,3]
             helper.make_node("Squeeze", ["s"], ["q"], name="squeeze0", axes=[0]),   # [3,3]
             helper.make_node("Unsqueeze", ["q"], ["y"], name="unsqueeze0", axes=[1, 3])]  # [3,1,3,1]
    return model("slice_squeeze_v9", nodes, [vi("x", [2, 3, 5])], [vi("y", [3, 1, 3, 1])], opset=9)


def split_pad_v10():
    # Split-2 (split attribute) and Pad-2 (pads and value attributes), both valid up to opset 10.
    nodes = [helper.make_node("Split", ["x"], ["a", "b"], name="split0", axis=1, split=[1, 4]),
             helper.make_node("Pad", ["a"], ["pa"], name="pad0", pads=[0, 1, 1, 0, 0, 2],
                              value=1.5),                                             # [2,2,8]
             helper.make_node("Pad", ["b"], ["pb"], name="pad1", mode="reflect",
                              pads=[0, 0, 2, 0, 0, 1]),                               # [2,4,8]
             helper.make_node("Pad", ["b"], ["pc"], name="pad2", mode="edge",
                              pads=[1, 0, 0, 0, 2, 3])]                               # [3,6,8]
    return model("split_pad_v10", nodes, [vi("x", [2, 5, 5])],
                 [vi("pa", [2, 2, 8]), vi("pb", [2, 4, 8]), vi("pc", [3, 6, 8])], opset=10)


def batch_mlp():
    # A symbolic batch that may vary at run time: the Reshape's target comes from Shape (as
    # PyTorch exports x.view(x.size(0), -1)); every op keeps the samples apart.
    r = rng(40)
    i64 = lambda name, v: init(name, np.array(v, dtype=np.int64))
    nodes = [helper.make_node("Shape", ["x"], ["shape"], name="shape0"),
             helper.make_node("Gather", ["shape", "zero"], ["n"], name="gather0", axis=0),
             helper.make_node("Unsqueeze", ["n", "zero_axes"], ["n1"], name="unsqueeze0"),
             helper.make_node("Concat", ["n1", "minus_one"], ["target"], name="concat0", axis=0),
             helper.make_node("Reshape", ["x", "target"], ["flat"], name="reshape0"),
             helper.make_node("MatMul", ["flat", "w"], ["mm"], name="matmul0"),
             helper.make_node("Add", ["mm", "b"], ["logits"], name="add0"),
             helper.make_node("Softmax", ["logits"], ["y"], name="softmax0", axis=-1),
             helper.make_node("ReduceMean", ["x"], ["z"], name="mean0", axes=[1, 2], keepdims=0)]
    inits = [i64("zero", 0), i64("zero_axes", [0]), i64("minus_one", [-1]),
             init("w", r.standard_normal((6, 5), dtype=np.float32)),
             init("b", r.standard_normal(5, dtype=np.float32))]
    return model("batch_mlp", nodes, [vi("x", ["batch", 2, 3])],
                 [vi("y", ["batch", 5]), vi("z", ["batch"])], inits)


def batch_rows():
    # The output's dim 0 holds 2 rows per sample (Flatten merges the batch with the next dim).
    nodes = [helper.make_node("Flatten", ["x"], ["flat"], name="flatten0", axis=2),
             helper.make_node("Relu", ["flat"], ["y"], name="relu0")]
    return model("batch_rows", nodes, [vi("x", ["batch", 2, 3])], [vi("y", ["rows", 3])])


def seq_first(name, restore):
    # nn.MultiheadAttention's layout: [batch, seq, d] -> [seq, batch, d] -> [seq * batch, d] rows
    # for a MatMul; `restore` brings the batch back to the front.
    r = rng(41)
    i64 = lambda n, v: init(n, np.array(v, dtype=np.int64))
    nodes = [helper.make_node("Transpose", ["x"], ["t"], name="transpose0", perm=[1, 0, 2]),
             helper.make_node("Reshape", ["t", "rows"], ["flat"], name="reshape0"),
             helper.make_node("MatMul", ["flat", "w"], ["mm"], name="matmul0")]
    inits = [i64("rows", [-1, 3]), init("w", r.standard_normal((3, 3), dtype=np.float32))]
    if restore:
        nodes += [helper.make_node("Reshape", ["mm", "back"], ["u"], name="reshape1"),
                  helper.make_node("Transpose", ["u"], ["y"], name="transpose1", perm=[1, 0, 2])]
        inits.append(i64("back", [2, -1, 3]))
        out = vi("y", ["batch", 2, 3])
    else:
        nodes[-1].output[0] = "y"
        out = vi("y", ["rows", 3])
    return model(name, nodes, [vi("x", ["batch", 2, 3])], [out], inits)


def batch_seq_first():
    return seq_first("batch_seq_first", restore=True)


def batch_rows_behind():
    # The same without the way back: the output's rows are [seq][batch].
    return seq_first("batch_rows_behind", restore=False)


def batch_reduce():
    # Valid ONNX whose samples are not independent: a mean over the batch.
    nodes = [helper.make_node("ReduceMean", ["x"], ["y"], name="mean0", axes=[0], keepdims=1)]
    return model("batch_reduce", nodes, [vi("x", ["batch", 4])], [vi("y", [1, 4])])


def batch_transposed():
    # The batch ends up in dim 1 of the output.
    nodes = [helper.make_node("Transpose", ["x"], ["y"], name="transpose0", perm=[1, 0])]
    return model("batch_transposed", nodes, [vi("x", ["batch", 3])], [vi("y", [3, "batch"])])


def batch_count():
    # Divides by the batch size: each sample's result depends on how many there are.
    nodes = [helper.make_node("Shape", ["x"], ["shape"], name="shape0"),
             helper.make_node("Gather", ["shape", "zero"], ["n"], name="gather0", axis=0),
             helper.make_node("Cast", ["n"], ["nf"], name="cast0", to=F32),
             helper.make_node("Div", ["x", "nf"], ["y"], name="div0")]
    inits = [init("zero", np.array(0, dtype=np.int64))]
    return model("batch_count", nodes, [vi("x", ["batch", 4])], [vi("y", ["batch", 4])], inits)


def batch_gram():
    # x^T x sums over the samples.
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], name="transpose0", perm=[1, 0]),
             helper.make_node("MatMul", ["xt", "x"], ["y"], name="gram0")]
    return model("batch_gram", nodes, [vi("x", ["batch", 4])], [vi("y", [4, 4])])


def batch_seq():
    # Two symbolic dims: only one (the batch) may vary at run time.
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu0")]
    return model("batch_seq", nodes, [vi("x", ["batch", "seq"])], [vi("y", ["batch", "seq"])])


def nonzero():
    # NonZero's count depends on the data: the output's dim 1 is known only after the run.
    nodes = [helper.make_node("Greater", ["x", "half"], ["mask"], name="greater0"),
             helper.make_node("NonZero", ["mask"], ["idx"], name="nonzero0"),
             helper.make_node("Relu", ["x"], ["r"], name="relu0")]
    inits = [init("half", np.array(0.5, np.float32))]
    return model("nonzero", nodes, [vi("x", [2, 3, 4])],
                 [vi("idx", [3, "count"], TensorProto.INT64), vi("r", [2, 3, 4])], inits)


def topk_runtime_k():
    # TopK whose K is known only at run time (an input; the count of positive scores capped at 6,
    # as detection heads compute it): the outputs' axis dim is known after the run, at most the
    # input's. A K past the axis is clamped (onnxruntime refuses it).
    i64 = TensorProto.INT64
    nodes = [helper.make_node("TopK", ["s", "k"], ["v", "i"], name="topk_input"),
             helper.make_node("Greater", ["s", "zero"], ["pos"], name="positive"),
             helper.make_node("Cast", ["pos"], ["posi"], name="cast0", to=i64),
             helper.make_node("ReduceSum", ["posi"], ["count"], name="count0", keepdims=0),
             helper.make_node("Min", ["count", "six"], ["k2"], name="cap"),
             helper.make_node("Unsqueeze", ["k2", "axes"], ["k2v"], name="unsq"),
             helper.make_node("TopK", ["s", "k2v"], ["v2", "i2"], name="topk_count", axis=1,
                              largest=0)]
    inits = [init("zero", np.array(0, np.float32)), init("six", np.array(6, np.int64)),
             init("axes", np.array([0], np.int64))]
    return model("topk_runtime_k", nodes, [vi("s", [2, 10]), vi("k", [1], i64)],
                 [vi("v", [2, "count"]), vi("i", [2, "count"], i64),
                  vi("v2", [2, "count"]), vi("i2", [2, "count"], i64)], inits)


def nonzero_transposed():
    # torch.nonzero: NonZero then Transpose, an op after the data-dependent dim.
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu0"),
             helper.make_node("NonZero", ["r"], ["nz"], name="nonzero0"),
             helper.make_node("Transpose", ["nz"], ["idx"], name="transpose0", perm=[1, 0])]
    return model("nonzero_transposed", nodes, [vi("x", [3, 4])],
                 [vi("idx", ["count", 2], TensorProto.INT64)])


def nonzero_reduced():
    # An op that computes with the count (a max over the non-zero positions).
    nodes = [helper.make_node("NonZero", ["x"], ["nz"], name="nonzero0"),
             helper.make_node("ReduceMax", ["nz"], ["y"], name="max0", axes=[1], keepdims=0)]
    return model("nonzero_reduced", nodes, [vi("x", [3, 4])], [vi("y", [2], TensorProto.INT64)])


def bounded_attention(name="bounded_attention", batch=1):
    # A sequence that varies at run time up to a bound (tcc compile --max-dim seq=MAX): position
    # embeddings gathered at Range(0, seq), two-head attention (an additive mask over the keys,
    # a second input that holds the sequence) with the head split and merge
    # reshaped from Shape (as PyTorch exports x.view(*x.size()[:-1], h, d)), a softmax over the
    # keys, a residual LayerNorm and a mean over the positions.
    r = rng(42)
    i64 = lambda n, v: init(n, np.array(v, dtype=np.int64))
    f32 = lambda n, *shape: init(n, r.standard_normal(shape, dtype=np.float32) * 0.5)
    node = helper.make_node
    nodes = [node("Shape", ["x"], ["shape"], name="shape0"),
             node("Gather", ["shape", "one"], ["seq"], name="seq0", axis=0),
             node("Range", ["zero", "seq", "one"], ["positions"], name="range0"),
             node("Gather", ["pe", "positions"], ["pos"], name="pos0", axis=0),
             node("Add", ["x", "pos"], ["h"], name="addpos0"),
             node("Slice", ["shape", "zero1", "two1"], ["lead"], name="lead0"),
             node("Concat", ["lead", "heads"], ["split"], name="split0", axis=0),
             node("Concat", ["lead", "width"], ["merge"], name="merge0", axis=0)]
    for w in "qkv":
        nodes += [node("MatMul", ["h", "w" + w], [w], name="proj_" + w),
                  node("Reshape", [w, "split"], [w + "4"], name="split_" + w),
                  node("Transpose", [w + "4"], [w + "h"], name="heads_" + w,
                       perm=[0, 2, 3, 1] if w == "k" else [0, 2, 1, 3])]
    nodes += [node("MatMul", ["qh", "kh"], ["scores"], name="scores0"),
              node("Mul", ["scores", "scale"], ["scaled"], name="scale0"),
              node("Unsqueeze", ["mask", "mask_axes"], ["mask4"], name="mask0"),
              node("Add", ["scaled", "mask4"], ["masked"], name="masked0"),
              node("Softmax", ["masked"], ["probs"], name="softmax0", axis=-1),
              node("MatMul", ["probs", "vh"], ["ctx4"], name="context0"),
              node("Transpose", ["ctx4"], ["ctxt"], name="unheads0", perm=[0, 2, 1, 3]),
              node("Reshape", ["ctxt", "merge"], ["ctx"], name="merge_ctx"),
              node("Add", ["ctx", "h"], ["res"], name="residual0"),
              node("LayerNormalization", ["res", "gamma", "beta"], ["y"], name="norm0", axis=-1),
              node("ReduceMean", ["y"], ["z"], name="mean0", axes=[1], keepdims=0)]
    inits = [i64("zero", 0), i64("one", 1), i64("zero1", [0]), i64("two1", [2]),
             i64("heads", [2, 4]), i64("width", [8]), f32("pe", 32, 8), f32("wq", 8, 8),
             f32("wk", 8, 8), f32("wv", 8, 8), init("scale", np.array(0.5, np.float32)),
             f32("gamma", 8), f32("beta", 8), i64("mask_axes", [1, 2])]
    return model(name, nodes, [vi("x", [batch, "seq", 8]), vi("mask", [batch, "seq"])],
                 [vi("y", [batch, "seq", 8]), vi("z", [batch, 8])], inits)


def batch_bounded_attention():
    # The same with a symbolic batch too: a run-time batch of samples whose sequence varies up
    # to a bound.
    return bounded_attention("batch_bounded_attention", "batch")


def bounded_count():
    # Divides by the sequence length: a constant in proportion to it, computed at run time.
    nodes = [helper.make_node("Shape", ["x"], ["shape"], name="shape0"),
             helper.make_node("Gather", ["shape", "one"], ["n"], name="gather0", axis=0),
             helper.make_node("Cast", ["n"], ["nf"], name="cast0", to=F32),
             helper.make_node("Div", ["x", "nf"], ["y"], name="div0")]
    inits = [init("one", np.array(1, dtype=np.int64))]
    return model("bounded_count", nodes, [vi("x", [1, "seq", 4])], [vi("y", [1, "seq", 4])], inits)


def bounded_strided():
    # A bounded width through strided layers (a text line image, [1, 1, 5, seq]): a 3x3
    # convolution of stride 2 (floor((seq + 1) / 2) columns), a 2x2 max pool (floor of half of
    # that), the columns as a sequence ([1, seq', 3], the width leading) and their mean (a divisor
    # computed from seq at run time). The input holds the width behind its 5 rows: it is copied
    # into the bound's layout on entry.
    r = rng(42)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv0", kernel_shape=[3, 3],
                              strides=[2, 2], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"], name="relu0"),
             helper.make_node("MaxPool", ["r"], ["p"], name="pool0", kernel_shape=[2, 2],
                              strides=[2, 2]),
             helper.make_node("Squeeze", ["p", "two"], ["sq"], name="squeeze0"),
             helper.make_node("Transpose", ["sq"], ["y"], name="transpose0", perm=[0, 2, 1]),
             helper.make_node("ReduceMean", ["y"], ["z"], name="mean0", axes=[1], keepdims=0)]
    inits = [init("w", r.standard_normal((3, 1, 3, 3), dtype=np.float32)),
             init("b", r.standard_normal(3, dtype=np.float32)),
             init("two", np.array([2], dtype=np.int64))]
    return model("bounded_strided", nodes, [vi("x", [1, 1, 5, "seq"])],
                 [vi("y", [1, "cols", 3]), vi("z", [1, 3])], inits)


def bounded_sqrt():
    # Scales by 1/sqrt(seq): a value computed from the sequence length other than in proportion.
    nodes = [helper.make_node("Shape", ["x"], ["shape"], name="shape0"),
             helper.make_node("Gather", ["shape", "one"], ["n"], name="gather0", axis=0),
             helper.make_node("Cast", ["n"], ["nf"], name="cast0", to=F32),
             helper.make_node("Sqrt", ["nf"], ["root"], name="sqrt0"),
             helper.make_node("Div", ["x", "root"], ["y"], name="div0")]
    inits = [init("one", np.array(1, dtype=np.int64))]
    return model("bounded_sqrt", nodes, [vi("x", [1, "seq", 4])], [vi("y", [1, "seq", 4])], inits)


def bounded_transposed():
    # The output holds the sequence behind a dim of 4: its bound layout is not its actual one.
    nodes = [helper.make_node("Transpose", ["x"], ["y"], name="transpose0", perm=[0, 2, 1])]
    return model("bounded_transposed", nodes, [vi("x", [1, "seq", 4])], [vi("y", [1, 4, "seq"])])


def unknown_dims():
    # An exporter's unknown dims written as dim_value -1 (in the input, the output and a
    # value_info): dim 0 of x becomes the symbolic dim 'x_dim0', a run-time batch.
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu0"),
             helper.make_node("Add", ["r", "bias"], ["y"], name="add0")]
    inits = [init("bias", np.arange(4, dtype=np.float32))]
    m = model("unknown_dims", nodes, [vi("x", [-1, 3, 4])], [vi("y", [-1, 3, 4])], inits)
    m.graph.value_info.append(vi("r", [-1, 3, 4]))
    return m


def unknown_dims_inner():
    # dim_value -1 inside: 'x_dim1' must be pinned (a Softmax over it mixes its elements).
    nodes = [helper.make_node("Softmax", ["x"], ["y"], name="softmax0", axis=-1)]
    return model("unknown_dims_inner", nodes, [vi("x", [2, -1])], [vi("y", [2, -1])])


def batch_recurrent():
    # A run-time batch through recurrences, batch first as PyTorch exports them (Transposes
    # around seq-first ops): a bidirectional LSTM with an initial state, then a GRU over its
    # output. Each sample's steps read only that sample.
    r = rng(41)
    w = lambda name, *shape: init(name, r.standard_normal(shape, dtype=np.float32) * 0.5)
    t = lambda x, y, perm: helper.make_node("Transpose", [x], [y], name=f"t_{y}", perm=perm)
    nodes = [t("x", "xs", [1, 0, 2]), t("h0", "h0s", [1, 0, 2]),
             helper.make_node("LSTM", ["xs", "lw", "lr", "lb", "", "h0s"], ["y", "yhs"],
                              name="lstm0", hidden_size=4, direction="bidirectional"),
             t("y", "yb", [2, 0, 1, 3]), t("yhs", "yh", [1, 0, 2]),
             helper.make_node("Reshape", ["yb", "flat_shape"], ["yflat"], name="reshape0"),
             t("yflat", "ys", [1, 0, 2]),
             helper.make_node("GRU", ["ys", "gw", "gr", "gb"], ["zs", "zhs"], name="gru0",
                              hidden_size=5, linear_before_reset=1),
             t("zs", "z", [2, 0, 1, 3]), t("zhs", "zh", [1, 0, 2])]
    inits = [w("lw", 2, 16, 3), w("lr", 2, 16, 4), w("lb", 2, 32), w("gw", 1, 15, 8),
             w("gr", 1, 15, 5), w("gb", 1, 30),
             init("flat_shape", np.array([0, 0, 8], dtype=np.int64))]
    return model("batch_recurrent", nodes, [vi("x", ["batch", 5, 3]), vi("h0", ["batch", 2, 4])],
                 [vi("z", ["batch", 5, 1, 5]), vi("yh", ["batch", 2, 4]),
                  vi("zh", ["batch", 1, 5])], inits)


CHECKED = [unknown_dims, unknown_dims_inner, constant_forms, clip_v6, softmax_v11, dynamic_batch, reductions, softmax_like_v11,
           norms, topk_cumsum, shape_subgraph, data_movement, slice_squeeze_v9, split_pad_v10,
           batch_mlp, batch_rows, batch_seq_first, batch_recurrent, batch_rows_behind, batch_reduce, batch_transposed, batch_count, batch_gram, batch_seq,
           nonzero, nonzero_transposed, nonzero_reduced, bounded_attention, bounded_strided, batch_bounded_attention, bounded_count,
           bounded_sqrt, bounded_transposed]


def if_constant():
    # A shape test picks the branch at compile time (as in ONNX's function bodies, AffineGrid's):
    # tcc imports the nodes of the taken branch in place of the If. The branch forwards x
    # through an Identity, and a Split of the (constant) shape gives the new one.
    eight = numpy_helper.from_array(np.array(8, dtype=np.int64), "eight")
    then_branch = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["x_then"], name="identity0"),
         helper.make_node("Relu", ["x_then"], ["y_then"], name="relu0")],
        "then", [], [vi("y_then", [2, 4])])
    else_branch = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["y_else"], name="neg0")], "else", [], [vi("y_else", [2, 4])])
    nodes = [helper.make_node("Size", ["x"], ["n"], name="size0"),
             helper.make_node("Equal", ["n", "eight"], ["is8"], name="equal0"),
             helper.make_node("If", ["is8"], ["y"], name="if0", then_branch=then_branch,
                              else_branch=else_branch),
             helper.make_node("Shape", ["x"], ["s"], name="shape0"),
             helper.make_node("Split", ["s"], ["rows", "cols"], name="split0", num_outputs=2),
             helper.make_node("Concat", ["cols", "rows"], ["t"], name="concat0", axis=0),
             helper.make_node("Reshape", ["y", "t"], ["z"], name="reshape0")]            # [4,2]
    return model("if_constant", nodes, [vi("x", [2, 4])], [vi("z", [4, 2])], inits=[eight],
                 opset=18)


CHECKED.append(if_constant)


# ---- error fixtures: models tcc must reject (written raw, not checked) ----

def relu(name, **attrs):
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu0", **attrs)]
    return model(name, nodes, [vi("x", [4])], [vi("y", [4])])


def no_opset():
    m = relu("no_opset")
    del m.opset_import[:]
    m.opset_import.append(helper.make_opsetid("com.example", 1))
    return m


def old_opset():
    m = relu("old_opset")
    m.opset_import[0].version = 6
    return m


def sequence_input():
    nodes = [helper.make_node("SequenceLength", ["xs"], ["n"], name="seqlen0")]
    return model("sequence_input", nodes,
                 [helper.make_tensor_sequence_value_info("xs", F32, [3])],
                 [vi("n", [], TensorProto.INT64)])


def string_input():
    nodes = [helper.make_node("Identity", ["s"], ["t"], name="identity0")]
    return model("string_input", nodes, [vi("s", [2], TensorProto.STRING)],
                 [vi("t", [2], TensorProto.STRING)])


def no_shape():
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu0")]
    return model("no_shape", nodes, [vi("x", None)], [vi("y", None)])


def external_data():
    w = TensorProto(name="w", data_type=F32, dims=[4], data_location=TensorProto.EXTERNAL)
    w.external_data.add(key="location", value="w.bin")  # w.bin is deliberately not written
    nodes = [helper.make_node("Add", ["x", "w"], ["y"], name="add0")]
    return model("external_data", nodes, [vi("x", [4])], [vi("y", [4])], [w])


def external_model(name, location, offset=None, length=None):
    w = TensorProto(name="w", data_type=F32, dims=[2, 4], data_location=TensorProto.EXTERNAL)
    w.external_data.add(key="location", value=location)
    if offset is not None:
        w.external_data.add(key="offset", value=str(offset))
    if length is not None:
        w.external_data.add(key="length", value=str(length))
    nodes = [helper.make_node("Add", ["x", "w"], ["y"], name="add0")]
    return model(name, nodes, [vi("x", [2, 4])], [vi("y", [2, 4])], [w])


# external_ok.bin: 16 bytes of padding, then w (2x4 float32), then 8 more bytes.
EXTERNAL_W = np.arange(8, dtype=np.float32).reshape(2, 4) / 4 - 1


def external_ok():
    return external_model("external_ok", "external_ok.bin", offset=16, length=32)


def external_escape():
    return external_model("external_escape", "../Inputs/external_ok.bin", offset=16, length=32)


def external_absolute():
    return external_model("external_absolute", "/etc/passwd")


def external_short():
    return external_model("external_short", "external_ok.bin", offset=40, length=32)


def bad_initializer():
    w = TensorProto(name="w", data_type=F32, dims=[4], float_data=[1.0, 2.0, 3.0])  # 3 of 4
    nodes = [helper.make_node("Add", ["x", "w"], ["y"], name="add0")]
    return model("bad_initializer", nodes, [vi("x", [4])], [vi("y", [4])], [w])


def undefined_input():
    nodes = [helper.make_node("Relu", ["nowhere"], ["y"], name="relu0")]
    return model("undefined_input", nodes, [vi("x", [4])], [vi("y", [4])])


def softmax_v11_axis():
    # Softmax-11 with axis=1 on rank 3 flattens [3,4]; not the per-axis Softmax-13.
    nodes = [helper.make_node("Softmax", ["x"], ["y"], name="sm0", axis=1)]
    return model("softmax_v11_axis", nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], opset=11)


def bn_spatial0():
    r = rng(21)
    nodes = [helper.make_node("BatchNormalization", ["x", "scale", "B", "mean", "var"], ["y"],
                              name="bn0", spatial=0)]
    inits = [init("scale", r.uniform(0.5, 1.5, 2).astype(np.float32)),
             init("B", r.standard_normal(2, dtype=np.float32)),
             init("mean", r.standard_normal(2, dtype=np.float32)),
             init("var", r.uniform(0.5, 2.0, 2).astype(np.float32))]
    return model("bn_spatial0", nodes, [vi("x", [1, 2, 3, 3])], [vi("y", [1, 2, 3, 3])], inits,
                 opset=7)


def unknown_attr():
    return relu("unknown_attr", foo=1)


def maxpool_indices():
    # MaxPool's Indices: padded and strided (row-major), dilated with the spatial dims
    # column-major (storage_order 1), and 1-d; two samples, so that the batch offset counts.
    nodes = [helper.make_node("MaxPool", ["x"], ["y", "i"], name="pool0", kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1], strides=[2, 2]),
             helper.make_node("MaxPool", ["x"], ["y2", "i2"], name="pool1", kernel_shape=[2, 2],
                              dilations=[2, 1], storage_order=1),
             helper.make_node("MaxPool", ["s"], ["y3", "i3"], name="pool2", kernel_shape=[3],
                              strides=[2], ceil_mode=1)]
    i64 = TensorProto.INT64
    return model("maxpool_indices", nodes, [vi("x", [2, 3, 5, 6]), vi("s", [2, 2, 8])],
                 [vi("y", [2, 3, 3, 3]), vi("i", [2, 3, 3, 3], i64), vi("y2", [2, 3, 3, 5]),
                  vi("i2", [2, 3, 3, 5], i64), vi("y3", [2, 2, 4]), vi("i3", [2, 2, 4], i64)],
                 opset=12)


ROIS = np.array([[0, 0, 4, 4], [2.5, 1.2, 9.7, 7.1], [-3, -2, 20, 15], [5, 5, 5.2, 5.1]],
                np.float32)


def roi_align():
    # RoiAlign (opset 16): boxes inside, across the border, larger than the image and nearly
    # empty; adaptive sampling (avg, half_pixel) and 2x2 samples of a half-scale map (max,
    # output_half_pixel).
    nodes = [helper.make_node("RoiAlign", ["x", "rois", "idx"], ["avg"], name="roi_avg",
                              output_height=3, output_width=2),
             helper.make_node("RoiAlign", ["x", "rois", "idx"], ["max"], name="roi_max",
                              mode="max", coordinate_transformation_mode="output_half_pixel",
                              output_height=2, output_width=2, sampling_ratio=2,
                              spatial_scale=0.5)]
    return model("roi_align", nodes, [vi("x", [2, 3, 8, 10])],
                 [vi("avg", [4, 3, 3, 2]), vi("max", [4, 3, 2, 2])],
                 [init("rois", ROIS), init("idx", np.array([0, 1, 1, 0], np.int64))], opset=16)


def roi_align_v10():
    # Opset 10's RoiAlign has no coordinate_transformation_mode: output_half_pixel.
    nodes = [helper.make_node("RoiAlign", ["x", "rois", "idx"], ["y"], name="roi0",
                              output_height=2, output_width=3)]
    return model("roi_align_v10", nodes, [vi("x", [2, 3, 8, 10])], [vi("y", [4, 3, 2, 3])],
                 [init("rois", ROIS), init("idx", np.array([1, 0, 1, 1], np.int64))], opset=10)


def roi_align_inputs():
    # RoiAlign with rois and batch indices given at run time (hostile values must stay inside x).
    nodes = [helper.make_node("RoiAlign", ["x", "rois", "idx"], ["y"], name="roi0",
                              output_height=2, output_width=2)]
    return model("roi_align_inputs", nodes,
                 [vi("x", [4, 1, 4, 4]), vi("rois", [2, 4]), vi("idx", [2], TensorProto.INT64)],
                 [vi("y", [2, 1, 2, 2])], opset=16)


def maxunpool():
    # MaxPool's values put back at its Indices (MaxUnpool), with the pads' size counted.
    nodes = [helper.make_node("MaxPool", ["x"], ["p", "i"], name="pool0", kernel_shape=[3, 3],
                              strides=[2, 2], pads=[1, 1, 1, 1]),
             helper.make_node("MaxUnpool", ["p", "i"], ["y"], name="unpool0",
                              kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])]
    return model("maxunpool", nodes, [vi("x", [2, 3, 7, 9])], [vi("y", [2, 3, 7, 9])],
                 opset=12)


def bn_training():
    # BatchNormalization's training outputs (running mean and variance).
    c = np.ones(3, np.float32)
    nodes = [helper.make_node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y", "rm", "rv"],
                              name="bn0", training_mode=1)]
    return model("bn_training", nodes, [vi("x", [1, 3, 2, 2])],
                 [vi("y", [1, 3, 2, 2]), vi("rm", [3]), vi("rv", [3])],
                 [init(n, c) for n in ("g", "b", "m", "v")], opset=15)


def dangling_output():
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu0")]
    return model("dangling_output", nodes, [vi("x", [4])], [vi("z", [4])])


def constant_string():
    nodes = [helper.make_node("Constant", [], ["c"], name="c0", value_string="hi")]
    return model("constant_string", nodes, [], [vi("c", [], TensorProto.STRING)])


def tensors_attr():
    return relu("tensors_attr", tags=[numpy_helper.from_array(np.zeros(2, np.float32))])


def conv_bad_channels():
    r = rng(22)
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv0", kernel_shape=[3, 3])]
    inits = [init("w", r.standard_normal((4, 2, 3, 3), dtype=np.float32))]  # x has 3 channels
    return model("conv_bad_channels", nodes, [vi("x", [1, 3, 8, 8])], [vi("y", [1, 4, 6, 6])],
                 inits)


def cast_string_to():
    # Cast before opset 6 names its type; an unknown name is refused.
    nodes = [helper.make_node("Cast", ["x"], ["y"], name="cast0", to="NOPE")]
    return model("cast_string_to", nodes, [vi("x", [4])], [vi("y", [4])], opset=5)


def cast_fp8():
    nodes = [helper.make_node("Cast", ["x"], ["h"], name="cast0", to=TensorProto.FLOAT8E4M3FN),
             helper.make_node("Cast", ["h"], ["y"], name="cast1", to=TensorProto.FLOAT)]
    return model("cast_fp8", nodes, [vi("x", [4])], [vi("y", [4])], opset=19)
def groupnorm_v18_input_scale():
    # Opset-18 per-group scale given at run time: tcc cannot make it per channel.
    nodes = [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], name="gn0",
                              num_groups=2)]
    return model("groupnorm_v18_input_scale", nodes,
                 [vi("x", [1, 4, 2]), vi("s", [2]), vi("b", [2])], [vi("y", [1, 4, 2])], opset=18)


def cumsum_axis_input():
    # CumSum's axis a model input: known only at run time.
    nodes = [helper.make_node("CumSum", ["x", "axis"], ["y"], name="cumsum0")]
    return model("cumsum_axis_input", nodes, [vi("x", [2, 3]), vi("axis", [], TensorProto.INT64)],
                 [vi("y", [2, 3])])


def squeeze_axes_input():
    # Squeeze's axes a model input: the output's rank depends on their values.
    nodes = [helper.make_node("Squeeze", ["x", "axes"], ["y"], name="squeeze0")]
    return model("squeeze_axes_input", nodes,
                 [vi("x", [1, 3, 1]), vi("axes", [1], TensorProto.INT64)],
                 [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])


BAD = [no_opset, old_opset, sequence_input, string_input, no_shape, external_data,
       bad_initializer, undefined_input, softmax_v11_axis, bn_spatial0, unknown_attr,
       bn_training, dangling_output, constant_string, tensors_attr, conv_bad_channels,
       cast_string_to, cast_fp8,
       groupnorm_v18_input_scale, cumsum_axis_input, squeeze_axes_input]


def if_runtime():
    # Ifs on a value only known at run time (the sign of sum(x)): both branches run and a Where
    # picks; the second If takes the other branch, so one run checks both.
    def branch(name, nodes, out):
        return helper.make_graph(nodes, name, [], [vi(out, [2, 4])])

    then_branch = branch("then", [helper.make_node("Relu", ["x"], ["r"], name="relu0"),
                                  helper.make_node("Add", ["r", "r"], ["t"], name="add0")], "t")
    else_branch = branch("else", [helper.make_node("Neg", ["x"], ["e"], name="neg0")], "e")
    nodes = [helper.make_node("ReduceSum", ["x"], ["s"], name="sum0", keepdims=0),
             helper.make_node("Greater", ["s", "zero"], ["c"], name="gt0"),
             helper.make_node("Not", ["c"], ["nc"], name="not0"),
             helper.make_node("If", ["c"], ["y"], name="if0", then_branch=then_branch,
                              else_branch=else_branch),
             helper.make_node("If", ["nc"], ["z"], name="if1", then_branch=then_branch,
                              else_branch=else_branch)]
    return model("if_runtime", nodes, [vi("x", [2, 4])], [vi("y", [2, 4]), vi("z", [2, 4])],
                 inits=[init("zero", np.array(0, np.float32))])


def if_branch_runtime():
    # A decoder chosen by a run-time input (sr == 16000), as in voice models: with x's dim n
    # pinned to 6, else_branch's MatMul cannot be shaped. tcc compiles then_branch only, and a
    # run with another sr returns TCC_ERROR_BRANCH. (onnxruntime runs it while sr is 16000.)
    r = rng(32)
    then_branch = helper.make_graph([helper.make_node("MatMul", ["x", "w1"], ["t"],
                                                      name="decode16k")],
                                    "then", [], [vi("t", [4, 3])])
    else_branch = helper.make_graph([helper.make_node("MatMul", ["x", "w2"], ["e"],
                                                      name="decode8k")],
                                    "else", [], [vi("e", [4, 3])])
    nodes = [helper.make_node("Equal", ["sr", "k16"], ["c"], name="is16k"),
             helper.make_node("If", ["c"], ["y"], name="pick_decoder", then_branch=then_branch,
                              else_branch=else_branch)]
    return model("if_branch_runtime", nodes,
                 [vi("x", [4, "n"]), vi("sr", [], TensorProto.INT64)], [vi("y", [4, 3])],
                 [init("k16", np.array(16000, np.int64)),
                  init("w1", r.standard_normal((6, 3)).astype(np.float32)),
                  init("w2", r.standard_normal((5, 3)).astype(np.float32))])


def loop_unrolled():
    # A Loop with a constant trip count (as exporters write a Python for-loop): tcc unrolls it.
    # The body reads the iteration number, an outer value, carries y and scans y * i.
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="cond0"),
         helper.make_node("Cast", ["i"], ["fi"], name="cast0", to=F32),
         helper.make_node("Mul", ["w", "fi"], ["wi"], name="mul0"),
         helper.make_node("Add", ["y_in", "wi"], ["y_out"], name="add0"),
         helper.make_node("Mul", ["y_out", "fi"], ["scan"], name="mul1")],
        "body", [vi("i", [], TensorProto.INT64), vi("cond_in", [], TensorProto.BOOL),
                 vi("y_in", [3])],
        [vi("cond_out", [], TensorProto.BOOL), vi("y_out", [3]), vi("scan", [3])])
    nodes = [helper.make_node("Loop", ["n", "", "x"], ["y", "scans"], name="loop0", body=body)]
    inits = [init("n", np.array(4, np.int64)),
             init("w", rng(30).standard_normal(3).astype(np.float32))]
    return model("loop_unrolled", nodes, [vi("x", [3])], [vi("y", [3]), vi("scans", [4, 3])],
                 inits)


def scan_unrolled():
    # A Scan (opset 17) over axis 1 of x, read forward and backward, carrying a state; its scan
    # outputs stacked along axis 1 and (prepended) along axis 0. tcc unrolls it.
    body = helper.make_graph(
        [helper.make_node("Mul", ["x_t", "w"], ["xw"], name="mul0"),
         helper.make_node("Add", ["s_in", "xw"], ["s_out"], name="add0"),
         helper.make_node("Mul", ["s_out", "r_t"], ["y_t"], name="mul1"),
         helper.make_node("Relu", ["r_t"], ["z_t"], name="relu0")],
        "body", [vi("s_in", [2, 3]), vi("x_t", [2, 3]), vi("r_t", [2, 3])],
        [vi("s_out", [2, 3]), vi("y_t", [2, 3]), vi("z_t", [2, 3])])
    nodes = [helper.make_node("Scan", ["s0", "x", "x"], ["s", "y", "z"], name="scan0", body=body,
                              num_scan_inputs=2, scan_input_axes=[1, -2],
                              scan_input_directions=[0, 1], scan_output_axes=[1, 0],
                              scan_output_directions=[0, 1])]
    return model("scan_unrolled", nodes, [vi("s0", [2, 3]), vi("x", [2, 5, 3])],
                 [vi("s", [2, 3]), vi("y", [2, 5, 3]), vi("z", [5, 2, 3])],
                 [init("w", rng(31).standard_normal(3).astype(np.float32))])


def scan_batched():
    # Opset 8's Scan: a batch dim first, the body sees one sample.
    body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "x_t"], ["s_out"], name="add0"),
         helper.make_node("Mul", ["s_out", "x_t"], ["y_t"], name="mul0")],
        "body", [vi("s_in", [3]), vi("x_t", [3])], [vi("s_out", [3]), vi("y_t", [3])])
    nodes = [helper.make_node("Scan", ["", "s0", "x"], ["s", "y"], name="scan0", body=body,
                              num_scan_inputs=1, directions=[1])]
    return model("scan_batched", nodes, [vi("s0", [2, 3]), vi("x", [2, 4, 3])],
                 [vi("s", [2, 3]), vi("y", [2, 4, 3])], opset=8)


def local_function():
    # Model-local functions, as the dynamo exporter writes modules: attribute references, a
    # function calling another, an optional input left out.
    ms = "tcc.test"
    leaky = helper.make_node("LeakyRelu", ["T"], ["Y"])
    leaky.attribute.append(helper.make_attribute_ref("alpha", onnx.AttributeProto.FLOAT))
    bias_leaky = helper.make_function(
        ms, "BiasLeaky", ["X", "B"], ["Y"], [helper.make_node("Add", ["X", "B"], ["T"]), leaky],
        [helper.make_opsetid("", 17)], attributes=["alpha"])
    clip_or_id = helper.make_function(
        ms, "ClipMax", ["X", "Hi"], ["Y"],
        [helper.make_node("Clip", ["X", "", "Hi"], ["Y"])], [helper.make_opsetid("", 17)])
    twice = helper.make_function(
        ms, "Twice", ["X", "B"], ["Y"],
        [helper.make_node("BiasLeaky", ["X", "B"], ["T"], domain=ms, alpha=0.5),
         helper.make_node("BiasLeaky", ["T", "B"], ["Y"], domain=ms, alpha=0.25)],
        [helper.make_opsetid("", 17), helper.make_opsetid(ms, 1)])
    nodes = [helper.make_node("BiasLeaky", ["x", "b"], ["a"], name="call0", domain=ms, alpha=0.1),
             helper.make_node("Twice", ["a", "b"], ["t"], name="call1", domain=ms),
             helper.make_node("ClipMax", ["t"], ["y"], name="call2", domain=ms)]
    m = model("local_function", nodes, [vi("x", [2, 4])], [vi("y", [2, 4])],
              [init("b", rng(31).standard_normal(4).astype(np.float32))],
              extra_opsets=[(ms, 1)])
    m.functions.extend([bias_leaky, clip_or_id, twice])
    return m


def contrib_ops():
    # onnxruntime's com.microsoft fused ops, as its transformer optimizer writes them.
    r = rng(32)
    ms = "com.microsoft"
    h = 8
    inits = [init(n, r.standard_normal(shape).astype(np.float32))
             for n, shape in (("bias", [h]), ("gamma", [h]), ("beta", [h]), ("w", [6, h]))]
    nodes = [helper.make_node("Gelu", ["x"], ["g"], name="gelu0", domain=ms),
             helper.make_node("FastGelu", ["g", "bias"], ["fg"], name="fastgelu0", domain=ms),
             helper.make_node("FastGelu", ["x"], ["fg2"], name="fastgelu1", domain=ms),
             helper.make_node("BiasGelu", ["fg2", "bias"], ["bg"], name="biasgelu0", domain=ms),
             helper.make_node("QuickGelu", ["bg"], ["qg"], name="quickgelu0", domain=ms,
                              alpha=1.5),
             helper.make_node("SkipLayerNormalization", ["fg", "qg", "gamma", "beta", "bias"],
                              ["ln", "", "", "sum"], name="skipln0", domain=ms, epsilon=1e-5),
             helper.make_node("SkipSimplifiedLayerNormalization", ["ln", "sum", "gamma"],
                              ["rms"], name="skiprms0", domain=ms, epsilon=1e-5),
             # onnxruntime registers this one in the default domain.
             helper.make_node("SimplifiedLayerNormalization", ["rms", "gamma"], ["rms2"],
                              name="simplifiedln0", epsilon=1e-5),
             helper.make_node("FusedMatMul", ["rms2", "w"], ["mm"], name="fusedmatmul0",
                              domain=ms, transB=1, alpha=0.5)]
    return model("contrib_ops", nodes, [vi("x", [2, 3, h])],
                 [vi("mm", [2, 3, 6]), vi("sum", [2, 3, h])], inits, extra_opsets=[(ms, 1)])


def contrib_conv():
    # com.microsoft FusedConv (onnxruntime's conv + activation fusion, with the sum input Z) and
    # FusedGemm, and
    # LayerNormalization in an opset-13 file (onnxruntime registers it in the default domain
    # before ONNX had it), as its optimizer writes them into files.
    r = rng(33)
    ms = "com.microsoft"
    inits = [init("w1", r.standard_normal((4, 3, 3, 3)).astype(np.float32)),
             init("b1", r.standard_normal(4).astype(np.float32)),
             init("w2", r.standard_normal((4, 4, 1, 1)).astype(np.float32)),
             init("w3", r.standard_normal((4, 2, 3, 3)).astype(np.float32)),
             init("gamma", r.standard_normal(6).astype(np.float32)),
             init("beta", r.standard_normal(6).astype(np.float32)),
             init("wg", r.standard_normal((4, 6)).astype(np.float32)),
             init("cg", r.standard_normal(4).astype(np.float32))]
    nodes = [helper.make_node("FusedConv", ["x", "w1", "b1"], ["c1"], name="fusedconv_relu",
                              domain=ms, activation="Relu", kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1]),
             helper.make_node("FusedConv", ["c1", "w2", "", "c1"], ["c2"], name="fusedconv_sum",
                              domain=ms, activation="LeakyRelu", activation_params=[0.1]),
             helper.make_node("FusedConv", ["c2", "w3"], ["c3"], name="fusedconv_clip",
                              domain=ms, activation="Clip", activation_params=[-0.5, 0.5],
                              group=2, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
             helper.make_node("FusedConv", ["c3", "w2"], ["c4"], name="fusedconv_hardsigmoid",
                              domain=ms, activation="HardSigmoid", activation_params=[0.3, 0.4]),
             helper.make_node("LayerNormalization", ["x", "gamma", "beta"], ["ln"],
                              name="layernorm0", axis=-1, epsilon=1e-5),
             helper.make_node("FusedGemm", ["a", "wg", "cg"], ["gm"], name="fusedgemm0",
                              domain=ms, transB=1, alpha=0.5, beta=2.0, activation="LeakyRelu",
                              activation_alpha=0.2)]
    return model("contrib_conv", nodes, [vi("x", [1, 3, 6, 6]), vi("a", [2, 6])],
                 [vi("c4", [1, 4, 3, 3]), vi("ln", [1, 3, 6, 6]), vi("gm", [2, 4])], inits,
                 opset=13, extra_opsets=[(ms, 1)])


def normal_f32(r):
    """f32(*shape): standard normal float32 arrays from generator `r`."""
    return lambda *shape: r.standard_normal(shape).astype(np.float32)


def contrib_attention():
    # onnxruntime's com.microsoft Attention (packed QKV projection; mask_index as end positions,
    # end and start positions, a 2-D and a 3-D 0/1 mask; qkv_hidden_sizes, unidirectional, past,
    # attention_bias, scale), as its transformers optimizer writes it.
    f32 = normal_f32(rng(34))
    ms = "com.microsoft"
    i32 = TensorProto.INT32

    inits = [init("w", f32(8, 24)), init("b", f32(24)), init("w2", f32(8, 14)),
             init("b2", f32(14)),
             # End then start positions; a row with every key masked would be compared at the
             # precision of s - 10000 (both add the filter value at a different point).
             init("startend", np.array([5, 3, 1, 0], np.int32))]
    nodes = [helper.make_node("Attention", ["x", "w", "b", "mask2"], ["a0"], name="att_mask2d",
                              domain=ms, num_heads=2),
             helper.make_node("Attention", ["x", "w2", "b2", "ends"], ["a1"], name="att_ends",
                              domain=ms, num_heads=2, qkv_hidden_sizes=[4, 4, 6],
                              unidirectional=1, scale=0.3),
             helper.make_node("Attention", ["x", "w", "b", "mask3", "past"],
                              ["a2", "present"], name="att_past", domain=ms, num_heads=2,
                              unidirectional=1, mask_filter_value=-1000.0),
             helper.make_node("Attention", ["x", "w", "", "startend", "", "abias"], ["a3"],
                              name="att_startend", domain=ms, num_heads=4)]
    return model("contrib_attention", nodes,
                 [vi("x", [2, 5, 8]), vi("mask2", [2, 5], i32), vi("ends", [2], i32),
                  vi("mask3", [2, 5, 8], i32), vi("past", [2, 2, 2, 3, 4]),
                  vi("abias", [1, 4, 5, 5])],
                 [vi("a0", [2, 5, 8]), vi("a1", [2, 5, 6]), vi("a2", [2, 5, 8]),
                  vi("present", [2, 2, 2, 8, 4]), vi("a3", [2, 5, 8])], inits,
                 extra_opsets=[(ms, 1)])


def contrib_mha():
    # com.microsoft MultiHeadAttention (separate Q, K, V: cross attention with a bias and a
    # key-padding mask; K and V projected already, (batch, heads, keys, size); self attention
    # with a past and unidirectional) and EmbedLayerNormalization (with and without segments,
    # mask and position ids), as onnxruntime's optimizers write them.
    f32 = normal_f32(rng(35))
    ms = "com.microsoft"
    i32 = TensorProto.INT32

    inits = [init("bias", f32(22)), init("word", f32(10, 8)), init("pos", f32(16, 8)),
             init("seg", f32(4, 8)), init("gamma", f32(8)), init("beta", f32(8))]
    nodes = [helper.make_node("MultiHeadAttention", ["q", "k", "v", "bias", "kpm"], ["m0"],
                              name="mha_cross", domain=ms, num_heads=2),
             helper.make_node("MultiHeadAttention", ["q", "k4", "v4", "", "ends"], ["m1"],
                              name="mha_bnsh", domain=ms, num_heads=2, scale=0.5),
             helper.make_node("MultiHeadAttention", ["q", "q", "q", "", "", "abias", "pk", "pv"],
                              ["m2", "present_k", "present_v"], name="mha_past", domain=ms,
                              num_heads=2, unidirectional=1),
             helper.make_node("EmbedLayerNormalization",
                              ["ids", "segids", "word", "pos", "seg", "gamma", "beta", "mask"],
                              ["e0", "mask_index", "esum"], name="embed_ln", domain=ms,
                              epsilon=1e-5),
             helper.make_node("EmbedLayerNormalization",
                              ["ids", "", "word", "pos", "", "gamma", "beta", "", "posids"],
                              ["e1", "no_mask_index"], name="embed_ln_pos", domain=ms)]
    return model("contrib_mha", nodes,
                 [vi("q", [2, 5, 8]), vi("k", [2, 7, 8]), vi("v", [2, 7, 6]),
                  vi("kpm", [2, 7], i32), vi("k4", [2, 2, 7, 4]), vi("v4", [2, 2, 7, 4]),
                  vi("ends", [2], i32), vi("abias", [1, 1, 5, 8]), vi("pk", [2, 2, 3, 4]),
                  vi("pv", [2, 2, 3, 4]), vi("ids", [2, 5], i32), vi("segids", [2, 5], i32),
                  vi("mask", [2, 5], i32), vi("posids", [1, 5], i32)],
                 [vi("m0", [2, 5, 6]), vi("m1", [2, 5, 8]), vi("m2", [2, 5, 8]),
                  vi("present_k", [2, 2, 8, 4]), vi("present_v", [2, 2, 8, 4]),
                  vi("e0", [2, 5, 8]), vi("mask_index", [2], i32), vi("esum", [2, 5, 8]),
                  vi("e1", [2, 5, 8]), vi("no_mask_index", [2], i32)], inits,
                 extra_opsets=[(ms, 1)])


CHECKED += [topk_runtime_k]
CHECKED += [if_runtime, if_branch_runtime, loop_unrolled, scan_unrolled, scan_batched, local_function, contrib_ops,
            contrib_conv, contrib_attention, contrib_mha, maxpool_indices, roi_align, roi_align_v10,
            roi_align_inputs, maxunpool]


def contractions():
    """Convolutions and matmuls whose shapes take each path of
    tcc-vectorize-contractions: a strided conv read along ow (masked, shuffled),
    a conv along its output channels (packed filter, gathered and scattered
    output, masked tail), matmuls against packed weights and against another
    input, both with masked tails."""
    r = rng(40)
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv_s2", kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1], strides=[2, 2]),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu"),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv_f40", kernel_shape=[3, 3]),
             helper.make_node("MatMul", ["y", "w3"], ["m1"], name="matmul_packed"),
             helper.make_node("MatMul", ["y", "z"], ["m2"], name="matmul_inputs")]
    inits = [init("w1", r.standard_normal((6, 3, 3, 3), dtype=np.float32)),
             init("w2", r.standard_normal((40, 6, 3, 3), dtype=np.float32)),
             init("b2", r.standard_normal(40, dtype=np.float32)),
             init("w3", r.standard_normal((19, 37), dtype=np.float32))]
    return model("contractions", nodes, [vi("x", [1, 3, 11, 11]), vi("y", [6, 19]), vi("z", [19, 23])],
                 [vi("c2", [1, 40, 4, 4]), vi("m1", [6, 37]), vi("m2", [6, 23])], inits)


CHECKED += [contractions]


def parallel():
    """Contractions large enough (>= 2^17 multiply-adds) to be split over a context's threads
    (tcc-parallelize-loops): a batch-2 convolution (split along the batch), a matmul against
    packed weights and one of two inputs (split along column tiles)."""
    r = rng(41)
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv_b2", kernel_shape=[3, 3]),
             helper.make_node("MatMul", ["y", "w3"], ["m1"], name="matmul_packed"),
             helper.make_node("MatMul", ["a", "b"], ["m2"], name="matmul_inputs")]
    inits = [init("w3", r.standard_normal((24, 40), dtype=np.float32))]
    return model("parallel", nodes,
                 [vi("x", [2, 8, 24, 24]), vi("w", [16, 8, 3, 3]), vi("y", [512, 24]),
                  vi("a", [256, 64]), vi("b", [64, 48])],
                 [vi("c", [2, 16, 22, 22]), vi("m1", [512, 40]), vi("m2", [256, 48])], inits)


def gpu_tiles():
    """Contractions for --target cuda's shared-memory tiles (tcc-gpu-tile-contractions) whose
    extents leave tiles partly empty (M, N, K not multiples of 16 or 64): a matmul, batch dims
    broadcast from either side, Gemm with transB and a bias, a strided, dilated, padded
    convolution (an implicit GEMM over channels and taps), a grouped one (the group a batch dim),
    and MatMulInteger (u8 x s8 with zero points, s32 accumulation)."""
    r = rng(42)
    nodes = [helper.make_node("MatMul", ["a", "w1"], ["m1"], name="matmul_odd"),
             helper.make_node("MatMul", ["p", "q"], ["m2"], name="matmul_broadcast"),
             helper.make_node("Gemm", ["g", "wg", "cg"], ["gm"], name="gemm_transb", transB=1),
             helper.make_node("Conv", ["x", "wc"], ["c1"], name="conv_s2_d2", kernel_shape=[3, 3],
                              pads=[2, 2, 2, 2], strides=[2, 2], dilations=[2, 2]),
             helper.make_node("Conv", ["x2", "wc2"], ["c2"], name="conv_grouped", group=2,
                              kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("MatMulInteger", ["iu", "wi", "azp", "bzp"], ["mi"],
                              name="matmul_integer")]
    inits = [init("w1", r.standard_normal((20, 40), dtype=np.float32)),
             init("wg", r.standard_normal((48, 29), dtype=np.float32)),
             init("cg", r.standard_normal(48, dtype=np.float32)),
             init("wc", r.standard_normal((24, 5, 3, 3), dtype=np.float32)),
             init("wc2", r.standard_normal((32, 4, 3, 3), dtype=np.float32)),
             init("wi", r.integers(-128, 128, (33, 20)).astype(np.int8)),
             init("azp", np.array(3, dtype=np.uint8)),
             init("bzp", np.array(-5, dtype=np.int8))]
    return model("gpu_tiles", nodes,
                 [vi("a", [70, 20]), vi("p", [3, 1, 33, 17]), vi("q", [1, 2, 17, 50]),
                  vi("g", [37, 29]), vi("x", [2, 5, 19, 17]), vi("x2", [1, 8, 12, 12]),
                  vi("iu", [40, 33], TensorProto.UINT8)],
                 [vi("m1", [70, 40]), vi("m2", [3, 2, 33, 50]), vi("gm", [37, 48]),
                  vi("c1", [2, 24, 10, 9]), vi("c2", [1, 32, 12, 12]),
                  vi("mi", [40, 20], TensorProto.INT32)], inits)


CHECKED += [gpu_tiles]


def parallel_rest():
    """Ops that are not contractions, large enough (>= 2^16 iterations) to be split over a
    context's threads (tcc-split-kernels): a softmax over rows (split along a dim) and a Relu
    (split into equal runs of elements)."""
    nodes = [helper.make_node("Softmax", ["x"], ["s"], name="softmax0", axis=-1),
             helper.make_node("Relu", ["x"], ["r"], name="relu0")]
    return model("parallel_rest", nodes, [vi("x", [4, 128, 128])],
                 [vi("s", [4, 128, 128]), vi("r", [4, 128, 128])])


CHECKED += [parallel, parallel_rest]


def attention_blocks():
    """Attention on 2 heads of 1024 queries: 8 MB of scores, more than half of any L2 cache up
    to 16 MB, so tcc-fuse-attention computes QK^T, the scale, the softmax and PV in blocks of
    rows, the heads split over a context's threads."""
    nodes = [helper.make_node("Transpose", ["k"], ["kt"], name="transpose_k", perm=[0, 1, 3, 2]),
             helper.make_node("MatMul", ["q", "kt"], ["qk"], name="qk"),
             helper.make_node("Mul", ["qk", "scale"], ["scaled"], name="scale"),
             helper.make_node("Softmax", ["scaled"], ["p"], name="softmax", axis=-1),
             helper.make_node("MatMul", ["p", "v"], ["o"], name="pv")]
    inits = [init("scale", np.array(32 ** -0.5, dtype=np.float32))]
    return model("attention_blocks", nodes,
                 [vi("q", [1, 2, 1024, 32]), vi("k", [1, 2, 1024, 32]), vi("v", [1, 2, 1024, 32])],
                 [vi("o", [1, 2, 1024, 32])], inits)


CHECKED += [attention_blocks]


def if_unsafe():
    # A run-time If whose branch gathers at a data-dependent index: not run speculatively.
    then_branch = helper.make_graph(
        [helper.make_node("Gather", ["x", "k"], ["t"], name="gather0", axis=0)], "then", [],
        [vi("t", [])])
    else_branch = helper.make_graph(
        [helper.make_node("ReduceMax", ["x"], ["e"], name="max0", keepdims=0)], "else", [],
        [vi("e", [])])
    nodes = [helper.make_node("ArgMax", ["x"], ["k"], name="argmax0", keepdims=0),
             helper.make_node("ReduceSum", ["x"], ["s"], name="sum0", keepdims=0),
             helper.make_node("Greater", ["s", "zero"], ["c"], name="gt0"),
             helper.make_node("If", ["c"], ["y"], name="if0", then_branch=then_branch,
                              else_branch=else_branch)]
    return model("if_unsafe", nodes, [vi("x", [4])], [vi("y", [])],
                 [init("zero", np.array(0, np.float32))])


def loop_runtime():
    # A Loop whose trip count is an input.
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="cond0"),
         helper.make_node("Add", ["y_in", "y_in"], ["y_out"], name="add0")],
        "body", [vi("i", [], TensorProto.INT64), vi("cond_in", [], TensorProto.BOOL),
                 vi("y_in", [3])],
        [vi("cond_out", [], TensorProto.BOOL), vi("y_out", [3])])
    nodes = [helper.make_node("Loop", ["n", "", "x"], ["y"], name="loop0", body=body)]
    return model("loop_runtime", nodes, [vi("n", [], TensorProto.INT64), vi("x", [3])],
                 [vi("y", [3])])


def contrib_mean():
    # SkipSimplifiedLayerNormalization's mean output: RMS normalization has none.
    nodes = [helper.make_node("SkipSimplifiedLayerNormalization", ["x", "x", "g"], ["y", "m"],
                              name="skiprms0", domain="com.microsoft")]
    return model("contrib_mean", nodes, [vi("x", [2, 4])], [vi("y", [2, 4]), vi("m", [2, 1])],
                 [init("g", np.ones(4, np.float32))], extra_opsets=[("com.microsoft", 1)])


def fusedconv(name, **attrs):
    ms = "com.microsoft"
    w = init("w", np.ones((1, 1, 1, 1), np.float32))
    nodes = [helper.make_node("FusedConv", ["x", "w"], ["y"], name=name, domain=ms, **attrs)]
    return model(name, nodes, [vi("x", [1, 1, 2, 2])], [vi("y", [1, 1, 2, 2])], [w],
                 extra_opsets=[(ms, 1)])


def fusedconv_activation():
    # FusedConv with an activation onnxruntime's fusions never write.
    return fusedconv("fusedconv_activation", activation="Selu")


def fusedconv_clip():
    # FusedConv with a Clip activation without its bounds.
    return fusedconv("fusedconv_clip", activation="Clip")


def contrib_unknown():
    nodes = [helper.make_node("QOrderedMatMul", ["x"], ["y"], name="qordered0",
                              domain="com.microsoft")]
    return model("contrib_unknown", nodes, [vi("x", [2, 4])], [vi("y", [2, 4])],
                 extra_opsets=[("com.microsoft", 1)])


def function_recursive():
    ms = "tcc.test"
    forever = helper.make_function(ms, "Forever", ["X"], ["Y"],
                                   [helper.make_node("Forever", ["X"], ["Y"], domain=ms)],
                                   [helper.make_opsetid("", 17), helper.make_opsetid(ms, 1)])
    nodes = [helper.make_node("Forever", ["x"], ["y"], name="call0", domain=ms)]
    m = model("function_recursive", nodes, [vi("x", [4])], [vi("y", [4])],
              extra_opsets=[(ms, 1)])
    m.functions.append(forever)
    return m


def if_branch_shapes():
    # A run-time If whose branches give different shapes.
    then_branch = helper.make_graph([helper.make_node("Relu", ["x"], ["t"], name="relu0")],
                                    "then", [], [vi("t", [4])])
    else_branch = helper.make_graph(
        [helper.make_node("Concat", ["x", "x"], ["e"], name="concat0", axis=0)], "else", [],
        [vi("e", [8])])
    nodes = [helper.make_node("If", ["c"], ["y"], name="if0", then_branch=then_branch,
                              else_branch=else_branch)]
    return model("if_branch_shapes", nodes, [vi("x", [4]), vi("c", [], TensorProto.BOOL)],
                 [vi("y", None)])


def loop_model(name, trip_count, cond_node, scan=False):
    outputs = [vi("cond_out", [], TensorProto.BOOL), vi("y_out", [3])]
    body_nodes = [cond_node, helper.make_node("Add", ["y_in", "y_in"], ["y_out"], name="add0")]
    if scan:
        body_nodes.append(helper.make_node("Identity", ["y_out"], ["s"], name="scan0"))
        outputs.append(vi("s", [3]))
    body = helper.make_graph(
        body_nodes, "body", [vi("i", [], TensorProto.INT64), vi("cond_in", [], TensorProto.BOOL),
                             vi("y_in", [3])], outputs)
    node_outputs = ["y", "scans"] if scan else ["y"]
    nodes = [helper.make_node("Loop", ["n", "", "x"], node_outputs, name="loop0", body=body)]
    graph_outputs = [vi("y", [3])] + ([vi("scans", [trip_count, 3])] if scan else [])
    return model(name, nodes, [vi("x", [3])], graph_outputs,
                 [init("n", np.array(trip_count, np.int64))])


def loop_long():
    return loop_model("loop_long", 5000, helper.make_node("Identity", ["cond_in"], ["cond_out"]))


def loop_cond_runtime():
    # The body's condition depends on the data.
    body_cond = helper.make_node("ReduceSum", ["y_in"], ["sum"], name="sum0", keepdims=0)
    m = loop_model("loop_cond_runtime", 3, body_cond)
    body = m.graph.node[0].attribute[0].g
    body.node.insert(1, helper.make_node("Less", ["sum", "hundred"], ["cond_out"], name="lt0"))
    body.initializer.append(init("hundred", np.array(100, np.float32)))
    return m


def loop_zero_scan():
    return loop_model("loop_zero_scan", 0,
                      helper.make_node("Identity", ["cond_in"], ["cond_out"]), scan=True)


def scan_model(name, lengths, opset=17, seq_lens=False):
    # A Scan summing its scan inputs (of lengths `lengths` along axis 0) into a state.
    n = len(lengths)
    xs = [f"x{j}" for j in range(n)]
    adds = [helper.make_node("Add", ["s_in" if j == 0 else f"a{j - 1}", f"{x}_t"],
                             ["s_out" if j == n - 1 else f"a{j}"], name=f"add{j}")
            for j, x in enumerate(xs)]
    body = helper.make_graph(adds, "body", [vi("s_in", [3])] + [vi(f"{x}_t", [3]) for x in xs],
                             [vi("s_out", [3])])
    inputs = [vi(x, [length, 3]) for x, length in zip(xs, lengths)]
    node_inputs = ["s0"] + xs
    if opset < 9:
        inputs = [vi(x, [1, length, 3]) for x, length in zip(xs, lengths)]
        node_inputs = ["lens" if seq_lens else ""] + node_inputs
        if seq_lens:
            inputs.append(vi("lens", [1], TensorProto.INT32))
    nodes = [helper.make_node("Scan", node_inputs, ["s"], name="scan0", body=body,
                              num_scan_inputs=n)]
    state = [1, 3] if opset < 9 else [3]
    return model(name, nodes, [vi("s0", state)] + inputs, [vi("s", state)], opset=opset)


def scan_dynamic():
    # The scan axis has a symbolic length.
    return scan_model("scan_dynamic", ["steps"])


def scan_lengths():
    # Two scan inputs of different lengths.
    return scan_model("scan_lengths", [4, 5])


def scan_long():
    return scan_model("scan_long", [5000])


def scan_seq_lens():
    # Opset 8 with sequence_lens a run-time input.
    return scan_model("scan_seq_lens", [4], opset=8, seq_lens=True)


def causal_conv_activation():
    # CausalConvWithState (opset 27) with an activation ONNX does not define for it.
    nodes = [helper.make_node("CausalConvWithState", ["x", "w"], ["y"], name="cconv0",
                              activation="relu")]
    return model("causal_conv_activation", nodes, [vi("x", [1, 2, 5])], [vi("y", [1, 2, 5])],
                 [init("w", np.ones((2, 1, 3), np.float32))], opset=27)


def linear_attention(name, inputs, **attrs):
    nodes = [helper.make_node("LinearAttention", inputs, ["y"], name="linattn0", **attrs)]
    return model(name, nodes, [vi(x, [1, 2, 8]) for x in inputs if x],
                 [vi("y", [1, 2, 8])], opset=27)


def linear_attention_heads():
    # 3 query heads cannot share 2 key/value heads.
    return linear_attention("linear_attention_heads", ["q", "k", "v"], q_num_heads=3,
                            kv_num_heads=2, update_rule="linear")


def linear_attention_decay():
    # The default update rule (gated_delta) without its decay input.
    return linear_attention("linear_attention_decay", ["q", "k", "v", "", "", "beta"],
                            q_num_heads=2, kv_num_heads=2)


def flex_attention(name, q_heads, **attrs):
    nodes = [helper.make_node("FlexAttention", ["q", "k", "v"], ["y"], name="flex0",
                              domain="ai.onnx.preview", **attrs)]
    return model(name, nodes, [vi("q", [1, q_heads, 2, 4]), vi("k", [1, 2, 3, 4]),
                               vi("v", [1, 2, 3, 4])], [vi("y", [1, q_heads, 2, 4])], opset=26,
                 extra_opsets=[("ai.onnx.preview", 1)])


def flex_heads():
    # 3 query heads cannot share 2 key/value heads.
    return flex_attention("flex_heads", 3)


def flex_mod_inputs():
    # A score_mod of two inputs.
    mod = helper.make_graph([helper.make_node("Add", ["s", "t"], ["o"], name="add0")], "mod",
                            [vi("s", [1, 2, 2, 3]), vi("t", [1, 2, 2, 3])],
                            [vi("o", [1, 2, 2, 3])])
    return flex_attention("flex_mod_inputs", 2, score_mod=mod)


def flex_mod_shape():
    # A prob_mod that changes the shape.
    mod = helper.make_graph([helper.make_node("ReduceSum", ["p"], ["o"], name="sum0",
                                              keepdims=0)], "mod",
                            [vi("p", [1, 2, 2, 3])], [vi("o", [])])
    return flex_attention("flex_mod_shape", 2, prob_mod=mod)


def tensor_scatter(name, **attrs):
    nodes = [helper.make_node("TensorScatter", ["past", "update"], ["present"], name="scatter0",
                              **attrs)]
    return model(name, nodes, [vi("past", [2, 4, 3]), vi("update", [2, 1, 3])],
                 [vi("present", [2, 4, 3])], opset=24)


def tensor_scatter_axis():
    # The batch axis is not a sequence axis.
    return tensor_scatter("tensor_scatter_axis", axis=0)


def tensor_scatter_mode():
    return tensor_scatter("tensor_scatter_mode", mode="ring")


def roi_align_mode():
    nodes = [helper.make_node("RoiAlign", ["x", "rois", "idx"], ["y"], name="roi0",
                              mode="median")]
    return model("roi_align_mode", nodes,
                 [vi("x", [1, 1, 4, 4]), vi("rois", [1, 4]), vi("idx", [1], TensorProto.INT64)],
                 [vi("y", [1, 1, 1, 1])], opset=16)


def maxunpool_kernel():
    # A 1-d kernel_shape for a 2-d MaxUnpool.
    nodes = [helper.make_node("MaxUnpool", ["x", "i"], ["y"], name="unpool0", kernel_shape=[2])]
    return model("maxunpool_kernel", nodes,
                 [vi("x", [1, 1, 2, 2]), vi("i", [1, 1, 2, 2], TensorProto.INT64)],
                 [vi("y", [1, 1, 3, 3])], opset=12)


def fusedmatmul_batch():
    nodes = [helper.make_node("FusedMatMul", ["a", "b"], ["y"], name="fmm0",
                              domain="com.microsoft", transBatchA=1)]
    return model("fusedmatmul_batch", nodes, [vi("a", [2, 3, 4]), vi("b", [3, 4, 5])],
                 [vi("y", None)], extra_opsets=[("com.microsoft", 1)])


def bad_attention(name, op, inputs, shapes, outputs=("y",), **attrs):
    """An error fixture: one com.microsoft attention node `name` on inputs of `shapes` (int32
    where the name says mask)."""
    def fn():
        infos = [vi(i, s, TensorProto.INT32 if "mask" in i or "ids" in i else F32)
                 for i, s in zip(inputs, shapes) if i]
        node = helper.make_node(op, list(inputs), list(outputs), name=name,
                                domain="com.microsoft", **attrs)
        return model(name, [node], infos, [vi(o, None) for o in outputs if o],
                     extra_opsets=[("com.microsoft", 1)])
    fn.__name__ = name
    return fn


X, W = [2, 5, 8], [8, 24]
BAD_ATTENTION = [
    bad_attention("att_heads", "Attention", ["x", "w"], [X, W]),
    bad_attention("att_rotary", "Attention", ["x", "w"], [X, W], num_heads=2, do_rotary=1),
    bad_attention("att_sizes", "Attention", ["x", "w"], [X, [8, 20]], num_heads=2),
    bad_attention("att_mask4", "Attention", ["x", "w", "", "mask"], [X, W, None, [2, 1, 5, 5]],
                  num_heads=2),
    bad_attention("att_masklen", "Attention", ["x", "w", "", "mask"], [X, W, None, [3]],
                  num_heads=2),
    bad_attention("att_share", "Attention", ["x", "w"], [X, W], num_heads=2,
                  past_present_share_buffer=1),
    bad_attention("mha_packed", "MultiHeadAttention", ["x"], [X], num_heads=2),
    bad_attention("mha_qk", "MultiHeadAttention", ["x", "k", "v"], [X, X, X],
                  outputs=("y", "", "", "qk"), num_heads=2),
    bad_attention("mha_bnsh_past", "MultiHeadAttention",
                  ["x", "k", "v", "", "", "", "pk", "pv"],
                  [X, [2, 2, 5, 4], [2, 2, 5, 4], None, None, None, [2, 2, 3, 4], [2, 2, 3, 4]],
                  num_heads=2),
    bad_attention("mha_kv_rank", "MultiHeadAttention", ["x", "k", "v"], [X, X, [2, 2, 5, 4]],
                  num_heads=2),
    bad_attention("mha_past_pair", "MultiHeadAttention", ["x", "k", "v", "", "", "", "pk"],
                  [X, X, X, None, None, None, [2, 2, 3, 4]], num_heads=2),
    bad_attention("mha_bias_dims", "MultiHeadAttention", ["x", "k", "v", "b"],
                  [[2, 5, "hidden"], X, X, [24]], num_heads=2),
    bad_attention("embed_segments", "EmbedLayerNormalization",
                  ["ids", "segids", "word", "pos", "", "gamma", "beta"],
                  [[2, 5], [2, 5], [10, 8], [16, 8], None, [8], [8]], outputs=("y",)),
]


def quant_zero_scale():
    # A constant y_scale of 0: quantizing would divide by zero.
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name="quant0")]
    return model("quant_zero_scale", nodes, [vi("x", [1, 4])],
                 [vi("y", [1, 4], TensorProto.UINT8)],
                 [init("s", np.array(0.0, np.float32)), init("z", np.array(3, np.uint8))])


def qconv_negative_scale():
    # A per-channel w_scale with a negative entry.
    u8 = TensorProto.UINT8
    nodes = [helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"],
                              name="qconv0")]
    return model("qconv_negative_scale", nodes, [vi("x", [1, 1, 3, 3], u8)],
                 [vi("y", [1, 2, 2, 2], u8)],
                 [init("xs", np.array(0.1, np.float32)), init("xz", np.array(3, np.uint8)),
                  init("w", np.ones((2, 1, 2, 2), np.uint8)),
                  init("ws", np.array([0.5, -0.25], np.float32)),
                  init("wz", np.array(0, np.uint8)), init("ys", np.array(0.2, np.float32)),
                  init("yz", np.array(5, np.uint8))])


def qlinear_concat_inputs():
    # QLinearConcat with an input triple cut short (Y_scale, Y_zero_point, X, X_scale).
    u8 = TensorProto.UINT8
    nodes = [helper.make_node("QLinearConcat", ["ys", "yz", "x", "xs"], ["y"], axis=1,
                              domain="com.microsoft", name="qconcat0")]
    return model("qlinear_concat_inputs", nodes, [vi("x", [1, 2], u8)], [vi("y", [1, 2], u8)],
                 [init("ys", np.array(0.1, np.float32)), init("yz", np.array(0, np.uint8)),
                  init("xs", np.array(0.1, np.float32))], extra_opsets=[("com.microsoft", 1)])


def qlinear_gap_rank():
    # QLinearGlobalAveragePool, channels_last, on a rank-2 input: no spatial dims.
    u8 = TensorProto.UINT8
    nodes = [helper.make_node("QLinearGlobalAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"],
                              channels_last=1, domain="com.microsoft", name="qgap0")]
    return model("qlinear_gap_rank", nodes, [vi("x", [1, 8], u8)], [vi("y", [1, 8], u8)],
                 [init("xs", np.array(0.1, np.float32)), init("xz", np.array(0, np.uint8)),
                  init("ys", np.array(0.1, np.float32)), init("yz", np.array(0, np.uint8))],
                 extra_opsets=[("com.microsoft", 1)])


def qlinear_gap_rank2():
    # QLinearGlobalAveragePool, channels first, on a rank-2 input: no spatial dims.
    u8 = TensorProto.UINT8
    nodes = [helper.make_node("QLinearGlobalAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"],
                              domain="com.microsoft", name="qgap1")]
    return model("qlinear_gap_rank2", nodes, [vi("x", [1, 8], u8)], [vi("y", [1, 8], u8)],
                 [init("xs", np.array(0.1, np.float32)), init("xz", np.array(0, np.uint8)),
                  init("ys", np.array(0.1, np.float32)), init("yz", np.array(0, np.uint8))],
                 extra_opsets=[("com.microsoft", 1)])


def dqmm_inputs():
    # DynamicQuantizeMatMul without its B and b_scale inputs.
    nodes = [helper.make_node("DynamicQuantizeMatMul", ["x"], ["y"], domain="com.microsoft",
                              name="dqmm0")]
    return model("dqmm_inputs", nodes, [vi("x", [2, 4])], [vi("y", [2, 3])],
                 extra_opsets=[("com.microsoft", 1)])


def dqlstm_scales():
    # DynamicQuantizeLSTM with its quantized weights but without their scales and zero points.
    nodes = [helper.make_node("DynamicQuantizeLSTM", ["x", "w", "r"], ["y"],
                              domain="com.microsoft", name="dqlstm0", hidden_size=2)]
    return model("dqlstm_scales", nodes, [vi("x", [3, 1, 4])], [vi("y", [3, 1, 1, 2])],
                 [init("w", np.ones((1, 4, 8), np.int8)), init("r", np.ones((1, 2, 8), np.int8))],
                 extra_opsets=[("com.microsoft", 1)])


def qattention_inputs():
    # QAttention without its bias and scales.
    nodes = [helper.make_node("QAttention", ["x", "w"], ["y"], domain="com.microsoft",
                              name="qatt0", num_heads=2)]
    return model("qattention_inputs", nodes, [vi("x", [1, 3, 4], TensorProto.UINT8)],
                 [vi("y", [1, 3, 4])], [init("w", np.ones((4, 12), np.int8))],
                 extra_opsets=[("com.microsoft", 1)])


def qembed_scales():
    # QEmbedLayerNormalization whose quantized word embedding has no scale.
    nodes = [helper.make_node("QEmbedLayerNormalization",
                              ["ids", "", "word", "pos", "", "gamma"], ["y"],
                              domain="com.microsoft", name="qembed0")]
    return model("qembed_scales", nodes, [vi("ids", [1, 3], TensorProto.INT32)],
                 [vi("y", [1, 3, 4])],
                 [init("word", np.ones((5, 4), np.uint8)), init("pos", np.ones((3, 4), np.uint8)),
                  init("gamma", np.ones(4, np.uint8))], extra_opsets=[("com.microsoft", 1)])


BAD += [external_escape, external_absolute, external_short, quant_zero_scale,
        qconv_negative_scale, qlinear_concat_inputs, qlinear_gap_rank,
        qlinear_gap_rank2, dqmm_inputs, dqlstm_scales, qattention_inputs, qembed_scales]
BAD += [if_unsafe, if_branch_shapes, loop_runtime, loop_long, loop_cond_runtime, loop_zero_scan,
        scan_dynamic, scan_lengths, scan_long, scan_seq_lens, causal_conv_activation,
        linear_attention_heads, linear_attention_decay, flex_heads, flex_mod_inputs, flex_mod_shape,
        tensor_scatter_axis, tensor_scatter_mode, roi_align_mode, maxunpool_kernel,
        contrib_mean, contrib_unknown, fusedmatmul_batch, function_recursive,
        fusedconv_activation, fusedconv_clip] + BAD_ATTENTION


SYMBOLIC_DIM = 2  # value fed for a dim_param (e.g. "batch") when checking


# Output dims named as a multiple of the symbolic dim ("rows" of batch_rows).
SYMBOLIC_MULTIPLES = {"rows": 2}


def dims_of(info):
    # dim_value -1: an exporter's unknown dim (unknown_dims), run as a symbolic one.
    return [d.dim_value if d.HasField("dim_value") and d.dim_value >= 0
            else SYMBOLIC_DIM * SYMBOLIC_MULTIPLES.get(d.dim_param, 1)
            for d in info.type.tensor_type.shape.dim]


def random_feeds(m, seed=0):
    r = rng(seed)
    feeds = {}
    for v in m.graph.input:
        dtype = helper.tensor_dtype_to_np_dtype(v.type.tensor_type.elem_type)
        if np.issubdtype(dtype, np.integer):
            feeds[v.name] = r.integers(0, 4, dims_of(v)).astype(dtype)
        else:
            feeds[v.name] = r.standard_normal(dims_of(v)).astype(dtype)
        if v.name in FIXED_FEEDS.get(m.graph.name, {}):
            feeds[v.name] = np.array(FIXED_FEEDS[m.graph.name][v.name], dtype)
    return feeds


# Inputs a fixture's check must give a value of its own (a condition's input).
FIXED_FEEDS = {"if_branch_runtime": {"sr": 16000, "x": np.ones((4, 6))}}


# Valid for onnxruntime but not for onnx.checker (ops onnxruntime adds to the default domain; a
# branch the checker's shape inference refuses, which onnxruntime never runs).
ORT_ONLY = {"contrib_ops", "contrib_conv", "contrib_attention", "contrib_mha",
            "if_branch_runtime"}


def check(path, m):
    """onnx.checker (with shape inference) and one onnxruntime run of a valid fixture."""
    import onnxruntime as ort

    if m.graph.name not in ORT_ONLY:
        onnx.checker.check_model(path, full_check=True)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    outs = sess.run(None, random_feeds(m))
    for o, info in zip(outs, m.graph.output):
        want = dims_of(info)
        # A data-dependent dim (NonZero's "count") is whatever the data gives, and so is one
        # that strided layers compute from a symbolic dim (bounded_strided's "cols").
        got = [w if d.dim_param in ("count", "cols") else g
               for g, w, d in zip(o.shape, want, info.type.tensor_type.shape.dim)]
        assert len(o.shape) == len(want) and got == want, f"{path}: {info.name} shape {o.shape} != {want}"
        assert np.isfinite(o).all(), f"{path}: {info.name} not finite"


def parses(path):
    try:
        onnx.load(path)
        return True
    except Exception:
        return False


def assert_small(fn, path):
    """Fixtures stay small enough to read in a diff; conv_winograd's weights
    are the least that tcc runs as Winograd."""
    limit = 80_000 if fn is conv_winograd else 20_000
    assert os.path.getsize(path) < limit, path

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out_dir", nargs="?", default=os.path.join(HERE, "Inputs"))
    ap.add_argument("--no-check", action="store_true", help="skip onnx.checker/onnxruntime")
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)

    def out(name):
        return os.path.join(args.out_dir, name)

    for fn in VALID + CHECKED:
        m = fn()
        path = out(fn.__name__ + ".onnx")
        onnx.save(m, path)
        assert_small(fn, path)
        if not args.no_check:
            check(path, m)
        print(f"wrote {path}{'' if args.no_check else ' (checked)'}")

    with open(out("not_onnx.onnx"), "w") as f:
        f.write("This is a text file, not an ONNX model.\n")
    data = conv().SerializeToString()
    with open(out("truncated.onnx"), "wb") as f:
        f.write(data[: len(data) // 2])
    for bad in ("not_onnx.onnx", "truncated.onnx"):
        if parses(out(bad)):
            raise SystemExit(f"error: {bad} parses as an ONNX model")
    onnx.save(unsupported(), out("unsupported.onnx"))
    # Parameter inputs for --bind (random data would not make valid shapes).
    onnx.save(reshape_shape_input(), out("reshape_shape_input.onnx"))
    np.save(out("reshape_shape.npy"), np.array([3, 4], dtype=np.int64))
    np.save(out("reshape_shape_i32.npy"), np.array([3, 4], dtype=np.int32))
    np.save(out("reshape_shape_3d.npy"), np.array([3, 2, 2], dtype=np.int64))
    np.save(out("reshape_x.npy"), np.arange(12, dtype=np.float32).reshape(2, 6))
    print(f"wrote {out('not_onnx.onnx')}, {out('truncated.onnx')}, {out('unsupported.onnx')}")

    x = rng(10).standard_normal((1, 3, 8, 8)).astype(np.float32)
    np.save(out("conv_input.npy"), x)
    np.save(out("conv_input_bad.npy"), rng(11).standard_normal((1, 3, 8, 7)).astype(np.float32))
    print(f"wrote {out('conv_input.npy')} (1x3x8x8), {out('conv_input_bad.npy')} (1x3x8x7)")

    # A valid model whose weights live in a file beside it (written raw: onnx.save would
    # rewrite the external data).
    with open(out("external_ok.bin"), "wb") as f:
        f.write(bytes(16) + EXTERNAL_W.tobytes() + bytes(8))
    with open(out("external_ok.onnx"), "wb") as f:
        f.write(external_ok().SerializeToString())
    if not args.no_check:
        check(out("external_ok.onnx"), external_ok())
    print(f"wrote {out('external_ok.onnx')} and external_ok.bin")

    for fn in BAD:  # raw bytes: onnx.save would try to resolve external_data.onnx's w.bin
        path = out(fn.__name__ + ".onnx")
        with open(path, "wb") as f:
            f.write(fn().SerializeToString())
        assert_small(fn, path)
    print(f"wrote {len(BAD)} error fixtures: {', '.join(fn.__name__ + '.onnx' for fn in BAD)}")

    np.save(out("conv_input_f64.npy"), x.astype(np.float64))
    np.save(out("conv_input_fortran.npy"), np.asfortranarray(x))
    with open(out("conv_input_fortran.npy"), "rb") as f:
        np.lib.format.read_magic(f)
        assert np.lib.format.read_array_header_1_0(f)[1], "conv_input_fortran.npy not fortran_order"
    with open(out("conv_input.npy"), "rb") as f:
        npy = f.read()
    with open(out("conv_input_truncated.npy"), "wb") as f:
        f.write(npy[:-10])
    with open(out("conv_input.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    print(f"wrote {out('conv_input_f64.npy')}, {out('conv_input_fortran.npy')}, "
          f"{out('conv_input_truncated.npy')}, {out('conv_input.pb')}")


if __name__ == "__main__":
    main()
