#!/usr/bin/env python3
"""model_suite.py - the model suite: exports real PyTorch architectures (models/export_suite.py,
cached), compiles each with tcc (symbolic dims pinned with --dim), runs it through the C harness on
seeded inputs, and compares with onnxruntime (CPU EP, graph optimizations off).

Pass: every output within |got - ref| <= atol + rtol*|ref| elementwise (default rtol 1e-3,
atol 1e-4). Writes OUT_DIR/report.md and OUT_DIR/report.json (default build/model-suite), one
row per model and flavour: family, op count, compile time, pass/fail, max error, failure reason;
the last line printed is "N passed, N failed".

    .venv/bin/python utils/model_suite.py                       # everything, both flavours
    .venv/bin/python utils/model_suite.py --subset ci --flavour ts17
    .venv/bin/python utils/model_suite.py --filter '^resnet' --flavour ts17 --update
"""
import argparse
import concurrent.futures
import json
import os
import re
import resource
import shlex
import sys
import time

import numpy as np
import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "models"))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import e2e_check  # noqa: E402
import export_suite  # noqa: E402
import int8_flip  # noqa: E402
from e2e_check import StepError, log_to, run  # noqa: E402

# Flavours of int8 models: judged against onnxruntime's int8 kernels when outside tolerance.
QUANTIZED = ("qdq", "qdqs8", "qop")
# Flavours of dynamically quantized models: judged by their distance from float64 PyTorch.
DYNAMIC = ("dyn", "trfdyn")


def rel(path):
    """`path` relative to the repository root when inside it (for readable repro commands)."""
    path = os.path.abspath(path)
    r = os.path.relpath(path, ROOT)
    return path if r.startswith("..") else r


def error_line(output, fallback):
    """The first line of a failing command's output that states the error."""
    lines = [l.strip() for l in (output or "").splitlines() if l.strip()]
    for pat in (r"\berror\b", r"Assertion|LLVM ERROR|UNREACHABLE|Segmentation|Aborted|terminate",
                r"."):
        for l in lines:
            if re.search(pat, l, re.I if pat == r"\berror\b" else 0):
                return l[:400]
    return fallback


def count_nodes(graph):
    n = 0
    for node in graph.node:
        n += 1
        for a in node.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                n += count_nodes(a.g)
            elif a.type == onnx.AttributeProto.GRAPHS:
                n += sum(count_nodes(g) for g in a.graphs)
    return n


def pinned_dims(model, spec, run_dims):
    """{dim_param: value} for the model's symbolic input dims, from the spec's concrete run shape
    at the same position (the exporters name dims differently)."""
    dims = {}
    by_name = {i.name: i for i in spec.inputs}
    for v in model.graph.input:
        if v.name not in by_name:
            continue
        concrete = by_name[v.name].concrete(run_dims)
        for pos, d in enumerate(v.type.tensor_type.shape.dim):
            if d.dim_param and pos < len(concrete):
                dims.setdefault(d.dim_param, concrete[pos])
    return dims


def signal_name(rc):
    import signal

    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def step_reason(what, e, path=None):
    """A one-line reason for a failed step (StepError)."""
    if e.timed_out:
        return f"{what} timeout: {str(e).split(':')[0]}"
    line = error_line(e.output, str(e))
    if path:
        line = line.replace(path + ": ", "").replace(path, os.path.basename(path))
    if e.returncode is not None and e.returncode < 0:
        return f"{what} crashed ({signal_name(e.returncode)}): {line}"
    return f"{what} failed: {line}"


