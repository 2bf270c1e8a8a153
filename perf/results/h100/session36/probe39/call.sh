#!/usr/bin/env bash
# Session 36, call 1: probe 39 (3 rounds): exact operators' waves as a tree, in order, or by the rule.
set -u
tools/final_run.sh unpack-only /tmp/u > $OUT/unpack.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
cat $OUT/gpu.txt
export LD_LIBRARY_PATH=$PWD/build/probe-new/carried-lib
for r in 1 2 3 4; do
  ARCHSCAN_PROBE_REPS=${REPS:-15} ARCHSCAN_PROBE_BENCH=build/probe-new/perf/archscan-bench \
  ARCHSCAN_PROBE_FILTER='^(exclusive_scan|inclusive_scan|exclusive_scan_by_key)/(int32|int64|mat2x2d?)/(32768|65536|131072|262144|524288|1048576|2097152|4194304|8388608)/(cub|memcpy|archscan::[a-z0-9_]*)/' \
    perf/native_probe.sh $OUT/round$r > $OUT/round$r.txt 2>&1
  echo "round $r rc=$? $(date +%T)"
done
python3 perf/probe_summary.py $OUT/round*.txt > $OUT/summary.md
cat $OUT/summary.md
