#pragma once
//! \file Which iterators a tile may read or write in 16-byte vectors (tuning field `vector_access`):
//! raw pointers to arithmetic types, or to trivially copyable classes, whose size divides 16 (a 16-byte
//! user struct moves as one vector instead of four 4-byte words). Loading such an item, or storing
//! one, is a plain conversion or a copy of its bytes, so moving several at once changes nothing but
//! the instructions. Whether a call's pointer is 16-byte aligned is checked on the device, per call;
//! others take the per-item path.

#include <cstdint>
#include <type_traits>

namespace archscan::detail {

//! The element type of iterator `It` when it qualifies, else void.
template <class It>
struct vector_element {
  using type            = void;
  using arithmetic_type = void;
};
template <class U>
struct vector_element<U*> {
  using value = std::remove_cv_t<U>;
  //! Arithmetic types (long double aside), and classes that are copies of their bytes (held in arrays
  //! while exchanged, so default-constructible too).
  static constexpr bool arithmetic = std::is_arithmetic_v<value> && sizeof(value) <= 8;
  static constexpr bool plain      = arithmetic || (std::is_class_v<value> && std::is_trivially_copyable_v<value> &&
                                               std::is_default_constructible_v<value> &&
                                               std::is_copy_assignable_v<value>);
  static constexpr bool whole      = sizeof(value) <= 16 && 16 % sizeof(value) == 0;
  using type                       = std::conditional_t<plain && whole, value, void>;
  //! Arithmetic elements alone: by-key tiles shuffle keys between lanes and compare them.
  using arithmetic_type = std::conditional_t<arithmetic && whole, value, void>;
};
template <class It>
using vector_element_t = typename vector_element<It>::type;
template <class It>
using arithmetic_vector_element_t = typename vector_element<It>::arithmetic_type;

//! Whether a problem's tiles keep their items packed, four or two to a register (tile/transposed_tile.cuh):
//! raw pointers in and out to elements of one or two bytes, of the same width, and vector access.
template <class In, class Out>
constexpr bool narrow_same_width() {
  if constexpr (std::is_void_v<In> || std::is_void_v<Out>) {
    return false;
  } else {
    return sizeof(In) == sizeof(Out) && sizeof(In) <= 2;
  }
}
template <bool VectorAccess, class InIt, class OutIt>
inline constexpr bool packs_narrow_items =
    VectorAccess && narrow_same_width<vector_element_t<InIt>, vector_element_t<OutIt>>();

__host__ __device__ inline bool aligned_16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0; }

}  // namespace archscan::detail
