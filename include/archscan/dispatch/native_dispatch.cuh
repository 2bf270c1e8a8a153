#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The native family's dispatch: one tile, one cluster, one wave, or the deterministic look-back
//! over tiles.
//!
//! One tile (n <= tile items): one kernel, one block, no temporary storage; the smallest of the row's
//! single tiles (`single_items_per_thread` doubling up to `single_max_items_per_thread`) that covers
//! n, else its full tile (a tile's latency sets a small call's time). Problems of at most
//! `Tuning::small_tiles_max` small tiles (or the row's own `small_tiles_max`) take those (but where
//! `Tuning::full_tiles_max` full tiles of little more data do: one cluster instead of a wave), and
//! rows with large tiles take them from their `large_from_items` up (choices by n alone; an operator
//! exact under any association, whose bits no tiles change, takes the full tiles where they run
//! staged on the device). At most `Tuning::cluster_max_tiles` tiles on a device with thread block
//! clusters (sm_90 on): one cluster, the aggregates crossing in shared memory, no temporary storage (a
//! launch the driver refuses then throws: there is no storage for another route). Tiles that all fit on
//! the device at once: one cooperative launch, the prefixes after one grid barrier. Otherwise the tile
//! states are reset (tile/tile_state.cuh) and one kernel scans every tile, one block per tile, the
//! tiles the device holds at once pacing their loads (Tuning::first_set_stagger_cycles_per_kib). On
//! sm_90 on, with Tuning::dependent_launch, the reset is a kernel of ours and the scan its
//! programmatic dependent, launched during it (detail/dependent_launch.cuh); else a cudaMemsetAsync,
//! then the scan. From a row's `staged_from_items` up, on a device whose memory reaches the tuning's
//! `staged_min_memory_gbps`, with 16-byte aligned input and output, the look-back of the row's full
//! tiles runs staged instead: persistent blocks with two tiles each in shared memory (tuning/shape.cuh,
//! example_staged_row; the same tiles and folds; large tiles never stage). Both multi-tile routes fold
//! tile aggregates in one order fixed by tile indices (`segment_lookback`; a wave of an operator exact
//! under any association, detail/exact_fold.cuh, as a tree, a declared one's while its lanes' runs are
//! short: `native_wave_in_order`), so they give the same bits, and the tiles themselves depend only on
//! n and the row (but for exact operators, whose bits no association changes): the association of every
//! result is a function of n and the row, the same on every run and every GPU, whichever route the
//! device allows. Temporary storage: a state per tile, and one per segment of 32 tiles where the
//! look-back walks the segment states (accumulators wider than the tuning's prefix_chain_max_bytes;
//! 2^28 int32 items in 8192-item tiles take the chain: 32768 packed 8-byte states, 256 B + 256 KiB), or
//! a wave's aggregates where larger. Launches are checked; nothing synchronizes.

#include <algorithm>
#include <cstdint>

#include <archscan/detail/exact_fold.cuh>
#include <archscan/detail/math.cuh>
#include <archscan/dispatch/family.cuh>
#include <archscan/detail/vector_access.cuh>
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
  bool prefix_chain = false;   //!< the look-back walks the chain of prefixes: no segment states
  int cluster_max_tiles = 0;   //!< the most tiles one cluster of the cluster kernel holds here (0: none)
  //! An exact operator's wave folds in order past runs of this many bytes (tuning/native.cuh's
  //! wave_tree_max_run_bytes; the maximum: never, as for every other operator, which folds in order
  //! always).
  std::size_t wave_tree_max_run_bytes = ~std::size_t{0};
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
  plan.tiles         = t;
  if (t.tiles <= 1) return plan;
  if (in.resident_blocks_per_sm > 0) {
    const int per_sm = std::min(in.resident_blocks_per_sm, in.blocks_per_sm);
    t.grid           = std::min<std::int64_t>(t.tiles, static_cast<std::int64_t>(in.sm_count) * per_sm);
  }
  plan.route      = single_pass_route::lookback;
  plan.tiles      = t;
  plan.lookback   = t;
  plan.first_set  = std::min(t.grid, static_cast<std::int64_t>(in.sm_count) * in.blocks_per_sm);
  const std::int64_t states = in.prefix_chain ? t.tiles : tile::segment_lookback_states(t.tiles);
  plan.states     = tile::make_tile_state_layout(states, in.accum_bytes, in.packed);
  plan.temp_bytes = plan.states.bytes;
  if (t.tiles <= in.cluster_max_tiles && in.resident_blocks_per_sm == 0) {
    plan.route      = single_pass_route::cluster;
    plan.temp_bytes = 0;
    return plan;
  }
  if (native_wave_candidate(in) && t.tiles <= static_cast<std::int64_t>(in.sm_count) * in.wave_blocks_per_sm) {
    plan.route         = single_pass_route::wave;
    plan.tiles.grid    = t.tiles;
    plan.wave_in_order = native_wave_in_order(in);
    plan.temp_bytes = std::max(plan.temp_bytes, detail::align_up(static_cast<std::size_t>(t.tiles) * in.accum_bytes,
                                                                 detail::storage_alignment));
  }
  return plan;
}

