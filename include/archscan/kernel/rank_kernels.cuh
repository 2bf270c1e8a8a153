#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The kernels of a scan across ranks before the gather (dispatch/rank_dispatch.cuh): the rank's
//! total with no look-back. Independent blocks fold chunks of the slice (rank_chunk_totals) and one of
//! them writes the record's header and keys; where the chunks outnumber what a record holds, one more
//! block folds their totals into one (rank_fold_totals). Every association depends on n and the tile
//! shape alone. After the gather, the family's scan folds its seed from the records itself.

#include <cstdint>

#include <archscan/detail/maybe.cuh>
#include <archscan/detail/rank_carry.cuh>
#include <archscan/tile/chunk_total.cuh>
#include <archscan/tile/ordered_fold.cuh>

namespace archscan::kernel {

//! How a rank's first pass splits its slice: chunk b folds full tiles [b * tiles_per_chunk, ...) of
//! `full_tiles` (none past the last), the last chunk also the items after them; `record_totals`
//! totals go into the record (the chunks' own, or their fold).
struct rank_chunks {
  std::int64_t full_tiles;
  std::int64_t tiles_per_chunk;
  std::int64_t chunks;  //!< >= 1: an empty slice still writes its record's header
  int record_totals;    //!< chunks where they fit the record, else 1 (0 for an empty slice)
  bool in_record;       //!< the chunks' totals go straight into the record (no rank_fold_totals)
};

//! Threads of the block that folds the chunks' totals (rank_fold_totals).
constexpr int rank_fold_threads = 256;

//! Chunk blockIdx.x's total into d_totals[blockIdx.x] (the record's totals, or temporary storage);
//! block 0 also writes the record's header and keys.
template <class Config, class Problem, class Boundary>
__global__ void __launch_bounds__(Config::threads)
    rank_chunk_totals(Problem p, rank_chunks plan, typename Problem::accum_type* d_totals,
                      detail::rank_record<typename Problem::accum_type, typename Boundary::key_type>* d_record,
                      std::uint64_t signature, Boundary boundary) {
  extern __shared__ __align__(16) unsigned char smem[];
  using chunk              = tile::chunk_total<Problem, Config>;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * plan.tiles_per_chunk;
  const std::int64_t left  = plan.full_tiles - first;
  const std::int64_t count = left < plan.tiles_per_chunk ? (left > 0 ? left : 0) : plan.tiles_per_chunk;
  const bool last_chunk    = blockIdx.x + 1 == gridDim.x;
  const auto total         = chunk::fold(p, first, count, last_chunk ? plan.full_tiles * chunk::tile_items : p.n, smem);
  if (threadIdx.x == 0) {
    if (total.valid) d_totals[blockIdx.x] = total.value;
    if (blockIdx.x == 0) {
      d_record->header = detail::rank_header{signature, p.n, plan.record_totals};
      if (p.n > 0) {
        d_record->first_key = boundary.first_key();
        d_record->last_key  = boundary.last_key(p.n);
      }
    }
  }
}

//! The chunks' totals folded in order into `*d_total` (the record's one total), by one block.
template <class Accum, class Op>
__global__ void __launch_bounds__(rank_fold_threads)
    rank_fold_totals(const Accum* d_chunk_totals, std::int64_t chunks, Op op, Accum* d_total) {
  using fold = tile::ordered_fold<Accum, rank_fold_threads>;
  __shared__ typename fold::storage s;
  const auto total = fold::fold(
      chunks, [&](std::int64_t i) { return d_chunk_totals[i]; }, op, s);
  if (threadIdx.x == 0) *d_total = total.value;
}

}  // namespace archscan::kernel
