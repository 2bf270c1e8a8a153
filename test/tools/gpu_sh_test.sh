#!/usr/bin/env bash
# tools/gpu.sh without a GPU: its argument checks, the summary lines, the stamps, and the suite's resume
# after a cut-off ctest, with fake cmake, ctest, nvidia-smi and archscan-ab first on PATH (the fake ctest
# lists five tests and prints ctest's own progress lines for the ones -I or nothing selects). Run by
# ctest (test/CMakeLists.txt); needs bash, awk, timeout and python3 only.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A tree of its own (gpu.sh works in the tree it lies in, and its stamps hold that tree's hash): the
# checkout may change while this runs.
mkdir -p "$tmp/repo/tools" "$tmp/repo/include" "$tmp/repo/src"
cp "$src/tools/gpu.sh" "$src/tools/nccl_root.sh" "$tmp/repo/tools/"
echo "// a header" > "$tmp/repo/include/a.cuh"
echo "// a source" > "$tmp/repo/src/a.cpp"
gpu_sh=$tmp/repo/tools/gpu.sh
failures=0
check() {  # DESCRIPTION COMMAND...: COMMAND must succeed
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}

mkdir -p "$tmp/bin"
cat > "$tmp/bin/nvidia-smi" << 'EOF'
#!/usr/bin/env bash
echo "NVIDIA H200, 580.95.05"
EOF
cat > "$tmp/bin/cmake" << 'EOF'
#!/usr/bin/env bash
# configure: --preset gpu -B DIR ...; build: --build DIR ...
echo "cmake $*" >> "$FAKE_LOG"
if [ "$1" = --build ]; then
  echo "[1/2] Building CUDA object a.o"
  echo "[2/2] Linking CUDA executable a"
  exit "${FAKE_BUILD_RC:-0}"
fi
if [ "$1" = --workflow ]; then
  echo "archscan-ab: all cases match"
  exit "${FAKE_WORKFLOW_RC:-0}"
