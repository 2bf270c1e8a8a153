#pragma once
//! \file One wave: how a tile learns its exclusive prefix when every tile of the problem is resident
//! at once (a cooperative launch guarantees it).
//!
//! Each tile stores its aggregate, the whole grid meets at one barrier
//! (`cooperative_groups::this_grid().sync()`: a release/acquire arrive-and-wait at device scope, so
//! every aggregate stored before it is visible to every load after it), and each tile folds the
//! aggregates of the tiles before it, in order. Unlike the look-back (tile/lookback.cuh) nothing needs
//! resetting before the kernel: a slot is written before any tile reads it, and only after the
//! barrier does anyone read. So the scan is one launch instead of two (reset, then scan): on an H100
//! 1.1-1.3x faster than CUB's two launches at 2^13..2^21 items (perf/NOTES.md).
//!
//! The barrier requires every block of the grid to be resident at once, which only a cooperative
//! launch guarantees (dispatch/turing_dispatch.cuh); a grid that does not fit takes the look-back instead.
//! Determinism: the fold's association depends only on the tile count, so results are the same from
//! run to run, floating point included; `ordered_prefix` folds as the ordered look-back does, so the
//! same bits come from either route.

#include <cstdint>

#include <cooperative_groups.h>

#include <archscan/detail/maybe.cuh>
#include <archscan/warp/shuffle_scan.cuh>

namespace archscan::tile {

template <class T>
struct wave {
  //! Waits until every tile of the grid has stored its aggregate. Every thread of every block calls.
  __device__ __forceinline__ static void barrier() { cooperative_groups::this_grid().sync(); }

  //! The combination of `d_aggregates[0, tile)` in tile order (earliest leftmost), tile > 0, after
  //! barrier(). All 32 lanes of one warp call. Lane l folds a contiguous run of ceil(tile / 32)
  //! aggregates (independent loads in flight), then the runs are combined across the warp in lane order.
  template <class Op>
  __device__ static T exclusive_prefix(const T* d_aggregates, std::int64_t tile, Op op) {
    const int lane           = warp::lane_id();
    const std::int64_t run   = (tile + warp::threads - 1) / warp::threads;
    const std::int64_t first = lane * run;
    const std::int64_t last  = first + run < tile ? first + run : tile;
    detail::maybe<T> mine{T{}, 0};
    if (first < last) {
      mine.value = d_aggregates[first];
      mine.valid = 1;
#pragma unroll 4
      for (std::int64_t i = first + 1; i < last; ++i) mine.value = static_cast<T>(op(mine.value, d_aggregates[i]));
    }
    const detail::maybe<T> scanned = warp::inclusive_scan(mine, detail::maybe_op<Op>{op});
    return warp::shfl_idx(scanned, warp::threads - 1).value;  // lane 0's run is never empty
  }

  //! The exclusive prefix of tile `tile` > 0 folded as `ordered_lookback` folds it (tile/lookback.cuh):
  //! the seed if present, then `d_aggregates[0, tile)` one at a time, left to right, so that a wave
  //! and a look-back over the same tiles give the same bits. All 32 lanes of one warp call. The warp
  //! loads 32 aggregates at a time (the next 32 in flight while these are folded); the fold is a
  //! chain of `tile` operator applications, which bounds the tiles worth a wave
  //! (native_tuning::wave_max_tiles).
  template <class Op>
  __device__ static T ordered_prefix(const T* d_aggregates, std::int64_t tile, const detail::maybe<T>& seed, Op op) {
    const int lane = warp::lane_id();
    T next         = lane < tile ? d_aggregates[lane] : T{};
    T acc          = seed.valid ? static_cast<T>(op(seed.value, warp::shfl_idx(next, 0))) : warp::shfl_idx(next, 0);
    for (std::int64_t base = 0; base < tile; base += warp::threads) {
      const T v                = next;
      const std::int64_t ahead = base + warp::threads + lane;
      if (ahead < tile) next = d_aggregates[ahead];
      const std::int64_t count = tile - base;  // lanes [0, count) of v are tiles before this one
      // Unrolled: the shuffles do not depend on the fold and are in flight together.
#pragma unroll
      for (int l = 1; l < warp::threads; ++l) {
        const T u = warp::shfl_idx(v, l);
        if (l < count) acc = static_cast<T>(op(acc, u));
      }
      if (base + warp::threads < tile) acc = static_cast<T>(op(acc, warp::shfl_idx(next, 0)));
    }
    return acc;
  }
};

}  // namespace archscan::tile
