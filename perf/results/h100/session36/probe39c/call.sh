#!/usr/bin/env bash
# Session 36, call 3: probe 39c (4 rounds): the rule for declared operators only, limit 192 bytes.
set -u
tools/final_run.sh unpack-only /tmp/u > $OUT/unpack.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
cat $OUT/gpu.txt
export LD_LIBRARY_PATH=$PWD/build/probe-new/carried-lib
for r in 1 2 3 4; do
  ARCHSCAN_PROBE_REPS=100 ARCHSCAN_PROBE_BENCH=build/probe-new/perf/archscan-bench \
  ARCHSCAN_PROBE_SIZES=65536,131072,262144,524288,655360,786432,917504,1048576,1064960,1228800,1622016 \
  ARCHSCAN_PROBE_FILTER='^(exclusive_scan|inclusive_scan|exclusive_scan_by_key)/(int64|mat2x2d?)/[0-9]+/(cub|memcpy|archscan::[a-z0-9_]*)/' \
    perf/native_probe.sh $OUT/round$r > $OUT/round$r.txt 2>&1
  echo "round $r rc=$? $(date +%T)"
done
python3 perf/probe_summary.py $OUT/round*.txt > $OUT/summary.md
cat $OUT/summary.md
