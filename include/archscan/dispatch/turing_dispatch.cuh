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
//! The plan's arithmetic and the order of its routes are native's too (dispatch/route_plan.cuh): this
//! file asks the device for the numbers the plan needs and maps each route to turing's kernel for it.

#include <algorithm>
#include <cstdint>

#include <archscan/detail/math.cuh>
#include <archscan/dispatch/family.cuh>
#include <archscan/dispatch/route_plan.cuh>
#include <archscan/kernel/transposed_kernels.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

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
    single_pass_plan_input in{p.n,
                              sizeof(T),
                              tile::packs_state<full_c::packed_status, T>,
                              full::items,
                              full::tile_items,
                              facts.sm_count,
                              0,
                              detail::hook_traits<Hooks>::resident_blocks_per_sm,
                              facts.cooperative_launch,
                              Tuning::wave_max_tiles,
                              0};
    in.prefix_chain      = true;  // one state a tile, whose look-back walks back tile by tile
    in.lookback_delay_ns = Tuning::lookback_delay_ns;
    if constexpr (Tuning::wave_small_tiles) {
      in.small_items_per_thread = small::items;
      in.small_tile_items       = small::tile_items;
    }
    if (p.n <= full::tile_items) {
      configure_kernel<Tuning, kernel::turing_scan_single<full_c, Problem>, false>(full::threads, full::smem_bytes,
                                                                                   facts);
      return make_single_pass_plan(in);
    }
    // Every block of a wave must be resident at once. All shared memory to the carveout, so that the
    // blocks the occupancy query counts are certainly the blocks that fit (the preferred carveout is
    // a hint); for one pass over few items the L1 it leaves makes no measured difference.
    if (small_wave_candidate(in)) {
      in.small_wave_blocks_per_sm = configure_kernel<Tuning, kernel::turing_scan_wave<small_c, Problem>, true>(
          small::threads, small::smem_bytes, facts, 100);
    }
    if (wave_candidate(in)) {
      in.wave_blocks_per_sm = configure_kernel<Tuning, kernel::turing_scan_wave<full_c, Problem>, true>(
          full::threads, full::smem_bytes, facts, 100);
    }
    in.blocks_per_sm = configure_kernel<Tuning, kernel::turing_scan_tiles<full_c, Problem>, true>(
        full::threads, full::smem_bytes, facts);
    const single_pass_plan pl = make_single_pass_plan(in);
    check_grid(pl.lookback.grid, "archscan::turing: too many tiles for one grid");
    return pl;
  }

  template <class Tuning, class Hooks, class Problem>
  static void launch(const Problem& p, const single_pass_plan& pl, const detail::device_facts& facts, void* d_temp,
                     cudaStream_t stream) {
    using row            = row_of<Tuning, Problem>;
    using full           = full_tile<Tuning, Hooks, Problem>;
    using full_c         = config_of<Tuning, Hooks, Problem, row::items_per_thread>;
    using state_t        = typename full::state_t;
    const auto look_back = [&] {
      tile::reset_tile_states(d_temp, pl.states, stream, "archscan::turing: resetting tile states");
      configure_kernel<Tuning, kernel::turing_scan_tiles<full_c, Problem>, true>(full::threads, full::smem_bytes,
                                                                                 facts);
      kernel::turing_scan_tiles<full_c, Problem>
          <<<static_cast<unsigned>(pl.lookback.grid), full::threads, full::smem_bytes, stream>>>(
              p, state_t::bind(d_temp, pl.states), pl.lookback.tiles, pl.lookback_delay_ns);
      detail::throw_on_launch_error("archscan::turing: scan_tiles");
    };
    // No cluster is ever planned (cluster_max_tiles 0); like any route a family lacks, it would look back.
    run_route(
        pl,
        [&] {
          configure_kernel<Tuning, kernel::turing_scan_single<full_c, Problem>, false>(full::threads, full::smem_bytes,
                                                                                       facts);
          kernel::turing_scan_single<full_c, Problem><<<1, full::threads, full::smem_bytes, stream>>>(p);
          detail::throw_on_launch_error("archscan::turing: scan_single");
        },
        look_back,
        [&] {
          return pl.tiles.shape == tile_shape::small
                     ? launch_wave<Tuning, Hooks, row::small_items_per_thread>(p, pl.tiles, facts, d_temp, stream)
                     : launch_wave<Tuning, Hooks, row::items_per_thread>(p, pl.tiles, facts, d_temp, stream);
        },
        look_back);
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
