#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The native family's dispatch. The routes, by n and what the device allows:
//! - one tile (n <= tile items): one block, no temporary storage; the smallest of the row's single tiles of
//!   few items that covers n, else its full tile;
//! - one cluster (sm_90 on, at most Tuning::cluster_max_tiles tiles): aggregates cross in shared memory,
//!   no temporary storage (a launch the driver refuses throws: no storage was planned for another route);
//! - one wave (every tile resident at once): a cooperative launch, prefixes after one grid barrier;
//! - the look-back: tile states reset (a kernel of our own with the scan as its programmatic dependent on
//!   sm_90 with Tuning::dependent_launch, else a cudaMemsetAsync), one block per tile, the tiles the device
//!   holds at once pacing their loads; staged (persistent blocks, two tiles each in shared memory) from a
//!   row's `staged_from_items` up on memory of `staged_min_memory_gbps` and 16-byte aligned pointers.
//! Tiles: small ones up to `small_tiles_max` of them (full ones where `full_tiles_max` of little more data
//! fit one cluster), large ones from `large_from_items` up, else full (tuning/shape.cuh); an operator exact
//! under any association takes full tiles where they stage. Every route folds tile aggregates in an order
//! fixed by tile indices (`segment_lookback`; an exact operator's wave as a tree), and the tiles depend on
//! n and the row alone (but for exact operators, whose bits no association changes): the same bits on
//! every run and every GPU, whichever route the device allows. Temporary storage: a state per tile (and
//! one per 32-tile segment where the walk uses segment states), or a wave's aggregates where larger; 2^28
//! int32 items in 8192-item tiles take 256 B + 256 KiB. Launches are checked; nothing synchronizes.

#include <algorithm>
#include <cstdint>

#include <archscan/detail/exact_fold.cuh>
#include <archscan/detail/math.cuh>
#include <archscan/dispatch/family.cuh>
#include <archscan/dispatch/native_config.cuh>
#include <archscan/dispatch/route_plan.cuh>
#include <archscan/dispatch/single_pass_plan.cuh>

namespace archscan::dispatch {

template <>
struct family_dispatch<native_family> {
  //! The compile-time choices for one tuning, its hooks and one problem type (dispatch/native_config.cuh).
  template <class Tuning, class Hooks, class Problem>
  using config = native_config<Tuning, Hooks, Problem>;

  template <class Tuning, class Hooks, class Problem>
  static single_pass_plan plan(const Problem& p, const detail::device_facts& facts) {
    using C = config<Tuning, Hooks, Problem>;
    return plan_from_single<C, C::single::items_per_thread, 0>(p, facts);
  }

  template <class Tuning, class Hooks, class Problem>
  static void launch(const Problem& p, const single_pass_plan& pl, const detail::device_facts& facts, void* d_temp,
                     cudaStream_t stream) {
    using C = config<Tuning, Hooks, Problem>;
    // The plan names the tiles' shape (and a single tile's step of the ladder): each maps to its kernel.
    if constexpr (C::has_single_tiles) {
      if (pl.tiles.shape == tile_shape::single)
        return launch_single_step<C, C::single::items_per_thread>(p, pl.tiles.single_step, facts, stream);
    }
    if constexpr (C::has_large_tiles) {
      if (pl.tiles.shape == tile_shape::large) return launch_with<C, C::large_items>(p, pl, facts, d_temp, stream);
    }
    if constexpr (C::has_small_tiles) {
      if (pl.tiles.shape == tile_shape::small) return launch_with<C, C::small_items>(p, pl, facts, d_temp, stream);
    }
    launch_with<C, C::full_items>(p, pl, facts, d_temp, stream);
  }

 private:
  //! The helpers take the configuration `C` (native_config) and a tile shape; one that sets a kernel's
  //! attributes takes the kernel, named by the function that launches it (each translation unit has its
  //! own copy of a kernel, dispatch/family.cuh: a helper keyed by the tile alone would set one unit's).

  //! Sets the attributes of `k`, the routed kernel of tiles of `Items` per thread (dynamic shared memory
  //! up to C::routed_opt_in_smem), and returns its blocks an SM (every route's: the carveout fits them).
  template <class C, int Items, auto k>
  static int configure_routed(const detail::device_facts& facts) {
    using tile_t = typename C::template tile_of<Items>;
    return configure_kernel<typename C::tuning, k, true>(
        tile_t::threads, tile_t::smem_bytes, facts, C::tuning::carveout_percent, C::template routed_opt_in_smem<Items>);
  }

