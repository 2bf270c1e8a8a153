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
//!  - `segment_lookback`: tiles form segments of 32 whose prefixes are published by each segment's
//!    last tile (as a chain, or decoupled in segment states of their own), and every value is folded
//!    in an order fixed by tile indices, so that every result is the same bits on every run and every
//!    GPU (the native family).
//!
//! All combine earlier values on the left, so operators need not commute.
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
#include <type_traits>

#include <archscan/detail/keyed.cuh>
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

//! Segmented look-back, bitwise deterministic: every combination is a function of tile indices alone,
//! so results are the same bits on every run and every GPU (timing, occupancy and SM count do not
//! enter), floating point included. Tiles form segments of 32. With a_t the aggregate of tile t:
//!
//!   R_k       = ((a_32k + a_32k+1) + ...) + a_32k+31      the segment's aggregates, left to right
//!   P_0       = the seed (or nothing); P_k+1 = P_k + R_k   the prefix before segment k+1
//!   prefix(t) = P_s + (((a_32s + ...) + a_t-1))           t = 32s + j: P_s, then the segment's
//!                                                         tiles before t, left to right
//!
//! Every tile publishes its aggregate in its own state. Two walks find P_s, both the same left fold
//! from the seed, so the same bits; the tuning chooses by the accumulator (`chained`):
//!
//!  - the chain of prefixes: a segment's last tile publishes P_s+1 in its own state (status_prefix),
//!    once it has P_s. A tile polls the segment before its own, whose last tile holds P_s once
//!    published; where it is not, the tile folds that segment's 32 aggregates onto P_s-1 (or walks
//!    further back). Cheap per tile, but a segment's prefix comes from the one before it (P_s, or
//!    P_s-1 and the segment's aggregates): the prefixes form a chain, a round trip per segment.
//!  - the segment states: one state per segment after the tiles' (`segment_lookback_states`), which
//!    the segment's last tile fills with R_s as soon as its segment's other tiles have published,
//!    and with P_s+1 once it knows P_s (or, for by-key items whose R_s holds a segment start, at
//!    once: P_s+1 is then R_s itself). A look-back of its own, one level up and decoupled as CUB's
//!    is: P_s is the latest published P_k among the 32 segment states before s, folded with R_k ..
//!    R_s-1 left to right, and no prefix waits for the one before it in particular. The segment
//!    states sit together, so a window of them is one or two cache lines.
//!
//! On the H100 (docs/design-notes.md) the chain is faster for plain accumulators of up to 8 bytes (int32 and
//! double at 2^30: +9%) and for the 16-byte product's large tiles (+5% from 2^26 on 192x21 tiles), the
//! segment states for by-key items (whose chain steps are slow: int32 +23%) and for that product's
//! full tiles (2^21: +13%).
inline constexpr int segment_tiles = 32;

//! The states a segmented look-back over `tiles` tiles takes on the segment states: the tiles', then
//! the segments'. The chain of prefixes takes the tiles' alone (dispatch/native_dispatch.cuh).
constexpr std::int64_t segment_lookback_states(std::int64_t tiles) {
  return tiles + (tiles + segment_tiles - 1) / segment_tiles;
}

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

//! The walk a tuning gives accumulators of type `T`: the chain of prefixes for those of at most its
//! `prefix_chain_max_bytes` (for by-key items `keyed_prefix_chain_max_bytes`), the segment states
//! otherwise (and for tunings of families without this walk, which never take it). A tile may
//! choose otherwise (a native row's `large_chained`, tuning/shape.cuh).
template <class T, class Config, class = void>
struct chained_by_size_of : std::false_type {};
template <class T, class Config>
struct chained_by_size_of<T, Config,
                          std::void_t<decltype(Config::prefix_chain_max_bytes), decltype(Config::keyed_prefix_chain_max_bytes)>>
    : std::bool_constant<(sizeof(T) <= (detail::is_keyed_v<T> ? Config::keyed_prefix_chain_max_bytes
                                                                : Config::prefix_chain_max_bytes))> {};
template <class T, class Config>
inline constexpr bool chained_by_size = chained_by_size_of<T, Config>::value;

template <class T, class Config, bool Chained = chained_by_size<T, Config>>
struct segment_lookback {
  static constexpr int segment = segment_tiles;
  static_assert(segment == warp::threads, "a lane per tile of a segment");

