#!/usr/bin/env bash
# Fails when archscan's headers warn, with the nvcc of CUDACXX (default: the toolkit's; tools/fetch_cuda.sh
# prints the newest) against the CCCL of CCCL_DIR (a CMake package folder, as tools/fetch_cccl.sh prints)
# or the compiler's own. Three checks:
#   1. every header under include/archscan/ declares itself a system header (the block after its
#      `#pragma once`), as CCCL's do: a user's build then shows no warning from inside archscan, as it
#      shows none from inside Thrust;
#   2. archscan's own code is warning-free: test/compile/public_api.cu (every overload, every policy
#      form; public_api_nccl.cu too, across ranks, where NCCL is found) compiled with host and device
#      warnings on and ARCHSCAN_NO_SYSTEM_HEADER defined, which turns check 1's block off; any warning
#      located in include/archscan/ fails;
#   3. a user's view: test/compile/deprecated_api.cu (every functor and iterator CCCL deprecates but
#      accepts, under every archscan policy) compiled as a user does, and its reference build (the same
#      calls under thrust::cuda::par); any warning location of archscan's build that the reference's
#      lacks fails.
#   tools/check_warnings.sh [CCCL_DIR]
# ARCHSCAN_WARNINGS_ARCH sets check 2's -arch (default sm_75: ptxas runs, so its warnings count too);
# ARCHSCAN_WARNINGS_SYNTAX_ONLY=1 stops check 2's device code after the front end (-fdevice-syntax-only:
# the front end's warnings, deprecations among them, but none of code generation's). Check 3 always
# stops there (deprecation is the front end's warning), for compute_90, and
# ARCHSCAN_WARNINGS_USER_VIEW=0 leaves it out (CI does against a CCCL that deprecates none of its
# functors and iterators).
set -euo pipefail
cd "$(dirname "$0")/.."
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
includes=(-I include)
if [ -n "${1:-}" ]; then
  # <prefix>/lib/cmake/cccl -> <prefix>/include/cccl (the wheel's layout, linked by tools/fetch_cccl.sh)
  includes+=(-I "$1/../../../include/cccl")
fi
version=$(printf '#include <cuda/version>\nCCCL_VERSION\n' | "$nvcc" -E -x c++ "${includes[@]}" - 2>/dev/null | tail -n 1) ||
  { echo "check_warnings: cannot preprocess <cuda/version> with $nvcc ${includes[*]}" >&2; exit 1; }
against="CCCL $version, $("$nvcc" --version | sed -n 's/^Cuda compilation tools, //p')"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
warn_flags=(-std=c++17 "-Xcompiler=-Wall,-Wextra" -Xcudafe=--display_error_number)
# Each check's compiles run side by side (one core each: CI's machine has two), each into its own log.
started=()
compile() {  # compile LOG SOURCE FLAGS...: starts the compile, its output into LOG
  local log=$1 src=$2
  shift 2
  { "$nvcc" "${warn_flags[@]}" "$@" -c "$src" -o /dev/null >"$log" 2>&1 || { echo "check_warnings: $src: compile failed" >>"$log"; exit 1; }; } &
  started+=("$!:$log")
}
finish() {  # waits for the compiles started; a failed one prints its log and fails the check
  local job status=0
  for job in "${started[@]}"; do
    wait "${job%%:*}" || { cat "${job#*:}"; status=1; }
  done
  started=()
  [ "$status" -eq 0 ] || exit 1
}

# 1. The system-header block in every header.
missing=()
while IFS= read -r header; do
  [ "$(sed -n 2,4p "$header")" = "$(printf '%s\n' '#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)' \
    '#pragma GCC system_header' '#endif')" ] || missing+=("$header")
done < <(find include/archscan -name '*.cuh' | sort)
if [ ${#missing[@]} -gt 0 ]; then
  printf '%s\n' "${missing[@]}"
  echo "check_warnings: these headers lack the system-header block after their #pragma once"
  exit 1
fi

# 2. archscan's own code.
own=$tmp/own.log
sources=(test/compile/public_api.cu)
own_includes=("${includes[@]}")
# The scan across ranks where NCCL is found (tools/nccl_root.sh).
if nccl=$(tools/nccl_root.sh); then
  sources+=(test/compile/public_api_nccl.cu)
  # After the compiler's own headers: NCCL may sit in another toolkit's include/ (the toolkit's own).
  own_includes+=(-isystem "$nccl/include")
fi
own_device=(-arch="${ARCHSCAN_WARNINGS_ARCH:-sm_75}")
[ "${ARCHSCAN_WARNINGS_SYNTAX_ONLY:-0}" = 0 ] || own_device+=(-fdevice-syntax-only)
for src in "${sources[@]}"; do
  compile "$tmp/own_$(basename "$src").log" "$src" "${own_device[@]}" -DARCHSCAN_NO_SYSTEM_HEADER "${own_includes[@]}"
done
finish
cat "$tmp"/own_*.log >"$own"
# One grep, not a pipe into grep -q: under pipefail the first grep's SIGPIPE would hide a match.
if grep -qi "include/archscan/.*warning" "$own"; then
  grep -i -A2 "include/archscan/.*warning" "$own"
  echo "check_warnings: archscan's headers warn against $against"
  exit 1
fi
echo "check_warnings: no warning from include/archscan/ against $against ($(grep -ci warning "$own" || true) elsewhere)"

# 3. A user's view: no warning that Thrust's own path does not give.
[ "${ARCHSCAN_WARNINGS_USER_VIEW:-1}" != 0 ] || exit 0
src=test/compile/deprecated_api.cu
compile "$tmp/reference.log" "$src" -arch=compute_90 -fdevice-syntax-only -DARCHSCAN_DEPRECATED_REFERENCE "${includes[@]}"
compile "$tmp/archscan.log" "$src" -arch=compute_90 -fdevice-syntax-only "${includes[@]}"
finish
# A warning's location and kind: "file(line): warning #N-D" (the front ends) or "file:line:col: warning"
# with its [-W...] flag (the host compiler); any other line that mentions a warning, whole (gcc's
# quoted source lines left out).
locations() {
  { grep -i 'warning' "$1" || true; } | { grep -v '^ *[0-9]* |' || true; } |
    sed -e 's/^\([^ ]*([0-9]*): warning #[0-9]*-D\).*/\1/' -e t \
      -e 's/^\([^ ]*:[0-9]*:[0-9]*: warning\):.*\(\[-W[^]]*\]\)$/\1 \2/' | sort -u
}
locations "$tmp/reference.log" >"$tmp/reference.txt"
locations "$tmp/archscan.log" >"$tmp/archscan.txt"
extra=$(comm -13 "$tmp/reference.txt" "$tmp/archscan.txt")
if [ -n "$extra" ]; then
  echo "$extra"
  grep -i -m 20 -A2 'include/archscan/.*warning' "$tmp/archscan.log" || true
  echo "check_warnings: $src: archscan's policies warn where thrust::cuda::par does not" \
    "($(grep -ci 'warning' "$tmp/archscan.log") warning lines) against $against"
  exit 1
fi
echo "check_warnings: $src: no warning beyond thrust::cuda::par's against $against" \
  "(the reference's $(wc -l <"$tmp/reference.txt") warning locations, none more)"
