"""bf16_check.py OUT_DIR TCC - checks `tcc compile --precision bf16` against numpy.

Single-layer models (MatMul + bias, Gemm with transB, a 3x3 convolution run directly, a 1x1
convolution) with seeded weights: numpy rounds the input and the weights to bf16 (nearest, ties
to even) and sums their products in float64. tcc's outputs must match that to float32
accumulation (2e-5 of the largest output) and be at least 10x further from the float64 result
of the unrounded float32 operands: tcc really computes with bf16 products, as vdpbf16ps does.
Then two-layer models (an MLP; 3x3 convolutions through Winograd), whose hidden activations
tcc rounds from float32 values, against onnxruntime's float32 outputs: within 2e-2 of the
largest output (issue 43's bound). Prints one line per model and 'bf16_check: OK'."""
import os
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

out, tcc = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(43)


def bf16(a):
    """float32 -> the nearest bf16 (ties to even), back as float64."""
    bits = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def conv(x, w, b, pad):
    """NCHW convolution, stride 1, in float64."""
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    y = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            y += np.einsum("nchw,fc->nfhw", xp[:, :, i:i + oh, j:j + ow], w[:, :, i, j])
    return y + b.reshape(1, -1, 1, 1)


def model(name, nodes, x_shape, y_shape, weights):
    inits = [numpy_helper.from_array(v, k) for k, v in weights.items()]
    graph = helper.make_graph(nodes, name,
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)],
                              inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = os.path.join(out, name + ".onnx")
    onnx.save(m, path)
    return path


def run_tcc(path, x, extra=()):
    d = os.path.join(out, os.path.basename(path)[:-5])
    np.save(d + "_x.npy", x)
    subprocess.run([tcc, "run", path, "--precision", "bf16", "--input", f"x={d}_x.npy",
                    "--output-dir", d] + list(extra), check=True)
    return np.load(os.path.join(d, "y.npy")).astype(np.float64)


def w(*shape):
    return (rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]) or 1)).astype(np.float32)


ok = True
cases = []
# x @ W + b (the weights' k runs along pairs).
x = rng.standard_normal((6, 64)).astype(np.float32)
W, b = w(64, 48), w(48)
path = model("matmul", [helper.make_node("MatMul", ["x", "W"], ["m"]),
                        helper.make_node("Add", ["m", "b"], ["y"])], [6, 64], [6, 48],
             {"W": W, "b": b})
cases.append((path, x, bf16(x) @ bf16(W) + b, x.astype(np.float64) @ W + b, []))
# Gemm, transB: weights [n, k], 20 columns (a masked tile).
x = rng.standard_normal((5, 48)).astype(np.float32)
W, c = w(20, 48), w(20)
path = model("gemm", [helper.make_node("Gemm", ["x", "W", "c"], ["y"], transB=1)], [5, 48],
             [5, 20], {"W": W, "c": c})
cases.append((path, x, bf16(x) @ bf16(W).T + c, x.astype(np.float64) @ W.T.astype(np.float64) + c,
              []))
# A 3x3 convolution run directly (channels-last: pairs of input channels).
x = rng.standard_normal((1, 16, 9, 9)).astype(np.float32)
W, b = w(32, 16, 3, 3), w(32)
path = model("conv3", [helper.make_node("Conv", ["x", "W", "b"], ["y"], pads=[1, 1, 1, 1])],
             [1, 16, 9, 9], [1, 32, 9, 9], {"W": W, "b": b})
cases.append((path, x, conv(bf16(x), bf16(W), b, 1), conv(x.astype(np.float64), W, b, 1),
              ["--no-winograd"]))
# A 1x1 convolution (a matmul over the map).
x = rng.standard_normal((1, 32, 7, 7)).astype(np.float32)
W, b = w(24, 32, 1, 1), w(24)
path = model("conv1", [helper.make_node("Conv", ["x", "W", "b"], ["y"])], [1, 32, 7, 7],
             [1, 24, 7, 7], {"W": W, "b": b})
cases.append((path, x, conv(bf16(x), bf16(W), b, 0), conv(x.astype(np.float64), W, b, 0), []))

for path, x, want, exact, extra in cases:
    got = run_tcc(path, x, extra)
    scale = float(np.abs(want).max())
    to_bf16 = float(np.abs(got - want).max()) / scale
    to_f32 = float(np.abs(got - exact).max()) / scale
    good = to_bf16 <= 2e-5 and to_f32 >= 10 * to_bf16 and to_f32 > 1e-4
    ok &= good
    print(f"{os.path.basename(path)[:-5]}: {to_bf16:.1e} from bf16 products, {to_f32:.1e} from "
          f"f32: {'ok' if good else 'FAILED'}")

# Two layers, against onnxruntime's float32 outputs.
x = rng.standard_normal((8, 96)).astype(np.float32)
path = model("mlp", [helper.make_node("MatMul", ["x", "W1"], ["m"]),
                     helper.make_node("Add", ["m", "b1"], ["a"]),
                     helper.make_node("Relu", ["a"], ["h"]),
                     helper.make_node("MatMul", ["h", "W2"], ["y"])], [8, 96], [8, 40],
             {"W1": w(96, 128), "b1": w(128), "W2": w(128, 40)})
cases = [(path, x)]
x = rng.standard_normal((1, 8, 14, 14)).astype(np.float32)
path = model("winograd", [helper.make_node("Conv", ["x", "W1"], ["a"], pads=[1, 1, 1, 1]),
                          helper.make_node("Relu", ["a"], ["h"]),
                          helper.make_node("Conv", ["h", "W2"], ["y"], pads=[1, 1, 1, 1])],
             [1, 8, 14, 14], [1, 16, 14, 14], {"W1": w(32, 8, 3, 3), "W2": w(16, 32, 3, 3)})
cases.append((path, x))
for path, x in cases:
    got = run_tcc(path, x)
    want = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    err = float(np.abs(got - want).max()) / float(np.abs(want).max())
    good = err <= 2e-2
    ok &= good
    print(f"{os.path.basename(path)[:-5]}: {err:.1e} from onnxruntime f32: "
          f"{'ok' if good else 'FAILED'}")
print("bf16_check:", "OK" if ok else "FAILED")
sys.exit(0 if ok else 1)