  //! The chain of prefixes, or the segment states.
  static constexpr bool chained = Chained;

  //! The exclusive prefix of tile `tile` of `tiles` (absent only for tile 0 without a seed); the
  //! tile's aggregate is published already. A segment's last tile also publishes P_s+1 (and, on the
  //! segment states, R_s first). All 32 lanes of one warp call. `delay_ns`: a sleep before the first
  //! poll, so that the nearest prefixes are more often published when it comes.
  template <class State, class Op>
  __device__ static detail::maybe<T> exclusive_prefix(const State& st, std::int64_t tile, std::int64_t tiles,
                                                      const T& aggregate, const detail::maybe<T>& seed, Op op,
                                                      unsigned delay_ns) {
    if constexpr (chained) {
      return chain_prefix(st, tile, aggregate, seed, op, delay_ns);
    } else {
      return segment_states_prefix(st, tile, tiles, aggregate, seed, op, delay_ns);
    }
  }

  //! The same prefix from every tile's aggregate, all stored (a wave after its grid barrier), bit for
  //! bit: `aggregate(i)` returns tile i's (from global memory, or a copy staged in shared memory; a
  //! `segmented_aggregates` also gives each segment's first, so a lane steps through its segment at
  //! constant offsets). Lane l folds segment l of each 32 (its aggregates in order), and lane s this
  //! tile's own segment as far as the tile; then the segments are combined onto the seed in order,
  //! the own fold last.
  template <class Aggregate, class Op>
  __device__ static detail::maybe<T> exclusive_prefix_of(Aggregate aggregate, std::int64_t tile,
                                                         const detail::maybe<T>& seed, Op op) {
    using detail::maybe;
    const int lane       = warp::lane_id();
    const std::int64_t s = tile / segment;
    const int j          = static_cast<int>(tile % segment);
    if (s < warp::threads) {
      // One pass: lane l < s folds segment l, lane s the j aggregates of this tile's own segment,
      // all at once; then the seed, R_0 .. R_s-1 and (for j > 0) the own fold, one after another:
      // the association of the code below, with one chain of folds instead of two.
      // Within the first segment (s = 0) the fold stops at its own end: tile 1 of a cluster folds
      // one aggregate, not 31 with the rest masked (a chain of 31 latencies of a slow operator such
      // as the by-key 2x2 product). Small accumulators step as far as the warp's longest fold:
      // whole segments unrolled by 8, the loads of a group in flight at once (where the own segment
      // is readable to its end, its lane folds it whole too and keeps its part); the first
      // segment's fold in chunks of 8 loads, the steps past the end selected off.
      const int count = lane < s ? segment : lane == s ? j : 0;
      // Aggregate i of this lane's segment. From the segment's own first where the accessor gives it:
      // an index per step formed in 64 bits (and, staged, i + i / 32) cost more issue slots than the
      // step's operator.
      const auto at = [&](int i) -> T {
        if constexpr (is_segmented_aggregates<Aggregate>::value) {
          return aggregate.segment(count > 0 ? lane : 0)[i];
        } else {
          return aggregate(static_cast<std::int64_t>(lane) * segment + i);
        }
      };
      T r{};
      if (count > 0) {
        r = at(0);
        if constexpr (unrolled) {
          // Computed, then selected: a branch around the step (the by-key operator branches too)
          // measured up to 17% slower.
          const auto step = [&](int i, const T& v) {
            const T next = static_cast<T>(op(r, v));
            r            = i < count ? next : r;
          };
          if (s > 0 && whole_segments<Aggregate>) {
            // Every lane folds all 32 of its segment, so that no step of the chain waits on a
            // select: lane s keeps its fold after its j-th aggregate (its own part), off the chain,
            // and discards the steps after it (the aggregates of tiles after this one).
            T own = r;
#pragma unroll 8
            for (int i = 1; i < segment; ++i) {
              r   = static_cast<T>(op(r, at(i)));
              own = i == count - 1 ? r : own;
            }
            r = own;
          } else if (s > 0) {
#pragma unroll 8
            for (int i = 1; i < segment; ++i) step(i, at(i < count ? i : 0));
          } else {
            constexpr int chunk = 8;
#pragma unroll 1
            for (int c = 1; c < j; c += chunk) {
              T v[chunk];
#pragma unroll
              for (int k = 0; k < chunk; ++k) v[k] = at(c + k < count ? c + k : 0);
#pragma unroll
              for (int k = 0; k < chunk; ++k) step(c + k, v[k]);
            }
          }
        } else {
#pragma unroll 1
          for (int i = 1; i < count; ++i) r = static_cast<T>(op(r, at(i)));
        }
      }
      // The chain, one step a lane: each lane's shuffle is issued a step ahead of its operation, so
      // that a step waits on the operator, not on a shuffle and then the operator. Without a seed the
      // chain starts at lane 0's fold (R_0, or for s = 0 the own part; the seed's presence is the
      // same in every lane). folded >= 1: tile > 0.
      const int folded = static_cast<int>(s) + (j > 0 ? 1 : 0);
      T next           = warp::shfl_idx(r, 0);
      T acc            = seed.value;
      int l            = 0;
      if (!seed.valid) {
        acc  = next;
        next = warp::shfl_idx(r, 1);
        l    = 1;
      }
#pragma unroll 1
      for (; l < folded; ++l) {
        const T u = next;
        next      = warp::shfl_idx(r, (l + 1) & (warp::threads - 1));
        acc       = static_cast<T>(op(acc, u));
      }
      return maybe<T>{acc, 1};
    }
    const T mine         = lane < j ? aggregate(s * segment + lane) : T{};
    const maybe<T> own   = fold_lanes(mine, j, op);
    maybe<T> base        = seed;
    for (std::int64_t k0 = 0; k0 < s; k0 += warp::threads) {
      const std::int64_t k = k0 + lane;
      T r{};
      if (k < s) {
        r = aggregate(k * segment);
#pragma unroll(unrolled ? 8 : 1)
        for (int i = 1; i < segment; ++i) r = static_cast<T>(op(r, aggregate(k * segment + i)));
      }
      base = chain_lanes(base, r, s - k0 < warp::threads ? static_cast<int>(s - k0) : warp::threads, op);
    }
    return detail::maybe_op<Op>{op}(base, own);
  }

