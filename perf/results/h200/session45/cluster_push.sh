#!/usr/bin/env bash
# Session 45, probe 48 (nvidia-h200): one cluster barrier instead of two. The cluster's tests and their
# sanitizers, then an A/B of archscan-bench before (build/probe45/old) and after (build/probe45/new).
# Carries build/probe45 (probe45.tar.xz: both benches stripped, the new archscan-compare and
# tile_cluster_test, libbenchmark in each build's carried-lib; built here).
set -u
cd "$(dirname "$0")/../../../.." || exit 2
: "${OUT:?OUT: the folder whose files come back}"
xz -dc build/probe45/probe45.tar.xz | tar -xf -
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
t=build/probe45/new/test/tile_cluster_test
timeout 120 stdbuf -oL $t > "$OUT/tile_cluster_test.txt" 2>&1
echo "tile_cluster_test rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED)|FAILED  \]" "$OUT/tile_cluster_test.txt"
for tool in memcheck racecheck synccheck initcheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $t > "$OUT/sanitize_$tool.txt" 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize_$tool.txt" | tail -1)"
done
sizes='4096|8192|16384|32768|65536|131072|1048576'
AB_ROUNDS=${AB_ROUNDS:-3} AB_REPS=40 \
  AB_FILTER="^(exclusive_scan|exclusive_scan_by_key|flag_offsets)/(int8|int32|int64|double|mat2x2)/($sizes)/(memcpy|cub|archscan::native_nosync|archscan::native_tree_nosync)/" \
  timeout 330 perf/binary_ab.sh build/probe45/old build/probe45/new /tmp/ab > "$OUT/ab.txt" 2>&1
echo "binary_ab rc=$?"; tail -4 "$OUT/ab.txt"
cp /tmp/ab/ab.md "$OUT/" 2>/dev/null
cp /tmp/ab/old_medians.json /tmp/ab/new_medians.json "$OUT/" 2>/dev/null
