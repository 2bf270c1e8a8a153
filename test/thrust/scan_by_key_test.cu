// By-key scans beyond the typed cases (scan_by_key_<family>.cu): native's large tiles and a user's
// tuning of 32 items a thread, and, with every policy, Thrust's shorter forms and keys of a class
// type, against cub::DeviceScanByKey, thrust::cuda::par and a host reference (scan_by_key.cuh).

#include <functional>
#include <vector>

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "thrust/scan_by_key_oracle.cuh"

namespace {

using namespace archscan::test;
using namespace archscan::test::by_key_suite;

//! native's by-key rows take large tiles from their large_from_items up (tuning/shape.cuh), beyond
//! short_sizes(): sizes_around_large_tiles.
template <class Value>
void run_around_large_tiles() {
  using row        = archscan::row_for_accum<archscan::native_tuning, archscan::detail::keyed<Value>>;
  const auto sizes = sizes_around_large_tiles<row>();
  using C = scan_case<archscan::policy<archscan::native_tuning>, Value, thrust::plus<Value>>;  // typed: int16 wraps
  run_by_key<C>(false, thrust::equal_to<int>{}, {keys_kind::random_runs}, sizes);
  run_by_key<C>(true, thrust::equal_to<int>{}, {keys_kind::random_runs}, sizes);
}

TEST(NativeLargeTilesByKey, AroundTheirThreshold) {
  ARCHSCAN_REQUIRE_GPU();
  run_around_large_tiles<int>();
  run_around_large_tiles<double>();
  run_around_large_tiles<std::int16_t>();  // keyed_rows::row_2's own large tiles
}

//! A user's tuning whose by-key tiles hold 32 items a thread, the most that keep their flags in one
//! word (tile/keyed_loads.cuh): the flags of striped item-by-item loads (partial tiles, the
//! sizes that are no multiple of the 4096-item tile) become blocked in whole words.
struct native_keyed_32 : archscan::native_tuning {
  struct keyed_rows : archscan::native_tuning::keyed_rows {
    struct row_4 {
      static constexpr int block_threads          = 128;
      static constexpr int items_per_thread       = 32;
      static constexpr int small_items_per_thread = 32;
      static constexpr int min_blocks_per_sm      = 1;
    };
    using row_8 = row_4;
  };
};

TEST(NativeUserTuningsByKey, ThirtyTwoItemsAThread) {
  ARCHSCAN_REQUIRE_GPU();
  const std::vector<std::int64_t> sizes = {1, 31, 4095, 4096, 4097, 3 * 4096 + 77, 1000 * 4096 + 1};
  using int_case                        = scan_case<archscan::policy<native_keyed_32>, int, thrust::plus<>>;
  using double_case                     = scan_case<archscan::policy<native_keyed_32>, double, thrust::plus<>>;
  for (const bool exclusive : {false, true}) {
    run_by_key<int_case>(exclusive, thrust::equal_to<int>{}, all_kinds, sizes);
    run_by_key<double_case>(exclusive, thrust::equal_to<int>{}, {keys_kind::random_runs}, sizes);
  }
}

// By-key calls beyond the typed cases' own: Thrust's shorter forms, keys of a class type.
template <class C>
class ScanByKeyDefaultsTest : public ::testing::Test {};
TYPED_TEST_SUITE(ScanByKeyDefaultsTest, policy_cases, case_names);

//! Keys of a class type (trivially copyable, 8 bytes): they take the per-item path of by-key tiles
//! (keys move between lanes by shuffles, which take arithmetic types), whatever plain items do.
struct pair_key {
  int a, b;
};
struct pair_equal {
  __host__ __device__ bool operator()(const pair_key& x, const pair_key& y) const { return x.a == y.a && x.b == y.b; }
};

TYPED_TEST(ScanByKeyDefaultsTest, ClassKeysMatchTheHost) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  for (const std::int64_t n : {std::int64_t{5000}, std::int64_t{300007}}) {
    const auto hkeys = make_keys(n, keys_kind::random_runs, 21);
    const auto items = random_values<int>(n, 22);
    std::vector<pair_key> pkeys(hkeys.size());
    for (std::size_t i = 0; i < hkeys.size(); ++i) pkeys[i] = pair_key{hkeys[i], 7 * hkeys[i] + 1};
    device_buffer<pair_key> keys(pkeys);
    device_buffer<int> in(items), out(n);
    const auto plus = ::cuda::std::plus<int>{};
    out.poison();
    thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), out.begin(), pair_equal{});
    EXPECT_EQ(out.to_host(), host_scan_by_key(hkeys, items, plus, std::equal_to<int>{}, false, 0)) << n;
    out.poison();
    thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), out.begin(), 5, pair_equal{});
    EXPECT_EQ(out.to_host(), host_scan_by_key(hkeys, items, plus, std::equal_to<int>{}, true, 5)) << n;
  }
}

// The shorter forms forward Thrust's defaults (equal_to, plus, value_type{}): checked against thrust::cuda::par.
TYPED_TEST(ScanByKeyDefaultsTest, ShorterFormsMatchThrust) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  const std::int64_t n = 100003;
  const auto hkeys     = make_keys(n, keys_kind::random_runs, 11);
  const auto items     = random_values<int>(n, 12);
  device_buffer<int> keys(hkeys), in(items), a(n), b(n);
  auto check = [&](const char* what, auto ours, auto theirs) {
    a.poison();
    b.poison();
    ours();
    theirs();
    const auto ha = a.to_host();
    const auto hb = b.to_host();
    ASSERT_EQ(ha, hb) << what;
  };
  check(
      "inclusive (k, v, out)",
      [&] { thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin()); },
      [&] { thrust::inclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin()); });
  check(
      "inclusive (pred)",
      [&] { thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin(), non_decreasing{}); },
      [&] {
        thrust::inclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin(),
                                      non_decreasing{});
      });
  check(
      "exclusive (k, v, out)",
      [&] { thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin()); },
      [&] { thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin()); });
  check(
      "exclusive (init)",
      [&] { thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin(), 42); },
      [&] { thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin(), 42); });
  check(
      "exclusive (init, pred)",
      [&] {
        thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin(), -3, non_decreasing{});
      },
      [&] {
        thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin(), -3,
                                      non_decreasing{});
      });
}

}  // namespace
