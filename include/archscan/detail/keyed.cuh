#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file By-key scans as plain scans of (value, segment flags) items under a segmented operator.
//!
//! Item i compares its own key with the *next* one, keys[i + 1], never with keys[i - 1]. That is what
//! makes by-key scans whose output overwrites the keys (or the values) safe in every family: the
//! only key a tile reads outside its own range is the first key of the following tile, and that tile
//! cannot write anything before it has the prefix of this one, which this tile publishes only after
//! its loads. (Reading keys[i - 1] instead, a tile could read its predecessor's last key after the
//! predecessor had stored its results over it.) Multi-pass families read every key in their first
//! pass, before any output is written.

#include <cstddef>
#include <cstdint>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <archscan/detail/callable.cuh>

namespace archscan::detail {

//! A run of items [l, r] of a by-key scan. Its two flags share one byte, so that an item of a value
//! of at most four bytes takes two registers, not three (a register per flag), where items are held
//! whole: look-backs, block scans. Tiles hold theirs split (`split`, tile/transposed_io.cuh).
template <class V>
struct keyed {
  //! A segment starts inside the run, after its first item: `value` owes nothing to l - 1.
  static constexpr std::uint8_t restarts_bit = 1;
  //! The item after r starts a new segment.
  static constexpr std::uint8_t closes_bit = 2;
  //! What an item holds in registers, for the choice of a tuning's row (tuning/rows.cuh, `row_for_accum`):
  //! the value's 32-bit words and one word for the flags, not sizeof, which rounds to V's alignment.
  static constexpr std::size_t row_bytes = (sizeof(V) + 3) / 4 * 4 + 4;

  V value;             //!< op-fold of the run's items from its last segment start within the run
  std::uint8_t flags;  //!< restarts_bit | closes_bit

  __host__ __device__ bool restarts() const { return (flags & restarts_bit) != 0; }
  __host__ __device__ bool closes() const { return (flags & closes_bit) != 0; }
  __host__ __device__ void set_closes(bool c) {
    flags = static_cast<std::uint8_t>((flags & restarts_bit) | (c ? closes_bit : 0));
  }

  //! Item j of a thread's items held split, as their values and one word of flags whose bit j says
  //! whether item j closes its segment (tile/transposed_io.cuh): a single item never restarts.
  __host__ __device__ static keyed split(const V& value, unsigned closes, int j) {
    return keyed{value, ((closes >> j) & 1u) != 0 ? closes_bit : std::uint8_t{0}};
  }
};

//! The value type of by-key items, T itself for any other accumulator.
template <class T>
struct keyed_value {
  using type = T;
};
template <class V>
struct keyed_value<keyed<V>> {
  using type = V;
};

//! Concatenation of adjacent runs a, b. Associative whenever `op` is; operand order kept.
template <class Op>
struct segmented_op {
  Op op;
  template <class V>
  __host__ __device__ keyed<V> operator()(const keyed<V>& a, const keyed<V>& b) const {
    using K          = keyed<V>;
    const bool fresh = b.restarts() || a.closes();
    const auto flags = (a.restarts() || fresh ? K::restarts_bit : 0) | (b.flags & K::closes_bit);
    return K{fresh ? b.value : static_cast<V>(op(a.value, b.value)), static_cast<std::uint8_t>(flags)};
  }
};

//! Whether accumulator type T is a by-key item (the look-back's walk may differ: tile/segment_lookback.cuh).
template <class T>
inline constexpr bool is_keyed_v = false;
template <class V>
inline constexpr bool is_keyed_v<keyed<V>> = true;

//! Whether Op is segmented_op (or a callable of one), whose restarts rule the look-back's shortcuts
//! over by-key items rely on.
template <class Op>
inline constexpr bool is_segmented_op_v = false;
template <class Op>
inline constexpr bool is_segmented_op_v<segmented_op<Op>> = true;
template <class Op>
inline constexpr bool is_segmented_op_v<callable<Op>> = is_segmented_op_v<Op>;

//! Item i of a by-key scan: values[i], and whether a segment starts at i + 1: !pred(keys[i], keys[i + 1]).
template <class V, class KeyIt, class ValIt, class Pred>
struct keyed_item {
  KeyIt keys;
  ValIt values;
  callable<Pred> pred;
  std::int64_t n;
  __host__ __device__ keyed<V> operator()(std::int64_t i) const {
    const bool closes = i + 1 < n && !pred(keys[i], keys[i + 1]);
    return keyed<V>{static_cast<V>(values[i]), closes ? keyed<V>::closes_bit : std::uint8_t{0}};
  }

