#!/usr/bin/env bash
# Session 43, calls 1 and 2 (nvidia-h200): the segment trees' tests, then their A/B against the left folds.
# Carries build/carry-p (this change's archscan-bench, archscan-compare, tile_lookback_test and
# thrust_determinism_test, built here) and build/carry-old (archscan-bench of the headers before it).
set -u
cd "$(dirname "$0")/../../../.." || exit 2
: "${OUT:?OUT: the folder whose files come back}"
xz -dc build/carry-old/ab-old.tar.xz | tar -xf -
tools/final_run.sh unpack /tmp/unpack > "$OUT/unpack.txt" 2>&1
grep -h unpacked "$OUT/unpack.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 stdbuf -oL build/gpu/test/tile_lookback_test > "$OUT/tile_lookback_test.txt" 2>&1
echo "tile_lookback_test rc=$?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$OUT/tile_lookback_test.txt"
timeout 240 stdbuf -oL build/gpu/test/thrust_determinism_test > "$OUT/thrust_determinism_test.txt" 2>&1
echo "thrust_determinism_test rc=$?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$OUT/thrust_determinism_test.txt"
sizes='8192|16384|32768|65536|131072|262144|524288|1048576|2097152|4194304|16777216|67108864|268435456'
AB_ROUNDS=3 AB_REPS=30 \
  AB_FILTER="^(exclusive_scan|inclusive_scan|transform_inclusive_scan|exclusive_scan_by_key)/(mat2x2|double)/($sizes)/(cub|archscan::native_nosync|archscan::native_tree_nosync)/" \
  timeout 200 perf/binary_ab.sh build/ab-old build/gpu /tmp/ab > "$OUT/ab.txt" 2>&1
echo "binary_ab rc=$?"
cp /tmp/ab/ab.md "$OUT/" 2>/dev/null
tar -C /tmp -czf "$OUT/ab.tar.gz" ab
