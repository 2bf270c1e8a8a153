#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Look-back: how a tile learns the exclusive prefix of everything before it in one pass, from the
//! tile states (tile/tile_state.cuh) of its predecessors. Three walks:
//!
//!  - `serial_lookback`: one thread walks back one predecessor at a time, folding aggregates, until
//!    it meets a published inclusive prefix (the kepler family);
//!  - `window_lookback`: a warp reads a window of up to 32 predecessors at once (one lane each); where
//!    one of them has published its inclusive prefix the walk stops, otherwise the window's aggregates
//!    are folded in and the window slides further back (the turing family). 32 independent loads in
//!    flight instead of one dependent chain;
//!  - `segment_lookback` (tile/segment_lookback.cuh): tiles form segments of 32 whose prefixes are
//!    published by each segment's last tile (as a chain, or decoupled in segment states of their
//!    own), and every value is folded in an order fixed by tile indices (below; the folds:
//!    tile/segment_fold.cuh), so that every result is the same bits on every run and every GPU (the
//!    native family).
//!
//! All combine earlier values on the left, so operators need not commute.
//!
//! Forward progress: tile ids come from the states' counter in the order blocks *start* work, so a
//! tile only waits for tiles already owned by running blocks, which wait only for smaller ids; tile 0
//! waits for nobody. No assumption about block scheduling order is made.
//!
//! Waiting (`Config`, a tile configuration, tuning/tile_config.cuh, or a tuning: backoff_min_ns,
//! backoff_max_ns, spin_limit): a poll that finds a needed predecessor still invalid sleeps
//! (`__nanosleep`, doubling from backoff_min_ns to backoff_max_ns; 0 spins) and polls again. After
//! `spin_limit` polls the kernel calls `__trap()`: reachable only if the forward-progress argument is
//! broken (for example a corrupted or re-used state array), and a trap turns a silent hang into a
//! reported launch failure. `spin_limit` 0 counts nothing and never traps:
//! the count takes registers that a tile at its register cap may not have to spare.

#include <cstdint>
#include <type_traits>

#include <archscan/detail/maybe.cuh>
#include <archscan/tile/tile_state.cuh>
#include <archscan/warp/shuffle_scan.cuh>

namespace archscan::tile {

//! The sleep after the `polls`-th failed poll, doubling from backoff_min_ns to backoff_max_ns.
template <class Config>
struct backoff {
  unsigned delay      = Config::backoff_min_ns;
  std::uint64_t polls = 0;
  __device__ __forceinline__ void wait() {
    if constexpr (Config::spin_limit > 0) {
      if (++polls >= Config::spin_limit) __trap();  // forward progress is broken: fail loudly
    }
    if constexpr (Config::backoff_min_ns > 0) {
      __nanosleep(delay);
      delay = delay * 2 < Config::backoff_max_ns ? delay * 2 : Config::backoff_max_ns;
    }
  }
};

//! The exclusive prefix of tile `tile` > 0 by one thread: predecessors from tile - 1 back to the first
//! published inclusive prefix, combined in tile order.
template <class Config, class State, class T, class Op>
__device__ T serial_lookback(const State& st, std::int64_t tile, Op op) {
  auto wait_for = [&](std::int64_t t, T& v) {
    backoff<Config> b;
    tile_status s;
    while ((s = st.poll(t, v)) == status_invalid) b.wait();
    return s;
  };
  T acc;
  tile_status s = wait_for(tile - 1, acc);
  for (std::int64_t t = tile - 2; s != status_prefix; --t) {
    T v;
    s   = wait_for(t, v);
    acc = op(v, acc);
  }
  return acc;
}

//! `Config` (a tile configuration, tuning/tile_config.cuh) supplies lookback_window and the waiting fields.
template <class T, class Config>
struct window_lookback {
  static constexpr int window = Config::lookback_window;
  static_assert(window >= 1 && window <= 32 && (window & (window - 1)) == 0, "look-back window: 1, 2, 4, ... 32");

