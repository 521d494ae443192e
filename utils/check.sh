#!/usr/bin/env bash
# check.sh - sets up, builds, runs the lit suite and ONNX's conformance tests (CPU, and the CUDA
# target's kernels emulated on the CPU), objects for aarch64 and riscv64 under qemu
# (utils/cross_check.sh), then the hardening
# checks: the lit suite again on an ASan + UBSan build (utils/sanitize.sh) and a short run of each
# fuzzer (utils/fuzz.sh, 60 s each); last line: "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."

# took STAGE: how long the stage since the last call took (CI's budget is checked against these).
stage_start=$SECONDS
took() {
  echo "check: $1 took $(( (SECONDS - stage_start) / 60 )) min $(( (SECONDS - stage_start) % 60 )) s"
  stage_start=$SECONDS
}

bash utils/setup.sh
took setup
bash utils/build.sh
took build

lit=.venv/bin/lit
[[ -x "$lit" ]] || lit=/usr/lib/llvm-22/bin/lit
log=build/check-lit.log
rc=0
"$lit" -sv build/test 2>&1 | tee "$log" || rc=$?

read -r passed failed skipped < <(bash utils/lit_summary.sh "$log")

if ((rc != 0 && failed == 0)); then
  echo "check: lit exited with status $rc without a failing test (configuration error?)" >&2
  failed=1
fi
echo "lit: $passed passed, $failed failed, $skipped skipped"
took lit

# ONNX backend conformance (test/conformance/README.md): a test on the
# expected-pass list that fails, or any crash, is a failure; tests tcc does
# not support yet are reported, and counted as skipped.
mkdir -p build/conformance
# conformance LABEL SUFFIX [conformance.py options]: one run, its counts added to the totals.
conformance() {
  local label=$1 suffix=$2 summary=build/conformance/summary$2.json crc=0
  shift 2
  rm -f "$summary"
  .venv/bin/python utils/conformance.py "$@" --report "build/conformance/report$suffix.md" \
    --json "build/conformance/results$suffix.json" --summary "$summary" \
    > "build/conformance$suffix.log" 2>&1 || crc=$?
  tail -n 25 "build/conformance$suffix.log"
  if [[ -f "$summary" ]]; then
    read -r cp cf cs creg ccrash < <(.venv/bin/python -c \
      "import json,sys; d=json.load(open(sys.argv[1])); print(d['passed'], d['failed'], d['skipped'], d['regressions'], d['crashes'])" \
      "$summary")
    echo "$label: $cp passed, $((cf - creg)) not supported yet (known failures), $cs out of scope, $creg regressions, $ccrash crashes"
    passed=$((passed + cp))
    failed=$((failed + creg + ccrash))
    skipped=$((skipped + cf - creg + cs))
  else
    echo "check: conformance.py ($label) wrote no summary (status $crc)" >&2
    failed=$((failed + 1))
  fi
}
conformance conformance ""
took conformance
# The same tests with the CUDA target's kernels emulated on the CPU (--gpu-emulate: the GPU
# tiling, thread mapping and bounds checks against ONNX's data, without a GPU).
conformance "conformance (--target cuda --gpu-emulate)" -gpu-emulate \
  --tcc-args "--target cuda --gpu-emulate"
took "conformance (--gpu-emulate)"
# Other targets under qemu (utils/cross_check.sh): the model suite's CI subset on aarch64 (NEON,
# and SVE at 256 bits) and riscv64 (scalar and with vectors), every 8th expected-pass
# conformance test on aarch64 and riscv64.
xrc=0
bash utils/cross_check.sh > build/check-cross.log 2>&1 || xrc=$?
grep '^cross: ' build/check-cross.log
took cross
if read -r xp xf xs < <(sed -n 's/^cross: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' \
                          build/check-cross.log); then
  passed=$((passed + xp)); failed=$((failed + xf)); skipped=$((skipped + xs))
else
  echo "check: utils/cross_check.sh gave no summary (status $xrc; build/check-cross.log)" >&2
  tail -n 20 build/check-cross.log >&2
  failed=$((failed + 1))
fi
# Hardening: the same lit suite on the sanitizer build (a sanitizer report fails its test), then
# each fuzzer for a minute from seeds of ONNX's test models (a finding fails the run).
src=0
bash utils/sanitize.sh > build/check-sanitize.log 2>&1 || src=$?
tail -n 1 build/check-sanitize.log
took sanitizers
if read -r sp sf ss < <(sed -n 's/^sanitizers: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' \
                          build/check-sanitize.log); then
  passed=$((passed + sp)); failed=$((failed + sf)); skipped=$((skipped + ss))
  grep -E '^FAIL' build/check-sanitize.log >&2 || true
else
  echo "check: utils/sanitize.sh gave no summary (status $src; build/check-sanitize.log)" >&2
  tail -n 20 build/check-sanitize.log >&2
  failed=$((failed + 1))
fi
fz=0
bash utils/fuzz.sh --seconds 60 --seed 1 > build/check-fuzz.log 2>&1 || fz=$?
grep '^fuzz: ' build/check-fuzz.log | tail -n 4
took fuzz
if ((fz == 0)); then
  passed=$((passed + 1))
else
  echo "check: the fuzzers found something (build-san/fuzz/findings; build/check-fuzz.log)" >&2
  failed=$((failed + 1))
fi

echo "check: all took $((SECONDS / 60)) min $((SECONDS % 60)) s"
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
