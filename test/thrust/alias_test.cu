// Outputs that alias inputs, with every policy: scans in place (out == in), and by-key scans whose
// output is the keys, the values, or one array that is keys, values and output at once (Thrust allows
// result == keys_first or result == values_first). Sizes cross the tiles and waves of every family:
// tile * m +- 1 for blelloch's 1024-item blocks, kepler's 4096 and 8192, turing's 1024, 4096 and 5120,
// 2^k +- 1, and sizes at which turing's look-back runs over several waves of resident tiles (beyond
// 132 SMs x 4 blocks x 4096 items), so that a tile races its neighbours' stores over its inputs.
// References are computed on the host from copies taken before the call; thrust::cuda::par runs the
// same call on separate (non-aliased) copies.

#include <algorithm>

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

std::vector<std::int64_t> alias_sizes() {
  if (short_run()) return {0, 1, 1023, 4097, 8193, (1 << 20) + 1};
  std::vector<std::int64_t> s = {0, 1, 2, 33};
  for (const std::int64_t tile : {1024, 4096, 5120, 8192}) {
    for (const std::int64_t m : {1, 2, 3, 17}) {
      s.push_back(tile * m - 1);
      s.push_back(tile * m + 1);
    }
  }
  for (int k = 12; k <= 22; ++k) {
    s.push_back((std::int64_t{1} << k) - 1);
    s.push_back((std::int64_t{1} << k) + 1);
  }
  for (const std::int64_t n :
       {(std::int64_t{1} << 23) + 1, 3 * (std::int64_t{1} << 22) - 1, (std::int64_t{1} << 24) + 4097}) {
    s.push_back(n);
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

template <class C>
class AliasTest : public ::testing::Test {};
TYPED_TEST_SUITE(AliasTest, policy_cases, case_names);

TYPED_TEST(AliasTest, ScanInPlace) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  const cuda::std::plus<> sum;
  const int init = -29;
  for (const std::int64_t n : alias_sizes()) {
    const auto items = random_values<int>(n, static_cast<std::uint64_t>(n) + 41);
    for (const bool exclusive : {false, true}) {
      device_buffer<int> ours(items), in(items), theirs(n);
      theirs.poison();
      int* end = nullptr;
      if (exclusive) {
        end = thrust::exclusive_scan(policy, ours.begin(), ours.end(), ours.begin(), init);
        thrust::exclusive_scan(thrust::cuda::par, in.begin(), in.end(), theirs.begin(), init);
      } else {
        end = thrust::inclusive_scan(policy, ours.begin(), ours.end(), ours.begin());
        thrust::inclusive_scan(thrust::cuda::par, in.begin(), in.end(), theirs.begin());
      }
      ASSERT_EQ(end, ours.end());
      const auto from_par = theirs.to_host();  // fills agree's CUB slot too: this test runs no CUB
      ASSERT_TRUE(agree(std::string(exclusive ? "exclusive" : "inclusive") + " in place, n=" + std::to_string(n),
                        ours.to_host(), from_par, from_par, host_scan(items, sum, exclusive, exclusive, init), {}));
    }
  }
}

//! Which input array the by-key output overwrites.
enum class target { keys, values, keys_and_values };

const char* target_name(target t) {
  return t == target::keys ? "keys" : t == target::values ? "values" : "keys = values";
}

//! inclusive_scan_by_key(k, kl, v, o) or exclusive_scan_by_key(k, kl, v, o, init).
template <class Policy, class V, class Out>
Out* scan_by_key(const Policy& policy, bool exclusive, const int* keys, std::int64_t n, const V* values, Out* out,
                 V init) {
  if (exclusive) return thrust::exclusive_scan_by_key(policy, keys, keys + n, values, out, init);
  return thrust::inclusive_scan_by_key(policy, keys, keys + n, values, out);
}

//! One by-key scan whose output is `t`, against the host reference and against thrust::cuda::par on
//! separate copies. For target::keys_and_values the values are the keys (V is int, `values` unused).
template <class V, class Policy>
::testing::AssertionResult by_key_in_place(const Policy& policy, target t, bool exclusive, const std::vector<int>& keys,
                                           const std::vector<V>& values, V init) {
  const auto n           = static_cast<std::int64_t>(keys.size());
  const std::string what = std::string(exclusive ? "exclusive" : "inclusive") + " by key into the " + target_name(t) +
                           ", n=" + std::to_string(n);
  std::vector<V> ours;
  device_buffer<int> d_keys(keys);
  device_buffer<V> d_values(values);
  bool end_ok = false;
  if constexpr (std::is_same_v<V, int>) {
    if (t == target::keys) {
      end_ok = scan_by_key(policy, exclusive, d_keys.get(), n, d_values.get(), d_keys.get(), init) == d_keys.end();
      ours   = d_keys.to_host();
    } else if (t == target::keys_and_values) {
      end_ok = scan_by_key(policy, exclusive, d_keys.get(), n, d_keys.get(), d_keys.get(), init) == d_keys.end();
      ours   = d_keys.to_host();
    }
  }
  if (t == target::values) {
    end_ok = scan_by_key(policy, exclusive, d_keys.get(), n, d_values.get(), d_values.get(), init) == d_values.end();
    ours   = d_values.to_host();
  }
  if (!end_ok) return ::testing::AssertionFailure() << what << ": wrong end (or a target V cannot be)";

  device_buffer<int> par_keys(keys);
  device_buffer<V> par_values(values), theirs(n);
  theirs.poison();
  scan_by_key(thrust::cuda::par, exclusive, par_keys.get(), n, par_values.get(), theirs.get(), init);
  const auto from_par = theirs.to_host();  // fills agree's CUB slot too: this test runs no CUB
  const auto ref      = host_scan_by_key(keys, values, cuda::std::plus<>{}, cuda::std::equal_to<>{}, exclusive, init);
  std::vector<double> scale;
  if constexpr (std::is_floating_point_v<V>) scale = magnitude_prefix(values, std::fabs(static_cast<double>(init)));
  return agree(what, ours, from_par, from_par, ref, scale);
}

template <class V, class Policy>
void by_key_into(const Policy& policy, target t) {
  for (const std::int64_t n : alias_sizes()) {
    for (const bool distinct : {false, true}) {
      const auto keys   = distinct ? distinct_keys(n) : random_key_runs(n, static_cast<std::uint64_t>(n) + 43);
      const auto values = t == target::keys_and_values ? std::vector<V>(keys.begin(), keys.end())
                                                       : random_values<V>(n, static_cast<std::uint64_t>(n) + 44);
      const V init      = random_values<V>(1, static_cast<std::uint64_t>(n) + 45)[0];
      for (const bool exclusive : {false, true}) {
        ASSERT_TRUE(by_key_in_place(policy, t, exclusive, keys, values, init))
            << (distinct ? "all-distinct keys" : "random key runs");
      }
    }
  }
}

TYPED_TEST(AliasTest, ByKeyOutputIsKeys) {
  ARCHSCAN_REQUIRE_GPU();
  by_key_into<int>(typename TypeParam::policy{}, target::keys);
}

TYPED_TEST(AliasTest, ByKeyOutputIsValues) {
  ARCHSCAN_REQUIRE_GPU();
  by_key_into<int>(typename TypeParam::policy{}, target::values);
}

TYPED_TEST(AliasTest, ByKeyKeysValuesAndOutputOneArray) {
  ARCHSCAN_REQUIRE_GPU();
  by_key_into<int>(typename TypeParam::policy{}, target::keys_and_values);
}

TYPED_TEST(AliasTest, ByKeyDoubleOutputIsValues) {
  ARCHSCAN_REQUIRE_GPU();
  by_key_into<double>(typename TypeParam::policy{}, target::values);
}

}  // namespace
