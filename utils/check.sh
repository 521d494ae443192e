#!/usr/bin/env bash
# check.sh - sets up, builds and runs the lit test suite; last line: "N passed, N failed, N skipped".
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
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
