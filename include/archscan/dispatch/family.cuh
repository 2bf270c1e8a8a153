#pragma once
//! \file The contract between dispatch/dispatch_scan.cuh and a kernel family, and what families share.
//!
//! A family `F` (a tag in tuning.cuh) specializes `family_dispatch<F>` with two steps:
//!
//!   template <class Tuning, class Hooks, class Problem>
//!   static plan_type plan(const Problem&, const detail::device_facts&);
//!
//!   template <class Tuning, class Hooks, class Problem>
//!   static void launch(const Problem&, const plan_type&, void* d_temp, cudaStream_t);
//!
//! `plan` makes every decision of the call once: tile shape, path, grid, and the temporary storage
//! (`plan_type::temp_bytes`) that every path it may take needs. It may configure the kernels it plans
//! to launch (shared-memory attributes, occupancy queries: host calls, cached per device and kernel)
//! and throws `thrust::system_error` for a problem it cannot run. `launch` enqueues the planned
//! kernels on the stream, checks every launch (detail::throw_on_launch_error), never plans again and
//! never synchronizes. `Problem` is a detail::scan_problem with n > 0; `d_temp` holds `temp_bytes`
//! bytes of uninitialized, 256-byte-aligned device memory (nullptr when 0 bytes). `Hooks` are test
//! and ablation hooks (hooks.cuh), `no_hooks` for every shipped policy.

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
//! delay only adds latency (measured, perf/NOTES.md).
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

//! Throws when a grid of `blocks` blocks cannot be launched (gridDim.x is at most 2^31 - 1).
inline void check_grid(std::int64_t blocks, const char* what) {
  if (blocks > 0x7fffffff) detail::throw_on_error(cudaErrorInvalidValue, what);
}

}  // namespace archscan::dispatch
