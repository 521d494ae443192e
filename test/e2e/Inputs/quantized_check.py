"""quantized_check.py OUT_DIR TCC [TCC_RUN_ARGS...] - quantized ONNX graphs (onnxruntime's QOperator format and its
com.microsoft ops, dynamic quantization's 3-D MatMulInteger, an 8-bit MaxPool), run by tcc (tcc
run) and onnxruntime on seeded inputs. The 8-bit outputs must equal onnxruntime's or differ by one
quantization step, on at least 99.9% of the elements (the two round differently where a value
falls about halfway between two steps); float outputs within 1e-5 of the largest. Prints one line
per model and 'quantized_check: OK'."""
import os
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T, helper as h, numpy_helper as nh

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "utils"))
import int8_flip  # noqa: E402

out, tcc = sys.argv[1:3]
tcc_args = sys.argv[3:]  # for tcc run: --mcpu x86-64-v3
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
MS = [h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)]


def c(name, v):
    return nh.from_array(np.asarray(v), name)


def save(name, nodes, inputs, outputs, inits):
    m = h.make_model(h.make_graph(nodes, name, inputs, outputs, inits), opset_imports=MS)
    path = os.path.join(out, name + ".onnx")
    onnx.save(m, path)
    return path


def q(name, shape, t=T.UINT8):
    return h.make_tensor_value_info(name, t, shape)


def ms(op, inputs, outputs, **attrs):
    return h.make_node(op, inputs, outputs, domain="com.microsoft", name=op.lower(), **attrs)


u8 = lambda *s: rng.integers(0, 256, s).astype(np.uint8)  # noqa: E731
s8 = lambda *s: rng.integers(-127, 128, s).astype(np.int8)  # noqa: E731
scale = lambda v: np.array(v, np.float32)  # noqa: E731
cases = []

# QLinearConv (per-channel weights) -> a depthwise QLinearConv -> QLinearAdd with the input ->
# QLinearGlobalAveragePool -> QGemm (float out), as quantize_static's QOperator ResNets and
# MobileNets have them.
cases.append(("qop_block", save("qop_block", [
    h.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["c"],
                pads=[1, 1, 1, 1], name="conv"),
    h.make_node("QLinearConv", ["c", "ys", "yz", "dw", "dws", "wz", "ds", "dz", "db"], ["d"],
                pads=[1, 1, 1, 1], group=8, name="dwconv"),
    ms("QLinearAdd", ["d", "ds", "dz", "x", "xs", "xz", "as", "az"], ["a"]),
    ms("QLinearGlobalAveragePool", ["a", "as", "az", "ps", "pz"], ["p"], channels_last=0),
    h.make_node("Flatten", ["p"], ["f"], name="flatten"),
    ms("QGemm", ["f", "ps", "pz", "g", "gs", "gz", "gb"], ["y"], transB=1, alpha=1.0),
], [q("x", [4, 8, 6, 6])], [h.make_tensor_value_info("y", T.FLOAT, [4, 5]), q("p", [4, 8, 1, 1])],
    [c("xs", scale(0.02)), c("xz", np.uint8(128)), c("w", s8(8, 8, 3, 3)),
     c("ws", (rng.random(8) * 0.01 + 0.002).astype(np.float32)), c("wz", np.zeros(8, np.int8)),
     c("ys", scale(0.05)), c("yz", np.uint8(120)), c("b", rng.integers(-500, 500, 8).astype(np.int32)),
     c("as", scale(0.06)), c("az", np.uint8(125)), c("ps", scale(0.01)), c("pz", np.uint8(128)),
     c("g", s8(5, 8)), c("gs", (rng.random(5) * 0.01 + 0.001).astype(np.float32)),
     c("gz", np.zeros(5, np.int8)), c("gb", rng.integers(-300, 300, 5).astype(np.int32)),
     c("dw", s8(8, 1, 3, 3)), c("dws", (rng.random(8) * 0.02 + 0.005).astype(np.float32)),
     c("ds", scale(0.04)), c("dz", np.uint8(128)),
     c("db", rng.integers(-400, 400, 8).astype(np.int32))]),
    {"x": u8(4, 8, 6, 6)}))
