#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The native family's configuration: a tuning, its hooks and one problem type resolved once, at
//! compile time, into the row, the tile shapes, which routes each shape's kernel is compiled for, and
//! the kernels themselves. Nothing here depends on n or the device; dispatch/native_dispatch.cuh plans
//! and launches from it, and nothing below dispatch reads a tuning for these choices.
//!
//! Kernels: one per tile shape (full, small, large) serves every route of that shape, the reset of the
//! look-back's states included (tile/routes.cuh; kernel::native_scan), the full tiles' also the single
//! tiles of few items; the full tiles' wave where it keeps more blocks an SM than the look-back
//! (wave_apart: row_8), and the staged look-back, have their own. A plain scan of int or float
//! compiles three.

#include <algorithm>
#include <cstdint>

#include <archscan/detail/exact_fold.cuh>
#include <archscan/detail/vector_access.cuh>
#include <archscan/dispatch/route_plan.cuh>
#include <archscan/kernel/transposed_kernels.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

template <class Tuning, class Hooks, class Problem>
struct native_config {
  using tuning  = Tuning;
  using hooks   = Hooks;
  using problem = Problem;
  using accum   = typename Problem::accum_type;
  //! The tuning's row for these items (by the accumulator's size, packed where narrow items travel as
  //! vectors; tuning/rows.cuh).
  using row = row_for_items<
      Tuning, accum,
      detail::packs_narrow_items<Tuning::vector_access && Tuning::warp_transpose, typename Problem::input_iterator,
                                 typename Problem::output_iterator, accum>>;
  //! The tiles of `Items` per thread, resolved once (tuning/tile_config.cuh): what the kernels take.
  template <int Items>
  using config_of = tile_config<Tuning, row, Items, Hooks>;
  //! The tile of `Items` per thread, and the same tile staged.
  template <int Items>
  using tile_of = kernel::native_tile<config_of<Items>, Problem>;
  template <int Items>
  using staged_of = kernel::native_staged_tile<config_of<Items>, Problem>;
  using single    = detail::single_tiles<row>;
  using large     = detail::large_tiles<row>;
  //! Items a thread of the row's full, small and large tiles.
  static constexpr int full_items  = row::items_per_thread;
  static constexpr int small_items = row::small_items_per_thread;
  static constexpr int large_items = large::items_per_thread;
  using full_tile                  = tile_of<full_items>;
  using small_tile                 = tile_of<small_items>;
  using large_tile                 = tile_of<large_items>;

  //! Whether small tiles are ever taken (their kernel is compiled only then).
  static constexpr bool has_small_tiles =
      detail::small_tiles_max<Tuning, row>::value > 0 && small_tile::tile_items < full_tile::tile_items;
  //! Whether the row's single tiles of few items include one of `Items` per thread (the ladder from
  //! its single_items_per_thread, doubling, up to its single_max_items_per_thread) smaller than its
  //! full tile: such a tile only ever runs alone.
  template <int Items>
  static constexpr bool single_step() {
    if constexpr (!single::present || Items > single::max_items_per_thread) {
      return false;
    } else {
      return tile_of<Items>::tile_items < full_tile::tile_items;
    }
  }
  //! Whether the row has any single tile of few items (the ladder's first step).
  static constexpr bool has_single_tiles = single_step<single::items_per_thread>();
  //! Whether the row has large tiles and they stay larger than its full ones once fitted to shared
  //! memory (items wider than the row's own may shrink both to one size: then none, for this problem
  //! type alone). Compiled only then.
  static constexpr bool has_large_tiles = large::present && large_tile::tile_items > full_tile::tile_items;

  //! Whether an exact operator's waves may fold in order (compiled only then): the fold is native's
  //! ordered one (no tree_fold hook), the operator is exact on its accumulators by the user's
  //! declaration alone (detail/exact_fold.cuh), and a wave of `in_order_check_tiles` tiles would pass
  //! the tuning's wave_tree_max_run_bytes. libcu++'s integer functors, an instruction or two a step,
  //! keep the tree at every size: on the H100 it was never slower (sums of 4 and 8 bytes, by-key int64
  //! sums up to 396 tiles, where the order was 1-5% slower). Accumulators that fit the limit at 512
  //! tiles fold even larger waves as a tree too (timing only, the same bits).
  static constexpr std::int64_t in_order_check_tiles = 512;
  static constexpr bool exact_waves_in_order =
      kernel::native_ordered_fold<Hooks> && detail::declared_exact<typename Problem::op_type, accum> &&
      native_wave_in_order(in_order_check_tiles, sizeof(accum), detail::wave_tree_max_run_bytes<Tuning>::value);

