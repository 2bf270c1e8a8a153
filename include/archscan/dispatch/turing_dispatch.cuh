#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The turing family's dispatch: a single-pass scan, by one wave or by decoupled look-back.
//!
//! One tile (n <= tile items): one kernel, one block, no temporary storage. Up to
//! `Tuning::wave_max_tiles` tiles that all fit on the device at once: one cooperative launch, the
//! tiles' aggregates meeting at a grid barrier (tile/wave.cuh); a wave that would have at most one
//! small tile per SM takes small tiles. Otherwise a cudaMemsetAsync resets the tile states and the
//! look-back kernel runs. Temporary storage is the tile states of the look-back over full tiles (for
//! example 2^28 int32 items, 5120 per tile: 52429 packed states, 256 B + 410 KiB), or a wave's
//! aggregates where those are larger; a wave's plan keeps the look-back as its fallback, so either
//! path fits the storage planned. The plan reads occupancy from the device (guide 4.1.3) and sets each
//! kernel's shared-memory carveout explicitly, opting into dynamic shared memory above 48 KiB where a
//! tile needs it (guide 4.3.1): once per device and kernel. Launches are checked; nothing synchronizes.

#include <algorithm>
#include <cstdint>

#include <archscan/detail/math.cuh>
#include <archscan/dispatch/family.cuh>
#include <archscan/dispatch/single_pass_plan.cuh>
#include <archscan/kernel/transposed_kernels.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

//! What a turing plan depends on: the problem, the tiles and what the device fits (occupancies are
//! blocks per SM, read from the device; 0 where the plan did not need to ask).
struct turing_plan_input {
  std::int64_t n;
  std::size_t accum_bytes;
  bool packed;                //!< packed tile states
  int full_items_per_thread;  //!< the tile's, after fitting shared memory
  int full_tile_items;
  int small_items_per_thread;
  int small_tile_items;  //!< == full_tile_items where the row has no smaller tiles
  int sm_count;
  bool cooperative;              //!< the device can launch cooperatively
  std::int64_t wave_max_tiles;   //!< Tuning::wave_max_tiles
  bool wave_small_tiles;         //!< Tuning::wave_small_tiles
  int wave_blocks_per_sm;        //!< occupancy of the wave kernel of full tiles
  int small_wave_blocks_per_sm;  //!< occupancy of the wave kernel of small tiles
  int lookback_blocks_per_sm;    //!< occupancy of the look-back kernel
  int resident_blocks_per_sm;    //!< hook: > 0, a grid of that many blocks per SM looping over tiles
  unsigned lookback_delay_ns;    //!< Tuning::lookback_delay_ns
};

//! Whether a wave of small tiles is worth asking the device about: tiles smaller than full ones, more
//! than one full tile, and at most one small tile per SM (so its items spread over more SMs).
constexpr bool turing_small_wave_candidate(const turing_plan_input& in) {
  if (!in.wave_small_tiles || !in.cooperative || in.small_tile_items >= in.full_tile_items) return false;
  if (in.n <= in.full_tile_items) return false;
  const std::int64_t tiles = detail::ceil_div(in.n, in.small_tile_items);
  return tiles <= std::min<std::int64_t>(in.sm_count, in.wave_max_tiles);
}

//! Whether a wave of full tiles is worth asking the device about.
constexpr bool turing_wave_candidate(const turing_plan_input& in) {
  const std::int64_t tiles = detail::ceil_div(in.n, in.full_tile_items);
  return in.cooperative && tiles > 1 && tiles <= in.wave_max_tiles;
}