# QLinearMul, QLinearSigmoid, QLinearLeakyRelu, QLinearConcat; an 8-bit MaxPool.
cases.append(("qop_elementwise", save("qop_elementwise", [
    ms("QLinearMul", ["x", "xs", "xz", "x2", "xs", "xz", "ms", "mz"], ["m"]),
    ms("QLinearSigmoid", ["m", "ms", "mz", "ss", "sz"], ["s"]),
    ms("QLinearLeakyRelu", ["x", "xs", "xz", "ls", "lz"], ["l"], alpha=0.1),
    ms("QLinearConcat", ["ys", "yz", "s", "ss", "sz", "l", "ls", "lz"], ["y"], axis=1),
    h.make_node("MaxPool", ["y"], ["p"], kernel_shape=[2, 2], strides=[2, 2], name="pool"),
], [q("x", [1, 4, 6, 6]), q("x2", [1, 4, 6, 6])], [q("p", [1, 8, 3, 3])],
    [c("xs", scale(0.03)), c("xz", np.uint8(100)), c("ms", scale(0.2)), c("mz", np.uint8(10)),
     c("ss", scale(1 / 256)), c("sz", np.uint8(0)), c("ls", scale(0.02)), c("lz", np.uint8(30)),
     c("ys", scale(0.02)), c("yz", np.uint8(20))]),
    {"x": u8(1, 4, 6, 6), "x2": u8(1, 4, 6, 6)}))
# quantize_dynamic's MatMulInteger: [batch, seq, k] u8 activations by [k, n] int8 weights.
cases.append(("dyn_matmul", save("dyn_matmul", [
    h.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"], name="dql"),
    h.make_node("MatMulInteger", ["xq", "w", "xz"], ["acc"], name="mmi"),
    h.make_node("Cast", ["acc"], ["accf"], to=T.FLOAT, name="cast"),
    h.make_node("Mul", ["xs", "ws"], ["s"], name="scale"),
    h.make_node("Mul", ["accf", "s"], ["y"], name="dequant"),
], [h.make_tensor_value_info("x", T.FLOAT, [2, 7, 32])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 7, 24])],
    [c("w", s8(32, 24)), c("ws", scale(0.004))]),
    {"x": rng.standard_normal((2, 7, 32)).astype(np.float32)}))
# onnxruntime's fusions of dynamic quantization (what its optimizer writes into saved files):
# DynamicQuantizeMatMul with a bias, MatMulIntegerToFloat of uint8 activations with zero points
# and per-column weight scales.
cases.append(("dyn_fused", save("dyn_fused", [
    ms("DynamicQuantizeMatMul", ["x", "w", "ws", "", "bias"], ["y"]),
    ms("MatMulIntegerToFloat", ["a", "w", "as", "wcs", "az", "", "bias"], ["z"]),
], [h.make_tensor_value_info("x", T.FLOAT, [2, 7, 32]), q("a", [2, 7, 32])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 7, 24]),
     h.make_tensor_value_info("z", T.FLOAT, [2, 7, 24])],
    [c("w", s8(32, 24)), c("ws", scale(0.004)), c("as", scale(0.03)), c("az", np.uint8(120)),
     c("wcs", (rng.random(24) * 0.004 + 0.001).astype(np.float32)),
     c("bias", rng.standard_normal(24).astype(np.float32))]),
    {"x": rng.standard_normal((2, 7, 32)).astype(np.float32), "a": u8(2, 7, 32)}))

# quantize_static's QDQ convolutions, which tcc runs as ConvInteger on 8-bit dot products where
# the CPU has them: 3 input channels (padded to a quad), a 7x7 stride-2 one with an int32 bias and
# weights per channel, a dilated 3x3 one of per-tensor weights reading a zero point of 7 (so
# padding is not 0), a 1x1 one; a batch of 2.
def qdq(name, t, s, z):
    return [h.make_node("QuantizeLinear", [t, s, z], [t + "_q"], name=name + "_q"),
            h.make_node("DequantizeLinear", [t + "_q", s, z], [t + "_d"], name=name + "_dq")]


def weights(name, shape, ws):
    return [h.make_node("DequantizeLinear", [name, ws, name + "_z"], [name + "_d"], axis=0,
                        name=name + "_dq")]


w1s = (rng.random(6) * 0.002 + 0.001).astype(np.float32)
cases.append(("qdq_convs", save("qdq_convs", [
    *qdq("in", "x", "xs", "xz"),
    *weights("w1", [6, 3, 7, 7], "w1s"), *weights("w2", [8, 6, 3, 3], "w2s"),
    *weights("w3", [5, 8, 1, 1], "w3s"),
    h.make_node("DequantizeLinear", ["b1", "b1s"], ["b1_d"], axis=0, name="b1_dq"),
    h.make_node("Conv", ["x_d", "w1_d", "b1_d"], ["c1"], strides=[2, 2], pads=[3, 3, 3, 3],
                name="conv1"),
    *qdq("c1", "c1", "c1s", "c1z"),
    h.make_node("Conv", ["c1_d", "w2_d"], ["c2"], dilations=[2, 2], pads=[2, 2, 2, 2],
                name="conv2"),
    *qdq("c2", "c2", "c2s", "c2z"),
    h.make_node("Conv", ["c2_d", "w3_d"], ["c3"], name="conv3"),
    h.make_node("QuantizeLinear", ["c3", "ys", "yz"], ["y"], name="out_q"),
], [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 17, 19])], [q("y", [2, 5, 9, 10])],
    [c("xs", scale(0.02)), c("xz", np.uint8(128)),
     c("w1", s8(6, 3, 7, 7)), c("w1s", w1s), c("w1_z", np.zeros(6, np.int8)),
     c("b1", rng.integers(-2000, 2000, 6).astype(np.int32)), c("b1s", w1s * np.float32(0.02)),
     c("c1s", scale(0.05)), c("c1z", np.uint8(7)),
     c("w2", s8(8, 6, 3, 3)), c("w2s", scale(0.002)), c("w2_z", np.int8(0)),
     c("c2s", scale(0.04)), c("c2z", np.uint8(0)),
     c("w3", s8(5, 8, 1, 1)), c("w3s", (rng.random(5) * 0.003 + 0.001).astype(np.float32)),
     c("w3_z", np.zeros(5, np.int8)), c("ys", scale(0.03)), c("yz", np.uint8(100))]),
    {"x": rng.standard_normal((2, 3, 17, 19)).astype(np.float32)}))

