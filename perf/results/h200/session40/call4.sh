#!/usr/bin/env bash
# Session 40, call 4: racecheck (and the other three tools) over the staged tests again, after call 3's
# hazards: a partial last tile's workers read its first item from warp 0's slot 0 for the padding while
# warp 0 could already be writing its outputs there (now a barrier among the workers comes between).
set -u
o=${OUT:?}
b=build/carry-s
filter='*Staged*:-*MoreThanTwoToTheThirtyOne*'
for tool in memcheck racecheck synccheck initcheck; do
  for t in dispatch_native_staged_test dispatch_native_launch_test; do
    ARCHSCAN_TEST_SHORT=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 $b/$t --gtest_filter="$filter" \
      --gtest_brief=1 > "$o/san_${tool}_$t.log" 2>&1 &
  done
done
wait
for f in "$o"/san_*.log; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$f" | tr '\n' ' ')"; done
tar -C "$o" -czf /tmp/call4.tar.gz . && rm -rf "${o:?}"/* && mv /tmp/call4.tar.gz "$o/"
