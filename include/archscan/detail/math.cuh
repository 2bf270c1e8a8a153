#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Integer arithmetic that plans and tiles share: ceiling division, alignment, maxima.

#include <cstddef>
#include <cstdint>

namespace archscan::detail {

//! ceil(a / b) for a >= 0, b > 0.
__host__ __device__ constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

//! `bytes` rounded up to a multiple of `alignment`.
__host__ __device__ constexpr std::size_t align_up(std::size_t bytes, std::size_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

//! The largest of byte counts.
__host__ __device__ constexpr std::size_t max_of(std::size_t a) { return a; }
template <class... Rest>
__host__ __device__ constexpr std::size_t max_of(std::size_t a, std::size_t b, Rest... rest) {
  return max_of(a > b ? a : b, rest...);
}

//! Temporary storage is carved into arrays at this alignment (what cudaMalloc guarantees).
inline constexpr std::size_t storage_alignment = 256;

}  // namespace archscan::detail
