#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Two interchangeable ways for the lanes of one warp to exchange values: register shuffles
//! (`shuffle_exchange`, built on shuffle_scan.cuh) and a per-warp shared-memory buffer
//! (`smem_exchange`, the pre-Kepler way, kept so that its cost can be measured against shuffles).
//!
//! Both expose `inclusive_scan(v, op)`, `from_lane(v, src)` and take a `storage&` (empty for
//! shuffles). Every lane of the warp must call them together. The shared-memory form orders its
//! accesses with `__syncwarp` (explicit barriers, never implicit lock-step; guide 1.4.9).

#include <cstring>
#include <type_traits>

#include <archscan/warp/shuffle_scan.cuh>

namespace archscan::warp {

//! A value of type T held in shared memory as words of `WordBytes`: 8 (one 64-bit access per 8 bytes,
//! when sizeof(T) is a multiple of 8) or 4 (32-bit words). Trivial, so it may be declared __shared__.
template <class T, int WordBytes>
struct smem_slot {
  static_assert(WordBytes == 4 || WordBytes == 8, "shared-memory words are 4 or 8 bytes");
  using word                 = std::conditional_t<WordBytes == 8 && sizeof(T) % 8 == 0, unsigned long long, unsigned>;
  static constexpr int words = static_cast<int>((sizeof(T) + sizeof(word) - 1) / sizeof(word));
  word w[words];

  __device__ __forceinline__ void put(const T& v) {
    word t[words] = {};
    memcpy(t, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < words; ++i) w[i] = t[i];
  }
  __device__ __forceinline__ T get() const {
    word t[words];
#pragma unroll
    for (int i = 0; i < words; ++i) t[i] = w[i];
    T v;
    memcpy(&v, t, sizeof(T));
    return v;
  }
};

//! Exchange by `__shfl_*_sync` (no shared memory).
template <class T>
struct shuffle_exchange {
  struct storage {};
  template <class Op>
  __device__ __forceinline__ static T inclusive_scan(const T& v, Op op, storage&) {
    return warp::inclusive_scan(v, op);
  }
  //! The value of lane `src` (each lane may name a different source).
  __device__ __forceinline__ static T from_lane(const T& v, int src, storage&) { return shfl_idx(v, src); }
};

//! Exchange through a 32-slot shared-memory buffer per warp.
template <class T, int WordBytes>
struct smem_exchange {
  struct storage {
    smem_slot<T, WordBytes> slot[threads];
  };
  template <class Op>
  __device__ static T inclusive_scan(T v, Op op, storage& s) {
    const int lane = lane_id();
#pragma unroll
    for (int d = 1; d < threads; d *= 2) {
      s.slot[lane].put(v);
      __syncwarp(full_mask);
      T left = v;
      if (lane >= d) left = s.slot[lane - d].get();
      __syncwarp(full_mask);  // every lane has read before the next round overwrites
      if (lane >= d) v = op(left, v);
    }
    return v;
  }
  __device__ static T from_lane(const T& v, int src, storage& s) {
    s.slot[lane_id()].put(v);
    __syncwarp(full_mask);
    const T r = s.slot[src].get();
    __syncwarp(full_mask);
    return r;
  }
};

}  // namespace archscan::warp