def check_model(args, spec, flavour, path, row):
    """Fills `row` for one exported model: reference, compile, link, run, compare. With
    --batches, the batch dim is left symbolic: compiled once, run at each batch."""
    work = os.path.join(args.out_dir, "work", flavour, spec.name)
    os.makedirs(work, exist_ok=True)
    model = onnx.load(path, load_external_data=False)
    row["opset"] = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    row["ops"] = count_nodes(model.graph)
    row["op_types"] = sorted({n.op_type for n in model.graph.node})
    run_dims = dict(export_suite.RUN_DIMS, batch=args.batch)
    dims = pinned_dims(model, spec, run_dims)
    batches = [None]
    bounded = None
    def follow(dim):
        """The model's names of the dims that follow run dim `dim`."""
        other = pinned_dims(model, spec, dict(run_dims, **{dim: run_dims[dim] + 1}))
        return {d for d, v in dims.items() if other.get(d) != v}

    if args.seqs:
        # The dims that follow the sequence vary at run time up to --max-seq.
        names = sorted(follow("seq"))
        bounded = [f"{d}={args.max_seq}" for d in names]
        unpinned = set(names) | (follow("batch") if args.batches else set())
        dims = {d: v for d, v in dims.items() if d not in unpinned}
        # A model without a sequence dim (audio features of a fixed length) runs once.
        batches = args.seqs if names else [None]
        if args.batches and names:  # both vary: (batch, seq) pairs
            batches = list(zip(args.batches, args.seqs))
            row["batches"] = args.batches
        row["seqs"] = args.seqs if names else []
    elif args.batches:
        # The dims that follow the batch stay symbolic: the model's own names for it.
        unpinned = follow("batch")
        dims = {d: v for d, v in dims.items() if d not in unpinned}
        batches = args.batches
        row["batches"] = batches
    name = e2e_check.model_name(path)
    obj = os.path.join(work, name + ".o")
    compile_cmd = [args.tcc, "compile", path, "-o", obj, "--name", name]
    for d, v in sorted(dims.items()):
        compile_cmd += ["--dim", f"{d}={v}"]
    for spec_ in bounded or []:
        compile_cmd += ["--max-dim", spec_]
    compile_cmd += shlex.split(args.tcc_args)
    row["dims"] = dims
    row["compile_cmd"] = shlex.join([rel(c) if os.path.isabs(c) else c for c in compile_cmd])
    row["repro"] = shlex.join(
        [rel(sys.executable), rel(__file__), "--flavour", flavour, "--filter", f"^{spec.name}$",
         "--tcc", rel(args.tcc), "--rtlib", rel(args.rtlib), "--include", rel(args.include)]
        + (["--tcc-args", args.tcc_args] if args.tcc_args else [])
        + (["--batches", ",".join(map(str, args.batches))] if args.batches else [])
        + (["--max-seq", str(args.max_seq), "--seqs", ",".join(map(str, args.seqs))]
           if args.seqs else []))

    # (batch, feeds, refs) per run; the references first: a model onnxruntime rejects is not
    # tcc's failure.
    cases = []
    start = time.monotonic()
    def at(batch):
        """The run dims of one case: a batch, a seq, or a (batch, seq) pair."""
        if isinstance(batch, tuple):
            return dict(run_dims, batch=batch[0], seq=batch[1])
        return dict(run_dims, **{"seq" if args.seqs else "batch": batch})

    # The fp16 flavour's inputs are float16: the same seeded values, rounded.
    halves = {i.name for i in onnx.load(path, load_external_data=False).graph.input
              if i.type.tensor_type.elem_type == onnx.TensorProto.FLOAT16}
    for batch in batches:
        feeds = export_suite.make_feeds(spec, args.seed, run_dims if batch is None else at(batch))
        feeds = {k: v.astype(np.float16) if k in halves else v for k, v in feeds.items()}
        try:
            cases.append((batch, feeds, e2e_check.reference(path, feeds)))
        except Exception as e:  # onnxruntime rejects the model: the exporter's fault, not tcc's
            row.update(stage="reference", reason=f"onnxruntime failed: {type(e).__name__}: "
                                                 f"{export_suite._first_line(e)}")
            return
    row["ort_s"] = round(time.monotonic() - start, 3)

    try:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        row["compile_s"] = round(run(compile_cmd, timeout=args.compile_timeout, capture=True), 2)
        if args.jobs == 1:  # CPU time of tcc alone (the children's rusage is per process)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            row["compile_cpu_s"] = round(after.ru_utime + after.ru_stime
                                         - usage.ru_utime - usage.ru_stime, 2)
    except StepError as e:
        row.update(stage="compile", reason=step_reason("compile", e, path))
        if e.timed_out:
            row["compile_s"] = args.compile_timeout
            row["reason"] = f"compile timeout (> {args.compile_timeout} s)"
        return
    try:
        exe = e2e_check.link_harness(args, name, obj, work)
    except StepError as e:
        row.update(stage="link", reason=step_reason("link", e))
        return
    if args.compile_only:
        if args.save_io:
            save_io(work, cases)
        row.update(stage="ok", status="pass", compile_only=True)
        return
    row["run_s"] = 0.0
    for batch, feeds, refs in cases:
        try:
            start = time.monotonic()
            got = e2e_check.run_harness_exe(exe, feeds, refs, work, timeout=args.run_timeout,
                                            capture=True, batch=batch)
            row["run_s"] = round(row["run_s"] + time.monotonic() - start, 3)
        except StepError as e:
            row.update(stage="run", reason=step_reason("run", e))
            if e.timed_out:
                row["reason"] = f"run timeout (> {args.run_timeout} s)"
            if batch is not None:
                label = ("(batch, seq)" if isinstance(batch, tuple)
                         else "seq" if args.seqs else "batch")
                row["reason"] = f"{label} {batch}: {row['reason']}"
            return
        if not compare_outputs(args, spec, feeds, refs, got, row, batch,
                               path if flavour in QUANTIZED else None,
                               dynamic=flavour in DYNAMIC):
            return


