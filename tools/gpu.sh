#!/usr/bin/env bash
# The GPU machine's workflow (a CUDA GPU, nvcc, cmake, ninja), run from anywhere in the tree:
#   tools/gpu.sh STEP...        the steps, in the order given
# Steps:
#   readme    the README's two commands as a newcomer runs them, each timed: the test command's configure and
#             build (build/default; its ctest step is `suite` with ARCHSCAN_PRESET=default, the same tests,
#             resumable), then the main job, `cmake --workflow --preset ab` (build archscan-ab and run it)
#   build     configure the `gpu` preset (sm_90; ARCHSCAN_PRESET another) into ARCHSCAN_BUILD_DIR and build
#             every target
#   suite     the whole ctest suite (or the tests whose labels match ARCHSCAN_LABELS), then archscan-ab;
#             builds the test programs and archscan-ab alone
#   sanitize  compute-sanitizer's memcheck, racecheck, initcheck and synccheck over the single-pass
#             families' tests (tools/sanitize.sh)
#   bench     perf/run_full.sh: archscan-bench over every axis, Table 2, the ablations
#   digest    archscan-digest: a digest of the bits of native's results (perf/digest_compare.py A B
#             compares two GPUs')
#   probe     perf/native_probe.sh: native beside its variants, its own small build
#   profile   Nsight Compute (ncu, clocks left alone) over archscan-profile's measured round: native's and
#             CUB's scan kernels at 2^ARCHSCAN_PROFILE_LOG2N items [28], their speed of light, occupancy,
#             scheduler, warp states and memory sections, as text (profile.txt)
#   cccl-ab   perf/cccl_ab.sh: CUB of the toolkit's CCCL against the fetched one (.cccl, or carried
#             packed as build/cccl.tar.xz)
#   pack      on a machine without a GPU: build the test programs (archscan-tests) and pack them with ctest's
#             files into ARCHSCAN_PREBUILT [build/suite-prebuilt.tar.xz], so that the GPU machine's `suite`
#             and `sanitize` spend no device time building (the README's test build took 336 s of a
#             16-core H100 machine)
# A step builds what it runs first (a no-op after `build`), so each works on a fresh machine too.
# Each step prints one summary line last, e.g.
#   gpu.sh suite: NVIDIA H200 (driver 580.95.05), rev abc1234: 1187 tests, 1184 passed, 0 failed, 3 skipped (412 s)
# Output: ARCHSCAN_OUT [build/gpu-out] gets summary.txt (every summary line) and STEP.tar.gz, the step's
# folder of logs and results: at most 8 files, which the device tool returns (set ARCHSCAN_OUT=$OUT there).
# Resuming: each step's folder is ARCHSCAN_WORK/STEP [BUILD-work/STEP, e.g. build/gpu-work/suite], kept
# with the build. A step that finished leaves a stamp there with the source tree's hash (and the settings
# that shape it); a rerun on the same tree prints the stamped summary and skips the step, unless FORCE=1.
# A cut-off step resumes: ninja resumes builds; suite runs only the tests without a result yet
# (ARCHSCAN_RERUN_FAILED=1: the failed ones again, stamp or not); sanitize skips the tool and program pairs done.
# Environment (defaults in brackets):
#   ARCHSCAN_BUILD_DIR     [build/gpu; build/default with ARCHSCAN_PRESET=default]
#   ARCHSCAN_PRESET        the configure preset [gpu]; `default` takes over the build of the README's test
#                          command (`cmake --workflow --preset test`), so that its suite runs here resumably
#   ARCHSCAN_ARCH          CUDA architectures, e.g. native [the preset's: 90 for gpu]
#   ARCHSCAN_JOBS          build jobs [nproc]                ARCHSCAN_CTEST_JOBS  [ARCHSCAN_JOBS, at most 8]
#   ARCHSCAN_LABELS        ctest -L regex, e.g. '^gpu', '^host', 'thrust$' (test/CMakeLists.txt) [every test]
#   ARCHSCAN_CCCL_DIR      a CCCL CMake package (tools/fetch_cccl.sh) [the toolkit's]
#   ARCHSCAN_CMAKE_ARGS    more configure arguments       ARCHSCAN_SUITE_AB=0  no archscan-ab after the suite
#   ARCHSCAN_TEST_TIMEOUT  seconds one test may take [600]  ARCHSCAN_PROBE_REVS  folders for native_probe.sh
#   ARCHSCAN_SANITIZE_PROGRAMS, ARCHSCAN_SANITIZE_TOOLS   some of sanitize's programs and tools [all]
#   ARCHSCAN_SANITIZE_LANES  processes a sanitizer tool deals its programs over [1]
#   ARCHSCAN_STEP_TIMEOUT  seconds one step may take [none]
#   ARCHSCAN_TIME_LIMIT    seconds this whole command may take [none]; 20 s of it are kept for the summaries
#   ARCHSCAN_PREBUILT      `pack`'s archive: `suite` and `sanitize` unpack it into the build folder (once,
#                          dated now; the same absolute path as where it was packed) and build nothing;
#                          programs packed from other sources (include src test perf cmake) are refused
#   ARCHSCAN_REV           how the summaries name the revision [git's short hash; REVISION; the tree's hash]
# Exit status: 0 every step passed; 1 a step failed or was cut off; 2 a bad argument.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