template <>
struct family_dispatch<native_family> {
  template <class Tuning, class Problem>
  using row_of = row_for_items<Tuning, typename Problem::accum_type,
                               detail::packs_narrow_items<Tuning::vector_access && Tuning::warp_transpose,
                                                          typename Problem::input_iterator,
                                                          typename Problem::output_iterator,
                                                          typename Problem::accum_type>>;
  template <class Tuning, class Hooks, class Problem, int Items>
  using tile_of = kernel::native_tile<Tuning, row_of<Tuning, Problem>, Hooks, Problem, Items>;
  template <class Tuning, class Hooks, class Problem>
  using full_tile = tile_of<Tuning, Hooks, Problem, row_of<Tuning, Problem>::items_per_thread>;
  template <class Tuning, class Hooks, class Problem>
  using small_tile = tile_of<Tuning, Hooks, Problem, row_of<Tuning, Problem>::small_items_per_thread>;
  template <class Tuning, class Problem>
  using large_of = detail::large_tiles<row_of<Tuning, Problem>>;
  template <class Tuning, class Problem>
  using single_of = detail::single_tiles<row_of<Tuning, Problem>>;
  template <class Tuning, class Hooks, class Problem>
  using large_tile = tile_of<Tuning, Hooks, Problem, large_of<Tuning, Problem>::items_per_thread>;
  //! Whether small tiles are ever taken (their kernels are compiled only then).
  template <class Tuning, class Hooks, class Problem>
  static constexpr bool has_small_tiles =
      detail::small_tiles_max<Tuning, row_of<Tuning, Problem>>::value > 0 &&
      small_tile<Tuning, Hooks, Problem>::tile_items < full_tile<Tuning, Hooks, Problem>::tile_items;
  //! Whether the row's single tiles of few items include one of `Items` per thread (the ladder from
  //! its single_items_per_thread, doubling, up to its single_max_items_per_thread) smaller than its
  //! full tile: that tile's single-tile kernel alone is compiled, never run as more than one tile.
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr bool single_step() {
    using single = single_of<Tuning, Problem>;
    if constexpr (!single::present || Items > single::max_items_per_thread) {
      return false;
    } else {
      return tile_of<Tuning, Hooks, Problem, Items>::tile_items < full_tile<Tuning, Hooks, Problem>::tile_items;
    }
  }
  //! Whether the row has any single tile of few items (the ladder's first step).
  template <class Tuning, class Hooks, class Problem>
  static constexpr bool has_single_tiles =
      single_step<Tuning, Hooks, Problem, single_of<Tuning, Problem>::items_per_thread>();
  //! Whether the row has large tiles and they stay larger than its full ones once fitted to shared
  //! memory (items wider than the row's own may shrink both to one size: then none, for this problem
  //! type alone). Compiled only then. The launch tells the full, small and large tiles apart by size,
  //! and the single tiles by their route and size.
  template <class Tuning, class Hooks, class Problem>
  static constexpr bool has_large_tiles =
      large_of<Tuning, Problem>::present &&
      large_tile<Tuning, Hooks, Problem>::tile_items > full_tile<Tuning, Hooks, Problem>::tile_items;

