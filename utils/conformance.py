#!/usr/bin/env python3
"""conformance.py - runs ONNX's backend test sets through `tcc run`.

Discovers every `test_*` folder holding a `model.onnx` and
`test_data_set_*/{input,output}_*.pb` under the `node`, `pytorch-converted`,
`pytorch-operator` and `simple` sets of two sources:

  * the installed `onnx` wheel (`onnx/backend/test/data`). Recent wheels no
    longer ship the `node` set as files, so it is generated once from the
    wheel's own test-case generators (`onnx.backend.test.case.node`, the code
    ONNX's `backend-test-tools generate-data` runs) into a cache folder
    (default build/conformance/onnx-<version>);
  * Debian's `libonnx-testdata` (/usr/share/libonnx-testdata/data, ONNX 1.12),
    when present.

Tests are deduplicated by (set, name), the wheel winning. Out-of-scope tests
(training ops, string/sequence/optional/map values, random ops, Dropout in
training mode, dtypes that tcc's C ABI cannot take) are skipped with a reason.
Every other test is compiled and run on each of its data sets with
`tcc run` (each test in its own temporary folder, `--jobs` at a time) and each
output is compared with the reference: shapes and dtypes must match, integers
and booleans exactly, floats as ONNX's runner does (|a-b| <= atol + rtol*|b|,
rtol 1e-3 and atol 1e-7 unless the test's data.json says otherwise; NaNs equal
where both are NaN).

The per-op table goes to `--report` (markdown), every test's result to
`--json`. The passes are compared with `--expected` (one `set/test_name` a line,
`#` comments): an expected test that fails is a regression (exit status 1), a
newly passing test is reported so the list can grow (`--update-expected`
rewrites the list from the current passes). tcc crashes (signals, exit
statuses other than 0/1/2, timeouts) are listed with a command that
reproduces them. The last line printed is `N passed, N failed, N skipped`.

Exit status: 0 no regression, 1 regressions or crashes, 2 usage or setup error.

Examples:
  .venv/bin/python utils/conformance.py                     # everything
  .venv/bin/python utils/conformance.py --filter 'node/test_(relu|conv)'
  .venv/bin/python utils/conformance.py --update-expected   # after a fix
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETS = ("node", "pytorch-converted", "pytorch-operator", "simple")
DEBIAN_DIR = "/usr/share/libonnx-testdata/data"
DEFAULT_RTOL, DEFAULT_ATOL = 1e-3, 1e-7

# TensorProto.DataType values tcc's C ABI takes (include/tcc/runtime.h, tcc_dtype).
BOUNDARY_DTYPES = {1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 16}

TRAINING_OPS = {"Adagrad", "Adam", "Momentum", "Gradient"}
STRING_OPS = {"StringNormalizer", "RegexFullMatch", "StringConcat", "StringSplit"}
SEQUENCE_OPS = {"SequenceAt", "SequenceConstruct", "SequenceEmpty",
                "SequenceErase", "SequenceInsert", "SequenceLength",
                "SequenceMap", "SplitToSequence", "ConcatFromSequence",
                "Optional", "OptionalHasElement", "OptionalGetElement"}
RANDOM_OPS = {"RandomNormal", "RandomNormalLike", "RandomUniform",
              "RandomUniformLike", "Multinomial", "Bernoulli"}
# Ops never taken as a node test's "main" op when others are present.
TRIVIAL_OPS = {"Constant", "ConstantOfShape", "Identity", "Cast", "CastLike",
               "Shape", "Size", "Reshape", "Unsqueeze", "Squeeze", "Flatten"}
DEFAULT_DOMAINS = ("", "ai.onnx")


@dataclass
class Test:
    set: str
    name: str
    dir: str
    source: str
    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    datasets: list = field(default_factory=list)
    op: str = ""
    ops: list = field(default_factory=list)
    inputs: list = field(default_factory=list)  # non-initializer graph inputs
    outputs: list = field(default_factory=list)  # graph output names
    dynamic_inputs: set = field(default_factory=set)  # inputs with unknown dims
    bound: set = field(default_factory=set)  # parameter inputs passed with --bind
    status: str = ""  # passed, failed, skipped
    reason: str = ""
    crash: dict | None = None
    unsupported: list = field(default_factory=list)  # ops tcc reported unsupported
    seconds: float = 0.0

    @property
    def key(self) -> str:
        return f"{self.set}/{self.name}"


# --------------------------------------------------------------------------
# Discovery


def wheel_data_dir() -> str:
    import onnx  # noqa: PLC0415

    return os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")


def _write_value(path: str, value, type_proto, name: str) -> None:
    from onnx import TensorProto, numpy_helper  # noqa: PLC0415

    if type_proto.HasField("map_type"):
        proto = numpy_helper.from_dict(value, name)
    elif type_proto.HasField("sequence_type"):
        proto = numpy_helper.from_list(value, name)
    elif type_proto.HasField("optional_type"):
        proto = numpy_helper.from_optional(value, name)
    elif isinstance(value, TensorProto):
        proto = value
    else:
        proto = numpy_helper.from_array(np.asarray(value), name)
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())


def generate_node_tests(cache_dir: str) -> str:
    """Writes the wheel's node tests as files (once per onnx version); returns the set root."""
    import onnx  # noqa: PLC0415

    root = os.path.join(cache_dir, f"onnx-{onnx.__version__}")
    stamp = os.path.join(root, ".complete")
    if os.path.exists(stamp):
        return root
    print(f"conformance: generating the node tests of onnx {onnx.__version__} "
          f"into {root} (once)", file=sys.stderr)
    import warnings  # noqa: PLC0415

    from onnx.backend.test.loader import load_node_model_tests  # noqa: PLC0415

    os.makedirs(cache_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".gen-", dir=cache_dir)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = load_node_model_tests()
    for case in cases:
        out = os.path.join(tmp, "node", case.name)
        try:
            os.makedirs(out)
            with open(os.path.join(out, "model.onnx"), "wb") as f:
                f.write(case.model.SerializeToString())
            if (case.rtol, case.atol) != (DEFAULT_RTOL, DEFAULT_ATOL):
                with open(os.path.join(out, "data.json"), "w") as f:
                    json.dump({"rtol": case.rtol, "atol": case.atol}, f)
            graph = case.model.graph
            for i, (inputs, outputs) in enumerate(case.data_sets):
                ds = os.path.join(out, f"test_data_set_{i}")
                os.makedirs(ds)
                for j, value in enumerate(inputs):
                    _write_value(os.path.join(ds, f"input_{j}.pb"), value,
                                 graph.input[j].type, graph.input[j].name)
                for j, value in enumerate(outputs):
                    _write_value(os.path.join(ds, f"output_{j}.pb"), value,
                                 graph.output[j].type, graph.output[j].name)
        except Exception as e:  # noqa: BLE001 - keep the test, it is skipped for want of data
            print(f"conformance: warning: cannot write node test {case.name}: {e}",
                  file=sys.stderr)
            for d in os.listdir(out) if os.path.isdir(out) else []:
                if d.startswith("test_data_set_"):
                    shutil.rmtree(os.path.join(out, d))
    open(os.path.join(tmp, ".complete"), "w").close()
    if os.path.exists(root):
        shutil.rmtree(root)
    os.replace(tmp, root)
    return root


