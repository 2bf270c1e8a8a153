#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Error reporting: every CUDA status becomes a `thrust::system_error`, as in Thrust's CUDA backend.

#include <thrust/system/cuda/error.h>
#include <thrust/system_error.h>

#include <cuda_runtime_api.h>

namespace archscan::detail {

inline void throw_on_error(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear a non-sticky error so that the next call starts clean
    throw thrust::system_error(status, thrust::cuda_category(), what);
  }
}

//! Checks the launch just made (configuration errors surface here, not at the next sync).
inline void throw_on_launch_error(const char* kernel) { throw_on_error(cudaPeekAtLastError(), kernel); }

}  // namespace archscan::detail
