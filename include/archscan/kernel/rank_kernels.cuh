#pragma once
//! \file The two small kernels of a scan across ranks (dispatch/rank_dispatch.cuh): one writes this
//! rank's record before the gather, one folds the gathered records into this rank's seed after it.
//! One thread each: they move a few hundred bytes, between the slice's two passes.

#include <cstdint>

#include <archscan/detail/maybe.cuh>
#include <archscan/detail/rank_carry.cuh>

namespace archscan::kernel {

//! The header and (by-key scans, n > 0) the first and last keys of this rank's record; its total is
//! written by the slice's first pass.
template <class Accum, class Boundary>
__global__ void rank_record_header(detail::rank_record<Accum, typename Boundary::key_type>* d_record,
                                   std::uint64_t signature, std::int64_t n, Boundary boundary) {
  d_record->header = detail::rank_header{signature, n};
  if (n > 0) {
    d_record->first_key = boundary.first_key();
    d_record->last_key  = boundary.last_key(n);
  }
}

//! This rank's seed from the gathered records (detail::fold_lower_ranks), and the call's status.
template <class Accum, class Op, class Boundary>
__global__ void rank_carry(const unsigned char* d_slots, int ranks, int rank, std::uint64_t signature,
                           detail::maybe<Accum> seed, Op op, Boundary boundary, detail::maybe<Accum>* d_seed,
                           detail::rank_status* d_status) {
  *d_seed = detail::fold_lower_ranks<Accum, typename Boundary::key_type>(d_slots, ranks, rank, signature, seed, op,
                                                                         boundary, d_status);
}

}  // namespace archscan::kernel
