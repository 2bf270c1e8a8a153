#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The turing family's kernels: place shared memory, call the transposed tile on its routes
//! (tile/routed_tile.cuh).

#include <cstdint>

#include <archscan/tile/routed_tile.cuh>

namespace archscan::kernel {

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

}  // namespace archscan::kernel
