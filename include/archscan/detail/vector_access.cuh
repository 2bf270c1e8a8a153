#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Which iterators a tile may read or write in 16-byte vectors (tuning field `vector_access`):
//! raw pointers to arithmetic types, or to trivially copyable classes, whose size divides 16 (a 16-byte
//! user struct moves as one vector instead of four 4-byte words). Loading such an item, or storing
//! one, is a plain conversion or a copy of its bytes, so moving several at once changes nothing but
//! the instructions. Inputs may also be Thrust transform iterators over such an array (a transform
//! scan's input, or a user's): the vectors come from the array, and each element becomes an item as
//! the iterator's dereference makes it (`vector_source`). Whether a call's pointer is 16-byte aligned
//! is checked on the device, per call; others take the per-item path.

#include <cstdint>
#include <type_traits>

#include <thrust/iterator/transform_iterator.h>
#include <thrust/type_traits/is_contiguous_iterator.h>
#include <thrust/type_traits/unwrap_contiguous_iterator.h>

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
  static constexpr bool plain =
      arithmetic || (std::is_class_v<value> && std::is_trivially_copyable_v<value> &&
                     std::is_default_constructible_v<value> && std::is_copy_assignable_v<value>);
  static constexpr bool whole = sizeof(value) <= 16 && 16 % sizeof(value) == 0;
  //! Volatile memory is read and written as the program says, one access an item: never in vectors.
  using type = std::conditional_t<plain && whole && !std::is_volatile_v<U>, value, void>;
  //! Arithmetic elements alone: by-key tiles shuffle keys between lanes and compare them.
  using arithmetic_type = std::conditional_t<arithmetic && whole && !std::is_volatile_v<U>, value, void>;
};
template <class It>
using vector_element_t = typename vector_element<It>::type;
template <class It>
using arithmetic_vector_element_t = typename vector_element<It>::arithmetic_type;

//! Where a tile's vector loads read from input iterator `It`, and what an element read becomes:
//! `element` (void: no vectors), `pointer(it)` the array at `it`, `reads<T>` whether tiles of items
//! of type T read it in vectors, `packs<T>` whether they may keep its elements packed
//! (block::vector_transpose), and `reader<T>` (made from the iterator once per tile) the item of
//! type T that an element stands for.
//!  - raw pointers whose element qualifies (vector_element): the element, converted;
//!  - transform iterators over a contiguous array of such elements: for each element a fresh copy of
//!    the iterator's functor (as each item-by-item read copies the iterator), called non-const on a
//!    const lvalue of the array's value type, the result taken as the iterator's reference type,
//!    then converted to the item's type: the same item as a read through the iterator, for any
//!    functor whose result depends on its argument's value. The argument is a copy in registers,
//!    not the array's element in memory: a functor that uses its argument's address (an index from
//!    `&x - base`, a neighbour at `(&x)[1]`) is not supported.
//!    Arrays wider than the items are read item by item: their vectors would widen each warp's
//!    exchange region, and with it the tile's shared memory (fewer items a thread, or none in vectors).
template <class It>
struct vector_source {
  using element                    = vector_element_t<It>;
  static constexpr bool transforms = false;  //!< whether reader does more than convert
  template <class T>
  static constexpr bool reads = true;
  //! A conversion may happen where an item is folded.
  template <class T>
  static constexpr bool packs = true;
  __host__ __device__ static const element* pointer(const It& it) { return it; }
  template <class T>
  struct reader {
    __device__ explicit reader(const It&) {}
    template <class U>  // U: element (a template, so that no `const void&` is formed where it is void)
    __device__ T operator()(const U& u) const {
      return static_cast<T>(u);
    }
  };
};
//! Base must be one of Thrust's contiguous iterators itself: l2_prefetch.cuh's contiguous_source
//! also sees through transforms of transforms (the same bytes), but the inner functor would be lost here.
template <class F, class Base, class... Rest>
struct vector_source<thrust::transform_iterator<F, Base, Rest...>> {
  using iterator                   = thrust::transform_iterator<F, Base, Rest...>;
  using reference                  = typename iterator::reference;
  using array                      = std::conditional_t<thrust::is_contiguous_iterator_v<Base>,
                                   decltype(thrust::try_unwrap_contiguous_iterator(std::declval<Base>())), void>;
  using element                    = vector_element_t<array>;
  static constexpr bool transforms = true;
  template <class T>
  static constexpr bool reads = sizeof(std::conditional_t<std::is_void_v<element>, char, element>) <= sizeof(T);
  //! Transformed values replace the elements where they are packed: items of the element's type only.
  template <class T>
  static constexpr bool packs = std::is_same_v<T, element>;
  __host__ __device__ static const element* pointer(const iterator& it) {
    return thrust::try_unwrap_contiguous_iterator(it.base());
  }
  template <class T>
  struct reader {
    F f;
    __device__ explicit reader(const iterator& it) : f(it.functor()) {}
    template <class U>  // U: element
    __device__ T operator()(const U& u) const {
      F g(f);
      return static_cast<T>(static_cast<reference>(g(u)));
    }
  };
};
template <class It>
using vector_source_element_t = typename vector_source<It>::element;

//! Whether a problem's tiles keep their items packed, four or two to a register (tile/transposed_io.cuh):
//! elements of one or two bytes, of the same width, read from a vector source (a raw pointer, or a
//! transform of an array into items `Accum` of the array's type: the packed values are then the
//! transformed ones) and written to a raw pointer, and vector access.
template <class In, class Out>
constexpr bool narrow_same_width() {
  if constexpr (std::is_void_v<In> || std::is_void_v<Out>) {
    return false;
  } else {
    return sizeof(In) == sizeof(Out) && sizeof(In) <= 2;
  }
}
template <bool VectorAccess, class InIt, class OutIt, class Accum>
inline constexpr bool packs_narrow_items =
    VectorAccess&& narrow_same_width<vector_source_element_t<InIt>, vector_element_t<OutIt>>() &&
    vector_source<InIt>::template packs<Accum>;

__host__ __device__ inline bool aligned_16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0; }

}  // namespace archscan::detail