def save_io(work, cases):
    """For a check elsewhere (utils/gpu_check.sh): WORK/io/input_<i>.bin as the harness reads them,
    and onnxruntime's outputs as WORK/io/ref_<i>.npy; one case (no --batches)."""
    (_, feeds, refs), = cases
    io_dir = os.path.join(work, "io")
    os.makedirs(io_dir, exist_ok=True)
    for i, a in enumerate(feeds.values()):
        a.tofile(os.path.join(io_dir, f"input_{i}.bin"))
    for i, (name, ref) in enumerate(refs.items()):
        np.save(os.path.join(io_dir, f"ref_{i}.npy"), ref)
    with open(os.path.join(io_dir, "outputs.json"), "w") as f:
        json.dump([name for name in refs], f)


def compare_outputs(args, spec, feeds, refs, got, row, batch, quantized=None, dynamic=False):
    """Compares one run's outputs with onnxruntime's into `row`; False when they differ. For a
    quantized model (`quantized`: its path), the arbiter is onnxruntime's int8 kernels, not
    float64 PyTorch; for a dynamically quantized one (`dynamic`), dynamic_arbiter."""
    bad_refs = [o for o, r in refs.items() if np.issubdtype(r.dtype, np.floating)
                and not np.isfinite(r).all()]
    outs, fails = {}, []
    for oname, ref in refs.items():
        st = e2e_check.output_stats(got[oname], ref, args.rtol, args.atol)
        outs[oname] = st
        if not st["passed"]:
            if "error" in st:
                fails.append(f"output {oname}: {st['error']}")
            else:
                fails.append(f"output {oname}: max abs err {st['max_abs']:.3g}, max rel err "
                             f"{st['max_rel']:.3g} (max |ref| {st['max_ref']:.3g}), {st['bad']}/"
                             f"{ref.size} elements out of tolerance"
                             + (f", {st['nans']} NaNs" if st["nans"] else ""))
    row["outputs"] = outs
    numeric = [st for st in outs.values() if "max_abs" in st]
    if numeric:
        row["max_abs"] = max([row.get("max_abs", 0.0)] + [st["max_abs"] for st in numeric])
        row["max_rel"] = max([row.get("max_rel", 0.0)] + [st["max_rel"] for st in numeric])
    first = outs[next(iter(refs))]
    if spec.classifier and "topk" in first:
        row["top1"], row["top5"] = first["topk"].get(1), first["topk"].get(5)
        row["rows"] = int(refs[next(iter(refs))].shape[0])
    at = "" if batch is None else f"batch {batch}: "
    if fails and all("max_abs" in st for st in outs.values()):
        verdict = (int8_arbiter(args, quantized, feeds, refs, got) if quantized
                   else dynamic_arbiter(spec, feeds, refs, got) if dynamic
                   else float64_arbiter(args, spec, feeds, refs, got))
        if verdict["closer"]:
            row.update(stage="ok", status="pass", arbiter=verdict,
                       note=f"{at}outside tolerance of onnxruntime ({'; '.join(fails)}); "
                            f"{verdict['detail']}")
            finish_notes(row, refs, bad_refs)
            return True
        fails.append(verdict["detail"])
    if fails:
        row.update(stage="compare", status="fail",
                   reason=f"{at}numerical mismatch: " + "; ".join(fails))
        return False
    row.update(stage="ok", status="pass")
    finish_notes(row, refs, bad_refs)
    return True


