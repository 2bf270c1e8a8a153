# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034 # the caller sets out, budget, arch, ...; it reads rc_old, rc_new, t_build
# The runner shared by perf/cccl_ab.sh and perf/revision_ab.sh (sourced, not run): two builds of
# archscan-bench side by side, then runs of them on one GPU, within one time budget, logs packed for the
# device tool (it returns eight files at most).
#
# The caller sets before ab_init: out (OUT_DIR, absolute), budget (seconds the whole script may take; 0: no
# limit), and
# before ab_build_pair / ab_bench: arch, scans, reps, filter. ab_init sets logs, t0 and jobs.

# OUT_DIR/logs, the clock, and the EXIT trap that packs the logs whatever way the script ends.
ab_init() {
  logs=$out/logs
  t0=$(date +%s)
  mkdir -p "$logs" || exit 2
  trap ab_pack_logs EXIT
  trap 'exit 2' TERM INT
  ((budget > 0)) || budget=$((365 * 86400))  # no limit
  jobs=$(($(nproc) / 2))
  ((jobs >= 1)) || jobs=1
}

seconds_left() { echo $((budget - ($(date +%s) - t0))); }

# shellcheck disable=SC2317 # called by the EXIT trap
ab_pack_logs() {
  [[ -d $logs ]] && tar -czf "$out/logs.tar.gz" -C "$out" logs && rm -rf "$logs"
}

# One build of archscan-bench (and what else TARGETS names) into DIR, its log logs/build_NAME.log.
ab_build() {  # NAME SOURCE_DIR BUILD_DIR TARGETS [CMAKE_ARGS...]
  local name=$1 src=$2 dir=$3 limit targets
  read -ra targets <<< "$4"
  shift 4
  limit=$(($(seconds_left) - 60))
  ((limit > 0)) || limit=1
  {
    cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" \
      -DARCHSCAN_BUILD_TESTS=OFF -DARCHSCAN_BENCH_SCANS="$scans" "$@" &&
      timeout "$limit" cmake --build "$dir" -j "$jobs" --target "${targets[@]}"
  } > "$logs/build_$name.log" 2>&1
}

# Both builds at once: "old" (SOURCE_DIR OLD_DIR TARGETS, then the array ab_old_args as CMake arguments)
# and "new" (the same with ab_new_args). Sets rc_old, rc_new and t_build (seconds since ab_init).
ab_build_pair() {  # OLD_SOURCE OLD_DIR OLD_TARGETS NEW_SOURCE NEW_DIR NEW_TARGETS
  local pid_old pid_new
  ab_build old "$1" "$2" "$3" "${ab_old_args[@]}" &
  pid_old=$!
  ab_build new "$4" "$5" "$6" "${ab_new_args[@]}" &
  pid_new=$!
  wait $pid_old
  rc_old=$?
  wait $pid_new
  rc_new=$?
  t_build=$(($(date +%s) - t0))
}

# The tail of each failed build's log (after ab_build_pair).
ab_build_tails() {
  local name rc_var
  for name in old new; do
    rc_var=rc_$name
    if [[ ${!rc_var} -ne 0 ]]; then
      echo "--- tail of the $name build's log ---"
      tail -n 30 "$logs/build_$name.log"
    fi
  done
}

# The first lines of logs/meta.txt: date, GPU, nvcc.
ab_meta_head() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1
  echo "nvcc: $(nvcc --version 2>&1 | tail -n 2 | head -n 1)"
}

# One run of DIR's archscan-bench, Google Benchmark's JSON to JSON_OUT, its output to logs/NAME.log; its
# exit status in rc_run[NAME] ("skipped" when under 20 s of the budget are left). At most
# ARCHSCAN_AB_RUN_TIMEOUT_S a run [180: a run of the default cases takes 20-40 s on an H100], and 30 s of the
# budget kept for the comparison and the logs. The caller declares rc_run (declare -A rc_run).
ab_bench() {  # NAME DIR JSON_OUT
  local name=$1 dir=$2 json=$3 limit
  limit=$(($(seconds_left) - 30))  # 30 s kept for the comparison and the logs
  local cap=${ARCHSCAN_AB_RUN_TIMEOUT_S:-180}
  ((limit > cap)) && limit=$cap
  if ((limit < 20)); then
    echo "$name run skipped: $limit s left of the budget"
    rc_run["$name"]=skipped
    return
  fi
  local start=$SECONDS
  timeout "$limit" "$dir/perf/archscan-bench" --reps "$reps" --benchmark_filter="$filter" \
    --benchmark_out="$json" --benchmark_out_format=json > "$logs/$name.log" 2>&1
  rc_run["$name"]=$?
  echo "$name run: $((SECONDS - start)) s, rc ${rc_run["$name"]} (124: stopped at its $limit s limit)"
}