  //! Whether an exact operator's waves may fold in order (a second wave kernel, compiled only then):
  //! the fold is native's ordered one (no tree_fold hook), the operator is exact on its accumulators
  //! by the user's declaration alone (detail/exact_fold.cuh), and a wave of `in_order_check_tiles`
  //! tiles would pass the tuning's wave_tree_max_run_bytes. libcu++'s integer functors, an
  //! instruction or two a step, keep the tree at every size: on the H100 it was never slower (sums of
  //! 4 and 8 bytes, by-key int64 sums up to 396 tiles, where the order was 1-5% slower). Accumulators
  //! that fit the limit at 512 tiles fold even larger waves as a tree too (timing only, the same bits).
  static constexpr std::int64_t in_order_check_tiles = 512;
  template <class Tuning, class Hooks, class Problem>
  static constexpr bool exact_waves_in_order =
      kernel::native_ordered_fold<Hooks> &&
      detail::declared_exact<typename Problem::op_type, typename Problem::accum_type> &&
      native_wave_in_order(in_order_check_tiles, sizeof(typename Problem::accum_type),
                           detail::wave_tree_max_run_bytes<Tuning>::value);

  //! Whether tiles of `Items` per thread may ever run as one cluster (their kernel is compiled only
  //! then): the tuning allows clusters, no hook asks for the look-back or the tree fold (a cluster
  //! folds in order), the cluster's slots fit beside the tile within its limit, and they are not
  //! large tiles taken only beyond a cluster's worth.
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr bool clusters_of = [] {
    using hooks = detail::hook_traits<Hooks>;
    if (Tuning::cluster_max_tiles < 2 || hooks::resident_blocks_per_sm > 0 || hooks::tree_fold) return false;
    if (!tile_of<Tuning, Hooks, Problem, Items>::cluster_fits) return false;
    if constexpr (has_large_tiles<Tuning, Hooks, Problem>) {
      using large = large_of<Tuning, Problem>;
      if (Items == large::items_per_thread &&
          large::from_items > std::int64_t{Tuning::cluster_max_tiles} * large_tile<Tuning, Hooks, Problem>::tile_items) {
        return false;
      }
    }
    return true;
  }();

  //! Whether tiles of `Items` per thread may run staged (their kernel is compiled only then): the row's
  //! full tiles, the row states staged_from_items, the tile fits the stages (16-byte vectors in and
  //! out), and no hook asks for the tree fold or the resident-blocks schedule.
  //! Where the row's large tiles take every size it stages from, only an exact operator's problems
  //! (full_tiles_stage) reach the staged kernel.
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr bool stages_of = [] {
    using row   = row_of<Tuning, Problem>;
    using hooks = detail::hook_traits<Hooks>;
    if constexpr (!detail::staged_tiles<row>::present) {
      return false;
    } else {
      if constexpr (has_large_tiles<Tuning, Hooks, Problem>) {
        if (detail::staged_tiles<row>::from_items >= large_of<Tuning, Problem>::from_items &&
            !detail::associates_exactly<typename Problem::op_type, typename Problem::accum_type>) {
          return false;
        }
      }
      return Items == row::items_per_thread && tile_of<Tuning, Hooks, Problem, Items>::stages_fit && !hooks::tree_fold &&
             hooks::resident_blocks_per_sm == 0;
    }
  }();

  //! Whether the row's full tiles run this problem's look-back staged on this device: its size, the
  //! device's memory and shared memory, and the pointers' alignment allow it.
  template <class Tuning, class Hooks, class Problem>
  static bool full_tiles_stage(const Problem& p, const detail::device_facts& facts) {
    using row    = row_of<Tuning, Problem>;
    using tile_t = full_tile<Tuning, Hooks, Problem>;
    if constexpr (stages_of<Tuning, Hooks, Problem, row::items_per_thread>) {
      return native_staged(p.n, detail::staged_tiles<row>::from_items, facts.memory_gbps,
                           detail::staged_min_memory_gbps<Tuning>::value) &&
             tile_t::staged_smem_bytes <= facts.max_smem_optin && tile_t::stage_aligned(p);
    } else {
      return false;
    }
  }

