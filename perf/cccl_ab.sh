#!/usr/bin/env bash
# CUB of two CCCL releases, A/B on one GPU in one session, in one device call:
#
#   perf/cccl_ab.sh [--build-only] OUT_DIR
#
# 1. Builds archscan-bench (exclusive scans only) and archscan-compare twice, both builds at once: against
#    the toolkit's CCCL (build/gpu-cccl-old) and against the CCCL fetched by tools/fetch_cccl.sh
#    (build/gpu-cccl-new). Case names do not depend on the CCCL, so the two builds' results line up.
# 2. Runs old, new, old again, back to back on the same GPU: exclusive scans of int32, float, int64, double
#    at 2^16, 2^20, 2^24, 2^26, 2^28, every implementation, 200 timed calls per case. Measured
#    on the H100: ~20-30 s a run; both builds ~2 minutes on 16 cores (227 s for sm_75 on 2 cores).
#    Why the second old run: CUB's own drift within the session is the noise a release change must beat.
# 3. archscan-compare --cccl old.json new.json --noise old_rerun.json: per case CUB old/new, the new/old
#    speed ratio, each archscan policy against the CUB of its own build, and the gate on CUB itself
#    (new CUB slower than old by more than threshold + noise = regression).
#
# OUT_DIR gets cccl_ab.md (the table, the gate and how it was run), old.json, new.json, old_rerun.json and
# logs.tar.gz (build and run logs): five files, since the device tool returns eight at most. It prints
# cccl_ab.md, then one summary line last. Exit status: 0 the gate passed, 1 CUB regressed (or a case
# went missing, or a run reported a mismatch or CUDA error), 2 setup, build or run error.
# --build-only stops after step 1 (to check here, without a GPU, that both builds compile).
#
# Environment (defaults in brackets):
#   ARCHSCAN_NEW_CCCL_DIR     CMake package dir of the new CCCL [.cccl/13.3.5.0.6/nvidia/cu13/cccl/lib/cmake/cccl]
#   ARCHSCAN_CCCL_AB_ARCH     CUDA architectures [ARCHSCAN_ARCH, else 90]
#   ARCHSCAN_CCCL_AB_BUILD    build dir prefix [build/gpu-cccl]
#   ARCHSCAN_CCCL_AB_REPS     timed calls per case [200]       ARCHSCAN_CCCL_AB_THRESHOLD   the gate's threshold [0.05]
#   ARCHSCAN_CCCL_AB_SCANS    scans built [exclusive]          ARCHSCAN_CCCL_AB_FILTER  Google Benchmark filter [the cases above]
#     (names go on past the implementation, e.g. double/1048576/cub/iterations:200/manual_time: a
#     filter that ends in `$` after the implementation matches nothing)
#   ARCHSCAN_CCCL_AB_BUDGET_S seconds the whole script may take [ARCHSCAN_STEP_TIMEOUT, else 0: no limit]: a
#                             run that would not fit is skipped (one 10-minute device call: 540)
#   ARCHSCAN_AB_RUN_TIMEOUT_S seconds one run may take [180]
set -u
set -o pipefail

