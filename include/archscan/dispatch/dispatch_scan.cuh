#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file One entry for every scan: the family's plan, temporary storage, the family's launch, and
//! the synchronization of blocking policies.

#include <cstdint>

#include <archscan/detail/thrust_internals.cuh>

#include <archscan/detail/hook_traits.cuh>
#include <archscan/dispatch/blelloch_dispatch.cuh>
#include <archscan/dispatch/family.cuh>
#include <archscan/dispatch/kepler_dispatch.cuh>
#include <archscan/dispatch/native_dispatch.cuh>
#include <archscan/dispatch/temporary_storage.cuh>
#include <archscan/dispatch/turing_dispatch.cuh>

namespace archscan::dispatch {

//! Runs `problem` with the family and parameters of `Tuning` (and its test hooks, hooks.cuh) on the
//! policy's stream: one plan, then the launch of what it planned.
//! Temporary storage comes from the policy (its allocator, else archscan's stream-ordered pool);
//! failure to get it throws `thrust::system::detail::bad_alloc` (a `std::bad_alloc`), CUDA errors
//! throw `thrust::system_error`. Blocking policies synchronize the stream before returning.
template <class Tuning, class Derived, class Problem>
void scan(thrust::cuda::execution_policy<Derived>& policy, const Problem& problem) {
  if (problem.n <= 0) return;
  using family              = family_dispatch<typename Tuning::family>;
  using hooks               = hooks_of<Tuning>;
  const auto facts          = detail::current_device_facts();
  const auto plan           = family::template plan<Tuning, hooks>(problem, facts);
  const cudaStream_t stream = detail::thrust_internals::stream(policy);

  temporary_storage<Derived> storage(policy, plan.temp_bytes);
  family::template launch<Tuning, hooks>(problem, plan, facts, storage.data(), stream);
  // Pool storage goes back before a blocking policy's synchronization: its free is ordered after the
  // kernels on the stream, and the call returns as soon as they finish. A user allocator's storage
  // goes back after it (its deallocate need not be stream-ordered).
  if constexpr (pool_storage<Derived>) storage.release();
  detail::throw_on_error(detail::thrust_internals::synchronize_if_blocking(policy),
                         "archscan: scan failed to synchronize");
}

//! The tag that lets run_scan (thrust/run_scan.cuh) find a scan across ranks by argument-dependent
//! lookup: dispatch/rank_dispatch.cuh's `scan_across`, which <archscan/nccl.cuh> brings in. This one
//! only explains what is missing.
struct across_tag {};
template <class Policy, class Problem>
void scan_across(across_tag, Policy&, const Problem&) {
  static_assert(sizeof(Policy) == 0,
                "archscan: a scan across ranks (policy.across(comm)) needs #include <archscan/nccl.cuh>");
}

}  // namespace archscan::dispatch
