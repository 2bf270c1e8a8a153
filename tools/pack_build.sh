#!/usr/bin/env bash
# Packs a build made on this machine for the GPU machine, so that a device call runs it instead of
# building it there (a whole sm_90 build costs ~500 s of device time; here, on 2 cores, an hour of none):
#   tools/pack_build.sh [BUILD_DIR = build/gpu] [OUT_DIR = build/carry] [PROGRAM_REGEX = .]
# Writes OUT_DIR/<build name>.tar.xz: the build's test and perf programs whose names match
# PROGRAM_REGEX, stripped (their device code stays) and with their times kept; ctest's files, with
# the test lists discovered here first (`ctest -N`: listing needs no GPU), so that ctest there does
# not run discovery again; CMakeCache.txt; libbenchmark (the GPU machine's image has none), in
# <build>/carried-lib; and a file <build>/.carried, which tools/final_run.sh reads as "run, don't
# build". Also OUT_DIR/SOURCE_DIR: the tree the build was configured in, which ctest's files name;
# tools/final_run.sh unpacks the archive there and links that path to its own tree where they differ.
# Carry OUT_DIR in the device call (the working tree and what it carries: 64 MiB at most). A build
# larger than that goes in parts: one OUT_DIR per part (build/carry-a, build/carry-b, ...), each with
# the programs its regex takes, carried by calls to one warm machine; every part holds ctest's files.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/gpu}
out=${2:-build/carry}
programs=${3:-.}
[ -f "$build/CMakeCache.txt" ] || { echo "pack_build.sh: $build is not a configured build" >&2; exit 2; }
[[ $build == build/* ]] || { echo "pack_build.sh: BUILD_DIR must be a folder under build/ (it unpacks there)" >&2; exit 2; }
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
name=$(basename "$build")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

ctest --test-dir "$build" -N > /dev/null  # discovers every test program's list (*_tests.cmake)

dest=$stage/$build
mkdir -p "$dest/carried-lib"
# ctest's files: each folder's CTestTestfile.cmake, the discovery includes and their test lists.
(cd "$build" && find . -path '*/CMakeFiles' -prune -o \( -name CTestTestfile.cmake -o -name '*_include.cmake' \
  -o -name '*_tests.cmake' \) -print) | while read -r f; do
  mkdir -p "$dest/$(dirname "$f")"
  cp -p "$build/$f" "$dest/$f"
done
cp -p "$build/CMakeCache.txt" "$dest/"
# The programs: executables in test/ and perf/ (not CMake's own scratch ones).
count=0
for exe in $(find "$build/test" "$build/perf" -maxdepth 1 -type f -perm -u+x 2>/dev/null | sort); do
  [[ $(basename "$exe") =~ $programs ]] || continue
  rel=${exe#"$build"/}
  mkdir -p "$dest/$(dirname "$rel")"
  cp -p "$exe" "$dest/$rel"
  strip --strip-unneeded "$dest/$rel"
  touch -r "$exe" "$dest/$rel"  # older than its test list, as here
  count=$((count + 1))
done
for lib in /usr/lib/x86_64-linux-gnu/libbenchmark.so.1*; do
  [ -e "$lib" ] && cp -L "$lib" "$dest/carried-lib/"
done
echo "$(git rev-parse --short HEAD)$(git status --porcelain --untracked-files=no | grep -q . && echo ' (dirty)')" \
  > "$dest/.carried"
mkdir -p "$out"
echo "$source_dir" > "$out/SOURCE_DIR"
tar -C "$stage" -cf - build | xz -6 -T2 > "$out/$name.tar.xz"
echo "pack_build.sh: $count programs of $build in $out/$name.tar.xz ($(du -h "$out/$name.tar.xz" | cut -f1)), configured in $source_dir"