 private:
  //! The chain of prefixes (see the file's comment on `segment_lookback`).
  template <class State, class Op>
  __device__ static detail::maybe<T> chain_prefix(const State& st, std::int64_t tile, const T& aggregate,
                                                  const detail::maybe<T>& seed, Op& op, unsigned delay_ns) {
    using detail::maybe;
    const detail::maybe_op<Op> combine{op};
    const int lane       = warp::lane_id();
    const std::int64_t s = tile / segment;
    const int j          = static_cast<int>(tile % segment);
    if (delay_ns > 0 && tile > 0) __nanosleep(delay_ns);
    // One round of polls, in flight together, repeated until it suffices: this segment's tiles before
    // this one (lanes < j), the segment before (its last tile holds P_s once published) and, in lane
    // 0, the end of the one before that (P_s-1), from which the segment before folds to P_s.
    // This segment's aggregates are folded in the round that finds them all published, and polled no
    // more: they come before P_s, so a segment's last tile has them folded when P_s arrives, and the
    // chain pays two operations per segment.
    T own_v{}, prev_v{}, older_v{};  // own_v: lane l's aggregate a_32s+l, then (own_done) the fold of all
    bool own_done = false, has_p_s = false, has_p_older = false, walk_further = false;
    backoff<Config> b;
    for (;;) {
      const tile_status so = lane < j && !own_done ? st.poll(s * segment + lane, own_v) : status_aggregate;
      const tile_status sp = s >= 1 ? st.poll((s - 1) * segment + lane, prev_v) : status_aggregate;
      const tile_status se = s >= 2 && lane == 0 ? st.poll((s - 1) * segment - 1, older_v) : status_aggregate;
      const unsigned own_invalid  = __ballot_sync(warp::full_mask, so == status_invalid);
      const unsigned prev_invalid = __ballot_sync(warp::full_mask, sp == status_invalid);
      has_p_s     = (__ballot_sync(warp::full_mask, sp == status_prefix) >> (segment - 1)) & 1u;
      has_p_older = s == 1 || (__ballot_sync(warp::full_mask, se == status_prefix) & 1u);
      if (!own_done && own_invalid == 0) {  // uniform: a ballot
        own_v    = fold_lanes(own_v, j, op).value;
        own_done = true;
      }
      if (own_done && (s == 0 || has_p_s)) break;
      if (own_done && prev_invalid == 0) {
        walk_further = !has_p_older;  // P_s-1 is not published either: walk back for it
        break;
      }
      b.wait();
    }
    const maybe<T> own{own_v, j > 0 ? 1 : 0};  // a_32s + ... + a_t-1
    maybe<T> base = seed;                      // P_s
    if (s >= 1) {
      if (has_p_s) {
        base = maybe<T>{warp::shfl_idx(prev_v, segment - 1), 1};
      } else {
        const maybe<T> before = s == 1          ? seed
                                : walk_further ? chain_walk_back(st, s - 1, seed, op)
                                               : maybe<T>{warp::shfl_idx(older_v, 0), 1};
        base = combine(before, maybe<T>{fold_lanes(prev_v, segment, op).value, 1});
      }
    }
    if (j == segment - 1 && lane == 0) {  // P_s+1 = P_s + R_s, R_s = own + a_t
      const maybe<T> whole{static_cast<T>(op(own.value, aggregate)), 1};
      st.publish(tile, status_prefix, combine(base, whole).value);
    }
    return combine(base, own);
  }

