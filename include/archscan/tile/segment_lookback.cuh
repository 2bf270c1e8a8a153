#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The segmented look-back (`segment_lookback`), native's walk over the tile states: it folds in
//! the order that the segmented association fixes (tile/lookback.cuh, tile/segment_fold.cuh), so its
//! prefixes are the same bits on every run and every GPU.
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

#include <cstdint>
#include <type_traits>

#include <archscan/detail/keyed.cuh>
#include <archscan/detail/maybe.cuh>
// The warp primitives (warp/shuffle_scan.cuh) come with tile/lookback.cuh, the look-back's one
// header that reaches past block/ (tools/layering_allowlist.txt).
#include <archscan/tile/lookback.cuh>
#include <archscan/tile/segment_fold.cuh>
#include <archscan/tile/tile_state.cuh>

namespace archscan::tile {

//! The states a segmented look-back over `tiles` tiles takes on the segment states: the tiles', then
//! the segments'. The chain of prefixes takes the tiles' alone (dispatch/native_dispatch.cuh).
constexpr std::int64_t segment_lookback_states(std::int64_t tiles) {
  return tiles + (tiles + segment_tiles - 1) / segment_tiles;
}

//! The walk a configuration (tuning/tile_config.cuh) gives accumulators of type `T`: the chain of
//! prefixes for those of at most its `prefix_chain_max_bytes` (for by-key items
//! `keyed_prefix_chain_max_bytes`), the segment states otherwise. A tile may choose otherwise (a
//! native row's `large_chained`, tuning/shape.cuh).
template <class T, class Config>
inline constexpr bool chained_by_size = sizeof(T) <= (detail::is_keyed_v<T> ? Config::keyed_prefix_chain_max_bytes
                                                                            : Config::prefix_chain_max_bytes);

template <class T, class Config, bool Chained = chained_by_size<T, Config>>
struct segment_lookback : segment_fold<T> {
  using fold = segment_fold<T>;
  using fold::segment;

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

 private:
  using fold::cut_lanes;
  using fold::fold_lanes;
  using fold::fold_lanes_from;
  using fold::from_cut;

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
      const tile_status so        = lane < j && !own_done ? st.poll(s * segment + lane, own_v) : status_aggregate;
      const tile_status sp        = s >= 1 ? st.poll((s - 1) * segment + lane, prev_v) : status_aggregate;
      const tile_status se        = s >= 2 && lane == 0 ? st.poll((s - 1) * segment - 1, older_v) : status_aggregate;
      const unsigned own_invalid  = __ballot_sync(warp::full_mask, so == status_invalid);
      const unsigned prev_invalid = __ballot_sync(warp::full_mask, sp == status_invalid);
      has_p_s                     = (__ballot_sync(warp::full_mask, sp == status_prefix) >> (segment - 1)) & 1u;
      has_p_older                 = s == 1 || (__ballot_sync(warp::full_mask, se == status_prefix) & 1u);
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
        const maybe<T> before = s == 1         ? seed
                                : walk_further ? chain_walk_back(st, s - 1, seed, op)
                                               : maybe<T>{warp::shfl_idx(older_v, 0), 1};
        base                  = combine(before, maybe<T>{fold_lanes(prev_v, segment, op).value, 1});
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
    const std::int64_t k      = s - segment + lane;  // this lane's segment in the window of ends
    const bool live           = k >= 0;
    const unsigned live_lanes = __ballot_sync(warp::full_mask, live);
    const unsigned own_lanes  = (1u << j) - 1u;  // j < 32
    T own_v{}, end_v{};                          // own_v: lane l's aggregate a_32s+l, then (own_done) the fold of all
    bool own_done   = j == 0;
    bool own_cut    = false;  // the own fold starts at a cut, whatever P_s
    int latest      = -1;     // the end a fold of P_s starts from (P or cut), -1 for the seed
    bool latest_cut = false;  // that end is a cut, not a P
    backoff<Config> b;
    for (;;) {
      const tile_status so       = lane < j && !own_done ? st.poll(s * segment + lane, own_v) : status_aggregate;
      const tile_status se       = live ? st.poll(tiles + k, end_v) : status_invalid;
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
      const int first = latest >= 0 ? latest + 1 : (s < segment ? static_cast<int>(segment - s) : 0);
      base            = latest >= 0 ? maybe<T>{warp::shfl_idx(end_v, latest), 1} : seed;
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
};

}  // namespace archscan::tile
