#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Sums of one-byte integers kept four to a 32-bit word (a packed tile's words,
//! block/vector_transpose.cuh), modulo 256: a word's total, and its four running sums after a running
//! value, without unpacking the bytes. Addition modulo 2^8 gives the same bits in any association, so
//! these sums match an item-by-item fold bit for bit.
//!
//! The mechanism: `__dp4a` (sm_61 on) adds a word's four bytes, each times a byte weight of 0 or 1, to
//! a 32-bit accumulator in one instruction, and `__byte_perm` picks four bytes out of two words in
//! one. A word's four running sums are four such dot products of the same running value (each a mask
//! of the bytes up to it), independent of each other, and the next word's running value is the last
//! of them: one dependent instruction a word, where the item-by-item rescan chains one add (and its
//! unpack and repack) an item. Bits above a sum's low byte are carries, never read.
//! On the host both intrinsics are emulated, so that the arithmetic is tested without a GPU.

#include <type_traits>

#include <cuda/std/functional>

#include <archscan/detail/callable.cuh>

namespace archscan::detail {

//! One-byte integers (not bool, whose conversions are not its bits).
template <class T>
inline constexpr bool byte_integer = sizeof(T) == 1 && std::is_integral_v<T> && !std::is_same_v<T, bool>;

//! Whether `Op` (the dispatch's operator, `callable<F>`) sums accumulators `T` as bytes do: `T` a
//! one-byte integer and `F` libcu++'s (Thrust's) plus, transparent or of an integral type (its result
//! converted back to `T` wraps modulo 256 either way).
template <class Op, class T>
struct sums_bytes : std::false_type {};
template <class F, class T>
struct sums_bytes<callable<F>, T> : sums_bytes<std::remove_cv_t<F>, T> {};
template <class U, class T>
struct sums_bytes<::cuda::std::plus<U>, T>
    : std::bool_constant<byte_integer<T> &&
                         (std::is_void_v<U> || (std::is_integral_v<U> && !std::is_same_v<U, bool>))> {};

//! `c` plus the bytes of `w`, each times the byte of `weights` at its place (unsigned bytes).
__host__ __device__ inline unsigned dot_bytes(unsigned w, unsigned weights, unsigned c) {
#ifdef __CUDA_ARCH__
  return __dp4a(w, weights, c);
#else
  for (int k = 0; k < 4; ++k) c += ((w >> (8 * k)) & 0xffu) * ((weights >> (8 * k)) & 0xffu);
  return c;
#endif
}

//! `__byte_perm(lo, hi, selector)`: byte k of the result is byte (selector's nibble k) of the eight
//! bytes hi:lo. Nibbles below 8 only: at 8 and above the device replicates a byte's sign instead.
__host__ __device__ inline unsigned pick_bytes(unsigned lo, unsigned hi, unsigned selector) {
#ifdef __CUDA_ARCH__
  return __byte_perm(lo, hi, selector);
#else
  const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  unsigned r                    = 0;
  for (int k = 0; k < 4; ++k) {
    const unsigned from = (selector >> (4 * k)) & 7u;  // nibbles below 8 (above)
    r |= static_cast<unsigned>((both >> (8 * from)) & 0xffu) << (8 * k);
  }
  return r;
#endif
}

//! The sum of the four bytes of `w`, added to `c` (the total modulo 256 in the low byte).
__host__ __device__ inline unsigned word_byte_sum(unsigned w, unsigned c) { return dot_bytes(w, 0x01010101u, c); }

//! The four running sums of the bytes of `w` after `running` (its low byte), modulo 256, as a word:
//! byte k holds running + bytes 0..k (inclusive) or running + bytes 0..k-1 (`Exclusive`). `running`
//! becomes the running value after the word's last byte (its low byte; the bits above it are carries).
template <bool Exclusive>
__host__ __device__ inline unsigned word_byte_scan(unsigned w, unsigned& running) {
  const unsigned r  = running;
  const unsigned s0 = dot_bytes(w, 0x00000001u, r);
  const unsigned s1 = dot_bytes(w, 0x00000101u, r);
  const unsigned s2 = dot_bytes(w, 0x00010101u, r);
  const unsigned s3 = dot_bytes(w, 0x01010101u, r);
  running           = s3;
  // Low bytes of two sums side by side (selector 0x0040: a's byte 0, then b's), then two such pairs.
  if constexpr (Exclusive) {
    return pick_bytes(pick_bytes(r, s0, 0x0040u), pick_bytes(s1, s2, 0x0040u), 0x5410u);
  } else {
    return pick_bytes(pick_bytes(s0, s1, 0x0040u), pick_bytes(s2, s3, 0x0040u), 0x5410u);
  }
}

}  // namespace archscan::detail
