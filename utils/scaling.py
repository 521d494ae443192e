#!/usr/bin/env python3
"""scaling.py - compile time of tcc on large generated graphs (issue 38, item 5).

Generates models that stress how compile time grows with the size of a graph, compiles each
with `tcc compile` (or several tcc binaries, interleaved) and prints the wall time of each:

  add_chain_N     a chain of N elementwise Adds (x + c1 + c2 + ...), one input, one output
  inputs_N        N inputs, each through a Relu, summed pairwise into one output
  outputs_N       one input, N outputs, each a Neg/Abs/Relu of it
  mixed_N         N nodes of matmul + add + relu layers (a deep MLP of small layers)
  concat_N        one Concat of N inputs
  sum_N           one Sum of N inputs
  add_inputs_N    N inputs summed by a chain of Adds

Usage: scaling.py [--tcc build/bin/tcc ...] [--cases add_chain_10000 inputs_1000 ...]
                  [--runs 1] [--limit 10] [--work build/scaling]
Exit status 1 when a compile fails or takes longer than --limit seconds (the issue's target:
every model of up to 10,000 nodes, 1,000 inputs or 1,000 outputs under 10 s).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
F32 = TensorProto.FLOAT


def vi(name, shape):
    return helper.make_tensor_value_info(name, F32, shape)


def save(nodes, inputs, outputs, inits, path):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)


def add_chain(n, path):
    nodes, inits, prev = [], [], "x"
    for i in range(n):
        inits.append(numpy_helper.from_array(np.full((16,), i % 7, np.float32), f"c{i}"))
        out = "y" if i == n - 1 else f"t{i}"
        nodes.append(helper.make_node("Add", [prev, f"c{i}"], [out], name=f"add{i}"))
        prev = out
    save(nodes, [vi("x", [16])], [vi("y", [16])], inits, path)


def inputs(n, path):
    nodes, level = [], []
    for i in range(n):
        nodes.append(helper.make_node("Relu", [f"x{i}"], [f"r{i}"], name=f"relu{i}"))
        level.append(f"r{i}")
    k = 0
    while len(level) > 1:
        nxt = []
        for j in range(0, len(level) - 1, 2):
            out = f"s{k}"
            k += 1
            nodes.append(helper.make_node("Add", [level[j], level[j + 1]], [out], name=f"sum{k}"))
            nxt.append(out)
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    nodes.append(helper.make_node("Identity", [level[0]], ["y"], name="out"))
    save(nodes, [vi(f"x{i}", [1, 8]) for i in range(n)], [vi("y", [1, 8])], [], path)


def outputs(n, path):
    ops = ["Neg", "Abs", "Relu"]
    nodes = [helper.make_node(ops[i % 3], ["x"], [f"y{i}"], name=f"n{i}") for i in range(n)]
    save(nodes, [vi("x", [1, 8])], [vi(f"y{i}", [1, 8]) for i in range(n)], [], path)


def mixed(n, path):
    rng = np.random.default_rng(0)
    nodes, inits, prev = [], [], "x"
    for i in range(n // 3):
        inits.append(numpy_helper.from_array(rng.standard_normal((32, 32)).astype(np.float32) * 0.1, f"w{i}"))
        inits.append(numpy_helper.from_array(rng.standard_normal(32).astype(np.float32) * 0.1, f"b{i}"))
        nodes += [helper.make_node("MatMul", [prev, f"w{i}"], [f"m{i}"], name=f"mm{i}"),
                  helper.make_node("Add", [f"m{i}", f"b{i}"], [f"a{i}"], name=f"add{i}"),
                  helper.make_node("Relu", [f"a{i}"], [f"r{i}"], name=f"relu{i}")]
        prev = f"r{i}"
    nodes.append(helper.make_node("Identity", [prev], ["y"], name="out"))
    save(nodes, [vi("x", [4, 32])], [vi("y", [4, 32])], inits, path)


def concat(n, path):
    nodes = [helper.make_node("Concat", [f"x{i}" for i in range(n)], ["y"], name="concat", axis=0)]
    save(nodes, [vi(f"x{i}", [1, 8]) for i in range(n)], [vi("y", [n, 8])], [], path)


def sum_inputs(n, path):
    nodes = [helper.make_node("Sum", [f"x{i}" for i in range(n)], ["y"], name="sum")]
    save(nodes, [vi(f"x{i}", [1, 8]) for i in range(n)], [vi("y", [1, 8])], [], path)


def add_inputs(n, path):
    """x0 + x1 + ... + x(n-1), one Add per input: each sum an elementwise op fusion folds into one."""
    nodes, prev = [], "x0"
    for i in range(1, n):
        out = "y" if i == n - 1 else f"s{i}"
        nodes.append(helper.make_node("Add", [prev, f"x{i}"], [out], name=f"add{i}"))
        prev = out
    save(nodes, [vi(f"x{i}", [1, 8]) for i in range(n)], [vi("y", [1, 8])], [], path)


KINDS = {"add_chain": add_chain, "inputs": inputs, "outputs": outputs, "mixed": mixed,
         "concat": concat, "sum": sum_inputs, "add_inputs": add_inputs}
DEFAULT = ["add_chain_10000", "inputs_1000", "outputs_1200", "mixed_10000", "concat_1000",
           "sum_1000", "add_inputs_1000"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tcc", nargs="+", default=[os.path.join(REPO, "build", "bin", "tcc")],
                   help="tcc binaries (NAME=PATH or PATH), timed interleaved")
    p.add_argument("--cases", nargs="+", default=DEFAULT)
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--limit", type=float, default=10.0, help="seconds a compile may take")
    p.add_argument("--timeout", type=float, default=300.0)
    p.add_argument("--work", default=os.path.join(REPO, "build", "scaling"))
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    engines = []
    for spec in args.tcc:
        name, _, path = spec.rpartition("=")
        engines.append((name or path, os.path.abspath(path)))
    ok = True
    print(f"{'case':18}" + "".join(f"{n[-24:]:>26}" for n, _ in engines))
    for case in args.cases:
        kind, _, n = case.rpartition("_")
        model = os.path.join(args.work, case + ".onnx")
        if not os.path.exists(model):
            KINDS[kind](int(n), model)
        times = {name: [] for name, _ in engines}
        for _ in range(args.runs):
            for name, tcc in engines:
                out = os.path.join(args.work, case + ".o")
                start = time.monotonic()
                try:
                    r = subprocess.run([tcc, "compile", model, "-o", out], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, timeout=args.timeout)
                    dt = time.monotonic() - start
                    if r.returncode:
                        print(f"  {name}: {case} failed: {r.stderr.decode()[-400:]}", file=sys.stderr)
                        dt = float("nan")
                except subprocess.TimeoutExpired:
                    dt = float("inf")
                times[name].append(dt)
        row = f"{case:18}"
        for name, _ in engines:
            t = statistics.median(times[name])
            row += f"{t:25.2f}s"
            ok &= t <= args.limit
        print(row, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
