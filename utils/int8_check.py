#!/usr/bin/env python3
"""int8_check.py MODEL.onnx [--inputs N] [--dim NAME=V ...] [--threads T] - how far tcc's int8
kernels are from onnxruntime's on a quantized model (QDQ, QOperator or dynamic): compiles MODEL
with tcc for this CPU (8-bit dot products on vpdpbusd where it has AVX512-VNNI) and for two CPUs
without VNNI (x86-64-v3: AVX2, and skylake-avx512: their sums on pmaddwd), runs N seeded inputs
(normal floats; integer inputs in [0, 2)) through them and through onnxruntime (CPU, all
optimizations: its own int8 kernels), and prints, per output, the largest and median error
relative to the output's largest magnitude, the share of elements within one quantization step of
onnxruntime for 8-bit outputs, the top-1 agreement with onnxruntime (argmax over the last axis,
every row of every input), and on how many inputs each build equals onnxruntime bit for bit.
Exit 1 if a build agrees on less than --top1 (default 0.995) of the rows, or an 8-bit output of
the native build is within one step on less than 99.9% of its elements.

Slow (three compiles, N runs of each engine): not in the test command; the numbers go in closing
notes and docs/performance.md."""
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
from bf16_check import model_inputs, seeded_feeds  # noqa: E402
import int8_flip  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--inputs", type=int, default=100)
    p.add_argument("--dim", action="append", default=[])
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--top1", type=float, default=0.995)
    p.add_argument("--tcc", default=os.environ.get("TCC_BIN", "build/bin/tcc"))
    a = p.parse_args()
    dims = dict(d.split("=") for d in a.dim)
    model, inputs = model_inputs(a.model)
    tmp = tempfile.mkdtemp(prefix="int8_check")
    # The native build (AVX512-VNNI here: vpdpbusd) and two without VNNI (pmaddwd): AVX2 and
    # AVX-512.
    builds = {"native": [], "x86-64-v3": ["--mcpu", "x86-64-v3"],
              "skylake-avx512": ["--mcpu", "skylake-avx512"]}
    engines = [*builds, "onnxruntime unoptimized"]
    libs = {}
    for name, extra in builds.items():
        lib = os.path.join(tmp, f"{name}.so")
        args = [a.tcc, "compile", a.model, "-o", lib, *extra]
        for d in a.dim:
            args += ["--dim", d]
        subprocess.run(args, check=True)
        libs[name] = tcc.load(lib, threads=a.threads or None)
    reference = a.model
    if int8_flip.has_int8_activations(model):
        # int8 activations: onnxruntime fuses some QDQ groups into its int8 kernels and leaves
        # others in float; with them flipped to uint8 (the same values) it fuses all, as tcc does.
        print("int8 activations: the reference is onnxruntime on the graph with them flipped to "
              "uint8 (utils/int8_flip.py)")
        reference = int8_flip.uint8_activations(onnx.load(a.model)).SerializeToString()
    sess = ort.InferenceSession(reference, providers=["CPUExecutionProvider"])
    # onnxruntime without graph optimizations: QDQ evaluated as written, in f32 (how far two
    # faithful evaluations of the same file are apart).
    plain = ort.SessionOptions()
    plain.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    unfused = ort.InferenceSession(a.model, plain, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    names = [o.name for o in model.graph.output]
    errors = {n: {k: [] for k in engines} for n in names}
    steps = {n: [0, 0] for n in names}
    identical = {n: {k: 0 for k in builds} for n in names}  # inputs equal to onnxruntime bit for bit
    agree = {n: {k: [0, 0] for k in engines} for n in names}
    for _ in range(a.inputs):
        feeds = seeded_feeds(inputs, dims, rng)
        ref = dict(zip(names, sess.run(None, feeds)))
        got = {k: dict(zip(names, m.run(feeds))) for k, m in libs.items()}
        got["onnxruntime unoptimized"] = dict(zip(names, unfused.run(None, feeds)))
        for n in names:
            for k in builds:
                identical[n][k] += int(np.array_equal(np.asarray(got[k][n]), ref[n]))
            want = ref[n].astype(np.float64)
            scale = float(np.abs(want).max()) or 1.0
            for k in engines:
                out = np.asarray(got[k][n], np.float64)
                errors[n][k].append(float(np.abs(out - want).max()) / scale)
                if want.ndim:
                    rows = out.reshape(-1, want.shape[-1]).argmax(-1)
                    rows_r = want.reshape(-1, want.shape[-1]).argmax(-1)
                    agree[n][k][0] += int((rows == rows_r).sum())
                    agree[n][k][1] += rows_r.size
            if ref[n].dtype in (np.uint8, np.int8):
                diff = np.abs(np.asarray(got["native"][n], np.int32) - ref[n].astype(np.int32))
                steps[n][0] += int((diff <= 1).sum())
                steps[n][1] += diff.size
    ok = True
    for n in names:
        for k in engines:
            e = errors[n][k]
            good, total = agree[n][k]
            print(f"{n}: {k if k.startswith('onnx') else 'tcc ' + k}: max error {max(e):.2e} (median {np.median(e):.2e}) of the "
                  f"largest |output|; top-1 agreement with onnxruntime {good}/{total} "
                  f"({100 * good / max(total, 1):.2f}%)")
        for k in builds:
            print(f"{n}: tcc {k} equals onnxruntime bit for bit on {identical[n][k]}/{a.inputs} inputs")
            good, total = agree[n][k]
            ok &= not total or good / total >= a.top1
        if steps[n][1]:
            share = steps[n][0] / steps[n][1]
            print(f"{n}: {100 * share:.3f}% of the elements within one step of onnxruntime")
            ok &= share >= 0.999
    print("int8_check:", "OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
