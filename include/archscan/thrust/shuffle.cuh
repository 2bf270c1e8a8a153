#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file `shuffle` and `shuffle_copy` for policies across ranks (policy.cuh, `comm_policy`). Thrust's
//! CUDA backend shuffles with a scan called with the caller's policy; with a policy across ranks that
//! scan would become a collective (offsets shifted by the lower ranks' counts, writes past the slice,
//! a rank that shuffles alone waiting forever). These shuffle the local slice instead, as every other
//! non-scan algorithm does: the same tuning on the same stream, blocking or not alike.

#include <thrust/shuffle.h>

#include <archscan/detail/thrust_internals.cuh>
#include <archscan/policy.cuh>

namespace archscan {

template <class Tuning, bool Blocking, class RandomIt, class URBG>
void shuffle(comm_policy<Tuning, Blocking>& exec, RandomIt first, RandomIt last, URBG&& g) {
  thrust::shuffle(stream_policy<Tuning, Blocking>(detail::thrust_internals::stream(exec)), first, last, g);
}

template <class Tuning, bool Blocking, class RandomIt, class OutIt, class URBG>
void shuffle_copy(comm_policy<Tuning, Blocking>& exec, RandomIt first, RandomIt last, OutIt result, URBG&& g) {
  thrust::shuffle_copy(stream_policy<Tuning, Blocking>(detail::thrust_internals::stream(exec)), first, last, result, g);
}

}  // namespace archscan
