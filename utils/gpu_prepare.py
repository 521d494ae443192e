#!/usr/bin/env python3
"""gpu_prepare.py - builds here what utils/gpu_check.sh runs on a machine with an NVIDIA GPU.

The GPU machine cannot build tcc and takes at most 64 MiB of files per call, so everything is
compiled and linked here (--target cuda, SASS for --arch through the CUDA toolkit's ptxas), in
parts that each fit one call:
  OUT/part<N>/models/<model>/   harness.xz (test/e2e/harness.c linked with the model) and io/: the
                                inputs and onnxruntime's outputs (utils/model_suite.py
                                --compile-only --save-io); the models of the suite's CI subset
                                and more, packed into parts of at most --budget-mib each
                                (compressed: the weights are in the harness)
  OUT/part1/digits/app          models/digits/app.c on the bundled digits CNN
  OUT/part1/if_branch/check     test/e2e/if_branch_check.c: an If whose condition the host reads
                                back from the GPU (TCC_OK, then TCC_ERROR_BRANCH naming the If)
  OUT/timing/<model>_b<B>[_s<S>]/gpu_bench
                                utils/gpu_bench.c linked with ResNet-50 and MobileNetV2 (batch 1
                                and 32) and BERT-base (batch 1 and 16, sequence 128), compiled
                                with --weights file: the weights are made on the GPU machine
Then, there, one call per part:  bash utils/gpu_check.sh build/gpu_check/part1   (and so on)

  .venv/bin/python utils/gpu_prepare.py [--out build/gpu_check] [--arch sm_90]
"""
import argparse
import json
import lzma
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "models"))
import export_suite  # noqa: E402

# The suite's CI subset first, then more architectures: the ones whose harness fits a part.
CHECKED = ["squeezenet1_1", "mobilenet_v3_small", "hf_bert_tiny", "yolo_head",
           "shufflenet_v2_x1_0", "timm_mobilevit_xxs", "timm_regnetx_002", "mobilenet_v2",
           "timm_convnext_atto", "timm_pvt_v2_b0", "lraspp_mobilenet_v3_large",
           "regnet_y_400mf", "mnasnet1_0", "timm_tf_efficientnet_lite0"]
# (suite model, dims) timed against PyTorch on the GPU.
TIMED = [("resnet50", {"batch": 1}), ("resnet50", {"batch": 32}),
         ("mobilenet_v2", {"batch": 1}), ("mobilenet_v2", {"batch": 32}),
         ("hf_bert_base", {"batch": 1, "seq": 128}), ("hf_bert_base", {"batch": 16, "seq": 128})]


