#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file `inclusive_scan` and `exclusive_scan` for archscan policies: all six policy overloads of
//! Thrust's scan.h. Found by argument-dependent lookup from Thrust's entry points; each one counts
//! its entry (instrumentation.cuh) and runs the policy's kernel family.
//!
//! NVTX (detail/nvtx.cuh): every scan-family call (these, scan_by_key.cuh, transform_scan.cuh, across
//! ranks too) opens an NVTX push/pop range in the `archscan` domain for its duration, named
//! `archscan::<algorithm> <family> n=<n>`, plus ` across_ranks` for a policy bound to a communicator, e.g.
//! `archscan::exclusive_scan native n=1048576`. Without an NVTX tool attached no name is built. Define
//! `ARCHSCAN_DISABLE_NVTX` (in every unit) to compile the ranges and archscan's NVTX include out (CUB's
//! headers include NVTX on their own unless `CCCL_DISABLE_NVTX`).
//!
//! Results and accumulator types are Thrust's: without init the accumulator is the input value type;
//! `inclusive_scan(..., init, op)` accumulates in `decay_t<invoke_result_t<op, init, value>>`;
//! exclusive scans accumulate in the type of `init`. Temporary storage: stream-ordered, its size the
//! family's (policy.cuh: a few bytes per tile for the single-pass families, up to n accumulators for
//! blelloch). Blocking policies synchronize; `_nosync` ones never do. Determinism depends
//! on the family and the operator: see policy.cuh (floating-point results of turing and kepler may
//! differ in the last bits from run to run above a family-specific size).

#include <cuda/std/functional>

#include <archscan/thrust/run_scan.cuh>

namespace archscan {

template <class Derived, class Tuning, bool B, class InIt, class OutIt, class Op>
OutIt inclusive_scan(stream_policy_base<Derived, Tuning, B>& exec, InIt first, InIt last, OutIt result, Op op) {
  using accum = detail::value_t<InIt>;
  return detail::run_scan<detail::scan_kind::inclusive, false, accum>(instrumentation::entry::inclusive_scan_op, exec,
                                                                      first, detail::item_count(first, last), result,
                                                                      op, detail::identity_finish{}, accum{});
}

template <class Derived, class Tuning, bool B, class InIt, class OutIt>
OutIt inclusive_scan(stream_policy_base<Derived, Tuning, B>& exec, InIt first, InIt last, OutIt result) {
  using accum = detail::value_t<InIt>;
  return detail::run_scan<detail::scan_kind::inclusive, false, accum>(
      instrumentation::entry::inclusive_scan, exec, first, detail::item_count(first, last), result,
      ::cuda::std::plus<>{}, detail::identity_finish{}, accum{});
}

template <class Derived, class Tuning, bool B, class InIt, class OutIt, class T, class Op>
OutIt inclusive_scan(stream_policy_base<Derived, Tuning, B>& exec, InIt first, InIt last, OutIt result, T init, Op op) {
  using accum = detail::accumulator_t<Op, detail::value_t<InIt>, T>;
  return detail::run_scan<detail::scan_kind::inclusive, true, accum>(
      instrumentation::entry::inclusive_scan_init_op, exec, first, detail::item_count(first, last), result, op,
      detail::identity_finish{}, static_cast<accum>(init));
}

template <class Derived, class Tuning, bool B, class InIt, class OutIt, class T, class Op>
OutIt exclusive_scan(stream_policy_base<Derived, Tuning, B>& exec, InIt first, InIt last, OutIt result, T init, Op op) {
  return detail::run_scan<detail::scan_kind::exclusive, true, T>(instrumentation::entry::exclusive_scan_init_op, exec,
                                                                 first, detail::item_count(first, last), result, op,
                                                                 detail::identity_finish{}, init);
}

template <class Derived, class Tuning, bool B, class InIt, class OutIt, class T>
OutIt exclusive_scan(stream_policy_base<Derived, Tuning, B>& exec, InIt first, InIt last, OutIt result, T init) {
  return detail::run_scan<detail::scan_kind::exclusive, true, T>(
      instrumentation::entry::exclusive_scan_init, exec, first, detail::item_count(first, last), result,
      ::cuda::std::plus<>{}, detail::identity_finish{}, init);
}

template <class Derived, class Tuning, bool B, class InIt, class OutIt>
OutIt exclusive_scan(stream_policy_base<Derived, Tuning, B>& exec, InIt first, InIt last, OutIt result) {
  using T = detail::value_t<InIt>;
  return detail::run_scan<detail::scan_kind::exclusive, true, T>(instrumentation::entry::exclusive_scan, exec, first,
                                                                 detail::item_count(first, last), result,
                                                                 ::cuda::std::plus<>{}, detail::identity_finish{}, T{});
}

}  // namespace archscan
