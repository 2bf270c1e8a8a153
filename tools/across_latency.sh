#!/usr/bin/env bash
# The small-n latency of the scan across GPUs, repeated (device kind nvidia-h200-x2):
#   tools/across_latency.sh OUT_DIR [REPEATS]
# Builds archscan-across only, then runs it REPEATS times (default 3) in processes mode (2 processes,
# one per GPU) and in threads mode up to 2^20 items per GPU, so that the run-to-run spread of the
# 2 x 2^16 row shows beside its target (1.5x one GPU's scan plus an 8-byte all-gather, same run).
set -u
cd "$(dirname "$0")/.." || exit 2
out=${1:?out dir}
repeats=${2:-3}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on shared machines (KINDS.md)
NCCL_ROOT=$(tools/nccl_root.sh) || { echo "no NCCL found"; exit 1; }
export NCCL_ROOT LD_LIBRARY_PATH=$NCCL_ROOT/lib:${LD_LIBRARY_PATH:-}
build=${ARCHSCAN_BUILD_DIR:-build/gpu}
if ! { cmake --preset gpu -B "$build" -DNCCL_ROOT="$NCCL_ROOT" && cmake --build "$build" --target archscan-across; } \
  > "$out/build.log" 2>&1; then
  echo "BUILD FAILED"; tail -n 40 "$out/build.log"; exit 1
fi
for i in $(seq 1 "$repeats"); do
  id=$(mktemp -u)
  "$build"/perf/archscan-across --procs 2 --rank 1 --id "$id" > /dev/null 2>&1 &
  "$build"/perf/archscan-across --procs 2 --rank 0 --id "$id" --json "$out/processes_$i.json" > "$out/processes_$i.md" 2>&1
  wait
  "$build"/perf/archscan-across --max-log2 20 --json "$out/threads_$i.json" > "$out/threads_$i.md" 2>&1
done
# The 2 x 2^16 row against its target, per run.
python3 - "$out" "$repeats" <<'PY'
import json, sys
out, repeats = sys.argv[1], int(sys.argv[2])
print("| run | mode | one GPU 2^16 (us) | allgather8 (us) | target (us) | across 2 x 2^16 (us) | met |")
print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
for i in range(1, repeats + 1):
    for mode in ("processes", "threads"):
        rows = json.load(open(f"{out}/{mode}_{i}.json"))["rows"]
        pick = lambda what, gpus: next(r["us"] for r in rows if r["what"] == what and r["gpus"] == gpus
                                       and r["items_per_gpu"] == (0 if what == "allgather8" else 65536))
        one = pick("one_gpu", 2 if mode == "processes" else 1)
        ag, across = pick("allgather8", 2), pick("across", 2)
        target = 1.5 * one + ag
        print(f"| {i} | {mode} | {one:.2f} | {ag:.2f} | {target:.2f} | {across:.2f} | {'yes' if across <= target else 'no'} |")
PY