def _datasets(test_dir: str) -> list:
    out = []
    for d in sorted(os.listdir(test_dir)):
        m = re.fullmatch(r"test_data_set_(\d+)", d)
        p = os.path.join(test_dir, d)
        if m and os.path.isdir(p):
            out.append((int(m.group(1)), p))
    return [p for _, p in sorted(out)]


def _numbered(ds_dir: str, prefix: str) -> list:
    files = []
    for f in os.listdir(ds_dir):
        m = re.fullmatch(prefix + r"_(\d+)\.pb", f)
        if m:
            files.append((int(m.group(1)), os.path.join(ds_dir, f)))
    return [p for _, p in sorted(files)]


def discover(roots: list) -> dict:
    """roots: [(source label, data dir)], highest priority first."""
    tests = {}
    for source, root in roots:
        for s in SETS:
            set_dir = os.path.join(root, s)
            if not os.path.isdir(set_dir):
                continue
            for name in sorted(os.listdir(set_dir)):
                d = os.path.join(set_dir, name)
                if (s, name) in tests or not name.startswith("test_"):
                    continue
                if not os.path.isfile(os.path.join(d, "model.onnx")):
                    continue
                t = Test(set=s, name=name, dir=os.path.abspath(d), source=source)
                dj = os.path.join(d, "data.json")
                if os.path.exists(dj):
                    with open(dj) as f:
                        data = json.load(f)
                    t.rtol = float(data.get("rtol", t.rtol))
                    t.atol = float(data.get("atol", t.atol))
                t.datasets = _datasets(d)
                tests[(s, name)] = t
    return tests


# --------------------------------------------------------------------------
# Classification


def _qualified(node) -> str:
    return node.op_type if node.domain in DEFAULT_DOMAINS else f"{node.domain}.{node.op_type}"


def _all_nodes(graph):
    for node in graph.node:
        yield node
        for attr in node.attribute:
            if attr.HasField("g"):
                yield from _all_nodes(attr.g)
            for g in attr.graphs:
                yield from _all_nodes(g)


def _type_problem(tp, what: str) -> str | None:
    from onnx import TensorProto  # noqa: PLC0415

    kind = tp.WhichOneof("value")
    if kind in ("sequence_type", "optional_type", "map_type"):
        return f"{kind.split('_')[0]} value ({what})"
    if kind == "sparse_tensor_type":
        return f"sparse tensor ({what})"
    if kind != "tensor_type":
        return None
    et = tp.tensor_type.elem_type
    if et == TensorProto.STRING:
        return f"string tensor ({what})"
    if et in (TensorProto.COMPLEX64, TensorProto.COMPLEX128):
        return f"complex dtype {TensorProto.DataType.Name(et)} ({what})"
    if et and et not in BOUNDARY_DTYPES:
        return f"dtype {TensorProto.DataType.Name(et)} not taken by tcc's ABI ({what})"
    return None


def _dropout_training(model, node, test: Test) -> bool:
    """Whether a Dropout node runs in training mode (unknown counts as yes)."""
    from onnx import TensorProto, numpy_helper  # noqa: PLC0415

    if len(node.input) < 3 or not node.input[2]:
        return False
    name = node.input[2]
    for init in model.graph.initializer:
        if init.name == name:
            return bool(numpy_helper.to_array(init).any())
    for n in model.graph.node:
        if n.op_type == "Constant" and name in n.output:
            for a in n.attribute:
                if a.name == "value":
                    return bool(numpy_helper.to_array(a.t).any())
    if name in test.inputs:
        k = test.inputs.index(name)
        for ds in test.datasets:
            files = _numbered(ds, "input")
            if k < len(files):
                tp = TensorProto()
                with open(files[k], "rb") as f:
                    tp.ParseFromString(f.read())
                if numpy_helper.to_array(tp).any():
                    return True
        return False
    return True


