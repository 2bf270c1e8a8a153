#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The kepler family's kernel: place shared memory, run one striped tile.

#include <cstdint>

#include <archscan/tile/striped_tile.cuh>

namespace archscan::kernel {

//! `Row`: the tuning's row for the accumulator; `Items`: its items_per_thread or small_items_per_thread.
template <class Tuning, class Row, class Hooks, class Problem, int Items>
using kepler_tile = tile::striped_tile<Problem, Tuning, Row, Items, Hooks>;

template <class Tuning, class Row, class Hooks, class Problem, int Items>
__global__ void __launch_bounds__(Row::block_threads, Row::min_blocks_per_sm)
    kepler_chained_scan(Problem p, typename kepler_tile<Tuning, Row, Hooks, Problem, Items>::state_t st,
                        std::int64_t tiles, unsigned lookback_delay_ns) {
  using tile = kepler_tile<Tuning, Row, Hooks, Problem, Items>;
  __shared__ typename tile::storage s;
  tile::run(p, st, tiles, lookback_delay_ns, s);
}

}  // namespace archscan::kernel