# quantize_static's QDQ classifier: a Gemm of per-column int8 weights (transposed) with an int32
# bias, quantized, dequantized into a float output (onnxruntime's QGemm, rounded once).
wgs = (rng.random(10) * 0.004 + 0.001).astype(np.float32)
cases.append(("qdq_gemm", save("qdq_gemm", [
    *qdq("in", "x", "xs", "xz"),
    *weights("wg", [10, 64], "wgs"),
    h.make_node("DequantizeLinear", ["bg", "bgs"], ["bg_d"], axis=0, name="bg_dq"),
    h.make_node("Gemm", ["x_d", "wg_d", "bg_d"], ["g"], transB=1, name="fc"),
    *qdq("g", "g", "ys", "yz"),
    h.make_node("Identity", ["g_d"], ["y"], name="out"),
], [h.make_tensor_value_info("x", T.FLOAT, [4, 64])], [h.make_tensor_value_info("y", T.FLOAT, [4, 10])],
    [c("xs", scale(0.02)), c("xz", np.uint8(128)), c("wg", s8(10, 64)), c("wgs", wgs),
     c("wg_z", np.zeros(10, np.int8)), c("bg", rng.integers(-3000, 3000, 10).astype(np.int32)),
     c("bgs", wgs * np.float32(0.02)), c("ys", scale(0.05)), c("yz", np.uint8(120))]),
    {"x": rng.standard_normal((4, 64)).astype(np.float32)}))

# A QDQ transformer projection: [batch, seq, k] activations by [k, n] weights per column
# (onnxruntime's QLinearMatMul).
wms = (rng.random(24) * 0.004 + 0.001).astype(np.float32)
cases.append(("qdq_matmul", save("qdq_matmul", [
    *qdq("in", "x", "xs", "xz"),
    h.make_node("DequantizeLinear", ["wm", "wms", "wm_z"], ["wm_d"], axis=1, name="wm_dq"),
    h.make_node("MatMul", ["x_d", "wm_d"], ["m"], name="proj"),
    *qdq("m", "m", "ys", "yz"),
    h.make_node("Identity", ["m_d"], ["y"], name="out"),
], [h.make_tensor_value_info("x", T.FLOAT, [2, 7, 32])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 7, 24])],
    [c("xs", scale(0.02)), c("xz", np.uint8(128)), c("wm", s8(32, 24)), c("wms", wms),
     c("wm_z", np.zeros(24, np.int8)), c("ys", scale(0.03)), c("yz", np.uint8(128))]),
    {"x": rng.standard_normal((2, 7, 32)).astype(np.float32)}))

# int8 activations (quantize_static's default, S8S8): QDQ convolutions with a residual QDQ Add,
# zero points other than 0, a dequantized float output. onnxruntime fuses some such groups into its
# int8 kernels and leaves others in float; the reference is its run of the same graph with the
# int8 activations flipped to uint8 (utils/int8_flip.py: the same values), which it fuses
# throughout, as tcc does.
w4s = (rng.random(8) * 0.002 + 0.001).astype(np.float32)
cases.append(("qdq_s8", save("qdq_s8", [
    *qdq("in", "x", "xs", "xz"),
    *weights("w4", [8, 3, 3, 3], "w4s"), *weights("w5", [8, 8, 3, 3], "w5s"),
    h.make_node("Conv", ["x_d", "w4_d"], ["c4"], pads=[1, 1, 1, 1], name="conv4"),
    *qdq("c4", "c4", "c4s", "c4z"),
    h.make_node("Conv", ["c4_d", "w5_d"], ["c5"], pads=[1, 1, 1, 1], name="conv5"),
    *qdq("c5", "c5", "c5s", "c5z"),
    h.make_node("Add", ["c4_d", "c5_d"], ["r"], name="residual"),
    *qdq("r", "r", "rs", "rz"),
    h.make_node("Identity", ["r_d"], ["y"], name="out"),
], [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 12, 13])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 8, 12, 13])],
    [c("xs", scale(0.02)), c("xz", np.int8(-3)),
     c("w4", s8(8, 3, 3, 3)), c("w4s", w4s), c("w4_z", np.zeros(8, np.int8)),
     c("c4s", scale(0.04)), c("c4z", np.int8(-128)),
     c("w5", s8(8, 8, 3, 3)), c("w5s", scale(0.002)), c("w5_z", np.int8(0)),
     c("c5s", scale(0.05)), c("c5z", np.int8(5)), c("rs", scale(0.06)), c("rz", np.int8(-20))]),
    {"x": rng.standard_normal((2, 3, 12, 13)).astype(np.float32)}))

