#!/usr/bin/env bash
# The closing runs on the GPU machine, in parts that each fit one device call (10 minutes):
#   tools/final_run.sh PART[,PART...] OUT_DIR
#   build       sm_90 build against the toolkit's CCCL (build/gpu)   ~8-11 min (a cut build resumes)
#   build-new   sm_90 build against the newest fetched CCCL (build/gpu-newest, tests only, from
#               .cccl/, carried to the machine)     ~10+ min: more than one call; suite-new resumes it
#               (each alone: both at once overran one call once native had joined the suite)
#   suite       the whole ctest suite and archscan-ab on build/gpu (tools/gpu_suite.sh)     ~7.5 min
#   suite-new   the whole ctest suite on build/gpu-newest                                   ~4 min
#   suites      suite and suite-new at once                                                 ~6 min
#   sanitize    the four compute-sanitizer tools over the single-pass families' tests (tools/sanitize.sh) ~5 min
#   sanitize-native  the same over native's tests alone                                      ~3 min
#   suite+sanitize-native  suite, and beside it the sanitizers over native's tests only      ~9-10 min
#               (ran past one call's 600 s once NativeLargeTiles joined: the sanitizers finished,
#               the suite did not; `suite` alone takes ~7.5 min, so run them apart when it matters)
#   sanitize-native+suite-odd  the sanitizers over native's tests, and beside them every other test of
#               the suite from the first (ctest -I 1,,2); then suite-even runs the rest and archscan-ab:
#               the whole suite and the sanitizers in two calls                        ~6 + ~5 min
#   suite-even  the tests suite-odd leaves, and archscan-ab (OUT_DIR/suite-even/). ctest adds the
#               setup tests of the fixtures that selected tests require, so perf_compare's two fixture
#               tests run in both halves: count the tests by their unique names across the two logs
#   bench       archscan-bench over every axis, Table 2, ablations (perf/run_full.sh)         ~3 min
#               (OUT_DIR/bench/: bench_medians.json to commit, bench_full.json the run's artifact)
#   probe       native beside its variants (perf/native_probe.sh, its own small build)    ~2-3 min
#               (ARCHSCAN_PROBE_REVS="DIR ...": exported revisions under .rev/ probed after it, ~1.5 min each)
#   cccl-ab     CUB and archscan built against both CCCLs, A/B/A on this GPU (perf/cccl_ab.sh) ~6 min
#   profile     ncu over native's, turing's and CUB's exclusive sums of int8/int16/int32/double and
#               native's (walk and tree) and CUB's by-key int32 and double sums and 16-byte products at 2^26
#               (perf/profile.cu; look-back, wave and cluster kernels):
#               speed of light, warp states, occupancy (ARCHSCAN_PROFILE_LOGS: log2 sizes, default 26) ~1 min a size
#   floor       archscan-floor: a small call's cost piece by piece (launch, one SM, shared memory, a
#               cluster, native, CUB) against a cudaMemcpyAsync, cold and hot L2 (perf/floor.cu)   <1 min
#   row         the copy row: native_nosync, CUB and a copy, exclusive scans of every plain type and
#               flag offsets at 2^28..2^30, 3 rounds of 30 calls (perf/native_probe.sh,
#               perf/probe_summary.py)                                                          <1 min
#   roof        archscan-roof: copy kernels of native's tile shapes and residencies against a
#               cudaMemcpyAsync at 2^24..2^30, beside native and CUB (perf/roof.cu)              <1 min
#   digest      archscan-digest: one 64-bit digest of the bits of each of native's results (sums, a
#               non-commutative float operator, by key; 1000 to 2^27 items) in OUT_DIR/digest.json, to
#               compare with another GPU's (perf/digest_compare.py A.json B.json)               <1 min
#   old-ptx     native's arch-dependent tests and archscan-digest built from sm_75's PTX alone (the
#               `old-ptx` preset, build/gpu-ptx75): the driver compiles it for this GPU, so the paths
#               for GPUs before sm_80 and sm_90 run here (plain copies for cp.async, a memset for the
#               dependent reset, no clusters, no bulk stores, no L2 prefetch); the digest is compared
#               with build/gpu's, run in the same call                                         ~2-4 min
#   timeline    when each of native's tiles starts, has its aggregate, its prefix, and stores: double at
#               2^21..2^24, int32 at 2^22 and 2^23 (perf/timeline.cu; summary and plots: perf/timeline.py) <1 min
#   unpack      nothing but unpacking the carried builds (below): a call that carries one part of several
# A part whose build is missing (a fresh machine) builds it first, unless tools/pack_build.sh packed one
# here and the call carries build/carry* (see below). Everything lands in OUT_DIR, packed
# into OUT_DIR.tar.gz as well (the device tool returns at most 8 files).
set -u
cd "$(dirname "$0")/.."
parts=${1:?parts: unpack,build,build-new,suite,suite-new,suites,sanitize,sanitize-native,suite+sanitize-native,sanitize-native+suite-odd,suite-even,bench,probe,cccl-ab,profile,floor,row,roof,digest,old-ptx,timeline}
out=${2:?out dir}
mkdir -p "$out"
# The newest CCCL under .cccl/ (tools/fetch_cccl.sh put it there; versions sort by their numbers).
# .cccl (25 MB) beside the tree passes a device call's 64 MiB: carry it packed instead,
# `tar cJf build/cccl.tar.xz .cccl` (~1.6 MB), and it is unpacked here.
if [ ! -d .cccl ] && [ -f build/cccl.tar.xz ]; then tar xJf build/cccl.tar.xz; fi
newest=$(ls -d .cccl/*/nvidia/cu13/cccl/lib/cmake/cccl 2>/dev/null | sort -V | tail -n 1)
[ -z "$newest" ] || newest=$PWD/$newest
# Builds made on the developer's machine and packed by tools/pack_build.sh travel as
# build/carry*/<name>.tar.xz (carry those folders): each archive is unpacked once (a stamp beside the
# build says which were), under the tree its ctest files name (linked to this one where that path
# does not exist here), and then run, never rebuilt. A build too large for one call travels as
# several archives of its programs, in folders of their own, over calls to one warm machine.
for archive in build/carry*/*.tar.xz; do
  [ -f "$archive" ] || continue
  name=$(basename "$archive" .tar.xz)
  stamp=build/$name/.unpacked_$(dirname "$archive" | tr / _)
  [ -f "$stamp" ] && continue
  src=$(cat "$(dirname "$archive")/SOURCE_DIR" 2>/dev/null || echo "$PWD")
  if [ "$src" != "$PWD" ] && [ ! -e "$src" ]; then mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src"; fi
  [ "$(cd "$src" 2>/dev/null && pwd -P)" = "$(pwd -P)" ] || echo "final_run.sh: $src is not this tree: ctest cannot find build/$name" >&2
  xz -dc "$archive" | tar -xf - && touch "$stamp" && echo "unpacked $archive ($(cat "build/$name/.carried"))"
done
for lib in build/*/carried-lib; do  # the carried programs' libbenchmark
  [ -d "$lib" ] && export LD_LIBRARY_PATH=$PWD/$lib:${LD_LIBRARY_PATH:-}
done
carried() { [ -f build/gpu/.carried ]; }
# A carried build's steps leave out `build`.
with_build() { if carried; then echo "${1#build,}"; else echo "$1"; fi; }
# A carried probe build (tools/pack_build.sh build/probe..., configured with -DARCHSCAN_BENCH_SCANS=probe)
# is the probe's archscan-bench.
for probe_build in build/probe*; do
  if [ -z "${ARCHSCAN_PROBE_BENCH:-}" ] && [ -f "$probe_build/.carried" ]; then
    export ARCHSCAN_PROBE_BENCH=$probe_build/perf/archscan-bench
  fi
done
build_old() {
  if carried; then echo "build/gpu: carried, built at $(cat build/gpu/.carried)" > "$out/build-old.txt"; return 0; fi
  ARCHSCAN_STEPS=build tools/gpu_suite.sh "$out/build-old" > "$out/build-old.txt" 2>&1
}
build_new() {
  [ -n "$newest" ] || { echo "no CCCL under .cccl/: run tools/fetch_cccl.sh and carry .cccl" > "$out/build-new.txt"; return 1; }
  ARCHSCAN_BUILD_DIR=build/gpu-newest ARCHSCAN_CCCL_DIR=$newest ARCHSCAN_STEPS=build \
    ARCHSCAN_CMAKE_ARGS=-DARCHSCAN_BUILD_PERF=OFF \
    tools/gpu_suite.sh "$out/build-new" > "$out/build-new.txt" 2>&1
}
suite_old() {
  # The build step first, always: a no-op after a whole build, the rest of one that a call's time limit cut.
  ARCHSCAN_STEPS=$(with_build build,test,ab) ARCHSCAN_CTEST_TIMEOUT=240 tools/gpu_suite.sh "$out/suite" > "$out/suite.txt" 2>&1
  echo "suite rc=$?" >> "$out/suite.txt"
}
suite_new() {
  [ -f build/gpu-newest/build.ninja ] || build_new
  ARCHSCAN_BUILD_DIR=build/gpu-newest ARCHSCAN_CTEST_TIMEOUT=240 ARCHSCAN_STEPS=build,test \
    ARCHSCAN_CCCL_DIR=$newest ARCHSCAN_CMAKE_ARGS=-DARCHSCAN_BUILD_PERF=OFF \
    tools/gpu_suite.sh "$out/suite-new" > "$out/suite-new.txt" 2>&1
  echo "suite-new rc=$?" >> "$out/suite-new.txt"
}
# Builds perf program archscan-NAME in build/gpu (configuring it first on a fresh machine), unless
# the build was carried: logs in OUT_DIR/NAME-{configure,build}.txt.
build_perf() {
  [ -f build/gpu/build.ninja ] || carried || cmake --preset gpu -B build/gpu > "$out/$1-configure.txt" 2>&1
  carried || cmake --build build/gpu --target "archscan-$1" > "$out/$1-build.txt" 2>&1 || tail -n 20 "$out/$1-build.txt"
}
# The test programs of old-ptx: native's paths that differ by architecture, and the routes they take.
old_ptx_programs=(dispatch_native_staged_test dispatch_native_launch_test tile_cluster_test)
# native's tests for the sanitizers (the large-tile ones alone would overrun a call under them).
native_tests='*native*:*Native*:*SegmentLookback*:VectorTranspose*:WarpBulkStore*:-*LargeTiles*:*MoreThanTwoToTheThirtyOne*'
for part in ${parts//,/ }; do
  case $part in
    unpack) ;;  # the carried archives above are unpacked: nothing more (a call that only carries a part)
    build)
      CMAKE_BUILD_PARALLEL_LEVEL=16 build_old
      tail -n 3 "$out/build-old.txt"
      ;;
    build-new)
      CMAKE_BUILD_PARALLEL_LEVEL=16 build_new
      tail -n 3 "$out/build-new.txt"
      ;;
    suite) suite_old ;;
    suite-new) suite_new ;;
    suites)  # both at once: the GPU has room for both (the largest test takes ~25 GB)
      suite_old & suite_new & wait
      tail -n 4 "$out/suite.txt" "$out/suite-new.txt"
      grep -h -E "tests passed|tests failed|ctest skipped" "$out/suite.txt" "$out/suite-new.txt"
      ;;
    sanitize)
      [ -f build/gpu/build.ninja ] || build_old
      tools/sanitize.sh build/gpu "$out/sanitize" > "$out/sanitize.txt" 2>&1
      echo "sanitize rc=$?" >> "$out/sanitize.txt"
      ;;
    sanitize-native)  # the four tools over native's tests alone
      [ -f build/gpu/build.ninja ] || build_old
      tools/sanitize.sh build/gpu "$out/sanitize" "$native_tests" > "$out/sanitize.txt" 2>&1
      echo "sanitize rc=$?" >> "$out/sanitize.txt"
      cat "$out/sanitize.txt"
      ;;
    suite+sanitize-native)  # the suite, and beside it the sanitizers over native's tests alone
      [ -f build/gpu/build.ninja ] || build_old
      suite_old &
      tools/sanitize.sh build/gpu "$out/sanitize" "$native_tests" > "$out/sanitize.txt" 2>&1
      echo "sanitize rc=$?" >> "$out/sanitize.txt"
      wait
      tail -n 4 "$out/suite.txt"
      cat "$out/sanitize.txt"
      ;;
    sanitize-native+suite-odd)
      [ -f build/gpu/build.ninja ] || build_old
      ARCHSCAN_STEPS=$(with_build build,test) ARCHSCAN_CTEST_TIMEOUT=240 ARCHSCAN_CTEST_ARGS="-I 1,,2" \
        tools/gpu_suite.sh "$out/suite-odd" > "$out/suite-odd.txt" 2>&1 &
      tools/sanitize.sh build/gpu "$out/sanitize" "$native_tests" > "$out/sanitize.txt" 2>&1
      echo "sanitize rc=$?" >> "$out/sanitize.txt"
      wait
      tail -n 4 "$out/suite-odd.txt"
      cat "$out/sanitize.txt"
      ;;
    suite-even)
      ARCHSCAN_STEPS=$(with_build build,test,ab) ARCHSCAN_CTEST_TIMEOUT=240 ARCHSCAN_CTEST_ARGS="-I 2,,2" \
        tools/gpu_suite.sh "$out/suite-even" > "$out/suite-even.txt" 2>&1
      echo "suite-even rc=$?" >> "$out/suite-even.txt"
      tail -n 4 "$out/suite-even.txt"
      ;;
    bench)
      [ -f build/gpu/build.ninja ] || build_old
      # What run_full.sh runs, up to date with the tree (nothing to do right after build_old).
      carried || cmake --build build/gpu --target archscan-bench archscan-table2 archscan-ablation archscan-compare \
        > "$out/bench-build.txt" 2>&1 || tail -n 20 "$out/bench-build.txt"
      perf/run_full.sh build/gpu "$out/bench" > "$out/run_full.txt" 2>&1
      echo "run_full rc=$?" >> "$out/run_full.txt"
      ;;
    probe)
      # shellcheck disable=SC2086  # the revisions' folders are separate words
      ARCHSCAN_PROBE_TESTS=0 perf/native_probe.sh "$out/probe" ${ARCHSCAN_PROBE_REVS:-} > "$out/probe.txt" 2>&1
      echo "native_probe rc=$?" >> "$out/probe.txt"
      ;;
    profile)
      # Configure only, when no build is here: the one target below is a fraction of the whole build.
      [ -f build/gpu/build.ninja ] || cmake --preset gpu -B build/gpu > "$out/profile-configure.txt" 2>&1
      cmake --build build/gpu --target archscan-profile > "$out/profile-build.txt" 2>&1 || tail -n 20 "$out/profile-build.txt"
      for lg in ${ARCHSCAN_PROFILE_LOGS:-26}; do  # log2 of the sizes, e.g. ARCHSCAN_PROFILE_LOGS="22 26"
        ncu --profile-from-start off --clock-control none -k regex:'scan_(tiles|wave|cluster)|DeviceScan(ByKey)?Kernel' \
          --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
          --section SchedulerStats --section MemoryWorkloadAnalysis \
          build/gpu/perf/archscan-profile "$lg" > "$out/ncu_$lg.txt" 2>&1
        echo "ncu rc=$?" >> "$out/ncu_$lg.txt"
      done
      ;;
    timeline)
      [ -f build/gpu/build.ninja ] || cmake --preset gpu -B build/gpu > "$out/timeline-configure.txt" 2>&1
      cmake --build build/gpu --target archscan-timeline > "$out/timeline-build.txt" 2>&1 || tail -n 20 "$out/timeline-build.txt"
      mkdir -p "$out/timeline"
      build/gpu/perf/archscan-timeline "$out/timeline/timeline.json" > "$out/timeline/run.txt" 2>&1
      echo "timeline rc=$?" >> "$out/timeline/run.txt"
      python3 perf/timeline.py "$out/timeline/timeline.json" "$out/timeline" > "$out/timeline/summary.txt" 2>&1
      ;;
    floor)
      # What one small call costs, piece by piece (perf/floor.cu), with a cold and a hot L2.
      build_perf floor
      build/gpu/perf/archscan-floor > "$out/floor.md" 2>&1
      echo "archscan-floor rc=$?" >> "$out/floor.md"
      cat "$out/floor.md"
      ;;
    row)
      # The fractions of a copy at the largest sizes (the issue's H200 row) in under a minute: three
      # rounds of perf/native_probe.sh on this build's archscan-bench, medians by perf/probe_summary.py.
      build_perf bench
      mkdir -p "$out/row"
      for round in 1 2 3; do
        ARCHSCAN_PROBE_BENCH=build/gpu/perf/archscan-bench ARCHSCAN_PROBE_REPS=30 \
          ARCHSCAN_PROBE_FILTER='^(exclusive_scan/(int8|int16|int32|int64|float|double|mat2x2)|flag_offsets/int32)/(268435456|536870912|1073741824)/(cub|memcpy|archscan::native_nosync)/' \
          perf/native_probe.sh "$out/row/round_$round" > "$out/row/round_$round.txt" 2>&1
        echo "row round $round: $(tail -n 1 "$out/row/round_$round.txt")"
      done
      python3 perf/probe_summary.py "$out"/row/round_*.txt | tee "$out/row/summary.md"
      ;;
    roof)
      # What a kernel that only copies reaches at large n, by the bytes an SM keeps in flight (perf/roof.cu).
      build_perf roof
      build/gpu/perf/archscan-roof > "$out/roof.md" 2>&1
      echo "archscan-roof rc=$?" >> "$out/roof.md"
      cat "$out/roof.md"
      ;;
    digest)
      # The bits of native's results, to compare with another GPU's (perf/digest.cu).
      build_perf digest
      build/gpu/perf/archscan-digest "$out/digest.json" > "$out/digest.txt" 2>&1
      echo "archscan-digest rc=$?" >> "$out/digest.txt"
      tail -n 3 "$out/digest.txt"
      ;;
    old-ptx)
      # Run directly, one process a program: each JIT-compiles its module once (the cache is raised
      # so that it keeps them all).
      export CUDA_CACHE_MAXSIZE=4294967296
      ptx=build/gpu-ptx75
      [ -f "$ptx/.carried" ] || { cmake --preset old-ptx > "$out/old-ptx-configure.txt" 2>&1 &&
        cmake --build "$ptx" --target "${old_ptx_programs[@]}" archscan-digest > "$out/old-ptx-build.txt" 2>&1; } ||
        tail -n 20 "$out/old-ptx-build.txt"
      mkdir -p "$out/old-ptx"
      for program in "${old_ptx_programs[@]}"; do
        timeout 400 "$ptx/test/$program" > "$out/old-ptx/$program.txt" 2>&1
        echo "$program rc=$?" | tee -a "$out/old-ptx/summary.txt"
        grep -E "^\[  (PASSED|FAILED|SKIPPED)  \]" "$out/old-ptx/$program.txt" | tee -a "$out/old-ptx/summary.txt"
      done
      build_perf digest
      build/gpu/perf/archscan-digest "$out/old-ptx/digest_sm90.json" > "$out/old-ptx/digest_sm90.txt" 2>&1
      echo "archscan-digest (sm_90) rc=$?" | tee -a "$out/old-ptx/summary.txt"
      "$ptx/perf/archscan-digest" "$out/old-ptx/digest_ptx75.json" > "$out/old-ptx/digest_ptx75.txt" 2>&1
      echo "archscan-digest (sm_75 PTX) rc=$?" | tee -a "$out/old-ptx/summary.txt"
      python3 perf/digest_compare.py "$out/old-ptx/digest_sm90.json" "$out/old-ptx/digest_ptx75.json" \
        > "$out/old-ptx/digest_compare.txt" 2>&1
      echo "digest_compare rc=$?: $(tail -n 1 "$out/old-ptx/digest_compare.txt")" | tee -a "$out/old-ptx/summary.txt"
      ;;
    cccl-ab)
      perf/cccl_ab.sh "$out/cccl-ab" > "$out/cccl-ab.txt" 2>&1
      echo "cccl_ab rc=$?" >> "$out/cccl-ab.txt"
      ;;
    *) echo "unknown part: $part" >&2; exit 2 ;;
  esac
done
tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
