#pragma once
//! \file The native family's dispatch: one tile, one wave, or the deterministic look-back over tiles.
//!
//! One tile (n <= tile items): one kernel, one block, no temporary storage. Tiles that all fit on the
//! device at once: one cooperative launch, the prefixes after one grid barrier. Otherwise a
//! cudaMemsetAsync resets the tile states (tile/tile_state.cuh) and one kernel scans every tile, one
//! block per tile. Both multi-tile routes fold tile aggregates in one order fixed by tile indices
//! (`segment_lookback`), so they give the same bits, and the tiles themselves depend only on n and
//! the row: the association of every result is a function of n and the row, the same on every run
//! and every GPU, whichever route the device allows. Temporary storage: the tile states (2^28 int32 items in 5120-item tiles: 52429 packed
//! states, 256 B + 410 KiB), or a wave's aggregates where larger. Launches are checked; nothing
//! synchronizes.

#include <algorithm>
#include <cstdint>

#include <archscan/detail/math.cuh>
#include <archscan/dispatch/family.cuh>
#include <archscan/dispatch/single_pass_plan.cuh>
#include <archscan/kernel/native_kernels.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

struct native_plan_input {
  std::int64_t n;
  std::size_t accum_bytes;
  bool packed;
  int items_per_thread;  //!< the tile's, after fitting shared memory
  int tile_items;
  int sm_count;
  int blocks_per_sm;           //!< occupancy of the look-back kernel (only the hook below reads it)
  int resident_blocks_per_sm;  //!< hook: > 0, a grid of that many blocks per SM looping over tiles
  bool cooperative;            //!< the device can launch cooperatively
  std::int64_t wave_max_tiles; //!< Tuning::wave_max_tiles
  int wave_blocks_per_sm;      //!< occupancy of the wave kernel (0 where not asked)
};

//! Whether a wave is worth asking the device about.
constexpr bool native_wave_candidate(const native_plan_input& in) {
  const std::int64_t tiles = detail::ceil_div(in.n, in.tile_items);
  // The resident-blocks hook asks for the look-back's other schedule: no wave then.
  return in.cooperative && tiles > 1 && tiles <= in.wave_max_tiles && in.resident_blocks_per_sm == 0;
}

//! The plan, pure host arithmetic (tested for n up to 2^40).
constexpr single_pass_plan make_native_plan(const native_plan_input& in) {
  single_pass_plan plan{};
  tile_grid t{};
  t.items_per_thread = in.items_per_thread;
  t.tile_items       = in.tile_items;
  t.tiles            = detail::ceil_div(in.n, in.tile_items);
  t.grid             = t.tiles;
  plan.tiles         = t;
  if (t.tiles <= 1) return plan;
  if (in.resident_blocks_per_sm > 0) {
    const int per_sm = std::min(in.resident_blocks_per_sm, in.blocks_per_sm);
    t.grid           = std::min<std::int64_t>(t.tiles, static_cast<std::int64_t>(in.sm_count) * per_sm);
  }
  plan.route      = single_pass_route::lookback;
  plan.tiles      = t;
  plan.lookback   = t;
  plan.states     = tile::make_tile_state_layout(t.tiles, in.accum_bytes, in.packed);
  plan.temp_bytes = plan.states.bytes;
  if (native_wave_candidate(in) && t.tiles <= static_cast<std::int64_t>(in.sm_count) * in.wave_blocks_per_sm) {
    plan.route      = single_pass_route::wave;
    plan.tiles.grid = t.tiles;
    plan.temp_bytes = std::max(plan.temp_bytes, detail::align_up(static_cast<std::size_t>(t.tiles) * in.accum_bytes,
                                                                 detail::storage_alignment));
  }
  return plan;
}

template <>
struct family_dispatch<native_family> {
  template <class Tuning, class Problem>
  using row_of = row_for<Tuning, sizeof(typename Problem::accum_type)>;
  template <class Tuning, class Hooks, class Problem>
  using tile_of = kernel::native_tile<Tuning, row_of<Tuning, Problem>, Hooks, Problem>;