  //! Sets the attributes of `kw`, the kernel that runs the waves of tiles of `Items` per thread
  //! (C::wave_kernel), and returns its blocks an SM. A kernel of its own takes all the shared memory
  //! as carveout: the blocks counted surely fit.
  template <class C, int Items, auto kw>
  static int configure_wave(const detail::device_facts& facts) {
    using tile_t = typename C::template tile_of<Items>;
    if constexpr (C::template wave_apart<Items>) {
      return configure_kernel<typename C::tuning, kw, true>(tile_t::threads, tile_t::smem_bytes, facts, 100);
    } else {
      return configure_routed<C, Items, kw>(facts);
    }
  }

  //! The most blocks a cluster may have: the tuning's cluster_max_tiles, within the exchange's slots.
  template <class C>
  static constexpr int cluster_most = std::min(C::tuning::cluster_max_tiles, tile::cluster_exchange::max_blocks);

  //! Whether the row's full tiles run this problem's look-back staged on this device: its size, the
  //! device's memory and shared memory, and the pointers' alignment allow it.
  template <class C>
  static bool full_tiles_stage(const typename C::problem& p, const detail::device_facts& facts) {
    if constexpr (C::template stages<C::full_items>) {
      using staged_t = typename C::template staged_of<C::full_items>;
      return native_staged(p.n, detail::staged_tiles<typename C::row>::from_items, facts.memory_gbps,
                           detail::staged_min_memory_gbps<typename C::tuning>::value) &&
             staged_t::staged_smem_bytes <= facts.max_smem_optin && C::full_tile::stage_aligned(p);
    } else {
      return false;
    }
  }

  //! The plan from the single tile of `Items` per thread, step `Step` of the ladder, on: the smallest
  //! step that covers n, else the tiles of plan_tiles.
  template <class C, int Items, int Step>
  static single_pass_plan plan_from_single(const typename C::problem& p, const detail::device_facts& facts) {
    if constexpr (C::template single_step<Items>()) {
      if (p.n <= C::template tile_of<Items>::tile_items) return plan_single<C, Items, Step>(facts);
      return plan_from_single<C, 2 * Items, Step + 1>(p, facts);
    } else {
      return plan_tiles<C>(p, facts);
    }
  }

  //! Launches step `step` of the single tiles' ladder, counted from `Items` per thread (the last takes any beyond).
  template <class C, int Items>
  static void launch_single_step(const typename C::problem& p, int step, const detail::device_facts& facts,
                                 cudaStream_t stream) {
    if constexpr (C::template single_step<2 * Items>()) {
      if (step > 0) {
        launch_single_step<C, 2 * Items>(p, step - 1, facts, stream);
        return;
      }
    }
    launch_single<C, Items>(p, facts, stream);
  }

  //! The plan of a problem no single tile of few items covers: large, small or full tiles.
  template <class C>
  static single_pass_plan plan_tiles(const typename C::problem& p, const detail::device_facts& facts) {
    using Tuning = typename C::tuning;
    if constexpr (C::has_large_tiles) {
      // An operator exact under any association gives the same bits on any tiles: where the row's full
      // tiles stage on this device, it takes them (the large ones never stage).
      if (native_large_tiles(p.n, C::large_tile::tile_items, C::large::from_items) &&
          !(detail::associates_exactly<typename C::problem::op_type, typename C::accum> &&
            full_tiles_stage<C>(p, facts))) {
        return plan_with<C, C::large_items>(p, facts);
      }
    }
    if constexpr (C::has_small_tiles) {
      constexpr int full_items  = C::full_tile::tile_items;
      constexpr int small_items = C::small_tile::tile_items;
      if (native_small_tiles(p.n, full_items, small_items, detail::small_tiles_max<Tuning, typename C::row>::value) &&
          !native_full_tiles_first(p.n, full_items, small_items, Tuning::full_tiles_max, sizeof(typename C::accum),
                                   Tuning::full_tiles_max_extra_bytes)) {
        return plan_with<C, C::small_items>(p, facts);
      }
    }
    return plan_with<C, C::full_items>(p, facts);
  }

  //! The plan of a problem that one tile of `Items` per thread, step `Step` of the ladder, covers: the
  //! single-tile route.
  template <class C, int Items, int Step>
  static single_pass_plan plan_single(const detail::device_facts& facts) {
    using tile_t       = typename C::template tile_of<Items>;
    constexpr int host = C::template single_host<Items>;
    configure_routed<C, host, C::template routed_kernel<host>>(facts);
    single_pass_plan pl{};  // one tile: no storage, nothing to ask the device
    pl.tiles = tile_grid{tile_t::items, tile_t::tile_items, 1, 1, tile_shape::single, Step};
    return pl;
  }

