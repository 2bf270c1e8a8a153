#!/usr/bin/env bash
# Session 40, call 3: after call 2's sanitizer findings (a partial vector's copy addressed 16 bytes past the
# input's end; the look-back warp read the first tile's aggregate slot before the workers wrote it), the
# staged tests and the four sanitizers over them again (build/carry-s, built here for sm_90), and roof.
set -u
o=${OUT:?}
b=build/carry-s
for t in dispatch_native_staged_test dispatch_native_launch_test; do
  timeout 120 $b/$t --gtest_brief=1 > "$o/$t.txt" 2>&1; echo "rc=$?" >> "$o/$t.txt"
  echo "$t: $(grep -E 'PASSED|FAILED|tests? ran' "$o/$t.txt" | tr '\n' ' ') $(tail -n 1 "$o/$t.txt")"
done
filter='*Staged*:-*MoreThanTwoToTheThirtyOne*'
for tool in memcheck racecheck synccheck initcheck; do
  for t in dispatch_native_staged_test dispatch_native_launch_test; do
    ARCHSCAN_TEST_SHORT=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 $b/$t --gtest_filter="$filter" \
      --gtest_brief=1 > "$o/san_${tool}_$t.log" 2>&1 &
  done
done
wait
timeout 200 stdbuf -oL -eL $b/archscan-roof > "$o/roof.md" 2>&1; echo "rc=$?" >> "$o/roof.md"
grep -E "^\| (memcpy|native|native_unstaged|native_staged) " "$o/roof.md"
for f in "$o"/san_*.log; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$f" | tr '\n' ' ')"; done
tar -C "$o" -czf /tmp/call3.tar.gz . && rm -rf "${o:?}"/* && mv /tmp/call3.tar.gz "$o/"