  template <class Tuning, class Hooks, class Problem>
  static single_pass_plan plan(const Problem& p, const detail::device_facts& facts) {
    using T     = typename Problem::accum_type;
    using row   = row_of<Tuning, Problem>;
    using tile_t = tile_of<Tuning, Hooks, Problem>;
    native_plan_input in{p.n, sizeof(T), tile::packs_state<Tuning, T>, tile_t::items, tile_t::tile_items,
                         facts.sm_count, 0, detail::hook_traits<Hooks>::resident_blocks_per_sm,
                         facts.cooperative_launch, Tuning::wave_max_tiles, 0};
    if (p.n <= tile_t::tile_items) {
      configure_kernel<Tuning, kernel::native_scan_single<Tuning, row, Hooks, Problem>, false>(
          tile_t::threads, tile_t::smem_bytes, facts);
    } else {
      in.blocks_per_sm = configure_kernel<Tuning, kernel::native_scan_tiles<Tuning, row, Hooks, Problem>, true>(
          tile_t::threads, tile_t::smem_bytes, facts);
      if (native_wave_candidate(in)) {  // all shared memory to the carveout: the blocks counted surely fit
        in.wave_blocks_per_sm = configure_kernel<Tuning, kernel::native_scan_wave<Tuning, row, Hooks, Problem>, true>(
            tile_t::threads, tile_t::smem_bytes, facts, 100);
      }
    }
    const single_pass_plan pl = make_native_plan(in);
    check_grid(pl.tiles.grid, "archscan::native: too many tiles for one grid");
    return pl;
  }

  template <class Tuning, class Hooks, class Problem>
  static void launch(const Problem& p, const single_pass_plan& pl, void* d_temp, cudaStream_t stream) {
    using row  = row_of<Tuning, Problem>;
    using tile_t = tile_of<Tuning, Hooks, Problem>;
    if (pl.route == single_pass_route::single_tile) {
      kernel::native_scan_single<Tuning, row, Hooks, Problem><<<1, tile_t::threads, tile_t::smem_bytes, stream>>>(p);
      detail::throw_on_launch_error("archscan::native: scan_single");
      return;
    }
    if (pl.route == single_pass_route::wave && launch_wave<Tuning, Hooks>(p, pl.tiles, d_temp, stream)) return;
    tile::reset_tile_states(d_temp, pl.states, stream, "archscan::native: resetting tile states");
    kernel::native_scan_tiles<Tuning, row, Hooks, Problem>
        <<<static_cast<unsigned>(pl.tiles.grid), tile_t::threads, tile_t::smem_bytes, stream>>>(
            p, tile_t::state_t::bind(d_temp, pl.states), pl.lookback.tiles);
    detail::throw_on_launch_error("archscan::native: scan_tiles");
  }

 private:
  //! The wave, launched cooperatively; false, with nothing launched, when the driver refuses for lack
  //! of room (e.g. under MPS): the caller then takes the look-back its plan holds (the same bits).
  template <class Tuning, class Hooks, class Problem>
  static bool launch_wave(const Problem& p, const tile_grid& wave, void* d_temp, cudaStream_t stream) {
    using tile_t = tile_of<Tuning, Hooks, Problem>;
    cudaLaunchAttribute cooperative{};
    cooperative.id              = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    cudaLaunchConfig_t config{};
    config.gridDim          = dim3(static_cast<unsigned>(wave.grid));
    config.blockDim         = dim3(static_cast<unsigned>(tile_t::threads));
    config.dynamicSmemBytes = static_cast<std::size_t>(tile_t::smem_bytes);
    config.stream           = stream;
    config.attrs            = &cooperative;
    config.numAttrs         = 1;
    const cudaError_t status =
        cudaLaunchKernelEx(&config, kernel::native_scan_wave<Tuning, row_of<Tuning, Problem>, Hooks, Problem>, p,
                           static_cast<typename Problem::accum_type*>(d_temp));
    if (status == cudaErrorCooperativeLaunchTooLarge) {
      cudaGetLastError();
      return false;
    }
    detail::throw_on_error(status, "archscan::native: scan_wave (cooperative launch)");
    detail::throw_on_launch_error("archscan::native: scan_wave");
    return true;
  }
};

}  // namespace archscan::dispatch
