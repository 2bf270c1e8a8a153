#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The kernels of the transposed tile on its routes (tile/routed_tile.cuh), turing's and
//! native's: each places shared memory and calls the tile. turing has a kernel per route; native one
//! per tile shape for every route (tile/routes.cuh), the full tiles' also running the single tiles
//! of few items, and the staged look-back (tile/staged_tile.cuh), whose blocks differ, one of its own.

#include <cstdint>

#include <archscan/detail/dependent_launch.cuh>
#include <archscan/detail/hook_traits.cuh>
#include <archscan/tile/routed_tile.cuh>
#include <archscan/tile/staged_tile.cuh>

namespace archscan::kernel {

// ---- turing: one kernel per route ----

//! `Config`: one tile shape of the tuning (tuning/tile_config.cuh): the row's full or small tiles.
template <class Config, class Problem>
using turing_tile = tile::transposed_tile<Problem, Config>;
//! The same tiles on their routes (tile/routed_tile.cuh): the kernels' bodies. The kernels' parameters
//! keep naming turing_tile's types: a kernel's symbol spells a dependent parameter type as written,
//! and profiles and the SASS gate (tools/same_sass.sh) know the kernels by their symbols.
template <class Config, class Problem>
using turing_routed_tile = tile::routed_tile<Problem, Config>;

//! A problem of at most one tile: one block, no tile states.
template <class Config, class Problem>
__global__ void __launch_bounds__(Config::threads) turing_scan_single(Problem p) {
  extern __shared__ __align__(16) unsigned char smem[];
  turing_routed_tile<Config, Problem>::scan_single(p, smem);
}

//! Every block resident at once (launched cooperatively): prefixes from the tiles' aggregates after
//! one grid barrier; `d_aggregates` holds one accumulator per tile.
template <class Config, class Problem>
__global__ void __launch_bounds__(Config::threads, Config::min_blocks_per_sm)
    turing_scan_wave(Problem p, typename Problem::accum_type* d_aggregates) {
  extern __shared__ __align__(16) unsigned char smem[];
  turing_routed_tile<Config, Problem>::scan_wave(p, d_aggregates, smem);
}

//! Tiles taken from the counter of `st`, published and looked back on through `st`.
template <class Config, class Problem>
__global__ void __launch_bounds__(Config::threads, Config::min_blocks_per_sm)
    turing_scan_tiles(Problem p, typename turing_tile<Config, Problem>::state_t st, std::int64_t tiles,
                      unsigned lookback_delay_ns) {
  extern __shared__ __align__(16) unsigned char smem[];
  turing_routed_tile<Config, Problem>::scan_tiles(p, st, tiles, lookback_delay_ns, smem);
}

// ---- native: one kernel per tile shape, every route ----

//! `Config`: one tile shape of the tuning (tuning/tile_config.cuh): the row's full tiles, its small
//! tiles for problems of few small tiles, its large tiles for problems from its large_from_items up, or
//! one of its single tiles of few items for problems that one such tile covers (tuning/shape.cuh).
template <class Config, class Problem>
using native_tile = tile::transposed_tile<Problem, Config>;
//! The same tiles on their routes (tile/routed_tile.cuh): the kernels' bodies. The kernels' parameters
//! keep naming native_tile's types: a kernel's symbol spells a dependent parameter type as written,
//! and profiles and the SASS gate (tools/same_sass.sh) know the kernels by their symbols.
template <class Config, class Problem>
using native_routed_tile = tile::routed_tile<Problem, Config>;
//! The same tiles, staged (the row's full tiles from its staged_from_items up).
template <class Config, class Problem>
using native_staged_tile = tile::staged_tile<Problem, Config>;

//! Whether tiles' aggregates are folded strictly in order by the segmented look-back (bitwise
//! deterministic for every operator), or, under the tree_fold hook, as turing's windowed tree: what
//! the order costs. Operators exact under any association (integer sums, minima, maxima, bitwise)
//! take the ordered walk in the look-back and a cluster too (with 8192-item tiles it outran the
//! tree), and in a wave the tree (fewer steps in a row) unless `ExactInOrder` (the dispatch's choice
//! for long runs, tuning/native.cuh's wave_tree_max_run_bytes): the same bits either way.
template <class Hooks>
inline constexpr bool native_ordered_fold = !detail::hook_traits<Hooks>::tree_fold;

//! One tile of `items` per thread, one of the steps in `Singles` (bit j: the row's
//! single_items_per_thread << j items a thread, its single tiles of few items, tuning/shape.cuh): the
//! whole problem in one block, no tile states.
template <class Config, class Problem, unsigned Singles, int Bit = 0>
__device__ __forceinline__ void native_scan_single_step(int items, const Problem& p, unsigned char* smem) {
  if constexpr ((Singles >> Bit) != 0) {
    constexpr int step = Config::single_items_per_thread << Bit;
    if constexpr (((Singles >> Bit) & 1u) != 0) {
      if (items == step) {
        native_routed_tile<typename Config::template with_items<step>, Problem>::scan_single(p, smem);
        return;
      }
    }
    native_scan_single_step<Config, Problem, Singles, Bit + 1>(items, p, smem);
  }
}

//! The minimum of blocks an SM in a routed kernel's bounds: the look-back's where it runs the look-back
//! (a row's lookback_min_blocks_per_sm, for its full tiles), else the tile's own: a wave kernel of its
//! own keeps that, so that a wave's tiles stay resident (row_8: 2^21 doubles, 512 tiles, one wave at 4
//! blocks an SM and 1.06x the time at 3, tuning/native.cuh).
template <class Config, tile::route_set Routes>
inline constexpr int native_min_blocks = tile::has_route(Routes, tile::route::lookback)
                                             ? Config::lookback_min_blocks_per_sm
                                             : Config::min_blocks_per_sm;

//! One tile shape's kernel for every route in `Routes` (tile/routes.cuh): one tile, one cluster (sm_90
//! on; dynamic shared memory the tile's cluster_smem_bytes), one wave (launched cooperatively), the
//! look-back over tiles claimed from the counter of `a.st`, or the reset of those states before it.
//! The look-back's bounds (native_min_blocks) hold for every route: the look-back is the route of large
//! problems, and its registers the most.
//! The full tiles' kernel also runs the single tiles of few items in `Singles` (native_scan_single_step,
//! where `a.single_items` names one): a call site compiles one kernel for every single tile.
//! `WaveTiles`: the most tiles one of its waves holds, where the dispatch bounds them (0: any number).
template <class Config, class Problem, tile::route_set Routes, unsigned Singles = 0, int WaveTiles = 0>
__global__ void __launch_bounds__(Config::threads, (native_min_blocks<Config, Routes>))
    native_scan(Problem p,
                tile::routed_launch<typename native_tile<Config, Problem>::state_t, typename Problem::accum_type> a) {
  extern __shared__ __align__(16) unsigned char smem[];
  if constexpr (Singles != 0) {
    if (a.single_items != 0) {
      native_scan_single_step<Config, Problem, Singles>(a.single_items, p, smem);
      return;
    }
  }
  native_routed_tile<Config, Problem>::template scan_routed<native_ordered_fold<typename Config::hooks>, Routes,
                                                            WaveTiles>(p, a, smem);
}

//! The staged look-back (tuning/shape.cuh, `example_staged_row`): persistent blocks of the row's threads and
//! one look-back warp, the row's staged minimum of them an SM, two tiles each in shared memory.
template <class Config, class Problem>
__global__ void __launch_bounds__((native_staged_tile<Config, Problem>::staged_threads),
                                  Config::staged_min_blocks_per_sm)
    native_scan_tiles_staged(Problem p, typename native_tile<Config, Problem>::state_t st, std::int64_t tiles,
                             std::int64_t first_set) {
  extern __shared__ __align__(16) unsigned char smem[];
  native_staged_tile<Config, Problem>::scan_staged(p, st, tiles, Config::lookback_delay_ns, smem, first_set);
}

}  // namespace archscan::kernel