  template <class Tuning, class Hooks, class Problem>
  static single_pass_plan plan(const Problem& p, const detail::device_facts& facts) {
    return plan_from_single<Tuning, Hooks, Problem, single_of<Tuning, Problem>::items_per_thread>(p, facts);
  }

  template <class Tuning, class Hooks, class Problem>
  static void launch(const Problem& p, const single_pass_plan& pl, const detail::device_facts& facts, void* d_temp,
                     cudaStream_t stream) {
    using row = row_of<Tuning, Problem>;
    if (pl.route == single_pass_route::single_tile &&
        launch_single_from<Tuning, Hooks, Problem, single_of<Tuning, Problem>::items_per_thread>(p, pl.tiles.tile_items,
                                                                                                 facts, stream)) {
      return;
    }
    if constexpr (has_large_tiles<Tuning, Hooks, Problem>) {
      if (pl.tiles.tile_items == large_tile<Tuning, Hooks, Problem>::tile_items) {
        launch_with<Tuning, Hooks, Problem, large_of<Tuning, Problem>::items_per_thread>(p, pl, facts, d_temp, stream);
        return;
      }
    }
    if constexpr (has_small_tiles<Tuning, Hooks, Problem>) {
      if (pl.tiles.tile_items == small_tile<Tuning, Hooks, Problem>::tile_items) {
        launch_with<Tuning, Hooks, Problem, row::small_items_per_thread>(p, pl, facts, d_temp, stream);
        return;
      }
    }
    launch_with<Tuning, Hooks, Problem, row::items_per_thread>(p, pl, facts, d_temp, stream);
  }

 private:
  //! The plan from the single tile of `Items` per thread on: the smallest step of the ladder that
  //! covers n, else the tiles of plan_tiles.
  template <class Tuning, class Hooks, class Problem, int Items>
  static single_pass_plan plan_from_single(const Problem& p, const detail::device_facts& facts) {
    if constexpr (single_step<Tuning, Hooks, Problem, Items>()) {
      if (p.n <= tile_of<Tuning, Hooks, Problem, Items>::tile_items) {
        return plan_single<Tuning, Hooks, Problem, Items>(p, facts);
      }
      return plan_from_single<Tuning, Hooks, Problem, 2 * Items>(p, facts);
    } else {
      return plan_tiles<Tuning, Hooks, Problem>(p, facts);
    }
  }

  //! Launches the single tile of `Items` per thread or a later step of the ladder whose tile holds
  //! `tile_items` (the plan's); false where none does (the full tile's single route).
  template <class Tuning, class Hooks, class Problem, int Items>
  static bool launch_single_from(const Problem& p, std::int64_t tile_items, const detail::device_facts& facts,
                                 cudaStream_t stream) {
    if constexpr (single_step<Tuning, Hooks, Problem, Items>()) {
      if (tile_items == tile_of<Tuning, Hooks, Problem, Items>::tile_items) {
        launch_single<Tuning, Hooks, Problem, Items>(p, facts, stream);
        return true;
      }
      return launch_single_from<Tuning, Hooks, Problem, 2 * Items>(p, tile_items, facts, stream);
    } else {
      return false;
    }
  }

