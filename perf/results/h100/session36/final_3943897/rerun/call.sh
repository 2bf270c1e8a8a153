#!/usr/bin/env bash
# Session 36: the final bench's outliers again (same programs), 3 rounds.
set -u
tools/final_run.sh unpack-only /tmp/u > /dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu/carried-lib
f='^(exclusive_scan_by_key/float/2048|flag_offsets/int32/262144|exclusive_scan_by_key/double/134217728|exclusive_scan_by_key/mat2x2/131072|exclusive_scan/int8/1024)/(cub|memcpy|archscan::native_nosync|archscan::native_tree_nosync)/'
for r in 1 2 3; do
  build/gpu/perf/archscan-bench --reps 100 --benchmark_filter="$f" --benchmark_out=$OUT/rerun_$r.json --benchmark_out_format=json > $OUT/rerun_$r.txt 2>&1
  echo "round $r rc=$?"
done
python3 - $OUT/rerun_*.json <<'PY'
import json, sys, statistics as st
m = {}
for f in sys.argv[1:]:
    for b in json.load(open(f))["benchmarks"]:
        if "median_us" in b: m.setdefault("/".join(b["name"].split("/")[:4]), []).append(b["median_us"])
for k in sorted(m): print(f"{k:75} {st.median(m[k]):9.2f} us  rounds {' '.join(f'{x:.2f}' for x in m[k])}")
PY