def finish_notes(row, refs, bad_refs):
    notes = [f"onnxruntime's reference has NaN/Inf in {', '.join(bad_refs)}"] if bad_refs else []
    constant = [o for o, r in refs.items() if r.size > 1 and np.all(r == r.flat[0])]
    if constant:
        notes.append(f"reference output {', '.join(constant)} is constant: the comparison is weak")
    if notes:
        row["note"] = "; ".join(([row["note"]] if row.get("note") else []) + notes)


def float64_errors(spec, feeds, refs, got):
    """Per float output: (name, the float64 evaluation of the same PyTorch model, tcc's abs
    errors against it, onnxruntime's); or a string saying why there is no float64 result."""
    try:
        truth = export_suite.float64_outputs(spec, feeds)
    except Exception as e:
        return (f"no float64 PyTorch result to arbitrate with: "
                f"{type(e).__name__}: {export_suite._first_line(e)}")
    rows = []
    for (oname, ref), t in zip(refs.items(), truth):
        if not np.issubdtype(ref.dtype, np.floating):
            continue
        t = np.asarray(t, np.float64).reshape(ref.shape)
        rows.append((oname, t, np.abs(got[oname].astype(np.float64) - t),
                     np.abs(ref.astype(np.float64) - t)))
    return rows


def float64_arbiter(args, spec, feeds, refs, got):
    """For a result outside tolerance of onnxruntime's float32 one: compares both with the
    float64 evaluation of the same PyTorch model. `closer` when, for every float output, tcc has
    no more elements out of tolerance of the float64 result than onnxruntime and no larger max abs
    error: the two float32 results differ by rounding, and tcc's rounds less. Never `closer` when
    onnxruntime itself is far from the float64 result (then the PyTorch model is not what was
    exported)."""
    errors = float64_errors(spec, feeds, refs, got)
    if isinstance(errors, str):
        return dict(closer=False, detail=errors)
    closer, parts = True, []
    for oname, t, e_tcc, e_ort in errors:
        tol = args.atol + args.rtol * np.abs(t)
        bad_tcc, bad_ort = int((e_tcc > tol).sum()), int((e_ort > tol).sum())
        m_tcc, m_ort = float(e_tcc.max()), float(e_ort.max())
        sane = m_ort <= 10 * (args.atol + args.rtol * float(np.abs(t).max()))
        closer &= sane and bad_tcc <= bad_ort and m_tcc <= m_ort
        parts.append(f"output {oname} against float64 PyTorch: tcc max abs err {m_tcc:.3g}, "
                     f"{bad_tcc} elements out of tolerance; onnxruntime {m_ort:.3g}, {bad_ort}"
                     + ("" if sane else " (onnxruntime is far from it: no arbitration)"))
    detail = "; ".join(parts) + ("; tcc is the closer" if closer else "")
    return dict(closer=closer, detail=detail)


def dynamic_arbiter(spec, feeds, refs, got):
    """For a dynamically quantized model (DynamicQuantizeLinear picks each activation's scale from
    its min and max at run time) outside tolerance of onnxruntime: a last-bit difference upstream
    moves a min or max, the scale with it, and a quantization step of many values, in tcc as in
    onnxruntime's optimized and unoptimized runs. Compares both with the float64 evaluation of the
    unquantized PyTorch model: `closer` when, for every float output, tcc's max and mean abs
    errors are at most 1.25 times onnxruntime's (both quantize alike, to the same distance from
    the float model)."""
    errors = float64_errors(spec, feeds, refs, got)
    if isinstance(errors, str):
        return dict(closer=False, detail=errors)
    closer, parts = True, []
    for oname, _, e_tcc, e_ort in errors:
        closer &= (float(e_tcc.max()) <= 1.25 * float(e_ort.max()) and
                   float(e_tcc.mean()) <= 1.25 * float(e_ort.mean()))
        parts.append(f"output {oname} against the float model (float64 PyTorch): tcc max abs err "
                     f"{e_tcc.max():.3g}, mean {e_tcc.mean():.3g}; onnxruntime {e_ort.max():.3g}, "
                     f"mean {e_ort.mean():.3g}")
    detail = "; ".join(parts) + ("; as close as onnxruntime" if closer else "")
    return dict(closer=closer, detail=detail)


