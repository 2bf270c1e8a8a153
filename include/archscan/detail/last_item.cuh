#pragma once
//! \file An output "iterator" that keeps only the last item of a scan: the scan of a slice run for
//! its total alone (a scan across ranks, dispatch/rank_dispatch.cuh) reads every item and writes one.

#include <cstdint>

namespace archscan::detail {

//! Item `last` of the output lands in `*d_last`; every other store is dropped. Offers what the
//! families use of an output iterator: `it + k` and `it[i] = value`.
template <class T>
struct last_item_output {
  T* d_last;
  std::int64_t last;  //!< the index of the kept item, relative to this position

  struct slot {
    T* d;
    __device__ __forceinline__ void operator=(const T& value) const {
      if (d != nullptr) *d = value;
    }
  };
  __host__ __device__ last_item_output operator+(std::int64_t k) const { return {d_last, last - k}; }
  __device__ __forceinline__ slot operator[](std::int64_t i) const { return {i == last ? d_last : nullptr}; }
};

}  // namespace archscan::detail
