#pragma once
//! \file One tile of the single-pass chained scan: take a tile id, load the tile warp-striped into
//! registers, scan it (block/striped_scan.cuh), get its exclusive prefix from the tiles before it
//! (tile/chained_status.cuh), and store the results straight from registers.
//!
//! The tile reads all of its input before the block barrier that precedes any store, and reads and
//! writes only its own range, so the output may alias the input. Items past n in the last tile are
//! padded with a copy of item n - 1: they sit after every real item, so no real result depends on
//! them, and no identity element is needed.

#include <cstdint>
#include <type_traits>

#include <archscan/block/striped_scan.cuh>
#include <archscan/detail/problem.cuh>
#include <archscan/tile/chained_status.cuh>
#include <archscan/tuning.cuh>

namespace archscan::tile {

//! Types the read-only data path loads with `__ldg`.
template <class U>
constexpr bool ldg_loadable =
    std::is_same_v<U, char> || std::is_same_v<U, signed char> || std::is_same_v<U, unsigned char> ||
    std::is_same_v<U, short> || std::is_same_v<U, unsigned short> || std::is_same_v<U, int> ||
    std::is_same_v<U, unsigned> || std::is_same_v<U, long> || std::is_same_v<U, unsigned long> ||
    std::is_same_v<U, long long> || std::is_same_v<U, unsigned long long> || std::is_same_v<U, float> ||
    std::is_same_v<U, double>;

template <class It>
struct read_only_input : std::false_type {};
template <class U>
struct read_only_input<U*> : std::bool_constant<ldg_loadable<std::remove_cv_t<U>>> {};

template <class Problem, int Threads, int Items, load_kind Load, bool Shuffle, int WordBytes>
struct chained_scan {
  using T          = typename Problem::accum_type;
  using block_scan = block::striped_scan<T, Threads, Items, Shuffle, WordBytes>;
  static constexpr int tile_items = block_scan::tile_items;
  //! Whether loads take the read-only path (1.4.4.3): asked for, and the input is a raw pointer to a
  //! type `__ldg` knows. The data must not change while the kernel runs: in-place scans qualify, as
  //! a tile writes only addresses that it alone has read, and after reading them.
  static constexpr bool ldg = Load == load_kind::read_only && read_only_input<typename Problem::input_iterator>::value;

  struct storage {
    typename block_scan::storage scan;
    unsigned tile;
  };

  //! Scans one tile. `d_counter` hands out tile ids (nullptr: a single tile, id 0); `tiles` is the
  //! number of tiles of the problem; `lookback_delay_ns`: how long thread 0 sleeps between
  //! publishing its tile's aggregate and walking back (0: not at all).
  template <class Status>
  __device__ static void run(const Problem& p, const Status& status, unsigned* d_counter, std::int64_t tiles,
                             unsigned lookback_delay_ns, storage& s) {
    std::int64_t tile = 0;
    if (d_counter != nullptr) {
      if (threadIdx.x == 0) s.tile = atomicAdd(d_counter, 1u);  // fast global atomics (1.4.4.4)
      __syncthreads();
      tile = s.tile;
    }
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int w    = static_cast<int>(threadIdx.x) / 32;
    const std::int64_t first = tile * tile_items + static_cast<std::int64_t>(w) * block_scan::warp_items + lane;
    const bool full          = (tile + 1) * tile_items <= p.n;

    T v[Items];
    if (full) {
#pragma unroll
      for (int j = 0; j < Items; ++j) v[j] = load(p, first + 32 * j);
    } else {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const std::int64_t i = first + 32 * j;
        v[j]                 = load(p, i < p.n ? i : p.n - 1);
      }
    }

    const T warp_total = block_scan::scan_columns(v, p.op, s.scan);
    if constexpr (Problem::exclusive) block_scan::to_exclusive(v, s.scan);
    const bool tile_has_prefix = tile > 0 || Problem::has_seed;
    const auto before          = block_scan::combine_warps(warp_total, p.op, tile_has_prefix, s.scan,
                                                           [&](const T& total) { return prefix_of(p, status, tile, tiles, lookback_delay_ns, total); });
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::int64_t i = first + 32 * j;
      if (!full && i >= p.n) break;
      if (Problem::exclusive && lane == 0 && j == 0) {
        p.store(i, before.value);  // exclusive problems always have a prefix (the seed at least)
      } else {
        p.store(i, before.valid ? T(p.op(before.value, v[j])) : v[j]);
      }
    }
  }

 private:
  __device__ __forceinline__ static T load(const Problem& p, std::int64_t i) {
    if constexpr (ldg) {
      return static_cast<T>(__ldg(p.in + i));
    } else {
      return p.load(i);
    }
  }

  //! Thread 0: publishes the tile's status and returns the tile's exclusive prefix (seed included).
  template <class Status>
  __device__ static T prefix_of(const Problem& p, const Status& status, std::int64_t tile, std::int64_t tiles,
                                unsigned lookback_delay_ns, const T& total) {
    const bool last = tile + 1 == tiles;  // nobody reads the last tile's status
    if (tile == 0) {
      if (!last) status.publish(0, flag_inclusive, Problem::has_seed ? T(p.op(p.seed, total)) : total);
      return p.seed;  // read only when has_seed
    }
    if (!last) status.publish(tile, flag_aggregate, total);
    // Predecessors publish their inclusive prefixes meanwhile, so the serial walk ends sooner.
    if (lookback_delay_ns > 0) __nanosleep(lookback_delay_ns);
    const T before = serial_lookback<Status, T>(status, tile, p.op);
    if (!last) status.publish(tile, flag_inclusive, T(p.op(before, total)));
    return before;
  }
};

}  // namespace archscan::tile
