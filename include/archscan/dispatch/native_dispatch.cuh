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
//! sm_90 on, with Tuning::dependent_launch, the reset is a launch of our own kernel and the scan its
//! programmatic dependent, launched during it (detail/dependent_launch.cuh); else a cudaMemsetAsync,
//! then the scan. Kernels: one per tile shape (full, small, large) serves every route of that shape,
//! the reset included (tile/routes.cuh; kernel::native_scan), the full tiles' also the single tiles
//! of few items; the full tiles' wave and the staged look-back have their own. A plain scan of int
//! compiles four. From a row's `staged_from_items` up, on a device whose memory reaches the tuning's
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
#include <archscan/dispatch/native_plan.cuh>
#include <archscan/dispatch/single_pass_plan.cuh>
#include <archscan/kernel/native_kernels.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

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
  template <class Tuning, class Hooks, class Problem, int Items>
  using staged_of = kernel::native_staged_tile<Tuning, row_of<Tuning, Problem>, Hooks, Problem, Items>;
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

  //! Whether tiles of `Items` per thread run their waves in a kernel of their own: the row's full
  //! tiles. Beside the look-back's, the wave's ordered fold pushed the full tiles' registers past the
  //! look-back's bound (sm_90: float sums of 256 x 32 items spilled 32 bytes, by-key doubles 96 where
  //! the look-back alone spills 60-68); the small tiles, with registers to spare, keep one kernel.
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr bool wave_apart = Items == row_of<Tuning, Problem>::items_per_thread;
  //! The wave's routes (tile/routes.cuh): the wave, and an exact operator's in-order wave where
  //! exact_waves_in_order; none where a hook asks for the look-back's resident blocks.
  template <class Tuning, class Hooks, class Problem>
  static constexpr tile::route_set wave_routes = [] {
    if (detail::hook_traits<Hooks>::resident_blocks_per_sm > 0) return tile::route_set{0};
    return static_cast<tile::route_set>(tile::route::wave) |
           (exact_waves_in_order<Tuning, Hooks, Problem> ? tile::wave_in_order : 0u);
  }();
  //! The routes that the kernel of tiles of `Items` per thread is compiled for (tile/routes.cuh): one
  //! tile and the look-back always; the reset where the tuning resets as a kernel (dependent_launch);
  //! the wave's unless wave_apart; a cluster where clusters_of.
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr tile::route_set routes_of = [] {
    tile::route_set r = tile::route::single | tile::route::lookback;
    if (detail::dependent_launch<Tuning>::value) r = r | tile::route::reset;
    if (!wave_apart<Tuning, Hooks, Problem, Items>) r |= wave_routes<Tuning, Hooks, Problem>;
    if (clusters_of<Tuning, Hooks, Problem, Items>) r = r | tile::route::cluster;
    return r;
  }();
  //! Whether tiles of `Items` per thread have a routed kernel: the row's full tiles, and its small and
  //! large ones where it takes them. A single tile of another step of the ladder runs in the full
  //! tiles' kernel (singles_from).
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr bool routed_shape = [] {
    using row = row_of<Tuning, Problem>;
    if (Items == row::items_per_thread) return true;
    if (has_small_tiles<Tuning, Hooks, Problem> && Items == row::small_items_per_thread) return true;
    if constexpr (has_large_tiles<Tuning, Hooks, Problem>) {
      if (Items == large_of<Tuning, Problem>::items_per_thread) return true;
    }
    return false;
  }();
  //! The steps of the row's single-tile ladder that the full tiles' kernel runs, as bits (bit j: the
  //! tile of single_items_per_thread << j items a thread; kernel::native_scan): every step smaller than
  //! the full tile but those with a routed kernel of their own.
  template <class Tuning, class Hooks, class Problem, int Items = single_of<Tuning, Problem>::items_per_thread,
            int Bit = 0>
  static constexpr unsigned singles_from() {
    if constexpr (!single_step<Tuning, Hooks, Problem, Items>()) {
      return 0u;
    } else {
      constexpr unsigned own = routed_shape<Tuning, Hooks, Problem, Items> ? 0u : 1u << Bit;
      return own | singles_from<Tuning, Hooks, Problem, 2 * Items, Bit + 1>();
    }
  }
  //! The most dynamic shared memory of those steps' tiles (0: none).
  template <class Tuning, class Hooks, class Problem, int Items = single_of<Tuning, Problem>::items_per_thread>
  static constexpr int singles_smem_from() {
    if constexpr (!single_step<Tuning, Hooks, Problem, Items>()) {
      return 0;
    } else {
      constexpr int own = routed_shape<Tuning, Hooks, Problem, Items> ? 0 : tile_of<Tuning, Hooks, Problem, Items>::smem_bytes;
      return std::max(own, singles_smem_from<Tuning, Hooks, Problem, 2 * Items>());
    }
  }
  //! The kernel of tiles of `Items` per thread, every route of routes_of (the full tiles' kernel with
  //! the single tiles of singles_from), and its launch arguments.
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr auto routed_kernel =
      kernel::native_scan<Tuning, row_of<Tuning, Problem>, Hooks, Problem, Items, routes_of<Tuning, Hooks, Problem, Items>,
                          Items == row_of<Tuning, Problem>::items_per_thread ? singles_from<Tuning, Hooks, Problem>() : 0u>;
  //! The kernel that runs the waves of tiles of `Items` per thread: its own where wave_apart. (A
  //! function, so that only the kernel chosen is instantiated.)
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr auto wave_kernel_of() {
    if constexpr (wave_apart<Tuning, Hooks, Problem, Items>) {
      return kernel::native_scan<Tuning, row_of<Tuning, Problem>, Hooks, Problem, Items,
                                 wave_routes<Tuning, Hooks, Problem>>;
    } else {
      return routed_kernel<Tuning, Hooks, Problem, Items>;
    }
  }
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr auto wave_kernel = wave_kernel_of<Tuning, Hooks, Problem, Items>();
  template <class Tuning, class Hooks, class Problem, int Items>
  using launch_args = tile::routed_launch<typename tile_of<Tuning, Hooks, Problem, Items>::state_t,
                                          typename Problem::accum_type>;
  //! Sets the attributes of `k`, the routed kernel of tiles of `Items` per thread (its dynamic shared
  //! memory up to the cluster's where it clusters, and the single tiles' it runs), and returns its
  //! blocks an SM (every route's occupancy: the carveout fits them). The caller names `k` in its own
  //! body, as the contract of dispatch/family.cuh asks: each translation unit has its own copy of a
  //! kernel, and a helper keyed by the tile alone would be one function for the whole program, set
  //! on one unit's copy.
  template <class Tuning, class Hooks, class Problem, int Items, auto k>
  static int configure_routed(const detail::device_facts& facts) {
    using tile_t            = tile_of<Tuning, Hooks, Problem, Items>;
    constexpr int most_smem = std::max(clusters_of<Tuning, Hooks, Problem, Items> ? tile_t::cluster_smem_bytes : 0,
                                       Items == row_of<Tuning, Problem>::items_per_thread
                                           ? singles_smem_from<Tuning, Hooks, Problem>()
                                           : 0);
    return configure_kernel<Tuning, k, true>(tile_t::threads, tile_t::smem_bytes, facts, Tuning::carveout_percent,
                                             most_smem);
  }

  //! Sets the attributes of `kw`, the kernel that runs the waves of tiles of `Items` per thread
  //! (wave_kernel, named by the caller as for configure_routed), and returns its blocks an SM. A
  //! kernel of its own takes all the shared memory as carveout: the blocks counted surely fit.
  template <class Tuning, class Hooks, class Problem, int Items, auto kw>
  static int configure_wave(const detail::device_facts& facts) {
    using tile_t = tile_of<Tuning, Hooks, Problem, Items>;
    if constexpr (wave_apart<Tuning, Hooks, Problem, Items>) {
      return configure_kernel<Tuning, kw, true>(tile_t::threads, tile_t::smem_bytes, facts, 100);
    } else {
      return configure_routed<Tuning, Hooks, Problem, Items, kw>(facts);
    }
  }

  //! Whether the row's full tiles run this problem's look-back staged on this device: its size, the
  //! device's memory and shared memory, and the pointers' alignment allow it.
  template <class Tuning, class Hooks, class Problem>
  static bool full_tiles_stage(const Problem& p, const detail::device_facts& facts) {
    using row      = row_of<Tuning, Problem>;
    using tile_t   = full_tile<Tuning, Hooks, Problem>;
    using staged_t = staged_of<Tuning, Hooks, Problem, row::items_per_thread>;
    if constexpr (stages_of<Tuning, Hooks, Problem, row::items_per_thread>) {
      return native_staged(p.n, detail::staged_tiles<row>::from_items, facts.memory_gbps,
                           detail::staged_min_memory_gbps<Tuning>::value) &&
             staged_t::staged_smem_bytes <= facts.max_smem_optin && tile_t::stage_aligned(p);
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
    constexpr int host = single_host<Tuning, Hooks, Problem, Items>;
    configure_routed<Tuning, Hooks, Problem, host, routed_kernel<Tuning, Hooks, Problem, host>>(facts);
    native_plan_input in{};
    in.n                = p.n;
    in.accum_bytes      = sizeof(typename Problem::accum_type);
    in.items_per_thread = tile_t::items;
    in.tile_items       = tile_t::tile_items;
    in.sm_count         = facts.sm_count;
    return make_native_plan(in);
  }

  //! The routed kernel that runs one tile of `Items` per thread: the shape's own, else the full tiles'.
  template <class Tuning, class Hooks, class Problem, int Items>
  static constexpr int single_host =
      routed_shape<Tuning, Hooks, Problem, Items> ? Items : row_of<Tuning, Problem>::items_per_thread;

  //! One block scans the whole problem as one tile of `Items` per thread.
  template <class Tuning, class Hooks, class Problem, int Items>
  static void launch_single(const Problem& p, const detail::device_facts& facts, cudaStream_t stream) {
    using tile_t       = tile_of<Tuning, Hooks, Problem, Items>;
    constexpr int host = single_host<Tuning, Hooks, Problem, Items>;
    constexpr auto k   = routed_kernel<Tuning, Hooks, Problem, host>;
    configure_routed<Tuning, Hooks, Problem, host, k>(facts);
    launch_args<Tuning, Hooks, Problem, host> a{};
    a.path         = tile::route::single;
    a.single_items = host == Items ? 0 : Items;
    k<<<1, tile_t::threads, tile_t::smem_bytes, stream>>>(p, a);
    detail::throw_on_launch_error("archscan::native: scan_single");
  }

  //! The plan over tiles of `Items` per thread (the tile shape is chosen already).
  template <class Tuning, class Hooks, class Problem, int Items>
  static single_pass_plan plan_with(const Problem& p, const detail::device_facts& facts) {
    using T        = typename Problem::accum_type;
    using row      = row_of<Tuning, Problem>;
    using tile_t   = tile_of<Tuning, Hooks, Problem, Items>;
    using staged_t = staged_of<Tuning, Hooks, Problem, Items>;
    native_plan_input in{p.n, sizeof(T), tile::packs_state<Tuning, T>, tile_t::items, tile_t::tile_items,
                         facts.sm_count, 0, detail::hook_traits<Hooks>::resident_blocks_per_sm,
                         facts.cooperative_launch, Tuning::wave_max_tiles, 0,
                         tile_t::segment_walk::chained};
    if constexpr (clusters_of<Tuning, Hooks, Problem, Items>) {
      if (native_cluster_candidate(detail::ceil_div(p.n, tile_t::tile_items), Tuning::cluster_max_tiles,
                                   facts.cc_major, in.resident_blocks_per_sm)) {
        in.cluster_max_tiles = cluster_capacity<Tuning, Hooks, Problem, Items, routed_kernel<Tuning, Hooks, Problem, Items>>(
            facts, Tuning::cluster_max_tiles);
      }
    }
    // One tile (full tiles only: small ones are taken for more than one full tile) or many: the one kernel.
    const int blocks_per_sm =
        configure_routed<Tuning, Hooks, Problem, Items, routed_kernel<Tuning, Hooks, Problem, Items>>(facts);
    if (p.n > tile_t::tile_items) {
      in.blocks_per_sm = blocks_per_sm;
      if (native_wave_candidate(in)) {
        if constexpr (exact_waves_in_order<Tuning, Hooks, Problem>) {
          in.wave_tree_max_run_bytes = detail::wave_tree_max_run_bytes<Tuning>::value;
        }
        in.wave_blocks_per_sm =
            configure_wave<Tuning, Hooks, Problem, Items, wave_kernel<Tuning, Hooks, Problem, Items>>(facts);
      }
    }
    single_pass_plan pl = make_native_plan(in);
    if constexpr (stages_of<Tuning, Hooks, Problem, Items>) {
      if (pl.route == single_pass_route::lookback && full_tiles_stage<Tuning, Hooks, Problem>(p, facts)) {
        const int per_sm = configure_kernel<Tuning, kernel::native_scan_tiles_staged<Tuning, row, Hooks, Problem, Items>,
                                            true>(staged_t::staged_threads, staged_t::staged_smem_bytes, facts);
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
        pl.dependent_launch = dependent_launch_ok<routed_kernel<Tuning, Hooks, Problem, Items>>(facts);
      }
    }
    return pl;
  }

  //! The plan's route over tiles of `Items` per thread: the routed kernel, or the staged one.
  template <class Tuning, class Hooks, class Problem, int Items>
  static void launch_with(const Problem& p, const single_pass_plan& pl, const detail::device_facts& facts,
                          void* d_temp, cudaStream_t stream) {
    using row             = row_of<Tuning, Problem>;
    using tile_t          = tile_of<Tuning, Hooks, Problem, Items>;
    using staged_t        = staged_of<Tuning, Hooks, Problem, Items>;
    constexpr auto k      = routed_kernel<Tuning, Hooks, Problem, Items>;
    constexpr auto kw     = wave_kernel<Tuning, Hooks, Problem, Items>;
    constexpr auto routes = routes_of<Tuning, Hooks, Problem, Items>;
    if (pl.route == single_pass_route::single_tile) {
      launch_single<Tuning, Hooks, Problem, Items>(p, facts, stream);
      return;
    }
    configure_routed<Tuning, Hooks, Problem, Items, k>(facts);
    launch_args<Tuning, Hooks, Problem, Items> a{};
    if constexpr (has_route(routes, tile::route::cluster)) {
      if (pl.route == single_pass_route::cluster) {
        a.path = tile::route::cluster;
        cluster_capacity<Tuning, Hooks, Problem, Items, k>(facts, Tuning::cluster_max_tiles);  // this copy's attributes
        const one_cluster launch(static_cast<int>(pl.tiles.tiles), tile_t::threads, tile_t::cluster_smem_bytes, stream);
        detail::throw_on_error(cudaLaunchKernelEx(&launch.config, k, p, a), "archscan::native: scan_cluster");
        detail::throw_on_launch_error("archscan::native: scan_cluster");
        return;
      }
    }
    if constexpr (has_route(wave_routes<Tuning, Hooks, Problem>, tile::route::wave)) {
      // Refused for lack of room (e.g. under MPS), the wave takes the look-back its plan holds: the
      // same tiles, the same bits.
      if (pl.route == single_pass_route::wave) {
        a.path          = tile::route::wave;
        a.d_aggregates  = static_cast<typename Problem::accum_type*>(d_temp);
        a.wave_in_order = pl.wave_in_order;
        configure_wave<Tuning, Hooks, Problem, Items, kw>(facts);
        if (launch_cooperative(kw, pl.tiles.grid, tile_t::threads, tile_t::smem_bytes, stream,
                               "archscan::native: scan_wave", p, a)) {
          return;
        }
      }
    }
    const auto st = tile_t::state_t::bind(d_temp, pl.states);
    if constexpr (stages_of<Tuning, Hooks, Problem, Items>) {
      if (pl.staged) {
        constexpr auto ks = kernel::native_scan_tiles_staged<Tuning, row, Hooks, Problem, Items>;
        configure_kernel<Tuning, ks, true>(staged_t::staged_threads, staged_t::staged_smem_bytes, facts);
        reset_then_scan<Tuning, Hooks, Problem, Items, k>(p, pl, d_temp, stream, [&](bool dependent) {
          launch_maybe_dependent(dependent, ks, pl.tiles.grid, staged_t::staged_threads, staged_t::staged_smem_bytes,
                                 stream, "archscan::native: scan_tiles_staged", p, st, pl.lookback.tiles, pl.first_set);
        });
        return;
      }
    }
    a            = launch_args<Tuning, Hooks, Problem, Items>{};
    a.path       = tile::route::lookback;
    a.st         = st;
    a.tiles      = pl.lookback.tiles;
    a.first_set  = pl.first_set;
    reset_then_scan<Tuning, Hooks, Problem, Items, k>(p, pl, d_temp, stream, [&](bool dependent) {
      launch_maybe_dependent(dependent, k, pl.tiles.grid, tile_t::threads, tile_t::smem_bytes, stream,
                             "archscan::native: scan_tiles", p, a);
    });
  }

  //! Kernel `k` with `args`: as a programmatic dependent of the kernel queued just before it where
  //! `dependent`, else plainly.
  template <class... Params, class... Args>
  static void launch_maybe_dependent(bool dependent, void (*k)(Params...), std::int64_t grid, int threads, int smem,
                                     cudaStream_t stream, const char* what, const Args&... args) {
    if (dependent) {
      launch_dependent(k, grid, threads, smem, stream, what, args...);
      return;
    }
    k<<<static_cast<unsigned>(grid), threads, static_cast<std::size_t>(smem), stream>>>(args...);
    detail::throw_on_launch_error(what);
  }

  //! The look-back's tile states reset, then `scan(dependent)` launches the look-back: after the reset
  //! route of `k`, the routed kernel of tiles of `Items` per thread (configured already), as its programmatic
  //! dependent, where the plan says so (the scan must be the kernel queued right after the reset: its
  //! wait covers that one only), else after a cudaMemsetAsync.
  template <class Tuning, class Hooks, class Problem, int Items, auto k, class Scan>
  static void reset_then_scan(const Problem& p, const single_pass_plan& pl, void* d_temp, cudaStream_t stream,
                              Scan&& scan) {
    if constexpr (has_route(routes_of<Tuning, Hooks, Problem, Items>, tile::route::reset)) {
      if (pl.dependent_launch) {
        constexpr int threads = tile_of<Tuning, Hooks, Problem, Items>::threads;
        launch_args<Tuning, Hooks, Problem, Items> a{};
        a.path                    = tile::route::reset;
        a.d_temp                  = d_temp;
        a.words                   = tile::tile_state_words(pl.states);
        const std::int64_t blocks = std::min<std::int64_t>(detail::ceil_div(a.words, threads), 1024);
        k<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(p, a);
        detail::throw_on_launch_error("archscan::native: resetting tile states");
        scan(true);
        return;
      }
    }
    tile::reset_tile_states(d_temp, pl.states, stream, "archscan::native: resetting tile states");
    scan(false);
  }

  //! The largest cluster of `k`, the routed kernel of tiles of `Items` per thread (named by the
  //! caller, as for configure_routed), that fits on the device, at most `most` blocks (0: none of 2 or
  //! more, or the kernel was not compiled for sm_90 on), asked once per device and kernel. Sizes past
  //! 8, the portable limit, need the kernel's consent (cudaFuncAttributeNonPortableClusterSizeAllowed).
  template <class Tuning, class Hooks, class Problem, int Items, auto k>
  static int cluster_capacity(const detail::device_facts& facts, int most) {
    using tile_t = tile_of<Tuning, Hooks, Problem, Items>;
    struct key {};
    return once_per_device<key>(facts.device, [&] {
      // A build without sm_90 code runs on this device from older PTX, where the cluster route only traps.
      cudaFuncAttributes attributes{};
      detail::throw_on_error(cudaFuncGetAttributes(&attributes, k), "archscan: cudaFuncGetAttributes");
      if (attributes.ptxVersion < 90) most = 0;
      if (most > tile::cluster_exchange::max_blocks) most = tile::cluster_exchange::max_blocks;  // none allows more
      if (most > 1) configure_routed<Tuning, Hooks, Problem, Items, k>(facts);
      if (most > 8 && cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
        cudaGetLastError();
        most = 8;
      }
      int fits = 0;
      for (int size = most; size >= 2 && fits == 0; --size) {
        const one_cluster launch(size, tile_t::threads, tile_t::cluster_smem_bytes, nullptr);
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
};

}  // namespace archscan::dispatch