  //! One block scans the whole problem as one tile of `Items` per thread.
  template <class C, int Items>
  static void launch_single(const typename C::problem& p, const detail::device_facts& facts, cudaStream_t stream) {
    using tile_t       = typename C::template tile_of<Items>;
    constexpr int host = C::template single_host<Items>;
    constexpr auto k   = C::template routed_kernel<host>;
    configure_routed<C, host, k>(facts);
    typename C::template launch_args<host> a{};
    a.path         = tile::route::single;
    a.single_items = host == Items ? 0 : Items;
    k<<<1, tile_t::threads, tile_t::smem_bytes, stream>>>(p, a);
    detail::throw_on_launch_error("archscan::native: scan_single");
  }

  //! The plan over tiles of `Items` per thread (the tile shape is chosen already).
  template <class C, int Items>
  static single_pass_plan plan_with(const typename C::problem& p, const detail::device_facts& facts) {
    using Tuning     = typename C::tuning;
    using T          = typename C::accum;
    using tile_t     = typename C::template tile_of<Items>;
    constexpr auto k = C::template routed_kernel<Items>;
    // One tile (full tiles only: small ones are taken for more than one full tile) or many: the one kernel.
    const int blocks_per_sm = configure_routed<C, Items, k>(facts);  // before largest_cluster: its smem
    single_pass_plan_input in{p.n,
                              sizeof(T),
                              tile::packs_state<C::template config_of<Items>::packed_status, T>,
                              tile_t::items,
                              tile_t::tile_items,
                              facts.sm_count,
                              0,
                              detail::hook_traits<typename C::hooks>::resident_blocks_per_sm,
                              facts.cooperative_launch,
                              C::template wave_limit<Items>,
                              0,
                              tile_t::segment_walk::chained};
    in.shape = C::template shape_of<Items>;
    if constexpr (C::template clusters<Items>) {
      if (native_cluster_candidate(detail::ceil_div(p.n, tile_t::tile_items), Tuning::cluster_max_tiles, facts.cc_major,
                                   in.resident_blocks_per_sm)) {
        in.cluster_max_tiles = largest_cluster<k>(tile_t::threads, tile_t::cluster_smem_bytes, facts, cluster_most<C>);
      }
    }
    if (p.n > tile_t::tile_items) {
      in.blocks_per_sm = blocks_per_sm;
      if (wave_candidate(in)) {
        if constexpr (C::exact_waves_in_order) {
          in.wave_tree_max_run_bytes = detail::wave_tree_max_run_bytes<Tuning>::value;
        }
        in.wave_blocks_per_sm = configure_wave<C, Items, C::template wave_kernel<Items>>(facts);
      }
    }
    single_pass_plan pl = make_single_pass_plan(in);
    if constexpr (C::template stages<Items>) {
      if (pl.route == single_pass_route::lookback && full_tiles_stage<C>(p, facts)) {
        using staged_t    = typename C::template staged_of<Items>;
        constexpr auto ks = C::template staged_kernel<Items>;
        const int per_sm =
            configure_kernel<Tuning, ks, true>(staged_t::staged_threads, staged_t::staged_smem_bytes, facts);
        pl.staged     = true;
        pl.tiles.grid = std::min<std::int64_t>(pl.tiles.tiles, static_cast<std::int64_t>(facts.sm_count) * per_sm);
        pl.lookback   = pl.tiles;
        pl.first_set  = pl.tiles.grid;
        if constexpr (detail::dependent_launch<Tuning>::value) pl.dependent_launch = dependent_launch_ok<ks>(facts);
      }
    }
    check_grid(pl.tiles.grid, "archscan::native: too many tiles for one grid");
    if constexpr (detail::dependent_launch<Tuning>::value) {  // the look-back, or a wave's fallback to it
      if (!pl.staged && (pl.route == single_pass_route::lookback || pl.route == single_pass_route::wave)) {
        pl.dependent_launch = dependent_launch_ok<k>(facts);
      }
    }
    return pl;
  }