def classify(test: Test) -> None:
    import onnx  # noqa: PLC0415

    try:
        model = onnx.load(os.path.join(test.dir, "model.onnx"), load_external_data=False)
    except Exception as e:  # noqa: BLE001
        test.status, test.reason = "failed", f"cannot load model.onnx: {e}"
        return
    graph = model.graph
    inits = {i.name for i in graph.initializer}
    test.inputs = [i.name for i in graph.input if i.name not in inits]
    test.outputs = [o.name for o in graph.output]
    for vi in graph.input:
        if vi.name in inits or vi.type.WhichOneof("value") != "tensor_type":
            continue
        tt = vi.type.tensor_type
        if not tt.HasField("shape") or any(not d.HasField("dim_value") for d in tt.shape.dim):
            test.dynamic_inputs.add(vi.name)
    nodes = list(_all_nodes(graph))
    for fn in model.functions:
        nodes.extend(fn.node)
    # Graph inputs that feed a shape/axes-like parameter of a node: tcc needs
    # those at compile time, so they are bound (`tcc run --bind`), not fed.
    # An "_expanded" test is its base test's op inlined as its function body:
    # the same inputs are parameters there.
    param_nodes = list(graph.node)
    base = os.path.join(os.path.dirname(test.dir), os.path.basename(test.dir)[:-len("_expanded")])
    if test.dir.endswith("_expanded") and os.path.exists(os.path.join(base, "model.onnx")):
        param_nodes += list(onnx.load(os.path.join(base, "model.onnx"), load_external_data=False).graph.node)
    for n in param_nodes:
        for pos in PARAMETER_INPUTS.get(n.op_type, ()):
            if pos < len(n.input) and n.input[pos] in test.inputs:
                test.bound.add(n.input[pos])
    test.ops = sorted({_qualified(n) for n in nodes})
    top = [_qualified(n) for n in graph.node]
    if test.set != "node":
        test.op = test.set
    else:
        main = [o for o in top if o not in TRIVIAL_OPS] or top or ["(empty)"]
        test.op = main[0]

    reasons = []
    for vi in graph.input:
        if vi.name not in inits:
            reasons.append(_type_problem(vi.type, f"input '{vi.name}'"))
    for vi in graph.output:
        reasons.append(_type_problem(vi.type, f"output '{vi.name}'"))
    for n in nodes:
        op = n.op_type
        if n.domain == "ai.onnx.preview.training" or op in TRAINING_OPS:
            reasons.append(f"training op {op}")
        elif op in STRING_OPS:
            reasons.append(f"string op {op}")
        elif op in SEQUENCE_OPS:
            reasons.append(f"sequence/optional op {op}")
        elif op in RANDOM_OPS:
            reasons.append(f"random op {op}")
        elif op == "Dropout" and n.domain in DEFAULT_DOMAINS and _dropout_training(model, n, test):
            reasons.append("random op Dropout with training_mode=1")
    reasons = [r for r in dict.fromkeys(reasons) if r]
    if not reasons and not test.datasets:
        reasons.append("no test_data_set_* folder")
    if reasons:
        test.status, test.reason = "skipped", "; ".join(reasons)


def assign_expanded_ops(tests: dict) -> None:
    """A node test `X_expanded[_verN]` counts under the op of its test `X`."""
    for (s, name), t in tests.items():
        m = re.fullmatch(r"(.*)_expanded(_ver\d+)?", name)
        if s == "node" and m and (s, m.group(1)) in tests:
            base = tests[(s, m.group(1))]
            if base.op:
                t.op = base.op


# --------------------------------------------------------------------------
# Running


def _npy_name(name: str, index: int) -> str:
    file = "".join("_" if c in "/\\\0" else c for c in name)
    if file in ("", ".", ".."):
        file = f"output_{index}"
    return file + ".npy"


def _read_pb(path: str):
    from onnx import TensorProto, numpy_helper  # noqa: PLC0415

    tp = TensorProto()
    with open(path, "rb") as f:
        tp.ParseFromString(f.read())
    return tp, numpy_helper.to_array(tp)


def compare(actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> str | None:
    """None when equal enough, else a one-line description of the difference."""
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)}, expected {list(expected.shape)}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype}, expected {expected.dtype}"
    if expected.size == 0:
        return None
    if expected.dtype.kind in "biuSUO":
        bad = actual != expected
        if bad.any():
            i = np.unravel_index(int(np.argmax(bad)), bad.shape)
            return (f"{int(bad.sum())}/{bad.size} elements differ (exact compare), "
                    f"first at {list(map(int, i))}: {actual[i].item()!r} vs {expected[i].item()!r}")
        return None
    if expected.dtype.name == "bfloat16":
        rtol = max(rtol, 2.0**-6)  # two bfloat16 ULPs, as ONNX's runner
    a = actual.astype(np.float64)
    b = expected.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a - b)
        close = np.isfinite(a) & np.isfinite(b) & (diff <= atol + rtol * np.abs(b))
        ok = (a == b) | (np.isnan(a) & np.isnan(b)) | close
    if ok.all():
        return None
    bad = ~ok
    d = np.where(bad, diff, 0.0)
    d = np.where(np.isnan(d), np.inf, d)
    i = np.unravel_index(int(np.argmax(d)), d.shape)
    return (f"{int(bad.sum())}/{bad.size} elements differ, max abs error "
            f"{float(d[i]):.3g} at {list(map(int, i))} (got {a[i]:.6g}, expected {b[i]:.6g}; "
            f"rtol {rtol:g}, atol {atol:g})")


