#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Block-wide scan of one value per thread, built from warp shuffles: each warp scans its lanes,
//! warp totals meet in shared memory, and after one `__syncthreads` every thread folds the totals of
//! the warps before its own (and of all warps, for the block total) itself. One barrier instead of
//! the two of a "first warp scans the totals" design: the totals are few (at most 32) and broadcast
//! reads of shared memory are cheap, while a barrier holds every warp. No warp-synchronous
//! shared-memory access.

#include <archscan/warp/shuffle_scan.cuh>

namespace archscan::block {

template <class T, int Threads>
struct warp_totals_scan {
  static_assert(Threads % warp::threads == 0 && Threads <= warp::threads * warp::threads,
                "block threads: a multiple of 32, at most 1024");
  static constexpr int warps = Threads / warp::threads;

  struct storage {
    T warp_totals[warps];
  };

  //! The barrier between the totals' writes and their reads: the whole block's.
  struct block_barrier {
    __device__ void operator()() const { __syncthreads(); }
  };
  //! Named barrier 1 over the block's first `Threads` threads only, for blocks that hold more
  //! (warps of other work that must not wait for the scan).
  struct first_threads_barrier {
    __device__ void operator()() const { asm volatile("bar.sync 1, %0;" ::"n"(Threads) : "memory"); }
  };

  //! Exclusive scan of `v` across the block's first `Threads` threads in thread order. Thread 0's
  //! `exclusive` is undefined (it has no predecessor). Returns the total to every thread. `s` may be
  //! written again only after a later barrier that every scanning thread reaches after this call.
  //! `barrier`: block_barrier, or first_threads_barrier when the block holds more threads.
  template <class Op, class Barrier = block_barrier>
  __device__ static T exclusive_scan(const T& v, T& exclusive, Op op, storage& s, Barrier barrier = {}) {
    const int lane    = warp::lane_id();
    const int warp_id = static_cast<int>(threadIdx.x) / warp::threads;
    const T inclusive = warp::inclusive_scan(v, op);
    const T warp_excl = warp::exclusive_from_inclusive(inclusive);
    if (lane == warp::threads - 1) s.warp_totals[warp_id] = inclusive;
    barrier();
    // Totals combined left to right (operators need not commute); `before` is captured on the way.
    T total  = s.warp_totals[0];
    T before = total;
#pragma unroll
    for (int w = 1; w < warps; ++w) {
      if (w == warp_id) before = total;
      total = op(total, s.warp_totals[w]);
    }
    if (warp_id == 0) {
      exclusive = warp_excl;
    } else {
      exclusive = lane == 0 ? before : T(op(before, warp_excl));
    }
    return total;
  }
};

}  // namespace archscan::block
