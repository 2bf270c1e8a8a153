#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The plan of the single-pass families that look back (turing and native) as host arithmetic:
//! which route and which tiles a problem takes, from n, the tiles the dispatch chose and what the
//! device allows. Each family's dispatch asks the device and fills one `single_pass_plan_input`;
//! `make_single_pass_plan` is the one function that decides (test/dispatch/route_plan_test.cu checks
//! it up to 2^40 items), and `run_route` the one order in which their launches take the routes. Also
//! native's choices of tile shape, functions of n and the tuning alone.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <archscan/detail/math.cuh>
#include <archscan/dispatch/single_pass_plan.cuh>
#include <archscan/kernel/transposed_kernels.cuh>  // the tiles' storage: segment states, a wave's runs

namespace archscan::dispatch {

//! What a plan depends on: the problem, the tiles and what the device fits (occupancies are blocks an
//! SM, read from the device; 0 where the dispatch did not need to ask).
struct single_pass_plan_input {
  std::int64_t n;
  std::size_t accum_bytes;
  bool packed;
  int items_per_thread;  //!< the tiles', after fitting shared memory
  int tile_items;
  int sm_count;
  int blocks_per_sm;              //!< occupancy of the look-back kernel
  int resident_blocks_per_sm;     //!< hook: > 0, a grid of that many blocks per SM looping over tiles
  bool cooperative;               //!< the device can launch cooperatively
  std::int64_t wave_max_tiles;    //!< Tuning::wave_max_tiles (native: within what its wave kernel folds)
  int wave_blocks_per_sm;         //!< occupancy of the wave kernel (0 where not asked)
  bool prefix_chain     = false;  //!< the look-back walks the chain of prefixes: no segment states
  int cluster_max_tiles = 0;      //!< the most tiles one cluster of the cluster kernel holds here (0: none)
  //! An exact operator's wave folds in order past runs of this many bytes (tuning/native.cuh's
  //! wave_tree_max_run_bytes; the maximum: never, as for every other operator, which folds in order
  //! always).
  std::size_t wave_tree_max_run_bytes = ~std::size_t{0};
  tile_shape shape                    = tile_shape::full;  //!< which of the row's shapes the tiles are
  int single_step                     = 0;                 //!< shape single: the ladder's step
  //! The look-back's delay between polls (Tuning::lookback_delay_ns; turing): kept past one wave of
  //! resident blocks (lookback_delay).
  unsigned lookback_delay_ns = 0;
  //! A wave of smaller tiles (turing's, Tuning::wave_small_tiles): where at most one of them an SM covers
  //! a problem of more than one tile, those run the wave, with the look-back over the tiles above as
  //! the fallback. 0: none.
  int small_items_per_thread   = 0;
  int small_tile_items         = 0;
  int small_wave_blocks_per_sm = 0;  //!< occupancy of the small tiles' wave kernel (0 where not asked)
};

//! Whether a problem of `n` items may take the row's small tiles: at most `small_tiles_max` of them
//! (Tuning::small_tiles_max or the row's own, 0: never), more items than one full tile, and small
//! tiles smaller than full ones. A function of n and the tuning alone, so the bits are the same on every device.
constexpr bool native_small_tiles(std::int64_t n, int full_tile_items, int small_tile_items, int small_tiles_max) {
  return small_tiles_max > 0 && small_tile_items < full_tile_items && n > full_tile_items &&
         detail::ceil_div(n, small_tile_items) <= small_tiles_max;
}

//! Whether a problem takes full tiles where it could take small ones: at most `full_tiles_max` full
//! tiles (Tuning::full_tiles_max) cover it, small tiles would number more, and a full tile holds at
//! most `max_extra_bytes` (Tuning::full_tiles_max_extra_bytes) more accumulator bytes than a small
//! one. Again a function of n and the tuning alone.
constexpr bool native_full_tiles_first(std::int64_t n, int full_tile_items, int small_tile_items, int full_tiles_max,
                                       std::size_t accum_bytes, int max_extra_bytes) {
  if (small_tile_items >= full_tile_items || max_extra_bytes < 0) return false;
  const std::size_t extra_bytes = static_cast<std::size_t>(full_tile_items - small_tile_items) * accum_bytes;
  return detail::ceil_div(n, full_tile_items) <= full_tiles_max &&
         detail::ceil_div(n, small_tile_items) > full_tiles_max &&
         extra_bytes <= static_cast<std::size_t>(max_extra_bytes);
}

//! Whether a problem of `n` items takes the row's large tiles (tuning/shape.cuh, `example_large_row`): from
//! `from_items` items up, and more than one of them. Again a function of n and the tuning alone.
constexpr bool native_large_tiles(std::int64_t n, int large_tile_items, std::int64_t from_items) {
  return n >= from_items && n > large_tile_items;
}

//! Whether a wave is worth asking the device about.
constexpr bool wave_candidate(const single_pass_plan_input& in) {
  const std::int64_t tiles = detail::ceil_div(in.n, in.tile_items);
  // The resident-blocks hook asks for the look-back's other schedule: no wave then.
  return in.cooperative && tiles > 1 && tiles <= in.wave_max_tiles && in.resident_blocks_per_sm == 0;
}

//! Whether a wave of `tiles` tiles of an exact operator folds in order: the longest run of the tree
//! (tile/wave.cuh: the last tile's lanes, after tiles - 1 others) of aggregates of `accum_bytes`
//! would hold more than `max_run_bytes`. A function of n and the tuning alone; the same bits either
//! way.
constexpr bool native_wave_in_order(std::int64_t tiles, std::size_t accum_bytes, std::size_t max_run_bytes) {
  return static_cast<std::size_t>(tile::wave_tree_run(tiles - 1)) * accum_bytes > max_run_bytes;
}

//! Whether a wave of the smaller tiles is worth asking the device about: smaller tiles than the plan's,
//! more items than one of those, and at most one small tile an SM (so that the items spread over more
//! SMs), within the tuning's wave_max_tiles.
constexpr bool small_wave_candidate(const single_pass_plan_input& in) {
  if (in.small_tile_items <= 0 || in.small_tile_items >= in.tile_items || in.n <= in.tile_items) return false;
  const std::int64_t tiles = detail::ceil_div(in.n, in.small_tile_items);
  return in.cooperative && in.resident_blocks_per_sm == 0 &&
         tiles <= std::min<std::int64_t>(in.sm_count, in.wave_max_tiles);
}

//! Whether a look-back of `n` items runs staged (tuning/shape.cuh, `example_staged_row`): from the row's
//! `from_items` up, on a device whose memory's peak bandwidth reaches the tuning's `min_gbps`. Timing
//! only (the same tiles and folds), so a choice by the device as well as n.
constexpr bool native_staged(std::int64_t n, std::int64_t from_items, int memory_gbps, int min_gbps) {
  return n >= from_items && memory_gbps >= min_gbps;
}

//! Whether one thread block cluster is worth asking the device about: Tuning::cluster_max_tiles
//! allows it (`cluster_max`), the device has clusters, more than one tile and no more than that,
//! and no hook asks for the look-back.
constexpr bool native_cluster_candidate(std::int64_t tiles, int cluster_max, int cc_major, int resident_blocks_per_sm) {
  return cluster_max > 1 && cc_major >= 9 && tiles > 1 && tiles <= cluster_max && resident_blocks_per_sm == 0;
}

//! The plan, pure host arithmetic (tested for n up to 2^40): one tile; else the look-back over the
//! tiles, its states and delay; else one cluster where the tiles fit one; else a wave where every tile
//! fits on the device at once: of the smaller tiles where they qualify (turing), else of the same tiles.
//! A wave keeps the look-back as its fallback (a cooperative launch the driver refuses), so the
//! storage covers both.
constexpr single_pass_plan make_single_pass_plan(const single_pass_plan_input& in) {
  single_pass_plan plan{};
  tile_grid t{};
  t.items_per_thread = in.items_per_thread;
  t.tile_items       = in.tile_items;
  t.tiles            = detail::ceil_div(in.n, in.tile_items);
  t.grid             = t.tiles;
  t.shape            = in.shape;
  t.single_step      = in.single_step;
  plan.tiles         = t;
  if (t.tiles <= 1) return plan;
  const std::int64_t resident = static_cast<std::int64_t>(in.sm_count) * in.blocks_per_sm;
  if (in.resident_blocks_per_sm > 0) {
    const int per_sm = std::min(in.resident_blocks_per_sm, in.blocks_per_sm);
    t.grid           = std::min<std::int64_t>(t.tiles, static_cast<std::int64_t>(in.sm_count) * per_sm);
  }
  plan.route                = single_pass_route::lookback;
  plan.tiles                = t;
  plan.lookback             = t;
  plan.first_set            = std::min(t.grid, resident);
  plan.lookback_delay_ns    = lookback_delay(t.tiles, resident, in.lookback_delay_ns);
  const std::int64_t states = in.prefix_chain ? t.tiles : tile::segment_lookback_states(t.tiles);
  plan.states               = tile::make_tile_state_layout(states, in.accum_bytes, in.packed);
  plan.temp_bytes           = plan.states.bytes;
  if (t.tiles <= in.cluster_max_tiles && in.resident_blocks_per_sm == 0) {
    plan.route      = single_pass_route::cluster;
    plan.temp_bytes = 0;
    return plan;
  }
  tile_grid wave = t;
  if (small_wave_candidate(in) && detail::ceil_div(in.n, in.small_tile_items) <=
                                      static_cast<std::int64_t>(in.sm_count) * in.small_wave_blocks_per_sm) {
    wave.items_per_thread = in.small_items_per_thread;
    wave.tile_items       = in.small_tile_items;
    wave.tiles            = detail::ceil_div(in.n, in.small_tile_items);
    wave.shape            = tile_shape::small;
  } else if (!wave_candidate(in) || t.tiles > static_cast<std::int64_t>(in.sm_count) * in.wave_blocks_per_sm) {
    return plan;
  }
  wave.grid          = wave.tiles;
  plan.route         = single_pass_route::wave;
  plan.tiles         = wave;
  plan.wave_in_order = native_wave_in_order(wave.tiles, in.accum_bytes, in.wave_tree_max_run_bytes);
  plan.temp_bytes    = std::max(plan.temp_bytes, detail::align_up(static_cast<std::size_t>(wave.tiles) * in.accum_bytes,
                                                                  detail::storage_alignment));
  return plan;
}

//! Runs the route that plan `pl` names through a family's launchers: `single()` (one tile),
//! `cluster()`, `wave()` and `lookback()`. A wave returns false when the driver refuses its cooperative
//! launch (a grid that fits the device but not what MPS grants this process): the look-back that the
//! plan holds as its fallback then runs, on the storage planned for both.
template <class Single, class Cluster, class Wave, class Lookback>
void run_route(const single_pass_plan& pl, Single&& single, Cluster&& cluster, Wave&& wave, Lookback&& lookback) {
  switch (pl.route) {
    case single_pass_route::single_tile:
      single();
      return;
    case single_pass_route::cluster:
      cluster();
      return;
    case single_pass_route::wave:
      if (wave()) return;
      break;
    case single_pass_route::lookback:
      break;
  }
  lookback();
}

}  // namespace archscan::dispatch