//! The plan, pure host arithmetic (tested for n up to 2^40).
constexpr single_pass_plan make_turing_plan(const turing_plan_input& in) {
  single_pass_plan plan{};
  tile_grid full{};
  full.items_per_thread = in.full_items_per_thread;
  full.tile_items       = in.full_tile_items;
  full.tiles            = detail::ceil_div(in.n, in.full_tile_items);
  full.grid             = full.tiles;
  plan.tiles            = full;
  if (full.tiles <= 1) return plan;

  // The look-back over full tiles: the route of large problems, the fallback of a wave.
  tile_grid look                       = full;
  const std::int64_t resident_lookback = static_cast<std::int64_t>(in.sm_count) * in.lookback_blocks_per_sm;
  if (in.resident_blocks_per_sm > 0) {
    const int per_sm = std::min(in.resident_blocks_per_sm, in.lookback_blocks_per_sm);
    look.grid        = std::min<std::int64_t>(full.tiles, static_cast<std::int64_t>(in.sm_count) * per_sm);
  }
  plan.route             = single_pass_route::lookback;
  plan.lookback          = look;
  plan.tiles             = look;
  plan.lookback_delay_ns = lookback_delay(full.tiles, resident_lookback, in.lookback_delay_ns);
  plan.states            = tile::make_tile_state_layout(full.tiles, in.accum_bytes, in.packed);
  plan.temp_bytes        = plan.states.bytes;

  // A wave: small tiles where they qualify and fit, else full tiles where they fit.
  tile_grid wave{};
  if (turing_small_wave_candidate(in) && detail::ceil_div(in.n, in.small_tile_items) <=
                                             static_cast<std::int64_t>(in.sm_count) * in.small_wave_blocks_per_sm) {
    wave.items_per_thread = in.small_items_per_thread;
    wave.tile_items       = in.small_tile_items;
    wave.shape            = tile_shape::small;
  } else if (turing_wave_candidate(in) &&
             full.tiles <= static_cast<std::int64_t>(in.sm_count) * in.wave_blocks_per_sm) {
    wave.items_per_thread = in.full_items_per_thread;
    wave.tile_items       = in.full_tile_items;
  } else {
    return plan;
  }
  wave.tiles      = detail::ceil_div(in.n, wave.tile_items);
  wave.grid       = wave.tiles;
  plan.route      = single_pass_route::wave;
  plan.tiles      = wave;
  plan.temp_bytes = std::max(plan.temp_bytes, detail::align_up(static_cast<std::size_t>(wave.tiles) * in.accum_bytes,
                                                               detail::storage_alignment));
  return plan;
}

template <>
struct family_dispatch<turing_family> {
  template <class Tuning, class Problem>
  using row_of = row_for_accum<Tuning, typename Problem::accum_type>;
  //! The tiles of `Items` a thread, resolved once (tuning/tile_config.cuh): what the kernels take.
  template <class Tuning, class Hooks, class Problem, int Items>
  using config_of = tile_config<Tuning, row_of<Tuning, Problem>, Items, Hooks>;
  template <class Tuning, class Hooks, class Problem, int Items>
  using tile_of = kernel::turing_tile<config_of<Tuning, Hooks, Problem, Items>, Problem>;
  template <class Tuning, class Hooks, class Problem>
  using full_tile = tile_of<Tuning, Hooks, Problem, row_of<Tuning, Problem>::items_per_thread>;
  template <class Tuning, class Hooks, class Problem>
  using small_tile = tile_of<Tuning, Hooks, Problem, row_of<Tuning, Problem>::small_items_per_thread>;

  template <class Tuning, class Hooks, class Problem>
  static single_pass_plan plan(const Problem& p, const detail::device_facts& facts) {
    using T       = typename Problem::accum_type;
    using row     = row_of<Tuning, Problem>;
    using full    = full_tile<Tuning, Hooks, Problem>;
    using small   = small_tile<Tuning, Hooks, Problem>;
    using full_c  = config_of<Tuning, Hooks, Problem, row::items_per_thread>;
    using small_c = config_of<Tuning, Hooks, Problem, row::small_items_per_thread>;
    turing_plan_input in{p.n,
                         sizeof(T),
                         tile::packs_state<full_c::packed_status, T>,
                         full::items,
                         full::tile_items,
                         small::items,
                         small::tile_items,
                         facts.sm_count,
                         facts.cooperative_launch,
                         Tuning::wave_max_tiles,
                         Tuning::wave_small_tiles,
                         0,
                         0,
                         0,
                         detail::hook_traits<Hooks>::resident_blocks_per_sm,
                         Tuning::lookback_delay_ns};
    if (p.n <= full::tile_items) {
      configure_kernel<Tuning, kernel::turing_scan_single<full_c, Problem>, false>(full::threads, full::smem_bytes,
                                                                                   facts);
      return make_turing_plan(in);
    }
    // Every block of a wave must be resident at once. All shared memory to the carveout, so that the
    // blocks the occupancy query counts are certainly the blocks that fit (the preferred carveout is
    // a hint); for one pass over few items the L1 it leaves makes no measured difference.
    if (turing_small_wave_candidate(in)) {
      in.small_wave_blocks_per_sm = configure_kernel<Tuning, kernel::turing_scan_wave<small_c, Problem>, true>(
          small::threads, small::smem_bytes, facts, 100);
    }
    if (turing_wave_candidate(in)) {
      in.wave_blocks_per_sm = configure_kernel<Tuning, kernel::turing_scan_wave<full_c, Problem>, true>(
          full::threads, full::smem_bytes, facts, 100);
    }
    in.lookback_blocks_per_sm = configure_kernel<Tuning, kernel::turing_scan_tiles<full_c, Problem>, true>(
        full::threads, full::smem_bytes, facts);
    const single_pass_plan pl = make_turing_plan(in);
    check_grid(pl.lookback.grid, "archscan::turing: too many tiles for one grid");
    return pl;
  }

