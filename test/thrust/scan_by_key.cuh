#pragma once
// The by-key suite's keys, host reference and checks, shared by scan_by_key_test.cu and the
// scan_by_key_<family>.cu files of the same test program (generated from scan_by_key_family.cu.in):
// every policy crossed with every value type is too many kernels for one translation unit, which
// compiled for longer than any other in the build; one unit per family compiles side by side.
// Each check runs inclusive_scan_by_key or exclusive_scan_by_key with a policy on random key runs,
// all-equal or all-distinct keys, or a custom (asymmetric) predicate, against
// cub::DeviceScanByKey, thrust::cuda::par (oracle_scan_by_key) and the host reference of
// support/by_key.cuh.

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace archscan::test::by_key_suite {

enum class keys_kind { random_runs, all_equal, all_distinct };

inline std::vector<int> make_keys(std::int64_t n, keys_kind kind, std::uint64_t seed) {
  std::vector<int> k(static_cast<std::size_t>(n));
  std::mt19937_64 rng(seed);
  int key = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (kind == keys_kind::all_distinct) key = static_cast<int>(i);
    if (kind == keys_kind::random_runs && rng() % 13 == 0) key += 1 + static_cast<int>(rng() % 3);
    k[static_cast<std::size_t>(i)] = key;
  }
  return k;
}

//! "Same segment while keys do not decrease": asymmetric, so argument order (prev, current) matters.
struct non_decreasing {
  __host__ __device__ bool operator()(int prev, int cur) const { return prev <= cur; }
};

//! cub::DeviceScanByKey into `cub_out` and thrust::cuda::par into `par_out`, both over the n items
//! of `keys` and `in`. Defined in scan_by_key_oracle.cuh, and explicitly instantiated once for
//! scan_value_ops and both predicates (scan_by_key_oracles.cu): in each family's unit the oracles'
//! kernels compiled again, and they took as long as the family's own.
template <class T, class Op, class Pred>
void oracle_scan_by_key(device_buffer<int>& keys, device_buffer<T>& in, device_buffer<T>& cub_out,
                        device_buffer<T>& par_out, std::int64_t n, bool exclusive, T init, Op op, Pred pred);

template <class C, class Pred>
void run_by_key(bool exclusive, Pred pred, std::initializer_list<keys_kind> kinds,
                const std::vector<std::int64_t>& sizes = short_sizes()) {
  using T  = typename C::value;
  using Op = typename C::op;
  const typename C::policy policy{};
  for (const keys_kind kind : kinds) {
    for (const std::int64_t n : sizes) {
      const auto hkeys = make_keys(n, kind, static_cast<std::uint64_t>(n) * 3 + static_cast<int>(kind));
      const auto items = random_values<T>(n, static_cast<std::uint64_t>(n) + 5);
      const T init     = random_values<T>(1, static_cast<std::uint64_t>(n) + 77)[0];
      device_buffer<int> keys(hkeys);
      device_buffer<T> in(items), out(n), cub_out(n), par_out(n);
      out.poison();
      cub_out.poison();
      par_out.poison();

      oracle_scan_by_key(keys, in, cub_out, par_out, n, exclusive, init, Op{}, pred);
      T* const end = exclusive ? thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(),
                                                               out.begin(), init, pred, Op{})
                               : thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(),
                                                               out.begin(), pred, Op{});
      ASSERT_EQ(end, out.end());
      const auto ref  = host_scan_by_key(hkeys, items, Op{}, pred, exclusive, init);
      double init_mag = 0;
      if constexpr (std::is_arithmetic_v<T>) init_mag = std::fabs(static_cast<double>(init));
      ASSERT_TRUE(agree("n=" + std::to_string(n) + " keys=" + std::to_string(static_cast<int>(kind)), out.to_host(),
                        cub_out.to_host(), par_out.to_host(), ref, magnitude_prefix(items, init_mag)));
    }
  }
}

inline constexpr auto all_kinds = {keys_kind::random_runs, keys_kind::all_equal, keys_kind::all_distinct};

}  // namespace archscan::test::by_key_suite
