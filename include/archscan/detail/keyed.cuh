#pragma once
//! \file By-key scans as plain scans: each item carries its value and whether it starts a segment.

#include <cstdint>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace archscan::detail {

template <class V>
struct keyed {
  V value;
  bool head;  //!< true where a new key segment starts
};

//! (a, fa) + (b, fb) = (fb ? b : a op b, fa | fb). Associative whenever `op` is; operand order kept.
template <class Op>
struct segmented_op {
  Op op;
  template <class V>
  __host__ __device__ keyed<V> operator()(const keyed<V>& a, const keyed<V>& b) const {
    if (b.head) return b;
    return keyed<V>{static_cast<V>(op(a.value, b.value)), a.head};
  }
};

//! Item i of a by-key scan: values[i] and whether !pred(keys[i-1], keys[i]) (or i == 0).
template <class V, class KeyIt, class ValIt, class Pred>
struct keyed_item {
  KeyIt keys;
  ValIt values;
  Pred pred;
  __host__ __device__ keyed<V> operator()(std::int64_t i) const {
    const bool head = i == 0 || !pred(keys[i - 1], keys[i]);
    return keyed<V>{static_cast<V>(values[i]), head};
  }
};

template <class V, class KeyIt, class ValIt, class Pred>
auto make_keyed_input(KeyIt keys, ValIt values, Pred pred) {
  return thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                         keyed_item<V, KeyIt, ValIt, Pred>{keys, values, pred});
}

//! Inclusive by-key: the value part of the segmented prefix.
struct keyed_inclusive_finish {
  static constexpr bool needs_item = false;
  template <class V>
  __host__ __device__ V operator()(const keyed<V>& scanned, const keyed<V>&) const { return scanned.value; }
};

//! Exclusive by-key: init at a segment head, else init op (segment's values before i).
template <class V, class Op>
struct keyed_exclusive_finish {
  static constexpr bool needs_item = true;
  V init;
  Op op;
  __host__ __device__ V operator()(const keyed<V>& scanned, const keyed<V>& item) const {
    return item.head ? init : static_cast<V>(op(init, scanned.value));
  }
};

}  // namespace archscan::detail
