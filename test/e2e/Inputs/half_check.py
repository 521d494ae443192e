"""half_check.py F32.onnx OUT_DIR TCC - converts F32.onnx to float16 with onnxconverter_common
(as users make fp16 models), runs it with tcc (tcc run) and with onnxruntime, and compares both
with the f32 model's onnxruntime outputs: tcc must agree with onnxruntime's fp16 run to a few
fp16 roundings, and be about as close to f32 as onnxruntime's fp16 run is (tcc rounds each op's
result to fp16 as ONNX defines it, onnxruntime only where a chain of ops ends: up to 2.5x as far).
Prints one line per output and 'half_check: OK'."""
import os
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxconverter_common import float16

f32_path, out, tcc = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
f16_path = os.path.join(out, "half.onnx")
onnx.save(float16.convert_float_to_float16(onnx.load(f32_path), keep_io_types=False), f16_path)

model = onnx.load(f32_path)
inits = {i.name for i in model.graph.initializer}
rng = np.random.default_rng(0)
feeds, args = {}, []
for i, inp in enumerate(x for x in model.graph.input if x.name not in inits):
    # Symbolic dims: 1 for a batch, else 8 (a sequence); integer inputs: 0 or 1 (token ids,
    # token types, an attention mask).
    shape = [d.dim_value or (1 if d.dim_param == "batch" else 8)
             for d in inp.type.tensor_type.shape.dim]
    if inp.type.tensor_type.elem_type == onnx.TensorProto.FLOAT:
        feeds[inp.name] = rng.standard_normal(shape).astype(np.float32)
        saved = feeds[inp.name].astype(np.float16)
    else:
        dtype = onnx.helper.tensor_dtype_to_np_dtype(inp.type.tensor_type.elem_type)
        feeds[inp.name] = saved = rng.integers(0, 2, shape).astype(dtype)
    np.save(os.path.join(out, f"in{i}.npy"), saved)
    args += ["--input", f"{inp.name}={os.path.join(out, f'in{i}.npy')}"]
    for d in inp.type.tensor_type.shape.dim:
        if d.dim_param and d.dim_param != "batch" and f"{d.dim_param}=8" not in args:
            args += ["--dim", f"{d.dim_param}=8"]
subprocess.run([tcc, "run", f16_path, "--output-dir", os.path.join(out, "tcc")] + args, check=True)

cpu = ["CPUExecutionProvider"]
ref = ort.InferenceSession(f32_path, providers=cpu).run(None, feeds)
half = ort.InferenceSession(f16_path, providers=cpu).run(
    None, {k: v.astype(np.float16) if v.dtype == np.float32 else v for k, v in feeds.items()})
ok = True
for o, want, h in zip(model.graph.output, ref, half):
    got = np.load(os.path.join(out, "tcc", o.name + ".npy"))
    if got.dtype != np.float16:
        print(f"{o.name}: tcc wrote {got.dtype}, not float16")
        ok = False
        continue
    got, h = got.astype(np.float32), h.astype(np.float32)
    scale = float(np.abs(want).max()) or 1.0
    to_ort, tcc_err, ort_err = (float(np.abs(got - h).max()), float(np.abs(got - want).max()),
                                float(np.abs(h - want).max()))
    # A few fp16 roundings of the largest value apart, and about as close to f32.
    good = to_ort <= 4 * 2.0 ** -10 * scale and tcc_err <= 2.5 * ort_err + 2.0 ** -12 * scale
    ok &= good
    print(f"{o.name}: max|f32| {scale:.3g}, tcc-ort16 {to_ort:.3g}, tcc-f32 {tcc_err:.3g}, "
          f"ort16-f32 {ort_err:.3g}: {'ok' if good else 'FAIL'}")
print("half_check: OK" if ok else "half_check: FAIL")
sys.exit(0 if ok else 1)
