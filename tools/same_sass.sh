#!/usr/bin/env bash
# Whether the working tree compiles to the same machine code as a committed revision: the gate, on a
# machine without a GPU, for a change that must not change what runs (a refactor, a header split,
# comments). The same SASS runs the same way, so such a change needs no new GPU run; any kernel whose
# code moved needs one (CONTRIBUTING.md: GPU workflow).
#
#   tools/same_sass.sh [--renames] [REV] [ARCH...]     REV: default HEAD; ARCH: default 75 90
#
# --renames: for a change that renames kernels (their template arguments) but must not change their
# code: a kernel on one side only passes where the other side has one of the same code
# (tools/sass_kernels.py --renames, whose docstring lists what that cannot see).
#
# Compiles test/compile/public_api.cu (every overload, every policy form) and
# test/compile/every_route.cu (every family's routes over the value widths and scan forms) for each
# ARCH, once in REV's tree (tools/export_rev.sh; its dumps are kept in build/same-sass/, so a second
# gate against the same REV compiles only the working tree) and once here, and compares each kernel's SASS
# (tools/sass_kernels.py; anonymous namespaces' names, which differ between any two compiles, set
# aside). A unit newer than REV is compiled from this tree's copy against REV's headers.
# cuobjdump and nvdisasm come from PATH, else from PyPI's nvidia-cuda-cuobjdump and
# nvidia-cuda-nvdisasm wheels into .sass-tools/ (git-ignored). About 3-5 minutes a unit and arch on
# one core; two compiles run at once (~16 minutes on 2 cores, ~12 against a REV
# already dumped).
# Exit status: 0 every kernel the same; 1 some kernel differs (listed); 2 a build or tool failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

renames=()
if [ "${1:-}" = --renames ]; then
  renames=(--renames)
  shift
fi
rev=${1:-HEAD}
shift || true
archs=("$@")
for a in "$rev" "${archs[@]}"; do
  [[ $a != -* ]] || { echo "same_sass: options come first: $a" >&2; exit 2; }
done
[ ${#archs[@]} -gt 0 ] || archs=(75 90)
units=(test/compile/public_api.cu test/compile/every_route.cu)
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}

tools_dir=$root/.sass-tools
if ! command -v cuobjdump >/dev/null || ! command -v nvdisasm >/dev/null; then
  if [ ! -x "$tools_dir/nvidia/cu13/bin/cuobjdump" ] || [ ! -x "$tools_dir/nvidia/cu13/bin/nvdisasm" ]; then
    tmp=$(mktemp -d)
    python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm >&2 ||
      { echo "same_sass: cannot fetch cuobjdump and nvdisasm" >&2; exit 2; }
    mkdir -p "$tools_dir"
    for w in "$tmp"/*.whl; do python3 -m zipfile -e "$w" "$tools_dir"; done
    chmod +x "$tools_dir"/nvidia/cu13/bin/*
    rm -rf "$tmp"
  fi
  export PATH=$tools_dir/nvidia/cu13/bin:$PATH
fi

old_tree=$(tools/export_rev.sh "$rev") || exit 2
old_tree=$root/$old_tree
# REV's dumps are kept (a commit compiles the same with the same nvcc); the working tree's are redone.
new_dump=$root/build/same-sass/working-tree
old_dump=$root/build/same-sass/$(basename "$old_tree")-$("$nvcc" --version | tail -n 1 | tr -c 'A-Za-z0-9.\n' '_')
mkdir -p "$new_dump" "$old_dump"

# One unit for one arch in one tree, dumped as SASS: tree unit arch out.sass
compile_dump() {
  local tree=$1 unit=$2 arch=$3 out=$4
  [ -s "$out" ] && return 0
  local src=$tree/$unit
  [ -f "$src" ] || src=$root/$unit  # a unit newer than REV: this tree's copy against REV's headers
  local obj=${out%.sass}.o
  "$nvcc" -std=c++17 -O3 -DNDEBUG --extended-lambda -arch="sm_$arch" -I "$tree/include" -c "$src" -o "$obj" \
    > "$out.log" 2>&1 || { cat "$out.log" >&2; echo "same_sass: $src for sm_$arch failed to compile" >&2; return 1; }
  cuobjdump -sass "$obj" > "$out.tmp" && mv "$out.tmp" "$out"
  rm -f "$obj" "$out.log"
}

# Every dump still missing, two compiles at a time.
tasks=()
for unit in "${units[@]}"; do
  for arch in "${archs[@]}"; do
    name=$(basename "$unit" .cu)_sm$arch.sass
    rm -f "$new_dump/$name"
    [ -s "$old_dump/$name" ] || tasks+=("$old_tree|$unit|$arch|$old_dump/$name")
    tasks+=("$root|$unit|$arch|$new_dump/$name")
  done
done
running=0
for t in "${tasks[@]}"; do
  IFS='|' read -r tree unit arch out <<< "$t"
  compile_dump "$tree" "$unit" "$arch" "$out" &
  running=$((running + 1))
  if [ $running -ge 2 ]; then
    wait -n || exit 2
    running=$((running - 1))
  fi
done
while [ $running -gt 0 ]; do
  wait -n || exit 2
  running=$((running - 1))
done

status=0
for unit in "${units[@]}"; do
  for arch in "${archs[@]}"; do
    name=$(basename "$unit" .cu)_sm$arch.sass
    echo "$unit, sm_$arch, $(git log -1 --format=%h "$rev") -> working tree:"
    tools/sass_kernels.py ${renames[@]+"${renames[@]}"} "$old_dump/$name" "$new_dump/$name" || { rc=$?; [ $rc -eq 1 ] || exit 2; status=1; }
  done
done
if [ $status -eq 0 ]; then
  echo "same_sass: SAME: every kernel's SASS is unchanged"
else
  echo "same_sass: DIFFERENT: the kernels above changed"
fi
exit $status
