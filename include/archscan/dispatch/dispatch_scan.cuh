#pragma once
//! \file One entry for every scan: the family's plan, temporary storage, the family's launch, and
//! the synchronization of blocking policies.

#include <cstdint>

#include <thrust/memory.h>

#include <archscan/detail/thrust_internals.cuh>

#include <archscan/dispatch/blelloch_dispatch.cuh>
#include <archscan/dispatch/family.cuh>
#include <archscan/dispatch/kepler_dispatch.cuh>
#include <archscan/dispatch/native_dispatch.cuh>
#include <archscan/dispatch/turing_dispatch.cuh>
#include <archscan/hooks.cuh>

namespace archscan::dispatch {

//! Whether the temporary storage of a call with policy `Derived` comes from archscan's stream-ordered
//! pool (policy.cuh): true unless the policy carries a user allocator.
template <class Derived>
inline constexpr bool pool_storage = true;
template <class Allocator, template <class> class Base>
inline constexpr bool pool_storage<detail::thrust_internals::with_allocator<Allocator, Base>> = false;

//! Runs `problem` with the family and parameters of `Tuning` (and its test hooks, hooks.cuh) on the
//! policy's stream: one plan, then the launch of what it planned.
//! Temporary storage comes from the policy (its allocator, else archscan's stream-ordered pool);
//! failure to get it throws `thrust::system::detail::bad_alloc` (a `std::bad_alloc`), CUDA errors
//! throw `thrust::system_error`. Blocking policies synchronize the stream before returning.
template <class Tuning, class Derived, class Problem>
void scan(thrust::cuda::execution_policy<Derived>& policy, const Problem& problem) {
  if (problem.n <= 0) return;
  using family            = family_dispatch<typename Tuning::family>;
  using hooks             = hooks_of<Tuning>;
  const auto plan         = family::template plan<Tuning, hooks>(problem, detail::current_device_facts());
  const std::size_t bytes = plan.temp_bytes;
  const cudaStream_t stream = detail::thrust_internals::stream(policy);

  void* d_temp = nullptr;
  if (bytes > 0) {
    auto buffer = thrust::get_temporary_buffer<std::uint8_t>(policy, static_cast<std::ptrdiff_t>(bytes));
    d_temp      = thrust::raw_pointer_cast(buffer.first);
    if (d_temp == nullptr) throw detail::thrust_internals::bad_alloc("archscan: temporary storage for a scan");
  }
  struct storage_guard {
    thrust::cuda::execution_policy<Derived>& policy;
    void* p;
    std::size_t n;
    void release() {
      if (p) thrust::return_temporary_buffer(policy, static_cast<std::uint8_t*>(p), static_cast<std::ptrdiff_t>(n));
      p = nullptr;
    }
    ~storage_guard() { release(); }
  } guard{policy, d_temp, bytes};

  family::template launch<Tuning, hooks>(problem, plan, d_temp, stream);
  // Pool storage goes back before a blocking policy's synchronization: its free is ordered after the
  // kernels on the stream, and the call returns as soon as they finish. A user allocator's storage
  // goes back after it (its deallocate need not be stream-ordered).
  if constexpr (pool_storage<Derived>) guard.release();
  detail::throw_on_error(detail::thrust_internals::synchronize_if_blocking(policy), "archscan: scan failed to synchronize");
}

}  // namespace archscan::dispatch