def int8_arbiter(args, path, feeds, refs, got):
    """For a quantized model outside tolerance of onnxruntime's reference run (graph
    optimizations off: each QDQ op in float, as the ONNX spec has it): compares both with
    onnxruntime's optimized run, which fuses them into its int8 kernels (QLinearConv,
    QLinearAdd), rounding where they round. tcc's int8 kernels round as those do; a last-bit
    difference moves a value by a quantization step, and a step early on moves many later. `closer`
    when, for every float output, tcc has no more elements out of tolerance of the int8 kernels'
    result than the reference run and no larger max abs error. A model of int8 activations
    (qdqs8) is given to onnxruntime with them flipped to uint8 (int8_flip.py: the same values),
    which it fuses throughout, as tcc does."""
    opts = e2e_check.ort.SessionOptions()
    opts.graph_optimization_level = e2e_check.ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    model = onnx.load(path)
    if int8_flip.has_int8_activations(model):
        path = int8_flip.uint8_activations(model).SerializeToString()
    sess = e2e_check.ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    kernels = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds)))
    closer, parts = True, []
    for oname, ref in refs.items():
        if not np.issubdtype(ref.dtype, np.floating):
            continue
        k = kernels[oname].astype(np.float64)
        tol = args.atol + args.rtol * np.abs(k)
        e_tcc = np.abs(got[oname].astype(np.float64) - k)
        e_ref = np.abs(ref.astype(np.float64) - k)
        bad_tcc, bad_ref = int((e_tcc > tol).sum()), int((e_ref > tol).sum())
        m_tcc, m_ref = float(e_tcc.max()), float(e_ref.max())
        closer &= bad_tcc <= bad_ref and m_tcc <= m_ref
        parts.append(f"output {oname} against onnxruntime's int8 kernels (all optimizations): "
                     f"tcc max abs err {m_tcc:.3g}, {bad_tcc} elements out of tolerance; "
                     f"onnxruntime unoptimized {m_ref:.3g}, {bad_ref}")
    detail = "; ".join(parts) + ("; tcc is the closer" if closer else "")
    return dict(closer=closer, detail=detail)


def run_one(args, spec, flavour, path):
    row = dict(model=spec.name, source=spec.source, family=spec.family, flavour=flavour,
               status="fail", stage="", reason="", tcc_build=tcc_identity(args.tcc))
    work = os.path.join(args.out_dir, "work", flavour, spec.name)
    os.makedirs(work, exist_ok=True)
    start = time.monotonic()
    with open(os.path.join(work, "log.txt"), "w") as log, log_to(log):
        try:
            check_model(args, spec, flavour, path, row)
        except Exception as e:  # a bug of this script or an unreadable model: still a row
            row.update(stage="harness", reason=f"harness error: {type(e).__name__}: {e}")
        e2e_check.echo(json.dumps(row, indent=1, default=str))
    row["total_s"] = round(time.monotonic() - start, 1)
    return row


def compile_time(r):
    if r.get("compile_s") is None:
        return ""
    cpu = f" ({r['compile_cpu_s']})" if r.get("compile_cpu_s") is not None else ""
    return f"{r['compile_s']}{cpu}"


def fmt_err(x):
    return "" if x is None else f"{x:.2g}"


def cause(reason):
    """Groups failure reasons: names, numbers and quoted strings dropped."""
    r = re.sub(r"^numerical mismatch: .*", "numerical mismatch", reason)
    r = re.sub(r"\S+\.onnx\b", "MODEL.onnx", r)
    r = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", r)
    r = re.sub(r"\b(node|output|value|input)\s+\S+", r"\1 …", r)
    r = re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "N", r)
    return r