def _first_error(stderr: str) -> str:
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if ln.startswith("tcc: error:"):
            return ln
    return lines[0] if lines else ""


def _signal_name(rc: int) -> str:
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


# Inputs (by position) that set shapes, axes, counts or modes rather than
# carry data. ONNX's node tests often feed them as graph inputs; tcc wants
# them constant at compile time, so the runner binds them (`--bind`): the
# computation itself still runs in compiled code.
_AXES = (1,)
PARAMETER_INPUTS = {
    "AffineGrid": (1,),
    "Reshape": (1,), "Expand": (1,), "Tile": (1,), "Slice": (1, 2, 3, 4),
    "Pad": (1, 2, 3), "Squeeze": _AXES, "Unsqueeze": _AXES, "Split": (1,),
    "ReduceSum": _AXES, "ReduceMean": _AXES, "ReduceMax": _AXES, "ReduceMin": _AXES,
    "ReduceProd": _AXES, "ReduceL1": _AXES, "ReduceL2": _AXES, "ReduceLogSum": _AXES,
    "ReduceLogSumExp": _AXES, "ReduceSumSquare": _AXES, "TopK": (1,),
    "Range": (0, 1, 2), "ConstantOfShape": (0,), "Resize": (1, 2, 3), "Upsample": (1,),
    "OneHot": (1,), "CumSum": (1,), "CumProd": (1,), "Trilu": (1,), "Dropout": (1, 2),
    "CenterCropPad": (1,), "Col2Im": (1, 2), "Loop": (0, 1), "MaxUnpool": (2,),
    "HannWindow": (0,), "HammingWindow": (0,), "BlackmanWindow": (0,),
    "MelWeightMatrix": (0, 1, 2, 3, 4), "DFT": (1, 2), "STFT": (1, 3),
}


def run_test(test: Test, tcc: str, timeout: float) -> None:
    start = time.monotonic()
    deadline = start + timeout
    try:
        with tempfile.TemporaryDirectory(prefix="tcc-conformance-") as tmp:
            for n, ds in enumerate(test.datasets):
                result = _run_dataset(test, tcc, ds, os.path.join(tmp, f"out{n}"), deadline)
                if result:
                    test.status, test.reason = "failed", (
                        f"{os.path.basename(ds)}: {result}" if len(test.datasets) > 1 else result)
                    return
            test.status, test.reason = "passed", ""
    except Exception as e:  # noqa: BLE001 - a runner problem must not kill the whole run
        test.status, test.reason = "failed", f"runner error: {type(e).__name__}: {e}"
    finally:
        test.seconds = time.monotonic() - start


# More `tcc run` options (--tcc-args), for every test.
TCC_ARGS: list[str] = []

# --cross-cc: each data set through `tcc compile` (with TCC_ARGS, e.g. --mtriple
# aarch64-linux-gnu) and test/e2e/harness.c built by this compiler with its runtime, run under
# the emulator (docs/cross.md). Keys: cc, rtlib, run_prefix (a list).
CROSS: dict = {}
HARNESS = os.path.join(REPO, "test", "e2e", "harness.c")


def _run(cmd: list, deadline: float, repro: str, test: Test):
    """Runs cmd in its own process group until `deadline`; (returncode, stderr), or (None,
    message) after a timeout (recorded as the test's crash)."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        test.crash = {"kind": "timeout", "command": repro}
        return None, "timeout (no time left for this data set)"
    # Own process group, so that a timeout kills whatever tcc started too.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True)
    try:
        _, stderr = proc.communicate(timeout=remaining)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        test.crash = {"kind": "timeout", "command": repro,
                      "detail": f"still running after {remaining:.0f} s"}
        return None, f"timeout after {remaining:.0f} s"
    return proc.returncode, stderr


def _cross_dataset(test: Test, tcc: str, ds: str, out_dir: str, deadline: float) -> str | None:
    """One data set compiled for CROSS's target and run by the harness under its emulator."""
    os.makedirs(os.path.join(out_dir, "io"), exist_ok=True)
    obj = os.path.join(out_dir, "m.o")
    cmd = [tcc, "compile", os.path.join(test.dir, "model.onnx"), "-o", obj, "--name", "m"]
    feeds = {}
    for k, path in enumerate(_numbered(ds, "input")):
        tp, arr = _read_pb(path)
        name = tp.name if tp.name in test.inputs else (
            test.inputs[k] if k < len(test.inputs) else tp.name)
        if name in test.bound:
            cmd += ["--bind", f"{name}={path}"]
            continue
        feeds[name] = arr
        if name in test.dynamic_inputs and arr.ndim > 0:
            cmd += ["--shape", f"{name}={'x'.join(map(str, arr.shape))}"]
    cmd += TCC_ARGS
    repro = shlex.join(cmd)
    problem = _run_tcc(cmd, deadline, repro, test)
    if problem:
        return problem
    exe = os.path.join(out_dir, "harness")
    link = [CROSS["cc"], "-O1", "-I", os.path.join(REPO, "include"), "-I", out_dir,
            '-DTCC_MODEL_HEADER="m.h"', "-DTCC_MODEL_PREFIX=m", HARNESS, obj, CROSS["rtlib"],
            "-lm", "-lpthread", "-ldl", "-o", exe]
    rc, stderr = _run(link, deadline, shlex.join(link), test)
    if rc != 0:
        return stderr if rc is None else f"link: {stderr.strip()[-500:]}"
    io_dir = os.path.join(out_dir, "io")
    for i, name in enumerate(n for n in test.inputs if n not in test.bound):
        if name not in feeds:
            return f"input '{name}': no data in {os.path.basename(ds)}"
        feeds[name].tofile(os.path.join(io_dir, f"input_{i}.bin"))
    run = CROSS["run_prefix"] + [exe, io_dir]
    rc, stderr = _run(run, deadline, f"{repro} && {shlex.join(run)}", test)
    if rc is None:
        return stderr
    if rc != 0:
        test.crash = {"kind": "signal" if rc < 0 else "exit", "command": f"{repro} && "
                      f"{shlex.join(run)}", "detail": f"harness status {rc}",
                      "stderr": stderr[-2000:]}
        return f"harness: status {rc}: {stderr.strip()[-300:]}"
    for k, path in enumerate(_numbered(ds, "output")):
        tp, expected = _read_pb(path)
        name = test.outputs[k] if k < len(test.outputs) else tp.name
        raw = np.fromfile(os.path.join(io_dir, f"output_{k}.bin"), dtype=expected.dtype)
        dims_path = os.path.join(io_dir, f"output_{k}.dims")
        shape = expected.shape
        if os.path.exists(dims_path):
            with open(dims_path) as f:
                shape = tuple(int(d) for d in f.read().split())
        if raw.size != int(np.prod(shape)):
            return f"output '{name}': {raw.size} elements for dims {list(shape)}"
        diff = compare(raw.reshape(shape), expected, test.rtol, test.atol)
        if diff:
            return f"output '{name}': {diff}"
    return None


