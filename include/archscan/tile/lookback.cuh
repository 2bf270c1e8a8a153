#pragma once
//! \file Look-back: how a tile learns the exclusive prefix of everything before it in one pass, from the
//! tile states (tile/tile_state.cuh) of its predecessors. Two walks over the same states:
//!
//!  - `serial_lookback`: one thread walks back one predecessor at a time, folding aggregates, until
//!    it meets a published inclusive prefix (the kepler family);
//!  - `window_lookback`: a warp reads a window of up to 32 predecessors at once (one lane each); where
//!    one of them has published its inclusive prefix the walk stops, otherwise the window's aggregates
//!    are folded in and the window slides further back (the turing family). 32 independent loads in
//!    flight instead of one dependent chain;
//!  - `ordered_lookback`: the window walk, its values folded strictly left to right, so that every
//!    result is the same bits on every run (the native family).
//!
//! Both combine earlier values on the left, so operators need not commute.
//!
//! Forward progress: tile ids come from the states' counter in the order blocks *start* work, so a
//! tile only waits for tiles already owned by running blocks, which wait only for smaller ids; tile 0
//! waits for nobody. No assumption about block scheduling order is made.
//!
//! Waiting (`Config`, a tuning: backoff_min_ns, backoff_max_ns, spin_limit): a poll that finds a needed
//! predecessor still invalid sleeps (`__nanosleep`, doubling from backoff_min_ns to backoff_max_ns; 0
//! spins) and polls again. After `spin_limit` polls the kernel calls `__trap()`: reachable only if the
//! forward-progress argument is broken (for example a corrupted or re-used state array), and a trap
//! turns a silent hang into a reported launch failure. `spin_limit` 0 counts nothing and never traps:
//! the count takes registers that a tile at its register cap may not have to spare.

#include <cstdint>

#include <archscan/detail/maybe.cuh>
#include <archscan/tile/tile_state.cuh>
#include <archscan/warp/shuffle_scan.cuh>

namespace archscan::tile {

//! The sleep after the `polls`-th failed poll, doubling from backoff_min_ns to backoff_max_ns.
template <class Config>
struct backoff {
  unsigned delay = Config::backoff_min_ns;
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

//! `Config` (a tuning) supplies lookback_window and the waiting fields.
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
      const int first        = prefix_lanes ? 31 - __clz(prefix_lanes) : 0;
      const maybe<T> mine{v, in_window && lane >= first};
      const maybe<T> scanned = warp::inclusive_scan(mine, maybe_op<Op>{op});
      const maybe<T> total   = warp::shfl_idx(scanned, window - 1);  // the window, in tile order
      running                = maybe_op<Op>{op}(total, running);     // earlier windows go on the left
      if (prefix_lanes) return running.value;
      end -= window;
    }
  }
};

//! Ordered look-back, bitwise deterministic: the same walk as `window_lookback` (windows of 32
//! predecessors, back to the latest published inclusive prefix), but the values are combined strictly
//! left to right, one at a time, never as a tree. Every tile's inclusive prefix is thereby the left
//! fold ((seed + a0) + a1) + ... + at of the tile aggregates, whichever predecessor published what
//! when: a prefix found in the walk is itself that fold up to its tile, so starting from it or from
//! any earlier one gives the same bits. Results depend on n, the operator and the tile shape only,
//! not on timing, occupancy or the SM count, floating point included.
//!
//! Cost against the tree: a chain of up to 31 operator applications instead of five (the predecessor
//! just before has usually published, and then there are none), and a walk that ends beyond the first
//! window folds the windows after it again, oldest first (their tiles are all published by then).
template <class T, class Config>
struct ordered_lookback {
  //! The exclusive prefix of tile `tile` > 0. All 32 lanes of one warp call. `delay_ns` as for
  //! `window_lookback`.
  template <class State, class Op>
  __device__ static T exclusive_prefix(const State& st, std::int64_t tile, Op op, unsigned delay_ns) {
    if (delay_ns > 0) __nanosleep(delay_ns);
    std::int64_t end = tile;  // this window: tiles [end - 32, end)
    T v{};
    unsigned prefixes = 0;
    while ((prefixes = poll_window(st, end, v)) == 0) end -= warp::threads;
    T acc = fold(v, v, latest(prefixes), true, op);
    for (end += warp::threads; end <= tile; end += warp::threads) {  // rare: the walk went further back
      prefixes = poll_window(st, end, v);
      acc      = prefixes ? fold(acc, v, latest(prefixes), true, op) : fold(acc, v, 0, false, op);
    }
    return acc;
  }

 private:
  __device__ __forceinline__ static int latest(unsigned lanes) { return 31 - __clz(lanes); }

  //! Lane l polls tile end - 32 + l (lanes before tile 0 stand idle) until every tile after the latest
  //! published prefix in the window is published; returns the lanes holding prefixes, values in `v`.
  template <class State>
  __device__ static unsigned poll_window(const State& st, std::int64_t end, T& v) {
    const std::int64_t pred = end - warp::threads + warp::lane_id();
    backoff<Config> b;
    for (;;) {
      const tile_status s     = pred >= 0 ? st.poll(pred, v) : status_aggregate;
      const unsigned prefixes = __ballot_sync(warp::full_mask, pred >= 0 && s == status_prefix);
      const unsigned invalid  = __ballot_sync(warp::full_mask, s == status_invalid);
      const unsigned needed   = prefixes ? ~0u << latest(prefixes) : ~0u;
      if ((invalid & needed) == 0) return prefixes;
      b.wait();
    }
  }

  //! Lanes [from, 32) of `v` folded onto `acc` left to right; `restart`: lane `from` starts the fold
  //! instead (a published prefix; without restart `from` is 0).
  //! Unrolled, so that the shuffles, which do not depend on the fold, are in flight together and the
  //! chain is the operator's latency alone: the window's last tiles fold the longest and publish the
  //! prefixes the next tiles wait for, so this chain paces the whole scan.
  template <class Op>
  __device__ static T fold(T acc, const T& v, int from, bool restart, Op& op) {
    const T first = warp::shfl_idx(v, from);
    acc             = restart ? first : static_cast<T>(op(acc, first));
#pragma unroll
    for (int l = 1; l < warp::threads; ++l) {
      const T u = warp::shfl_idx(v, l);
      if (l > from) acc = static_cast<T>(op(acc, u));
    }
    return acc;
  }
};

}  // namespace archscan::tile
