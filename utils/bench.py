#!/usr/bin/env python3
"""bench.py - benchmark harness (issue 6): tcc's compiled object vs onnxruntime vs PyTorch eager.

Never part of CI pass/fail. For each model of the suite (models/export_suite.py; the exported ONNX
is cached in build/models/suite/ts17) it compiles with tcc (symbolic dims pinned with --dim, as
utils/model_suite.py does), links utils/bench_main.c, and times tcc, onnxruntime (CPU EP,
ORT_ENABLE_ALL, sequential, intra_op_num_threads=N, inter_op_num_threads=1) and PyTorch eager
(torch.set_num_threads(N), torch.no_grad) on the same inputs, interleaved one run each per round,
every engine pinned to the same first N CPUs (--no-pin: not).
It measures the machine's single-core fp32 peak with utils/peak_flops.c (-O3 -march=native) in the
same run and reports GFLOP/s (2 * MACs of Conv/MatMul/Gemm) as a fraction of it: the peak loop runs
once more in every round, before the engines (best of 5 trials of about 2 ms), and each row's
fraction is of the median of its rounds' peaks, measured in the same moments as the engines (on a
shared host, neighbours slowed cache-bound work for seconds at a time while the FMA loop held).

    .venv/bin/python utils/bench.py --models squeezenet1_1 resnet50 --threads 1 --iterations 20

Writes build/bench/report.md, report.json and speedup.png (if matplotlib imports).
--threads N sets every engine's threads (tcc: a context of N threads). --torch-compile also times
torch.compile (TorchInductor) where the installed torch has it. `tcc bench MODEL` times tcc alone.
"""
import argparse
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "models"))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import export_suite  # noqa: E402
from model_suite import pinned_dims  # noqa: E402

DEFAULT_MODELS = ["squeezenet1_1", "resnet50", "mobilenet_v2", "hf_bert_base"]


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"{shlex.join(cmd)} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
    return r.stdout


def default_path(*parts):
    """A path under the worktree's build/, else the main checkout's (worktrees share its build)."""
    p = os.path.join(ROOT, *parts)
    if os.path.exists(p):
        return p
    common = sh(["git", "-C", ROOT, "rev-parse", "--path-format=absolute", "--git-common-dir"])
    return os.path.join(os.path.dirname(common.strip()), *parts)


# ---------------------------------------------------------------------------------------------
# FLOPs: 2 * MACs of Conv, ConvTranspose, MatMul and Gemm from shape inference at the pinned dims.

def _shapes_from_ort(model, names, feeds):
    """The shapes of values `names` in one onnxruntime run on `feeds` (for what ONNX's shape
    inference cannot follow, e.g. Reshape targets computed from Shape in transformers)."""
    import onnxruntime as ort

    m = onnx.ModelProto.FromString(model.SerializeToString())
    have = {o.name for o in m.graph.output}
    for n in names:
        if n not in have:
            m.graph.output.append(onnx.ValueInfoProto(name=n))
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return {n: list(v.shape) for n, v in zip(names, sess.run(names, feeds))}


def count_flops(model, dims, feeds=None):
    """2 * MACs; with `feeds`, shapes shape inference misses come from one onnxruntime run."""
    orig = model
    model = onnx.ModelProto.FromString(model.SerializeToString())
    for v in model.graph.input:
        for d in v.type.tensor_type.shape.dim:
            if d.dim_param in dims:
                d.dim_value = dims[d.dim_param]
    # data_prop: shapes computed by Shape -> Gather -> Concat -> Reshape chains (transformers).
    model = onnx.shape_inference.infer_shapes(model, data_prop=True)
    shapes = {}
    for v in list(model.graph.input) + list(model.graph.value_info) + list(model.graph.output):
        s = v.type.tensor_type.shape
        if all(d.HasField("dim_value") for d in s.dim):
            shapes[v.name] = [d.dim_value for d in s.dim]
    for t in model.graph.initializer:
        shapes[t.name] = list(t.dims)
    kinds = ("Conv", "ConvTranspose", "MatMul", "Gemm")
    missing = sorted({v for n in model.graph.node if n.op_type in kinds
                      for v in list(n.input[:2]) + [n.output[0]] if v not in shapes})
    if missing and feeds is not None:
        try:
            shapes.update(_shapes_from_ort(orig, missing, feeds))
        except Exception:  # noqa: BLE001 - the counts stay partial; the caller notes it
            pass
    macs, unknown = 0, 0
    for n in model.graph.node:
        if n.op_type not in ("Conv", "ConvTranspose", "MatMul", "Gemm"):
            continue
        ins = [shapes.get(i) for i in n.input[:2]]
        out = shapes.get(n.output[0])
        if None in ins or out is None:
            unknown += 1
            continue
        if n.op_type == "Conv":  # out elements * (Cin/group * kernel)
            macs += int(np.prod(out)) * int(np.prod(ins[1][1:]))
        elif n.op_type == "ConvTranspose":  # input elements * (Cout/group * kernel)
            macs += int(np.prod(ins[0])) * int(np.prod(ins[1][1:]))
        elif n.op_type == "MatMul":
            macs += int(np.prod(out)) * ins[0][-1]
        else:
            trans_a = next((a.i for a in n.attribute if a.name == "transA"), 0)
            macs += int(np.prod(out)) * ins[0][0 if trans_a else 1]
    return 2 * macs, unknown


