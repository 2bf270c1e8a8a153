#!/usr/bin/env bash
# Measures the same cases with the L2 flushed before each timed call (archscan-bench's default) and
# without (--hot), in alternating rounds, and prints each case's median over the rounds in both modes
# with native_nosync's time over native_tree_nosync's: whether a cost is paid in cold caches alone.
#   perf/hot_cold.sh OUT_DIR [ROUNDS = 3]
# Hot times are not cold times minus the flush: with nothing queued before the start event, a hot
# call's time includes the host's submission of the launch (~3-4 us on an H100), so compare the
# difference native - tree, or each mode's ratio, not the two modes' times.
# ARCHSCAN_HOT_COLD_FILTER: the cases (a Google Benchmark filter; default: the 16-byte product and
# by-key doubles at 2^15..2^18, the sizes where native's ordered fold costs most against the tree).
# ARCHSCAN_BENCH: the archscan-bench to run (default build/gpu/perf/archscan-bench).
set -uo pipefail
out=${1:?out dir}
rounds=${2:-3}
bench=${ARCHSCAN_BENCH:-build/gpu/perf/archscan-bench}
filter=${ARCHSCAN_HOT_COLD_FILTER:-'^(exclusive_scan|inclusive_scan|exclusive_scan_by_key)/(mat2x2|double)/(32768|65536|131072|262144)/(cub|archscan::native_nosync|archscan::native_tree_nosync)/'}
mkdir -p "$out"
rc=0
for r in $(seq 1 "$rounds"); do
  for mode in cold hot; do
    flag=()
    [ "$mode" = hot ] && flag=(--hot)
    "$bench" "${flag[@]}" --reps 51 --benchmark_filter="$filter" \
      --benchmark_out="$out/$mode-$r.json" --benchmark_out_format=json > "$out/$mode-$r.txt" 2>&1 || rc=1
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
med = {}
for mode in ("cold", "hot"):
    for r in range(1, rounds + 1):
        try:
            runs = json.load(open(f"{out}/{mode}-{r}.json"))["benchmarks"]
        except (OSError, ValueError):
            continue
        for b in runs:
            if "median_us" in b:
                key = tuple(b["name"].split("/")[:4])
                med.setdefault((mode, key[:3]), {}).setdefault(key[3], []).append(b["median_us"])
print("| scan | type | n | L2 | CUB (us) | native (us) | tree (us) | native / tree |")
print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: |")
for (mode, case), impls in sorted(med.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    m = {k: statistics.median(v) for k, v in impls.items()}
    nat, tree, cub = m.get("archscan::native_nosync"), m.get("archscan::native_tree_nosync"), m.get("cub")
    if nat and tree:
        print(f"| {case[0]} | {case[1]} | {case[2]} | {mode} | {cub or 0:.2f} | {nat:.2f} | {tree:.2f} | {nat / tree:.3f} |")
PY
exit $rc
