#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Reads the facts of the current device that dispatch decisions depend on.

#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

#include <archscan/detail/error.cuh>

namespace archscan::detail {

//! Device facts a dispatch reads once per call (cheap attribute queries, no synchronization).
struct device_facts {
  int device              = 0;
  int sm_count            = 1;
  int cc_major            = 7;
  int max_smem_optin      = 48 * 1024;  //!< dynamic shared memory a block may opt into
  int smem_per_sm         = 64 * 1024;
  bool cooperative_launch = false;  //!< the device can run a grid whose blocks are all resident at once
  int memory_gbps         = 0;      //!< the memory's peak bandwidth, GB/s (clock x bus width, both edges)
};

inline device_facts read_device_facts(int device) {
  device_facts f;
  f.device  = device;
  auto attr = [&](int& v, cudaDeviceAttr a) {
    throw_on_error(cudaDeviceGetAttribute(&v, a, device), "archscan: cudaDeviceGetAttribute");
  };
  attr(f.sm_count, cudaDevAttrMultiProcessorCount);
  attr(f.cc_major, cudaDevAttrComputeCapabilityMajor);
  attr(f.max_smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin);
  attr(f.smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  int cooperative = 0;
  attr(cooperative, cudaDevAttrCooperativeLaunch);
  f.cooperative_launch = cooperative != 0;
  int memory_khz = 0, bus_bits = 0;
  attr(memory_khz, cudaDevAttrMemoryClockRate);
  attr(bus_bits, cudaDevAttrGlobalMemoryBusWidth);
  f.memory_gbps = static_cast<int>(2.0 * memory_khz * 1e3 * (bus_bits / 8) / 1e9);
  return f;
}

//! The current device's facts, read once per device and process (they cannot change while it runs):
//! a scan call then costs one cudaGetDevice here, not six attribute queries.
inline device_facts current_device_facts() {
  int device = 0;
  throw_on_error(cudaGetDevice(&device), "archscan: cudaGetDevice");
  static std::mutex m;
  static std::vector<std::pair<bool, device_facts>> cache;
  std::lock_guard<std::mutex> lock(m);
  if (cache.size() <= static_cast<std::size_t>(device)) cache.resize(static_cast<std::size_t>(device) + 1);
  if (!cache[device].first) cache[device] = {true, read_device_facts(device)};
  return cache[device].second;
}

}  // namespace archscan::detail