def summarize(rows):
    lines = []
    passed = sum(r["status"] == "pass" for r in rows)
    groups = {}
    for r in rows:
        for key in (f"flavour {r['flavour']}", f"source {r['source']}",
                    f"family {r['family']}"):
            g = groups.setdefault(key, [0, 0])
            g[0] += r["status"] == "pass"
            g[1] += 1
    lines.append("Pass rate by group:")
    for key in sorted(groups):
        p, n = groups[key]
        lines.append(f"  {key:24} {p:3}/{n:<3} {100.0 * p / n:5.1f}%")
    timed = sorted((r for r in rows if r.get("compile_s") is not None),
                   key=lambda r: -r["compile_s"])
    lines.append("Slowest compiles:")
    for r in timed[:8]:
        cpu = (f" ({r['compile_cpu_s']:.1f} s CPU)" if r.get("compile_cpu_s") is not None
               else "")
        lines.append(f"  {r['compile_s']:7.1f} s{cpu}  {r['flavour']}/{r['model']} "
                     f"({r.get('ops')} ops)")
    fails = [r for r in rows if r["status"] != "pass"]
    if fails:
        by_cause = {}
        for r in fails:
            by_cause.setdefault((r["stage"], cause(r["reason"])), []).append(r)
        lines.append("Failures by cause:")
        for (stage, c), rs in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
            lines.append(f"  [{stage}] {c} ({len(rs)}): "
                         + ", ".join(f"{r['flavour']}/{r['model']}" for r in rs))
    arbitrated = [r for r in rows if r["status"] == "pass" and r.get("arbiter")]
    for kind, what in (("float", "float64 arbiter (outside tolerance of onnxruntime, closer "
                                 "than it to float64 PyTorch)"),
                       ("int8", "int8 arbiter (outside tolerance of onnxruntime's unoptimized "
                                "run, closer than it to onnxruntime's int8 kernels)"),
                       ("dynamic", "dynamic-quantization arbiter (outside tolerance of "
                                   "onnxruntime, as close as it to the float model)")):
        names = [f"{r['flavour']}/{r['model']}" for r in arbitrated if arbiter_kind(r) == kind]
        if names:
            lines.append(f"Passed by the {what}: " + ", ".join(names))
    builds = sorted({r["tcc_build"] for r in rows if r.get("tcc_build")})
    if len(builds) > 1:
        lines.append(f"Note: the rows come from {len(builds)} tcc builds: {', '.join(builds)}")
    if rows and all(r.get("compile_only") for r in rows if r["status"] == "pass"):
        lines.append(f"{passed} compiled and linked (not run: --compile-only), "
                     f"{len(rows) - passed} failed")
    else:
        lines.append(f"{passed} passed, {len(rows) - passed} failed")
    return lines


def arbiter_kind(r):
    return ("int8" if r["flavour"] in QUANTIZED else "dynamic" if r["flavour"] in DYNAMIC
            else "float")


def result_label(r):
    if r["status"] != "pass":
        return f"FAIL ({r['stage']})"
    if r.get("compile_only"):
        return "COMPILED"
    if not r.get("arbiter"):
        return "PASS"
    return {"int8": "PASS (int8 arbiter)", "dynamic": "PASS (dynamic-quantization arbiter)",
            "float": "PASS (float64 arbiter)"}[arbiter_kind(r)]


def write_reports(args, rows, config):
    os.makedirs(args.out_dir, exist_ok=True)
    summary = summarize(rows)
    data = dict(config=config, results=rows,
                passed=sum(r["status"] == "pass" for r in rows),
                failed=sum(r["status"] != "pass" for r in rows))
    tmp = os.path.join(args.out_dir, ".report.json.tmp")
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, default=str)
    os.replace(tmp, os.path.join(args.out_dir, "report.json"))

    md = ["# tcc model suite", "",
          f"tcc `{config['tcc']}` build {config.get('tcc_build')}; rtol {config['rtol']}, atol {config['atol']}; "
          f"batch {config['batch']}, seq {export_suite.RUN_DIMS['seq']}; seed {config['seed']}.",
          "Versions: " + ", ".join(f"{k} {v}" for k, v in config["versions"].items()) + ".", "",
          "Compile: wall seconds (CPU seconds of tcc when run with --jobs 1).", "",
          "| model | source | family | flavour | opset | ops | compile (s) | run (s) | result "
          "| max abs err | max rel err | top-1/top-5 | reason |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        topk = f"{r['top1']}/{r['top5']} of {r['rows']}" if r.get("top1") is not None else ""
        reason = (r.get("reason") or r.get("note") or "").replace("|", "\\|")
        md.append(f"| {r['model']} | {r['source']} | {r['family']} | {r['flavour']} "
                  f"| {r.get('opset') or ''} | {r.get('ops') or ''} "
                  f"| {compile_time(r)} "
                  f"| {r['run_s'] if r.get('run_s') is not None else ''} "
                  f"| {result_label(r)} "
                  f"| {fmt_err(r.get('max_abs'))} | {fmt_err(r.get('max_rel'))} | {topk} "
                  f"| {reason} |")
    md += ["", "```"] + summary + ["```", ""]
    fails = [r for r in rows if r["status"] != "pass" and r.get("repro")]
    if fails:
        md += ["## Reproduce", ""]
        for r in fails:
            md.append(f"- {r['flavour']}/{r['model']}: `{r['compile_cmd'] if r['stage'] == 'compile' else r['repro']}`")
        md.append("")
    with open(os.path.join(args.out_dir, "report.md"), "w") as f:
        f.write("\n".join(md))
    return summary


def tcc_identity(path):
    """sha256 prefix and modification time of the tcc binary: rows merged with --update may come
    from different builds."""
    import datetime
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    mtime = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc)
    return f"{h.hexdigest()[:12]} ({mtime:%Y-%m-%d %H:%M} UTC)"


