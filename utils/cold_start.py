#!/usr/bin/env python3
"""cold_start.py - time to the first result and peak memory: tcc vs onnxruntime (issue 44, item 6).

Never part of CI pass/fail. For each model of the suite it compiles the model with tcc and links
utils/bench_main.c (as utils/bench.py does), then starts, alternately, fresh processes of:
  tcc          the linked program, with TCC_BENCH_COLD set: it prints the time from main() to the
               end of its first run (the context, the buffers and the inputs included); its weights
               are mapped from the executable, never read or copied at start;
  onnxruntime  a Python process that imports onnxruntime and numpy, then creates the session (CPU
               EP, ORT_ENABLE_ALL, the same threads) and runs it once; it times those two steps.
For each run it records that first-result time, the process's wall time from spawn to exit, and
its peak resident memory (VmHWM, which each process reads from /proc/self/status as it ends: a
forked child's ru_maxrss would count its parent's pages). The Python process's peak once
onnxruntime and numpy are imported, before the session, is given too: onnxruntime's own share is
the difference.
Medians over --runs interleaved runs; the page cache is warm (the files were read before).

    .venv/bin/python utils/cold_start.py --models resnet50 mobilenet_v2 hf_bert_base --runs 10

Writes build/cold_start/report.md and report.json.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import bench  # noqa: E402

ORT_CHILD = r"""
import json, sys, time
import numpy as np
import onnxruntime as ort
path, threads, io = sys.argv[1], int(sys.argv[2]), sys.argv[3]
feeds = dict(np.load(io))
def peak_kb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
imported_kb = peak_kb()
t0 = time.perf_counter()
so = ort.SessionOptions()
so.intra_op_num_threads = threads
so.inter_op_num_threads = 1
so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
t1 = time.perf_counter()
sess.run(None, feeds)
t2 = time.perf_counter()
print(json.dumps({"create_ms": (t1 - t0) * 1e3, "first_run_ms": (t2 - t1) * 1e3,
                  "imported_kb": imported_kb, "peak_kb": peak_kb()}))
"""


def run(cmd, env=None):
    """Runs `cmd` to its end: (stdout, stderr, wall seconds from spawn to exit)."""
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return r.stdout, r.stderr, wall


def cold_start_model(args, name):
    _, path, work, _, dims, feeds = bench.load_suite_model(args, name, 1, 0)
    io = os.path.join(work, "feeds.npz")
    np.savez(io, **feeds)
    row = {"model": name, "dims": dims, "threads": args.threads}
    cname = re.sub(r"[^A-Za-z0-9_]", "_", name)
    exe = bench.compile_and_link(args, path, cname, work, dims, row)
    row["object_mb"] = round(os.path.getsize(exe) / 2**20, 1)
    row["model_mb"] = round(os.path.getsize(path) / 2**20, 1)

    tcc_env = dict(os.environ, TCC_BENCH_COLD="1")
    pin = ["taskset", "-c", ",".join(str(c) for c in range(args.threads))] if args.pin else []
    tcc_cmd = pin + [exe, "-", "0", "1", str(args.threads)]
    ort_cmd = pin + [sys.executable, "-c", ORT_CHILD, path, str(args.threads), io]
    runs = {"tcc_first_ms": [], "tcc_wall_ms": [], "tcc_peak_mb": [],
            "ort_create_ms": [], "ort_first_run_ms": [], "ort_first_ms": [], "ort_wall_ms": [],
            "ort_peak_mb": [], "ort_imported_mb": []}
    for i in range(args.runs):
        for engine in (("tcc", "ort") if i % 2 == 0 else ("ort", "tcc")):
            if engine == "tcc":
                _, err, wall = run(tcc_cmd, tcc_env)
                first = re.search(r"first result: ([0-9.]+) ms", err)
                peak = re.search(r"peak resident: ([0-9]+) kB", err)
                if not first or not peak:
                    raise RuntimeError(f"no 'first result' or 'peak resident' from {exe}:\n{err}")
                runs["tcc_first_ms"].append(float(first.group(1)))
                runs["tcc_wall_ms"].append(wall * 1e3)
                runs["tcc_peak_mb"].append(int(peak.group(1)) / 1024)
            else:
                out, _, wall = run(ort_cmd)
                r = json.loads(out.strip().splitlines()[-1])
                runs["ort_create_ms"].append(r["create_ms"])
                runs["ort_first_run_ms"].append(r["first_run_ms"])
                runs["ort_first_ms"].append(r["create_ms"] + r["first_run_ms"])
                runs["ort_wall_ms"].append(wall * 1e3)
                runs["ort_peak_mb"].append(r["peak_kb"] / 1024)
                runs["ort_imported_mb"].append(r["imported_kb"] / 1024)
    for key, values in runs.items():
        row[key] = round(statistics.median(values), 2)
    row["first_ratio"] = round(row["tcc_first_ms"] / row["ort_first_ms"], 3)
    row["peak_ratio"] = round(row["tcc_peak_mb"] / row["ort_peak_mb"], 3)
    row["peak_ratio_own"] = round(
        row["tcc_peak_mb"] / max(row["ort_peak_mb"] - row["ort_imported_mb"], 1e-9), 3)
    return row


def write_report(args, rows):
    lines = [
        f"Cold start at {args.threads} thread(s), batch 1, median of {args.runs} interleaved runs "
        "of fresh processes (page cache warm).",
        "",
        "| model | ONNX MB | tcc first result ms | onnxruntime session + first run ms | ratio "
        "| tcc process ms | onnxruntime process ms | tcc peak MB | onnxruntime peak MB "
        "(after imports) | ratio | ratio to onnxruntime's own |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['model']} | {r['model_mb']} | {r['tcc_first_ms']:.1f} | "
            f"{r['ort_create_ms']:.1f} + {r['ort_first_run_ms']:.1f} = {r['ort_first_ms']:.1f} | "
            f"{r['first_ratio']:.3f} | {r['tcc_wall_ms']:.1f} | {r['ort_wall_ms']:.1f} | "
            f"{r['tcc_peak_mb']:.1f} | {r['ort_peak_mb']:.1f} ({r['ort_imported_mb']:.1f}) | "
            f"{r['peak_ratio']:.3f} | {r['peak_ratio_own']:.3f} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out_dir, "report.md"), "w") as f:
        f.write(text)
    with open(os.path.join(args.out_dir, "report.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print(text)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", nargs="*", default=["resnet50", "mobilenet_v2", "hf_bert_base"])
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seq", type=int, default=128, help="sequence length of text models")
    p.add_argument("--no-pin", dest="pin", action="store_false",
                   help="do not pin the processes to the first THREADS CPUs")
    p.add_argument("--cache", default=None, help="folder of the suite's ts17 exports")
    p.add_argument("--out-dir", default=os.path.join(ROOT, "build", "cold_start"))
    p.add_argument("--tcc", default=None)
    p.add_argument("--rtlib", default=None)
    p.add_argument("--include", default=os.path.join(ROOT, "include"))
    p.add_argument("--cc", default=os.environ.get("CC", "cc"))
    args = p.parse_args()
    if args.runs < 1 or args.threads < 1:
        p.error("--runs and --threads must be at least 1")
    args.tcc = args.tcc or bench.default_path("build", "bin", "tcc")
    args.rtlib = args.rtlib or bench.default_path("build", "lib", "libtccrt.a")
    args.cache = args.cache or bench.default_path("build", "models", "suite", "ts17")
    os.makedirs(args.out_dir, exist_ok=True)
    rows = [cold_start_model(args, name) for name in args.models]
    write_report(args, rows)


if __name__ == "__main__":
    main()
