#!/usr/bin/env bash
# lit_summary.sh - reads a `lit -s` log and prints "PASSED FAILED SKIPPED" (utils/check.sh,
# utils/sanitize.sh). lit's summary lines look like "  Passed             : 12 (80.00%)" (older
# lit: "  Expected Passes    : 12"); excluded and unsupported tests count as skipped.
# Usage: utils/lit_summary.sh LOG
set -euo pipefail
awk '
  /^Total Discovered Tests/ { summary = 1; next }
  summary && match($0, /^ +[A-Za-z][A-Za-z ]*[A-Za-z] *: +[0-9]+/) {
    split($0, kv, ":"); name = kv[1]; gsub(/^ +| +$/, "", name); n = kv[2] + 0
    if (name ~ /^(Passed|Passed With Retry|Expectedly Failed|Expected Passes|Expected Failures)$/) p += n
    else if (name ~ /^(Unsupported|Unsupported Tests|Skipped|Excluded)$/) s += n
    else f += n
  }
  END { print p + 0, f + 0, s + 0 }' "$1"
