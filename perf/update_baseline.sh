#!/usr/bin/env bash
# Makes a benchmark run the committed baseline of its GPU:
#
#   perf/update_baseline.sh RESULTS_DIR [GPU]
#
# RESULTS_DIR is perf/run_full.sh's output folder (outside the tree or under the ignored build/,
# e.g. build/results/h200-20261129T2202Z). Copies its medians (bench_medians.json, or
# bench_medians.json.xz where the run holds only that), its meta.txt and its throughput_*.png plots
# into perf/baselines/GPU/, replacing what was there, and regenerates perf/baselines/GPU/summary.md
# with perf/baseline_summary.py. GPU (h200, h100, ...) defaults to the model in meta.txt's `gpu:`
# line ("NVIDIA H200 (sm_90, ...)" gives h200). The measured revision is ARCHSCAN_REVISION when set,
# else meta.txt's `revision:` line (a baseline's own), else its `build:` line (the carried programs'
# revision), else its `git:` line (the run checkout's HEAD); it is written into the baseline's meta.txt
# as `revision:`, so that a baseline folder given as RESULTS_DIR gives itself again. Nothing is committed:
# review `git status perf/baselines` and commit.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 RESULTS_DIR [GPU]" >&2
  exit 2
fi
run=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ -f $run/bench_medians.json ]]; then
  medians=$run/bench_medians.json
elif [[ -f $run/bench_medians.json.xz ]]; then
  medians=$run/bench_medians.json.xz
else
  echo "update_baseline.sh: $run holds no bench_medians.json(.xz); run perf/run_full.sh first" >&2
  exit 2
fi
[[ -f $run/meta.txt ]] || { echo "update_baseline.sh: $run/meta.txt is missing" >&2; exit 2; }

meta_value() { sed -n "s/^$1: *//p" "$run/meta.txt" | head -n 1; }

if [[ $# -eq 2 ]]; then
  gpu=$2
else
  # "NVIDIA H200 (sm_90, ...)" -> h200; "NVIDIA H100 80GB HBM3 (...)" -> h100.
  gpu=$(meta_value gpu | sed 's/^NVIDIA //' | cut -d' ' -f1 | tr '[:upper:]' '[:lower:]')
fi
[[ $gpu =~ ^[a-z0-9][a-z0-9_.-]*$ ]] || { echo "update_baseline.sh: no GPU name (got '$gpu'); pass it" >&2; exit 2; }

revision=${ARCHSCAN_REVISION:-$(meta_value revision)}
revision=${revision:-$(meta_value build)}
revision=${revision:-$(meta_value git)}
[[ -n $revision ]] || echo "update_baseline.sh: warning: no revision (set ARCHSCAN_REVISION)" >&2

dest=$root/perf/baselines/$gpu
# The run's files are staged first: RESULTS_DIR may be the baseline folder itself.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
shopt -s nullglob
plots=("$run"/throughput_*.png)
cp "$medians" "$run/meta.txt" "$stage/"
[[ ${#plots[@]} -eq 0 ]] || cp "${plots[@]}" "$stage/"
mkdir -p "$dest"
rm -f "$dest"/bench_medians.json "$dest"/bench_medians.json.xz "$dest"/throughput_*.png "$dest"/meta.txt
cp "$stage/$(basename "$medians")" "$dest/"
grep -v '^revision:' "$stage/meta.txt" > "$dest/meta.txt"
[[ -z $revision ]] || echo "revision: $revision" >> "$dest/meta.txt"
[[ ${#plots[@]} -eq 0 ]] || cp "$stage"/throughput_*.png "$dest/"

(cd "$root" && python3 perf/baseline_summary.py "perf/baselines/$gpu") > "$dest/summary.md"
echo "update_baseline.sh: perf/baselines/$gpu from $run ($(du -sh "$dest" | cut -f1), ${#plots[@]} plots)"
ls -l "$dest"
