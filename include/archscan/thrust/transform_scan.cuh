#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file `transform_inclusive_scan` and `transform_exclusive_scan` for archscan policies: the three
//! policy overloads of Thrust's transform_scan.h. The unary op is applied on load (no extra pass),
//! with Thrust's value-type rules: the transform's result type, or the type of `init` for the
//! exclusive form. NVTX range, temporary storage, synchronization and determinism as for scan.cuh.

#include <cuda/std/type_traits>

#include <thrust/iterator/transform_iterator.h>

#include <archscan/thrust/run_scan.cuh>

namespace archscan {
namespace detail {
template <class InIt, class Unary>
using transformed_t = ::cuda::std::remove_cvref_t<::cuda::std::invoke_result_t<Unary, value_t<InIt>>>;
}

template <class Derived, class Tuning, bool B, class InIt, class OutIt, class Unary, class Op>
OutIt transform_inclusive_scan(stream_policy_base<Derived, Tuning, B>& exec, InIt first, InIt last, OutIt result,
                               Unary unary, Op op) {
  using V = detail::transformed_t<InIt, Unary>;
  return detail::run_scan<detail::scan_kind::inclusive, false, V>(
      instrumentation::entry::transform_inclusive_scan, exec,
      thrust::transform_iterator<Unary, InIt, V, V>(first, unary), detail::item_count(first, last), result, op,
      detail::identity_finish{}, V{});
}

template <class Derived, class Tuning, bool B, class InIt, class OutIt, class Unary, class T, class Op>
OutIt transform_inclusive_scan(stream_policy_base<Derived, Tuning, B>& exec, InIt first, InIt last, OutIt result,
                               Unary unary, T init, Op op) {
  using V     = detail::transformed_t<InIt, Unary>;
  using accum = detail::accumulator_t<Op, V, T>;
  return detail::run_scan<detail::scan_kind::inclusive, true, accum>(
      instrumentation::entry::transform_inclusive_scan_init, exec,
      thrust::transform_iterator<Unary, InIt, V, V>(first, unary), detail::item_count(first, last), result, op,
      detail::identity_finish{}, static_cast<accum>(init));
}

template <class Derived, class Tuning, bool B, class InIt, class OutIt, class Unary, class T, class Op>
OutIt transform_exclusive_scan(stream_policy_base<Derived, Tuning, B>& exec, InIt first, InIt last, OutIt result,
                               Unary unary, T init, Op op) {
  using V = ::cuda::std::remove_cvref_t<T>;
  return detail::run_scan<detail::scan_kind::exclusive, true, V>(
      instrumentation::entry::transform_exclusive_scan, exec,
      thrust::transform_iterator<Unary, InIt, V, V>(first, unary), detail::item_count(first, last), result, op,
      detail::identity_finish{}, static_cast<V>(init));
}

}  // namespace archscan
