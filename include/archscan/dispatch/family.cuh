#pragma once
//! \file The contract between dispatch/scan.cuh and a kernel family.
//!
//! A family `F` (a tag in tuning.cuh) specializes `family_dispatch<F>` with
//!
//!   template <class Tuning, class Problem>
//!   static std::size_t temp_bytes(const Problem&, const detail::device_facts&);   // pure host arithmetic
//!
//!   template <class Tuning, class Problem>
//!   static void launch(const Problem&, void* d_temp, std::size_t temp_bytes,
//!                      const detail::device_facts&, cudaStream_t);               // enqueue only
//!
//! `launch` enqueues its kernels on the stream, checks every launch (detail::throw_on_launch_error)
//! and never synchronizes. `Problem` is a detail::scan_problem with n > 0. `d_temp` holds
//! `temp_bytes` bytes of uninitialized, 256-byte-aligned device memory (nullptr when 0 bytes).

#include <cstddef>
#include <cstdint>
#include <string>

#include <archscan/detail/device.cuh>
#include <archscan/detail/error.cuh>
#include <archscan/detail/problem.cuh>

namespace archscan::dispatch {

template <class Family>
struct family_dispatch;

//! The look-back delay of a launch: `delay_ns` when more tiles than one wave of resident blocks
//! (`resident_blocks` on the whole device) queue behind each other, else 0: within one wave the
//! delay only adds latency (measured, perf/NOTES.md). Shared by the kepler and turing dispatches.
constexpr unsigned lookback_delay(std::int64_t tiles, std::int64_t resident_blocks, unsigned delay_ns) {
  return tiles > resident_blocks ? delay_ns : 0u;
}

//! Lets kernel `k` take `smem` bytes of dynamic shared memory where that is more than the 48 KiB every
//! block may use without asking (an explicit opt-in since Volta; Turing Tuning Guide 4.3.1). Throws
//! `thrust::system_error` when the device cannot give a block that much. `family` names the caller
//! in the message.
template <class Kernel>
void opt_in_dynamic_smem(Kernel k, int smem, const detail::device_facts& facts, const char* family) {
  if (smem <= 48 * 1024) return;
  const std::string who(family);
  if (smem > facts.max_smem_optin) {
    detail::throw_on_error(cudaErrorInvalidConfiguration,
                           (who + ": accumulator too large for a block's shared memory").c_str());
  }
  detail::throw_on_error(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
                         (who + ": cudaFuncSetAttribute (max dynamic shared memory)").c_str());
}

}  // namespace archscan::dispatch