def run(cmd, **kw):
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def size_of(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(ROOT, "build", "gpu_check"))
    p.add_argument("--arch", default="sm_90", choices=("sm_80", "sm_89", "sm_90"))
    p.add_argument("--cuda-path", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("--tcc", default=os.path.join(ROOT, "build", "bin", "tcc"))
    p.add_argument("--rtlib", default=os.path.join(ROOT, "build", "lib", "libtccrt.a"))
    p.add_argument("--cc", default=os.environ.get("CC", "cc"))
    p.add_argument("--cache-dir", default=export_suite.DEFAULT_CACHE)
    p.add_argument("--budget-mib", type=float, default=56,
                   help="files per part (a call carries 64 MiB with the source tree)")
    p.add_argument("--skip-timing", action="store_true")
    args = p.parse_args()
    target = ["--target", "cuda", "--gpu-arch", args.arch, "--cuda-path", args.cuda_path]
    include = os.path.join(ROOT, "include")
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    work = os.path.join(args.out, ".work")
    os.makedirs(work)

    # The checked models: compiled, linked, inputs and references saved.
    run([sys.executable, os.path.join(ROOT, "utils", "model_suite.py"), "--flavour", "ts17",
         "--filter", "^(" + "|".join(CHECKED) + ")$", "--compile-only", "--save-io",
         "--tcc-args", " ".join(target), "--tcc", args.tcc, "--rtlib", args.rtlib,
         "--cc", args.cc, "--cache-dir", args.cache_dir, "--out-dir", os.path.join(work, "suite")])
    # Parts of at most --budget-mib: the CI subset in the first (with the digits demo), then
    # first fit by decreasing size; the harnesses (mostly weights) xz-compressed, unpacked there
    # by gpu_check.py.
    budget = int(args.budget_mib * 2**20)
    staged = []
    for name in CHECKED:
        src = os.path.join(work, "suite", "work", "ts17", name)
        if not os.path.exists(os.path.join(src, "harness")):
            print(f"gpu_prepare: {name}: not compiled (see {work}/suite/report.md)")
            continue
        with open(os.path.join(src, "harness"), "rb") as f:
            packed = lzma.compress(f.read(), preset=6)
        with open(os.path.join(src, "harness.xz"), "wb") as f:
            f.write(packed)
        size = len(packed) + size_of(os.path.join(src, "io"))
        if size > budget:
            print(f"gpu_prepare: {name}: {size / 2**20:.1f} MiB, more than a part holds; left out")
            continue
        staged.append((size, name, src))
    parts, sizes = [[]], [0]
    ci = export_suite.SUBSETS["ci"]
    for size, name, src in sorted(staged, key=lambda t: (t[1] not in ci, -t[0])):
        fit = next((i for i, s in enumerate(sizes) if s + size <= budget), None)
        if fit is None:
            parts.append([])
            sizes.append(0)
            fit = len(parts) - 1
        parts[fit].append(name)
        sizes[fit] += size
        dst = os.path.join(args.out, f"part{fit + 1}", "models", name)
        os.makedirs(dst)
        shutil.copy2(os.path.join(src, "harness.xz"), dst)
        shutil.copytree(os.path.join(src, "io"), os.path.join(dst, "io"))

    # The digits demo, in the first part.
    digits = os.path.join(args.out, "part1", "digits")
    os.makedirs(digits, exist_ok=True)
    run([args.tcc, "compile", os.path.join(ROOT, "models", "digits", "digits.onnx"), "-o",
         os.path.join(work, "digits.o")] + target)
    run([args.cc, "-O2", "-I", include, "-I", work, os.path.join(ROOT, "models", "digits", "app.c"),
         os.path.join(work, "digits.o"), args.rtlib, "-lm", "-lpthread", "-ldl", "-o",
         os.path.join(digits, "app")])
    # An If compiled one branch of: the host reads its condition back from the GPU.
    check = os.path.join(args.out, "part1", "if_branch")
    os.makedirs(check, exist_ok=True)
    run([args.tcc, "compile", os.path.join(ROOT, "test", "Import", "Inputs", "if_branch_runtime.onnx"),
         "--dim", "n=6", "--name", "dec", "-o", os.path.join(work, "dec.o")] + target)
    run([args.cc, "-O2", "-I", include, "-I", work, "-I", os.path.join(ROOT, "test", "e2e"),
         os.path.join(ROOT, "test", "e2e", "if_branch_check.c"), os.path.join(work, "dec.o"),
         args.rtlib, "-lm", "-lpthread", "-ldl", "-o", os.path.join(check, "check")])

    # The timed models: weights made on the GPU machine.
    timed = []
    for name, dims in ([] if args.skip_timing else TIMED):
        path = export_suite.export(export_suite.by_name(name), "ts17", args.cache_dir)
        label = f"{name}_b{dims['batch']}" + (f"_s{dims['seq']}" if "seq" in dims else "")
        obj = os.path.join(work, label, label + ".o")
        os.makedirs(os.path.dirname(obj))
        pins = [a for d, v in dims.items() for a in ("--dim", f"{d}={v}")]
        run([args.tcc, "compile", path, "-o", obj, "--name", label, "--weights", "file"]
            + pins + target)
        dst = os.path.join(args.out, "timing", label)
        os.makedirs(dst)
        run([args.cc, "-O2", "-I", include, "-I", os.path.dirname(obj),
             f'-DTCC_MODEL_HEADER="{label}.h"', f"-DTCC_MODEL_PREFIX={label}",
             f"-DTCC_MODEL_WEIGHTS_BYTES={label.upper()}_WEIGHTS_BYTES",
             os.path.join(ROOT, "utils", "gpu_bench.c"), obj, args.rtlib, "-lm", "-lpthread",
             "-ldl", "-o", os.path.join(dst, "gpu_bench")])
        with open(os.path.join(dst, "model.json"), "w") as f:
            json.dump(dict(model=name, **dims), f)
        timed.append(label)

    shutil.rmtree(work)
    print("gpu_prepare: parts (carry one per call, with the source tree):")
    for i, names in enumerate(parts):
        part = os.path.join(args.out, f"part{i + 1}")
        print(f"  {os.path.relpath(part, ROOT)}: {size_of(part) / 2**20:.1f} MiB: "
              + ", ".join(names) + (" + digits" if i == 0 else ""))
    if timed:
        part = os.path.join(args.out, "timing")
        print(f"  {os.path.relpath(part, ROOT)}: {size_of(part) / 2**20:.1f} MiB: "
              + ", ".join(timed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