steps_known="readme build suite sanitize bench digest probe profile cccl-ab pack"
usage() {
  echo "usage: tools/gpu.sh STEP... (steps: $steps_known; see the comment at the top of tools/gpu.sh)" >&2
  exit "${1:-2}"
}
[ $# -gt 0 ] || usage
for step in "$@"; do
  [[ $step == -h || $step == --help ]] && usage 0
  [[ " $steps_known " == *" $step "* ]] || { echo "gpu.sh: unknown step '$step'" >&2; usage; }
done
for var in ARCHSCAN_JOBS ARCHSCAN_CTEST_JOBS ARCHSCAN_TEST_TIMEOUT ARCHSCAN_STEP_TIMEOUT ARCHSCAN_TIME_LIMIT; do
  [[ ${!var:-1} =~ ^[0-9]+$ ]] || { echo "gpu.sh: $var must be a number, not '${!var}'" >&2; exit 2; }
done

preset=${ARCHSCAN_PRESET:-gpu}
build=${ARCHSCAN_BUILD_DIR:-build/$preset}
out=$(realpath -m "${ARCHSCAN_OUT:-build/gpu-out}")
work=$(realpath -m "${ARCHSCAN_WORK:-$build-work}")
jobs=${ARCHSCAN_JOBS:-$(nproc)}
ctest_jobs=${ARCHSCAN_CTEST_JOBS:-$((jobs < 8 ? jobs : 8))}
export CMAKE_BUILD_PARALLEL_LEVEL=$jobs ARCHSCAN_JOBS=$jobs
mkdir -p "$out" "$work" || exit 2
# The scan across ranks builds and runs where NCCL is found; NVLink multicast stays off on shared machines.
export NCCL_NVLS_ENABLE=0
if NCCL_ROOT=$(tools/nccl_root.sh); then
  export NCCL_ROOT LD_LIBRARY_PATH=$NCCL_ROOT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

# The hash of every file under PATH... (results and Python caches aside).
hash_of() {
  find "$@" \( -path perf/results -o -name __pycache__ \) -prune -o -type f -print0 2> /dev/null |
    LC_ALL=C sort -z | xargs -0 sha1sum | sha1sum | cut -c1-12
}
# What the stamps compare: the hash of every source file that a build or a run reads.
tree=$(hash_of include src test perf tools cmake examples CMakeLists.txt CMakePresets.json)
if [ -n "${ARCHSCAN_REV:-}" ]; then
  rev=$ARCHSCAN_REV
elif rev=$(git rev-parse --short HEAD 2> /dev/null); then
  git status --porcelain --untracked-files=no 2> /dev/null | grep -q . && rev="$rev-dirty"
elif [ -f REVISION ]; then
  rev=$(cut -c1-7 REVISION)
else
  rev="tree $tree"
fi
gpu="no GPU (nvidia-smi missing)"
if command -v nvidia-smi > /dev/null; then
  mapfile -t gpus < <(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null)
  gpu="no GPU listed by nvidia-smi"
  if [ ${#gpus[@]} -gt 0 ]; then
    gpu="${gpus[0]%%,*} (driver ${gpus[0]##*, })"
    [ ${#gpus[@]} -eq 1 ] || gpu="${#gpus[@]}x $gpu"
  fi
fi

t_start=$SECONDS
reserve=20
deadline=0  # SECONDS at which the current step is cut; 0: never
# Sets deadline for the step about to start; fails when no time is left for it.
start_clock() {
  local limit=${ARCHSCAN_STEP_TIMEOUT:-0} left
  if [ "${ARCHSCAN_TIME_LIMIT:-0}" -gt 0 ]; then
    left=$((ARCHSCAN_TIME_LIMIT - reserve - (SECONDS - t_start)))
    [ "$left" -ge 5 ] || return 1
    { [ "$limit" -gt 0 ] && [ "$limit" -le "$left" ]; } || limit=$left
  fi
  deadline=0
  [ "$limit" -eq 0 ] || deadline=$((SECONDS + limit))
}
seconds_left() { echo $((deadline - SECONDS)); }  # only when deadline is set
# COMMAND... under what is left of the step's time (exit status 124 when cut).
limited() {
  [ "$deadline" -gt 0 ] || { "$@"; return; }
  local left=$((deadline - SECONDS))
  [ "$left" -ge 1 ] || return 124
  timeout --kill-after=10 "$left" "$@"
}

# Configures the build where it is not configured with these arguments (or not at all).
configure() {
  local args=(--preset "$preset" -B "$build") extra
  [ -z "${ARCHSCAN_ARCH:-}" ] || args+=("-DCMAKE_CUDA_ARCHITECTURES=$ARCHSCAN_ARCH")
  [ -z "${ARCHSCAN_CCCL_DIR:-}" ] || args+=("-DCCCL_DIR=$ARCHSCAN_CCCL_DIR")
  [ -z "${ARCHSCAN_TEST_TIMEOUT:-}" ] || args+=("-DARCHSCAN_TEST_TIMEOUT=$ARCHSCAN_TEST_TIMEOUT")
  [ -z "${NCCL_ROOT:-}" ] || args+=("-DNCCL_ROOT=$NCCL_ROOT")
  read -ra extra <<< "${ARCHSCAN_CMAKE_ARGS:-}"
  args+=("${extra[@]}")
  if [ -f "$build/build.ninja" ] && [ "$(cat "$build/.gpu_sh_configure" 2> /dev/null)" = "${args[*]}" ]; then
    return 0
  fi
  limited cmake "${args[@]}" && echo "${args[*]}" > "$build/.gpu_sh_configure"
}
# Builds TARGET... (none: everything) into the step's build.log; sets build_note on failure.
build_targets() {
  local targets=() rc
  [ $# -eq 0 ] || targets=(--target "$@")
  { configure && limited cmake --build "$build" -j "$jobs" "${targets[@]}"; } >> "$dir/build.log" 2>&1
  rc=$?
  build_note=""
  [ "$rc" -eq 0 ] && return 0
  local progress
  progress=$(grep -o '^\[[0-9]*/[0-9]*\]' "$dir/build.log" | tail -n 1)
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    build_note="build cut at its time limit after ${progress:-no step} (a rerun resumes it)"
    return 124
  fi
  tail -n 30 "$dir/build.log"
  build_note="build FAILED after ${progress:-configure} (tail above; $step.tar.gz: $step/build.log)"
  return 2
}
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" 2> /dev/null; }
# The hash of what the test programs are built from (a pack's stamp: a script or a doc may change after).
built_from() { hash_of include src test perf cmake CMakeLists.txt CMakePresets.json; }
# Builds TARGET..., or with ARCHSCAN_PREBUILT unpacks `pack`'s programs instead (once per build folder),
# refusing programs packed from other sources.
build_or_unpack() {
  [ -n "${ARCHSCAN_PREBUILT:-}" ] || { build_targets "$@"; return; }
  if [ ! -f "$build/.prebuilt" ]; then
    if ! { mkdir -p "$build" && tar -xmJf "$ARCHSCAN_PREBUILT" -C "$build"; }; then
      build_note="could not unpack ARCHSCAN_PREBUILT=$ARCHSCAN_PREBUILT into $build"
      return 2
    fi
    # gtest's discovery scripts include the packing machine's CMake module by absolute path; the archive
    # carries that module, and this machine's CMake may be another version or live elsewhere.
    [ ! -f "$build/GoogleTestAddTests.cmake" ] || find "$build" -name '*_include.cmake' -exec sed -i \
      "s|include(\"[^\"]*/GoogleTestAddTests.cmake\")|include(\"$(realpath "$build")/GoogleTestAddTests.cmake\")|" {} +
    # ctest's files run the host tools' tests with the packing machine's Python by absolute path.
    local py here
    py=$(cache_value _Python3_EXECUTABLE)
    if [ -n "$py" ] && [ ! -x "$py" ] && here=$(command -v python3); then
      find "$build" -name CTestTestfile.cmake -exec sed -i "s|\"$py\"|\"$here\"|g" {} +
    fi
  fi
  [ "$(cat "$build/.prebuilt" 2> /dev/null)" = "$(built_from)" ] && return 0
  build_note="ARCHSCAN_PREBUILT's programs were built from other sources than this tree's (pack again)"
  return 2
}

# ---- the steps: each sets verdict (0 passed, 1 failed, 2 could not run, 124 cut off) and note --------------

step_readme() {
  local t0 rc progress
  t0=$SECONDS
  { limited cmake --preset default && limited cmake --build --preset tests; } > "$dir/test_build.log" 2>&1
  rc=$?
  progress=$(grep -o '^\[[0-9]*/[0-9]*\]' "$dir/test_build.log" | tail -n 1)
  note="the test command's configure and build: rc $rc in $((SECONDS - t0)) s (${progress:-no step})"
  if [ "$rc" -ne 0 ]; then
    judge "$rc" "$dir/test_build.log"
    return
  fi
  t0=$SECONDS
  limited cmake --workflow --preset ab > "$dir/ab_workflow.log" 2>&1
  rc=$?
  note+="; cmake --workflow --preset ab: rc $rc in $((SECONDS - t0)) s"
  judge "$rc" "$dir/ab_workflow.log"
}

step_build() {
  build_targets
  verdict=$?
  if [ "$verdict" -eq 0 ]; then
    local ran
    ran=$(grep -o '^\[[0-9]*/[0-9]*\]' "$dir/build.log" | tail -n 1)
    note="$build built for CUDA architectures $(cache_value CMAKE_CUDA_ARCHITECTURES)"
    note+=" with $jobs jobs (${ran:-nothing to do}),"
    note+=" CCCL $(cache_value CCCL_DIR | grep . || echo "from the toolkit")"
  else
    note=$build_note
  fi
}

# One line per test that finished in a ctest log: NUMBER passed|failed|skipped NAME. A name may hold
# spaces (gtest's typed tests: "T.Case<policy<tuning,true> >"), so the status is read from the line's
# end: "NAME ....   Passed    0.68 sec", "***Skipped", "***Failed", "***Timeout", "***Exception: ...".
ctest_results() {
  awk '/^ *[0-9]+\/[0-9]+ +Test +#[0-9]+: / {
    num = $0; sub(/^ *[0-9]+\/[0-9]+ +Test +#/, "", num); sub(/:.*/, "", num)
    name = $0; sub(/^[^:]*: /, "", name); sub(/ +[0-9.]+ sec *$/, "", name)
    status = "failed"
    if (name ~ / +Passed$/) status = "passed"; else if (name ~ /\*\*\*Skipped$/) status = "skipped"
    sub(/ *(Passed|\*\*\*.*|Not Run.*)$/, "", name); sub(/ \.*$/, "", name)
    print num, status, name }' "$@"
}

step_suite() {
  # The test programs (test/CMakeLists.txt's archscan-tests) and archscan-ab, not the other benchmarks.
  local targets=(archscan-tests) labels=() selected=() remaining=() args log rc n_done
  [ "${ARCHSCAN_SUITE_AB:-1}" = 0 ] || targets+=(archscan-ab)
  build_or_unpack "${targets[@]}" || { verdict=$?; note=$build_note; return; }
  [ -z "${ARCHSCAN_LABELS:-}" ] || labels=(-L "$ARCHSCAN_LABELS")
  limited ctest --test-dir "$build" -N "${labels[@]}" > "$dir/list.txt" 2>&1
  mapfile -t selected < <(sed -n 's/^ *Test *#\([0-9]*\): .*/\1/p' "$dir/list.txt")
  if [ ${#selected[@]} -eq 0 ]; then verdict=2; note="ctest lists no test (list.txt)"; return; fi
  touch "$dir/results.txt"
  if [ "${ARCHSCAN_RERUN_FAILED:-0}" = 1 ]; then
    awk '$2 != "failed"' "$dir/results.txt" > "$dir/results.tmp" && mv "$dir/results.tmp" "$dir/results.txt"
  fi
  not_done() {  # the selected tests without a result yet
    printf '%s\n' "${selected[@]}" |
      awk -v f="$dir/results.txt" 'BEGIN { while ((getline l < f) > 0) { split(l, a, " "); done[a[1]] = 1 } }
                                   !($1 in done)'
  }
  mapfile -t remaining < <(not_done)
  if [ ${#remaining[@]} -gt 0 ]; then
    args=(--test-dir "$build" -j "$ctest_jobs" --output-on-failure --timeout "${ARCHSCAN_TEST_TIMEOUT:-600}")
    if [ ${#remaining[@]} -eq ${#selected[@]} ]; then
      args+=("${labels[@]}")
    else  # by number: 0,0,0 is an empty range, the numbers after it the tests to run
      args+=(-I "0,0,0,$(IFS=,; echo "${remaining[*]}")")
    fi
    log=$dir/ctest_$(($(find "$dir" -maxdepth 1 -name 'ctest_*.log' | wc -l) + 1)).log
    echo "ctest: ${#remaining[@]} of ${#selected[@]} tests to run, log $step/$(basename "$log")"
    limited ctest "${args[@]}" > "$log" 2>&1
    rc=$?
    ctest_results "$log" >> "$dir/results.txt"
    mapfile -t remaining < <(not_done)
  fi
  # The latest result of each test (a fixture's setup test runs again with the tests that need it).
  awk '{ last[$1] = $0 } END { for (k in last) print last[k] }' "$dir/results.txt" | sort -n > "$dir/results.tmp"
  mv "$dir/results.tmp" "$dir/results.txt"
  # Counted over the selected tests (ctest adds the setup tests of the fixtures that they require).
  local passed failed skipped
  printf '%s\n' "${selected[@]}" > "$dir/selected.txt"
  awk 'NR == FNR { sel[$1] = 1; next } $1 in sel' "$dir/selected.txt" "$dir/results.txt" > "$dir/counted.txt"
  passed=$(awk '$2 == "passed"' "$dir/counted.txt" | wc -l)
  failed=$(awk '$2 == "failed"' "$dir/counted.txt" | wc -l)
  skipped=$(awk '$2 == "skipped"' "$dir/counted.txt" | wc -l)
  note="${#selected[@]} tests${ARCHSCAN_LABELS:+ (labels $ARCHSCAN_LABELS)}, $passed passed, $failed failed,"
  note+=" $skipped skipped"
  [ "$failed" -eq 0 ] || awk '$2 == "failed" { sub(/^[^ ]+ [^ ]+ /, ""); print "failed: " $0 }' "$dir/counted.txt" | head -n 20
  verdict=0
  [ "$failed" -eq 0 ] || verdict=1
  if [ ${#remaining[@]} -gt 0 ]; then
    n_done=$((${#selected[@]} - ${#remaining[@]}))
    note+=", ${#remaining[@]} not run yet"
    if [ "${rc:-0}" -eq 124 ] || [ "${rc:-0}" -eq 137 ]; then
      note+=" (cut at the time limit after $n_done; a rerun resumes)"; verdict=124
    else
      note+=" (ctest stopped: see the last ctest_*.log)"; verdict=2
    fi
    return
  fi
  if [ "${ARCHSCAN_SUITE_AB:-1}" != 0 ] && [ -x "$build/perf/archscan-ab" ]; then
    if [ ! -f "$dir/ab.rc" ]; then
      limited "$build/perf/archscan-ab" > "$dir/ab.md" 2>&1
      rc=$?
      if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        note+="; archscan-ab cut at the time limit (a rerun runs it)"; verdict=124; return
      fi
      echo $rc > "$dir/ab.rc"
    fi
    note+="; archscan-ab rc $(cat "$dir/ab.rc")"
    [ "$(cat "$dir/ab.rc")" = 0 ] || { [ $verdict -ne 0 ] || verdict=1; }
  fi
}

# Sets verdict from a program's exit status RC (0 passed, 2 could not run, 124 or 137 cut, else failed),
# noting a cut and printing LOG's tail where it did not pass.
judge() {  # RC LOG
  verdict=$1
  case $1 in
    0) return ;;
    124 | 137) verdict=124; note+=" (cut at the time limit; a rerun resumes)" ;;
    2) ;;
    *) verdict=1 ;;
  esac
  tail -n 5 "$2"
}
json_cases() { python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$1" 2> /dev/null; }

step_sanitize() {
  local programs=() rc runs clean skipped
  mapfile -t programs < <(tools/sanitize.sh --programs)
  build_or_unpack "${programs[@]}" || { verdict=$?; note=$build_note; return; }
  limited tools/sanitize.sh "$build" "$dir" > "$dir/sanitize.txt" 2>&1
  rc=$?
  runs=$(cat "$dir"/*.summary 2> /dev/null | wc -l)
  clean=$(cat "$dir"/*.summary 2> /dev/null | grep -c ': rc=0 ')
  skipped=$(cat "$dir"/*.summary 2> /dev/null | grep -c ': no test matches')
  grep -hv -e ': rc=0 ' -e ': no test matches' "$dir"/*.summary 2> /dev/null | head -n 20
  note="${ARCHSCAN_SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck} over ${#programs[@]} programs: $runs runs,"
  note+=" $clean clean,"
  note+=" $((runs - clean - skipped)) not clean, $skipped with no test selected"
  judge "$rc" "$dir/sanitize.txt"
}

step_bench() {
  local rc
  build_targets archscan-bench archscan-table2 archscan-ablation archscan-compare ||
    { verdict=$?; note=$build_note; return; }
  limited perf/run_full.sh "$build" "$dir" > "$dir/run_full.txt" 2>&1
  rc=$?
  note="perf/run_full.sh rc $rc, $(json_cases "$dir/bench_medians.json" || echo no) cases in bench_medians.json"
  judge "$rc" "$dir/run_full.txt"
}

step_digest() {
  local rc
  build_targets archscan-digest || { verdict=$?; note=$build_note; return; }
  limited "$build/perf/archscan-digest" "$dir/digest.json" > "$dir/digest.txt" 2>&1
  rc=$?
  note="archscan-digest rc $rc, $(json_cases "$dir/digest.json" || echo no) cases in digest.json,"
  note+=" $(grep -c MISMATCH "$dir/digest.txt") mismatches"
  judge "$rc" "$dir/digest.txt"
}

step_probe() {
  local revs=() rc
  read -ra revs <<< "${ARCHSCAN_PROBE_REVS:-}"
  ARCHSCAN_PROBE_TESTS=0 limited perf/native_probe.sh "$dir" "${revs[@]}" > "$dir/probe.txt" 2>&1
  rc=$?
  note="perf/native_probe.sh rc $rc, $(grep -c ' us  x' "$dir/probe.txt") cases measured (probe.txt)"
  judge "$rc" "$dir/probe.txt"
}

step_profile() {
  local ncu rc
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  [ -x "$ncu" ] || { verdict=2; note="no ncu on this machine"; return; }
  build_targets archscan-profile || { verdict=$?; note=$build_note; return; }
  # The measured round lies between cudaProfilerStart and Stop; turing's kernels are left out.
  limited "$ncu" --profile-from-start off --clock-control none -k 'regex:native_scan|DeviceScan(ByKey)?Kernel' \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis \
    "$build/perf/archscan-profile" "${ARCHSCAN_PROFILE_LOG2N:-28}" > "$dir/profile.txt" 2>&1
  rc=$?
  note="ncu rc $rc: $(grep -c ', Device [0-9]*, CC ' "$dir/profile.txt") kernels profiled,"
  note+=" $(grep -c 'MISMATCH' "$dir/profile.txt") mismatches (profile.txt)"
  judge "$rc" "$dir/profile.txt"
}

step_cccl_ab() {
  local budget=${ARCHSCAN_CCCL_AB_BUDGET_S:-} rc
  # .cccl (25 MB) is over what a device call carries beside the tree: it may come as build/cccl.tar.xz.
  [ -d .cccl ] || [ ! -f build/cccl.tar.xz ] || tar -xJf build/cccl.tar.xz
  [ -n "$budget" ] || [ "$deadline" -eq 0 ] || budget=$(($(seconds_left) - 10))
  ARCHSCAN_CCCL_AB_BUDGET_S=${budget:-0} limited perf/cccl_ab.sh "$dir" > "$dir/cccl_ab.txt" 2>&1
  rc=$?
  note=$(grep '^cccl_ab: ' "$dir/cccl_ab.txt" | tail -n 1)
  note=${note#cccl_ab: }
  note=${note:-perf/cccl_ab.sh rc $rc}
  judge "$rc" "$dir/cccl_ab.txt"
}

step_pack() {
  local archive files=() bytes
  archive=$(realpath -m "${ARCHSCAN_PREBUILT:-build/suite-prebuilt.tar.xz}")
  build_targets archscan-tests || { verdict=$?; note=$build_note; return; }
  # The programs and what ctest reads (CTestTestfile.cmake, gtest's discovery scripts, the cache), no
  # objects. ctest's files name the build folder and the sources by absolute path: unpack at the same path.
  cp "$(cache_value CMAKE_ROOT)/Modules/GoogleTestAddTests.cmake" "$build/" || {
    verdict=2 note="no GoogleTestAddTests.cmake under CMAKE_ROOT $(cache_value CMAKE_ROOT)"
    return
  }
  built_from > "$build/.prebuilt"
  mapfile -t files < <(cd "$build" && find . -name CMakeFiles -prune -o -type f \( -perm -u+x -o -name '*.cmake' \
    -o -name CMakeCache.txt -o -name .prebuilt -o -name .gpu_sh_configure \) -print)
  XZ_OPT=${XZ_OPT:--T0} limited tar -cJf "$archive" -C "$build" "${files[@]}" > "$dir/pack.log" 2>&1
  verdict=$?
  rm -f "$build/.prebuilt"
  bytes=$(stat -c %s "$archive" 2> /dev/null || echo 0)
  note="${#files[@]} files of $build packed into $archive: $((bytes / 1048576)) MiB"
  [ "$bytes" -le $((64 * 1048576)) ] || note+=" (over the 64 MiB a device call carries)"
  judge "$verdict" "$dir/pack.log"
}

# ---- the run ------------------------------------------------------------------------------------------------
status=0
for step in "$@"; do
  dir=$work/$step
  t_step=$SECONDS
  # What a stamp must match besides the tree: the settings that change what the step builds or runs.
  key="$tree $build $preset ${ARCHSCAN_ARCH:-} ${ARCHSCAN_CCCL_DIR:-} ${ARCHSCAN_CMAKE_ARGS:-} ${ARCHSCAN_TEST_TIMEOUT:-}"
  case $step in
    suite) key+=" labels=${ARCHSCAN_LABELS:-} prebuilt=${ARCHSCAN_PREBUILT:-}" ;;
    probe) key+=" revs=${ARCHSCAN_PROBE_REVS:-}" ;;
    profile) key+=" log2n=${ARCHSCAN_PROFILE_LOG2N:-}" ;;
    sanitize) key+=" programs=${ARCHSCAN_SANITIZE_PROGRAMS:-} tools=${ARCHSCAN_SANITIZE_TOOLS:-}"
      key+=" prebuilt=${ARCHSCAN_PREBUILT:-}" ;;
  esac
  if [ "${FORCE:-0}" = 1 ] || [ "$(cat "$dir/.key" 2> /dev/null)" != "$key" ]; then rm -rf "$dir"; fi
  mkdir -p "$dir" && echo "$key" > "$dir/.key"
  if [ "$step" = suite ] && [ "${ARCHSCAN_RERUN_FAILED:-0}" = 1 ]; then rm -f "$dir/.stamp"; fi
  if [ -f "$dir/.stamp" ] && { [ "$step" != build ] || [ -f "$build/build.ninja" ]; }; then
    line="$(cat "$dir/.stamp") [stamped: done on this tree before; FORCE=1 reruns it]"
    verdict=$(cat "$dir/.verdict")
  else
    if start_clock; then
      case $step in
        readme) step_readme ;;
        build) step_build ;;
        suite) step_suite ;;
        sanitize) step_sanitize ;;
        bench) step_bench ;;
        digest) step_digest ;;
        probe) step_probe ;;
        profile) step_profile ;;
        cccl-ab) step_cccl_ab ;;
        pack) step_pack ;;
      esac
    else
      verdict=124
      note="not started: ARCHSCAN_TIME_LIMIT=${ARCHSCAN_TIME_LIMIT} s is spent"
    fi
    line="gpu.sh $step: $gpu, rev $rev: $note ($((SECONDS - t_step)) s)"
    if [ "$verdict" -eq 0 ] || { [ "$verdict" -eq 1 ] && [ "$step" != build ]; }; then
      echo "$line" > "$dir/.stamp"
      echo "$verdict" > "$dir/.verdict"
    fi
  fi
  [ "$verdict" -eq 0 ] || status=1
  tar -czf "$out/$step.tar.gz" -C "$work" "$step"
  echo "$line" >> "$out/summary.txt"
  echo "$line"
done
exit $status