# quantize_dynamic on a model of onnxruntime's transformers optimizer: QEmbedLayerNormalization
# (uint8 embeddings, gamma and beta), DynamicQuantizeLinear, QAttention (int8 weights, 2 heads)
# masked by the embedding's mask index, the second row padded after 3 of 5 tokens.
mask = np.ones((2, 5), np.int32)
mask[1, 3:] = 0
cases.append(("qattention", save("qattention", [
    ms("QEmbedLayerNormalization", ["ids", "seg", "word", "pos", "segw", "gamma", "beta", "mask",
                                    "word_s", "pos_s", "segw_s", "gamma_s", "beta_s", "word_z",
                                    "pos_z", "segw_z", "gamma_z", "beta_z"], ["e", "mi"],
       epsilon=1e-5),
    h.make_node("DynamicQuantizeLinear", ["e"], ["eq", "es", "ez"], name="dql"),
    ms("QAttention", ["eq", "wqkv", "bqkv", "es", "wqkv_s", "mi", "ez", "wqkv_z"], ["y"],
       num_heads=2),
], [h.make_tensor_value_info("ids", T.INT32, [2, 5]),
    h.make_tensor_value_info("seg", T.INT32, [2, 5]),
    h.make_tensor_value_info("mask", T.INT32, [2, 5])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 5, 8])],
    [c("word", u8(20, 8)), c("pos", u8(16, 8)), c("segw", u8(2, 8)), c("gamma", u8(8)),
     c("beta", u8(8)), c("word_s", scale(0.01)), c("pos_s", scale(0.005)),
     c("segw_s", scale(0.004)), c("gamma_s", scale(0.008)), c("beta_s", scale(0.002)),
     c("word_z", np.uint8(128)), c("pos_z", np.uint8(120)), c("segw_z", np.uint8(128)),
     c("gamma_z", np.uint8(0)), c("beta_z", np.uint8(128)), c("wqkv", s8(8, 24)),
     c("bqkv", (rng.standard_normal(24) * 0.1).astype(np.float32)),
     c("wqkv_s", scale(0.02)), c("wqkv_z", np.int8(0))]),
    {"ids": rng.integers(0, 20, (2, 5)).astype(np.int32),
     "seg": rng.integers(0, 2, (2, 5)).astype(np.int32), "mask": mask}))

ok = True
for name, path, feeds in cases:
    args = [tcc, "run", path, "--output-dir", os.path.join(out, name), *tcc_args]
    for k, v in feeds.items():
        np.save(os.path.join(out, f"{name}_{k}.npy"), v)
        args += ["--input", f"{k}={os.path.join(out, f'{name}_{k}.npy')}"]
    subprocess.run(args, check=True)
    model = onnx.load(path)
    reference = (int8_flip.uint8_activations(model).SerializeToString()
                 if int8_flip.has_int8_activations(model) else path)
    sess = ort.InferenceSession(reference, providers=["CPUExecutionProvider"])
    for o, want in zip(sess.get_outputs(), sess.run(None, feeds)):
        got = np.load(os.path.join(out, name, o.name + ".npy"))
        if got.dtype != want.dtype:
            print(f"{name}: {o.name}: tcc wrote {got.dtype}, onnxruntime {want.dtype}")
            ok = False
            continue
        if np.issubdtype(want.dtype, np.integer):
            diff = np.abs(got.astype(np.int32) - want.astype(np.int32))
            exact = float((diff == 0).mean())
            good = diff.max() <= 1 and float((diff <= 1).mean()) >= 0.999
            line = f"{100 * exact:.1f}% equal, the rest {int(diff.max())} step(s) apart"
        else:
            err = float(np.abs(got - want).max() / np.abs(want).max())
            good = err <= 1e-5
            line = f"{err:.1e} of the largest"
        ok &= good
        print(f"{name}: {o.name}: {line}: {'ok' if good else 'FAILED'}")
print("quantized_check:", "OK" if ok else "FAILED")
sys.exit(0 if ok else 1)
