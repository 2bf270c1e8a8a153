#pragma once
// What the determinism_*_test.cu units that check native's paths share: an operator that neither
// associates nor commutes, a tuning without vectors, arrays off 16-byte alignment, and the by-key
// comparison over every path of a by-key tile (test/thrust/determinism_test.cu says what the policies
// promise).

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda/std/functional>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/policies.cuh"
#include "support/same_bits.cuh"

namespace archscan::test {

//! A non-associative, non-commutative operator on narrow integers (wrapping): any change in the
//! association or the order of operands changes the bits.
struct affine_mix {
  template <class T>
  __host__ __device__ T operator()(T a, T b) const {
    return static_cast<T>(a * 3 + b);
  }
};

struct native_per_item : archscan::native_tuning {  // no vectors: items loaded one by one, one a register
  static constexpr bool vector_access = false;
};

//! `n` values of T at a byte offset of alignof(T) (1, 2 or 4) from a 16-byte boundary: never whole
//! vectors in memory.
template <class T>
struct misaligned {
  device_buffer<unsigned char> raw;
  T* first;
  explicit misaligned(std::int64_t n)
      : raw(static_cast<std::int64_t>((n + 1) * sizeof(T) + 16)),
        first(reinterpret_cast<T*>(raw.begin() + alignof(T))) {}
  void fill(const std::vector<T>& h) {
    check(cudaMemcpy(first, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (misaligned)");
  }
  std::vector<T> to_host(std::int64_t n) const {
    std::vector<T> h(static_cast<std::size_t>(n));
    check(cudaMemcpy(h.data(), first, h.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy (misaligned)");
    return h;
  }
};

//! By-key scans of `values` (inclusive, and exclusive seeded with `init`) under `op` with native on
//! every path a by-key tile takes: keys and values as 16-byte vectors; item by item, with the keys
//! or the values off 16-byte alignment, or with a tuning without vectors; and over the look-back
//! instead of a wave, on the segment states and on the chain of prefixes (whose by-key walks start
//! their folds at different places). The same bits from each. `exact`: `op` is associative, so the
//! host's left fold per segment gives those bits too.
template <class V, class Op>
void expect_same_bits_by_key(const std::vector<V>& values, Op op, V init, bool exact, const std::vector<int>& hkeys) {
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  device_buffer<int> keys(hkeys);
  device_buffer<V> in(values), out(n), out_keys_off(n), out_values_off(n), out_per_item(n), out_lookback(n),
      out_chain(n);
  misaligned<int> keys_off(n);
  misaligned<V> in_off(n);
  keys_off.fill(hkeys);
  in_off.fill(values);
  for (const bool exclusive : {false, true}) {
    const auto run = [&](auto policy, const int* k, const V* v, V* result) {
      if (exclusive) {
        thrust::exclusive_scan_by_key(policy, k, k + n, v, result, init, thrust::equal_to<int>{}, op);
      } else {
        thrust::inclusive_scan_by_key(policy, k, k + n, v, result, thrust::equal_to<int>{}, op);
      }
    };
    for (auto* b : {&out, &out_keys_off, &out_values_off, &out_per_item, &out_lookback, &out_chain}) b->poison();
    run(archscan::native, keys.begin(), in.begin(), out.begin());
    run(archscan::native, keys_off.first, in.begin(), out_keys_off.begin());
    run(archscan::native, keys.begin(), in_off.first, out_values_off.begin());
    run(archscan::policy<native_per_item>{}, keys.begin(), in.begin(), out_per_item.begin());
    run(archscan::policy<native_lookback_only>{}, keys.begin(), in.begin(), out_lookback.begin());
    run(archscan::policy<on_prefix_chain<native_lookback_only>>{}, keys.begin(), in.begin(), out_chain.begin());
    const auto vectors = bytes_of(out.to_host());
    const char* what   = exclusive ? "exclusive" : "inclusive";
    EXPECT_EQ(vectors, bytes_of(out_keys_off.to_host())) << what << ", keys off 16-byte alignment, n=" << n;
    EXPECT_EQ(vectors, bytes_of(out_values_off.to_host())) << what << ", values off 16-byte alignment, n=" << n;
    EXPECT_EQ(vectors, bytes_of(out_per_item.to_host())) << what << ", per item, n=" << n;
    EXPECT_EQ(vectors, bytes_of(out_lookback.to_host())) << what << ", look-back instead of a wave, n=" << n;
    EXPECT_EQ(vectors, bytes_of(out_chain.to_host())) << what << ", the chain of prefixes, n=" << n;
    if (exact) {
      EXPECT_EQ(vectors, bytes_of(host_scan_by_key(hkeys, values, op, thrust::equal_to<int>{}, exclusive, init)))
          << what << ", against the host, n=" << n;
    }
  }
}

}  // namespace archscan::test
