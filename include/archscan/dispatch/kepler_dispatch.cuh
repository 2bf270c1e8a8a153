#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The kepler family's dispatch: one single-pass chained scan kernel over striped tiles.
//!
//! Why single pass: a scan must read n items and write n results (2n words). Reduce-then-scan reads
//! the input twice (3n words, at best 2/3 of the copy rate unless the second read hits L2), and a chain
//! in which each tile waits for its predecessor's inclusive prefix is latency-bound (one L2 round trip
//! per tile, in sequence). Here each tile publishes its aggregate first, so a tile's serial look-back
//! rarely walks more than a few tiles, and 2n words move (plus one tile state per tile).
//!
//! Temporary storage: none for a single tile; otherwise the tile states (tile/tile_state.cuh), reset by
//! one `cudaMemsetAsync` on the stream. Example: 2^28 int32 in tiles of 8192: 32768 packed states,
//! 256 B + 256 KiB. Synchronization: none (enqueue only). Determinism: a tile's prefix combines
//! aggregates and one inclusive prefix of earlier tiles; which mix it sees depends on timing, so
//! results repeat for exact operators and may differ in the last bits for floating point.

#include <cstdint>

#include <archscan/detail/math.cuh>
#include <archscan/dispatch/family.cuh>
#include <archscan/dispatch/single_pass_plan.cuh>
#include <archscan/kernel/kepler_kernels.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

struct kepler_plan_input {
  std::int64_t n;
  int block_threads;
  int items_per_thread;
  int small_items_per_thread;
  int min_blocks_per_sm;  //!< resident blocks per SM that the row's register cap allows
  bool fill_grid;
  double fill_blocks_per_sm;
  int sm_count;
  std::size_t accum_bytes;
  bool packed;  //!< packed tile states (tile/tile_state.cuh)
  unsigned lookback_delay_ns;
};

//! Tile shape: full tiles, unless they give more than one tile but fewer than `fill_blocks_per_sm`
//! blocks per SM, in which case the small shape spreads the work over more blocks (guide 1.4.1). A
//! problem that fits one full tile stays one block: it needs no temporary storage and no memset, and
//! at that size launch latency, not SM count, bounds the time. Pure host arithmetic (tested to 2^40).
constexpr single_pass_plan make_kepler_plan(const kepler_plan_input& in) {
  single_pass_plan plan{};
  tile_grid t{};
  t.items_per_thread = in.items_per_thread;
  t.tile_items       = static_cast<std::int64_t>(in.block_threads) * in.items_per_thread;
  t.tiles            = detail::ceil_div(in.n, t.tile_items);
  const double fill  = static_cast<double>(in.sm_count) * in.fill_blocks_per_sm;
  if (in.fill_grid && t.tiles > 1 && static_cast<double>(t.tiles) < fill &&
      in.small_items_per_thread < in.items_per_thread) {
    t.items_per_thread = in.small_items_per_thread;
    t.tile_items       = static_cast<std::int64_t>(in.block_threads) * in.small_items_per_thread;
    t.tiles            = detail::ceil_div(in.n, t.tile_items);
    t.shape            = tile_shape::small;
  }
  t.grid     = t.tiles;
  plan.tiles = t;
  if (t.tiles <= 1) return plan;
  plan.route    = single_pass_route::lookback;
  plan.lookback = t;
  // One wave: the blocks that the register cap keeps on every SM.
  plan.lookback_delay_ns =
      lookback_delay(t.tiles, static_cast<std::int64_t>(in.sm_count) * in.min_blocks_per_sm, in.lookback_delay_ns);
  plan.states     = tile::make_tile_state_layout(t.tiles, in.accum_bytes, in.packed);
  plan.temp_bytes = plan.states.bytes;
  return plan;
}

template <>
struct family_dispatch<kepler_family> {
  template <class Tuning, class Problem>
  using row_of = row_for_accum<Tuning, typename Problem::accum_type>;
  //! The tiles of `Items` a thread, resolved once (tuning/tile_config.cuh): what the kernel takes.
  template <class Tuning, class Hooks, class Problem, int Items>
  using config_of = striped_config<Tuning, row_of<Tuning, Problem>, Items, Hooks>;

  template <class Tuning, class Hooks, class Problem>
  static single_pass_plan plan(const Problem& p, const detail::device_facts& facts) {
    using T                   = typename Problem::accum_type;
    using row                 = row_of<Tuning, Problem>;
    const single_pass_plan pl = make_kepler_plan(
        {p.n, row::block_threads, row::items_per_thread, row::small_items_per_thread, row::min_blocks_per_sm,
         Tuning::fill_grid, Tuning::fill_blocks_per_sm, facts.sm_count, sizeof(T),
         tile::packs_state<config_of<Tuning, Hooks, Problem, row::items_per_thread>::packed_status, T>,
         Tuning::lookback_delay_ns});
    check_grid(pl.tiles.grid, "archscan::kepler: too many tiles for one grid");
    return pl;
  }

  template <class Tuning, class Hooks, class Problem>
  static void launch(const Problem& p, const single_pass_plan& pl, const detail::device_facts&, void* d_temp,
                     cudaStream_t stream) {  // no dynamic shared memory, no attribute to set
    using row = row_of<Tuning, Problem>;
    if (pl.tiles.shape == tile_shape::small) {
      run<Tuning, Hooks, row::small_items_per_thread>(p, pl, d_temp, stream);
    } else {
      run<Tuning, Hooks, row::items_per_thread>(p, pl, d_temp, stream);
    }
  }

 private:
  template <class Tuning, class Hooks, int Items, class Problem>
  static void run(const Problem& p, const single_pass_plan& pl, void* d_temp, cudaStream_t stream) {
    using config_t = config_of<Tuning, Hooks, Problem, Items>;
    using state_t  = typename kernel::kepler_tile<config_t, Problem>::state_t;
    state_t st{};
    if (pl.route == single_pass_route::lookback) {
      st = state_t::bind(d_temp, pl.states);
      tile::reset_tile_states(d_temp, pl.states, stream, "archscan::kepler: resetting tile states");
    }
    kernel::kepler_chained_scan<config_t, Problem>
        <<<static_cast<unsigned>(pl.tiles.grid), config_t::threads, 0, stream>>>(p, st, pl.tiles.tiles,
                                                                                 pl.lookback_delay_ns);
    detail::throw_on_launch_error("archscan::kepler: chained_scan");
  }
};

}  // namespace archscan::dispatch
