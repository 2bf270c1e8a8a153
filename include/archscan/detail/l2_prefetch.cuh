#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file A hint to the L2: fetch a range of global memory now, so that a later load finds it there.
//! Nothing waits for it and nothing is returned; a wrong hint costs bandwidth, never a result.
//! sm_90 on: one instruction asks the bulk copy unit for the whole range (`cp.async.bulk.prefetch.L2`);
//! older targets: nothing.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <thrust/iterator/transform_iterator.h>
#include <thrust/type_traits/is_contiguous_iterator.h>
#include <thrust/type_traits/unwrap_contiguous_iterator.h>

namespace archscan::detail {

//! `d_from`: 16-byte aligned global memory; `bytes`: a multiple of 16, all of it inside one allocation.
//! (prefetch_elements_l2 below keeps to these rules for any range.)
__device__ __forceinline__ void prefetch_l2(const void* d_from, std::uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // No "memory" clobber: a hint orders nothing, and the compiler may place it freely.
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(__cvta_generic_to_global(d_from)), "r"(bytes));
#else
  (void)d_from;
  (void)bytes;
#endif
}

//! Iterators whose items i .. i + k are the elements i .. i + k of one array: Thrust's contiguous
//! iterators (raw and device pointers, device_vector iterators), and transform iterators over them (a
//! transform scan's input: the transform is applied on load, the array is what the memory serves).
//! `pointer(it)`: that array's element at `it`, as a raw pointer. Other adaptors (counters,
//! permutations, reversals) read elsewhere than a range of their base: never prefetched.
template <class It>
struct contiguous_source : std::bool_constant<thrust::is_contiguous_iterator_v<It>> {
  __host__ __device__ static auto pointer(const It& it) { return thrust::try_unwrap_contiguous_iterator(it); }
};
template <class It>
struct contiguous_source<const It> : contiguous_source<It> {};
template <>
struct contiguous_source<void> : std::false_type {};  // no such iterator (a plain scan's keys)
template <class F, class Base, class... Rest>
struct contiguous_source<thrust::transform_iterator<F, Base, Rest...>>
    : std::bool_constant<contiguous_source<Base>::value> {
  __host__ __device__ static auto pointer(const thrust::transform_iterator<F, Base, Rest...>& it) {
    return contiguous_source<Base>::pointer(it.base());
  }
};

//! Prefetches the whole 16-byte units (the hint's rule) inside the `Count` elements from `d_first`:
//! the range rounded inward, so a misaligned start (a scan of `d_in + 1`) loses a unit at each end,
//! not the hint.
template <int Count, class U>
__device__ __forceinline__ void prefetch_elements_l2(const U* d_first) {
  constexpr std::size_t bytes = static_cast<std::size_t>(Count) * sizeof(U);
  static_assert(bytes <= 0xffffffffu, "one hint covers at most 4 GiB");
  const std::uintptr_t from  = reinterpret_cast<std::uintptr_t>(d_first);
  const std::uintptr_t first = (from + 15) & ~std::uintptr_t{15};
  const std::uintptr_t last  = (from + bytes) & ~std::uintptr_t{15};
  if (last > first) prefetch_l2(reinterpret_cast<const void*>(first), static_cast<std::uint32_t>(last - first));
}

}  // namespace archscan::detail
