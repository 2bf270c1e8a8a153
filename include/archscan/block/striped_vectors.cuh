#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Each warp of a block moves its segment of a tile between memory and its lanes as 16-byte
//! vectors in the warp-striped arrangement: lane l holds vectors l, l + 32, ... (vector k * 32 + l in
//! its `v[k]`), so that every warp-wide access moves 512 contiguous bytes. block/vector_transpose.cuh
//! exchanges these vectors to and from the blocked arrangement.
//!
//! Each lane moves its own vectors and no other's: no lane waits for another, and a block's warps
//! need no barrier.

#include <cstring>

namespace archscan::block {

//! This lane's 16-byte vectors of the warp segment starting at `warp_start` (vector k * 32 + lane
//! in `v[k]`), for the exchange to the blocked arrangement.
template <class U, int LaneVectors>
__device__ void load_vectors(const U* warp_start, uint4 (&v)[LaneVectors]) {
  const auto* src = reinterpret_cast<const uint4*>(warp_start) + threadIdx.x % 32;
#pragma unroll
  for (int k = 0; k < LaneVectors; ++k) v[k] = src[k * 32];
}

//! The inverse of load_vectors: this lane's vectors to the warp segment starting at `warp_start`.
template <class U, int LaneVectors>
__device__ void store_vectors(U* warp_start, const uint4 (&v)[LaneVectors]) {
  auto* dst = reinterpret_cast<uint4*>(warp_start) + threadIdx.x % 32;
#pragma unroll
  for (int k = 0; k < LaneVectors; ++k) dst[k * 32] = v[k];
}

//! load_vectors for a segment of which only the first `rest` items exist: whole vectors up to there,
//! the one that crosses it item by item, `fill` in place of the missing items: a partial tile then
//! issues about the instructions of a full one, not a load and a shared-memory store per item.
template <class U, int LaneVectors>
__device__ void load_vectors(const U* warp_start, int rest, U fill, uint4 (&v)[LaneVectors]) {
  constexpr int vector_items = static_cast<int>(sizeof(uint4) / sizeof(U));
  const int lane             = static_cast<int>(threadIdx.x) % 32;
#pragma unroll
  for (int k = 0; k < LaneVectors; ++k) {
    const int first = (k * 32 + lane) * vector_items;  // the vector's first item in the segment
    if (first + vector_items <= rest) {
      v[k] = reinterpret_cast<const uint4*>(warp_start)[k * 32 + lane];
    } else {
      U u[vector_items];
#pragma unroll
      for (int i = 0; i < vector_items; ++i) u[i] = first + i < rest ? warp_start[first + i] : fill;
      std::memcpy(&v[k], u, sizeof(uint4));
    }
  }
}

//! Lane vector k of store_vectors (the segment's vector k * 32 + lane), of the segment's first `rest`
//! items only.
template <class U>
__device__ __forceinline__ void store_vector(U* warp_start, int rest, int k, const uint4& v) {
  constexpr int vector_items = static_cast<int>(sizeof(uint4) / sizeof(U));
  const int lane             = static_cast<int>(threadIdx.x) % 32;
  const int first            = (k * 32 + lane) * vector_items;
  if (first + vector_items <= rest) {
    reinterpret_cast<uint4*>(warp_start)[k * 32 + lane] = v;
  } else if (first < rest) {
    U u[vector_items];
    std::memcpy(u, &v, sizeof(uint4));
#pragma unroll
    for (int i = 0; i < vector_items; ++i) {
      if (first + i < rest) warp_start[first + i] = u[i];
    }
  }
}

//! store_vectors of the segment's first `rest` items only.
template <class U, int LaneVectors>
__device__ void store_vectors(U* warp_start, int rest, const uint4 (&v)[LaneVectors]) {
#pragma unroll
  for (int k = 0; k < LaneVectors; ++k) store_vector(warp_start, rest, k, v[k]);
}

}  // namespace archscan::block
