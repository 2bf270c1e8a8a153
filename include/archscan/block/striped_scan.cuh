#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Block-wide scan of a warp-striped tile held in registers.
//!
//! Layout: warp w of the block owns `32 * Items` consecutive items; lane l holds items l, l + 32, ...,
//! l + 32 * (Items - 1) of that range, so that each of its `Items` loads is one coalesced warp access
//! and no shared-memory transpose is needed. A warp scans each column of 32 items across its lanes
//! (log2(32) exchange steps), broadcasts the column totals (one exchange each, independent of each
//! other) and folds the running carry in, in registers. Warp totals meet in shared memory; the first
//! warp scans them and asks the caller for the tile's exclusive prefix (the tile scope's look-back).
//!
//! Exchange cost for shuffles: per column of 32 items 5 (scan) + 1 (total) + 1 (exclusive shift)
//! shuffle instructions, twice that for 8-byte values.

#include <type_traits>

#include <archscan/detail/maybe.cuh>
#include <archscan/warp/exchange.cuh>

namespace archscan::block {

template <class T, int Threads, int Items, bool Shuffle, int WordBytes>
struct striped_scan {
  static_assert(Threads % warp::threads == 0 && Threads <= warp::threads * warp::threads,
                "block threads: a multiple of 32, at most 1024");
  static_assert(Items >= 1, "at least one item per thread");
  static constexpr int warps      = Threads / warp::threads;
  static constexpr int warp_items = warp::threads * Items;
  static constexpr int tile_items = Threads * Items;

  using exchange = std::conditional_t<Shuffle, warp::shuffle_exchange<T>, warp::smem_exchange<T, WordBytes>>;

  struct storage {
    typename exchange::storage lanes[warps];           //!< per-warp exchange buffers (empty for shuffles)
    warp::smem_slot<T, WordBytes> warp_totals[warps];  //!< then their inclusive prefixes
    warp::smem_slot<T, WordBytes> tile_prefix;
  };

  //! Scans the warp's `Items` columns: afterwards `v[j]` is the inclusive prefix of the item within
  //! the warp's range. Returns the warp's total to every lane.
  template <class Op>
  __device__ static T scan_columns(T (&v)[Items], Op op, storage& s) {
    auto& ex = s.lanes[warp_id()];
#pragma unroll
    for (int j = 0; j < Items; ++j) v[j] = exchange::inclusive_scan(v[j], op, ex);
    T carry = exchange::from_lane(v[0], warp::threads - 1, ex);
    if constexpr (Items > 1) {
      T totals[Items];
#pragma unroll
      for (int j = 1; j < Items; ++j) totals[j] = exchange::from_lane(v[j], warp::threads - 1, ex);
#pragma unroll
      for (int j = 1; j < Items; ++j) {
        v[j]  = op(carry, v[j]);
        carry = op(carry, totals[j]);
      }
    }
    return carry;
  }

  //! Turns warp-inclusive `v` (from scan_columns) into warp-exclusive prefixes: each item gets its
  //! predecessor's value (one rotation per column). Item 0 of the warp (lane 0, column 0) keeps its
  //! value, which the caller must ignore.
  __device__ static void to_exclusive(T (&v)[Items], storage& s) {
    auto& ex       = s.lanes[warp_id()];
    const int lane = warp::lane_id();
    const int src  = (lane + warp::threads - 1) % warp::threads;
    T rotated[Items];
#pragma unroll
    for (int j = 0; j < Items; ++j) rotated[j] = exchange::from_lane(v[j], src, ex);
      // lane 0 of column j takes lane 31 of column j - 1, which rotation brought to lane 0 of column j - 1
#pragma unroll
    for (int j = Items - 1; j >= 0; --j) {
      if (lane != 0) {
        v[j] = rotated[j];
      } else if (j > 0) {
        v[j] = rotated[j - 1];
      }
    }
  }

  //! Combines the warps' totals across the block. Thread 0 calls `tile_prefix(tile_total)` once,
  //! which returns the exclusive prefix of the whole tile (read only when `tile_has_prefix`).
  //! Returns to every thread what precedes its warp's range. Two `__syncthreads`; all threads call.
  template <class Op, class TilePrefix>
  __device__ static detail::maybe<T> combine_warps(const T& warp_total, Op op, bool tile_has_prefix, storage& s,
                                                   TilePrefix tile_prefix) {
    const int lane = warp::lane_id();
    const int w    = warp_id();
    if (lane == warp::threads - 1) s.warp_totals[w].put(warp_total);
    __syncthreads();
    if (w == 0) {
      auto& ex           = s.lanes[0];
      T t                = s.warp_totals[lane < warps ? lane : warps - 1].get();
      t                  = exchange::inclusive_scan(t, op, ex);
      const T tile_total = exchange::from_lane(t, warps - 1, ex);
      __syncwarp(warp::full_mask);  // every lane has read its slot before any is overwritten
      if (lane < warps) s.warp_totals[lane].put(t);
      if (lane == 0) s.tile_prefix.put(tile_prefix(tile_total));
    }
    __syncthreads();
    T before{};
    if (tile_has_prefix) before = s.tile_prefix.get();
    if (w == 0) return {before, tile_has_prefix};
    const T warps_before = s.warp_totals[w - 1].get();
    return {tile_has_prefix ? T(op(before, warps_before)) : warps_before, true};
  }

 private:
  __device__ __forceinline__ static int warp_id() { return static_cast<int>(threadIdx.x) / warp::threads; }
};

}  // namespace archscan::block
