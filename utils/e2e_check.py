#!/usr/bin/env python3
"""e2e_check.py - compiles one ONNX model with tcc, runs it (C harness or `tcc run`) and compares with onnxruntime."""
import argparse
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import threading
import time

import numpy as np
import onnx
import onnxruntime as ort

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NP_DTYPES = {  # ONNX TensorProto.DataType -> numpy
    1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32, 7: np.int64,
    9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64,
}


_log = threading.local()


def echo(msg):
    """Prints a progress line to this thread's log (see log_to), by default stdout."""
    print(msg, file=getattr(_log, "file", None) or sys.stdout, flush=True)


class log_to:
    """`with log_to(f):` sends this thread's echo() lines (run()'s commands and timings) to f."""

    def __init__(self, f):
        self.f = f

    def __enter__(self):
        self.saved, _log.file = getattr(_log, "file", None), self.f
        return self.f

    def __exit__(self, *exc):
        _log.file = self.saved


class StepError(Exception):
    """A step failed; `output` holds what it printed when it was captured, `returncode` its exit
    status (negative: killed by that signal; None: it timed out)."""

    def __init__(self, message, output="", returncode=None, timed_out=False):
        super().__init__(message)
        self.output, self.returncode, self.timed_out = output, returncode, timed_out


def run(cmd, timeout=None, capture=False, **kwargs):
    """Runs `cmd`, echoing it first so a failure can be reproduced by hand; returns its wall time
    in seconds. capture=True collects stdout and stderr (together) instead of passing them through;
    they are printed when the command fails and kept in the StepError."""
    echo("+ " + shlex.join(cmd))
    if capture:
        kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired as e:
        out = e.output or ""
        out = out.decode(errors="replace") if isinstance(out, bytes) else out
        raise StepError(f"timed out after {timeout} s: {shlex.join(cmd)}", out, None, True)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        if capture and proc.stdout:
            echo(proc.stdout.rstrip("\n"))
        raise StepError(f"command failed with exit status {proc.returncode}: {shlex.join(cmd)}",
                        proc.stdout if capture else "", proc.returncode)
    echo(f"  ({elapsed:.2f} s)")
    return elapsed


def model_name(path):
    name = re.sub(r"[^A-Za-z0-9_]", "_", os.path.splitext(os.path.basename(path))[0])
    return name if name and not name[0].isdigit() else "_" + name


def graph_inputs(model, dims=None):
    """(name, numpy dtype, shape) of the real inputs (not initializers listed as inputs); a
    symbolic dim takes its value from `dims` (name -> int), else 1."""
    inits = {i.name for i in model.graph.initializer}
    result = []
    for v in model.graph.input:
        if v.name in inits:
            continue
        t = v.type.tensor_type
        if t.elem_type not in NP_DTYPES:
            raise StepError(f"input {v.name!r}: unsupported element type {t.elem_type}")
        shape = []
        for d in t.shape.dim:
            if d.HasField("dim_value") and d.dim_value > 0:
                shape.append(d.dim_value)
            elif dims and d.dim_param in dims:
                shape.append(dims[d.dim_param])
            else:
                print(f"note: input {v.name!r} has a symbolic dim {d.dim_param or '?'}; using 1")
                shape.append(1)
        result.append((v.name, NP_DTYPES[t.elem_type], shape))
    return result


def name_unknown_dims(model):
    """An input dim written as dim_value -1 (an exporter's unknown dim) gets the symbolic name tcc
    gives it, <input>_dim<i> (see nameUnknownDims in lib/Import/ONNXImporter.cpp)."""
    inits = {i.name for i in model.graph.initializer}
    taken = {d.dim_param for v in model.graph.input for d in v.type.tensor_type.shape.dim
             if d.dim_param}
    for v in model.graph.input:
        if v.name in inits:
            continue
        for i, d in enumerate(v.type.tensor_type.shape.dim):
            if d.HasField("dim_value") and d.dim_value == -1:
                name = f"{v.name}_dim{i}"
                while name in taken:
                    name += "_"
                taken.add(name)
                d.dim_param = name
    return model


