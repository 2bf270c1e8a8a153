#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file archscan's execution policies.
//!
//! `archscan::policy<Tuning>` is a Thrust CUDA execution policy that carries a tuning. Scan-family
//! algorithms called with it run archscan's kernel family named by `Tuning::family`; every other
//! Thrust algorithm runs on Thrust's CUDA backend, on the policy's stream.
//!
//!   policy                     (default stream)      .on(s) -> stream form, (alloc) -> allocator form
//!   policy.on(s)               (stream s)            no (alloc): it would drop the stream
//!   policy(alloc)[.on(s)]      (user allocator)      temporary storage from `alloc`
//!
//! Blocking policies return with results ready (like `thrust::cuda::par`); the `_nosync` twins never
//! synchronize and work inside CUDA graph capture. Without a user allocator, temporary storage of
//! every algorithm called with an archscan policy is stream-ordered and comes from a per-device pool
//! (`cudaMallocFromPoolAsync`), so no call pays a `cudaMalloc`/`cudaFree`.
//!
//! Determinism (run to run, same device, same inputs; checked by test/thrust/determinism_test.cu):
//!  - Operators that are exact on their values (integer arithmetic, min/max, bitwise operations, any
//!    associative user operator without rounding): every family gives the same bits every time, at
//!    every size, whatever order it associates in.
//!  - Operators that round (floating-point `+`, `*`), which includes by-key and transform scans of
//!    such values, depend on the association order:
//!      blelloch   repeats bit for bit at every size (its order depends only on n and its block size);
//!      turing     repeats for n <= (number of SMs) x 4,096 items of 4- and 8-byte accumulators (the
//!                 whole problem runs as one wave of resident tiles folded in tile order); beyond
//!                 that its decoupled look-back folds whatever its predecessors have published, and
//!                 the last bits may differ from run to run;
//!      kepler     repeats for n <= 1,024 items (one tile); beyond that, as turing, may differ.
//!    None of these three promises the same floating-point bits across different GPUs; native does
//!    (below), for every operator.

#include <cstddef>
#include <type_traits>

#include <thrust/memory.h>
#include <thrust/pair.h>

#include <archscan/detail/thrust_internals.cuh>
#include <archscan/tuning.cuh>

struct ncclComm;  // NCCL's communicator (nccl.h: `typedef struct ncclComm* ncclComm_t`)

