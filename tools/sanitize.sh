#!/usr/bin/env bash
# compute-sanitizer over the turing family's GPU tests: memcheck, racecheck, synccheck and initcheck.
#   tools/sanitize.sh BUILD_DIR [OUT_DIR] [FILTER]
# The sanitizers slow kernels by 10-100x, so each tool runs the family's tests (FILTER, default '*turing*:*Turing*')
# of the scan, by-key, transform and look-back binaries. Prints one line per tool and binary; exits
# non-zero if any tool reports an error.
set -u
build=${1:?build dir}
out=${2:-$build/sanitize}
filter=${3:-*turing*:*Turing*}
mkdir -p "$out"
status=0
for tool in memcheck racecheck synccheck initcheck; do
  for bin in thrust_scan_test thrust_scan_by_key_test thrust_transform_scan_test tile_lookback_test; do
    exe="$build/test/$bin"
    [ -x "$exe" ] || { echo "$tool $bin: not built"; continue; }
    log="$out/$tool-$bin.log"
    # ARCHSCAN_TEST_SHORT trims the size list: sanitizers are slow.
    ARCHSCAN_TEST_SHORT=1 compute-sanitizer --tool "$tool" --error-exitcode 99 \
      "$exe" --gtest_filter="$filter" --gtest_brief=1 > "$log" 2>&1
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|tests? ran|PASSED|FAILED" "$log" | tr '\n' ' ')
    echo "$tool $bin: rc=$rc $summary"
    [ $rc -eq 0 ] || status=1
  done
done
exit $status
