#!/usr/bin/env bash
# Session 37, call 1: probe 40 (4 rounds): the declared product between 320 and 448 tiles (the limit, 192 or 176 bytes).
set -u
tools/final_run.sh unpack-only /tmp/u > $OUT/unpack.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
cat $OUT/gpu.txt
export LD_LIBRARY_PATH=$PWD/build/probe-new/carried-lib
for r in 1 2 3 4; do
  ARCHSCAN_PROBE_REPS=100 ARCHSCAN_PROBE_BENCH=build/probe-new/perf/archscan-bench \
  ARCHSCAN_PROBE_SIZES=655360,688128,720896,724992,753664,786432,819200,851968,917504 \
  ARCHSCAN_PROBE_FILTER='^(exclusive_scan|inclusive_scan|exclusive_scan_by_key)/(mat2x2d)/[0-9]+/(cub|memcpy|archscan::[a-z0-9_]*)/' \
    perf/native_probe.sh $OUT/round$r > $OUT/round$r.txt 2>&1
  echo "round $r rc=$? $(date +%T)"
done
python3 perf/probe_summary.py $OUT/round*.txt > $OUT/summary.md
cat $OUT/summary.md