  //! Whether tiles of `Items` per thread may ever run as one cluster (their kernel's cluster route is
  //! compiled only then): the tuning allows clusters, no hook asks for the look-back or the tree fold
  //! (a cluster folds in order), the cluster's slots fit beside the tile within its limit, and they are
  //! not large tiles taken only beyond a cluster's worth.
  template <int Items>
  static constexpr bool clusters = [] {
    using hook = detail::hook_traits<Hooks>;
    if (Tuning::cluster_max_tiles < 2 || hook::resident_blocks_per_sm > 0 || hook::tree_fold) return false;
    if (!tile_of<Items>::cluster_fits) return false;
    if constexpr (has_large_tiles) {
      const std::int64_t cluster_items = std::int64_t{Tuning::cluster_max_tiles} * large_tile::tile_items;
      if (Items == large_items && large::from_items > cluster_items) return false;
    }
    return true;
  }();

  //! Whether tiles of `Items` per thread may run staged (their kernel is compiled only then): the
  //! row's full tiles, the row states staged_from_items, the tile fits the stages (16-byte vectors in
  //! and out), and no hook asks for the tree fold or the resident-blocks schedule. Where the row's
  //! large tiles take every size it stages from, only an exact operator's problems reach the staged
  //! kernel (native_dispatch.cuh, full_tiles_stage).
  template <int Items>
  static constexpr bool stages = [] {
    using hook = detail::hook_traits<Hooks>;
    if constexpr (!detail::staged_tiles<row>::present) {
      return false;
    } else {
      if constexpr (has_large_tiles) {
        if (detail::staged_tiles<row>::from_items >= large::from_items &&
            !detail::associates_exactly<typename Problem::op_type, accum>) {
          return false;
        }
      }
      return Items == full_items && tile_of<Items>::stages_fit && !hook::tree_fold && hook::resident_blocks_per_sm == 0;
    }
  }();

  //! Whether tiles of `Items` per thread run their waves in a kernel of their own: the row's full
  //! tiles where the look-back's bound on blocks an SM is below the tile's (row_8: a wave keeps 4,
  //! tuning/native.cuh), since one kernel has one bound. Whatever the fold, in order or as a tree,
  //! the wave beside the look-back costs no registers (sm_90, nvcc 13.0: float sums 256 x 32 and
  //! by-key floats 64 registers, by-key doubles 80, the 16-byte product 128, none spilling, as the
  //! look-back alone).
  template <int Items>
  static constexpr bool wave_apart =
      Items == full_items && (config_of<Items>::lookback_min_blocks_per_sm) < config_of<Items>::min_blocks_per_sm;
  //! Whether tiles of `Items` per thread may run as a wave (their kernel's wave route is compiled only
  //! then): not the large tiles, taken for problems of thousands of them (from large_from_items), which
  //! no device holds at once; the plan never takes them as a wave (wave_limit), whatever the device.
  template <int Items>
  static constexpr bool waves = !(has_large_tiles && Items == large_items);
  //! The wave's routes (tile/routes.cuh): the wave, and an exact operator's in-order wave where
  //! exact_waves_in_order; none where a hook asks for the look-back's resident blocks.
  static constexpr tile::route_set wave_routes = [] {
    if (detail::hook_traits<Hooks>::resident_blocks_per_sm > 0) return tile::route_set{0};
    return static_cast<tile::route_set>(tile::route::wave) | (exact_waves_in_order ? tile::wave_in_order : 0u);
  }();
  //! The routes that the kernel of tiles of `Items` per thread is compiled for (tile/routes.cuh): one
  //! tile and the look-back always; the reset where the tuning resets as a kernel (dependent_launch);
  //! the wave's unless wave_apart; a cluster where clusters.
  template <int Items>
  static constexpr tile::route_set routes = [] {
    tile::route_set r = tile::route::single | tile::route::lookback;
    if (detail::dependent_launch<Tuning>::value) r = r | tile::route::reset;
    if (!wave_apart<Items> && waves<Items>) r |= wave_routes;
    if (clusters<Items>) r = r | tile::route::cluster;
    return r;
  }();
  //! Whether tiles of `Items` per thread have a routed kernel: the row's full tiles, and its small and
  //! large ones where it takes them. A single tile of another step of the ladder runs in the full
  //! tiles' kernel (singles_from).
  template <int Items>
  static constexpr bool routed_shape = [] {
    if (Items == full_items) return true;
    if (has_small_tiles && Items == small_items) return true;
    return has_large_tiles && Items == large_items;
  }();
  //! Which of the row's shapes tiles of `Items` per thread are, routed (the plan carries it).
  template <int Items>
  static constexpr tile_shape shape_of = [] {
    if (has_large_tiles && Items == large_items) return tile_shape::large;
    return has_small_tiles && Items == small_items ? tile_shape::small : tile_shape::full;
  }();
  //! The routed kernel that runs one tile of `Items` per thread: the shape's own, else the full tiles'.
  template <int Items>
  static constexpr int single_host = routed_shape<Items> ? Items : full_items;
  //! The steps of the row's single-tile ladder that the full tiles' kernel runs, as bits (bit j: the
  //! tile of single_items_per_thread << j items a thread; kernel::native_scan): every step smaller than
  //! the full tile but those with a routed kernel of their own.
  template <int Items = single::items_per_thread, int Bit = 0>
  static constexpr unsigned singles_from() {
    if constexpr (!single_step<Items>()) {
      return 0u;
    } else {
      constexpr unsigned own = routed_shape<Items> ? 0u : 1u << Bit;
      return own | singles_from<2 * Items, Bit + 1>();
    }
  }
  //! The most dynamic shared memory of those steps' tiles (0: none).
  template <int Items = single::items_per_thread>
  static constexpr int singles_smem_from() {
    if constexpr (!single_step<Items>()) {
      return 0;
    } else {
      constexpr int own = routed_shape<Items> ? 0 : tile_of<Items>::smem_bytes;
      return std::max(own, singles_smem_from<2 * Items>());
    }
  }
  //! The most dynamic shared memory the routed kernel of tiles of `Items` per thread takes on any
  //! route: a cluster's, or the full tiles' single tiles of few items, where more than the tile's.
  template <int Items>
  static constexpr int routed_opt_in_smem = std::max(clusters<Items> ? tile_of<Items>::cluster_smem_bytes : 0,
                                                     Items == full_items ? singles_smem_from() : 0);

