"""trace_check.py TRACE KERNELS - checks a tcc bench --trace file: valid JSON in the Chrome trace
format (complete "X" events with name, cat, ts, dur, pid, tid), one "run" event per timed run
holding KERNELS kernel events, each naming its call site and ONNX nodes, and the kernels' time
within 10% of the runs' time. Prints a summary line."""
import json
import sys

trace = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
events = trace["traceEvents"]
assert events and all(e["ph"] == "X" and {"name", "cat", "ts", "dur", "pid", "tid"} <= e.keys()
                      for e in events), "not complete events"
runs = [e for e in events if e["cat"] == "run"]
kernels = [e for e in events if e["cat"] == "kernel"]
assert all("site" in e["args"] and isinstance(e["args"]["nodes"], list) for e in kernels)
for run in runs:
    inside = [k for k in kernels if run["ts"] <= k["ts"] and k["ts"] + k["dur"] <= run["ts"] + run["dur"] + 1e-3]
    assert len(inside) == want, f"{run['name']}: {len(inside)} kernel events, want {want}"
run_time = sum(r["dur"] for r in runs)
kernel_time = sum(k["dur"] for k in kernels)
share = kernel_time / run_time
assert 0.9 <= share <= 1.0 + 1e-6, f"kernels {kernel_time} us of {run_time} us"
print(f"trace: {len(runs)} runs, {len(kernels)} kernel events, kernels within 10% of the runs: "
      f"{share > 0.9}")
