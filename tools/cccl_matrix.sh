#!/usr/bin/env bash
# Compiles every scan-family overload with every policy form (tools/check_warnings.sh) against each
# given release of PyPI's nvidia-cuda-cccl, or against every release listed there: a quick check,
# without a GPU, that archscan builds warning-free across the whole CCCL range. One line per release.
#   tools/cccl_matrix.sh [WHEEL_VERSION...]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
versions=("$@")
if [ ${#versions[@]} -eq 0 ]; then
  list=$(python3 -m pip index versions nvidia-cuda-cccl 2>/dev/null | sed -n 's/^Available versions: //p')
  [ -n "$list" ] || { echo "cccl_matrix: cannot list nvidia-cuda-cccl versions" >&2; exit 2; }
  IFS=', ' read -r -a versions <<< "$list"
fi
failed=0
for v in "${versions[@]}"; do
  [ -n "$v" ] || continue
  if ! dir=$(tools/fetch_cccl.sh "$v" 2>/dev/null); then
    echo "$v: fetch failed"; failed=1; continue
  fi
  if line=$(tools/check_warnings.sh "$dir" 2>&1); then
    echo "$v: $(tail -n 1 <<< "$line")"
  else
    echo "$v: FAILED"; tail -n 20 <<< "$line"; failed=1
  fi
done
exit $failed