  //! The most tiles a wave of tiles of `Items` per thread holds: the small tiles' small_tiles_max (the
  //! plan takes them for no more), else the 1024 whose fold one pass of the warp's lanes covers (32
  //! segments of 32, tile/segment_fold.cuh). The kernels' wave folds leave out the steps past it (a
  //! third of a by-key wave kernel); a problem of more tiles takes the look-back, the same bits. On an
  //! H100 or H200 only 128-thread tiles at 8 blocks an SM could hold more at once.
  static constexpr int wave_fold_tiles = tile::segment_fold<accum>::one_pass_tiles;
  template <int Items>
  static constexpr int wave_tiles_max = (has_small_tiles && Items == small_items)
                                            ? std::min(detail::small_tiles_max<Tuning, row>::value, wave_fold_tiles)
                                            : wave_fold_tiles;
  //! The plan's limit on a wave of those tiles: the tuning's wave_max_tiles, within wave_tiles_max;
  //! none where they never run as a wave.
  template <int Items>
  static constexpr std::int64_t wave_limit = waves<Items>
                                                 ? std::min<std::int64_t>(Tuning::wave_max_tiles, wave_tiles_max<Items>)
                                                 : 0;
  //! The kernel of tiles of `Items` per thread, every route of routes (the full tiles' kernel with the
  //! single tiles of singles_from), and its launch arguments.
  template <int Items>
  static constexpr auto routed_kernel =
      kernel::native_scan<config_of<Items>, Problem, routes<Items>, Items == full_items ? singles_from() : 0u,
                          wave_apart<Items> ? 0 : wave_tiles_max<Items>>;
  template <int Items>
  using launch_args = tile::routed_launch<typename tile_of<Items>::state_t, accum>;
  //! The kernel that runs the waves of tiles of `Items` per thread: its own where wave_apart. (A
  //! function, so that only the kernel chosen is instantiated.)
  template <int Items>
  static constexpr auto wave_kernel_of() {
    if constexpr (wave_apart<Items>) {
      return kernel::native_scan<config_of<Items>, Problem, wave_routes, 0u, wave_tiles_max<Items>>;
    } else {
      return routed_kernel<Items>;
    }
  }
  template <int Items>
  static constexpr auto wave_kernel = wave_kernel_of<Items>();
  //! The staged look-back's kernel of tiles of `Items` per thread.
  template <int Items>
  static constexpr auto staged_kernel = kernel::native_scan_tiles_staged<config_of<Items>, Problem>;
};

}  // namespace archscan::dispatch