  //! The segment states (see the file's comment on `segment_lookback`).
  template <class State, class Op>
  __device__ static detail::maybe<T> segment_states_prefix(const State& st, std::int64_t tile, std::int64_t tiles,
                                                           const T& aggregate, const detail::maybe<T>& seed, Op& op,
                                                           unsigned delay_ns) {
    static_assert(!detail::is_keyed_v<T> || detail::is_segmented_op_v<Op>, "by-key items fold under segmented_op");
    using detail::maybe;
    const detail::maybe_op<Op> combine{op};
    const int lane       = warp::lane_id();
    const std::int64_t s = tile / segment;
    const int j          = static_cast<int>(tile % segment);
    // A segment's last tile does not sleep: its segment's other tiles have mostly published by now,
    // and the R_s it then publishes is what the next segment's tiles wait for.
    if (delay_ns > 0 && tile > 0 && j != segment - 1) __nanosleep(delay_ns);
    // One round of polls, in flight together, repeated until it suffices: this segment's tiles before
    // this one (lanes < j), and the states of the 32 segments before this one (lane l: segment
    // s-32+l), R or P. For plain accumulators it suffices once the own tiles have all published and,
    // after the latest P among those (or from the seed, when the window reaches segment 0), every
    // segment has its R.
    // Past 32 segments back a tile waits for a P to appear in its window rather than walking further:
    // those segments' last tiles started long before it, so they publish (forward progress as in the
    // file's comment), and rarely late.
    // By-key items may start a fold at a cut (`cut_lanes`) as they may at a P: the latest published
    // cut with every state after it published suffices, and a cut among the own tiles makes P_s
    // unneeded. Same bits: the fold from a cut is the fold from the start.
    // This segment's aggregates are folded in the round that finds them all (or a cut and all after
    // it), and polled no more: for a segment's last tile that is when R_s can be published.
    const std::int64_t k       = s - segment + lane;  // this lane's segment in the window of ends
    const bool live            = k >= 0;
    const unsigned live_lanes  = __ballot_sync(warp::full_mask, live);
    const unsigned own_lanes   = (1u << j) - 1u;      // j < 32
    T own_v{}, end_v{};  // own_v: lane l's aggregate a_32s+l, then (own_done) the fold of all
    bool own_done = j == 0;
    bool own_cut  = false;  // the own fold starts at a cut, whatever P_s
    int latest      = -1;     // the end a fold of P_s starts from (P or cut), -1 for the seed
    bool latest_cut = false;  // that end is a cut, not a P
    backoff<Config> b;
    for (;;) {
      const tile_status so = lane < j && !own_done ? st.poll(s * segment + lane, own_v) : status_aggregate;
      const tile_status se = live ? st.poll(tiles + k, end_v) : status_invalid;
      const unsigned own_invalid = __ballot_sync(warp::full_mask, so == status_invalid);
      const unsigned prefixes    = __ballot_sync(warp::full_mask, se == status_prefix);
      const unsigned missing     = live_lanes & __ballot_sync(warp::full_mask, se == status_invalid);
      if (!own_done) {  // uniform
        const unsigned cuts = cut_lanes(own_v, own_lanes & above(own_invalid));
        if (own_invalid == 0 || cuts != 0) {
          own_v    = fold_lanes_from(own_v, j, op, cuts).value;
          own_cut  = cuts != 0;
          own_done = true;
          if (j == segment - 1 && lane == 0) {
            st.publish(tiles + s, status_aggregate, static_cast<T>(op(own_v, aggregate)));
          }
        }
      }
      const unsigned anchors = (prefixes | cut_lanes(end_v, live_lanes & ~missing)) & above(missing);
      latest                 = anchors != 0 ? 31 - __clz(anchors) : -1;
      latest_cut             = latest >= 0 && ((prefixes >> latest) & 1u) == 0;
      if (own_done && (own_cut || latest >= 0 || (missing == 0 && s <= segment))) break;
      b.wait();
    }
    const maybe<T> own{own_v, j > 0 ? 1 : 0};  // a_32s + ... + a_t-1
    // P_s: from the latest anchor (or the seed), then the R of each end after it, in order. Not
    // needed where the own fold starts at a cut: op(P_s, own) is own.
    maybe<T> base{T{}, 0};
    if (!own_cut) {
      const int first  = latest >= 0 ? latest + 1 : (s < segment ? static_cast<int>(segment - s) : 0);
      base             = latest >= 0 ? maybe<T>{warp::shfl_idx(end_v, latest), 1} : seed;
      if (latest_cut) base.value = from_cut(base.value);  // a cut's R stands for the fold up to it
      // Rolled: the segments after the anchor are few, and unrolled shuffles cost the tile registers.
      for (int l = first; l < segment; ++l) base = combine(base, maybe<T>{warp::shfl_idx(end_v, l), 1});
    }
    if (j == segment - 1 && lane == 0) {  // P_s+1 = P_s + R_s, R_s = own + a_t
      const maybe<T> whole{static_cast<T>(op(own.value, aggregate)), 1};
      st.publish(tiles + s, status_prefix, combine(base, whole).value);
    }
    return combine(base, own);
  }

