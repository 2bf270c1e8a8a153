#pragma once
//! \file Reads the facts of the current device that dispatch decisions depend on.

#include <archscan/detail/error.cuh>
#include <archscan/detail/problem.cuh>

namespace archscan::detail {

inline device_facts current_device_facts() {
  device_facts f;
  throw_on_error(cudaGetDevice(&f.device), "archscan: cudaGetDevice");
  auto attr = [&](int& v, cudaDeviceAttr a) {
    throw_on_error(cudaDeviceGetAttribute(&v, a, f.device), "archscan: cudaDeviceGetAttribute");
  };
  attr(f.sm_count, cudaDevAttrMultiProcessorCount);
  attr(f.cc_major, cudaDevAttrComputeCapabilityMajor);
  attr(f.cc_minor, cudaDevAttrComputeCapabilityMinor);
  attr(f.max_smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin);
  attr(f.smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  attr(f.max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor);
  attr(f.regs_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor);
  return f;
}

}  // namespace archscan::detail