  //! The exclusive prefix of tile `tile` > 0: predecessors combined in order (earliest leftmost),
  //! including whatever tile 0 folded into its inclusive prefix. All 32 lanes of one warp call.
  //! `delay_ns` > 0: sleep that long before the first poll, so that the tiles just before have
  //! published inclusive prefixes and the walk ends in the first window more often.
  template <class State, class Op>
  __device__ static T exclusive_prefix(const State& st, std::int64_t tile, Op op, unsigned delay_ns) {
    using detail::maybe;
    using detail::maybe_op;
    const int lane = warp::lane_id();
    if (delay_ns > 0) __nanosleep(delay_ns);
    maybe<T> running{T{}, 0};
    std::int64_t end = tile;  // this window: tiles [end - window, end)
    for (;;) {
      const std::int64_t pred = end - window + lane;
      const bool in_window    = lane < window && pred >= 0;
      T v{};
      tile_status s         = status_invalid;
      unsigned prefix_lanes = 0;
      backoff<Config> b;
      for (;;) {
        s                            = in_window ? st.poll(pred, v) : status_aggregate;
        prefix_lanes                 = __ballot_sync(warp::full_mask, in_window && s == status_prefix);
        const unsigned invalid_lanes = __ballot_sync(warp::full_mask, s == status_invalid);
        // Lanes below the latest published prefix are not needed.
        const unsigned needed = prefix_lanes ? ~0u << (31 - __clz(prefix_lanes)) : ~0u;
        if ((invalid_lanes & needed) == 0) break;
        b.wait();
      }
      const int first = prefix_lanes ? 31 - __clz(prefix_lanes) : 0;
      const maybe<T> mine{v, in_window && lane >= first};
      const maybe<T> scanned = warp::inclusive_scan(mine, maybe_op<Op>{op});
      const maybe<T> total   = warp::shfl_idx(scanned, window - 1);  // the window, in tile order
      running                = maybe_op<Op>{op}(total, running);     // earlier windows go on the left
      if (prefix_lanes) return running.value;
      end -= window;
    }
  }
};

//! Segmented look-back, bitwise deterministic: every combination is a function of tile indices alone,
//! so results are the same bits on every run and every GPU (timing, occupancy and SM count do not
//! enter), floating point included. Tiles form segments of 32. With a_t the aggregate of tile t:
//!
//!   R_k       = ((a_32k + a_32k+1) + ...) + a_32k+31      the segment's aggregates, left to right
//!   P_0       = the seed (or nothing); P_k+1 = P_k + R_k   the prefix before segment k+1
//!   prefix(t) = P_s + (((a_32s + ...) + a_t-1))           t = 32s + j: P_s, then the segment's
//!                                                         tiles before t, left to right
//!
//! Native's walk over the tile states finds P_s (tile/segment_lookback.cuh); the folds it shares
//! with a wave's and a cluster's prefixes are tile/segment_fold.cuh's.
inline constexpr int segment_tiles = 32;

//! Aggregates kept in segments of `segment_tiles` at a fixed stride: aggregate i at
//! `base[(i / 32) * stride + i % 32]`. Global memory holds them densely (stride 32); a copy staged in
//! shared memory pads each segment by one slot (stride 33), so that lane l reading item i of segment
//! l meets a bank of its own. `segment(k)` is segment k's first.
//! `Whole`: every segment that holds an aggregate the fold needs is readable to its end (a staged copy
//! fills the last one's slots past the grid's tiles with real aggregates), so a lane may fold its
//! whole segment and keep a prefix of it.
template <class T, bool Whole = false>
struct segmented_aggregates {
  const T* base;
  int stride;
  __device__ const T* segment(std::int64_t k) const { return base + k * stride; }
  __device__ T operator()(std::int64_t i) const { return segment(i / segment_tiles)[i % segment_tiles]; }
};
template <class A>
struct is_segmented_aggregates : std::false_type {};
template <class T, bool Whole>
struct is_segmented_aggregates<segmented_aggregates<T, Whole>> : std::true_type {};
template <class A>
inline constexpr bool whole_segments = false;
template <class T>
inline constexpr bool whole_segments<segmented_aggregates<T, true>> = true;

}  // namespace archscan::tile
