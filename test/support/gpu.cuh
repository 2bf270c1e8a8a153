#pragma once
// What every GPU test shares: skipping where no GPU is usable, checked CUDA calls.

#include <string>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

namespace archscan::test {

//! Empty when a CUDA device is usable, else the reason it is not.
inline std::string gpu_unavailable_reason() {
  int count           = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return std::string("no usable CUDA device (cudaGetDeviceCount: ") + cudaGetErrorString(e) + ")";
  }
  if (count == 0) return "no CUDA device";
  return {};
}

inline bool gpu_available() { return gpu_unavailable_reason().empty(); }

}  // namespace archscan::test

//! First statement of every GPU test: reports the test as skipped, with the reason, where no GPU is usable.
#define ARCHSCAN_REQUIRE_GPU()                                                      \
  do {                                                                              \
    const std::string archscan_reason = ::archscan::test::gpu_unavailable_reason(); \
    if (!archscan_reason.empty()) GTEST_SKIP() << archscan_reason;                  \
  } while (0)

#define ARCHSCAN_CUDA_OK(call) ASSERT_EQ(cudaSuccess, (call)) << #call << ": " << cudaGetErrorString(cudaGetLastError())
