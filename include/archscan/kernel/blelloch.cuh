#pragma once
//! \file The blelloch family's kernels: choose the tile, place shared memory, call the tile code.

#include <archscan/tile/blelloch.cuh>

namespace archscan::kernel {

template <class Tuning, class Problem>
using blelloch_tile = tile::blelloch<Problem, Tuning::block_threads, Tuning::conflict_free>;

template <class Tuning, class Problem, bool Final>
__global__ void __launch_bounds__(Tuning::block_threads)
    blelloch_scan_blocks(Problem p, typename Problem::accum_type* scratch, typename Problem::accum_type* sums) {
  extern __shared__ __align__(16) unsigned char smem[];
  using T = typename Problem::accum_type;
  blelloch_tile<Tuning, Problem>::template scan_block<Final>(p, reinterpret_cast<T*>(smem), scratch, sums);
}

template <class Tuning, class Problem>
__global__ void __launch_bounds__(Tuning::block_threads)
    blelloch_uniform_add(Problem p, const typename Problem::accum_type* scratch,
                         const typename Problem::accum_type* sums) {
  blelloch_tile<Tuning, Problem>::uniform_add(p, scratch, sums);
}

}  // namespace archscan::kernel
