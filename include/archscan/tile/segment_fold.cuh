#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The segmented association's folds (tile/lookback.cuh, `segment_tiles`), by one warp: lanes'
//! values folded left to right (by-key items from their last cut), and a tile's exclusive prefix
//! from every tile's aggregate, all stored (a wave after its grid barrier, a cluster's slots). The
//! segmented look-back (tile/segment_lookback.cuh) folds the tile states with the same steps, so
//! that every route gives the same bits.

#include <cstdint>

#include <archscan/detail/keyed.cuh>
#include <archscan/detail/maybe.cuh>
// segment_tiles and segmented_aggregates. The warp primitives (warp/shuffle_scan.cuh) come with it:
// tile/lookback.cuh is the look-back's one header that reaches past block/ (tools/layering_allowlist.txt).
#include <archscan/tile/lookback.cuh>

namespace archscan::tile {

//! The folds of accumulators of type `T`. All 32 lanes of one warp call.
template <class T>
struct segment_fold {
  static constexpr int segment = segment_tiles;
  static_assert(segment == warp::threads, "a lane per tile of a segment");
  //! The tiles whose prefixes one pass of the lanes over their segments folds (32 segments of 32):
  //! a tile past them takes the fold's longer, looping path.
  static constexpr int one_pass_tiles = segment * warp::threads;

  //! The segmented look-back's prefix (segment_lookback::exclusive_prefix) from every tile's
  //! aggregate, all stored (a wave after its grid barrier), bit for bit: `aggregate(i)` returns tile
  //! i's (from global memory, or a copy staged in shared memory; a `segmented_aggregates` also gives
  //! each segment's first, so a lane steps through its segment at constant offsets). Lane l folds
  //! segment l of each 32 (its aggregates in order), and lane s this tile's own segment as far as the
  //! tile; then the segments are combined onto the seed in order, the own fold last.
  //! `MaxTiles`: a bound on the grid's tiles (tile < MaxTiles), whose folds for tiles past it the
  //! compiler then leaves out: a cluster's 16 tiles need only the first segment's fold, a third of
  //! the code for every tile.
  template <std::int64_t MaxTiles = INT64_MAX, class Aggregate, class Op>
  __device__ static detail::maybe<T> exclusive_prefix_of(Aggregate aggregate, std::int64_t tile,
                                                         const detail::maybe<T>& seed, Op op) {
    using detail::maybe;
    const int lane       = warp::lane_id();
    const std::int64_t s = MaxTiles <= segment ? 0 : tile / segment;
    const int j          = static_cast<int>(tile % segment);
    if (MaxTiles <= one_pass_tiles || s < warp::threads) {
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
    const T mine       = lane < j ? aggregate(s * segment + lane) : T{};
    const maybe<T> own = fold_lanes(mine, j, op);
    maybe<T> base      = seed;
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

 protected:
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
