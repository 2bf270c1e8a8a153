#pragma once
//! \file A hint to the L2: fetch a range of global memory now, so that a later load finds it there.
//! Nothing waits for it and nothing is returned; a wrong hint costs bandwidth, never a result.
//! On sm_90 on one thread asks the bulk copy unit for the whole range (`cp.async.bulk.prefetch.L2`);
//! on older targets it compiles to nothing.

#include <cstddef>
#include <cstdint>

#include <thrust/iterator/transform_iterator.h>

#include <archscan/detail/vector_access.cuh>

namespace archscan::detail {

//! `d_from`: 16-byte aligned global memory; `bytes`: a multiple of 16, all of it inside one allocation.
__device__ __forceinline__ void prefetch_l2(const void* d_from, std::uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(__cvta_generic_to_global(d_from)), "r"(bytes)
               : "memory");
#else
  (void)d_from;
  (void)bytes;
#endif
}

//! Iterators whose items i .. i + k are the elements i .. i + k of one array: raw pointers, and
//! transform iterators over them (a transform scan's input). `pointer(it)`: that array at `it`.
//! Other adaptors (permutations, reversals) read elsewhere than their base's range: never prefetched.
template <class It>
struct contiguous_source : std::false_type {};
template <class U>
struct contiguous_source<U*> : std::true_type {
  __host__ __device__ static const U* pointer(U* it) { return it; }
};
template <class It>
struct contiguous_source<const It> : contiguous_source<It> {};
template <class F, class U, class... Rest>
struct contiguous_source<thrust::transform_iterator<F, U*, Rest...>> : std::true_type {
  template <class It>
  __host__ __device__ static const U* pointer(const It& it) { return it.base(); }
};

//! Prefetches the `Count` elements from `d_first` where they span whole 16-byte units from a 16-byte
//! boundary (else nothing: the hint's rule).
template <int Count, class U>
__device__ __forceinline__ void prefetch_elements_l2(const U* d_first) {
  constexpr std::size_t bytes = static_cast<std::size_t>(Count) * sizeof(U);
  if constexpr (bytes % 16 == 0 && bytes <= 0xffffffffu) {
    if (aligned_16(d_first)) prefetch_l2(d_first, static_cast<std::uint32_t>(bytes));
  }
}

}  // namespace archscan::detail
