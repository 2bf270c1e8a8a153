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
# 2. Runs the two builds in rounds, interleaved on the same GPU: old, new, old, new, ... until each has run
#    ROUNDS times (O N O N O N for 3): every archscan policy and CUB, int32, float, int64, double at 2^16,
#    2^20, 2^24, 2^28, of each scan built; 60 timed calls per case. Why rounds: one rerun of the old build
#    does not see the drift between the slots (CUB, identical in both builds, came out +1.45% in the new
#    slot against -0.4% in the rerun), nor the +-15% that blelloch's by-key scans at 2^24..2^28 (2 GiB of
#    pool scratch a call) wander over a minute. Measured on the H100: ~38 s of timed calls a run of all
#    four scans at 100 calls a case (448 cases), so ~23 s at 60, ~35 s with set-up: ~3.5 minutes for six
#    runs; both builds ~2-3 minutes on 16 cores. A round that would not fit the budget (two runs as long
#    as the longest so far, 30 s kept) is skipped, and the report says so.
# 3. archscan-compare --runs-old O1 O2 ... --runs-new N1 N2 ... (this tree's; it reads the old harness's
#    JSON too): per case the median over each build's runs; a regression when median new / median old - 1
#    > threshold + noise, noise the larger of the two builds' max |run / its median - 1|. Also the geometric
#    mean of new / old per implementation and overall, with CUB as the control: its geomean is the session's
#    drift between the old and the new slots.
# 4. Confirmation: the cases the gate flagged run again, alone (a filter of just those), in CONFIRM_ROUNDS
#    more rounds of old then new (seconds: a few cases), and the gate is taken again over all runs. The
#    rule does not change; the flagged cases get more runs, so a real regression shows in every round and
#    stays flagged, while three runs of a noisy case that happened to group apart seldom do it again.
#
# OUT_DIR gets revision_ab.md (the table, the gate, the geomeans and how it was run), old_medians.json and
# new_medians.json (the compact form of each case's median over that build's runs: what perf/baselines/<gpu>/
# commits) and logs.tar.gz (build and run logs, meta.txt, each run's Google Benchmark JSON
# logs/{old,new}_R_full.json and its compact form logs/{old,new}_R_medians.json, the gate before the
# confirmation logs/compare_before_confirmation.md): four files, since the
# device tool returns eight at most. It prints revision_ab.md, then one summary line last. Exit status: 0
# the gate passed, 1 some case regressed or went missing, or a run reported a mismatch with CUB or a CUDA
# error, 2 setup, build or run error. --build-only stops after step 1 (to check here, without a GPU, that
# both builds compile).
#
# Environment (defaults in brackets):
#   ARCHSCAN_REV_AB_ARCH      CUDA architectures [ARCHSCAN_ARCH, else 90]
#   ARCHSCAN_REV_AB_BUILD     build dir prefix [build/gpu-rev]
#   ARCHSCAN_REV_AB_REPS      timed calls per case [60]        ARCHSCAN_REV_AB_THRESHOLD  the gate's threshold [0.05]
#   ARCHSCAN_REV_AB_ROUNDS    runs of each build, interleaved old first [3]
#   ARCHSCAN_REV_AB_CONFIRM_ROUNDS  more rounds of the flagged cases alone [2]; 0: none
#   ARCHSCAN_REV_AB_SCANS     scans built (ARCHSCAN_BENCH_SCANS of both builds) [exclusive;inclusive;by_key;
#                             transform without a budget or one of 420 s or more, else exclusive;by_key]
#   ARCHSCAN_REV_AB_FILTER    Google Benchmark filter [the cases above]
#   ARCHSCAN_REV_AB_NEW_LABEL how the report names this tree [ARCHSCAN_REV; else git's short sha, "(dirty)"
#                             if so; else "this tree"]
#   ARCHSCAN_REV_AB_BUDGET_S  seconds the whole script may take [ARCHSCAN_STEP_TIMEOUT, else 0: no limit]: a
#                             round that would not fit is skipped (one 10-minute device call: 540)
#   ARCHSCAN_AB_RUN_TIMEOUT_S seconds one run may take [180]
#   ARCHSCAN_REV_AB_PREBUILT  1: skip step 1 and run the programs already in the two build dirs (built
#                             with --build-only on another machine, e.g. one without a GPU, and carried) [0]
#   ARCHSCAN_REV_AB_DIGEST    1: also build archscan-digest in both builds, run each once after the rounds and
#                             compare the bits of native's results (perf/digest_compare.py; the digests in
#                             logs.tar.gz); a difference or a failed digest fails the script [0]
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
arch=${ARCHSCAN_REV_AB_ARCH:-${ARCHSCAN_ARCH:-90}}
prefix=${ARCHSCAN_REV_AB_BUILD:-build/gpu-rev}
reps=${ARCHSCAN_REV_AB_REPS:-60}
rounds=${ARCHSCAN_REV_AB_ROUNDS:-3}
confirm=${ARCHSCAN_REV_AB_CONFIRM_ROUNDS:-2}
threshold=${ARCHSCAN_REV_AB_THRESHOLD:-0.05}
budget=${ARCHSCAN_REV_AB_BUDGET_S:-${ARCHSCAN_STEP_TIMEOUT:-0}}
if [[ -n ${ARCHSCAN_REV_AB_SCANS:-} ]]; then
  scans=$ARCHSCAN_REV_AB_SCANS
