#pragma once
//! \file The turing family's kernels: choose the tuning row, place shared memory, call the tile code.

#include <archscan/tile/turing.cuh>

namespace archscan::kernel {

template <class Tuning, class Problem>
using turing_tile = tile::turing<Problem, Tuning>;

template <class Tuning, class Problem>
using turing_row = typename Tuning::template row<sizeof(typename Problem::accum_type)>;

//! Marks `tiles` tile states invalid and zeroes the tile counter.
template <class Tuning, class Problem>
__global__ void turing_init_states(typename turing_tile<Tuning, Problem>::states_t states, std::int64_t tiles) {
  turing_tile<Tuning, Problem>::init_states(states, tiles);
}

//! A problem of at most one tile: one block, no tile states.
template <class Tuning, class Problem>
__global__ void __launch_bounds__(turing_row<Tuning, Problem>::block_threads)
    turing_scan_single(Problem p) {
  extern __shared__ __align__(16) unsigned char smem[];
  turing_tile<Tuning, Problem>::scan_single(p, smem);
}

//! Tiles taken from the counter in `states`, published and looked back on through `states`.
template <class Tuning, class Problem>
__global__ void __launch_bounds__(turing_row<Tuning, Problem>::block_threads,
                                  turing_row<Tuning, Problem>::min_blocks_per_sm)
    turing_scan_tiles(Problem p, typename turing_tile<Tuning, Problem>::states_t states, std::int64_t tiles,
                      unsigned lookback_delay_ns) {
  extern __shared__ __align__(16) unsigned char smem[];
  turing_tile<Tuning, Problem>::scan_tiles(p, states, tiles, lookback_delay_ns, smem);
}

}  // namespace archscan::kernel