# ---------------------------------------------------------------------------------------------
# Engines

class TccEngine:
    """bench_main.c in serve mode: stays warm between rounds; each round is one timed run."""

    def __init__(self, exe, io_dir, warmup, threads):
        self.io_dir = io_dir
        self.proc = subprocess.Popen([exe, io_dir, str(warmup), "0", str(threads)],
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def run(self):
        self.proc.stdin.write("1\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"bench_main exited ({self.proc.wait()})")
        return float(line)

    def close(self):
        self.proc.stdin.close()
        if self.proc.wait() != 0:
            raise RuntimeError(f"bench_main exited {self.proc.returncode}")


class PeakEngine:
    """utils/peak_flops.c, briefly: run() returns the FMA loop's GFLOP/s at that moment."""

    def __init__(self, exe, iters):
        self.cmd = [exe, str(iters)]

    def run(self):
        return float(sh(self.cmd).split()[1])


class OrtEngine:
    def __init__(self, path, feeds, threads):
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        self.sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        self.feeds = feeds
        self.out = None

    def run(self):
        t0 = time.perf_counter_ns()
        self.out = self.sess.run(None, self.feeds)
        return (time.perf_counter_ns() - t0) * 1e-6


class TorchEngine:
    def __init__(self, spec, feeds, threads):
        import torch

        self.torch = torch
        torch.set_num_threads(threads)
        torch.manual_seed(0)
        self.model = spec.build().eval()
        self.args = [torch.from_numpy(a) for a in feeds.values()]

    def run(self):
        with self.torch.no_grad():
            t0 = time.perf_counter_ns()
            self.model(*self.args)
            return (time.perf_counter_ns() - t0) * 1e-6


class TorchCompileEngine(TorchEngine):
    """torch.compile (TorchInductor, C++ codegen on CPU); the warm-up runs compile it."""

    def __init__(self, spec, feeds, threads):
        super().__init__(spec, feeds, threads)
        if not hasattr(self.torch, "compile"):
            raise RuntimeError(f"torch {self.torch.__version__} has no torch.compile")
        self.model = self.torch.compile(self.model)


# ---------------------------------------------------------------------------------------------

def stats(ms):
    ms = np.asarray(ms)
    return {"median_ms": float(np.median(ms)), "p90_ms": float(np.percentile(ms, 90)),
            "min_ms": float(ms.min()), "runs": len(ms)}


def load_suite_model(args, name, batch, seed):
    """The suite's model `name` (exported into args.cache if missing), its work folder under
    args.out_dir, and its dims and inputs at `batch` and args.seq: (spec, path, work, model,
    dims, feeds)."""
    spec = export_suite.by_name(name)
    path = os.path.join(args.cache, name + ".onnx")
    if not os.path.exists(path):
        path = export_suite.export(spec, "ts17", cache_dir=os.path.dirname(args.cache))
    work = os.path.join(args.out_dir, "work", name)
    os.makedirs(work, exist_ok=True)
    model = onnx.load(path, load_external_data=False)
    run_dims = dict(export_suite.RUN_DIMS, batch=batch, seq=args.seq)
    dims = pinned_dims(model, spec, run_dims)
    feeds = export_suite.make_feeds(spec, seed, run_dims)
    return spec, path, work, model, dims, feeds


def bench_model(args, name):
    spec, path, work, model, dims, feeds = load_suite_model(args, name, args.batch, args.seed)
    row = {"model": name, "dims": dims, "threads": args.threads}

    cname = re.sub(r"[^A-Za-z0-9_]", "_", name)
    exe = compile_and_link(args, path, cname, work, dims, row)
    io_dir = os.path.join(work, "io")
    os.makedirs(io_dir, exist_ok=True)
    for i, a in enumerate(feeds.values()):
        a.tofile(os.path.join(io_dir, f"input_{i}.bin"))

    flops, unknown = count_flops(model, dims, feeds)
    row["gflop"] = flops * 1e-9
    if unknown:
        row["flops_note"] = f"{unknown} Conv/MatMul/Gemm nodes without inferred shapes not counted"

    engines = {"peak": PeakEngine(args.peak_exe, 1_000_000),
               "tcc": TccEngine(exe, io_dir, args.warmup, args.threads)}
    if args.bf16:
        # The same model at --precision bf16, on the same inputs.
        exe_bf16 = compile_and_link(args, path, cname + "_bf16", work, dims, row,
                                    ["--precision", "bf16"], "compile_bf16_s")
        io_bf16 = os.path.join(work, "io_bf16")
        os.makedirs(io_bf16, exist_ok=True)
        for i, a in enumerate(feeds.values()):
            a.tofile(os.path.join(io_bf16, f"input_{i}.bin"))
        engines["tcc_bf16"] = TccEngine(exe_bf16, io_bf16, args.warmup, args.threads)
    engines["ort"] = OrtEngine(path, feeds, args.threads)
    if not args.no_torch:
        try:
            engines["torch"] = TorchEngine(spec, feeds, args.threads)
        except Exception as e:  # noqa: BLE001 - report, keep benchmarking the others
            row["torch_error"] = f"{type(e).__name__}: {e}"[:300]
    if args.torch_compile:
        try:
            engines["torch_compile"] = TorchCompileEngine(spec, feeds, args.threads)
            t0 = time.monotonic()
            engines["torch_compile"].run()  # compiles
            row["torch_compile_s"] = round(time.monotonic() - t0, 1)
        except Exception as e:  # noqa: BLE001 - report, keep benchmarking the others
            engines.pop("torch_compile", None)
            row["torch_compile_error"] = f"{type(e).__name__}: {e}"[:300]
    times = time_engines(args, engines)

    # Sanity: tcc's outputs (written at exit) against onnxruntime's.
    ort_out = engines["ort"].out
    errs = []
    for i, ref in enumerate(ort_out):
        got = np.fromfile(os.path.join(io_dir, f"output_{i}.bin"), dtype=ref.dtype)
        if got.size == ref.size and np.issubdtype(ref.dtype, np.floating):
            errs.append(float(np.abs(got.reshape(ref.shape) - ref).max()))
    row["max_abs_err_vs_ort"] = max(errs) if errs else None
    if args.bf16:
        rel = []
        for i, ref in enumerate(ort_out):
            got = np.fromfile(os.path.join(work, "io_bf16", f"output_{i}.bin"), dtype=ref.dtype)
            if got.size == ref.size and np.issubdtype(ref.dtype, np.floating) and ref.size:
                rel.append(float(np.abs(got.reshape(ref.shape) - ref).max()
                                 / (np.abs(ref).max() or 1.0)))
        row["bf16_rel_err_vs_ort"] = max(rel) if rel else None

    return finish_row(row, times)


def compile_and_link(args, path, cname, work, dims, row, extra=(), key="compile_s"):
    """Compiles `path` with tcc (recording `key` in `row`; `extra`: more compile options) and
    links bench_main.c to it."""
    obj = os.path.join(work, cname + ".o")
    cmd = [args.tcc, "compile", path, "-o", obj, "--name", cname] + list(extra)
    for d, v in sorted(dims.items()):
        cmd += ["--dim", f"{d}={v}"]
    t0 = time.monotonic()
    sh(cmd)
    row[key] = round(time.monotonic() - t0, 2)
    exe = os.path.join(work, "bench_" + cname)
    sh([args.cc, "-O2", "-I", args.include, "-I", work, f'-DTCC_MODEL_HEADER="{cname}.h"',
        f"-DTCC_MODEL_PREFIX={cname}", os.path.join(ROOT, "utils", "bench_main.c"), obj,
        args.rtlib, "-lm", "-lpthread", "-o", exe])
    return exe


def time_engines(args, engines):
    """Warms every engine up, then times them interleaved: one run of each per round. With more
    than one thread, each run starts --settle-ms after the last one ended: every engine's pool
    threads spin a while after a run (onnxruntime's, OpenMP's, tcc's), and would otherwise take
    cores from the next engine."""
    settle = args.settle_ms / 1000.0 if args.threads > 1 else 0.0
    for eng_name, eng in engines.items():
        if eng_name not in ("tcc", "tcc_bf16", "peak"):
            for _ in range(args.warmup):
                eng.run()
    times = {k: [] for k in engines}
    for _ in range(args.iterations):
        for k, eng in engines.items():
            time.sleep(settle)
            times[k].append(eng.run())
    for eng in engines.values():
        if isinstance(eng, TccEngine):
            eng.close()
    return times


def finish_row(row, times):
    """Latency statistics and ratios; GFLOP/s as a fraction of the median of the row's
    interleaved peak runs."""
    row["peak_gflops_runs"] = [round(x, 1) for x in times.pop("peak")]
    peak = row["peak_gflops"] = float(np.median(row["peak_gflops_runs"]))
    for k, t in times.items():
        row[k] = stats(t)
        row[k]["latencies_ms"] = [round(x, 4) for x in t]
        row[k]["gflops"] = row["gflop"] / (row[k]["median_ms"] * 1e-3)
        row[k]["peak_fraction"] = row[k]["gflops"] / peak
    for k in ("ort", "torch", "torch_compile"):
        if k in times:
            row[f"tcc_over_{k}"] = row["tcc"]["median_ms"] / row[k]["median_ms"]
    if "tcc_bf16" in times:
        for k in ("tcc", "ort", "torch", "torch_compile"):
            if k in times:
                row[f"tcc_bf16_over_{k}"] = row["tcc_bf16"]["median_ms"] / row[k]["median_ms"]
    return row


def bench_gemm(args, shape):
    """One fp32 MatMul [M,K] x [K,N] (the weight a constant, as in a model), tcc vs onnxruntime."""
    m, n, k = (int(v) for v in shape.split("x"))
    name = f"gemm_{m}x{n}x{k}"
    work = os.path.join(args.out_dir, "work", name)
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    w = numpy_helper.from_array(rng.standard_normal((k, n), dtype=np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], name,
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [m, n])], [w])
    path = os.path.join(work, name + ".onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    row = {"model": name, "dims": {}, "threads": args.threads, "gflop": 2e-9 * m * n * k}
    exe = compile_and_link(args, path, name, work, {}, row)
    io_dir = os.path.join(work, "io")
    os.makedirs(io_dir, exist_ok=True)
    x = rng.standard_normal((m, k), dtype=np.float32)
    x.tofile(os.path.join(io_dir, "input_0.bin"))
    engines = {"peak": PeakEngine(args.peak_exe, 1_000_000),
               "tcc": TccEngine(exe, io_dir, args.warmup, args.threads),
               "ort": OrtEngine(path, {"x": x}, args.threads)}
    times = time_engines(args, engines)
    got = np.fromfile(os.path.join(io_dir, "output_0.bin"), dtype=np.float32)
    row["max_abs_err_vs_ort"] = float(np.abs(got.reshape(m, n) - engines["ort"].out[0]).max())
    return finish_row(row, times)


def fmt(x, spec="{:.2f}"):
    return "—" if x is None else spec.format(x)


def write_reports(args, peak, rows):
    report = {"peak_gflops": peak, "threads": args.threads, "iterations": args.iterations,
              "pinned_cpus": args.cpus if args.pin else None,
              "warmup": args.warmup, "machine": platform.processor() or platform.machine(),
              "models": rows}
    with open(os.path.join(args.out_dir, "report.json"), "w") as f:
        json.dump(report, f, indent=1)
    compiled = any("torch_compile" in r for r in rows)
    lines = [f"Peak (1 thread, FMA loop, -O3 -march=native): {peak:.1f} GFLOP/s before the run; "
             "each row's % of peak is of the median of a peak run interleaved with its rounds "
             "(column peak). "
             f"Threads: {args.threads} (tcc context, onnxruntime intra-op, torch). "
             f"{args.iterations} interleaved runs after {args.warmup} warm-up"
             + (f", each {args.settle_ms:g} ms after the last" if args.threads > 1 else "")
             + (f". Every engine pinned to CPU {', '.join(map(str, args.cpus))}" if args.pin else "")
             + ".", "",
             "| model | GFLOP | tcc median / p90 ms | ort median / p90 ms | torch median / p90 ms "
             + ("| torch.compile median / p90 ms " if compiled else "")
             + "| tcc/ort | tcc/torch " + ("| tcc/torch.compile " if compiled else "")
             + "| peak GFLOP/s | tcc GFLOP/s (% peak) | ort GFLOP/s (% peak) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
             + ("---:|---:|" if compiled else "")]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['model']} | error: {r['error'][:120]} ||||||||| ")
            continue

        def lat(k):
            return f"{r[k]['median_ms']:.2f} / {r[k]['p90_ms']:.2f}" if k in r else "—"

        def gf(k):
            return (f"{r[k]['gflops']:.1f} ({100 * r[k]['peak_fraction']:.1f}%)" if k in r
                    else "—")

        lines.append(f"| {r['model']} | {r['gflop']:.2f} | {lat('tcc')} | {lat('ort')} | "
                     f"{lat('torch')} | " + (f"{lat('torch_compile')} | " if compiled else "")
                     + f"{fmt(r.get('tcc_over_ort'))} | {fmt(r.get('tcc_over_torch'))} | "
                     + (f"{fmt(r.get('tcc_over_torch_compile'))} | " if compiled else "")
                     + f"{r['peak_gflops']:.1f} | {gf('tcc')} | {gf('ort')} |")
    ok = [r for r in rows if "tcc_over_ort" in r]
    if ok:
        g = np.exp(np.mean([np.log(r["tcc_over_ort"]) for r in ok]))
        line = f"\nGeometric mean tcc/ort: {g:.2f}"
        for k, label in (("torch", "tcc/torch"), ("torch_compile", "tcc/torch.compile")):
            tt = [r for r in ok if f"tcc_over_{k}" in r]
            if tt:
                g = np.exp(np.mean([np.log(r[f"tcc_over_{k}"]) for r in tt]))
                line += f"; {label}: {g:.2f}"
        lines.append(line + " (below 1: tcc faster).")
    notes = [f"{r['model']}: {k}: {r[k]}" for r in rows
             for k in ("torch_error", "torch_compile_error", "torch_compile_s", "flops_note")
             if k in r]
    # A shared host's neighbours slow the caches, not the FMA loop, for seconds at a time: the
    # fastest run shows what a kernel does on a quiet core.
    notes += [f"{r['model']}: fastest run, % of peak: "
              + ", ".join(f"{k} {100 * r['gflop'] / (r[k]['min_ms'] * 1e-3) / r['peak_gflops']:.1f}%"
                          for k in ("tcc", "ort") if k in r)
              for r in rows if r["model"].startswith("gemm_") and "tcc" in r]
    notes += [f"{r['model']}: tcc vs ort max |diff| {r['max_abs_err_vs_ort']:.2g}" for r in rows
              if r.get("max_abs_err_vs_ort") is not None]
    # --bf16: tcc at --precision bf16 beside the fp32 engines.
    notes += [f"{r['model']}: tcc --precision bf16 median / p90 {r['tcc_bf16']['median_ms']:.2f} / "
              f"{r['tcc_bf16']['p90_ms']:.2f} ms; bf16/tcc fp32 {r['tcc_bf16_over_tcc']:.2f}"
              + "".join(f", bf16/{label} {r[f'tcc_bf16_over_{k}']:.2f}"
                        for k, label in (("ort", "ort"), ("torch", "torch"),
                                         ("torch_compile", "torch.compile"))
                        if f"tcc_bf16_over_{k}" in r)
              + (f"; max |diff| vs ort {r['bf16_rel_err_vs_ort']:.2g} of the largest output"
                 if r.get("bf16_rel_err_vs_ort") is not None else "")
              for r in rows if "tcc_bf16" in r]
    if notes:
        lines += ["", "Notes:"] + [f"- {n}" for n in notes]
    md = "\n".join(lines) + "\n"
    with open(os.path.join(args.out_dir, "report.md"), "w") as f:
        f.write(md)
    return md


