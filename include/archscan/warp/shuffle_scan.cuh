#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Warp-wide scans by register shuffles (`__shfl_*_sync`, explicit full masks).
//!
//! Values of any trivially copyable type travel as 4-byte words (an 8-byte value is two shuffles);
//! every lane of the warp must call these functions together (no early-exited lanes).

#include <cstring>
#include <type_traits>

namespace archscan::warp {

constexpr unsigned full_mask = 0xffffffffu;
constexpr int threads        = 32;

__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) & (threads - 1); }

//! `b` as lane 0 holds it, in every lane: for a condition that is the same in every lane of a warp
//! by construction (such as `threadIdx.x < 32` in a one-dimensional block of whole warps), so that
//! the compiler knows it too. Under a condition it cannot prove warp-uniform, ptxas guards the warp
//! intrinsics after a loop that sleeps (`__nanosleep`: the look-back's polls) with a divergence
//! branch to a second copy of that code in collective form: a third of native's SASS for an int
//! scan (214 -> 144 KB) and no use, as the warp is whole. All 32 lanes must call.
__device__ __forceinline__ bool uniform(bool b) { return __shfl_sync(full_mask, b ? 1 : 0, 0) != 0; }

namespace detail {
template <class T>
constexpr int words = static_cast<int>((sizeof(T) + 3) / 4);

template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(const T& v, Shuffle shuffle) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    if constexpr (std::is_arithmetic_v<T>) return shuffle(v);
  }
  unsigned w[words<T>] = {};
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < words<T>; ++i) w[i] = shuffle(w[i]);
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}
}  // namespace detail

//! The value of lane (lane - delta); a lane below `delta` gets its own value back.
template <class T>
__device__ __forceinline__ T shfl_up(const T& v, int delta) {
  return detail::shuffle_words(v, [delta](auto w) { return __shfl_up_sync(full_mask, w, delta); });
}

//! The value of lane `src`.
template <class T>
__device__ __forceinline__ T shfl_idx(const T& v, int src) {
  return detail::shuffle_words(v, [src](auto w) { return __shfl_sync(full_mask, w, src); });
}

//! Inclusive scan across the warp, in lane order (lane 0's value leftmost): log2(32) shuffle steps.
template <class T, class Op>
__device__ __forceinline__ T inclusive_scan(T v, Op op) {
  const int lane = lane_id();
#pragma unroll
  for (int d = 1; d < threads; d *= 2) {
    const T left = shfl_up(v, d);
    if (lane >= d) v = op(left, v);
  }
  return v;
}

//! Exclusive scan from an inclusive one: lane i gets lane i-1's inclusive value; lane 0 has none
//! (its result is its own inclusive value, to be ignored).
template <class T>
__device__ __forceinline__ T exclusive_from_inclusive(const T& inclusive) {
  return shfl_up(inclusive, 1);
}

}  // namespace archscan::warp
