#!/usr/bin/env python3
"""bf16_check.py MODEL.onnx [--inputs N] [--dim NAME=V ...] [--threads T] - how far `tcc compile
--precision bf16` is from f32: compiles MODEL with tcc at --precision bf16 and fp32, runs N seeded
inputs (normal floats; integer inputs in [0, 2)) through both and through onnxruntime (f32), and
prints, per output, the largest error relative to the output's largest magnitude (bf16 vs
onnxruntime, and tcc's fp32 vs onnxruntime for scale) and the top-1 agreement of bf16 with
onnxruntime (argmax over the last axis, every row of every input). Exit 1 if bf16 is past
--rtol (default 2e-2) or agrees on less than --top1 (default 0.99) of the rows.

Slow (a compile of each precision, N runs of each engine): not in the test command; the
numbers go in closing notes and docs/performance.md."""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "python"))
import tcc  # noqa: E402


def model_inputs(path):
    """The model (without its external data) and its graph inputs that are not initializers."""
    model = onnx.load(path, load_external_data=False)
    inits = {i.name for i in model.graph.initializer}
    return model, [i for i in model.graph.input if i.name not in inits]


def seeded_feeds(inputs, dims, rng):
    """One input per graph input: normal floats, integers in [0, 2); a dim_param from `dims`
    (default 1)."""
    feeds = {}
    for i in inputs:
        t = i.type.tensor_type
        shape = [d.dim_value or int(dims.get(d.dim_param, 1)) for d in t.shape.dim]
        if t.elem_type == onnx.TensorProto.FLOAT:
            feeds[i.name] = rng.standard_normal(shape).astype(np.float32)
        else:
            dtype = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type)
            feeds[i.name] = rng.integers(0, 2, shape).astype(dtype)
    return feeds


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--inputs", type=int, default=100)
    p.add_argument("--dim", action="append", default=[])
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--no-winograd", action="store_true",
                   help="compile both precisions with --no-winograd")
    p.add_argument("--rtol", type=float, default=2e-2)
    p.add_argument("--top1", type=float, default=0.99)
    p.add_argument("--tcc", default=os.environ.get("TCC_BIN", "build/bin/tcc"))
    a = p.parse_args()
    dims = dict(d.split("=") for d in a.dim)
    model, inputs = model_inputs(a.model)
    tmp = tempfile.mkdtemp(prefix="bf16_check")
    libs = {}
    for precision in ("bf16", "fp32"):
        lib = os.path.join(tmp, f"{precision}.so")
        args = [a.tcc, "compile", a.model, "--precision", precision, "-o", lib]
        for d in a.dim:
            args += ["--dim", d]
        if a.no_winograd:
            args.append("--no-winograd")
        subprocess.run(args, check=True)
        header = open(lib[:-3] + ".h").read()
        if f'_PRECISION "{precision}"' not in header:
            sys.exit(f"bf16_check: the {precision} header does not say {precision}")
        libs[precision] = tcc.load(lib, threads=a.threads or None)
    sess = ort.InferenceSession(a.model, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    names = [o.name for o in model.graph.output]
    worst = {n: [0.0, 0.0] for n in names}
    errors = {n: [] for n in names}
    agree = {n: [0, 0] for n in names}
    for _ in range(a.inputs):
        feeds = seeded_feeds(inputs, dims, rng)
        ref = dict(zip(names, sess.run(None, feeds)))
        got = {k: dict(zip(names, m.run(feeds))) for k, m in libs.items()}
        for n in names:
            want = ref[n].astype(np.float64)
            scale = float(np.abs(want).max()) or 1.0
            for j, k in enumerate(("bf16", "fp32")):
                err = float(np.abs(np.asarray(got[k][n], np.float64) - want).max()) / scale
                worst[n][j] = max(worst[n][j], err)
                if k == "bf16":
                    errors[n].append(err)
            if want.ndim:
                rows_b = np.asarray(got["bf16"][n]).reshape(-1, want.shape[-1]).argmax(-1)
                rows_r = want.reshape(-1, want.shape[-1]).argmax(-1)
                agree[n][0] += int((rows_b == rows_r).sum())
                agree[n][1] += rows_r.size
    ok = True
    for n in names:
        top1 = agree[n][0] / max(agree[n][1], 1)
        print(f"{n}: bf16 max error {worst[n][0]:.2e} (median {np.median(errors[n]):.2e}) of the "
              f"largest |output| (fp32 "
              f"{worst[n][1]:.2e}); top-1 agreement with onnxruntime {agree[n][0]}/{agree[n][1]} "
              f"({100 * top1:.2f}%)")
        ok &= worst[n][0] <= a.rtol and top1 >= a.top1
    print("bf16_check:", "OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
