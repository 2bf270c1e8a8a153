#pragma once
//! \file The one kernel of a scan across ranks besides the family's (dispatch/rank_dispatch.cuh): the
//! record of a rank whose slice is empty, which has no first pass to write it.

#include <cstdint>

#include <archscan/detail/rank_carry.cuh>

namespace archscan::kernel {

//! One thread: the header of an empty slice's record (no total, no keys).
template <class Accum, class Key>
__global__ void rank_empty_record(detail::rank_record<Accum, Key>* d_record, std::uint64_t signature) {
  d_record->header = detail::rank_header{signature, 0};
}

}  // namespace archscan::kernel
