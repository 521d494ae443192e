"""inspect_check.py TCC MODEL_OR_FOLDER... - runs `tcc inspect --json` on each model (every .onnx
of a folder) and compares it with onnx's own view of the file: inputs (those not initializers)
and outputs with dtypes and shapes, the operator histogram (subgraphs included), the parameter
count. A file onnx cannot parse must make tcc exit 1 saying it is not an ONNX model. Prints one
line per model and `N checked, M mismatches`; exits 1 on a mismatch or a crash."""
import collections
import json
import os
import subprocess
import sys

import onnx
from onnx import helper


def expected(path):
    m = onnx.load(path, load_external_data=False)
    inits = {t.name for t in m.graph.initializer}

    def tensor(v):
        if not v.type.HasField("tensor_type"):
            kind = ("sequence" if v.type.HasField("sequence_type")
                    else "map" if v.type.HasField("map_type") else "unknown")
            return {"name": v.name, "dtype": kind, "shape": None}, None
        t = v.type.tensor_type
        dtype = helper.tensor_dtype_to_np_dtype(t.elem_type) if t.elem_type else None
        shape = None
        if t.HasField("shape"):
            shape = [d.dim_value if d.HasField("dim_value") and d.dim_value >= 0
                     else (d.dim_param or "?") for d in t.shape.dim]
        name = onnx.TensorProto.DataType.Name(t.elem_type).lower() if t.elem_type else None
        return {"name": v.name, "dtype": name, "shape": shape}, dtype

    ops = collections.Counter()

    def walk(graph):
        for n in graph.node:
            domain = "" if n.domain in ("", "ai.onnx") else n.domain
            ops[(domain + "." if domain else "") + n.op_type] += 1
            for a in n.attribute:
                if a.HasField("g"):
                    walk(a.g)
                for g in a.graphs:
                    walk(g)

    walk(m.graph)
    params = 0
    for t in m.graph.initializer:
        n = 1
        for d in t.dims:
            n *= d
        params += n
    return {"inputs": [tensor(v)[0] for v in m.graph.input if v.name not in inits],
            "outputs": [tensor(v)[0] for v in m.graph.output],
            "operators": dict(ops), "elements": params}


def main():
    tcc, models = sys.argv[1], []
    for arg in sys.argv[2:]:
        if os.path.isdir(arg):
            models += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".onnx"))
        else:
            models.append(arg)
    bad = 0
    for path in models:
        run = subprocess.run([tcc, "inspect", path, "--json"], capture_output=True, text=True)
        try:
            want = expected(path)
        except Exception:  # not ONNX: tcc must say so
            ok = run.returncode == 1 and "is not an ONNX model" in run.stderr
            bad += not ok
            print(f"{os.path.basename(path)}: {'ok (not ONNX)' if ok else 'MISMATCH ' + run.stderr}")
            continue
        if run.returncode != 0:
            print(f"{os.path.basename(path)}: MISMATCH exit {run.returncode}: "
                  f"{run.stderr.strip()}")
            bad += 1
            continue
        got = json.loads(run.stdout)
        problems = []
        for key in ("inputs", "outputs", "operators"):
            if got[key] != want[key]:
                problems.append(f"{key}: tcc {got[key]} onnx {want[key]}")
        if got["parameters"]["elements"] != want["elements"]:
            problems.append(f"parameters: tcc {got['parameters']['elements']} "
                            f"onnx {want['elements']}")
        status = "ok" if not problems else "MISMATCH " + "; ".join(problems)
        bad += bool(problems)
        print(f"{os.path.basename(path)}: {status}")
    print(f"{len(models)} checked, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
