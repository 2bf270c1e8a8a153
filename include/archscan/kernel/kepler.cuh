#pragma once
//! \file The kepler family's kernel: choose the tuning row and tile, place shared memory, run one tile.

#include <cstdint>
#include <type_traits>

#include <archscan/tile/chained_scan.cuh>
#include <archscan/tuning.cuh>

namespace archscan::kernel {

//! The tuning row for an accumulator of `Bytes` bytes.
template <class Tuning, std::size_t Bytes>
using kepler_row = std::conditional_t<Bytes <= 4, typename Tuning::row_4_bytes,
                                      std::conditional_t<Bytes <= 8, typename Tuning::row_8_bytes,
                                                         typename Tuning::row_wide>>;

template <class Tuning, class Problem, int Items>
using kepler_tile =
    tile::chained_scan<Problem, kepler_row<Tuning, sizeof(typename Problem::accum_type)>::block_threads, Items,
                       Tuning::load, Tuning::warp_exchange == warp_exchange_kind::shuffle, Tuning::smem_word_bytes>;

//! Whether tiles publish packed status words (asked for, and the accumulator fits in 8 bytes).
template <class Tuning, class T>
constexpr bool kepler_packed_status = Tuning::tile_status == tile_status_kind::packed_word && tile::fits_status_word<T>;

template <class Tuning, class T>
using kepler_status = std::conditional_t<kepler_packed_status<Tuning, T>, tile::packed_status<T>, tile::split_status<T>>;

template <class Tuning, class Problem, int Items, class Status>
__global__ void __launch_bounds__(kepler_row<Tuning, sizeof(typename Problem::accum_type)>::block_threads,
                                  Tuning::min_blocks_per_sm)
    kepler_chained_scan(Problem p, Status status, unsigned* d_counter, std::int64_t tiles, unsigned lookback_delay_ns) {
  using tile = kepler_tile<Tuning, Problem, Items>;
  __shared__ typename tile::storage s;
  tile::run(p, status, d_counter, tiles, lookback_delay_ns, s);
}

}  // namespace archscan::kernel