  //! The plan's route over tiles of `Items` per thread: the routed kernel, or the staged one. A route
  //! that these tiles' kernel lacks is never planned; it would run as the look-back.
  template <class C, int Items>
  static void launch_with(const typename C::problem& p, const single_pass_plan& pl, const detail::device_facts& facts,
                          void* d_temp, cudaStream_t stream) {
    using tile_t         = typename C::template tile_of<Items>;
    constexpr auto k     = C::template routed_kernel<Items>;
    const auto look_back = [&] { launch_lookback<C, Items>(p, pl, facts, d_temp, stream); };
    run_route(
        pl, [&] { launch_single<C, Items>(p, facts, stream); },
        [&] {
          if constexpr (has_route(C::template routes<Items>, tile::route::cluster)) {
            configure_routed<C, Items, k>(facts);
            typename C::template launch_args<Items> a{};
            a.path = tile::route::cluster;
            // This copy's attributes (each unit's kernel is its own: dispatch/family.cuh).
            largest_cluster<k>(tile_t::threads, tile_t::cluster_smem_bytes, facts, cluster_most<C>);
            const one_cluster launch(static_cast<int>(pl.tiles.tiles), tile_t::threads, tile_t::cluster_smem_bytes,
                                     stream);
            detail::throw_on_error(cudaLaunchKernelEx(&launch.config, k, p, a), "archscan::native: scan_cluster");
            detail::throw_on_launch_error("archscan::native: scan_cluster");
          } else {
            look_back();
          }
        },
        [&] {
          if constexpr (has_route(C::wave_routes, tile::route::wave) && C::template waves<Items>) {
            constexpr auto kw = C::template wave_kernel<Items>;
            configure_routed<C, Items, k>(facts);
            typename C::template launch_args<Items> a{};
            a.path          = tile::route::wave;
            a.d_aggregates  = static_cast<typename C::accum*>(d_temp);
            a.wave_in_order = pl.wave_in_order;
            configure_wave<C, Items, kw>(facts);
            return launch_cooperative(kw, pl.tiles.grid, tile_t::threads, tile_t::smem_bytes, stream,
                                      "archscan::native: scan_wave", p, a);
          } else {
            return false;
          }
        },
        look_back);
  }

  //! The look-back over tiles of `Items` per thread, after the reset of their states: the staged
  //! kernel where the plan stages, else the routed one.
  template <class C, int Items>
  static void launch_lookback(const typename C::problem& p, const single_pass_plan& pl,
                              const detail::device_facts& facts, void* d_temp, cudaStream_t stream) {
    using tile_t     = typename C::template tile_of<Items>;
    constexpr auto k = C::template routed_kernel<Items>;
    configure_routed<C, Items, k>(facts);
    const auto st = tile_t::state_t::bind(d_temp, pl.states);
    if constexpr (C::template stages<Items>) {
      if (pl.staged) {
        using staged_t    = typename C::template staged_of<Items>;
        constexpr auto ks = C::template staged_kernel<Items>;
        configure_kernel<typename C::tuning, ks, true>(staged_t::staged_threads, staged_t::staged_smem_bytes, facts);
        reset_then_scan<C, Items, k>(p, pl, d_temp, stream, [&](bool dependent) {
          launch_maybe_dependent(dependent, ks, pl.tiles.grid, staged_t::staged_threads, staged_t::staged_smem_bytes,
                                 stream, "archscan::native: scan_tiles_staged", p, st, pl.lookback.tiles, pl.first_set);
        });
        return;
      }
    }
    typename C::template launch_args<Items> a{};
    a.path      = tile::route::lookback;
    a.st        = st;
    a.tiles     = pl.lookback.tiles;
    a.first_set = pl.first_set;
    reset_then_scan<C, Items, k>(p, pl, d_temp, stream, [&](bool dependent) {
      launch_maybe_dependent(dependent, k, pl.tiles.grid, tile_t::threads, tile_t::smem_bytes, stream,
                             "archscan::native: scan_tiles", p, a);
    });
  }

  //! The look-back's tile states reset, then `scan(dependent)` launches the look-back: after the reset
  //! route of `k`, the routed kernel of tiles of `Items` per thread (configured already), as its
  //! programmatic dependent, where the plan says so (the scan must be the kernel queued right after the
  //! reset: its wait covers that one only), else after a cudaMemsetAsync.
  template <class C, int Items, auto k, class Scan>
  static void reset_then_scan(const typename C::problem& p, const single_pass_plan& pl, void* d_temp,
                              cudaStream_t stream, Scan&& scan) {
    if constexpr (has_route(C::template routes<Items>, tile::route::reset)) {
      if (pl.dependent_launch) {
        constexpr int threads = C::template tile_of<Items>::threads;
        typename C::template launch_args<Items> a{};
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
};

}  // namespace archscan::dispatch
