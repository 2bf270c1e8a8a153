#!/usr/bin/env bash
# Packaging check (no GPU needed): builds archscan without tests and benchmarks, installs it into a
# prefix, then configures and builds test/consumer (compile and link only; nothing is run) against
# that prefix with find_package(archscan CONFIG REQUIRED), and once more asking for version 0.1.
# Everything lands in build/consumer-*, cleared first. Prints "consumer check: ok" last, or exits
# non-zero. CCCL_DIR in the environment is passed to both builds; CUDAARCHS defaults to 75.
#   tools/consumer_check.sh
#   CCCL_DIR="$(tools/fetch_cccl.sh)" tools/consumer_check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

build=$root/build/consumer-archscan
prefix=$root/build/consumer-prefix
app=$root/build/consumer-app
probe=$root/build/consumer-version
export CUDAARCHS=${CUDAARCHS:-75}
cccl=()
[ -z "${CCCL_DIR:-}" ] || cccl=("-DCCCL_DIR=$CCCL_DIR")

fail() { echo "consumer check: FAILED: $*" >&2; exit 1; }
step() { echo "== consumer check: $*"; }

rm -rf "$build" "$prefix" "$app" "$probe"

step "archscan: configure, build, install into build/consumer-prefix (CUDAARCHS=$CUDAARCHS)"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DARCHSCAN_BUILD_TESTS=OFF -DARCHSCAN_BUILD_PERF=OFF "${cccl[@]}"
cmake --build "$build"
cmake --install "$build" --prefix "$prefix"

# The package: config, version file and targets next to each other (lib or lib64, per GNUInstallDirs).
config=$(find "$prefix" -path '*/cmake/archscan/archscan-config.cmake' -print -quit)
[ -n "$config" ] || fail "no archscan-config.cmake under $prefix"
pkg=$(dirname "$config")
for f in archscan-config-version.cmake archscan-targets.cmake; do
  [ -f "$pkg/$f" ] || fail "$f was not installed next to archscan-config.cmake ($pkg)"
done
# The exported target leaves flags, definitions and architectures to the consumer.
if grep -nE 'INTERFACE_COMPILE_OPTIONS|INTERFACE_COMPILE_DEFINITIONS|INTERFACE_LINK_OPTIONS|CUDA_ARCHITECTURES' \
    "$pkg"/archscan-targets*.cmake; then
  fail "the installed archscan targets carry compile/link options or CUDA architectures (above)"
fi

step "consumer: find_package(archscan CONFIG REQUIRED), build app (compile and link only)"
cmake -S "$root/test/consumer" -B "$app" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" "${cccl[@]}"
cmake --build "$app"
[ -x "$app/app" ] || fail "the consumer's app was not linked"
if [ -n "${CCCL_DIR:-}" ]; then
  found=$(sed -n 's/^CCCL_DIR:[A-Z]*=//p' "$app/CMakeCache.txt")
  [ "$(realpath "$found")" = "$(realpath "$CCCL_DIR")" ] \
    || fail "the consumer found CCCL in $found, not in CCCL_DIR=$CCCL_DIR"
fi

step "consumer: find_package(archscan 0.1 CONFIG REQUIRED) (configure only)"
cmake -S "$root/test/consumer" -B "$probe" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DARCHSCAN_CONSUMER_VERSION=0.1 "${cccl[@]}" >"$probe.log" 2>&1 \
  || { cat "$probe.log" >&2; fail "find_package(archscan 0.1) failed"; }
grep -q "archscan 0\.1\.[0-9]* from $pkg" "$probe.log" \
  || { cat "$probe.log" >&2; fail "find_package(archscan 0.1) did not find the installed package"; }

# SameMinorVersion: 0.x minors are not promised to be compatible, so 0.0 must be refused.
rm -rf "$probe"
if cmake -S "$root/test/consumer" -B "$probe" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DARCHSCAN_CONSUMER_VERSION=0.0 "${cccl[@]}" >"$probe.log" 2>&1; then
  fail "find_package(archscan 0.0) accepted archscan 0.1 (version file not SameMinorVersion?)"
fi
grep -q 'compatible with requested version' "$probe.log" \
  || { cat "$probe.log" >&2; fail "find_package(archscan 0.0) failed for another reason than the version"; }

echo "consumer check: ok"
