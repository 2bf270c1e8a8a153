#pragma once
//! \file Look-back: how a tile learns the exclusive prefix of everything before it in one pass, from the
//! tile states (tile/tile_state.cuh) of its predecessors. Two walks over the same states:
//!
//!  - `serial_lookback`: one thread walks back one predecessor at a time, folding aggregates, until
//!    it meets a published inclusive prefix (the kepler family);
//!  - `window_lookback`: a warp reads a window of up to 32 predecessors at once (one lane each); where
//!    one of them has published its inclusive prefix the walk stops, otherwise the window's aggregates
//!    are folded in and the window slides further back (the turing family). 32 independent loads in
//!    flight instead of one dependent chain.
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

//! Polls tile `t` (one thread) until its status is at least `at_least`; its value in `v`.
template <class Config, class State, class T>
__device__ __forceinline__ void wait_status(const State& st, std::int64_t t, T& v, tile_status at_least) {
  backoff<Config> b;
  while (st.poll(t, v) < at_least) b.wait();
}

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

//! Deterministic look-back: tiles in groups of `Config::group_tiles` (a multiple of 32). The last tile
//! of each group publishes its inclusive prefix; every other tile publishes only its aggregate. A
//! tile's exclusive prefix is the inclusive prefix published by the last tile of the group before
//! (the seed for the first group) combined with the aggregates of the tiles before it in its own
//! group, folded in a fixed order: lane l folds its run of group_tiles / 32 consecutive aggregates,
//! then the runs are combined by one warp scan. Every combination is a function of the tile index
//! alone, so the results are the same bits on every run and every GPU, whatever was published first.
//! The groups' prefixes form a chain of one step per group.
template <class T, class Config>
struct group_lookback {
  static constexpr int group    = Config::group_tiles;
  static constexpr int per_lane = group / warp::threads;
  static_assert(group >= warp::threads && group % warp::threads == 0, "group_tiles: a multiple of 32");

  //! Whether tile `tile` publishes its inclusive prefix (the last of its group).
  __host__ __device__ static constexpr bool publishes_prefix(std::int64_t tile) { return tile % group == group - 1; }

  //! The combination, in tile order, of the aggregates of tiles [first, first + count) of one group
  //! (count < group), the same way wherever it is computed: lane l folds its run of `per_lane`, then
  //! one warp scan. `aggregate(t, v)` stores tile t's aggregate in v. All 32 lanes call.
  template <class Aggregate, class Op>
  __device__ static detail::maybe<T> fold(Aggregate aggregate, std::int64_t first, int count, Op op) {
    using detail::maybe;
    using detail::maybe_op;
    const int lane = warp::lane_id();
    maybe<T> mine{T{}, 0};
#pragma unroll
    for (int k = 0; k < per_lane; ++k) {
      const int i = lane * per_lane + k;
      if (i < count) {
        T v;
        aggregate(first + i, v);
        mine = maybe_op<Op>{op}(mine, maybe<T>{v, 1});
      }
    }
    const maybe<T> scanned = warp::inclusive_scan(mine, maybe_op<Op>{op});
    return warp::shfl_idx(scanned, warp::threads - 1);
  }

  //! The exclusive prefix of tile `tile` (absent for tile 0 without a seed) from the tile states;
  //! `seed` is the problem's. All 32 lanes of one warp call.
  template <class State, class Op>
  __device__ static detail::maybe<T> exclusive_prefix(const State& st, std::int64_t tile, const detail::maybe<T>& seed,
                                                      Op op) {
    const std::int64_t first = tile - tile % group;  // the group's first tile
    const int before         = static_cast<int>(tile - first);
    auto published = [&](std::int64_t t, T& v) {  // only a group's last tile publishes a prefix
      wait_status<Config>(st, t, v, status_aggregate);
    };
    // With group_prefix_first, one lane waits for the group before's prefix first (the last tile of
    // a group, on the chain, polls at the fast backoff; the others slowly), and the aggregates are
    // read after it, when they have long been published: far fewer polls in flight.
    detail::maybe<T> base = seed;
    if constexpr (Config::group_prefix_first) base = group_base(st, first, tile, seed);
    const detail::maybe<T> part = fold(published, first, before, op);
    if constexpr (!Config::group_prefix_first) base = group_base(st, first, tile, seed);
    return detail::maybe_op<Op>{op}(base, part);
  }

  //! The same prefix as `exclusive_prefix`, bit for bit, from `d_aggregates` (every tile's aggregate,
  //! all stored before this call: a wave after its grid barrier). The groups' prefixes are formed
  //! as the chain forms them: each group's last tile combines its exclusive prefix with its aggregate.
  template <class Op>
  __device__ static detail::maybe<T> exclusive_prefix(const T* d_aggregates, std::int64_t tile,
                                                      const detail::maybe<T>& seed, Op op) {
    using detail::maybe;
    auto stored = [&](std::int64_t t, T& v) { v = d_aggregates[t]; };
    const std::int64_t first = tile - tile % group;
    maybe<T> base            = seed;
    for (std::int64_t g = 0; g < first; g += group) {
      const maybe<T> last_prefix = detail::maybe_op<Op>{op}(base, fold(stored, g, group - 1, op));
      const T last               = d_aggregates[g + group - 1];
      base = maybe<T>{last_prefix.valid ? T(op(last_prefix.value, last)) : last, 1};
    }
    return detail::maybe_op<Op>{op}(base, fold(stored, first, static_cast<int>(tile - first), op));
  }

 private:
  //! The prefix of everything before tile `first` (a group's first tile): the seed, or what the last
  //! tile of the group before published. All lanes call; lane 0 polls.
  template <class State>
  __device__ static detail::maybe<T> group_base(const State& st, std::int64_t first, std::int64_t tile,
                                                const detail::maybe<T>& seed) {
    if (first == 0) return seed;
    T v{};
    if (warp::lane_id() == 0) {
      const bool on_chain = publishes_prefix(tile);
      unsigned delay      = on_chain ? Config::backoff_min_ns : Config::group_wait_min_ns;
      const unsigned cap  = on_chain ? Config::backoff_max_ns : Config::group_wait_max_ns;
      std::uint64_t polls = 0;
      while (st.poll(first - 1, v) < status_prefix) {
        if constexpr (Config::spin_limit > 0) {
          if (++polls >= Config::spin_limit) __trap();
        }
        __nanosleep(delay);
        delay = delay * 2 < cap ? delay * 2 : cap;
      }
    }
    return detail::maybe<T>{warp::shfl_idx(v, 0), 1};
  }
};

}  // namespace archscan::tile
