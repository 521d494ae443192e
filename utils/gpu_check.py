#!/usr/bin/env python3
"""gpu_check.py - the checks utils/gpu_check.sh runs on the GPU machine (numpy; PyTorch for timing).

  gpu_check.py compare MODEL_DIR...   runs each MODEL_DIR/harness on MODEL_DIR/io and compares
                                      its outputs with onnxruntime's (ref_<i>.npy; rtol 1e-3,
                                      atol 1e-4): one line per model, PASS or FAIL
  gpu_check.py timing TIMING_DIR      tcc (TIMING_DIR/*/gpu_bench) against PyTorch eager and
                                      torch.compile (default mode) on the same architectures,
                                      batch and sequence, fp32 without TF32; the engines
                                      interleaved, --rounds rounds of --runs runs each; medians
Made by utils/gpu_prepare.py; nothing here needs tcc or a compiler.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np


def compare(dirs, rtol, atol, timeout):
    failed = 0
    for d in dirs:
        name = os.path.basename(os.path.normpath(d))
        io = os.path.join(d, "io")
        with open(os.path.join(io, "outputs.json")) as f:
            outputs = json.load(f)
        harness = os.path.join(d, "harness")
        if not os.path.exists(harness):  # gpu_prepare.py carries it compressed
            import lzma
            with open(harness + ".xz", "rb") as f:
                data = lzma.decompress(f.read())
            with open(harness, "wb") as f:
                f.write(data)
            os.chmod(harness, 0o755)
        start = time.monotonic()
        r = subprocess.run([harness, io], capture_output=True, text=True,
                           timeout=timeout)
        elapsed = time.monotonic() - start
        if r.returncode:
            print(f"FAIL {name}: the harness exited {r.returncode}: "
                  f"{(r.stderr or r.stdout).strip()[-400:]}", flush=True)
            failed += 1
            continue
        worst, bad = [], []
        for i, oname in enumerate(outputs):
            ref = np.load(os.path.join(io, f"ref_{i}.npy"))
            got = np.fromfile(os.path.join(io, f"output_{i}.bin"), dtype=ref.dtype)
            if got.size != ref.size:
                bad.append(f"{oname}: {got.size} elements, onnxruntime has {ref.size}")
                continue
            got = got.reshape(ref.shape)
            if not np.issubdtype(ref.dtype, np.floating):
                if not np.array_equal(got, ref):
                    bad.append(f"{oname}: {int(np.sum(got != ref))} elements differ")
                continue
            err = np.abs(got.astype(np.float64) - ref.astype(np.float64))
            out = err > atol + rtol * np.abs(ref.astype(np.float64))
            out |= np.isnan(got) != np.isnan(ref)
            worst.append(float(np.nanmax(err)) if err.size else 0.0)
            if out.any():
                bad.append(f"{oname}: {int(out.sum())}/{ref.size} elements out of tolerance, "
                           f"max abs err {np.nanmax(err):.3g}")
        if bad:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(bad), flush=True)
        else:
            print(f"PASS {name}: max abs err {max(worst, default=0):.3g} "
                  f"(one call, {elapsed * 1e3:.0f} ms with the first-call setup)", flush=True)
    print(f"compare: {len(dirs) - failed} passed, {failed} failed (rtol {rtol}, atol {atol})")
    return 1 if failed else 0


def torch_model(torch, spec):
    """The PyTorch model and inputs of a timed configuration, random weights, on the GPU."""
    name, batch = spec["model"], spec["batch"]
    if name in ("resnet50", "mobilenet_v2"):
        import torchvision
        model = getattr(torchvision.models, name)(weights=None)
        x = torch.randn(batch, 3, 224, 224)
        return model, (x,)
    if name == "hf_bert_base":
        import transformers
        model = transformers.BertModel(transformers.BertConfig())  # bert-base-uncased's shape
        seq = spec["seq"]
        ids = torch.randint(0, 30522, (batch, seq))
        return model, (ids, torch.ones(batch, seq, dtype=torch.int64))
    raise ValueError(name)


def time_torch(torch, fn, inputs, runs):
    times = []
    for _ in range(runs):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn(*inputs)
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def timing(root, rounds, runs, skip_compile):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name(0)}; fp32, TF32 off; "
          f"{rounds} rounds x {runs} runs per engine, interleaved; medians in ms", flush=True)
    rows = []
    for label in sorted(os.listdir(root)):
        d = os.path.join(root, label)
        with open(os.path.join(d, "model.json")) as f:
            spec = json.load(f)
        engines = {}
        try:
            model, host_inputs = torch_model(torch, spec)
            model = model.eval().cuda()
            dev_inputs = tuple(x.cuda() for x in host_inputs)
            compiled = None if skip_compile else torch.compile(model)
            with torch.inference_mode():
                start = time.perf_counter()
                if compiled is not None:
                    compiled(*dev_inputs)
                    torch.cuda.synchronize()
                compile_s = time.perf_counter() - start
                model(*dev_inputs)

                def host_eager(*xs):  # host in, host out, as tcc's call
                    out = model(*(x.cuda(non_blocking=False) for x in xs))
                    first = out[0] if isinstance(out, (tuple, list)) else \
                        out.last_hidden_state if hasattr(out, "last_hidden_state") else out
                    return first.cpu()

                plan = [("eager", model, dev_inputs), ("eager host i/o", host_eager, host_inputs)]
                if compiled is not None:
                    plan.append(("torch.compile", compiled, dev_inputs))
                for _ in range(rounds):
                    r = subprocess.run([os.path.join(d, "gpu_bench"), "3", str(runs)],
                                       capture_output=True, text=True, timeout=300)
                    if r.returncode:
                        raise RuntimeError(f"gpu_bench: {r.stderr.strip()[-300:]}")
                    engines.setdefault("tcc", []).extend(float(t) for t in r.stdout.split())
                    for engine, fn, xs in plan:
                        time_torch(torch, fn, xs, 2)  # warm
                        engines.setdefault(engine, []).extend(time_torch(torch, fn, xs, runs))
        except Exception as e:  # a missing package or a failing engine: say so, go on
            print(f"{label}: {type(e).__name__}: {str(e)[:300]}", flush=True)
            if "tcc" not in engines:
                continue
        med = {k: statistics.median(v) for k, v in engines.items()}
        line = f"{label}: " + ", ".join(f"{k} {v:.3f}" for k, v in med.items())
        if "torch.compile" in med:
            line += f"; tcc / torch.compile {med['tcc'] / med['torch.compile']:.2f}x"
            line += f" (torch.compile's first call {compile_s:.0f} s)"
        if "eager" in med:
            line += f"; tcc / eager {med['tcc'] / med['eager']:.2f}x"
        print(line, flush=True)
        rows.append(dict(label=label, **spec, median_ms=med))
    with open(os.path.join(root, "timing.json"), "w") as f:
        json.dump(rows, f, indent=1)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compare")
    c.add_argument("dirs", nargs="+")
    c.add_argument("--rtol", type=float, default=1e-3)
    c.add_argument("--atol", type=float, default=1e-4)
    c.add_argument("--timeout", type=float, default=120)
    t = sub.add_parser("timing")
    t.add_argument("root")
    t.add_argument("--rounds", type=int, default=3)
    t.add_argument("--runs", type=int, default=20)
    t.add_argument("--skip-compile", action="store_true", help="no torch.compile (faster)")
    args = p.parse_args()
    if args.cmd == "compare":
        return compare(args.dirs, args.rtol, args.atol, args.timeout)
    return timing(args.root, args.rounds, args.runs, args.skip_compile)


if __name__ == "__main__":
    sys.exit(main())