def versions():
    v = {}
    for mod in ("torch", "torchvision", "timm", "transformers", "onnxscript", "onnx",
                "onnxruntime", "numpy"):
        try:
            v[mod] = __import__(mod).__version__
        except Exception:
            v[mod] = None
    return v


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("--filter", help="only models whose name matches REGEX (re.search)")
    p.add_argument("--flavour", default="all", choices=export_suite.FLAVOURS + ("all",),
                   help="exporter flavour: ts17 (TorchScript, opset 17), new (dynamo, newest "
                        "opset) or all (default)")
    p.add_argument("--subset", choices=sorted(export_suite.SUBSETS),
                   help="a named subset (ci: a few small models, a few minutes)")
    p.add_argument("--jobs", type=int, default=1, help="models checked at once (default 1)")
    p.add_argument("--tcc", default=os.path.join(ROOT, "build", "bin", "tcc"))
    p.add_argument("--rtlib", default=os.path.join(ROOT, "build", "lib", "libtccrt.a"))
    p.add_argument("--include", default=os.path.join(ROOT, "include"))
    p.add_argument("--harness", default=os.path.join(ROOT, "test", "e2e", "harness.c"))
    p.add_argument("--cc", default=os.environ.get("CC", "cc"))
    p.add_argument("--cache-dir", default=export_suite.DEFAULT_CACHE,
                   help="exported models: CACHE_DIR/<flavour>/<name>.onnx")
    p.add_argument("--out-dir", default=os.path.join(ROOT, "build", "model-suite"),
                   help="report.md, report.json and work/<flavour>/<name>/ (logs, objects)")
    p.add_argument("--report-only", action="store_true",
                   help="rewrite OUT_DIR/report.md from report.json, run nothing")
    p.add_argument("--update", action="store_true",
                   help="merge into OUT_DIR/report.json: keep its rows for models not run now")
    p.add_argument("--compile-timeout", type=int, default=600, help="seconds (default 600)")
    p.add_argument("--run-timeout", type=int, default=600, help="seconds (default 600)")
    p.add_argument("--rtol", type=float, default=1e-3)
    p.add_argument("--atol", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch", type=int, default=export_suite.RUN_DIMS["batch"],
                   help="the batch dim the models are compiled and run with (default 1)")
    p.add_argument("--batches", type=lambda v: [int(b) for b in v.split(",")],
                   help="B1,B2,...: leave the batch dim symbolic, compile each model once and "
                        "run it at each batch (through the checked call, tcc_run_tensors)")
    p.add_argument("--seqs", type=lambda v: [int(b) for b in v.split(",")],
                   help="S1,S2,...: let the sequence dim vary at run time up to --max-seq "
                        "(tcc compile --max-dim), compile each model once and run it at each "
                        "(with --batches, as many: the batch varies too, run at the pairs)")
    p.add_argument("--max-seq", type=int, default=128)
    p.add_argument("--tcc-args", default="",
                   help="more `tcc compile` options, one string (\"--target cuda --gpu-emulate\")")
    p.add_argument("--run-prefix", default="",
                   help="run the harness under this command, one string: with --tcc-args "
                        "\"--mtriple aarch64-linux-gnu\", a cross --cc and --rtlib, \"qemu-aarch64-static "
                        "-L /usr/aarch64-linux-gnu\" (docs/cross.md)")
    p.add_argument("--compile-only", action="store_true",
                   help="compile and link each model, run none (a --target cuda object without a GPU)")
    p.add_argument("--save-io", action="store_true",
                   help="with --compile-only: keep each model's inputs and onnxruntime's outputs "
                        "in WORK/io (utils/gpu_prepare.py)")
    args = p.parse_args()
    e2e_check.RUN_PREFIX[:] = shlex.split(args.run_prefix)
    if args.save_io and (not args.compile_only or args.batches or args.seqs):
        p.error("--save-io goes with --compile-only, without --batches or --seqs")
    if args.update and (args.tcc_args or args.compile_only):
        p.error("--update records the default compile and run: not with --tcc-args or "
                "--compile-only")
    if args.batches and args.seqs and len(args.batches) != len(args.seqs):
        p.error("--batches with --seqs: give as many of each (they are run as pairs)")
    for opt in ("tcc", "rtlib", "include", "harness", "cache_dir", "out_dir"):
        val = getattr(args, opt)
        if opt == "tcc" and os.sep not in val:  # a name on PATH, as lit's `tcc`
            import shutil
            val = shutil.which(val) or val
        setattr(args, opt, os.path.abspath(val))
    if not os.path.exists(args.tcc):
        p.error(f"--tcc {args.tcc}: no such file (build tcc, or pass --tcc)")

    if args.report_only:
        with open(os.path.join(args.out_dir, "report.json")) as f:
            data = json.load(f)
        print("\n".join(write_reports(args, data["results"], data["config"])))
        return 0 if all(r["status"] == "pass" for r in data["results"]) else 1

    specs = export_suite.select(args.filter, args.subset)
    if not specs:
        p.error("no model matches")
    flavours = export_suite.FLAVOURS if args.flavour == "all" else (args.flavour,)
    config = dict(tcc=rel(args.tcc), tcc_build=tcc_identity(args.tcc), rtlib=rel(args.rtlib),
                  rtol=args.rtol, atol=args.atol,
                  seed=args.seed, batch=args.batch, compile_timeout=args.compile_timeout,
                  versions=versions())
    print(f"model_suite: {len(specs)} models x {len(flavours)} flavours; tcc {args.tcc}; "
          f"work in {rel(args.out_dir)}", flush=True)

    # Export first (in this process: torch is imported once), then check with --jobs workers.
    rows, todo = {}, []
    for flavour in flavours:
        for spec in specs:
            if not export_suite.has_flavour(spec, flavour):
                continue
            start = time.monotonic()
            try:
                path = export_suite.export(spec, flavour, args.cache_dir)
                todo.append((spec, flavour, path))
            except export_suite.ExportError as e:
                rows[(spec.name, flavour)] = dict(
                    model=spec.name, source=spec.source, family=spec.family, flavour=flavour,
                    status="fail", stage="export", reason=f"export failed: {e}",
                    repro=shlex.join([rel(sys.executable), "models/export_suite.py", "--flavour",
                                      flavour, "--filter", f"^{spec.name}$"]))
                print(f"  FAIL {flavour}/{spec.name}: export failed: {e} "
                      f"({time.monotonic() - start:.0f} s)", flush=True)

    order = {(s.name, f): i for i, (f, s) in enumerate(
        (f, s) for f in export_suite.FLAVOURS for s in export_suite.SUITE)}
    if args.update and os.path.exists(os.path.join(args.out_dir, "report.json")):
        with open(os.path.join(args.out_dir, "report.json")) as f:
            old = {(r["model"], r["flavour"]): r for r in json.load(f)["results"]}
    else:
        old = {}

    def ordered():
        merged = {**old, **rows}
        return [merged[k] for k in sorted(merged, key=lambda k: order.get(k, len(order)))]

    def report(row):
        rows[(row["model"], row["flavour"])] = row
        write_reports(args, ordered(), config)  # after every model: an interrupted run keeps its rows
        extra = (f"compile {row['compile_s']} s" if row.get("compile_s") is not None else "")
        if row.get("compile_only"):
            extra += ", compiled and linked (not run)"
        elif row["status"] == "pass":
            extra += f", max abs err {fmt_err(row.get('max_abs'))}"
            if row.get("arbiter"):
                extra += f"; {row['arbiter']['detail']}"
        else:
            extra += (", " if extra else "") + row["reason"]
        print(f"  {result_label(row)} {row['flavour']}/{row['model']}"
              f" ({row.get('ops', '?')} ops): {extra}", flush=True)

    if args.jobs <= 1:
        for spec, flavour, path in todo:
            report(run_one(args, spec, flavour, path))
    else:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_one, args, *t) for t in todo]
            for fut in concurrent.futures.as_completed(futures):
                report(fut.result())

    final = ordered()
    summary = write_reports(args, final, config)
    print(f"model_suite: wrote {rel(os.path.join(args.out_dir, 'report.md'))} and report.json"
          + (f" ({len(final) - len(rows)} rows kept from the previous report)" if args.update else ""))
    print("\n".join(summary))
    return 0 if all(r["status"] == "pass" for r in final) else 1


if __name__ == "__main__":
    sys.exit(main())
