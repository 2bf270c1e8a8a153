#pragma once
// User-defined value types of 64, 256 and 1024 bytes, shared by value_size_test.cu (64 and 256 bytes)
// and the value_size_1024_*.cu files of the same test program. The kernels of one algorithm for
// 1024-byte items take minutes of ptxas time (archscan's three families ~1.5-4 minutes on one core),
// so they are spread over translation units that compile side by side, one per algorithm. At 1024
// bytes the host reference is the only oracle: thrust::cuda::par's kernels for such items would cost
// about 4 more core-minutes of ptxas per architecture (CUB's by-key kernel does not compile for them at
// all), and the operator is exact, so the host reference is bitwise.
//
// The operator is associative and not commutative: word 0 keeps the left operand's first id, word 1
// the right operand's last id, the other words are wrap-around sums, so a swapped operand order
// shows. Every family must return correct results, without an exception, on any GPU at every size.
// Results are compared bitwise with a host reference and, for 64 and 256 bytes where its kernels
// compile for the type, with thrust::cuda::par.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <thrust/scan.h>

#include <cuda/std/functional>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace archscan::test {

template <int Bytes>
struct blob {
  static_assert(Bytes % 4 == 0 && Bytes >= 16);
  static constexpr int words = Bytes / 4;
  std::uint32_t w[words];  //!< w[0]: first id of the run, w[1]: last id, w[2..]: sums mod 2^32

  __host__ __device__ friend bool operator==(const blob& a, const blob& b) {
    for (int k = 0; k < words; ++k) {
      if (a.w[k] != b.w[k]) return false;
    }
    return true;
  }
  friend std::ostream& operator<<(std::ostream& os, const blob& b) {
    return os << "{first " << b.w[0] << ", last " << b.w[1] << ", " << b.w[2] << ", " << b.w[3] << ", ... "
              << b.w[words - 1] << "}";
  }
};

//! a before b: associative (projections and sums are), not commutative.
struct blob_combine {
  template <int Bytes>
  __host__ __device__ blob<Bytes> operator()(const blob<Bytes>& a, const blob<Bytes>& b) const {
    blob<Bytes> r;
    r.w[0] = a.w[0];
    r.w[1] = b.w[1];
    for (int k = 2; k < blob<Bytes>::words; ++k) r.w[k] = a.w[k] + b.w[k];
    return r;
  }
};

//! Item i: ids i + 1 (never zero), random sums.
template <class B>
std::vector<B> random_blobs(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 7);
  std::vector<B> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i].w[0] = v[i].w[1] = static_cast<std::uint32_t>(i) + 1;
    for (int k = 2; k < B::words; ++k) v[i].w[k] = static_cast<std::uint32_t>(rng());
  }
  return v;
}

enum class value_form { inclusive, exclusive_init, inclusive_by_key };

//! Which implementations the results are checked against besides the host reference.
enum class oracles {
  host_and_par,  //!< thrust::cuda::par as well
  host_only,     //!< the host reference alone (see the top of this file)
};

template <value_form F, class B, class Policy>
B* run_value_form(const Policy& policy, const int* keys, const B* in, std::int64_t n, B* out, const B& init) {
  if constexpr (F == value_form::inclusive) {
    return thrust::inclusive_scan(policy, in, in + n, out, blob_combine{});
  } else if constexpr (F == value_form::exclusive_init) {
    return thrust::exclusive_scan(policy, in, in + n, out, init, blob_combine{});
  } else {
    return thrust::inclusive_scan_by_key(policy, keys, keys + n, in, out, cuda::std::equal_to<>{}, blob_combine{});
  }
}

//! Runs form F on items of type B at every size. One output buffer, reused: archscan's results are
//! copied out before thrust::cuda::par overwrites them, so that 300,007 items of 1024 bytes stay
//! near 600 MB of device memory.
template <value_form F, class B, oracles O, class Policy>
void check_value_form(const Policy& policy) {
  for (const std::int64_t n : {0, 1, 2, 33, 1023, 1025, 4097, 65537, 300'007}) {
    const auto items = random_blobs<B>(n, static_cast<std::uint64_t>(n) + static_cast<int>(F));
    const auto hkeys = random_key_runs(n, static_cast<std::uint64_t>(n) + 5);
    B init           = random_blobs<B>(1, static_cast<std::uint64_t>(n) + 6)[0];
    init.w[0] = init.w[1] = 0xFFFFFFF0u;
    std::vector<B> ref;
    if constexpr (F == value_form::inclusive_by_key) {
      ref = host_scan_by_key(hkeys, items, blob_combine{}, cuda::std::equal_to<>{}, false, B{});
    } else {
      const bool exclusive = F == value_form::exclusive_init;
      ref                  = host_scan(items, blob_combine{}, exclusive, exclusive, init);
    }
    device_buffer<int> keys(hkeys);
    device_buffer<B> in(items), out(n);
    const std::string what = "form " + std::to_string(static_cast<int>(F)) + ", " + std::to_string(sizeof(B)) +
                             "-byte items, n=" + std::to_string(n);
    out.poison();
    B* end = nullptr;
    ASSERT_NO_THROW(end = run_value_form<F>(policy, keys.get(), in.get(), n, out.get(), init)) << what;
    ASSERT_EQ(end, out.end()) << what;
    const auto ours = out.to_host();
    ASSERT_TRUE(matches_reference(what, ours, ref));
    if constexpr (O == oracles::host_and_par) {
      out.poison();
      run_value_form<F>(thrust::cuda::par, keys.get(), in.get(), n, out.get(), init);
      ASSERT_TRUE(agree(what, ours, ours, out.to_host(), ref, {}));  // ours twice: this test runs no CUB
    }
  }
}

}  // namespace archscan::test
