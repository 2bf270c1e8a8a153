#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The one place where archscan touches names that Thrust and CCCL do not publish as API.
//!
//! archscan plugs into Thrust as an execution policy, and Thrust offers no public way to derive a
//! policy that keeps its CUDA stream, its allocator form and its temporary-buffer hooks. Each name
//! below says why it is needed. Every other archscan header uses only these aliases and public names,
//! so a new CCCL release that moves an internal is fixed here and nowhere else.
//!
//! Tested with CCCL 3.0.1 (CUDA 13.0) through 3.5.0 (`nvidia-cuda-cccl` 13.3.5.0.6). Differences:
//!  - `execute_on_stream_base` lived in `thrust/system/cuda/detail/par.h` up to 3.1 and in
//!    `thrust/system/cuda/detail/execution_policy.h` from 3.2. The public
//!    `thrust/system/cuda/execution_policy.h` includes the right one in every release. (Including
//!    `par.h` by name against 3.2+ is worse than an error: nvcc's own include path still finds the
//!    toolkit's older copy, which then redefines the newer classes.)

#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <thrust/detail/allocator_aware_execution_policy.h>
#include <thrust/detail/execute_with_allocator.h>
#include <thrust/system/cuda/detail/util.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/detail/bad_alloc.h>
#include <thrust/version.h>

static_assert(THRUST_VERSION >= 300000, "archscan needs CCCL 3.0 or newer");

namespace archscan::detail::thrust_internals {

//! The bases of `thrust::cuda::par.on(s)` and `par_nosync.on(s)`: deriving from them makes an archscan
//! policy a Thrust CUDA policy with a stream, so every non-scan algorithm runs on Thrust's backend.
template <class Derived>
using stream_base = thrust::cuda_cub::execute_on_stream_base<Derived>;
template <class Derived>
using stream_nosync_base = thrust::cuda_cub::execute_on_stream_nosync_base<Derived>;

//! Gives a policy Thrust's `policy(allocator)` form (what `thrust::cuda::par(alloc)` has).
template <template <class> class Base>
using allocator_aware = thrust::detail::allocator_aware_execution_policy<Base>;

//! The type `policy(allocator)` returns: recognised to leave a user's allocator in charge of storage.
template <class Allocator, template <class> class Base>
using with_allocator = thrust::detail::execute_with_allocator<Allocator, Base>;

//! What Thrust throws when temporary storage cannot be had (a `std::bad_alloc`): archscan throws the same.
using bad_alloc = thrust::system::detail::bad_alloc;

//! The stream of any Thrust CUDA policy (the default stream for `thrust::cuda::par`).
template <class Derived>
cudaStream_t stream(thrust::cuda::execution_policy<Derived>& policy) {
  return thrust::cuda_cub::stream(policy);
}

//! Synchronizes the policy's stream if the policy is a blocking one (`par`), not for `par_nosync`.
template <class Derived>
cudaError_t synchronize_if_blocking(thrust::cuda::execution_policy<Derived>& policy) {
  return thrust::cuda_cub::synchronize_optional(policy);
}

}  // namespace archscan::detail::thrust_internals

namespace archscan::detail {

//! Thrust's accumulator type for a scan with an initial value (P2322R6, as Thrust's CUDA backend
//! computes it): the decayed result of `op(init, item)`. Spelled with public names; CCCL's own alias
//! for it (`cuda::std::__accumulator_t`) is internal.
template <class Op, class Item, class Init>
using accumulator_t = ::cuda::std::decay_t<::cuda::std::invoke_result_t<Op, Init, Item>>;

}  // namespace archscan::detail
