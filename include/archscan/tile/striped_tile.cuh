#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The striped tile (the kepler family): take a tile id, load the tile warp-striped into
//! registers, scan it (block/striped_scan.cuh), get its exclusive prefix from the tiles before it by a
//! serial look-back (tile/lookback.cuh), and store the results straight from registers.
//!
//! The tile reads all of its input before the block barrier that precedes any store, and reads and
//! writes only its own range, so the output may alias the input. Items past n in the last tile are
//! padded with a copy of item n - 1: they sit after every real item, so no real result depends on
//! them, and no identity element is needed.

#include <cstdint>

#include <archscan/block/striped_scan.cuh>
#include <archscan/detail/hook_traits.cuh>
#include <archscan/detail/problem.cuh>
#include <archscan/detail/read_only.cuh>
#include <archscan/tile/lookback.cuh>
#include <archscan/tile/tile_state.cuh>

namespace archscan::tile {

//! `Config`: one tile shape of a kepler tuning, resolved (tuning/tile_config.cuh, `striped_config`): the
//! row's full or small tiles, how they load and exchange, and how they wait.
template <class Problem, class Config>
struct striped_tile {
  static constexpr int items = Config::items_per_thread;  // a thread's, in registers
  using T                    = typename Problem::accum_type;
  using block_scan = block::striped_scan<T, Config::threads, items, Config::shuffle_exchange, Config::smem_word_bytes>;
  using state_t    = tile_state<T, packs_state<Config::packed_status, T>>;
  static constexpr int tile_items = block_scan::tile_items;
  static constexpr bool ldg       = detail::loads_read_only<Config::read_only_loads, typename Problem::input_iterator>;

  struct storage {
    typename block_scan::storage scan;
    std::int64_t tile;
  };

  //! Scans one tile of a problem of `tiles` tiles; `st` is unused when there is one tile.
  //! `lookback_delay_ns`: how long thread 0 sleeps between publishing its tile's aggregate and walking
  //! back (0: not at all).
  __device__ static void run(const Problem& p, const state_t& st, std::int64_t tiles, unsigned lookback_delay_ns,
                             storage& s) {
    std::int64_t tile = 0;
    if (tiles > 1) {
      if (threadIdx.x == 0) s.tile = st.next_tile();  // fast global atomics (1.4.4.4)
      __syncthreads();
      tile = s.tile;
    }
    const int lane           = static_cast<int>(threadIdx.x) % 32;
    const int w              = static_cast<int>(threadIdx.x) / 32;
    const std::int64_t first = tile * tile_items + static_cast<std::int64_t>(w) * block_scan::warp_items + lane;
    const bool full          = (tile + 1) * tile_items <= p.n;

    T v[items];
    if (full) {
#pragma unroll
      for (int j = 0; j < items; ++j) v[j] = load(p, first + 32 * j);
    } else {
#pragma unroll
      for (int j = 0; j < items; ++j) {
        const std::int64_t i = first + 32 * j;
        v[j]                 = load(p, i < p.n ? i : p.n - 1);
      }
    }

    const T warp_total = block_scan::scan_columns(v, p.op, s.scan);
    if constexpr (Problem::exclusive) block_scan::to_exclusive(v, s.scan);
    const bool tile_has_prefix = tile > 0 || p.seed_maybe().valid;
    const auto before = block_scan::combine_warps(warp_total, p.op, tile_has_prefix, s.scan, [&](const T& total) {
      return prefix_of(p, st, tile, tiles, lookback_delay_ns, total);
    });
#pragma unroll
    for (int j = 0; j < items; ++j) {
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

  //! Thread 0: publishes the tile's state and returns the tile's exclusive prefix (seed included).
  __device__ static T prefix_of(const Problem& p, const state_t& st, std::int64_t tile, std::int64_t tiles,
                                unsigned lookback_delay_ns, const T& total) {
    detail::hook_traits<typename Config::hooks>::starve(tile);
    const bool last = tile + 1 == tiles;  // nobody reads the last tile's state
    if (tile == 0) {
      if (!last) st.publish(0, status_prefix, p.seeded(total));
      return p.seed_maybe().value;  // read only when there is a seed
    }
    if (!last) st.publish(tile, status_aggregate, total);
    // Predecessors publish their inclusive prefixes meanwhile, so the serial walk ends sooner.
    if (lookback_delay_ns > 0) __nanosleep(lookback_delay_ns);
    const T before = serial_lookback<Config, state_t, T>(st, tile, p.op);
    if (!last) st.publish(tile, status_prefix, T(p.op(before, total)));
    return before;
  }
};

}  // namespace archscan::tile