  //! The plan of a problem no single tile of few items covers: large, small or full tiles.
  template <class Tuning, class Hooks, class Problem>
  static single_pass_plan plan_tiles(const Problem& p, const detail::device_facts& facts) {
    using row = row_of<Tuning, Problem>;
    if constexpr (has_large_tiles<Tuning, Hooks, Problem>) {
      using large = large_of<Tuning, Problem>;
      // An operator exact under any association gives the same bits on any tiles: where the row's full
      // tiles stage on this device, it takes them (the large ones never stage).
      if (native_large_tiles(p.n, large_tile<Tuning, Hooks, Problem>::tile_items, large::from_items) &&
          !(detail::associates_exactly<typename Problem::op_type, typename Problem::accum_type> &&
            full_tiles_stage<Tuning, Hooks, Problem>(p, facts))) {
        return plan_with<Tuning, Hooks, Problem, large::items_per_thread>(p, facts);
      }
    }
    if constexpr (has_small_tiles<Tuning, Hooks, Problem>) {
      constexpr int full_items  = full_tile<Tuning, Hooks, Problem>::tile_items;
      constexpr int small_items = small_tile<Tuning, Hooks, Problem>::tile_items;
      if (native_small_tiles(p.n, full_items, small_items, detail::small_tiles_max<Tuning, row>::value) &&
          !native_full_tiles_first(p.n, full_items, small_items, Tuning::full_tiles_max,
                                   sizeof(typename Problem::accum_type), Tuning::full_tiles_max_extra_bytes)) {
        return plan_with<Tuning, Hooks, Problem, row::small_items_per_thread>(p, facts);
      }
    }
    return plan_with<Tuning, Hooks, Problem, row::items_per_thread>(p, facts);
  }

  //! The plan of a problem that one tile of `Items` per thread covers: the single-tile route.
  template <class Tuning, class Hooks, class Problem, int Items>
  static single_pass_plan plan_single(const Problem& p, const detail::device_facts& facts) {
    using tile_t = tile_of<Tuning, Hooks, Problem, Items>;
    configure_kernel<Tuning, kernel::native_scan_single<Tuning, row_of<Tuning, Problem>, Hooks, Problem, Items>, false>(
        tile_t::threads, tile_t::smem_bytes, facts);
    native_plan_input in{};
    in.n                = p.n;
    in.accum_bytes      = sizeof(typename Problem::accum_type);
    in.items_per_thread = tile_t::items;
    in.tile_items       = tile_t::tile_items;
    in.sm_count         = facts.sm_count;
    return make_native_plan(in);
  }

  //! One block scans the whole problem as one tile of `Items` per thread.
  template <class Tuning, class Hooks, class Problem, int Items>
  static void launch_single(const Problem& p, const detail::device_facts& facts, cudaStream_t stream) {
    using tile_t = tile_of<Tuning, Hooks, Problem, Items>;
    configure_kernel<Tuning, kernel::native_scan_single<Tuning, row_of<Tuning, Problem>, Hooks, Problem, Items>, false>(
        tile_t::threads, tile_t::smem_bytes, facts);
    kernel::native_scan_single<Tuning, row_of<Tuning, Problem>, Hooks, Problem, Items>
        <<<1, tile_t::threads, tile_t::smem_bytes, stream>>>(p);
    detail::throw_on_launch_error("archscan::native: scan_single");
  }

