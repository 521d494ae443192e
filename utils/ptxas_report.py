#!/usr/bin/env python3
"""ptxas_report.py - registers and spills of each CUDA kernel tcc makes for a model (issue 39).

Compiles each model as `tcc compile --target cuda` does (the bufferized stage, then tcc-opt's
--tcc-cuda-kernels and gpu-module-to-binary to PTX with the toolkit's libdevice linked), takes
each gpu.binary's PTX out of the MLIR, and runs the toolkit's `ptxas -v` on it for the
architecture. Prints one line per kernel (registers, spill stores/loads in bytes) and a
summary; exit status 1 when ptxas rejects a kernel. Spills are a bug to look at.

  utils/ptxas_report.py MODEL.onnx... [--cuda-path /usr/local/cuda] [--dim NAME=N]   (sm_90, as --tcc-cuda-kernels)
  utils/ptxas_report.py --from-suite build/model-suite/report.json   (its models, with their pins)
"""
import argparse
import os
import json
import re
import shlex
import subprocess
import sys
import tempfile

ARCH = "sm_90"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = re.compile(r'gpu\.binary @(\w+) .*?assembly = "((?:[^"\\]|\\.)*)"')
USAGE = re.compile(r"Used (\d+) registers")
ENTRY = re.compile(r"Compiling entry function '(\w+)'(.*?Used \d+ registers)", re.S)
SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


def unescape(text):
    """MLIR's string escapes (\\XX hex, \\\\, \\") to bytes."""
    out, i = bytearray(), 0
    while i < len(text):
        if text[i] == "\\":
            if text[i + 1] in '\\"':
                out.append(ord(text[i + 1]))
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("models", nargs="*")
    p.add_argument("--from-suite", metavar="REPORT.json",
                   help="the models of a utils/model_suite.py report, each with its --dim pins")
    p.add_argument("--cuda-path", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("--dim", action="append", default=[], metavar="NAME=N",
                   help="pin a symbolic dim in every model (as tcc compile --dim)")
    p.add_argument("--bin", default=os.path.join(REPO, "build", "bin"), help="tcc and tcc-opt")
    args = p.parse_args()
    # (model, pins) to compile.
    jobs = [(m, [a for d in args.dim for a in ("--dim", d)]) for m in args.models]
    if args.from_suite:
        with open(args.from_suite) as f:
            for row in json.load(f)["results"]:
                cmd = shlex.split(row.get("compile_cmd") or "")
                if len(cmd) < 3:
                    continue
                pins = [a for i, d in enumerate(cmd) if d == "--dim" for a in ("--dim", cmd[i + 1])]
                model = cmd[2] if os.path.isabs(cmd[2]) else os.path.join(REPO, cmd[2])
                jobs.append((model, pins))
    if not jobs:
        p.error("no models: give MODEL.onnx... or --from-suite")
    ptxas = os.path.join(args.cuda_path, "bin", "ptxas")
    failed = kernels = spilling = 0
    max_regs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for model, pins in jobs:
            name = os.path.splitext(os.path.basename(model))[0]
            tcc, opt = os.path.join(args.bin, "tcc"), os.path.join(args.bin, "tcc-opt")
            bufferized = subprocess.run([tcc, "compile", model, "--stop-after", "bufferized",
                                         "-o", "-"] + pins, capture_output=True)
            mlir = bufferized
            if not bufferized.returncode:
                kernels_ir = subprocess.run([opt, "--tcc-cuda-kernels"], input=bufferized.stdout,
                                            capture_output=True)
                mlir = kernels_ir if kernels_ir.returncode else subprocess.run(
                    [opt, f"--gpu-module-to-binary=format=isa toolkit={args.cuda_path}"],
                    input=kernels_ir.stdout, capture_output=True)
            mlir.stdout = mlir.stdout.decode(errors="replace")
            mlir.stderr = mlir.stderr.decode(errors="replace")
            if mlir.returncode:
                print(f"{name}: compile failed: {mlir.stderr.strip()[-500:]}")
                failed += 1
                continue
            for module, ptx in BINARY.findall(mlir.stdout):
                path = os.path.join(tmp, f"{name}_{module}.ptx")
                with open(path, "wb") as f:
                    f.write(unescape(ptx))
                r = subprocess.run([ptxas, "-v", f"-arch={ARCH}", path, "-o",
                                    os.path.join(tmp, "out.cubin")],
                                   capture_output=True, text=True)
                if r.returncode:
                    kernels += 1
                    failed += 1
                    print(f"{name} {module}: ptxas failed: {r.stderr.strip()}")
                    continue
                # One "Compiling entry function 'K'" ... "Used N registers" block per kernel.
                for kernel, block in ENTRY.findall(r.stderr):
                    kernels += 1
                    regs = int(USAGE.search(block).group(1))
                    stores, loads = map(int, SPILL.search(block).groups())
                    max_regs = max(max_regs, regs)
                    spilling += bool(stores or loads)
                    print(f"{name} {kernel}: {regs} registers, spill stores {stores} B, "
                          f"loads {loads} B")
    print(f"ptxas: {kernels} kernels for {ARCH}, {failed} rejected, {spilling} spilling, "
          f"at most {max_regs} registers")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
