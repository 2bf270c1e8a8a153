#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file A value that may be absent, and an operator that skips absent values.
//!
//! Scans here have no identity element: an inclusive scan without a seed has nothing before its first
//! item, and a look-back window combines only the predecessors it needs. `maybe_op` combines present
//! values in order (operators need not commute) and passes the other one through when one is absent.

namespace archscan::detail {

//! `valid` is a full word: it travels through warp shuffles beside the value, and a `bool` there
//! cost the turing tile registers (spills at its 64-register cap for 8-byte accumulators).
template <class T>
struct maybe {
  T value;
  int valid;
};

template <class Op>
struct maybe_op {
  Op op;
  template <class T>
  __device__ __forceinline__ maybe<T> operator()(const maybe<T>& a, const maybe<T>& b) const {
    if (!a.valid) return b;
    if (!b.valid) return a;
    return maybe<T>{static_cast<T>(op(a.value, b.value)), 1};
  }
};

}  // namespace archscan::detail
