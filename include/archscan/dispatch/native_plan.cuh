#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The native family's plan as host arithmetic: which route and which tiles a problem takes,
//! from n, the tile shape the dispatch chose and what the device allows (dispatch/native_dispatch.cuh
//! asks the device; test/dispatch/native_plan_test.cu checks the arithmetic up to 2^40 items).

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <archscan/detail/math.cuh>
#include <archscan/dispatch/single_pass_plan.cuh>
#include <archscan/kernel/transposed_kernels.cuh>  // the tiles' storage: segment states, a wave's runs

namespace archscan::dispatch {

struct native_plan_input {
  std::int64_t n;
  std::size_t accum_bytes;
  bool packed;
  int items_per_thread;  //!< the tile's, after fitting shared memory
  int tile_items;
  int sm_count;
  int blocks_per_sm;              //!< occupancy of the look-back kernel (only the hook below reads it)
  int resident_blocks_per_sm;     //!< hook: > 0, a grid of that many blocks per SM looping over tiles
  bool cooperative;               //!< the device can launch cooperatively
  std::int64_t wave_max_tiles;    //!< Tuning::wave_max_tiles
  int wave_blocks_per_sm;         //!< occupancy of the wave kernel (0 where not asked)
  bool prefix_chain     = false;  //!< the look-back walks the chain of prefixes: no segment states
  int cluster_max_tiles = 0;      //!< the most tiles one cluster of the cluster kernel holds here (0: none)
  //! An exact operator's wave folds in order past runs of this many bytes (tuning/native.cuh's
  //! wave_tree_max_run_bytes; the maximum: never, as for every other operator, which folds in order
  //! always).
  std::size_t wave_tree_max_run_bytes = ~std::size_t{0};
  tile_shape shape                    = tile_shape::full;  //!< which of the row's shapes the tiles are
  int single_step                     = 0;                 //!< shape single: the ladder's step
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
constexpr bool native_wave_candidate(const native_plan_input& in) {
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

//! The same for the plan's problem: the plan and the occupancy query of the wave kernel it picks
//! (dispatch) ask this one function.
constexpr bool native_wave_in_order(const native_plan_input& in) {
  return native_wave_in_order(detail::ceil_div(in.n, in.tile_items), in.accum_bytes, in.wave_tree_max_run_bytes);
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

//! The plan, pure host arithmetic (tested for n up to 2^40).
constexpr single_pass_plan make_native_plan(const native_plan_input& in) {
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
  if (in.resident_blocks_per_sm > 0) {
    const int per_sm = std::min(in.resident_blocks_per_sm, in.blocks_per_sm);
    t.grid           = std::min<std::int64_t>(t.tiles, static_cast<std::int64_t>(in.sm_count) * per_sm);
  }
  plan.route                = single_pass_route::lookback;
  plan.tiles                = t;
  plan.lookback             = t;
  plan.first_set            = std::min(t.grid, static_cast<std::int64_t>(in.sm_count) * in.blocks_per_sm);
  const std::int64_t states = in.prefix_chain ? t.tiles : tile::segment_lookback_states(t.tiles);
  plan.states               = tile::make_tile_state_layout(states, in.accum_bytes, in.packed);
  plan.temp_bytes           = plan.states.bytes;
  if (t.tiles <= in.cluster_max_tiles && in.resident_blocks_per_sm == 0) {
    plan.route      = single_pass_route::cluster;
    plan.temp_bytes = 0;
    return plan;
  }
  if (native_wave_candidate(in) && t.tiles <= static_cast<std::int64_t>(in.sm_count) * in.wave_blocks_per_sm) {
    plan.route         = single_pass_route::wave;
    plan.tiles.grid    = t.tiles;
    plan.wave_in_order = native_wave_in_order(in);
    plan.temp_bytes    = std::max(plan.temp_bytes, detail::align_up(static_cast<std::size_t>(t.tiles) * in.accum_bytes,
                                                                    detail::storage_alignment));
  }
  return plan;
}

}  // namespace archscan::dispatch