elif ((budget == 0 || budget >= 420)); then
  scans="exclusive;inclusive;by_key;transform"
else
  scans="exclusive;by_key"
fi
# Names: algorithm/type/n/implementation/iterations:R/manual_time (perf/bench.cuh). "cub/" leaves out cub+sync.
filter=${ARCHSCAN_REV_AB_FILTER:-'^(exclusive_scan|inclusive_scan|exclusive_scan_by_key|transform_inclusive_scan)/(int32|float|int64|double)/(65536|1048576|16777216|268435456)/(cub|archscan::[a-z_]+)/'}
old_dir=$prefix-old
new_dir=$prefix-new
if ! [[ $rounds =~ ^[1-9][0-9]*$ && $confirm =~ ^[0-9]+$ ]]; then
  echo "ARCHSCAN_REV_AB_ROUNDS ($rounds) must be a positive number, ARCHSCAN_REV_AB_CONFIRM_ROUNDS ($confirm) a number" >&2
  exit 2
fi
# shellcheck source=perf/ab_common.sh
source perf/ab_common.sh || exit 2
ab_init  # logs, packed into logs.tar.gz whatever way the script ends

summary() {  # STATUS WORD, the rest of the line
  echo "revision_ab: $*"
}

# How each revision is named: tools/export_rev.sh's REVISION file; git for this tree where it has .git.
old_label=$(cut -c1-7 "$old_src/REVISION" 2> /dev/null)
old_label=${old_label:-$old_src}
# The device machine's copy of the tree may carry stale git metadata (it named an older commit,
# "dirty", for a clean tree): a label given (ARCHSCAN_REV, as tools/gpu.sh takes it) comes first.
new_label=${ARCHSCAN_REV_AB_NEW_LABEL:-${ARCHSCAN_REV:-}}
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
ab_old_args=(-UCCCL_DIR)
ab_new_args=(-UCCCL_DIR)
digest=${ARCHSCAN_REV_AB_DIGEST:-0}
digest_target=""
((digest)) && digest_target=" archscan-digest"
if ((${ARCHSCAN_REV_AB_PREBUILT:-0})); then
  # Built elsewhere (--build-only on a machine without a GPU, the programs carried here): only checked.
  rc_old=0 rc_new=0 t_build=0
  for program in "$old_dir/perf/archscan-bench" "$new_dir/perf/archscan-bench" "$new_dir/perf/archscan-compare"; do
    [[ -x $program ]] || { echo "prebuilt: $program is missing" >&2; rc_old=2; }
  done
  if ((digest)); then
    for program in "$old_dir/perf/archscan-digest" "$new_dir/perf/archscan-digest"; do
      [[ -x $program ]] || { echo "prebuilt: $program is missing" >&2; rc_new=2; }
    done
  fi
else
  ab_build_pair "$old_src" "$old_dir" "archscan-bench$digest_target" "$PWD" "$new_dir" \
    "archscan-bench archscan-compare$digest_target"
fi
echo "build old (rc $rc_old): $old_label from $old_src into $old_dir"
echo "build new (rc $rc_new): $new_label into $new_dir"
ab_build_tails
if [[ $rc_old -ne 0 || $rc_new -ne 0 ]]; then
  summary "ERROR | build failed (old rc $rc_old, new rc $rc_new) after $t_build s | logs in $out/logs.tar.gz"
  exit 2
fi
if ((build_only)); then
  summary "BUILT | both builds in $t_build s, scans $scans, sm_$arch ($old_dir: $old_label; $new_dir: $new_label)"
  exit 0
fi