build_only=0
if [[ ${1:-} == --build-only ]]; then build_only=1; shift; fi
if [[ $# -ne 1 ]]; then
  echo "usage: $0 [--build-only] OUT_DIR" >&2
  exit 2
fi
out=$(realpath -m "$1")  # before the cd: OUT_DIR is relative to where the script was called from
cd "$(dirname "$0")/.." || exit 2
new_cccl=${ARCHSCAN_NEW_CCCL_DIR:-$PWD/.cccl/13.3.5.0.6/nvidia/cu13/cccl/lib/cmake/cccl}
arch=${ARCHSCAN_CCCL_AB_ARCH:-${ARCHSCAN_ARCH:-90}}
prefix=${ARCHSCAN_CCCL_AB_BUILD:-build/gpu-cccl}
reps=${ARCHSCAN_CCCL_AB_REPS:-200}
threshold=${ARCHSCAN_CCCL_AB_THRESHOLD:-0.05}
scans=${ARCHSCAN_CCCL_AB_SCANS:-exclusive}
filter=${ARCHSCAN_CCCL_AB_FILTER:-'^exclusive_scan/(int32|float|int64|double)/(65536|1048576|16777216|67108864|268435456)/'}
budget=${ARCHSCAN_CCCL_AB_BUDGET_S:-${ARCHSCAN_STEP_TIMEOUT:-0}}
old_dir=$prefix-old
new_dir=$prefix-new
# shellcheck source=perf/ab_common.sh
source perf/ab_common.sh || exit 2
ab_init  # logs, packed into logs.tar.gz whatever way the script ends

summary() {  # STATUS WORD, the rest of the line
  echo "cccl_ab: $*"
}

# ---- 1. both builds, side by side ----------------------------------------------------------------------
if [[ ! -f $new_cccl/cccl-config.cmake ]]; then
  summary "ERROR | no CCCL package at $new_cccl (tools/fetch_cccl.sh 13.3.5.0.6 fetches it; carry .cccl)"
  exit 2
fi
# -UCCCL_DIR: the old build finds the toolkit's CCCL even where the folder was once configured otherwise.
ab_old_args=(-UCCCL_DIR)
ab_new_args=(-DCCCL_DIR="$new_cccl")
ab_build_pair . "$old_dir" "archscan-bench archscan-compare" . "$new_dir" "archscan-bench"
cccl_of() { sed -n 's/^CCCL_DIR:[A-Z]*=//p' "$1/CMakeCache.txt" 2> /dev/null; }
echo "build old (rc $rc_old): CCCL from $(cccl_of "$old_dir")"
echo "build new (rc $rc_new): CCCL from $(cccl_of "$new_dir")"
ab_build_tails
if [[ $rc_old -ne 0 || $rc_new -ne 0 ]]; then
  summary "ERROR | build failed (old rc $rc_old, new rc $rc_new) after $t_build s | logs in $out/logs.tar.gz"
  exit 2
fi
if [[ $(cccl_of "$old_dir") == "$(cccl_of "$new_dir")" ]]; then
  summary "ERROR | both builds use the CCCL at $(cccl_of "$old_dir")"
  exit 2
fi
if ((build_only)); then
  summary "BUILT | both builds in $t_build s ($old_dir, $new_dir)"
  exit 0
fi

# ---- 2. old, new, old again on the same GPU ------------------------------------------------------------
{
  ab_meta_head
  echo "git: $(git rev-parse --short HEAD 2>/dev/null) $(git status --porcelain 2>/dev/null | grep -q . && echo '(dirty)')"
} > "$logs/meta.txt"
declare -A rc_run
t_runs=$(date +%s)
ab_bench old "$old_dir" "$out/old.json"
if [[ ${rc_run[old]} == 2 ]]; then  # archscan-bench: no usable GPU, or a flag it does not know
  tail -n 5 "$logs/old.log"
  summary "ERROR | archscan-bench exited 2 (no usable GPU, or a bad flag): see above"
  exit 2
fi
ab_bench new "$new_dir" "$out/new.json"
ab_bench old_rerun "$old_dir" "$out/old_rerun.json"
t_runs=$(($(date +%s) - t_runs))

# ---- 3. the comparison ---------------------------------------------------------------------------------
noise=()
noise_note="noise from the second old run"
if [[ ${rc_run[old_rerun]} =~ ^[01]$ && -s $out/old_rerun.json ]]; then
  noise=(--noise "$out/old_rerun.json")
else
  noise_note="no second old run (${rc_run[old_rerun]}): noise is each case's spread"
fi
"$old_dir/perf/archscan-compare" --cccl "$out/old.json" "$out/new.json" --threshold "$threshold" "${noise[@]}" \
  --out "$out/cccl_ab.md" > "$logs/compare.log" 2>&1
rc_compare=$?
if [[ $rc_compare -eq 2 || ! -s $out/cccl_ab.md ]]; then
  cat "$logs/compare.log"
  summary "ERROR | archscan-compare could not compare (rc $rc_compare; runs: old ${rc_run[old]}, new ${rc_run[new]}," \
    "old_rerun ${rc_run[old_rerun]}) | logs in $out/logs.tar.gz"
  exit 2
fi
{
  echo
  echo "### How this was run"
  echo
  echo "\`perf/cccl_ab.sh\`: builds for sm_$arch, old CCCL from \`$(cccl_of "$old_dir")\`, new from"
  echo "\`${new_cccl#"$PWD"/}\`; runs old, new, old again back to back, $reps timed calls per case"
  echo "(cold L2, median), filter \`$filter\`; $noise_note; threshold $threshold."
  echo "Builds $t_build s (side by side), runs $t_runs s; run status: old ${rc_run[old]}, new ${rc_run[new]},"
  echo "old_rerun ${rc_run[old_rerun]} (0: all cases matched CUB)."
  echo
  sed 's/^/    /' "$logs/meta.txt"
} >> "$out/cccl_ab.md"
cat "$out/cccl_ab.md"
echo

status=0
[[ $rc_compare -eq 1 ]] && status=1
for name in old new old_rerun; do
  [[ ${rc_run[$name]} == 0 ]] || { [[ ${rc_run[$name]} == 1 ]] && status=1; }
done
word=PASS
((status)) && word=FAIL
gate=$(grep -m1 '^Gate on CUB' "$out/cccl_ab.md")
headline=$(grep -m1 '^## CUB across CCCL releases' "$out/cccl_ab.md" | sed 's/^## CUB across CCCL releases: //')
main_case=$(awk -F' [|] ' '$1 == "| exclusive_scan" && $2 == "int32" && $3 == "2^28" {
  print "CUB int32 2^28 new/old " $6 " (time " $7 ", noise " $8 ")"; exit }' "$out/cccl_ab.md")
warn=$(grep -c '^> warning' "$out/cccl_ab.md")
summary "$word | $headline | ${main_case:-no int32 2^28 case} | ${gate##*). } | $warn warning(s)" \
  "| runs old ${rc_run[old]}, new ${rc_run[new]}, old_rerun ${rc_run[old_rerun]} | builds $t_build s, runs $t_runs s" \
  "| $out/cccl_ab.md"
exit $status