  //! The plan over tiles of `Items` per thread (the tile shape is chosen already).
  template <class Tuning, class Hooks, class Problem, int Items>
  static single_pass_plan plan_with(const Problem& p, const detail::device_facts& facts) {
    using T      = typename Problem::accum_type;
    using row    = row_of<Tuning, Problem>;
    using tile_t = tile_of<Tuning, Hooks, Problem, Items>;
    native_plan_input in{p.n, sizeof(T), tile::packs_state<Tuning, T>, tile_t::items, tile_t::tile_items,
                         facts.sm_count, 0, detail::hook_traits<Hooks>::resident_blocks_per_sm,
                         facts.cooperative_launch, Tuning::wave_max_tiles, 0,
                         tile_t::segment_walk::chained};
    if constexpr (clusters_of<Tuning, Hooks, Problem, Items>) {
      if (native_cluster_candidate(detail::ceil_div(p.n, tile_t::tile_items), Tuning::cluster_max_tiles,
                                   facts.cc_major, in.resident_blocks_per_sm)) {
        in.cluster_max_tiles = cluster_capacity<Tuning, kernel::native_scan_cluster<Tuning, row, Hooks, Problem, Items>>(
            tile_t::threads, tile_t::cluster_smem_bytes, facts, Tuning::cluster_max_tiles);
      }
    }
    if (p.n <= tile_t::tile_items) {  // full tiles only: small ones are taken for more than one full tile
      if constexpr (Items == row::items_per_thread) {
        configure_kernel<Tuning, kernel::native_scan_single<Tuning, row, Hooks, Problem, Items>, false>(
            tile_t::threads, tile_t::smem_bytes, facts);
      }
    } else {
      in.blocks_per_sm = configure_kernel<Tuning, kernel::native_scan_tiles<Tuning, row, Hooks, Problem, Items>, true>(
          tile_t::threads, tile_t::smem_bytes, facts);
      if (native_wave_candidate(in)) {
        if constexpr (exact_waves_in_order<Tuning, Hooks, Problem>) {
          in.wave_tree_max_run_bytes = detail::wave_tree_max_run_bytes<Tuning>::value;
        }
        in.wave_blocks_per_sm = configure_wave<Tuning, Hooks, Problem, Items>(native_wave_in_order(in), facts);
      }
    }
    single_pass_plan pl = make_native_plan(in);
    if constexpr (stages_of<Tuning, Hooks, Problem, Items>) {
      if (pl.route == single_pass_route::lookback && full_tiles_stage<Tuning, Hooks, Problem>(p, facts)) {
        const int per_sm = configure_kernel<Tuning, kernel::native_scan_tiles_staged<Tuning, row, Hooks, Problem, Items>,
                                            true>(tile_t::staged_threads, tile_t::staged_smem_bytes, facts);
        pl.staged        = true;
        pl.tiles.grid    = std::min<std::int64_t>(pl.tiles.tiles, static_cast<std::int64_t>(facts.sm_count) * per_sm);
        pl.lookback      = pl.tiles;
        pl.first_set     = pl.tiles.grid;
        if constexpr (detail::dependent_launch<Tuning>::value) {
          pl.dependent_launch =
              dependent_launch_ok<kernel::native_scan_tiles_staged<Tuning, row, Hooks, Problem, Items>>(facts);
        }
      }
    }
    check_grid(pl.tiles.grid, "archscan::native: too many tiles for one grid");
    if constexpr (detail::dependent_launch<Tuning>::value) {  // the look-back, or a wave's fallback to it
      if (!pl.staged && (pl.route == single_pass_route::lookback || pl.route == single_pass_route::wave)) {
        pl.dependent_launch = dependent_launch_ok<kernel::native_scan_tiles<Tuning, row, Hooks, Problem, Items>>(facts);
      }
    }
    return pl;
  }

  template <class Tuning, class Hooks, class Problem, int Items>
  static void launch_with(const Problem& p, const single_pass_plan& pl, const detail::device_facts& facts,
                          void* d_temp, cudaStream_t stream) {
    using row    = row_of<Tuning, Problem>;
    using tile_t = tile_of<Tuning, Hooks, Problem, Items>;
    if constexpr (Items == row::items_per_thread) {
      if (pl.route == single_pass_route::single_tile) {
        launch_single<Tuning, Hooks, Problem, Items>(p, facts, stream);
        return;
      }
    }
    if constexpr (clusters_of<Tuning, Hooks, Problem, Items>) {
      if (pl.route == single_pass_route::cluster) {
        launch_cluster<Tuning, Hooks, Problem, Items>(p, pl.tiles.tiles, facts, stream);
        return;
      }
    }
    if (pl.route == single_pass_route::wave &&
        launch_wave<Tuning, Hooks, Problem, Items>(p, pl, facts, d_temp, stream)) {
      return;
    }
    const auto st = tile_t::state_t::bind(d_temp, pl.states);
    if constexpr (stages_of<Tuning, Hooks, Problem, Items>) {
      if (pl.staged) {
        constexpr auto k = kernel::native_scan_tiles_staged<Tuning, row, Hooks, Problem, Items>;
        configure_kernel<Tuning, k, true>(tile_t::staged_threads, tile_t::staged_smem_bytes, facts);
        launch_lookback<Hooks, k>(p, st, pl, tile_t::staged_threads, tile_t::staged_smem_bytes, d_temp, stream,
                                  "archscan::native: scan_tiles_staged");
        return;
      }
    }
    constexpr auto k = kernel::native_scan_tiles<Tuning, row, Hooks, Problem, Items>;
    configure_kernel<Tuning, k, true>(tile_t::threads, tile_t::smem_bytes, facts);
    launch_lookback<Hooks, k>(p, st, pl, tile_t::threads, tile_t::smem_bytes, d_temp, stream,
                              "archscan::native: scan_tiles");
  }

