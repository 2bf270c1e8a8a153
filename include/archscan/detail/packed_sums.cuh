#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Sums of narrow integers packed in 32-bit words (a packed tile's words,
//! block/vector_transpose.cuh): four one-byte items a word, modulo 256 or widened to 32 bits, or two
//! two-byte items, modulo 2^16. A word's total and its running sums after a running value, without
//! unpacking the items. Integer addition modulo 2^k gives the same bits in any association, so these
//! sums match an item-by-item fold bit for bit.
//!
//! The mechanism: `__dp4a` (`__dp2a_lo` for halves; sm_61 on) adds a word's four bytes (two halves),
//! each times a byte weight of 0 or 1, to a 32-bit accumulator in one instruction, and `__byte_perm`
//! picks four bytes out of two words in one. A word's running sums are such dot products of the same
//! running value (each a mask of the items up to it), independent of each other, and the next word's
//! running value is the last of them: one dependent instruction a word, where the item-by-item rescan
//! chains one add (and its unpack and repack) an item. Modulo 2^8 or 2^16, the bits above a sum's
//! low byte or half are carries, never read. On the host the intrinsics are emulated, so that the
//! arithmetic is tested without a GPU.

#include <type_traits>

#include <cuda/std/functional>

#include <archscan/detail/callable.cuh>

