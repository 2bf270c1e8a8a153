#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file One wave: how a tile learns its exclusive prefix when every tile of the problem is resident
//! at once (a cooperative launch guarantees it).
//!
//! Each tile stores its aggregate, the whole grid meets at one barrier
//! (`cooperative_groups::this_grid().sync()`: a release/acquire arrive-and-wait at device scope, so
//! every aggregate stored before it is visible to every load after it), and each tile folds the
//! aggregates of the tiles before it, in order. Unlike the look-back (tile/lookback.cuh) nothing needs
//! resetting before the kernel: a slot is written before any tile reads it, and only after the
//! barrier does anyone read. So the scan is one launch instead of two (reset, then scan): on an H100
//! 1.1-1.3x faster than CUB's two launches at 2^13..2^21 items (docs/design-notes.md).
//!
//! The barrier requires every block of the grid to be resident at once, which only a cooperative
//! launch guarantees (dispatch/turing_dispatch.cuh); a grid that does not fit takes the look-back instead.
//! Determinism: the fold's association depends only on the tile count, so results are the same from
//! run to run, floating point included. (The native family folds a wave as its look-back does,
//! tile/segment_fold.cuh `exclusive_prefix_of`, so that the route does not change the bits either; an
//! operator exact under any association takes exclusive_prefix below, the same bits, unless it is
//! exact by a user's declaration and its lanes' runs would be long: dispatch/native_dispatch.cuh,
//! `native_wave_in_order`.)

#include <cstdint>

#include <cooperative_groups.h>

#include <archscan/detail/maybe.cuh>
#include <archscan/warp/shuffle_scan.cuh>

namespace archscan::tile {

//! How many aggregates a lane of `wave::exclusive_prefix` folds in a row for a tile after `tiles`
//! others.
__host__ __device__ constexpr std::int64_t wave_tree_run(std::int64_t tiles) {
  return (tiles + warp::threads - 1) / warp::threads;
}

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
    const std::int64_t run   = wave_tree_run(tile);
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
};

}  // namespace archscan::tile
