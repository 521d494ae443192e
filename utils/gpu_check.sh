#!/bin/bash
# gpu_check.sh - what runs on the GPU machine (`device`), one call per part that
# utils/gpu_prepare.py built here (the GPU machine cannot build tcc):
#   bash utils/gpu_check.sh build/gpu_check/part1     digits demo + checked models
#   bash utils/gpu_check.sh build/gpu_check/part2     more checked models
#   bash utils/gpu_check.sh build/gpu_check/timing    tcc vs PyTorch eager / torch.compile
# A part's checked models run once each against onnxruntime's outputs (rtol 1e-3, atol 1e-4);
# the timing part times each configuration (utils/gpu_check.py timing). Each step has its own
# time limit so that one part stays under 8 minutes. Exit 1 when a check fails. PYTHON names
# the interpreter (default python3: numpy, and PyTorch for timing).
set -u -o pipefail
part=${1:?usage: gpu_check.sh build/gpu_check/PART}
here=$(cd "$(dirname "$0")/.." && pwd)
status=0
echo "== $(hostname): $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
if [ -x "$part/digits/app" ]; then
  echo "== digits CNN on the GPU (onnxruntime: 98/100 right)"
  timeout 60 "$part/digits/app" "$here/models/digits" | tail -1 || status=1
fi
if [ -x "$part/if_branch/check" ]; then
  echo "== an If checked at run time (its condition read back from the GPU)"
  timeout 60 "$part/if_branch/check" | tail -1 || status=1
fi
if [ -d "$part/models" ]; then
  echo "== models against onnxruntime"
  timeout 300 ${PYTHON:-python3} "$here/utils/gpu_check.py" compare "$part"/models/*/ || status=1
fi
if [ -d "$part" ] && ls "$part"/*/gpu_bench > /dev/null 2>&1; then
  echo "== timing"
  timeout ${TIMING_LIMIT:-420} ${PYTHON:-python3} "$here/utils/gpu_check.py" timing "$part" \
    ${TIMING_ARGS:-} || status=1
fi
exit $status
