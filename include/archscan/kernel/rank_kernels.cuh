#pragma once
//! \file The kernels of a scan across ranks besides the family's scan (dispatch/rank_dispatch.cuh).
//! Before the gather, the rank's total without a look-back: chunks of full tiles folded by
//! independent blocks (rank_chunk_totals), then one block folds the chunks' totals and the items after
//! the last full tile and writes the rank's record (rank_fold_record); every association depends on n and
//! the tile shape alone. After the gather, one thread folds the rank's seed (rank_carry).

#include <cstdint>

#include <archscan/detail/maybe.cuh>
#include <archscan/detail/rank_carry.cuh>
#include <archscan/tile/ordered_fold.cuh>
#include <archscan/tile/transposed_tile.cuh>

namespace archscan::kernel {

//! Threads of the block that folds a rank's record (rank_fold_record).
constexpr int rank_record_threads = 256;

//! Chunk blockIdx.x: tiles [blockIdx.x * tiles_per_chunk, ...), at most `tiles_per_chunk` of the
//! `full_tiles`, folded into d_chunk_totals[blockIdx.x].
template <class Tuning, class Row, class Problem>
__global__ void __launch_bounds__(Row::block_threads)
    rank_chunk_totals(Problem p, std::int64_t tiles_per_chunk, std::int64_t full_tiles,
                      typename Problem::accum_type* d_chunk_totals) {
  extern __shared__ __align__(16) unsigned char smem[];
  using tile_t              = tile::transposed_tile<Problem, Tuning, Row, Row::items_per_thread>;
  const std::int64_t first  = static_cast<std::int64_t>(blockIdx.x) * tiles_per_chunk;
  const std::int64_t count  = first + tiles_per_chunk < full_tiles ? tiles_per_chunk : full_tiles - first;
  const auto total          = tile_t::reduce_tiles(p, first, count, smem);
  if (threadIdx.x == 0) d_chunk_totals[blockIdx.x] = total;
}

//! This rank's record: header, total (the chunks' totals, then items [tail, n)) and boundary keys.
template <class Problem, class Boundary>
__global__ void __launch_bounds__(rank_record_threads)
    rank_fold_record(Problem p, const typename Problem::accum_type* d_chunk_totals, std::int64_t chunks, std::int64_t tail,
                detail::rank_record<typename Problem::accum_type, typename Boundary::key_type>* d_record,
                std::uint64_t signature, Boundary boundary) {
  using T    = typename Problem::accum_type;
  using fold = tile::ordered_fold<T, rank_record_threads>;
  __shared__ typename fold::storage s;
  detail::maybe<T> total{p.seed, 0};  // p.seed: a value of T to fill an absent maybe with
  if (chunks > 0) total = fold::fold(chunks, [&](std::int64_t i) { return d_chunk_totals[i]; }, p.op, s);
  if (tail < p.n) {
    __syncthreads();  // s is reused
    const detail::maybe<T> rest = fold::fold(p.n - tail, [&](std::int64_t i) { return p.load(tail + i); }, p.op, s);
    total = detail::maybe_op<typename Problem::op_type>{p.op}(total, rest);
  }
  if (threadIdx.x == 0) {
    d_record->header = detail::rank_header{signature, p.n};
    if (p.n > 0) {
      d_record->total     = total.value;
      d_record->first_key = boundary.first_key();
      d_record->last_key  = boundary.last_key(p.n);
    }
  }
}

//! One thread, after the gather: this rank's seed, its own (`seed`, maybe absent) folded with the
//! lower ranks' totals from the gathered records (detail::fold_lower_ranks).
template <class Accum, class Key, class Op, class Boundary>
__global__ void rank_carry(const unsigned char* d_slots, int rank, detail::maybe<Accum> seed, Op op, Boundary boundary,
                           detail::maybe<Accum>* d_seed) {
  *d_seed = detail::fold_lower_ranks<Accum, Key>(d_slots, rank, seed, op, boundary);
}

}  // namespace archscan::kernel
