#!/usr/bin/env python3
"""ab.py MODEL NAME=TCC [NAME=TCC ...] [--threads N] [--rounds R] [--iters K] [--dim NAME=VALUE ...]

A/B timing of tcc builds on one model (a development aid; utils/bench.py is the harness that
compares against onnxruntime and PyTorch). Compiles MODEL with each tcc binary (symbolic dims
pinned with --dim, e.g. --dim batch=1 --dim seq=128) and links each object with
utils/bench_main.c, as bench.py does,
then runs the builds in interleaved rounds of K timed runs (after 2 warm-up) and prints, per build,
the median of the round medians and the fastest run. Work goes to build/ab/NAME_MODEL.
"""
import argparse
import os
import statistics
import subprocess
import types

from bench import ROOT, compile_and_link


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model")
    p.add_argument("builds", nargs="+", metavar="NAME=TCC")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--iters", type=int, default=10)
    p.add_argument("--dim", action="append", default=[], metavar="NAME=VALUE",
                   help="pin a symbolic dim (repeatable)")
    p.add_argument("--cc", default=os.environ.get("CC", "cc"))
    a = p.parse_args()
    name = os.path.splitext(os.path.basename(a.model))[0].replace("-", "_")
    dims = dict(d.split("=", 1) for d in a.dim)
    exes = {}
    for spec in a.builds:
        label, tcc = spec.split("=", 1)
        work = os.path.join(ROOT, "build", "ab", f"{label}_{name}")
        os.makedirs(work, exist_ok=True)
        tools = types.SimpleNamespace(tcc=tcc, cc=a.cc, include=os.path.join(ROOT, "include"),
                                      rtlib=os.path.join(ROOT, "build", "lib", "libtccrt.a"))
        exes[label] = compile_and_link(tools, a.model, name, work, dims, {})
    medians = {label: [] for label in exes}
    fastest = {label: [] for label in exes}
    for _ in range(a.rounds):
        for label, exe in exes.items():
            out = subprocess.run([exe, "-", "2", str(a.iters), str(a.threads)], capture_output=True,
                                 text=True, check=True).stdout
            times = [float(x) for x in out.split()]
            medians[label].append(statistics.median(times))
            fastest[label].append(min(times))
    for label in exes:
        rounds = ", ".join(f"{m:.2f}" for m in medians[label])
        print(f"{label}: median of round medians {statistics.median(medians[label]):.3f} ms, "
              f"fastest {min(fastest[label]):.3f} ms, rounds [{rounds}]")


if __name__ == "__main__":
    main()
