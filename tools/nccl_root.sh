#!/usr/bin/env bash
# Prints where NCCL (include/nccl.h, lib/libnccl.so*) is: NCCL_ROOT if set, the CUDA toolkit if it
# ships NCCL, else the `nvidia-nccl-cu13` Python package (the GPU machines' image has it). Prints
# nothing and exits 1 where none is found. CMake reads NCCL_ROOT (cmake/archscan_find_nccl.cmake):
#   export NCCL_ROOT=$(tools/nccl_root.sh)
if [ -n "${NCCL_ROOT:-}" ]; then echo "$NCCL_ROOT"; exit 0; fi
cuda=$(dirname "$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")")
if [ -f "$cuda/include/nccl.h" ]; then echo "$cuda"; exit 0; fi
py=$(python3 -c 'import importlib.util as u; s = u.find_spec("nvidia.nccl"); print(s.submodule_search_locations[0])' 2>/dev/null)
if [ -n "$py" ] && [ -f "$py/include/nccl.h" ]; then echo "$py"; exit 0; fi
exit 1