def plot(args, rows):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib not importable: no chart (pip install matplotlib)"
    ok = [r for r in rows if "tcc_over_ort" in r]
    x = np.arange(len(ok))
    fig, ax = plt.subplots(figsize=(max(4, 1.6 * len(ok) + 2), 4))
    ax.bar(x - 0.2, [1 / r["tcc_over_ort"] for r in ok], 0.4, label="vs onnxruntime")
    ax.bar(x + 0.2, [1 / r["tcc_over_torch"] if "tcc_over_torch" in r else 0 for r in ok], 0.4,
           label="vs PyTorch eager")
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xticks(x, [r["model"] for r in ok], rotation=20)
    ax.set_ylabel("tcc speedup (median latency ratio)")
    ax.set_title(f"tcc speedup, {args.threads} thread(s); above 1: tcc faster")
    ax.legend()
    fig.tight_layout()
    out = os.path.join(args.out_dir, "speedup.png")
    fig.savefig(out, dpi=120)
    return f"chart: {out}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", nargs="*", default=DEFAULT_MODELS)
    p.add_argument("--gemm", nargs="*", default=[], metavar="MxNxK",
                   help="also time single fp32 MatMuls of these shapes (tcc vs onnxruntime), e.g. "
                        "1024x1024x1024 128x768x768 128x3072x768 128x768x3072")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--settle-ms", type=float, default=250.0,
                   help="with --threads > 1: idle time before each timed run, so the other "
                        "engines' spinning threads have gone to sleep (default 250: above "
                        "OpenMP's 200 ms block time)")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seq", type=int, default=128, help="sequence length of text models")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-torch", action="store_true", help="skip PyTorch eager")
    p.add_argument("--no-pin", dest="pin", action="store_false",
                   help="do not pin every engine to the first --threads CPUs")
    p.add_argument("--torch-compile", action="store_true",
                   help="also time torch.compile (TorchInductor); compiling takes minutes per "
                        "model on a small machine, reported as torch_compile_s")
    p.add_argument("--bf16", action="store_true",
                   help="also time tcc compile --precision bf16 (engine tcc_bf16), with its "
                        "ratios to the others in the notes")
    p.add_argument("--out-dir", default=os.path.join(ROOT, "build", "bench"))
    p.add_argument("--cache", default=None, help="folder of exported .onnx (default: "
                   "build/models/suite/ts17)")
    p.add_argument("--tcc", default=None)
    p.add_argument("--rtlib", default=None)
    p.add_argument("--include", default=os.path.join(ROOT, "include"))
    p.add_argument("--cc", default=os.environ.get("CC", "cc"))
    args = p.parse_args()
    args.cache = args.cache or default_path("build", "models", "suite", "ts17")
    args.tcc = args.tcc or default_path("build", "bin", "tcc")
    args.rtlib = args.rtlib or default_path("build", "lib", "libtccrt.a")
    os.makedirs(args.out_dir, exist_ok=True)
    # Every engine on the same --threads CPUs (the children inherit it): unpinned, the tcc
    # process, idle while onnxruntime and torch run in this one, woke on a core idle that long
    # (ResNet-50, 1 thread: 40.8 ms back to back, 43.1 after 120 ms asleep; onnxruntime, whose
    # runs follow a shorter wait, 43.9 and 45.1).
    args.cpus = sorted(os.sched_getaffinity(0))[:args.threads]
    if args.pin:
        os.sched_setaffinity(0, args.cpus)

    peak_exe = os.path.join(args.out_dir, "peak_flops")
    sh([args.cc, "-O3", "-march=native", os.path.join(ROOT, "utils", "peak_flops.c"), "-o",
        peak_exe])
    args.peak_exe = peak_exe
    peak = PeakEngine(peak_exe, 50_000_000).run()
    print(f"peak: {peak:.1f} GFLOP/s (1 thread)", flush=True)

    rows = []
    for shape in args.gemm:
        print(f"gemm {shape} ...", flush=True)
        rows.append(bench_gemm(args, shape))
    for name in args.models:
        print(f"{name} ...", flush=True)
        try:
            rows.append(bench_model(args, name))
        except Exception as e:  # noqa: BLE001 - one failing model does not stop the rest
            rows.append({"model": name, "error": f"{type(e).__name__}: {e}"[:2000]})
            print(f"  error: {rows[-1]['error'][:500]}", flush=True)
        write_reports(args, peak, rows)
    print(write_reports(args, peak, rows))
    print(plot(args, rows))


if __name__ == "__main__":
    main()