def _tcc_failure(test: Test, rc: int, stderr: str, repro: str) -> str | None:
    """Why a tcc command that exited with `rc` failed (recording a crash, an odd exit or the
    unsupported ops on the test), or None when it succeeded."""
    err = _first_error(stderr)
    if rc < 0:
        test.crash = {"kind": "signal", "command": repro, "detail": _signal_name(rc),
                      "stderr": stderr[-2000:]}
        return f"crash: {_signal_name(rc)}" + (f": {err}" if err else "")
    if rc not in (0, 1, 2):
        test.crash = {"kind": "exit", "command": repro, "detail": f"exit status {rc}",
                      "stderr": stderr[-2000:]}
        return f"crash: exit status {rc}" + (f": {err}" if err else "")
    if rc == 2:
        test.crash = {"kind": "usage", "command": repro, "detail": "exit status 2 (usage error)",
                      "stderr": stderr[-2000:]}
        return f"usage error (exit 2): {err}"
    if rc == 1:
        test.unsupported = sorted(set(re.findall(
            r"unsupported operator: node '.*' op (\S+)", stderr)))
        if not err.startswith("tcc: error:"):
            test.crash = {"kind": "unclean", "command": repro,
                          "detail": "exit status 1 without a 'tcc: error:' line",
                          "stderr": stderr[-2000:]}
        return err or "exit status 1 without a message"
    return None


def _run_tcc(cmd: list, deadline: float, repro: str, test: Test) -> str | None:
    """Runs a tcc command (_run); why it failed (_tcc_failure), or None."""
    rc, stderr = _run(cmd, deadline, repro, test)
    return stderr if rc is None else _tcc_failure(test, rc, stderr, repro)


class _Sample:
    """A --filter that also keeps only `keys` (--cross-cc --every N)."""

    def __init__(self, keys: list, inner):
        self.keys, self.inner = set(keys), inner

    def search(self, key: str) -> bool:
        return key in self.keys and (not self.inner or bool(self.inner.search(key)))


def _run_dataset(test: Test, tcc: str, ds: str, out_dir: str, deadline: float) -> str | None:
    if CROSS:
        return _cross_dataset(test, tcc, ds, out_dir, deadline)
    cmd = [tcc, "run", os.path.join(test.dir, "model.onnx")] + TCC_ARGS
    for k, path in enumerate(_numbered(ds, "input")):
        tp, arr = _read_pb(path)
        name = tp.name if tp.name in test.inputs else (
            test.inputs[k] if k < len(test.inputs) else tp.name)
        if not name:
            return f"cannot name {os.path.basename(path)}: the model has {len(test.inputs)} inputs"
        cmd += ["--bind" if name in test.bound else "--input", f"{name}={path}"]
        if name in test.dynamic_inputs and arr.ndim > 0:
            cmd += ["--shape", f"{name}={'x'.join(map(str, arr.shape))}"]
    cmd += ["--output-dir", out_dir]
    repro = shlex.join(cmd[:-1] + ["/tmp/tcc-out"])
    problem = _run_tcc(cmd, deadline, repro, test)
    if problem:
        return problem
    for k, path in enumerate(_numbered(ds, "output")):
        tp, expected = _read_pb(path)
        name = test.outputs[k] if k < len(test.outputs) else tp.name
        file = os.path.join(out_dir, _npy_name(name, k))
        pb_file = file[:-len(".npy")] + ".pb"  # dtypes numpy lacks (bfloat16)
        if not os.path.exists(file) and os.path.exists(pb_file):
            file = pb_file
        if not os.path.exists(file):
            return f"output '{name}': no {os.path.basename(file)} written"
        try:
            actual = _read_pb(file)[1] if file == pb_file else np.load(file, allow_pickle=False)
        except Exception as e:  # noqa: BLE001
            return f"output '{name}': cannot read {os.path.basename(file)}: {e}"
        diff = compare(actual, expected, test.rtol, test.atol)
        if diff:
            return f"output '{name}': {diff}"
    return None


