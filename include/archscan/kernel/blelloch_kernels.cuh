#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The blelloch family's kernels: choose the tile, place shared memory, call the tile code.

#include <archscan/tile/sweep_tile.cuh>

namespace archscan::kernel {

//! `Config`: the tuning's row, resolved by the dispatch (tuning/tile_config.cuh, `sweep_config`; with
//! fewer threads where its block does not fit).
template <class Config, class Problem>
using blelloch_tile = tile::sweep_tile<Problem, Config::threads, Config::conflict_free>;

template <class Config, class Problem, bool Final>
__global__ void __launch_bounds__(Config::threads, Config::min_blocks_per_sm)
    blelloch_scan_blocks(Problem p, typename Problem::accum_type* scratch, typename Problem::accum_type* sums) {
  extern __shared__ __align__(16) unsigned char smem[];
  using T = typename Problem::accum_type;
  blelloch_tile<Config, Problem>::template scan_block<Final>(p, reinterpret_cast<T*>(smem), scratch, sums);
}

template <class Config, class Problem>
__global__ void __launch_bounds__(Config::threads, Config::min_blocks_per_sm)
    blelloch_uniform_add(Problem p, const typename Problem::accum_type* scratch,
                         const typename Problem::accum_type* sums) {
  blelloch_tile<Config, Problem>::uniform_add(p, scratch, sums);
}

}  // namespace archscan::kernel
