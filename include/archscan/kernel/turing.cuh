#pragma once
//! \file The turing family's kernels: choose the tuning row, place shared memory, call the tile code.

#include <type_traits>

#include <archscan/tile/turing.cuh>

namespace archscan::kernel {

template <class Tuning, class Problem>
using turing_row = typename Tuning::template row<sizeof(typename Problem::accum_type)>;

template <class Tuning, class Problem, int Items = turing_row<Tuning, Problem>::items_per_thread>
using turing_tile = tile::turing<Problem, Tuning, Items>;

//! A row's small_items_per_thread (tiles of a small wave); rows of user tunings may leave it out.
template <class Row, class = void>
struct small_items_of {
  static constexpr int value = Row::items_per_thread;
};
template <class Row>
struct small_items_of<Row, std::void_t<decltype(Row::small_items_per_thread)>> {
  static constexpr int value = Row::small_items_per_thread;
};
template <class Tuning, class Problem>
inline constexpr int turing_small_items = small_items_of<turing_row<Tuning, Problem>>::value;

//! A problem of at most one tile: one block, no tile states.
template <class Tuning, class Problem>
__global__ void __launch_bounds__(turing_row<Tuning, Problem>::block_threads)
    turing_scan_single(Problem p) {
  extern __shared__ __align__(16) unsigned char smem[];
  turing_tile<Tuning, Problem>::scan_single(p, smem);
}

//! One tile of `Items` per thread per block, every block resident at once (launched cooperatively):
//! prefixes from the tiles' aggregates after one grid barrier; `d_aggregates` holds one accumulator per tile.
template <class Tuning, class Problem, int Items>
__global__ void __launch_bounds__(turing_row<Tuning, Problem>::block_threads,
                                  turing_row<Tuning, Problem>::min_blocks_per_sm)
    turing_scan_wave(Problem p, typename Problem::accum_type* d_aggregates) {
  extern __shared__ __align__(16) unsigned char smem[];
  turing_tile<Tuning, Problem, Items>::scan_wave(p, d_aggregates, smem);
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