namespace archscan::detail {

//! Integers of `Bytes` bytes (not bool, whose conversions are not its bits; not void, a non-vector element).
template <class T, int Bytes, class = void>
struct is_narrow_integer : std::false_type {};
template <class T, int Bytes>
struct is_narrow_integer<T, Bytes, std::enable_if_t<std::is_integral_v<T>>>
    : std::bool_constant<sizeof(T) == Bytes && !std::is_same_v<T, bool>> {};
template <class T>
inline constexpr bool byte_integer = is_narrow_integer<T, 1>::value;

//! Whether `Op` (the dispatch's operator, `callable<F>`) sums accumulators `T` as packed words can:
//! `T` a one- or two-byte integer and `F` libcu++'s (Thrust's) plus, transparent or of an integral
//! type (its result converted back to `T` wraps modulo 2^8 or 2^16 either way).
template <class Op, class T>
struct sums_packed : std::false_type {};
template <class F, class T>
struct sums_packed<callable<F>, T> : sums_packed<std::remove_cv_t<F>, T> {};
template <class U, class T>
struct sums_packed<::cuda::std::plus<U>, T>
    : std::bool_constant<(is_narrow_integer<T, 1>::value || is_narrow_integer<T, 2>::value) &&
                         (std::is_void_v<U> || (std::is_integral_v<U> && !std::is_same_v<U, bool>))> {};

//! Whether `Op` sums one-byte integer items into four-byte integer accumulators `T` as 32-bit adds
//! do: `F` libcu++'s plus, transparent or of an integral type at least as wide as `T` (a narrower one
//! would cut the sums short).
template <class Op, class T>
struct widens_bytes : std::false_type {};
template <class F, class T>
struct widens_bytes<callable<F>, T> : widens_bytes<std::remove_cv_t<F>, T> {};
template <class U, class T, class = void>
struct at_least_as_wide : std::is_void<U> {};  // transparent, or not an integer
template <class U, class T>
struct at_least_as_wide<U, T, std::enable_if_t<std::is_integral_v<U>>> : std::bool_constant<sizeof(U) >= sizeof(T)> {};
template <class U, class T>
struct widens_bytes<::cuda::std::plus<U>, T>
    : std::bool_constant<is_narrow_integer<T, 4>::value && at_least_as_wide<U, T>::value> {};

//! `c` plus the bytes of `w`, each times the byte of `weights` at its place: unsigned bytes, or signed
//! ones (sign-extended, `Signed`).
template <bool Signed = false>
__host__ __device__ inline unsigned dot_bytes(unsigned w, unsigned weights, unsigned c) {
#ifdef __CUDA_ARCH__
  if constexpr (Signed) {
    return static_cast<unsigned>(__dp4a(static_cast<int>(w), static_cast<int>(weights), static_cast<int>(c)));
  } else {
    return __dp4a(w, weights, c);
  }
#else
  for (int k = 0; k < 4; ++k) {
    const unsigned a = (w >> (8 * k)) & 0xffu, b = (weights >> (8 * k)) & 0xffu;
    if constexpr (Signed) {
      c += static_cast<unsigned>(static_cast<int>(static_cast<signed char>(a)) * static_cast<signed char>(b));
    } else {
      c += a * b;
    }
  }
  return c;
#endif
}

//! `c` plus the two 16-bit halves of `w`, each times the byte of `weights` at its place (bytes 0 and
//! 1): `__dp2a_lo`, unsigned (sums modulo 2^16 do not depend on the halves' sign).
__host__ __device__ inline unsigned dot_halves(unsigned w, unsigned weights, unsigned c) {
#ifdef __CUDA_ARCH__
  return __dp2a_lo(w, weights, c);
#else
  for (int k = 0; k < 2; ++k) c += ((w >> (16 * k)) & 0xffffu) * ((weights >> (8 * k)) & 0xffu);
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

//! The sum of the four bytes of `w` (signed where `Signed`), added to `c` (modulo 256 in the low byte,
//! modulo 2^32 in all).
template <bool Signed = false>
__host__ __device__ inline unsigned word_byte_sum(unsigned w, unsigned c) {
  return dot_bytes<Signed>(w, 0x01010101u, c);
}

//! The four running sums of the bytes of `w` (signed where `Signed`) after `running`, in 32 bits:
//! `out[k]` = running + bytes 0..k, or 0..k-1 (`Exclusive`). `running` becomes the sum after the last
//! byte. Four dot products of the same running value, independent of each other.
template <bool Signed, bool Exclusive>
__host__ __device__ inline void word_byte_prefixes(unsigned w, unsigned& running, unsigned (&out)[4]) {
  const unsigned r  = running;
  const unsigned s0 = dot_bytes<Signed>(w, 0x00000001u, r);
  const unsigned s1 = dot_bytes<Signed>(w, 0x00000101u, r);
  const unsigned s2 = dot_bytes<Signed>(w, 0x00010101u, r);
  running           = dot_bytes<Signed>(w, 0x01010101u, r);
  out[0]            = Exclusive ? r : s0;
  out[1]            = Exclusive ? s0 : s1;
  out[2]            = Exclusive ? s1 : s2;
  out[3]            = Exclusive ? s2 : running;
}

//! The same modulo 256, as a word: byte k holds the low byte of word_byte_prefixes' `out[k]`
//! (`running`'s low byte counts; the bits above a sum's low byte are carries).
template <bool Exclusive>
__host__ __device__ inline unsigned word_byte_scan(unsigned w, unsigned& running) {
  unsigned s[4];
  word_byte_prefixes<false, Exclusive>(w, running, s);
  // Low bytes of two sums side by side (selector 0x0040: a's byte 0, then b's), then two such pairs.
  return pick_bytes(pick_bytes(s[0], s[1], 0x0040u), pick_bytes(s[2], s[3], 0x0040u), 0x5410u);
}

//! The two running sums of the 16-bit halves of `w` after `running` (its low half), modulo 2^16, as a
//! word: half k holds running + halves 0..k, or 0..k-1 (`Exclusive`); `running` becomes the sum after
//! the high half (its low half counts). Two dot products of the same running value.
template <bool Exclusive>
__host__ __device__ inline unsigned word_half_scan(unsigned w, unsigned& running) {
  const unsigned r  = running;
  const unsigned s0 = dot_halves(w, 0x0001u, r);
  running           = dot_halves(w, 0x0101u, r);
  // Low halves of two sums side by side (selector 0x5410: a's bytes 0 and 1, then b's).
  return Exclusive ? pick_bytes(r, s0, 0x5410u) : pick_bytes(s0, running, 0x5410u);
}

//! A thread's words of one-byte items: their total (signed bytes where `Signed`), in two chains of dot
//! products, each half as long.
template <bool Signed, int Words>
__host__ __device__ inline unsigned words_byte_sum(const unsigned (&words)[Words]) {
  unsigned sums[2] = {0u, 0u};
#if defined(__CUDA_ARCH__)  // host compilers do not know the pragma
#pragma unroll
#endif
  for (int w = 0; w < Words; ++w) sums[w % 2] = word_byte_sum<Signed>(words[w], sums[w % 2]);
  return sums[0] + sums[1];
}

//! The words' running sums modulo 256 after `running` (its low byte), written over them (word_byte_scan).
template <bool Exclusive, int Words>
__host__ __device__ inline void words_byte_scan(unsigned (&words)[Words], unsigned running) {
#if defined(__CUDA_ARCH__)  // host compilers do not know the pragma
#pragma unroll
#endif
  for (int w = 0; w < Words; ++w) words[w] = word_byte_scan<Exclusive>(words[w], running);
}

//! The words' running sums in 32 bits after `running`, item j's to `put(j, sum)` (word_byte_prefixes).
template <bool Signed, bool Exclusive, int Words, class Put>
__host__ __device__ inline void words_byte_prefixes(const unsigned (&words)[Words], unsigned running, Put put) {
#if defined(__CUDA_ARCH__)  // host compilers do not know the pragma
#pragma unroll
#endif
  for (int w = 0; w < Words; ++w) {
    unsigned sums[4];
    word_byte_prefixes<Signed, Exclusive>(words[w], running, sums);
#if defined(__CUDA_ARCH__)  // host compilers do not know the pragma
#pragma unroll
#endif
    for (int k = 0; k < 4; ++k) put(4 * w + k, sums[k]);
  }
}

//! A thread's packed words of one- or two-byte items (`Width`): their total (modulo 2^8 or 2^16 in its
//! low bits), in two chains of dot products.
template <int Width, int Words>
__host__ __device__ inline unsigned words_packed_sum(const unsigned (&words)[Words]) {
  if constexpr (Width == 1) {
    return words_byte_sum<false>(words);
  } else {
    unsigned sums[2] = {0u, 0u};
#if defined(__CUDA_ARCH__)  // host compilers do not know the pragma
#pragma unroll
#endif
    for (int w = 0; w < Words; ++w) sums[w % 2] = dot_halves(words[w], 0x0101u, sums[w % 2]);
    return sums[0] + sums[1];
  }
}

//! Their running sums after `running`, written over them (words_byte_scan, or word_half_scan a word).
template <int Width, bool Exclusive, int Words>
__host__ __device__ inline void words_packed_scan(unsigned (&words)[Words], unsigned running) {
  if constexpr (Width == 1) {
    words_byte_scan<Exclusive>(words, running);
  } else {
#if defined(__CUDA_ARCH__)  // host compilers do not know the pragma
#pragma unroll
#endif
    for (int w = 0; w < Words; ++w) words[w] = word_half_scan<Exclusive>(words[w], running);
  }
}

}  // namespace archscan::detail
