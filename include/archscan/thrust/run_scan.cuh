#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file What the Thrust overloads share: forming the scan problem and handing it to dispatch.

#include <cstdint>
#include <type_traits>

#include <cuda/std/iterator>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/type_traits/unwrap_contiguous_iterator.h>

#include <archscan/detail/callable.cuh>
#include <archscan/detail/nvtx.cuh>
#include <archscan/detail/problem.cuh>
#include <archscan/dispatch/dispatch_scan.cuh>
#include <archscan/instrumentation.cuh>
#include <archscan/policy.cuh>

namespace archscan::detail {

//! An input's value type, unqualified: Thrust's traits keep a `volatile T*`'s volatile, and an
//! accumulator in registers has no use for it (std::iterator_traits drops it too).
template <class It>
using value_t = std::remove_cv_t<typename thrust::iterator_traits<It>::value_type>;

//! Number of items in [first, last); a negative distance is an empty range, as in Thrust.
template <class It>
std::int64_t item_count(It first, It last) {
  const auto d = ::cuda::std::distance(first, last);
  return d > 0 ? static_cast<std::int64_t>(d) : 0;
}

//! Whether a policy scans across the ranks of a communicator (policy.cuh, `comm_policy`).
template <class Derived>
inline constexpr bool across_ranks = false;
template <class Tuning, bool Blocking>
inline constexpr bool across_ranks<comm_policy<Tuning, Blocking>> = true;

//! The name of a family tag (tuning/shape.cuh) in NVTX ranges; "custom" for a tag of the user's own.
template <class Family>
inline constexpr char const* family_name = "custom";
template <>
inline constexpr char const* family_name<blelloch_family> = "blelloch";
template <>
inline constexpr char const* family_name<kepler_family> = "kepler";
template <>
inline constexpr char const* family_name<turing_family> = "turing";
template <>
inline constexpr char const* family_name<native_family> = "native";

//! The NVTX range of one call of entry `e` with a policy of `Tuning`, across ranks or not (detail/nvtx.cuh).
template <class Tuning, bool Across>
struct scan_range : nvtx_scan_range {
  scan_range(instrumentation::entry e, std::int64_t n) noexcept
      : nvtx_scan_range(instrumentation::algorithm_name(e), family_name<typename Tuning::family>, n, Across) {}
};

//! The step every scan-family overload takes: counts the overload's entry `e` (instrumentation.cuh),
//! opens the call's NVTX range (detail/nvtx.cuh) for the rest of the call, builds the problem (contiguous
//! iterators unwrapped to raw pointers, the operator held as Thrust holds it: a copy, callable whatever its
//! constness) and runs it: on this GPU, or across ranks, where every rank takes part, an empty one too.
//! Returns result + n.
template <scan_kind Kind, bool HasSeed, class Accum, class Derived, class Tuning, bool Blocking, class InIt,
          class OutIt, class Op, class Finish>
OutIt run_scan(instrumentation::entry e, stream_policy_base<Derived, Tuning, Blocking>& exec, InIt first,
               std::int64_t n, OutIt result, Op op, Finish finish, Accum seed) {
  instrumentation::detail::count(e);
  const scan_range<Tuning, across_ranks<Derived>> range(e, n);
  if (n <= 0 && !across_ranks<Derived>) return result;
  auto in       = thrust::try_unwrap_contiguous_iterator(first);
  auto out      = thrust::try_unwrap_contiguous_iterator(result);
  using problem = scan_problem<decltype(in), decltype(out), Accum, callable<Op>, Finish, Kind, HasSeed>;
  if constexpr (across_ranks<Derived>) {
    // Found by argument-dependent lookup: dispatch/rank_dispatch.cuh, from <archscan/nccl.cuh>.
    scan_across(dispatch::across_tag{}, static_cast<Derived&>(exec),
                problem{in, out, n, callable<Op>{op}, finish, seed, {}});
  } else {
    dispatch::scan<Tuning>(exec, problem{in, out, n, callable<Op>{op}, finish, seed, {}});
  }
  return result + n;
}

}  // namespace archscan::detail
