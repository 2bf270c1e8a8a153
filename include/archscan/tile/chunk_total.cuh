#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The total of one chunk of a slice, by one block, with no look-back: a run of full tiles of
//! native's shape (transposed_tile::reduce_tiles), then, for the slice's last chunk, the items after
//! its last full tile (ordered_fold). The association depends on n and the tile shape alone. A scan
//! across ranks finds each rank's total so (kernel/rank_kernels.cuh).

#include <cstdint>

#include <archscan/detail/maybe.cuh>
#include <archscan/tile/ordered_fold.cuh>
#include <archscan/tile/transposed_tile.cuh>

namespace archscan::tile {

//! `Config`: the tiles' (tuning/tile_config.cuh).
template <class Problem, class Config>
struct chunk_total {
  using T     = typename Problem::accum_type;
  using tiles = transposed_tile<Problem, Config>;
  using tail  = ordered_fold<T, Config::threads>;

  static constexpr int tile_items = tiles::tile_items;
  static constexpr int smem_bytes = tiles::smem_bytes > static_cast<int>(sizeof(typename tail::storage))
                                        ? tiles::smem_bytes
                                        : static_cast<int>(sizeof(typename tail::storage));

  //! Full tiles [first_tile, first_tile + count) (count >= 0), then items [tail_begin, p.n) (none when
  //! tail_begin >= p.n), folded in order; returned to every thread, absent when both are empty.
  __device__ static detail::maybe<T> fold(const Problem& p, std::int64_t first_tile, std::int64_t count,
                                          std::int64_t tail_begin, unsigned char* smem) {
    detail::maybe<T> total{p.seed, 0};  // p.seed: a value of T to fill an absent maybe with
    if (count > 0) total = detail::maybe<T>{tiles::reduce_tiles(p, first_tile, count, smem), 1};
    if (tail_begin < p.n) {
      __syncthreads();  // the tail's fold reuses the tiles' shared memory
      auto& s                     = *reinterpret_cast<typename tail::storage*>(smem);
      const detail::maybe<T> rest = tail::fold(
          p.n - tail_begin, [&](std::int64_t i) { return p.load(tail_begin + i); }, p.op, s);
      total = detail::maybe_op<typename Problem::op_type>{p.op}(total, rest);
    }
    return total;
  }
};

}  // namespace archscan::tile