# --------------------------------------------------------------------------
# Reporting


def reason_group(t: Test) -> str:
    """Groups failure reasons: names, numbers and shapes elided."""
    r = t.reason
    r = re.sub(r"^test_data_set_\d+: ", "", r)
    r = r.replace(os.path.join(t.dir, "model.onnx"), "model.onnx")
    m = re.search(r"unsupported operator: node '.*' op (\S+)", r)
    if m:
        return f"unsupported operator {m.group(1)}"
    if t.crash and t.crash["kind"] in ("signal", "exit", "timeout"):
        return f"crash ({t.crash['detail'] if t.crash['kind'] != 'timeout' else 'timeout'})"
    r = re.sub(r"'[^']*'", "'…'", r)
    r = re.sub(r"\[[-0-9, ]*\]", "[…]", r)
    r = re.sub(r"\(got .*?\)", "", r)
    r = re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "N", r)
    return r[:160]


def _show(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _md(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def write_report(path: str, tests: list, meta: dict) -> None:
    lines = ["# tcc ONNX backend conformance", ""]
    lines += [f"- onnx wheel: {meta['onnx']} ({meta['wheel']})",
              f"- Debian libonnx-testdata: {meta['debian'] or 'not used'}",
              f"- tcc: {meta['tcc']}", ""]
    lines += ["## Per set", "", "| set | passed | failed | skipped | total |",
              "|---|---:|---:|---:|---:|"]
    for s in SETS + ("total",):
        ts = [t for t in tests if s in (t.set, "total")]
        c = {k: sum(t.status == k for t in ts) for k in ("passed", "failed", "skipped")}
        lines.append(f"| {s} | {c['passed']} | {c['failed']} | {c['skipped']} | {len(ts)} |")
    bound = [t for t in tests if t.bound and t.status == "passed"]
    lines += ["", f"{len(bound)} of the passing tests bind parameter inputs (shapes, "
              "axes, ...) at compile time with `tcc run --bind`.", ""]
    lines += ["", "## Per op", "",
              "`node` tests count under their main op (an `_expanded` test under its "
              "base test's op); other sets count as a whole.", "",
              "| op | passed | failed | skipped | total | most common failure reason |",
              "|---|---:|---:|---:|---:|---|"]
    by_op = {}
    for t in tests:
        by_op.setdefault(t.op or t.set, []).append(t)
    for op in sorted(by_op, key=str.lower):
        ts = by_op[op]
        c = {k: sum(t.status == k for t in ts) for k in ("passed", "failed", "skipped")}
        fails = [reason_group(t) for t in ts if t.status == "failed"]
        top = max(set(fails), key=lambda g: (fails.count(g), g)) if fails else ""
        note = f"{_md(top)} ({fails.count(top)}/{len(fails)})" if fails else ""
        lines.append(f"| {_md(op)} | {c['passed']} | {c['failed']} | {c['skipped']} | "
                     f"{len(ts)} | {note} |")
    groups = {}
    for t in tests:
        if t.status == "failed":
            groups.setdefault(reason_group(t), []).append(t)
    lines += ["", "## Failure reasons", "", "| tests | reason | examples |", "|---:|---|---|"]
    for g, ts in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        ex = ", ".join(t.key for t in ts[:3]) + (", …" if len(ts) > 3 else "")
        lines.append(f"| {len(ts)} | {_md(g)} | {_md(ex)} |")
    blockers = {}
    for t in tests:
        for op in t.unsupported:
            blockers.setdefault(op, []).append(t)
    lines += ["", "## Unsupported operators", "",
              "Each op with the number of failing tests whose model uses it "
              "(a test may count under several).", "",
              "| op | tests | examples |", "|---|---:|---|"]
    for op, ts in sorted(blockers.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        ex = ", ".join(t.key for t in ts[:3]) + (", …" if len(ts) > 3 else "")
        lines.append(f"| {_md(op)} | {len(ts)} | {_md(ex)} |")
    crashes = [t for t in tests if t.crash]
    lines += ["", "## Crashes and anomalies", ""]
    if not crashes:
        lines.append("None.")
    for t in crashes:
        lines += [f"- `{t.key}`: {t.crash['kind']}: {_md(t.crash.get('detail', ''))}",
                  f"  `{t.crash['command']}`"]
    lines += ["", "## Failed tests", "", "| test | op | reason |", "|---|---|---|"]
    for t in tests:
        if t.status == "failed":
            lines.append(f"| {t.key} | {_md(t.op)} | {_md(t.reason)} |")
    lines += ["", "## Skipped tests", "", "| test | reason |", "|---|---|"]
    for t in tests:
        if t.status == "skipped":
            lines.append(f"| {t.key} | {_md(t.reason)} |")
    lines += ["", "## Passed tests", ""]
    lines += [f"- {t.key}" for t in tests if t.status == "passed"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_json(path: str, tests: list, meta: dict) -> None:
    out = {"meta": meta, "tests": [{
        "test": t.key, "set": t.set, "name": t.name, "source": t.source, "dir": t.dir,
        "op": t.op, "ops": t.ops, "status": t.status, "reason": t.reason,
        "group": reason_group(t) if t.status == "failed" else None,
        "crash": t.crash, "unsupported_ops": t.unsupported, "bound": sorted(t.bound),
        "rtol": t.rtol, "atol": t.atol,
        "datasets": len(t.datasets), "seconds": round(t.seconds, 3)} for t in tests]}
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


def read_expected(path: str) -> list:
    if not os.path.exists(path):
        return []
    keys = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                keys.append(line)
    return keys


def write_expected(path: str, keys: list, meta: dict) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("# ONNX backend tests that tcc passes (set/test_name, one a line).\n"
                "# Checked by utils/conformance.py: an entry that fails is a regression.\n"
                "# Regenerate with: .venv/bin/python utils/conformance.py --update-expected\n"
                f"# Last generated with onnx {meta['onnx']}"
                f"{' + Debian libonnx-testdata' if meta['debian'] else ''}.\n")
        for k in sorted(set(keys)):
            f.write(k + "\n")


# --------------------------------------------------------------------------


def main() -> int:
    p = argparse.ArgumentParser(
        description="Run ONNX's backend conformance tests through `tcc run`.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0 no regression, 1 regressions or crashes, 2 usage or setup error.")
    p.add_argument("--tcc", default=os.path.join(REPO, "build", "bin", "tcc"),
                   help="the tcc binary (default: %(default)s)")
    p.add_argument("--tcc-args", default="",
                   help="more `tcc run` options, one string (\"--target cuda --gpu-emulate\")")
    p.add_argument("--jobs", "-j", type=int, default=2,
                   help="tests run at once (default: %(default)s)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds per test, all its data sets together (default: %(default)s)")
    p.add_argument("--filter", metavar="REGEX",
                   help="only tests whose 'set/test_name' matches REGEX (re.search)")
    p.add_argument("--expected", default=os.path.join(REPO, "test", "conformance", "expected_pass.txt"),
                   help="expected-pass list (default: %(default)s)")
    p.add_argument("--update-expected", action="store_true",
                   help="rewrite --expected from the current passes (with --filter, "
                        "only the entries the filter selects change)")
    p.add_argument("--report", default=os.path.join(REPO, "build", "conformance", "report.md"),
                   help="markdown per-op report (default: %(default)s)")
    p.add_argument("--json", default=os.path.join(REPO, "build", "conformance", "results.json"),
                   help="per-test JSON results (default: %(default)s)")
    p.add_argument("--debian-dir", default=DEBIAN_DIR,
                   help="Debian libonnx-testdata data folder, '' for none (default: %(default)s)")
    p.add_argument("--cache-dir", default=os.path.join(REPO, "build", "conformance"),
                   help="where the wheel's node tests are generated (default: %(default)s)")
    p.add_argument("--summary", metavar="FILE",
                   help="also write the counts (passed, failed, skipped, regressions, "
                        "crashes) as JSON, for utils/check.sh")
    p.add_argument("--list", action="store_true",
                   help="classify and list the tests, run nothing")
    p.add_argument("-v", "--verbose", action="store_true", help="print every test's result")
    p.add_argument("--cross-cc", metavar="CC",
                   help="another target's C compiler (aarch64-linux-gnu-gcc): each test is "
                        "compiled by tcc compile with --tcc-args (--mtriple ...), linked with "
                        "test/e2e/harness.c and --rtlib by CC and run under --run-prefix; only "
                        "expected-pass tests run (docs/cross.md)")
    p.add_argument("--rtlib", help="with --cross-cc: libtccrt.a built for that target")
    p.add_argument("--run-prefix", default="",
                   help="with --cross-cc: the emulator command, one string "
                        "(\"qemu-aarch64-static -L /usr/aarch64-linux-gnu\")")
    p.add_argument("--every", type=int, default=1, metavar="N",
                   help="with --cross-cc: every Nth expected-pass test (default: all)")
    args = p.parse_args()
    if args.cross_cc:
        if not args.rtlib or not os.path.exists(args.rtlib):
            p.error("--cross-cc needs --rtlib, the runtime built for that target "
                    "(utils/build.sh --target TRIPLE)")
        if args.update_expected:
            p.error("--update-expected records the default target: not with --cross-cc")
        CROSS.update(cc=args.cross_cc, rtlib=os.path.abspath(args.rtlib),
                     run_prefix=shlex.split(args.run_prefix))
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    try:
        flt = re.compile(args.filter) if args.filter else None
    except re.error as e:
        p.error(f"--filter: {e}")
    tcc = os.path.abspath(args.tcc)
    TCC_ARGS[:] = shlex.split(args.tcc_args)
    if CROSS:
        # Only expected-pass tests, every Nth: the filter selects them.
        flt = _Sample(sorted(read_expected(args.expected))[::max(1, args.every)], flt)
    if TCC_ARGS and args.update_expected:
        p.error("--update-expected records the default target: not with --tcc-args")
    if not args.list and not os.access(tcc, os.X_OK):
        print(f"conformance: error: no tcc binary at {tcc} (build it, or pass --tcc)",
              file=sys.stderr)
        return 2
    try:
        import onnx  # noqa: PLC0415
    except ImportError:
        print("conformance: error: the onnx Python package is missing", file=sys.stderr)
        return 2

    t0 = time.monotonic()
    wheel = wheel_data_dir()
    roots = [(f"onnx-{onnx.__version__}", wheel)]
    if not os.path.isdir(os.path.join(wheel, "node")):
        roots.append((f"onnx-{onnx.__version__}", generate_node_tests(os.path.abspath(args.cache_dir))))
    debian = args.debian_dir if args.debian_dir and os.path.isdir(args.debian_dir) else ""
    if args.debian_dir and not debian:
        print(f"conformance: warning: {args.debian_dir} not found; Debian tests not run",
              file=sys.stderr)
    if debian:
        roots.append(("debian-libonnx-testdata", debian))
    found = discover(roots)
    for t in found.values():
        if not flt or flt.search(t.key):
            classify(t)
    assign_expanded_ops(found)
    tests = sorted((t for t in found.values() if not flt or flt.search(t.key)),
                   key=lambda t: (SETS.index(t.set), t.name))
    meta = {"onnx": onnx.__version__, "wheel": wheel, "debian": debian, "tcc": tcc,
            "roots": [r for _, r in roots], "jobs": args.jobs, "timeout": args.timeout,
            "filter": args.filter}

    if args.list:
        for t in tests:
            print(f"{t.key}\t{t.op}\t{t.source}\t{t.status or 'run'}\t{t.reason}")
        print(f"{len(tests)} tests, {sum(t.status == 'skipped' for t in tests)} skipped",
              file=sys.stderr)
        return 0

    tcc_stamp = os.stat(tcc).st_mtime_ns
    todo = [t for t in tests if not t.status]
    print(f"conformance: {len(tests)} tests ({len(todo)} to run, "
          f"{len(tests) - len(todo)} skipped or unloadable), {args.jobs} jobs",
          file=sys.stderr)
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_test, t, tcc, args.timeout): t for t in todo}
        for fut in concurrent.futures.as_completed(futures):
            t = futures[fut]
            done += 1
            if args.verbose:
                print(f"[{done}/{len(todo)}] {t.status.upper()}: {t.key}"
                      + (f": {t.reason}" if t.reason else ""), file=sys.stderr)
            elif done % 250 == 0:
                print(f"conformance: {done}/{len(todo)} run", file=sys.stderr)
    elapsed = time.monotonic() - t0
    try:
        changed = os.stat(tcc).st_mtime_ns != tcc_stamp
    except OSError:
        changed = True
    if changed:
        print(f"conformance: warning: {tcc} changed during the run (rebuilt?); "
              "results may mix two builds", file=sys.stderr)
    meta["seconds"] = round(elapsed, 1)
    meta["counts"] = {s: {k: sum(t.status == k for t in tests if t.set == s)
                          for k in ("passed", "failed", "skipped")} for s in SETS}

    for path in (args.report, args.json):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    if args.report:
        write_report(args.report, tests, meta)
    if args.json:
        write_json(args.json, tests, meta)

    by_key = {t.key: t for t in tests}
    expected = read_expected(args.expected)
    if not os.path.exists(args.expected) and not args.update_expected:
        print(f"conformance: warning: no expected-pass list at {args.expected}", file=sys.stderr)
    exp_set = set(expected)
    selected = [k for k in expected if not flt or flt.search(k)]
    regressions = [k for k in selected if k in by_key and by_key[k].status == "failed"]
    now_skipped = [k for k in selected if k in by_key and by_key[k].status == "skipped"]
    missing = [k for k in selected if k not in by_key]
    new_passes = [t.key for t in tests if t.status == "passed" and t.key not in exp_set]
    crashes = [t for t in tests if t.crash]

    if crashes:
        print(f"\ntcc crashes and anomalies ({len(crashes)}):")
        for t in crashes:
            print(f"  {t.key}: {t.crash['kind']}: {t.crash.get('detail', '')}\n"
                  f"    {t.crash['command']}")
    if now_skipped:
        print(f"\nwarning: {len(now_skipped)} expected-pass tests are now skipped:")
        for k in now_skipped:
            print(f"  {k}: {by_key[k].reason}")
    if missing:
        print(f"\nwarning: {len(missing)} expected-pass tests were not found "
              "(test data missing or renamed?):")
        for k in missing:
            print(f"  {k}")
    if new_passes:
        print(f"\nnew passes ({len(new_passes)}), not in {_show(args.expected)}"
              + ("" if args.update_expected else " (add them with --update-expected)") + ":")
        for k in new_passes:
            print(f"  {k}")
    if regressions:
        print(f"\nREGRESSIONS ({len(regressions)}): expected to pass, failed:")
        for k in regressions:
            print(f"  {k}: {by_key[k].reason}")
    if args.update_expected:
        keep = [k for k in expected if flt and not flt.search(k)]
        passes = [t.key for t in tests if t.status == "passed"]
        write_expected(args.expected, keep + passes, meta)
        print(f"\nwrote {_show(args.expected)}: {len(set(keep + passes))} tests")

    counts = {k: sum(t.status == k for t in tests) for k in ("passed", "failed", "skipped")}
    print(f"\nreport: {args.report or '-'}; details: {args.json or '-'}; "
          f"{elapsed:.0f} s with {args.jobs} jobs")
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump({**counts, "regressions": len(regressions), "crashes": len(crashes)}, f)
    if crashes:
        return 1  # A crash, hang or odd exit is a bug whether or not the test is listed.
    return 1 if regressions and not args.update_expected else 0


if __name__ == "__main__":
    sys.exit(main())
