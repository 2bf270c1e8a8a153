#pragma once
//! \file Block-wide scan of one value per thread, built from warp shuffles: each warp scans its lanes,
//! warp totals meet in shared memory, the first warp scans them, and every thread combines.
//! Two `__syncthreads` and no warp-synchronous shared-memory access.

#include <archscan/warp/warp_scans.cuh>

namespace archscan::block {

template <class T, int Threads>
struct warp_scans {
  static_assert(Threads % warp::threads == 0 && Threads <= warp::threads * warp::threads,
                "block threads: a multiple of 32, at most 1024");
  static constexpr int warps = Threads / warp::threads;

  struct storage {
    T warp_totals[warps];
  };

  //! Exclusive scan of `v` across the block in thread order. Thread 0's `exclusive` is undefined
  //! (it has no predecessor). Returns the block total to every thread. `s` may be reused after
  //! the next `__syncthreads`.
  template <class Op>
  __device__ static T exclusive_scan(const T& v, T& exclusive, Op op, storage& s) {
    const int lane      = warp::lane_id();
    const int warp_id   = static_cast<int>(threadIdx.x) / warp::threads;
    const T inclusive   = warp::inclusive_scan(v, op);
    const T warp_excl   = warp::exclusive_from_inclusive(inclusive);
    if (lane == warp::threads - 1) s.warp_totals[warp_id] = inclusive;
    __syncthreads();
    if (warp_id == 0) {
      // Lanes past the last warp scan a placeholder of their own (never read another lane's slot).
      T t = lane < warps ? s.warp_totals[lane] : inclusive;
      t   = warp::inclusive_scan(t, op);
      if (lane < warps) s.warp_totals[lane] = t;  // now inclusive prefixes of warp totals
    }
    __syncthreads();
    const T total = s.warp_totals[warps - 1];
    if (warp_id == 0) {
      exclusive = warp_excl;
    } else {
      const T before = s.warp_totals[warp_id - 1];
      exclusive      = lane == 0 ? before : T(op(before, warp_excl));
    }
    return total;
  }
};

}  // namespace archscan::block
