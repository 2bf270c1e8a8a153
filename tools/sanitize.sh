#!/usr/bin/env bash
# compute-sanitizer over the single-pass families' GPU tests (turing, kepler and native, and the tile
# states and look-back walks they share): memcheck, racecheck, synccheck and initcheck.
#   tools/sanitize.sh BUILD_DIR [OUT_DIR] [FILTER]
#   tools/sanitize.sh --programs      the test programs it runs, one a line (what to build first)
# The sanitizers slow kernels by 10-100x, so each tool runs only the tests FILTER selects (default: both
# families, the tile-state tests, the vector exchange and the bulk store) of the scan, by-key, transform,
# iterator, tile-state, look-back, wave, cluster, vector-exchange, bulk-copy and native launch binaries.
# Prints one line per tool and binary; exits non-zero if any tool reports an error. A rerun into the same
# OUT_DIR with the same FILTER skips the tool and binary pairs that finished (OUT_DIR/TOOL-BINARY.result):
# a run cut off resumes; delete OUT_DIR to redo them all.
# ARCHSCAN_SANITIZE_PROGRAMS and ARCHSCAN_SANITIZE_TOOLS (space-separated) narrow the programs and the
# tools to some of those below, e.g. the programs whose kernels a change touched, when a device session
# cannot hold all 48 runs. ARCHSCAN_SANITIZE_LANES (default 1): each tool's programs are dealt over that
# many processes side by side (racecheck alone took ~400 s of a ~490 s run, one program after another).
set -u
programs=(thrust_scan_test thrust_scan_by_key_test thrust_transform_scan_test thrust_iterator_test tile_tile_state_test
          tile_lookback_test tile_wave_test tile_cluster_test block_vector_transpose_test detail_bulk_copy_test
          dispatch_native_launch_test dispatch_native_staged_test)
tools=(memcheck racecheck synccheck initcheck)
# narrow NAME WANTED...: keeps the entries of array NAME that WANTED lists; an unknown one is an error.
narrow() {
  local -n all=$1
  local kind=${1%s} kept=() w
  shift
  for w in "$@"; do
    [[ " ${all[*]} " == *" $w "* ]] || { echo "sanitize.sh: unknown $kind '$w' (${all[*]})" >&2; exit 2; }
    kept+=("$w")
  done
  all=("${kept[@]}")
}
if [ -n "${ARCHSCAN_SANITIZE_PROGRAMS:-}" ]; then read -ra wanted <<< "$ARCHSCAN_SANITIZE_PROGRAMS"; narrow programs "${wanted[@]}"; fi
if [ -n "${ARCHSCAN_SANITIZE_TOOLS:-}" ]; then read -ra wanted <<< "$ARCHSCAN_SANITIZE_TOOLS"; narrow tools "${wanted[@]}"; fi
if [ "${1:-}" = --programs ]; then printf '%s\n' "${programs[@]}"; exit 0; fi
build=${1:?build dir}
out=${2:-$build/sanitize}
# The large-tile tests (2^22..2^26 items each) are left out: under the sanitizers they alone overrun a call.
filter=${3:-*turing*:*Turing*:*kepler*:*Serial*:*TileState*:*native*:*Native*:*SegmentLookback*:VectorTranspose*:WarpBulkStore*:-*LargeTiles*:*MoreThanTwoToTheThirtyOne*}
mkdir -p "$out"
# Results of another filter are not this run's.
[ "$(cat "$out/filter" 2>/dev/null)" = "$filter" ] || rm -f "$out"/*.result
echo "$filter" > "$out/filter"
# The four tools run side by side (one process each): they are independent, and serially they
# overrun one 10-minute device call.
run_tool() {  # TOOL LANE: the programs whose index is LANE modulo the lanes
  local tool=$1 lane=$2 rc_all=0 i=-1
  for bin in "${programs[@]}"; do
    i=$((i + 1))
    [ $((i % lanes)) -eq "$lane" ] || continue
    exe="$build/test/$bin"
    result=$out/$tool-$bin.result
    if [ -f "$result" ]; then  # finished in an earlier run
      cat "$result"
      grep -q ': rc=0 \|: no test matches' "$result" || rc_all=1
      continue
    fi
    [ -x "$exe" ] || { echo "$tool $bin: not built"; rc_all=1; continue; }
    log="$out/$tool-$bin.log"
    # A binary none of whose tests the filter selects makes no CUDA call, which compute-sanitizer
    # reports as an error: skip it, saying so. One that cannot even list its tests fails.
    if ! listed=$("$exe" --gtest_filter="$filter" --gtest_list_tests 2>&1); then
      echo "$tool $bin: cannot list its tests: $(tail -n 1 <<< "$listed")" | tee "$log"
      rc_all=1
      continue
    fi
    if ! grep -q '^  ' <<< "$listed"; then
      echo "$tool $bin: no test matches the filter" | tee "$log" "$result"
      continue
    fi
    # ARCHSCAN_TEST_SHORT trims the size list: sanitizers are slow.
    ARCHSCAN_TEST_SHORT=1 compute-sanitizer --tool "$tool" --error-exitcode 99 \
      "$exe" --gtest_filter="$filter" --gtest_brief=1 > "$log" 2>&1
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|tests? ran|PASSED|FAILED" "$log" | tr '\n' ' ')
    echo "$tool $bin: rc=$rc $summary" | tee "$result"
    [ $rc -eq 0 ] || rc_all=1
  done
  return $rc_all
}
lanes=${ARCHSCAN_SANITIZE_LANES:-1}
[[ $lanes =~ ^[1-9][0-9]*$ ]] || { echo "sanitize.sh: ARCHSCAN_SANITIZE_LANES must be a positive number" >&2; exit 2; }
rm -f "$out"/*.summary
pids=()
for tool in "${tools[@]}"; do
  for ((lane = 0; lane < lanes; lane++)); do
    run_tool "$tool" "$lane" > "$out/$tool.$lane.summary" 2>&1 &
    pids+=($!)
  done
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for tool in "${tools[@]}"; do cat "$out/$tool".*.summary; done
exit $status
