"""python -m tcc.bench MODEL: eager PyTorch, torch.compile and tcc.compile
on the same inputs and threads, interleaved, with the ratios.

    python -m tcc.bench torchvision.models:resnet18 --shape 1x3x224x224
    python -m tcc.bench mypkg.models:build          # build() -> module, or (module, inputs)
    python -m tcc.bench suite:mobilenet_v2          # a model of tcc's suite (source tree)
    python -m tcc.bench model.onnx                  # tcc vs onnxruntime

From Python: tcc.bench.compare(module, example_inputs, threads=1, ...).
Each round runs every engine once, in turn, so that a noisy machine slows
them alike; the report gives each engine's median and p90, its compile time,
and tcc's speedup over the others (above 1: tcc faster)."""
import argparse
import importlib
import json
import os
import statistics
import sys
import time

import numpy as np

__all__ = ["compare", "main"]


def _median_p90(times):
    times = sorted(times)
    return statistics.median(times), times[min(len(times) - 1,
                                               int(0.9 * len(times)))]


def _summary(model, threads, iterations, times, compile_s, ours):
    """The result of compare(): each engine's median, p90 and compile time,
    and `ours`'s speedup over the others."""
    result = {"model": model, "threads": threads, "iterations": iterations,
              "engines": {}, "speedup": {}}
    for engine, t in times.items():
        median, p90 = _median_p90(t)
        result["engines"][engine] = {"median_ms": median * 1e3,
                                     "p90_ms": p90 * 1e3,
                                     "compile_s": compile_s.get(engine)}
    base = result["engines"][ours]["median_ms"]
    for engine, r in result["engines"].items():
        if engine != ours:
            result["speedup"][engine] = r["median_ms"] / base
    return result


def _interleave(engines, iterations, warmup):
    """engines: {name: callable}; returns {name: [seconds per run]}."""
    for _ in range(warmup):
        for run in engines.values():
            run()
    times = {name: [] for name in engines}
    for _ in range(iterations):
        for name, run in engines.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return times


def compare(module, example_inputs, threads=1, iterations=20, warmup=3,
            torch_compile=True, name=None, cache_dir=None, options=()):
    """Times eager, torch.compile (unless torch_compile=False) and
    tcc.compile on `example_inputs` at `threads` threads, interleaved.
    Returns {"model", "threads", "iterations", "engines": {engine:
    {"median_ms", "p90_ms", "compile_s"}}, "speedup": {other: x}} after
    checking that tcc's outputs match eager's."""
    import torch

    from . import compile as tcc_compile
    torch.set_num_threads(threads)
    module = module.eval()
    example = tuple(example_inputs) if isinstance(
        example_inputs, (tuple, list)) else (example_inputs,)
    compile_s = {}
    start = time.perf_counter()
    fast = tcc_compile(module, example, threads=threads,
                       cache_dir=cache_dir, options=options)
    compile_s["tcc.compile"] = time.perf_counter() - start
    engines = {}
    with torch.no_grad():
        want = module(*example)
        got = fast(*example)
        import torch.utils._pytree as pytree
        for a, b in zip(pytree.tree_flatten(got)[0],
                        pytree.tree_flatten(want)[0]):
            if a.dtype.is_floating_point and not torch.allclose(
                    a, b, rtol=1e-3, atol=1e-4):
                raise AssertionError(
                    "tcc.compile's outputs differ from eager's: max |diff| "
                    "%.3g" % float((a - b).abs().max()))
        engines["eager"] = lambda: module(*example)
        if torch_compile:
            start = time.perf_counter()
            compiled = torch.compile(module)
            compiled(*example)  # compiles
            compile_s["torch.compile"] = time.perf_counter() - start
            engines["torch.compile"] = lambda: compiled(*example)
        engines["tcc.compile"] = lambda: fast(*example)
        times = _interleave(engines, iterations, warmup)
    result = _summary(name or type(module).__name__, threads, iterations,
                      times, compile_s, "tcc.compile")
    result["tcc_from_cache"] = fast.from_cache
    return result