def make_inputs(model, seed, dims=None):
    rng = np.random.default_rng(seed)
    feeds = {}
    for name, dtype, shape in graph_inputs(model, dims):
        if np.issubdtype(dtype, np.floating):
            a = rng.standard_normal(shape).astype(dtype)
        elif dtype == np.bool_:
            a = rng.integers(0, 2, shape).astype(np.bool_)
        else:
            a = rng.integers(0, 4, shape).astype(dtype)
        feeds[name] = np.ascontiguousarray(a)
    return feeds


def reference(onnx_path, feeds):
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(onnx_path, opts, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    return dict(zip(names, sess.run(names, feeds)))


def run_harness(args, onnx_path, name, feeds, refs, work):
    obj = os.path.join(work, name + ".o")
    run([args.tcc, "compile", onnx_path, "-o", obj, "--name", name] + args.tcc_args)
    exe = link_harness(args, name, obj, work)
    return run_harness_exe(exe, feeds, refs, work)


def link_harness(args, name, obj, work):
    """Links test/e2e/harness.c (args.harness) with the compiled model `obj` (header NAME.h beside
    it, symbol prefix `name`); returns the executable's path."""
    exe = os.path.join(work, "harness")
    with open(os.path.join(os.path.dirname(obj), name + ".h")) as f:
        gpu = ["-DTCC_MODEL_GPU_ARCH"] if f"{name.upper()}_GPU_ARCH" in f.read() else []
    run([args.cc, "-O1", "-I", args.include, "-I", os.path.dirname(obj),
         f'-DTCC_MODEL_HEADER="{name}.h"', f"-DTCC_MODEL_PREFIX={name}"] + gpu + [args.harness, obj,
         args.rtlib, "-lm", "-lpthread", "-ldl", "-o", exe])
    return exe


# A command that runs the harness (a list, e.g. ["qemu-aarch64-static", "-L",
# "/usr/aarch64-linux-gnu"]): an object and harness cross-compiled for another target, run under
# an emulator (--run-prefix; docs/cross.md).
RUN_PREFIX: list = []


def run_harness_exe(exe, feeds, refs, work, timeout=None, capture=False, batch=None):
    """Runs the harness on `feeds` (in order) and returns its outputs shaped like `refs`; `batch`
    (a model with a run-time batch dim): the samples the feeds hold, or the value of a bounded
    dim, or a (batch, value) pair for a model with both."""
    io_dir = os.path.join(work, "io")
    os.makedirs(io_dir, exist_ok=True)
    for i, a in enumerate(feeds.values()):
        a.tofile(os.path.join(io_dir, f"input_{i}.bin"))
    for i in range(len(refs)):
        for ext in ("bin", "dims"):
            path = os.path.join(io_dir, f"output_{i}.{ext}")
            if os.path.exists(path):
                os.unlink(path)
    counts = [] if batch is None else batch if isinstance(batch, tuple) else (batch,)
    run(RUN_PREFIX + [exe, io_dir] + [str(c) for c in counts], timeout=timeout, capture=capture)
    got = {}
    for i, (oname, ref) in enumerate(refs.items()):
        path = os.path.join(io_dir, f"output_{i}.bin")
        raw = np.fromfile(path, dtype=ref.dtype)
        dims_path = os.path.join(io_dir, f"output_{i}.dims")
        if os.path.exists(dims_path):  # dims known only after the run
            with open(dims_path) as f:
                dims = tuple(int(d) for d in f.read().split())
            if dims != ref.shape:
                raise StepError(f"output {oname!r}: tcc reports dims {dims}, onnxruntime gives {ref.shape}")
        if raw.size != ref.size:
            raise StepError(f"{path}: {raw.size} elements, onnxruntime gives {ref.size} {ref.shape}")
        got[oname] = raw.reshape(ref.shape)
    return got


def run_tcc_run(args, onnx_path, feeds, refs, work):
    in_dir, out_dir = os.path.join(work, "inputs"), os.path.join(work, "outputs")
    os.makedirs(in_dir, exist_ok=True)
    os.makedirs(out_dir, exist_ok=True)
    cmd = [args.tcc, "run", onnx_path]
    for i, (iname, a) in enumerate(feeds.items()):
        path = os.path.join(in_dir, f"input_{i}.npy")
        np.save(path, a)
        cmd += ["--input", f"{iname}={path}"]
    for oname in refs:
        path = os.path.join(out_dir, oname + ".npy")
        if os.path.exists(path):
            os.unlink(path)
    run(cmd + ["--output-dir", out_dir] + args.tcc_args)
    return {oname: np.load(os.path.join(out_dir, oname + ".npy")) for oname in refs}


def output_stats(a, b, rtol, atol, topk=(1, 5)):
    """Compares result `a` with reference `b` (pass: |a-b| <= atol + rtol*|b| everywhere); returns
    a dict: passed, max_abs, max_rel (where b != 0), max_ref, bad (elements out of tolerance),
    first_bad (index, got, expected), nans, and for [batch, classes] outputs topk agreement
    (top-k: the sets of the k largest agree) as {k: rows agreeing}; `error` for a shape/dtype
    mismatch."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return dict(passed=False, error=f"got {a.dtype}{list(a.shape)}, expected "
                                        f"{b.dtype}{list(b.shape)}")
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    diff = np.abs(a64 - b64)
    close = np.isclose(a64, b64, rtol=rtol, atol=atol)
    nz = b64 != 0  # relative error only where the reference is non-zero
    rel = diff[nz] / np.abs(b64[nz])
    st = dict(passed=bool(close.all()),
              max_abs=float(np.max(diff)) if diff.size else 0.0,  # NaN when a result is NaN
              max_rel=float(np.max(rel)) if rel.size else 0.0,
              max_ref=float(np.abs(b64).max()) if b.size else 0.0,
              nans=int(np.isnan(a64).sum()))
    if b.ndim == 2 and b.shape[1] > 1:
        st["topk"] = {}
        for k in topk:
            if k <= b.shape[1]:
                ta = np.argsort(-a64, 1, kind="stable")[:, :k]
                tb = np.argsort(-b64, 1, kind="stable")[:, :k]
                st["topk"][k] = int(sum(set(x) == set(y) for x, y in zip(ta, tb)))
    if not st["passed"]:
        bad = np.argwhere(~close)
        idx = tuple(int(i) for i in bad[0])
        st.update(bad=len(bad), first_bad=(list(idx), float(a64[idx]), float(b64[idx])))
    return st


def compare(got, refs, rtol, atol):
    ok = True
    for oname, b in refs.items():
        st = output_stats(got[oname], b, rtol, atol)
        if "error" in st:
            print(f"output {oname!r}: FAIL: {st['error']}")
            ok = False
            continue
        line = (f"output {oname!r}: shape {list(b.shape)} {b.dtype}: max abs err {st['max_abs']:.3g}, "
                f"max rel err {st['max_rel']:.3g}, max |ref| {st['max_ref']:.3g}")
        if "topk" in st:
            line += f", top-1 agreement {st['topk'][1]}/{b.shape[0]}"
        print(line + (": PASS" if st["passed"] else ": FAIL"))
        if not st["passed"]:
            idx, got_v, ref_v = st["first_bad"]
            print(f"  {st['bad']}/{b.size} elements out of tolerance (atol {atol}, rtol {rtol}); "
                  f"first at {idx}: got {got_v:.9g}, expected {ref_v:.9g}; "
                  f"NaNs in result: {st['nans']}")
            ok = False
    return ok


def check_batches(args, onnx_path, name, model, work):
    """Compiles the model once, its symbolic batch dim left to run time, and checks it at each of
    args.batches (every symbolic input dim takes the batch's value)."""
    obj = os.path.join(work, name + ".o")
    run([args.tcc, "compile", onnx_path, "-o", obj, "--name", name] + args.tcc_args)
    exe = link_harness(args, name, obj, work)
    symbolic = {d.dim_param for v in model.graph.input
                for d in v.type.tensor_type.shape.dim if d.dim_param}
    ok = run_values(args, onnx_path, model, exe, work, args.batches, "batch",
                    lambda batch: {d: batch for d in symbolic})
    print(f"e2e_check: {'PASS' if ok else 'FAIL'}: {os.path.basename(onnx_path)} at batches "
          f"{', '.join(map(str, args.batches))}, compiled once")
    return 0 if ok else 1


def run_values(args, onnx_path, model, exe, work, values, label, dims_of):
    """Runs the harness `exe` at each of `values` (its arguments: a batch, a bounded dim's value,
    or a (batch, value) pair), with inputs of dims dims_of(value), against onnxruntime; True when
    all match."""
    ok = True
    for value in values:
        seed = args.seed + (sum(value) if isinstance(value, tuple) else value)
        feeds = make_inputs(model, seed, dims_of(value))
        refs = reference(onnx_path, feeds)
        got = run_harness_exe(exe, feeds, refs, work, batch=value)
        print(f"{label} {value}: inputs " + ", ".join(
            f"{n!r} {list(a.shape)}" for n, a in feeds.items()))
        ok = compare(got, refs, args.rtol, args.atol) and ok
    return ok


def check_bounded(args, onnx_path, name, model, work):
    """Compiles the model once with its symbolic dim NAME varying up to MAX (args.max_dim,
    NAME=MAX; args.dims pin the others) and checks it at each of args.values; with args.batches
    too, the other symbolic dim is a run-time batch, checked at each (batch, value) pair."""
    dim, bound = args.max_dim.split("=")
    obj = os.path.join(work, name + ".o")
    pins = {}
    for spec in args.dim or []:
        k, v = spec.split("=")
        pins[k] = int(v)
    run([args.tcc, "compile", onnx_path, "-o", obj, "--name", name, "--max-dim", args.max_dim]
        + args.tcc_args + [f for spec in args.dim or [] for f in ("--dim", spec)])
    exe = link_harness(args, name, obj, work)
    if args.batches:
        if len(args.batches) != len(args.values):
            raise ValueError("--batches and --values with --max-dim: give as many of each")
        batch_dims = {d.dim_param for v in model.graph.input
                      for d in v.type.tensor_type.shape.dim if d.dim_param} - {dim} - set(pins)
        cases = list(zip(args.batches, args.values))
        ok = run_values(args, onnx_path, model, exe, work, cases, f"(batch, {dim})",
                        lambda c: dict(pins, **{d: c[0] for d in batch_dims}, **{dim: c[1]}))
        at = ", ".join(f"batch={b} {dim}={v}" for b, v in cases)
    else:
        ok = run_values(args, onnx_path, model, exe, work, args.values, dim,
                        lambda value: dict(pins, **{dim: value}))
        at = f"{dim}={', '.join(map(str, args.values))}"
    print(f"e2e_check: {'PASS' if ok else 'FAIL'}: {os.path.basename(onnx_path)} at {at} "
          f"(up to {bound}), compiled once")
    return 0 if ok else 1


def main():
    p = argparse.ArgumentParser(description=__doc__)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--onnx", help="MODEL.onnx to check")
    src.add_argument("--export", choices=("resnet18", "mobilenet_v2"),
                     help="export a torchvision model (cached in --cache-dir) and check it")
    p.add_argument("--cache-dir", default=os.path.join(ROOT, "build", "models"))
    p.add_argument("--tcc", default=os.path.join(ROOT, "build", "bin", "tcc"))
    p.add_argument("--include", default=os.path.join(ROOT, "include"))
    p.add_argument("--rtlib", default=os.path.join(ROOT, "build", "lib", "libtccrt.a"))
    p.add_argument("--harness", default=os.path.join(ROOT, "test", "e2e", "harness.c"))
    p.add_argument("--cc", default=os.environ.get("CC", "cc"))
    p.add_argument("--run-prefix", type=shlex.split, default=[],
                   help="run the harness under this command, one string (a cross-compiled one: "
                        "\"qemu-aarch64-static -L /usr/aarch64-linux-gnu\")")
    p.add_argument("--workdir", help="scratch directory (default: build/e2e/NAME)")
    p.add_argument("--rtol", type=float, default=1e-4)
    p.add_argument("--atol", type=float, default=1e-5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tcc-run", action="store_true",
                   help="run with `tcc run ... --output-dir` instead of the C harness")
    p.add_argument("--max-dim", help="NAME=MAX: compile with the symbolic dim NAME varying up to "
                   "MAX, and check it at each of --values (with --dim pins for the others)")
    p.add_argument("--values", type=lambda v: [int(b) for b in v.split(",")])
    p.add_argument("--dim", action="append", help="NAME=VALUE pin, with --max-dim")
    p.add_argument("--batches", type=lambda v: [int(b) for b in v.split(",")],
                   help="B1,B2,...: compile once with the symbolic batch dim left to run time, "
                        "run the C harness at each batch (with --max-dim: at each batch with the "
                        "matching one of --values)")
    p.add_argument("--tcc-args", type=shlex.split, default=[],
                   help="more options of tcc compile / tcc run, one string "
                        "(e.g. \"--target cuda --gpu-emulate\")")
    args = p.parse_args()
    RUN_PREFIX[:] = args.run_prefix

    try:
        if args.export:
            spec = importlib.util.spec_from_file_location(
                "export_torchvision", os.path.join(ROOT, "models", "export_torchvision.py"))
            exporter = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(exporter)
            onnx_path = exporter.export(args.export, os.path.join(args.cache_dir, args.export + ".onnx"))
        else:
            onnx_path = args.onnx
        onnx_path = os.path.abspath(onnx_path)
        name = model_name(onnx_path)
        work = os.path.abspath(args.workdir or os.path.join(ROOT, "build", "e2e", name))
        os.makedirs(work, exist_ok=True)
        for opt in ("tcc", "include", "rtlib", "harness"):
            setattr(args, opt, os.path.abspath(getattr(args, opt)))
        print(f"e2e_check: {onnx_path} ({'tcc run' if args.tcc_run else 'C harness'}), "
              f"workdir {work}, seed {args.seed}")

        model = name_unknown_dims(onnx.load(onnx_path, load_external_data=False))
        if args.max_dim:
            return check_bounded(args, onnx_path, name, model, work)
        if args.batches:
            return check_batches(args, onnx_path, name, model, work)
        feeds = make_inputs(model, args.seed)
        for iname, a in feeds.items():
            print(f"input {iname!r}: shape {list(a.shape)} {a.dtype}")
        start = time.monotonic()
        refs = reference(onnx_path, feeds)
        print(f"onnxruntime reference: {time.monotonic() - start:.2f} s")
        if args.tcc_run:
            got = run_tcc_run(args, onnx_path, feeds, refs, work)
        else:
            got = run_harness(args, onnx_path, name, feeds, refs, work)
    except (StepError, OSError, ValueError, onnx.onnx_cpp2py_export.checker.ValidationError) as e:
        print(f"e2e_check: error: {e}", file=sys.stderr)
        return 3

    ok = compare(got, refs, args.rtol, args.atol)
    print(f"e2e_check: {'PASS' if ok else 'FAIL'}: {os.path.basename(onnx_path)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
