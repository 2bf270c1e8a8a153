#!/usr/bin/env bash
# Session 38: the H200 row (exclusive scans at 2^28..2^30, native against CUB and a copy), 3 rounds.
set -u
tools/final_run.sh unpack-only /tmp/u > /dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu/carried-lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt; cat $OUT/gpu.txt
f='^(exclusive_scan/(int8|int16|int32|int64|float|double|mat2x2)|flag_offsets/int32)/(268435456|536870912|1073741824)/(cub|memcpy|archscan::native_nosync)/'
for r in 1 2 3; do
  build/gpu/perf/archscan-bench --reps 30 --benchmark_filter="$f" --benchmark_out=$OUT/h200_$r.json --benchmark_out_format=json > $OUT/h200_$r.txt 2>&1
  echo "round $r rc=$?"
done
python3 - $OUT/h200_*.json <<'PY'
import json, sys, statistics as st
m = {}
for f in sys.argv[1:]:
    for b in json.load(open(f))["benchmarks"]:
        if "median_us" in b: m.setdefault("/".join(b["name"].split("/")[:4]), []).append(b["median_us"])
med = {k: st.median(v) for k, v in m.items()}
for k in sorted(med):
    a, t, n, i = k.split("/")
    if i != "archscan::native_nosync": continue
    base = f"{a}/{t}/{n}/"
    print(f"{a:15} {t:7} 2^{int(n).bit_length() - 1}  native {med[k]:9.1f} us  copy fraction {med[base + 'memcpy'] / med[k]:.3f}  x CUB {med[base + 'cub'] / med[k]:.3f}")
PY
build/gpu/perf/archscan-roof 31 > $OUT/roof.md 2>&1; echo "roof rc=$?"; grep -E "\| (memcpy|copy_grid|tile_256x32_b4|native|cub) \| 2\^(28|30)" $OUT/roof.md