# ---- 2. rounds of old and new on the same GPU -----------------------------------------------------------
{
  ab_meta_head
  echo "old: $old_label ($(cat "$old_src/REVISION" 2> /dev/null || echo "$old_src"))"
  echo "new: $new_label"
} > "$logs/meta.txt"
declare -A rc_run
runs_old=()  # Google Benchmark JSON of the runs that finished (rc 0 or 1), in run order
runs_new=()
order=()     # every run started, in order
longest=0    # the longest run so far, in seconds
# Rounds FIRST..LAST of old then new, each run's JSON logs/{old,new}_R_full.json; the finished ones join
# runs_old / runs_new. A round that would not fit is skipped: its note in rounds_note.
run_rounds() {  # FIRST LAST
  local round side name dir_var start left need
  for ((round = $1; round <= $2; round++)); do
    left=$(seconds_left)
    need=$((longest + (longest > 20 ? longest : 20)))  # two runs, the second with ab_bench's 20 s at least
    if ((round > $1 && left - 30 < need)); then
      rounds_note="round(s) $round..$2 skipped: $left s of the budget left, a round needs $need s and 30 s are kept"
      echo "$rounds_note"
      return
    fi
    for side in old new; do
      name=${side}_$round
      dir_var=${side}_dir
      order+=("$name")
      start=$SECONDS
      ab_bench "$name" "${!dir_var}" "$logs/${name}_full.json"
      ((SECONDS - start > longest)) && longest=$((SECONDS - start))
      if [[ ${rc_run[$name]} == 2 ]]; then  # archscan-bench: no usable GPU, or a flag it does not know
        tail -n 5 "$logs/$name.log"
        summary "ERROR | archscan-bench $name exited 2 (no usable GPU, or a bad flag): see above"
        exit 2
      fi
      if [[ ${rc_run[$name]} =~ ^[01]$ && -s $logs/${name}_full.json ]]; then
        if [[ $side == old ]]; then runs_old+=("$logs/${name}_full.json"); else runs_new+=("$logs/${name}_full.json"); fi
      fi
    done
  done
}
rounds_note=""
t_runs=$(date +%s)
run_rounds 1 "$rounds"
main_runs="${#runs_old[@]}+${#runs_new[@]} runs"
main_note="${#runs_old[@]} old and ${#runs_new[@]} new run(s) in $rounds round(s) of old then new"
main_note+="${rounds_note:+ ($rounds_note)}"
run_status() {  # every run started and its exit status
  local name line=""
  for name in "${order[@]}"; do line+="${line:+, }$name ${rc_run[$name]}"; done
  echo "$line"
}

# ---- 3. the comparison ---------------------------------------------------------------------------------
compare=$new_dir/perf/archscan-compare
for name in "${order[@]}"; do  # the compact form of each run, into the logs
  [[ -s $logs/${name}_full.json ]] &&
    "$compare" --compact "$logs/${name}_full.json" "$logs/${name}_medians.json" >> "$logs/compare.log" 2>&1