  //! The lanes above the highest set in `lanes` (all for none): those whose states a fold may use
  //! when the lanes in `lanes` have not published.
  __device__ static unsigned above(unsigned lanes) { return lanes == 0 ? ~0u : ~(~0u >> __clz(lanes)); }

  //! The lanes among `lanes` from which a left fold of `v` may start, bit for bit: for by-key items,
  //! where a segment starts (lane m's run restarts, or lane m - 1's closes), since op(x, a_m) is then
  //! a_m with its restarts flag set whatever x (detail/keyed.cuh); none for other accumulators.
  __device__ static unsigned cut_lanes(const T& v, unsigned lanes) {
    if constexpr (detail::is_keyed_v<T>) {
      const unsigned restarts = __ballot_sync(warp::full_mask, v.restarts());
      const unsigned closes   = __ballot_sync(warp::full_mask, v.closes()) & lanes;
      return (restarts | (closes << 1)) & lanes;
    } else {
      return 0;
    }
  }

  //! P_s on the chain, for a tile that found neither P_s nor P_s-1: from the nearest segment end that
  //! has published its prefix (or the seed), folding the segments after it in order.
  template <class State, class Op>
  __device__ static detail::maybe<T> chain_walk_back(const State& st, std::int64_t s, const detail::maybe<T>& seed,
                                                     Op& op) {
    using detail::maybe;
    if (s == 0) return seed;
    const int lane = warp::lane_id();
    // Lane i looks at the end of segment e - 1 - i (holding P_e-i once published), no waiting.
    std::int64_t start = 0;  // the segment whose prefix the fold starts from
    maybe<T> base      = seed;
    for (std::int64_t e = s; e > 0; e -= warp::threads) {
      const std::int64_t k = e - lane;  // P_k sits at tile 32k - 1
      T v{};
      const bool published = k >= 1 && st.poll(k * segment - 1, v) == status_prefix;
      const unsigned found = __ballot_sync(warp::full_mask, published);
      if (found) {
        const int nearest = __ffs(found) - 1;
        start             = e - nearest;
        base              = maybe<T>{warp::shfl_idx(v, nearest), 1};
        break;
      }
    }
    // Segments start..s-1: R_k from its 32 aggregates, or P_k+1 itself where its end has published.
    for (std::int64_t k = start; k < s; ++k) {
      T v{};
      backoff<Config> b;
      unsigned prefix;
      for (;;) {  // until segment k's tiles have all published, or its last tile its prefix
        const tile_status sk   = st.poll(k * segment + lane, v);
        const unsigned invalid = __ballot_sync(warp::full_mask, sk == status_invalid);
        prefix                 = __ballot_sync(warp::full_mask, sk == status_prefix);
        if (invalid == 0 || (prefix >> (segment - 1)) & 1u) break;
        b.wait();
      }
      if ((prefix >> (segment - 1)) & 1u) {
        base = maybe<T>{warp::shfl_idx(v, segment - 1), 1};
      } else {
        base = detail::maybe_op<Op>{op}(base, maybe<T>{fold_lanes(v, segment, op).value, 1});
      }
    }
    return base;
  }