  //! The look-back's tile states `st` reset, then look-back kernel `k` (configured already) over the plan's
  //! tiles: after a reset kernel of ours, as its programmatic dependent, where the plan says so (the
  //! scan must be the kernel queued right after the reset: its wait covers that one only), else after
  //! a cudaMemsetAsync.
  template <class Hooks, auto k, class Problem, class State>
  static void launch_lookback(const Problem& p, const State& st, const single_pass_plan& pl, int threads, int smem,
                              void* d_temp, cudaStream_t stream, const char* what) {
    if (pl.dependent_launch) {
      constexpr int reset_threads = 256;
      const std::int64_t words    = tile::tile_state_words(pl.states);
      const std::int64_t blocks   = std::min<std::int64_t>(detail::ceil_div(words, reset_threads), 1024);
      kernel::native_reset_states<reset_threads, Hooks>
          <<<static_cast<unsigned>(blocks), reset_threads, 0, stream>>>(d_temp, words);
      detail::throw_on_launch_error("archscan::native: resetting tile states");
      launch_dependent(k, pl.tiles.grid, threads, smem, stream, what, p, st, pl.lookback.tiles, pl.first_set);
      return;
    }
    tile::reset_tile_states(d_temp, pl.states, stream, "archscan::native: resetting tile states");
    k<<<static_cast<unsigned>(pl.tiles.grid), threads, smem, stream>>>(p, st, pl.lookback.tiles, pl.first_set);
    detail::throw_on_launch_error(what);
  }


  //! A grid that is one cluster of `blocks` blocks (along x), for the occupancy query and the launch.
  struct one_cluster : attributed_launch {
    one_cluster(int blocks, int threads, int smem, cudaStream_t stream)
        : attributed_launch(dimension(blocks), blocks, threads, smem, stream) {}
    static cudaLaunchAttribute dimension(int blocks) {
      cudaLaunchAttribute a{};
      a.id               = cudaLaunchAttributeClusterDimension;
      a.val.clusterDim.x = static_cast<unsigned>(blocks);
      a.val.clusterDim.y = 1;
      a.val.clusterDim.z = 1;
      return a;
    }
  };

  //! The largest cluster of kernel `k` (blocks of `threads` threads and `smem` bytes) that fits on the
  //! device, at most `most` blocks (0: none of 2 or more, or the kernel was not compiled for sm_90 on),
  //! asked once per device and kernel. Sizes past 8, the portable limit, need the kernel's consent
  //! (cudaFuncAttributeNonPortableClusterSizeAllowed).
  template <class Tuning, auto k>
  static int cluster_capacity(int threads, int smem, const detail::device_facts& facts, int most) {
    struct key {};
    return once_per_device<key>(facts.device, [&] {
      // A build without sm_90 code runs on this device from older PTX, where the kernel only traps.
      cudaFuncAttributes attributes{};
      detail::throw_on_error(cudaFuncGetAttributes(&attributes, k), "archscan: cudaFuncGetAttributes");
      if (attributes.ptxVersion < 90) most = 0;
      if (most > tile::cluster_exchange::max_blocks) most = tile::cluster_exchange::max_blocks;  // none allows more
      if (most > 1) configure_kernel<Tuning, k, false>(threads, smem, facts);
      if (most > 8 && cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
        cudaGetLastError();
        most = 8;
      }
      int fits = 0;
      for (int size = most; size >= 2 && fits == 0; --size) {
        const one_cluster launch(size, threads, smem, nullptr);
        int clusters = 0;
        if (cudaOccupancyMaxActiveClusters(&clusters, k, &launch.config) != cudaSuccess) {
          cudaGetLastError();  // this size is refused: try a smaller one
        } else if (clusters >= 1) {
          fits = size;
        }
      }
      return fits;
    });
  }