fi
dir=build/default  # the default preset's binaryDir
while [ $# -gt 0 ]; do [ "$1" = -B ] && dir=$2; shift; done
mkdir -p "$dir/perf"
touch "$dir/build.ninja"
printf 'CMAKE_CUDA_ARCHITECTURES:STRING=90\nCMAKE_ROOT:INTERNAL=%s\n' "$FAKE_CMAKE_ROOT" > "$dir/CMakeCache.txt"
printf '#!/bin/sh\necho "archscan-ab: all cases match"\n' > "$dir/perf/archscan-ab"
chmod +x "$dir/perf/archscan-ab"
EOF
cat > "$tmp/bin/ctest" << 'EOF'
#!/usr/bin/env bash
# Five tests; FAKE_HANG=N: test N sleeps (for a time limit to cut it).
echo "ctest $*" >> "$FAKE_LOG"
# Names with spaces, as gtest's typed tests have (test 2 fails, test 4 passes).
names=(S.Pass "S.Fail<p<t,true> >" S.Skip "P.T<p<t,false> >" a_very_long_test_name_that_goes_on_and_on_and_on_for_ever)
statuses=("   Passed" "***Failed" "***Skipped" "   Passed" "   Passed")
if [[ " $* " == *" -N "* ]]; then
  echo "Test project /fake"
  for i in 1 2 3 4 5; do printf '  Test  #%d: %s\n' "$i" "${names[i - 1]}"; done
  printf '\nTotal Tests: 5\n'
  exit 0
fi
selected="1 2 3 4 5"
while [ $# -gt 0 ]; do
  if [ "$1" = -I ]; then selected=$(echo "${2#0,0,0,}" | tr , ' '); fi
  shift
done
n=$(wc -w <<< "$selected")
k=0
for i in $selected; do
  k=$((k + 1))
  printf '      Start %2d: %s\n' "$i" "${names[i - 1]}"
  [ "${FAKE_HANG:-0}" = "$i" ] && sleep 30
  printf '%2d/%d Test #%d: %s .....................%s    0.01 sec\n' "$k" "$n" "$i" "${names[i - 1]}" \
    "${statuses[i - 1]}"
done
exit 8
EOF
chmod +x "$tmp/bin"/*
# None of the caller's settings: ctest runs this under tools/gpu.sh on the GPU machine, whose own
# ARCHSCAN_SUITE_AB, ARCHSCAN_TIME_LIMIT, ... would change what the fake runs do.
while read -r var; do unset "$var"; done < <(compgen -v ARCHSCAN_)
unset FORCE
export PATH=$tmp/bin:$PATH FAKE_LOG=$tmp/calls.log ARCHSCAN_REV=abc1234 ARCHSCAN_JOBS=4 FAKE_CMAKE_ROOT=$tmp/cmake-root
mkdir -p "$tmp/cmake-root/Modules" && echo "# gtest_discover_tests_impl" > "$tmp/cmake-root/Modules/GoogleTestAddTests.cmake"
export ARCHSCAN_BUILD_DIR=$tmp/build ARCHSCAN_WORK=$tmp/work ARCHSCAN_OUT=$tmp/out

# Arguments.
"$gpu_sh" > "$tmp/o" 2>&1
check "no step: exit 2" [ $? -eq 2 ]
"$gpu_sh" build nonsense > "$tmp/o" 2>&1
check "an unknown step: exit 2, named" [ $? -eq 2 ]
check "an unknown step is named" grep -q "unknown step 'nonsense'" "$tmp/o"
check "an unknown step runs nothing" [ ! -e "$FAKE_LOG" ]
ARCHSCAN_STEP_TIMEOUT=ten "$gpu_sh" build > "$tmp/o" 2>&1
check "a time limit that is no number: exit 2" [ $? -eq 2 ]

# readme: the README's test build, then its main job; one summary line with both.
"$gpu_sh" readme > "$tmp/o" 2>&1
check "readme: exit 0" [ $? -eq 0 ]
check "readme: the test command's configure, build, then the ab workflow, in order" \
  diff <(grep -e '--preset' "$FAKE_LOG") <(printf '%s\n' 'cmake --preset default' 'cmake --build --preset tests' \
    'cmake --workflow --preset ab')
check "readme: both timed in its summary line" grep -qE "rc 0 in [0-9]+ s \(\[2/2\]\); cmake --workflow --preset ab: rc 0 in" \
  <(tail -n 1 "$tmp/o")
FAKE_BUILD_RC=1 FORCE=1 "$gpu_sh" readme > "$tmp/o" 2>&1
check "readme: a failed test build fails the step" [ $? -eq 1 ]
check "readme: a failed test build runs no ab workflow" [ "$(grep -c -e '--workflow' "$FAKE_LOG")" -eq 1 ]
rm -rf "$FAKE_LOG" "$tmp/out" "$tmp/work/readme"

# build: configures, builds, one summary line last, a stamp; a second run skips it.
"$gpu_sh" build > "$tmp/o" 2>&1
check "build: exit 0" [ $? -eq 0 ]
line='^gpu\.sh build: NVIDIA H200 \(driver 580\.95\.05\), rev abc1234: .* built for CUDA architectures 90 with 4 jobs'
check "build: the summary line" \
  grep -qE "$line"' \(\[2/2\]\), CCCL from the toolkit \([0-9]+ s\)$' <(tail -n 1 "$tmp/o")
check "build: configured with the gpu preset" grep -q "^cmake --preset gpu -B $tmp/build" "$FAKE_LOG"
check "build: one archive in ARCHSCAN_OUT" [ -f "$tmp/out/build.tar.gz" ]
check "build: one line in ARCHSCAN_OUT/summary.txt" [ "$(wc -l < "$tmp/out/summary.txt")" -eq 1 ]
"$gpu_sh" build > "$tmp/o" 2>&1
check "build again: stamped, nothing run" grep -q 'stamped: done on this tree before' <(tail -n 1 "$tmp/o")
check "build again: cmake not called again" [ "$(grep -c '^cmake --build' "$FAKE_LOG")" -eq 1 ]
FORCE=1 "$gpu_sh" build > "$tmp/o" 2>&1
check "FORCE=1: built again" [ "$(grep -c '^cmake --build' "$FAKE_LOG")" -eq 2 ]
echo "// changed" >> "$tmp/repo/include/a.cuh"
"$gpu_sh" build > "$tmp/o" 2>&1
check "a changed header: built again" [ "$(grep -c '^cmake --build' "$FAKE_LOG")" -eq 3 ]
echo "// changed" >> "$tmp/repo/src/a.cpp"
"$gpu_sh" build > "$tmp/o" 2>&1
check "a changed source: built again" [ "$(grep -c '^cmake --build' "$FAKE_LOG")" -eq 4 ]
ARCHSCAN_PRESET=default "$gpu_sh" build > "$tmp/o" 2>&1
check "ARCHSCAN_PRESET=default: configured with the README's preset, not the stamped build" \
  grep -q "^cmake --preset default -B $tmp/build" "$FAKE_LOG"
check "ARCHSCAN_PRESET=default: built, not taken for the gpu preset's stamp" \
  [ "$(grep -c '^cmake --build' "$FAKE_LOG")" -eq 5 ]
FAKE_BUILD_RC=1 FORCE=1 "$gpu_sh" build > "$tmp/o" 2>&1
check "a failed build: exit 1" [ $? -eq 1 ]
check "a failed build: FAILED in its summary" grep -q 'build FAILED after \[2/2\]' <(tail -n 1 "$tmp/o")
check "a failed build leaves no stamp" [ ! -f "$tmp/work/build/.stamp" ]

# suite, cut off at test 4 by the step's time limit, then resumed: only tests 4 and 5 run the second time.
FAKE_HANG=4 ARCHSCAN_STEP_TIMEOUT=3 "$gpu_sh" suite > "$tmp/o" 2>&1
check "a cut suite: exit 1" [ $? -eq 1 ]
line=': 5 tests, 1 passed, 1 failed, 1 skipped, 2 not run yet \(cut at the time limit after 3; a rerun resumes\)'
check "a cut suite: its summary counts what ran" grep -qE "$line"' \([0-9]+ s\)$' <(tail -n 1 "$tmp/o")
check "a cut suite leaves no stamp" [ ! -f "$tmp/work/suite/.stamp" ]
: > "$FAKE_LOG"
"$gpu_sh" suite > "$tmp/o" 2>&1
check "the resumed suite: exit 1 (one test failed)" [ $? -eq 1 ]
check "the resumed suite runs tests 4 and 5 alone" \
  grep -q -- '-I 0,0,0,4,5$' <(grep -v -- ' -N' "$FAKE_LOG" | grep '^ctest')
check "the resumed suite: every test counted once" \
  grep -qE ': 5 tests, 3 passed, 1 failed, 1 skipped; archscan-ab rc 0 \([0-9]+ s\)$' <(tail -n 1 "$tmp/o")
check "the resumed suite names the failed test, spaces and all" grep -qxF 'failed: S.Fail<p<t,true> >' "$tmp/o"
"$gpu_sh" suite > "$tmp/o" 2>&1
check "the finished suite is stamped" grep -q 'stamped: done on this tree before' <(tail -n 1 "$tmp/o")
"$gpu_sh" suite > /dev/null 2>&1
check "a stamped suite with a failed test still exits 1" [ $? -eq 1 ]
check "a stamped suite runs no ctest" [ "$(grep -c '^ctest' "$FAKE_LOG")" -eq 2 ]
: > "$FAKE_LOG"
FORCE=1 "$gpu_sh" suite > /dev/null 2>&1
check "FORCE=1: the whole suite again" grep -q '^ctest --test-dir .* --timeout 600$' "$FAKE_LOG"
: > "$FAKE_LOG"
ARCHSCAN_RERUN_FAILED=1 "$gpu_sh" suite > "$tmp/o" 2>&1
check "ARCHSCAN_RERUN_FAILED=1 on a stamped suite: the failed test alone" grep -q -- '-I 0,0,0,2$' "$FAKE_LOG"
check "ARCHSCAN_RERUN_FAILED=1: still 5 tests, counted once" \
  grep -qE ': 5 tests, 3 passed, 1 failed, 1 skipped;' <(tail -n 1 "$tmp/o")
ARCHSCAN_LABELS='^gpu' "$gpu_sh" suite > "$tmp/o" 2>&1
check "another label: not the stamped suite" grep -q -- "-L ^gpu" "$FAKE_LOG"

# pack on this machine, then the suite from its archive on a fresh one: nothing built, the programs unpacked.
: > "$FAKE_LOG"
mkdir -p "$tmp/build/test/CMakeFiles"
printf '#!/bin/sh\n' > "$tmp/build/test/a_test" && chmod +x "$tmp/build/test/a_test"
echo "an object" > "$tmp/build/test/CMakeFiles/a.o"
# ctest's file names the packing machine's Python by absolute path, which the GPU machine may lack.
echo 'add_test([=[a_tool]=] "/packing/bin/python3" "a_tool.py")' > "$tmp/build/test/CTestTestfile.cmake"
echo '_Python3_EXECUTABLE:INTERNAL=/packing/bin/python3' >> "$tmp/build/CMakeCache.txt"
# gtest's discovery script names this machine's CMake module by absolute path.
echo 'include("/packing/cmake/Modules/GoogleTestAddTests.cmake")' > "$tmp/build/test/a_test[1]_include.cmake"
ARCHSCAN_PREBUILT=$tmp/prebuilt.tar.xz "$gpu_sh" pack > "$tmp/o" 2>&1
check "pack: exit 0" [ $? -eq 0 ]
check "pack: builds the test programs" grep -q '^cmake --build .* --target archscan-tests' "$FAKE_LOG"
tar -tJf "$tmp/prebuilt.tar.xz" > "$tmp/packed" 2> /dev/null
check "pack: the programs" grep -qxF ./test/a_test "$tmp/packed"
check "pack: ctest's files" grep -qxF ./test/CTestTestfile.cmake "$tmp/packed"
check "pack: CMake's gtest discovery module" grep -qxF ./GoogleTestAddTests.cmake "$tmp/packed"
check "pack: no objects, no build files" [ "$(grep -c -e 'CMakeFiles' -e 'build.ninja' "$tmp/packed")" -eq 0 ]
check "pack: its summary names the archive's size" grep -qE 'packed into .*prebuilt.tar.xz: 0 MiB' <(tail -n 1 "$tmp/o")
rm -rf "$tmp/build"
: > "$FAKE_LOG"
ARCHSCAN_PREBUILT=$tmp/prebuilt.tar.xz "$gpu_sh" suite > "$tmp/o" 2>&1
check "suite from the archive: nothing configured or built" [ "$(grep -c '^cmake' "$FAKE_LOG")" -eq 0 ]
check "suite from the archive: the programs unpacked" [ -x "$tmp/build/test/a_test" ]
check "suite from the archive: discovery includes the carried module" \
  grep -qF "include(\"$(realpath "$tmp/build")/GoogleTestAddTests.cmake\")" "$tmp/build/test/a_test[1]_include.cmake"
check "suite from the archive: the tools' tests run this machine's python3" \
  grep -qF "add_test([=[a_tool]=] \"$(command -v python3)\" \"a_tool.py\")" "$tmp/build/test/CTestTestfile.cmake"
check "suite from the archive: the tests ran" grep -qE ': 5 tests, 3 passed, 1 failed, 1 skipped;' <(tail -n 1 "$tmp/o")
ARCHSCAN_PREBUILT=$tmp/missing.tar.xz ARCHSCAN_BUILD_DIR=$tmp/build2 "$gpu_sh" suite > "$tmp/o" 2>&1
check "a missing archive: exit 1, said" grep -q 'could not unpack ARCHSCAN_PREBUILT' <(tail -n 1 "$tmp/o")
echo "// changed after the pack" >> "$tmp/repo/include/a.cuh"
ARCHSCAN_PREBUILT=$tmp/prebuilt.tar.xz ARCHSCAN_BUILD_DIR=$tmp/build3 "$gpu_sh" suite > "$tmp/o" 2>&1
check "programs packed from other sources: refused" grep -q 'built from other sources' <(tail -n 1 "$tmp/o")
check "programs packed from other sources: no test run" [ ! -f "$tmp/work/suite/results.txt" ] ||
  [ "$(grep -c . "$tmp/work/suite/results.txt")" -eq 0 ]

# The whole command's time limit: a step with no time left is not started.
ARCHSCAN_TIME_LIMIT=10 FORCE=1 "$gpu_sh" build suite > "$tmp/o" 2>&1
check "ARCHSCAN_TIME_LIMIT=10 leaves no time: not started" \
  grep -q 'suite: .*not started: ARCHSCAN_TIME_LIMIT=10 s is spent' <(tail -n 1 "$tmp/o")
check "ARCHSCAN_TIME_LIMIT: one summary line a step" [ "$(grep -c '^gpu\.sh ' "$tmp/o")" -eq 2 ]

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
