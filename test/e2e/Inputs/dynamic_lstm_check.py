"""dynamic_lstm_check.py OUT_DIR TCC - com.microsoft DynamicQuantizeLSTM (what quantize_dynamic
writes for an LSTM: int8 weights [directions, in, 4 * hidden], scales per direction or per
column) run by tcc (tcc run) against two onnxruntime runs on seeded inputs:
  - ONNX's LSTM with the dequantized weights ((w - zero point) * scale, transposed), which is
    what tcc computes: all outputs within 1e-5 of the largest;
  - onnxruntime's own DynamicQuantizeLSTM kernel, which also quantizes X and each step's H to
    uint8: within 4% of the largest (printing how far that kernel is from the float LSTM too).
Bidirectional, per-column W scales, per-direction R scales, a zero point other than 0, bias and
initial states. Prints one line per output and 'dynamic_lstm_check: OK'."""
import os
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T, helper as h, numpy_helper as nh

out, tcc = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)
seq, batch, inp, hidden, dirs = 9, 2, 12, 8, 2
w = rng.integers(-127, 128, (dirs, inp, 4 * hidden)).astype(np.int8)
r = rng.integers(-127, 128, (dirs, hidden, 4 * hidden)).astype(np.int8)
ws = (rng.random((dirs, 4 * hidden)) * 0.004 + 0.002).astype(np.float32)
wz = np.zeros((dirs, 4 * hidden), np.int8)
rs = np.array([0.003, 0.005], np.float32)
rz = np.array([0, 3], np.int8)
b = (rng.standard_normal((dirs, 8 * hidden)) * 0.1).astype(np.float32)
feeds = {"x": rng.standard_normal((seq, batch, inp)).astype(np.float32),
         "h0": (rng.standard_normal((dirs, batch, hidden)) * 0.5).astype(np.float32),
         "c0": (rng.standard_normal((dirs, batch, hidden)) * 0.5).astype(np.float32)}
inputs = [h.make_tensor_value_info("x", T.FLOAT, [seq, batch, inp]),
          h.make_tensor_value_info("h0", T.FLOAT, [dirs, batch, hidden]),
          h.make_tensor_value_info("c0", T.FLOAT, [dirs, batch, hidden])]
outputs = [h.make_tensor_value_info("y", T.FLOAT, [seq, dirs, batch, hidden]),
           h.make_tensor_value_info("yh", T.FLOAT, [dirs, batch, hidden]),
           h.make_tensor_value_info("yc", T.FLOAT, [dirs, batch, hidden])]


def save(name, node, inits, opsets):
    m = h.make_model(h.make_graph([node], name, inputs, outputs, inits), opset_imports=opsets)
    path = os.path.join(out, name + ".onnx")
    onnx.save(m, path)
    return path


quantized = save("dynamic_lstm", h.make_node(
    "DynamicQuantizeLSTM", ["x", "w", "r", "b", "", "h0", "c0", "", "ws", "wz", "rs", "rz"],
    ["y", "yh", "yc"], domain="com.microsoft", name="dqlstm", hidden_size=hidden,
    direction="bidirectional"),
    [nh.from_array(v, n) for n, v in
     [("w", w), ("r", r), ("b", b), ("ws", ws), ("wz", wz), ("rs", rs), ("rz", rz)]],
    [h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)])
# The same weights dequantized, as ONNX's LSTM takes them: [directions, 4 * hidden, in].
wf = ((w.astype(np.float32) - wz[:, None, :]) * ws[:, None, :]).transpose(0, 2, 1)
rf = ((r.astype(np.float32) - rz[:, None, None]) * rs[:, None, None]).transpose(0, 2, 1)
plain = save("float_lstm", h.make_node(
    "LSTM", ["x", "w", "r", "b", "", "h0", "c0"], ["y", "yh", "yc"], name="lstm",
    hidden_size=hidden, direction="bidirectional"),
    [nh.from_array(np.ascontiguousarray(wf), "w"), nh.from_array(np.ascontiguousarray(rf), "r"),
     nh.from_array(b, "b")], [h.make_opsetid("", 17)])

args = [tcc, "run", quantized, "--output-dir", os.path.join(out, "tcc")]
for k, v in feeds.items():
    np.save(os.path.join(out, k + ".npy"), v)
    args += ["--input", f"{k}={os.path.join(out, k + '.npy')}"]
subprocess.run(args, check=True)
ref = ort.InferenceSession(plain, providers=["CPUExecutionProvider"]).run(None, feeds)
kernel = ort.InferenceSession(quantized, providers=["CPUExecutionProvider"]).run(None, feeds)
ok = True
for o, want, theirs in zip(["y", "yh", "yc"], ref, kernel):
    got = np.load(os.path.join(out, "tcc", o + ".npy"))
    top = float(np.abs(want).max())
    err = float(np.abs(got - want).max()) / top
    err_kernel = float(np.abs(got - theirs).max()) / top
    apart = float(np.abs(theirs - want).max()) / top
    good = got.shape == want.shape and err <= 1e-5 and err_kernel <= 4e-2
    ok &= good
    print(f"{o}: {err:.1e} of the largest from the float LSTM, {err_kernel:.1e} from onnxruntime's "
          f"DynamicQuantizeLSTM (which is {apart:.1e} from the float LSTM): "
          f"{'ok' if good else 'FAILED'}")
print("dynamic_lstm_check:", "OK" if ok else "FAILED")
sys.exit(0 if ok else 1)
