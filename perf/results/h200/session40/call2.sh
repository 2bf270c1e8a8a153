#!/usr/bin/env bash
# Session 40, call 2: the staged look-back as built into native (binaries built here for sm_90, carried in
# build/carry-s): archscan-roof (native staged from 2^27 beside unstaged and variants, 2^24..2^30), the
# staged tests, the determinism tests, native's >2^31 test, and the four sanitizers over the staged tests.
set -u
o=${OUT:?}
b=build/carry-s
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$o/gpu.txt" 2>&1
timeout 200 stdbuf -oL -eL $b/archscan-roof > "$o/roof.md" 2>&1; echo "rc=$?" >> "$o/roof.md"
grep -E "^\| (memcpy|native|tile_256x32_b4 )" "$o/roof.md" | grep -E "2\^(26|27|28|30)"
tail -n 1 "$o/roof.md"
for t in dispatch_native_staged_test dispatch_native_launch_test thrust_determinism_test; do
  timeout 240 $b/$t --gtest_brief=1 > "$o/$t.txt" 2>&1; echo "rc=$?" >> "$o/$t.txt"
  echo "$t: $(grep -cE '^\[       OK|^\[  PASSED' "$o/$t.txt") $(grep -E 'PASSED|FAILED|SKIPPED \]|tests? ran' "$o/$t.txt" | tr '\n' ' ') $(tail -n 1 "$o/$t.txt")"
done
timeout 120 $b/thrust_large_test --gtest_filter='*native*' --gtest_brief=1 > "$o/thrust_large_test.txt" 2>&1
echo "rc=$?" >> "$o/thrust_large_test.txt"; echo "large: $(grep -E 'PASSED|FAILED|tests? ran' "$o/thrust_large_test.txt" | tr '\n' ' ')"
filter='*Staged*:-*MoreThanTwoToTheThirtyOne*'
for tool in memcheck racecheck synccheck initcheck; do
  for t in dispatch_native_staged_test dispatch_native_launch_test; do
    ARCHSCAN_TEST_SHORT=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $b/$t --gtest_filter="$filter" \
      --gtest_brief=1 > "$o/san_${tool}_$t.log" 2>&1 &
  done
done
wait
for f in "$o"/san_*.log; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$f" | tr '\n' ' ')"; done
tar -C "$o" -czf /tmp/call2.tar.gz . && rm -rf "${o:?}"/* && mv /tmp/call2.tar.gz "$o/"