  //! Every tile in one cluster of `tiles` blocks (plan: at most what cluster_capacity found).
  template <class Tuning, class Hooks, class Problem, int Items>
  static void launch_cluster(const Problem& p, std::int64_t tiles, const detail::device_facts& facts,
                             cudaStream_t stream) {
    using row    = row_of<Tuning, Problem>;
    using tile_t = tile_of<Tuning, Hooks, Problem, Items>;
    cluster_capacity<Tuning, kernel::native_scan_cluster<Tuning, row, Hooks, Problem, Items>>(
        tile_t::threads, tile_t::cluster_smem_bytes, facts, Tuning::cluster_max_tiles);  // this copy's attributes
    const one_cluster launch(static_cast<int>(tiles), tile_t::threads, tile_t::cluster_smem_bytes, stream);
    detail::throw_on_error(
        cudaLaunchKernelEx(&launch.config, kernel::native_scan_cluster<Tuning, row, Hooks, Problem, Items>, p),
        "archscan::native: scan_cluster");
    detail::throw_on_launch_error("archscan::native: scan_cluster");
  }

  //! Calls `f` with the wave kernel of tiles of `Items` per thread that folds in order where
  //! `in_order` (an exact operator's, compiled only where exact_waves_in_order), else with the other,
  //! as an std::integral_constant of its address (configure_kernel takes the kernel as a template
  //! argument).
  template <class Tuning, class Hooks, class Problem, int Items, class F>
  static auto with_wave_kernel(bool in_order, F&& f) {
    using row = row_of<Tuning, Problem>;
    if constexpr (exact_waves_in_order<Tuning, Hooks, Problem>) {
      if (in_order) return f(kernel_constant<kernel::native_scan_wave<Tuning, row, Hooks, Problem, Items, true>>{});
    }
    return f(kernel_constant<kernel::native_scan_wave<Tuning, row, Hooks, Problem, Items>>{});
  }

  //! Sets the attributes of the wave kernel that `in_order` names (with_wave_kernel), all shared
  //! memory to the carveout, and returns its blocks an SM: the blocks counted surely fit.
  template <class Tuning, class Hooks, class Problem, int Items>
  static int configure_wave(bool in_order, const detail::device_facts& facts) {
    using tile_t = tile_of<Tuning, Hooks, Problem, Items>;
    return with_wave_kernel<Tuning, Hooks, Problem, Items>(in_order, [&](auto k) {
      return configure_kernel<Tuning, decltype(k)::value, true>(tile_t::threads, tile_t::smem_bytes, facts, 100);
    });
  }

  //! The plan's wave, launched cooperatively; false, with nothing launched, when the driver refuses
  //! for lack of room (e.g. under MPS): the caller then takes the look-back its plan holds (the same
  //! tiles, the same bits).
  template <class Tuning, class Hooks, class Problem, int Items>
  static bool launch_wave(const Problem& p, const single_pass_plan& pl, const detail::device_facts& facts,
                          void* d_temp, cudaStream_t stream) {
    using tile_t = tile_of<Tuning, Hooks, Problem, Items>;
    auto* const d_aggregates = static_cast<typename Problem::accum_type*>(d_temp);
    return with_wave_kernel<Tuning, Hooks, Problem, Items>(pl.wave_in_order, [&](auto k) {
      configure_kernel<Tuning, decltype(k)::value, true>(tile_t::threads, tile_t::smem_bytes, facts, 100);
      return launch_cooperative(decltype(k)::value, pl.tiles.grid, tile_t::threads, tile_t::smem_bytes, stream,
                                "archscan::native: scan_wave", p, d_aggregates);
    });
  }
};

}  // namespace archscan::dispatch
