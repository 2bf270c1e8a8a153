#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The fold, in order, of a short sequence by one block: each thread folds a contiguous run of
//! it, then the runs meet in a block-wide scan of `maybe`s (threads past the end hold none). A
//! rank's total (dispatch/rank_dispatch.cuh) folds its chunks' totals and its last partial tile so.
//! A thread reads its run in batches of `batch` independent loads, so that a run costs a few memory
//! latencies rather than one per item.

#include <cstdint>

#include <archscan/block/warp_totals_scan.cuh>
#include <archscan/detail/maybe.cuh>

namespace archscan::tile {

template <class T, int Threads>
struct ordered_fold {
  using scan    = block::warp_totals_scan<detail::maybe<T>, Threads>;
  using storage = typename scan::storage;
  //! Loads in flight per thread: ~128 bytes of registers (a partial int32 tile of native's shape is one
  //! batch per thread).
  static constexpr int batch = sizeof(T) > 128 ? 1 : sizeof(T) < 4 ? 32 : static_cast<int>(128 / sizeof(T));

  //! `get(i)` for i in [0, count), count >= 1, folded left to right by `op`, returned to every thread
  //! (always present). The association depends on count and Threads alone. `s` may be reused after a
  //! `__syncthreads` that every thread reaches after this call.
  template <class Get, class Op>
  __device__ static detail::maybe<T> fold(std::int64_t count, Get get, Op op, storage& s) {
    const std::int64_t per = (count + Threads - 1) / Threads;
    const std::int64_t lo  = static_cast<std::int64_t>(threadIdx.x) * per;
    const std::int64_t hi  = lo + per < count ? lo + per : count;
    detail::maybe<T> run{lo < hi ? get(lo) : get(0), lo < hi ? 1 : 0};
    for (std::int64_t i = lo + 1; i < hi; i += batch) {
      T x[batch];
#pragma unroll
      for (int k = 0; k < batch; ++k) x[k] = i + k < hi ? get(i + k) : x[0];
#pragma unroll
      for (int k = 0; k < batch; ++k) {
        if (i + k < hi) run.value = static_cast<T>(op(run.value, x[k]));
      }
    }
    detail::maybe<T> unused = run;
    return scan::exclusive_scan(run, unused, detail::maybe_op<Op>{op}, s);
  }
};

}  // namespace archscan::tile