namespace archscan {

namespace detail {
template <bool Blocking, class Derived>
using thrust_stream_base =
    std::conditional_t<Blocking, thrust_internals::stream_base<Derived>, thrust_internals::stream_nosync_base<Derived>>;

//! Stream-ordered pool allocation on the current device; nullptr when the memory cannot be had.
void* pool_allocate(std::size_t bytes, cudaStream_t stream) noexcept;
void pool_deallocate(void* p, cudaStream_t stream) noexcept;
}  // namespace detail

//! The base of every archscan policy type: Thrust's CUDA stream policy plus a tuning.
template <class Derived, class Tuning, bool Blocking>
struct stream_policy_base : detail::thrust_stream_base<Blocking, Derived> {
  using tuning                   = Tuning;
  static constexpr bool blocking = Blocking;
  using detail::thrust_stream_base<Blocking, Derived>::thrust_stream_base;
};

//! Binds the tuning so Thrust's allocator machinery can form `policy(alloc)` types.
template <class Tuning, bool Blocking>
struct bind_tuning {
  template <class Derived>
  using base = stream_policy_base<Derived, Tuning, Blocking>;
};

//! A policy bound to an NCCL communicator, one rank per GPU: `policy.on(stream).across(comm)`.
//! Every rank calls the same scan-family algorithm, with the same init and operator, on its own
//! slice, in rank order of the global sequence, and gets the global result
//! (dispatch/rank_dispatch.cuh; include <archscan/nccl.cuh>).
//!  - Temporary storage: the family's for the slice, one accumulator per chunk of the first pass
//!    where a record cannot hold them (fewer than 8192) and one record slot (256 bytes, more for
//!    accumulators over ~220 bytes) per rank, from archscan's stream-ordered pool.
//!  - Synchronization: every step is on the stream. Blocking policies synchronize it before they
//!    return; `_nosync` ones never do (graph capture works once NCCL has connected the communicator,
//!    at its first collective). The communicator must outlive the work enqueued on it.
//!  - Determinism: as the family's own scan (native: bitwise for every operator); the ranks' totals
//!    fold in an order fixed by the slices' sizes.
//! Other Thrust algorithms run on the local slice alone, as with `policy.on(stream)`
//! (thrust/shuffle.cuh keeps Thrust's shuffle, which scans internally, local too).
template <class Tuning, bool Blocking>
struct comm_policy : stream_policy_base<comm_policy<Tuning, Blocking>, Tuning, Blocking> {
  comm_policy(cudaStream_t s, ncclComm* c)
      : stream_policy_base<comm_policy<Tuning, Blocking>, Tuning, Blocking>(s), comm(c) {}
  ncclComm* comm;
};

//! A policy attached to a stream: `policy.on(stream)`.
template <class Tuning, bool Blocking>
struct stream_policy : stream_policy_base<stream_policy<Tuning, Blocking>, Tuning, Blocking> {
  using stream_policy_base<stream_policy<Tuning, Blocking>, Tuning, Blocking>::stream_policy_base;
  //! The same policy across the ranks of `comm` (comm_policy).
  comm_policy<Tuning, Blocking> across(ncclComm* comm) const {
    auto& self = const_cast<stream_policy&>(*this);  // Thrust reads the stream through a non-const policy
    return comm_policy<Tuning, Blocking>(detail::thrust_internals::stream(self), comm);
  }
};

//! An archscan execution policy. `Tuning` names the kernel family and its parameters (tuning/shape.cuh);
//! a user may pass a tuning struct of their own with the same fields.
template <class Tuning, bool Blocking = true>
struct policy : stream_policy_base<policy<Tuning, Blocking>, Tuning, Blocking>,
                detail::thrust_internals::allocator_aware<bind_tuning<Tuning, Blocking>::template base> {
  //! The same policy on stream `s`. Blocking policies synchronize `s` before returning.
  stream_policy<Tuning, Blocking> on(cudaStream_t s) const { return stream_policy<Tuning, Blocking>(s); }
  //! The same policy on the default stream across the ranks of `comm` (comm_policy).
  comm_policy<Tuning, Blocking> across(ncclComm* comm) const {
    return comm_policy<Tuning, Blocking>(detail::thrust_internals::stream(const_cast<policy&>(*this)), comm);
  }
};

//! Harris's work-efficient, bank-conflict-free scan (GPU Gems 3, ch. 39).
inline const policy<blelloch_tuning> blelloch{};
inline const policy<blelloch_tuning, false> blelloch_nosync{};
//! Tuned after *Tuning CUDA Applications for Kepler*: shuffles, registers, read-only loads.
inline const policy<kepler_tuning> kepler{};
inline const policy<kepler_tuning, false> kepler_nosync{};
//! Tuned after the *Turing Tuning Guide*: single pass with decoupled look-back.
inline const policy<turing_tuning> turing{};
inline const policy<turing_tuning, false> turing_nosync{};
//! A single pass for today's GPUs, bitwise deterministic, floating point included: every association
//! depends only on tile indices (tile/segment_lookback.cuh), and the tile shape only on
//! the accumulator's size and n (an operator exact under any association, whose bits no tile shape
//! changes, may also take other tiles by the device: tuning/shape.cuh, example_staged_row), so results are
//! a function of n, the operator, the types and the tuning,
//! not of timing, occupancy or the SM count (test/thrust/determinism_test.cu forces several
//! resident-block counts, determinism_routes_test.cu every route, and both compare bits). Temporary
//! storage: one state per tile and one per segment of 32 tiles (8 or 16 bytes, or split states for
//! larger accumulators) plus 256 bytes; for a problem run as one wave, one accumulator per tile or
//! those states, whichever is more (the look-back runs in the same storage where the driver refuses
//! the wave's cooperative launch); none for a single tile, nor for
//! a problem run as one thread block cluster: at most 8 tiles (16 where the device allows clusters
//! that large) on sm_90 and newer, when the build holds code for sm_90 or newer and 16 accumulators
//! fit beside the tile within its shared memory limit (otherwise: a wave). A wave of an operator
//! that the user declares exactly associative (associativity.cuh) folds as a tree while its lanes'
//! runs are short (tuning/native.cuh, `wave_tree_max_run_bytes`): the same bits if the declaration
//! is true.
inline const policy<native_tuning> native{};
inline const policy<native_tuning, false> native_nosync{};

//! Temporary storage for any Thrust algorithm called with an archscan policy that has no user
//! allocator: stream-ordered, from archscan's per-device pool. Found by argument-dependent lookup.
template <class T, class Derived, class Tuning, bool Blocking>
thrust::pair<thrust::pointer<T, Derived>, std::ptrdiff_t> get_temporary_buffer(
    stream_policy_base<Derived, Tuning, Blocking>& exec, std::ptrdiff_t n) {
  const std::size_t bytes = n > 0 ? sizeof(T) * static_cast<std::size_t>(n) : 0;
  void* p                 = detail::pool_allocate(bytes, detail::thrust_internals::stream(exec));
  if (p == nullptr) return {thrust::pointer<T, Derived>(), 0};  // Thrust turns this into bad_alloc
  return {thrust::pointer<T, Derived>(static_cast<T*>(p)), n};
}

template <class Derived, class Tuning, bool Blocking, class Pointer>
void return_temporary_buffer(stream_policy_base<Derived, Tuning, Blocking>& exec, Pointer p, std::ptrdiff_t) {
  detail::pool_deallocate(thrust::raw_pointer_cast(p), detail::thrust_internals::stream(exec));
}

}  // namespace archscan