  //! Items i .. i + Items - 1, all of them real, from their keys and values already in registers;
  //! `next` is key i + Items, read only when that item exists. Their values converted to V, and
  //! their flags as one word (`keyed<V>::split`): the flags operator() forms.
  template <int Items, class K, class U>
  __host__ __device__ void form(std::int64_t i, const K (&k)[Items], const U (&v)[Items], const K& next,
                                V (&values)[Items], unsigned& closes) const {
    static_assert(Items <= 32, "one word of flags");
    closes = 0;
#if defined(__CUDA_ARCH__)  // host compilers do not know the pragma
#pragma unroll
#endif
    for (int j = 0; j < Items; ++j) {
      const bool c = j + 1 < Items ? !pred(k[j], k[j + 1]) : i + Items < n && !pred(k[j], next);
      values[j]    = static_cast<V>(v[j]);
      closes |= static_cast<unsigned>(c) << j;
    }
  }
};

//! The parts of a by-key scan's input (make_keyed_input), for tiles that load keys and values
//! themselves and for the scan across ranks (rank_carry.cuh); `void` iterators for every other input.
template <class InIt>
struct keyed_source {
  using key_iterator   = void;
  using value_iterator = void;
};
template <class V, class KeyIt, class ValIt, class Pred>
struct keyed_source<
    thrust::transform_iterator<keyed_item<V, KeyIt, ValIt, Pred>, thrust::counting_iterator<std::int64_t>>> {
  using key_iterator   = KeyIt;
  using value_iterator = ValIt;
  using pred_type      = Pred;
  using item_type      = keyed_item<V, KeyIt, ValIt, Pred>;
  template <class It>
  __host__ __device__ static item_type item(const It& in) {
    return in.functor();
  }
  //! The item index at `in` (a slice of a larger input starts past 0).
  template <class It>
  __host__ __device__ static std::int64_t index(const It& in) {
    return *in.base();
  }
};

template <class V, class KeyIt, class ValIt, class Pred>
auto make_keyed_input(KeyIt keys, ValIt values, Pred pred, std::int64_t n) {
  return thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                         keyed_item<V, KeyIt, ValIt, Pred>{keys, values, {pred}, n});
}

//! The exclusive scan's seed: a run before item 0 that closes, so item 0 starts a segment.
template <class V>
__host__ __device__ keyed<V> keyed_seed(const V& init) {
  return keyed<V>{init, static_cast<std::uint8_t>(keyed<V>::restarts_bit | keyed<V>::closes_bit)};
}

//! Inclusive by-key: the value part of the segmented prefix.
struct keyed_inclusive_finish {
  template <class V>
  __host__ __device__ V operator()(const keyed<V>& scanned) const {
    return scanned.value;
  }
};

//! Exclusive by-key: `scanned` is the run of items before i (the seed included). init where that run
//! closes (a segment starts at i), else init op (the segment's values before i).
template <class V, class Op>
struct keyed_exclusive_finish {
  V init;
  callable<Op> op;
  __host__ __device__ V operator()(const keyed<V>& scanned) const {
    return scanned.closes() ? init : static_cast<V>(op(init, scanned.value));
  }
};

}  // namespace archscan::detail
