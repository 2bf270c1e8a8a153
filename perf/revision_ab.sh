#!/usr/bin/env bash
# Two source revisions of archscan, A/B on one GPU in one session, in one device call:
#
#   tools/export_rev.sh REV                          # here: the old revision into .rev/<sha>/ (carry it)
#   perf/revision_ab.sh [--build-only] OLD_SRC_DIR OUT_DIR   # on the GPU machine
#
# OLD_SRC_DIR is a plain source tree of the old revision (the device machine's copy has no .git); the new
# revision is this tree.
# 1. Builds archscan-bench from OLD_SRC_DIR (build/gpu-rev-old) and archscan-bench and archscan-compare
#    from this tree (build/gpu-rev-new), both at once, against the toolkit's CCCL. Case names are the
#    same in every build, and the old harness writes the same Google Benchmark JSON, so the runs line up.
# 2. Runs old, new, old again, back to back on the same GPU: every archscan policy and CUB, int32, float,
#    int64, double at 2^16, 2^20, 2^24, 2^28, of each scan built; 100 timed calls per case. Estimated from
#    run N's medians on the H100: ~35 s of timed calls a run with all four scans (by-key scans half of
#    it), ~45-50 s with set-up; both builds ~2-3 minutes on 16 cores. Why the second old run: the same
#    build's own drift within the session is the noise a change must beat.
# 3. archscan-compare old new --noise old_rerun (this tree's; it reads the old harness's JSON too): every
#    case gated, a regression when new / old time - 1 > threshold + |old rerun / old - 1|.
#
# OUT_DIR gets revision_ab.md (the table, the gate and how it was run), old_medians.json, new_medians.json,
# old_rerun_medians.json (each run's compact form, archscan-compare --compact: what perf/results/
# commits) and logs.tar.gz (build and run logs, meta.txt, and the runs' Google Benchmark JSON,
# logs/{old,new,old_rerun}_full.json): five files, since the device tool returns eight at most. It
# prints revision_ab.md, then one summary line last. Exit status: 0 the gate passed, 1 some case
# regressed or went missing, or a run reported a mismatch with CUB or a CUDA error, 2 setup, build or
# run error. --build-only stops after step 1 (to check here, without a GPU, that both builds compile).
#
# Environment (defaults in brackets):
#   ARCHSCAN_REV_AB_ARCH      CUDA architectures [90]          ARCHSCAN_REV_AB_BUILD    build dir prefix [build/gpu-rev]
#   ARCHSCAN_REV_AB_REPS      timed calls per case [100]       ARCHSCAN_REV_AB_THRESHOLD  the gate's threshold [0.05]
#   ARCHSCAN_REV_AB_SCANS     scans built (ARCHSCAN_BENCH_SCANS of both builds) [exclusive;inclusive;by_key;
#                             transform when the budget is 420 s or more, else exclusive;by_key]
#   ARCHSCAN_REV_AB_FILTER    Google Benchmark filter [the cases above]
#   ARCHSCAN_REV_AB_NEW_LABEL how the report names this tree [git's short sha, "(dirty)" if so; else "this tree"]
#   ARCHSCAN_REV_AB_BUDGET_S  seconds the whole script may take [540]: a run that would not fit is skipped
set -u
set -o pipefail

