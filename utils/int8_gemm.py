#!/usr/bin/env python3
"""int8_gemm.py [MxNxK ...] [--rounds R] [--threads T] - the 8-bit GEMM microbenchmark (issue
43): a MatMulInteger of a uint8 [M, K] input by constant int8 [K, N] weights (no zero points),
compiled by tcc (on vpdpbusd where the CPU has AVX512-VNNI) and run by onnxruntime, interleaved
for R rounds (tcc bench's median of 20 runs, onnxruntime's median of 20), against the VNNI peak
that utils/peak_int8.c measures in the same run (before and after the rounds: the median of
the two). Prints GOPS (2 ops per multiply-add), the share of the peak, and the ratio to
onnxruntime. Slow-ish (a compile per shape); not in the test command."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T, helper as h, numpy_helper as nh

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def peak(exe):
    return float(subprocess.run([exe], capture_output=True, text=True, check=True)
                 .stdout.split()[1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("shapes", nargs="*", default=["128x768x768", "128x3072x768", "128x768x3072"])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--tcc", default=os.path.join(ROOT, "build", "bin", "tcc"))
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="int8_gemm")
    exe = os.path.join(work, "peak_int8")
    subprocess.run(["cc", "-O3", "-march=native", os.path.join(ROOT, "utils", "peak_int8.c"),
                    "-o", exe], check=True)
    peaks = [peak(exe)]
    rng = np.random.default_rng(0)
    rows = []
    for shape in a.shapes:
        m, n, k = map(int, shape.split("x"))
        w = rng.integers(-127, 128, (k, n)).astype(np.int8)
        g = h.make_graph([h.make_node("MatMulInteger", ["a", "w"], ["y"])], "gemm",
                         [h.make_tensor_value_info("a", T.UINT8, [m, k])],
                         [h.make_tensor_value_info("y", T.INT32, [m, n])], [nh.from_array(w, "w")])
        path = os.path.join(work, f"gemm_{shape}.onnx")
        onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), path)
        x = rng.integers(0, 256, (m, k)).astype(np.uint8)
        np.save(path + ".npy", x)
        so = ort.SessionOptions()
        so.intra_op_num_threads = a.threads
        sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        tcc_ms, ort_ms = [], []
        for _ in range(a.rounds):
            out = subprocess.run([a.tcc, "bench", path, "--input", f"a={path}.npy", "--threads",
                                  str(a.threads), "--iterations", "20", "--json"],
                                 capture_output=True, text=True, check=True).stdout
            tcc_ms.append(json.loads(out)["latency_ms"]["median"])
            for _ in range(3):
                sess.run(None, {"a": x})
            runs = []
            for _ in range(20):
                t0 = time.perf_counter()
                sess.run(None, {"a": x})
                runs.append((time.perf_counter() - t0) * 1e3)
            ort_ms.append(statistics.median(runs))
        rows.append((shape, statistics.median(tcc_ms), statistics.median(ort_ms), 2.0 * m * n * k))
    peaks.append(peak(exe))
    top = statistics.median(peaks)
    print(f"VNNI peak (1 thread, vpdpbusd zmm): {top:.1f} GOPS (runs: "
          f"{', '.join(f'{x:.1f}' for x in peaks)}); {a.rounds} rounds, {a.threads} thread(s)")
    print("| shape MxNxK | tcc ms | ort ms | tcc GOPS (% of peak) | ort GOPS | tcc/ort |")
    print("|---|---:|---:|---:|---:|---:|")
    for shape, t, o, ops in rows:
        print(f"| {shape} | {t:.3f} | {o:.3f} | {ops / t * 1e-6:.1f} "
              f"({100 * ops / t * 1e-6 / (top * a.threads):.1f}%) | {ops / o * 1e-6:.1f} | "
              f"{t / o:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
