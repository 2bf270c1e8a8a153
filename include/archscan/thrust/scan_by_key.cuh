#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file `inclusive_scan_by_key` and `exclusive_scan_by_key` for archscan policies: all seven policy
//! overloads of Thrust's scan.h.
//!
//! A segment starts at i where `!pred(keys[i-1], keys[i])`. Each call runs as a plain scan over
//! (value, segment flags) items with a segmented operator (detail/keyed.cuh), so every family scans by
//! key with its own kernels. The output may be the keys or the values (as Thrust allows) at any size.
//! Accumulators as in Thrust: the value type (inclusive) or the type of `init` (exclusive).
//! NVTX range (`archscan::inclusive_scan_by_key <family> n=<n>`, `exclusive_...`), temporary storage,
//! synchronization and determinism as for scan.cuh.

#include <cuda/std/functional>

#include <archscan/detail/keyed.cuh>
#include <archscan/thrust/run_scan.cuh>

namespace archscan {
namespace detail {

template <class Derived, class Tuning, bool B, class KeyIt, class ValIt, class OutIt, class Pred, class Op>
OutIt inclusive_by_key(instrumentation::entry e, stream_policy_base<Derived, Tuning, B>& exec, KeyIt key_first,
                       KeyIt key_last, ValIt value_first, OutIt result, Pred pred, Op op) {
  using V              = value_t<ValIt>;
  const std::int64_t n = item_count(key_first, key_last);
  auto input           = make_keyed_input<V>(thrust::try_unwrap_contiguous_iterator(key_first),
                                   thrust::try_unwrap_contiguous_iterator(value_first), pred, n);
  return run_scan<scan_kind::inclusive, false, keyed<V>>(e, exec, input, n, result, segmented_op<callable<Op>>{{op}},
                                                         keyed_inclusive_finish{}, keyed<V>{});
}

template <class Derived, class Tuning, bool B, class KeyIt, class ValIt, class OutIt, class T, class Pred, class Op>
OutIt exclusive_by_key(instrumentation::entry e, stream_policy_base<Derived, Tuning, B>& exec, KeyIt key_first,
                       KeyIt key_last, ValIt value_first, OutIt result, T init, Pred pred, Op op) {
  const std::int64_t n = item_count(key_first, key_last);
  auto input           = make_keyed_input<T>(thrust::try_unwrap_contiguous_iterator(key_first),
                                   thrust::try_unwrap_contiguous_iterator(value_first), pred, n);
  return run_scan<scan_kind::exclusive, true, keyed<T>>(e, exec, input, n, result, segmented_op<callable<Op>>{{op}},
                                                        keyed_exclusive_finish<T, Op>{init, {op}}, keyed_seed(init));
}

}  // namespace detail

template <class Derived, class Tuning, bool B, class KeyIt, class ValIt, class OutIt, class Pred, class Op>
OutIt inclusive_scan_by_key(stream_policy_base<Derived, Tuning, B>& exec, KeyIt key_first, KeyIt key_last,
                            ValIt value_first, OutIt result, Pred pred, Op op) {
  return detail::inclusive_by_key(instrumentation::entry::inclusive_scan_by_key_pred_op, exec, key_first, key_last,
                                  value_first, result, pred, op);
}

template <class Derived, class Tuning, bool B, class KeyIt, class ValIt, class OutIt, class Pred>
OutIt inclusive_scan_by_key(stream_policy_base<Derived, Tuning, B>& exec, KeyIt key_first, KeyIt key_last,
                            ValIt value_first, OutIt result, Pred pred) {
  return detail::inclusive_by_key(instrumentation::entry::inclusive_scan_by_key_pred, exec, key_first, key_last,
                                  value_first, result, pred, ::cuda::std::plus<>{});
}

template <class Derived, class Tuning, bool B, class KeyIt, class ValIt, class OutIt>
OutIt inclusive_scan_by_key(stream_policy_base<Derived, Tuning, B>& exec, KeyIt key_first, KeyIt key_last,
                            ValIt value_first, OutIt result) {
  return detail::inclusive_by_key(instrumentation::entry::inclusive_scan_by_key, exec, key_first, key_last, value_first,
                                  result, ::cuda::std::equal_to<>{}, ::cuda::std::plus<>{});
}

template <class Derived, class Tuning, bool B, class KeyIt, class ValIt, class OutIt, class T, class Pred, class Op>
OutIt exclusive_scan_by_key(stream_policy_base<Derived, Tuning, B>& exec, KeyIt key_first, KeyIt key_last,
                            ValIt value_first, OutIt result, T init, Pred pred, Op op) {
  return detail::exclusive_by_key(instrumentation::entry::exclusive_scan_by_key_init_pred_op, exec, key_first, key_last,
                                  value_first, result, init, pred, op);
}

template <class Derived, class Tuning, bool B, class KeyIt, class ValIt, class OutIt, class T, class Pred>
OutIt exclusive_scan_by_key(stream_policy_base<Derived, Tuning, B>& exec, KeyIt key_first, KeyIt key_last,
                            ValIt value_first, OutIt result, T init, Pred pred) {
  return detail::exclusive_by_key(instrumentation::entry::exclusive_scan_by_key_init_pred, exec, key_first, key_last,
                                  value_first, result, init, pred, ::cuda::std::plus<>{});
}

template <class Derived, class Tuning, bool B, class KeyIt, class ValIt, class OutIt, class T>
OutIt exclusive_scan_by_key(stream_policy_base<Derived, Tuning, B>& exec, KeyIt key_first, KeyIt key_last,
                            ValIt value_first, OutIt result, T init) {
  return detail::exclusive_by_key(instrumentation::entry::exclusive_scan_by_key_init, exec, key_first, key_last,
                                  value_first, result, init, ::cuda::std::equal_to<>{}, ::cuda::std::plus<>{});
}

template <class Derived, class Tuning, bool B, class KeyIt, class ValIt, class OutIt>
OutIt exclusive_scan_by_key(stream_policy_base<Derived, Tuning, B>& exec, KeyIt key_first, KeyIt key_last,
                            ValIt value_first, OutIt result) {
  return detail::exclusive_by_key(instrumentation::entry::exclusive_scan_by_key, exec, key_first, key_last, value_first,
                                  result, detail::value_t<ValIt>{}, ::cuda::std::equal_to<>{}, ::cuda::std::plus<>{});
}

}  // namespace archscan