build_only=0
if [[ ${1:-} == --build-only ]]; then build_only=1; shift; fi
if [[ $# -ne 2 ]]; then
  echo "usage: $0 [--build-only] OLD_SRC_DIR OUT_DIR" >&2
  exit 2
fi
old_src=$(realpath -m "$1")  # before the cd: both are relative to where the script was called from
out=$(realpath -m "$2")
cd "$(dirname "$0")/.." || exit 2
arch=${ARCHSCAN_REV_AB_ARCH:-90}
prefix=${ARCHSCAN_REV_AB_BUILD:-build/gpu-rev}
reps=${ARCHSCAN_REV_AB_REPS:-100}
threshold=${ARCHSCAN_REV_AB_THRESHOLD:-0.05}
budget=${ARCHSCAN_REV_AB_BUDGET_S:-540}
if [[ -n ${ARCHSCAN_REV_AB_SCANS:-} ]]; then
  scans=$ARCHSCAN_REV_AB_SCANS
elif ((budget >= 420)); then
  scans="exclusive;inclusive;by_key;transform"
else
  scans="exclusive;by_key"
fi
# Names: algorithm/type/n/implementation/iterations:R/manual_time (perf/bench.cuh). "cub/" leaves out cub+sync.
filter=${ARCHSCAN_REV_AB_FILTER:-'^(exclusive_scan|inclusive_scan|exclusive_scan_by_key|transform_inclusive_scan)/(int32|float|int64|double)/(65536|1048576|16777216|268435456)/(cub|archscan::[a-z_]+)/'}
old_dir=$prefix-old
new_dir=$prefix-new
logs=$out/logs
t0=$(date +%s)

mkdir -p "$logs" || exit 2
seconds_left() { echo $((budget - ($(date +%s) - t0))); }

# The device tool returns at most eight files: the logs travel packed, whatever way the script ends.
# shellcheck disable=SC2317 # called by the EXIT trap
pack_logs() {
  [[ -d $logs ]] && tar -czf "$out/logs.tar.gz" -C "$out" logs && rm -rf "$logs"
}
trap pack_logs EXIT
trap 'exit 2' TERM INT

summary() {  # STATUS WORD, the rest of the line
  echo "revision_ab: $*"
}

# How each revision is named: tools/export_rev.sh's REVISION file; git for this tree where it has .git.
old_label=$(cut -c1-7 "$old_src/REVISION" 2> /dev/null)
old_label=${old_label:-$old_src}
new_label=${ARCHSCAN_REV_AB_NEW_LABEL:-}
if [[ -z $new_label ]] && new_label=$(git rev-parse --short HEAD 2> /dev/null); then
  git status --porcelain 2> /dev/null | grep -q . && new_label="$new_label (dirty)"
fi
new_label=${new_label:-this tree}

# ---- 1. both builds, side by side ----------------------------------------------------------------------
if [[ ! -f $old_src/CMakeLists.txt || ! -f $old_src/perf/CMakeLists.txt ]]; then
  summary "ERROR | $old_src is no archscan source tree (tools/export_rev.sh REV writes one; carry .rev)"
  exit 2
fi
if [[ $old_src == "$PWD" ]]; then
  summary "ERROR | OLD_SRC_DIR is this tree: export the old revision with tools/export_rev.sh REV"
  exit 2
fi
jobs=$(($(nproc) / 2))
((jobs >= 1)) || jobs=1
build() {  # NAME SOURCE_DIR BUILD_DIR TARGETS
  local name=$1 src=$2 dir=$3 limit targets
  read -ra targets <<< "$4"
  limit=$(($(seconds_left) - 60))
  ((limit > 0)) || limit=1
  {
    cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" \
      -DARCHSCAN_BUILD_TESTS=OFF -DARCHSCAN_BENCH_SCANS="$scans" -UCCCL_DIR &&
      timeout "$limit" cmake --build "$dir" -j "$jobs" --target "${targets[@]}"
  } > "$logs/build_$name.log" 2>&1
}
build old "$old_src" "$old_dir" "archscan-bench" &
pid_old=$!
build new "$PWD" "$new_dir" "archscan-bench archscan-compare" &
pid_new=$!
wait $pid_old
rc_old=$?
wait $pid_new
rc_new=$?
t_build=$(($(date +%s) - t0))
echo "build old (rc $rc_old): $old_label from $old_src into $old_dir"
echo "build new (rc $rc_new): $new_label into $new_dir"
for name in old new; do
  rc_var=rc_$name
  if [[ ${!rc_var} -ne 0 ]]; then
    echo "--- tail of the $name build's log ---"
    tail -n 30 "$logs/build_$name.log"
  fi
done
if [[ $rc_old -ne 0 || $rc_new -ne 0 ]]; then
  summary "ERROR | build failed (old rc $rc_old, new rc $rc_new) after $t_build s | logs in $out/logs.tar.gz"
  exit 2
fi
if ((build_only)); then
  summary "BUILT | both builds in $t_build s, scans $scans, sm_$arch ($old_dir: $old_label; $new_dir: $new_label)"
  exit 0
fi

# ---- 2. old, new, old again on the same GPU ------------------------------------------------------------
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1
  echo "nvcc: $(nvcc --version 2>&1 | tail -n 2 | head -n 1)"
  echo "old: $old_label ($(cat "$old_src/REVISION" 2> /dev/null || echo "$old_src"))"
  echo "new: $new_label"
} > "$logs/meta.txt"
declare -A rc_run
bench() {  # NAME DIR
  local name=$1 dir=$2 limit
  limit=$(($(seconds_left) - 30))  # 30 s kept for the comparison and the logs
  ((limit > 180)) && limit=180
  if ((limit < 20)); then
    echo "$name run skipped: $limit s left of the budget"
    rc_run[$name]=skipped
    return
  fi
  local start=$SECONDS
  timeout "$limit" "$dir/perf/archscan-bench" --reps "$reps" --benchmark_filter="$filter" \
    --benchmark_out="$logs/${name}_full.json" --benchmark_out_format=json > "$logs/$name.log" 2>&1
  rc_run[$name]=$?
  echo "$name run: $((SECONDS - start)) s, rc ${rc_run[$name]} (124: stopped at its $limit s limit)"
}
t_runs=$(date +%s)
bench old "$old_dir"
if [[ ${rc_run[old]} == 2 ]]; then  # archscan-bench: no usable GPU, or a flag it does not know
  tail -n 5 "$logs/old.log"
  summary "ERROR | archscan-bench exited 2 (no usable GPU, or a bad flag): see above"
  exit 2
fi
bench new "$new_dir"
bench old_rerun "$old_dir"
t_runs=$(($(date +%s) - t_runs))

# ---- 3. the comparison ---------------------------------------------------------------------------------
compare=$new_dir/perf/archscan-compare
for name in old new old_rerun; do  # the compact form of each run, to commit
  [[ -s $logs/${name}_full.json ]] &&
    "$compare" --compact "$logs/${name}_full.json" "$out/${name}_medians.json" >> "$logs/compare.log" 2>&1
done
noise=()
noise_note="noise from the second old run"
if [[ ${rc_run[old_rerun]} =~ ^[01]$ && -s $logs/old_rerun_full.json ]]; then
  noise=(--noise "$logs/old_rerun_full.json")
else
  noise_note="no second old run (${rc_run[old_rerun]}): noise is each case's spread"
fi
"$compare" "$logs/old_full.json" "$logs/new_full.json" --threshold "$threshold" "${noise[@]}" \
  --out "$logs/compare.md" >> "$logs/compare.log" 2>&1
rc_compare=$?
if [[ $rc_compare -eq 2 || ! -s $logs/compare.md ]]; then
  cat "$logs/compare.log"
  summary "ERROR | archscan-compare could not compare (rc $rc_compare; runs: old ${rc_run[old]}, new ${rc_run[new]}," \
    "old_rerun ${rc_run[old_rerun]}) | logs in $out/logs.tar.gz"
  exit 2
fi
# Over the table's rows (| case | old | new | new / old | noise | verdict |): how many cases are slower by
# more than their noise alone (the gate adds the threshold), and the slowest.
# shellcheck disable=SC2016 # awk's own $ fields
slowest=$(awk -F' [|] ' '$1 ~ /^[|] [a-z_]+\/[a-z0-9]+\/[0-9]+\// && $4 != "-" {
    n++; r = $4 + 0; z = $5; sub(/%/, "", z); z /= 100
    if (r - 1 > z) beyond++
    if (n == 1 || r > worst) { worst = r; key = substr($1, 3); wn = $5 }
  } END { if (n) printf "%d cases, %d slower than their noise alone, slowest %s %+.1f%% (noise %s)",
                         n, beyond, key, 100 * (worst - 1), wn }' "$logs/compare.md")
{
  echo "## archscan revisions: $old_label (old) vs $new_label (new)"
  echo
  echo "Device: $(sed -n 2p "$logs/meta.txt" | cut -d, -f1). One row per case: baseline = the old build's median"
  echo "time, candidate = the new build's; candidate / baseline > 1: the new revision is slower; noise ="
  echo "|old rerun / old - 1| for that case; the verdict of the gate."
  echo
  cat "$logs/compare.md"
  echo
  echo "Summary: ${slowest:-no case in both runs}."
  echo
  echo "### How this was run"
  echo
  echo "\`perf/revision_ab.sh\`: old from \`${old_src#"$PWD"/}\`, new this tree; archscan-bench of scans"
  echo "\`$scans\` built for sm_$arch against the toolkit's CCCL; runs old, new, old again back to back, $reps"
  echo "timed calls per case (cold L2, median), filter \`$filter\`; $noise_note; threshold $threshold."
  echo "Builds $t_build s (side by side), runs $t_runs s; run status: old ${rc_run[old]}, new ${rc_run[new]},"
  echo "old_rerun ${rc_run[old_rerun]} (0: all cases matched CUB)."
  echo
  sed 's/^/    /' "$logs/meta.txt"
} > "$out/revision_ab.md"
cat "$out/revision_ab.md"
echo

status=0
[[ $rc_compare -eq 1 ]] && status=1
for name in old new old_rerun; do
  [[ ${rc_run[$name]} == 0 ]] || { [[ ${rc_run[$name]} == 1 ]] && status=1; }
done
word=PASS
((status)) && word=FAIL
gate=$(grep -m1 '^Gate' "$out/revision_ab.md")
summary "$word | $old_label (old) vs $new_label (new) | ${slowest:-no case in both runs} | ${gate##*). }" \
  "| runs old ${rc_run[old]}, new ${rc_run[new]}, old_rerun ${rc_run[old_rerun]} | builds $t_build s, runs $t_runs s" \
  "| $out/revision_ab.md"
exit $status
