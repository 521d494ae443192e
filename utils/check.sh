#!/usr/bin/env bash
# check.sh - sets up, builds, runs the lit suite and ONNX's conformance tests;
# last line: "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."

bash utils/setup.sh
bash utils/build.sh

lit=.venv/bin/lit
[[ -x "$lit" ]] || lit=/usr/lib/llvm-22/bin/lit
log=build/check-lit.log
rc=0
"$lit" -sv build/test 2>&1 | tee "$log" || rc=$?

# lit's summary lines look like "  Passed             : 12 (80.00%)" (older lit: "  Expected Passes    : 12").
read -r passed failed skipped < <(awk '
  /^Total Discovered Tests/ { summary = 1; next }
  summary && match($0, /^ +[A-Za-z][A-Za-z ]*[A-Za-z] *: +[0-9]+/) {
    split($0, kv, ":"); name = kv[1]; gsub(/^ +| +$/, "", name); n = kv[2] + 0
    if (name ~ /^(Passed|Passed With Retry|Expectedly Failed|Expected Passes|Expected Failures)$/) p += n
    else if (name ~ /^(Unsupported|Unsupported Tests|Skipped|Excluded)$/) s += n
    else f += n
  }
  END { print p + 0, f + 0, s + 0 }' "$log")

if ((rc != 0 && failed == 0)); then
  echo "check: lit exited with status $rc without a failing test (configuration error?)" >&2
  failed=1
fi
echo "lit: $passed passed, $failed failed, $skipped skipped"

# ONNX backend conformance (test/conformance/README.md): a test on the
# expected-pass list that fails, or any crash, is a failure; tests tcc does
# not support yet are reported, and counted as skipped.
summary=build/conformance/summary.json
mkdir -p build/conformance
rm -f "$summary"
crc=0
.venv/bin/python utils/conformance.py --summary "$summary" > build/conformance.log 2>&1 || crc=$?
tail -n 25 build/conformance.log
if [[ -f "$summary" ]]; then
  read -r cp cf cs creg ccrash < <(.venv/bin/python -c \
    "import json,sys; d=json.load(open(sys.argv[1])); print(d['passed'], d['failed'], d['skipped'], d['regressions'], d['crashes'])" \
    "$summary")
  echo "conformance: $cp passed, $((cf - creg)) not supported yet (known failures), $cs out of scope, $creg regressions, $ccrash crashes"
  passed=$((passed + cp))
  failed=$((failed + creg + ccrash))
  skipped=$((skipped + cf - creg + cs))
else
  echo "check: conformance.py wrote no summary (status $crc)" >&2
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
