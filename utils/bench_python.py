"""bench_python.py - tcc.compile against eager PyTorch and torch.compile on
models of the suite (python -m tcc.bench for each model and thread count,
each in its own process), as a markdown table with geomeans:
build/bench/python.md and python.json. Not a test.

    .venv/bin/python utils/bench_python.py --models squeezenet1_1 resnet18 --threads 1 2
"""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def table(results, engines, thread_counts):
    """The markdown table of `results`, a geomean row per thread count."""
    names = engines + ["tcc.compile"]
    lines = ["| model | threads | %s | %s |" % (
        " | ".join(n + " ms" for n in names),
        " | ".join("speedup over " + e for e in engines)),
        "|---|---:|" + "---:|" * (len(names) + len(engines))]
    for threads in thread_counts:
        rows = [r for r in results if r["threads"] == threads and "error" not in r]
        for r in rows:
            lines.append("| %s | %d | %s | %s |" % (
                r["model"], threads,
                " | ".join("%.2f" % r["engines"][n]["median_ms"] for n in names),
                " | ".join("%.2fx" % r["speedup"][e] for e in engines)))
        if rows:
            geo = [math.exp(sum(math.log(r["speedup"][e]) for r in rows) / len(rows))
                   for e in engines]
            lines.append("| **geomean** | %d |%s %s |" % (
                threads, " |" * len(names), " | ".join("**%.2fx**" % g for g in geo)))
    for r in results:
        if "error" in r:
            lines.append("\n%s at %d threads failed (see the log)." % (r["model"], r["threads"]))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", required=True)
    parser.add_argument("--threads", nargs="+", type=int, default=[1])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--no-torch-compile", action="store_true")
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "build", "bench"))
    parser.add_argument("--report-only", action="store_true",
                        help="only write the table again from OUT_DIR/python.json")
    args = parser.parse_args()
    if args.report_only:
        with open(os.path.join(args.out_dir, "python.json")) as f:
            results = json.load(f)
        engines = ["eager"] + ([] if args.no_torch_compile else ["torch.compile"])
        print("\n".join(table(results, engines, args.threads)))
        return
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools", "python"))
    env.setdefault("TCC_BIN", os.path.join(ROOT, "build", "bin", "tcc"))
    env.setdefault("TCC_CACHE_DIR", os.path.join(ROOT, "build", "tcc-cache"))
    results = []
    for threads in args.threads:
        for model in args.models:
            cmd = [sys.executable, "-m", "tcc.bench", "suite:" + model, "--threads",
                   str(threads), "--iterations", str(args.iterations), "--json"]
            if args.no_torch_compile:
                cmd.append("--no-torch-compile")
            print("bench_python:", " ".join(cmd[1:]), flush=True)
            out = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if out.returncode:
                print(out.stderr[-2000:], file=sys.stderr)
                results.append({"model": model, "threads": threads, "error": True})
                continue
            results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "python.json"), "w") as f:
        json.dump(results, f, indent=1)
    engines = ["eager"] + ([] if args.no_torch_compile else ["torch.compile"])
    lines = table(results, engines, args.threads)
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out_dir, "python.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