  template <class Tuning, class Hooks, class Problem>
  static void launch(const Problem& p, const single_pass_plan& pl, const detail::device_facts& facts, void* d_temp,
                     cudaStream_t stream) {
    using row    = row_of<Tuning, Problem>;
    using full   = full_tile<Tuning, Hooks, Problem>;
    using full_c = config_of<Tuning, Hooks, Problem, row::items_per_thread>;
    if (pl.route == single_pass_route::single_tile) {
      configure_kernel<Tuning, kernel::turing_scan_single<full_c, Problem>, false>(full::threads, full::smem_bytes,
                                                                                   facts);
      kernel::turing_scan_single<full_c, Problem><<<1, full::threads, full::smem_bytes, stream>>>(p);
      detail::throw_on_launch_error("archscan::turing: scan_single");
      return;
    }
    if (pl.route == single_pass_route::wave) {
      const bool launched =
          pl.tiles.shape == tile_shape::small
              ? launch_wave<Tuning, Hooks, row::small_items_per_thread>(p, pl.tiles, facts, d_temp, stream)
              : launch_wave<Tuning, Hooks, row::items_per_thread>(p, pl.tiles, facts, d_temp, stream);
      if (launched) return;
    }
    using state_t = typename full::state_t;
    tile::reset_tile_states(d_temp, pl.states, stream, "archscan::turing: resetting tile states");
    configure_kernel<Tuning, kernel::turing_scan_tiles<full_c, Problem>, true>(full::threads, full::smem_bytes, facts);
    kernel::turing_scan_tiles<full_c, Problem>
        <<<static_cast<unsigned>(pl.lookback.grid), full::threads, full::smem_bytes, stream>>>(
            p, state_t::bind(d_temp, pl.states), pl.lookback.tiles, pl.lookback_delay_ns);
    detail::throw_on_launch_error("archscan::turing: scan_tiles");
  }

 private:
  //! The wave kernel, launched cooperatively so that the driver guarantees every block is resident at
  //! once. false, with nothing launched, when the driver refuses for lack of room (e.g. fewer SMs under
  //! MPS than the device has): the caller then takes the look-back its plan holds.
  template <class Tuning, class Hooks, int Items, class Problem>
  static bool launch_wave(const Problem& p, const tile_grid& wave, const detail::device_facts& facts, void* d_temp,
                          cudaStream_t stream) {
    using config_t = config_of<Tuning, Hooks, Problem, Items>;
    using tile_t   = tile_of<Tuning, Hooks, Problem, Items>;
    configure_kernel<Tuning, kernel::turing_scan_wave<config_t, Problem>, true>(tile_t::threads, tile_t::smem_bytes,
                                                                                facts, 100);
    return launch_cooperative(kernel::turing_scan_wave<config_t, Problem>, wave.grid, tile_t::threads,
                              tile_t::smem_bytes, stream, "archscan::turing: scan_wave", p,
                              static_cast<typename Problem::accum_type*>(d_temp));
  }
};

}  // namespace archscan::dispatch