def compare_onnx(path, threads=1, iterations=20, warmup=3, cache_dir=None):
    """tcc (the model compiled to a shared library) against onnxruntime on
    deterministic inputs, interleaved."""
    import subprocess
    import tempfile

    from ._binary import tcc_binary
    from ._runtime import load
    work = tempfile.mkdtemp(prefix="tcc-bench-")
    lib = os.path.join(work, "model.so")
    start = time.perf_counter()
    subprocess.run([tcc_binary(), "compile", path, "-o", lib], check=True)
    compile_s = time.perf_counter() - start
    model = load(lib, threads=threads)
    rng = np.random.default_rng(0)
    feeds = {}
    for t in model.inputs:
        shape = [d if isinstance(d, int) else 1 for d in t.shape]
        if t.dtype.startswith("float"):
            feeds[t.name] = rng.uniform(-1, 1, shape).astype(t.dtype)
        else:
            feeds[t.name] = np.zeros(shape, t.dtype)
    engines = {"tcc": lambda: model.run(feeds)}
    try:
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(path, options,
                                       providers=["CPUExecutionProvider"])
        engines["onnxruntime"] = lambda: session.run(None, feeds)
    except ImportError:
        pass
    times = _interleave(engines, iterations, warmup)
    return _summary(os.path.basename(path), threads, iterations, times,
                    {"tcc": compile_s}, "tcc")


def _resolve(spec, shapes):
    """MODEL -> (module, example_inputs, name)."""
    import torch
    if spec.startswith("suite:"):
        here = os.path.dirname(os.path.abspath(__file__))
        models = os.path.normpath(os.path.join(here, "..", "..", "..",
                                               "models"))
        if not os.path.exists(os.path.join(models, "export_suite.py")):
            raise SystemExit("tcc.bench: suite: models need tcc's source "
                             "tree (models/export_suite.py)")
        sys.path.insert(0, models)
        import export_suite
        s = export_suite.by_name(spec[len("suite:"):])
        torch.manual_seed(0)
        module = s.build()
        feeds = export_suite.make_feeds(s, dims={"batch": 1, "seq": 128})
        return module, tuple(torch.from_numpy(feeds[i.name])
                             for i in s.inputs), s.name
    if ":" not in spec:
        raise SystemExit("tcc.bench: MODEL is package.module:callable, "
                         "suite:NAME or a .onnx file, not %r" % spec)
    mod_name, attr = spec.split(":", 1)
    obj = getattr(importlib.import_module(mod_name), attr)
    torch.manual_seed(0)
    built = obj if isinstance(obj, torch.nn.Module) else obj()
    if isinstance(built, tuple):
        module, example = built
    else:
        module = built
        if not shapes:
            raise SystemExit("tcc.bench: give the inputs' shapes with "
                             "--shape 1x3x224x224 (one per input)")
        example = tuple(torch.randn([int(d) for d in s.split("x")])
                        for s in shapes)
    return module, example, attr


def _print(result, out=sys.stdout):
    out.write("tcc.bench: %s, %d thread%s, %d interleaved runs\n" % (
        result["model"], result["threads"], "s" * (result["threads"] > 1),
        result["iterations"]))
    for engine, r in result["engines"].items():
        extra = (" (compile %.1f s)" % r["compile_s"]
                 if r["compile_s"] is not None else "")
        out.write("  %-14s median %9.3f ms  p90 %9.3f ms%s\n" % (
            engine, r["median_ms"], r["p90_ms"], extra))
    for engine, x in result["speedup"].items():
        out.write("  tcc speedup over %s: %.2fx\n" % (engine, x))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m tcc.bench", description=__doc__.splitlines()[0])
    parser.add_argument("model", help="package.module:callable, suite:NAME "
                        "or MODEL.onnx")
    parser.add_argument("--shape", action="append", default=[],
                        help="an input's shape, 1x3x224x224 (repeat per "
                        "input) when the callable returns only a module")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--no-torch-compile", action="store_true")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object")
    parser.add_argument("--no-pin", action="store_true",
                        help="do not pin the process to the first "
                        "--threads CPUs it may use")
    args = parser.parse_args(argv)
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))[:args.threads]
        os.sched_setaffinity(0, cpus)
    if args.model.endswith(".onnx"):
        result = compare_onnx(args.model, args.threads, args.iterations,
                              args.warmup)
    else:
        module, example, name = _resolve(args.model, args.shape)
        result = compare(module, example, threads=args.threads,
                         iterations=args.iterations, warmup=args.warmup,
                         torch_compile=not args.no_torch_compile, name=name)
    if args.json:
        print(json.dumps(result))
    else:
        _print(result)


if __name__ == "__main__":
    main()
