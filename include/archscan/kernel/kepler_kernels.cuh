#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The kepler family's kernel: place shared memory, run one striped tile.

#include <cstdint>

#include <archscan/tile/striped_tile.cuh>

namespace archscan::kernel {

//! `Config`: one tile shape of the tuning (tuning/tile_config.cuh, `striped_config`).
template <class Config, class Problem>
using kepler_tile = tile::striped_tile<Problem, Config>;

template <class Config, class Problem>
__global__ void __launch_bounds__(Config::threads, Config::min_blocks_per_sm)
    kepler_chained_scan(Problem p, typename kepler_tile<Config, Problem>::state_t st, std::int64_t tiles,
                        unsigned lookback_delay_ns) {
  using tile = kepler_tile<Config, Problem>;
  __shared__ typename tile::storage s;
  tile::run(p, st, tiles, lookback_delay_ns, s);
}

}  // namespace archscan::kernel