  //! Folds of accumulators up to 16 bytes are unrolled: the shuffles do not depend on the fold and
  //! are in flight together, so the chain is the operator's latency alone. Larger ones loop: unrolled,
  //! a 1024-byte accumulator's 31 steps of 256 shuffle words each took ptxas minutes per kernel.
  static constexpr bool unrolled = sizeof(T) <= 16;

  //! Lanes [0, count) of `v` folded left to right (absent for count 0); `count` is the same in
  //! every lane. By-key items fold from the last cut among them (`cut_lanes`), from lane 0 where
  //! there is none.
  template <class Op>
  __device__ static detail::maybe<T> fold_lanes(const T& v, int count, Op& op) {
    return fold_lanes_from(v, count, op, cut_lanes(v, count >= warp::threads ? ~0u : (1u << count) - 1u));
  }

  //! The same fold, for by-key items from the last of `cuts` (cut lanes among [0, count), as
  //! `cut_lanes` finds them; 0: from lane 0): the caller makes sure that every lane the fold reads
  //! holds its value (all of [0, count), or the last cut and every lane from it to count - 1).
  //! Other accumulators have no cuts and fold from lane 0.
  template <class Op>
  __device__ static detail::maybe<T> fold_lanes_from(const T& v, int count, Op& op, unsigned cuts) {
    static_assert(!detail::is_keyed_v<T> || detail::is_segmented_op_v<Op>, "by-key items fold under segmented_op");
    if constexpr (detail::is_keyed_v<T>) {
      // From the last cut: a few steps at most where tiles hold segment starts, instead of count - 1.
      const int m = cuts != 0 ? 31 - __clz(cuts) : 0;
      T acc       = warp::shfl_idx(v, m);
      if (cuts != 0) acc = from_cut(acc);
#pragma unroll 1
      for (int l = m + 1; l < count; ++l) acc = static_cast<T>(op(acc, warp::shfl_idx(v, l)));
      return detail::maybe<T>{acc, count > 0 ? 1 : 0};
    }
    T acc = warp::shfl_idx(v, 0);
    if constexpr (unrolled) {
#pragma unroll
      for (int l = 1; l < warp::threads; ++l) {
        const T u = warp::shfl_idx(v, l);
        if (l < count) acc = static_cast<T>(op(acc, u));
      }
    } else {
#pragma unroll 1
      for (int l = 1; l < count; ++l) acc = static_cast<T>(op(acc, warp::shfl_idx(v, l)));
    }
    return detail::maybe<T>{acc, count > 0 ? 1 : 0};
  }

  //! `v` standing for a fold that starts at a cut, whatever came before it: by-key items with their
  //! restarts flag set, so that combined after anything they stay themselves (detail/keyed.cuh);
  //! other accumulators unchanged (they have no cuts).
  __device__ static T from_cut(T v) {
    if constexpr (detail::is_keyed_v<T>) v.flags = static_cast<std::uint8_t>(v.flags | T::restarts_bit);
    return v;
  }

  //! `acc`, then lanes [0, count) of `v` combined onto it in order, one at a time (`count` the same
  //! in every lane).
  template <class Op>
  __device__ static detail::maybe<T> chain_lanes(detail::maybe<T> acc, const T& v, int count, Op& op) {
    auto step = [&](const T& u) { acc = detail::maybe<T>{acc.valid ? static_cast<T>(op(acc.value, u)) : u, 1}; };
    if constexpr (unrolled) {
#pragma unroll
      for (int l = 0; l < warp::threads; ++l) {
        const T u = warp::shfl_idx(v, l);
        if (l < count) step(u);
      }
    } else {
#pragma unroll 1
      for (int l = 0; l < count; ++l) step(warp::shfl_idx(v, l));
    }
    return acc;
  }
};

}  // namespace archscan::tile