done
if ((${#runs_old[@]} == 0 || ${#runs_new[@]} == 0)); then
  summary "ERROR | no finished run of the old or the new build ($(run_status)) | logs in $out/logs.tar.gz"
  exit 2
fi
# What to commit: each case's median over the build's runs (with one run, that run's compact form).
compare_all() {  # the gate over every finished run; sets rc_compare
  "$compare" --runs-old "${runs_old[@]}" --runs-new "${runs_new[@]}" --threshold "$threshold" --out "$logs/compare.md" \
    >> "$logs/compare.log" 2>&1
  rc_compare=$?
}
compare_all
# Confirmation: the cases the gate flagged run again, alone, in ARCHSCAN_REV_AB_CONFIRM_ROUNDS more rounds of
# old then new, and the gate is taken again over all runs (those cases then have up to rounds + confirm runs
# a build). A real regression shows again in every round; a chance grouping of a few noisy runs seldom does.
# shellcheck disable=SC2016 # awk's own $ fields
flagged=$(awk -F' [|] ' '$6 == "REGRESSION" { print substr($1, 3) }' "$logs/compare.md" 2> /dev/null)
confirm_note="no case flagged after the first $rounds round(s)"
if [[ $rc_compare -eq 1 && -n $flagged ]]; then
  n_flagged=$(wc -l <<< "$flagged")
  if ((confirm > 0)); then
    cp "$logs/compare.md" "$logs/compare_before_confirmation.md"
    main_filter=$filter
    filter="^($(paste -sd'|' <<< "$flagged"))/"
    rounds_note=""
    run_rounds $((rounds + 1)) $((rounds + confirm))
    filter=$main_filter
    for name in "${order[@]}"; do  # the compact form of each confirmation run, into the logs
      [[ ${name##*_} -gt $rounds && -s $logs/${name}_full.json ]] &&
        "$compare" --compact "$logs/${name}_full.json" "$logs/${name}_medians.json" >> "$logs/compare.log" 2>&1
    done
    compare_all
    # shellcheck disable=SC2016 # awk's own $ fields
    still=$(awk -F' [|] ' '$6 == "REGRESSION" { n++ } END { print n + 0 }' "$logs/compare.md" 2> /dev/null)
    confirm_note="$n_flagged case(s) flagged after $rounds round(s) ran alone in up to $confirm more round(s)"
    confirm_note+="${rounds_note:+ ($rounds_note)}; over all runs $still still flagged"
  else
    confirm_note="$n_flagged case(s) flagged after $rounds round(s); no confirmation (ARCHSCAN_REV_AB_CONFIRM_ROUNDS=0)"
  fi
fi
t_runs=$(($(date +%s) - t_runs))
echo "confirmation: $confirm_note"
# The bits of native's results, old against new on this GPU (archscan-digest, perf/digest.cu).
digest_note=""
rc_digest=0
if ((digest)); then
  for side in old new; do
    dir_var=${side}_dir
    timeout 300 "${!dir_var}/perf/archscan-digest" "$logs/${side}_digest.json" > "$logs/${side}_digest.txt" 2>&1 ||
      rc_digest=1
  done
  python3 perf/digest_compare.py "$logs/old_digest.json" "$logs/new_digest.json" > "$logs/digest_compare.txt" 2>&1 ||
    rc_digest=1
  digest_note="digest old vs new: $(tail -n 1 "$logs/digest_compare.txt")"
  echo "$digest_note"
fi
# What to commit: each case's median over the build's runs (with one run, that run's compact form).
{
  "$compare" --compact "${runs_old[@]}" "$out/old_medians.json"
  "$compare" --compact "${runs_new[@]}" "$out/new_medians.json"
} >> "$logs/compare.log" 2>&1
if [[ $rc_compare -eq 2 || ! -s $logs/compare.md ]]; then
  cat "$logs/compare.log"
  summary "ERROR | archscan-compare could not compare (rc $rc_compare; runs: $(run_status)) | logs in $out/logs.tar.gz"
  exit 2
fi
# Over the table's rows (| case | old | new | new / old | noise | verdict | old runs | new runs |): how many
# cases are slower by more than their noise alone (the gate adds the threshold), and the slowest.
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
  echo "Device: $(sed -n 2p "$logs/meta.txt" | cut -d, -f1). One row per case: old, new = the median over that"
  echo "build's runs of each run's median time; new / old > 1: the new revision is slower; noise = the larger of"
  echo "the two builds' max |run / its median - 1| for that case; the verdict of the gate; each build's runs."
  echo
  cat "$logs/compare.md"
  echo
  echo "Summary: ${slowest:-no case in both builds}."
  [[ -z $digest_note ]] || { echo; echo "Bits: $digest_note (perf/digest_compare.py; rc $rc_digest)."; }
  echo
  echo "### How this was run"
  echo
  echo "\`perf/revision_ab.sh\`: old from \`${old_src#"$PWD"/}\`, new this tree; archscan-bench of scans"
  echo "\`$scans\` built for sm_$arch against the toolkit's CCCL; $main_note, back to back"
  echo "($reps timed calls per case, cold L2, median), filter \`$filter\`. Confirmation: $confirm_note."
  echo "Threshold $threshold. Builds $t_build s (side by side), runs $t_runs s; run status"
  echo "(0: all cases matched CUB; 124: stopped at its time limit): $(run_status)."
  echo
  sed 's/^/    /' "$logs/meta.txt"
} > "$out/revision_ab.md"
cat "$out/revision_ab.md"
echo

status=0
[[ $rc_compare -eq 1 ]] && status=1
[[ $rc_digest -eq 0 ]] || status=1
for name in "${order[@]}"; do
  [[ ${rc_run[$name]} == 0 ]] || { [[ ${rc_run[$name]} == 1 ]] && status=1; }
done
word=PASS
((status)) && word=FAIL
gate=$(grep -m1 '^Gate' "$out/revision_ab.md")
# The geomeans' change column: CUB's (the control, the slot drift) and all cases'.
geomean_change() {  # ROW NAME: the change column of that row of the geomean table
  awk -F' [|] ' -v row="| $1" '$1 == row { sub(/ [|]$/, "", $4); print $4; exit }' "$out/revision_ab.md"
}
cub_drift=$(geomean_change "cub (control)")
all_geo=$(geomean_change all)
summary "$word | $old_label (old) vs $new_label (new) | ${slowest:-no case in both builds} | ${gate##*). }" \
  "| geomean new/old all ${all_geo:-?}, CUB (control) ${cub_drift:-?}${digest_note:+ | $digest_note}" \
  "| $main_runs, confirmation: ${confirm_note%%;*}" \
  "($(run_status)) | builds $t_build s, runs $t_runs s | $out/revision_ab.md"
exit $status
