// inclusive_scan_by_key and exclusive_scan_by_key with every policy: random key runs, all-equal and
// all-distinct keys, and a custom (asymmetric) predicate, against cub::DeviceScanByKey,
// thrust::cuda::par and a host reference.

#include <functional>
#include <vector>

#include <cub/device/device_scan.cuh>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/cub.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

enum class keys_kind { random_runs, all_equal, all_distinct };

std::vector<int> make_keys(std::int64_t n, keys_kind kind, std::uint64_t seed) {
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

template <class T, class Op, class Pred>
std::vector<T> host_scan_by_key(const std::vector<int>& keys, const std::vector<T>& v, Op op, Pred pred,
                                bool exclusive, T init) {
  using A = host_accum_t<T>;
  std::vector<T> out(v.size());
  A acc{};
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool head = i == 0 || !pred(keys[i - 1], keys[i]);
    const A x       = static_cast<A>(v[i]);
    if (exclusive) {
      if (head) acc = static_cast<A>(init);
      out[i] = static_cast<T>(acc);
      acc    = static_cast<A>(op(acc, x));
    } else {
      acc    = head ? x : static_cast<A>(op(acc, x));
      out[i] = static_cast<T>(acc);
    }
  }
  return out;
}

template <class C>
class ScanByKeyTest : public ::testing::Test {};
TYPED_TEST_SUITE(ScanByKeyTest, scan_cases, case_names);

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

      if (n > 0) {
        ARCHSCAN_CUDA_OK(cub_two_phase([&](void* d_temp, std::size_t& bytes) {
          if (exclusive) {
            return cub::DeviceScan::ExclusiveScanByKey(d_temp, bytes, keys.get(), in.get(), cub_out.get(), Op{}, init,
                                                       n, pred);
          }
          return cub::DeviceScan::InclusiveScanByKey(d_temp, bytes, keys.get(), in.get(), cub_out.get(), Op{}, n, pred);
        }));
      }

      T* end = nullptr;
      if (exclusive) {
        end = thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), out.begin(), init, pred, Op{});
        thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), par_out.begin(), init,
                                      pred, Op{});
      } else {
        end = thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), out.begin(), pred, Op{});
        thrust::inclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), par_out.begin(), pred,
                                      Op{});
      }
      ASSERT_EQ(end, out.end());
      const auto ref = host_scan_by_key(hkeys, items, Op{}, pred, exclusive, init);
      double init_mag = 0;
      if constexpr (std::is_arithmetic_v<T>) init_mag = std::fabs(static_cast<double>(init));
      ASSERT_TRUE(agree("n=" + std::to_string(n) + " keys=" + std::to_string(static_cast<int>(kind)), out.to_host(),
                        cub_out.to_host(), par_out.to_host(), ref, magnitude_prefix(items, init_mag)));
    }
  }
}

constexpr auto all_kinds = {keys_kind::random_runs, keys_kind::all_equal, keys_kind::all_distinct};

//! native's by-key rows take large tiles from their large_from_items up (tuning.cuh), beyond
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
//! word (tile/transposed_tile.cuh): the flags of striped item-by-item loads (partial tiles, the
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
  using int_case    = scan_case<archscan::policy<native_keyed_32>, int, thrust::plus<>>;
  using double_case = scan_case<archscan::policy<native_keyed_32>, double, thrust::plus<>>;
  for (const bool exclusive : {false, true}) {
    run_by_key<int_case>(exclusive, thrust::equal_to<int>{}, all_kinds, sizes);
    run_by_key<double_case>(exclusive, thrust::equal_to<int>{}, {keys_kind::random_runs}, sizes);
  }
}

TYPED_TEST(ScanByKeyTest, Inclusive) {
  ARCHSCAN_REQUIRE_GPU();
  run_by_key<TypeParam>(false, thrust::equal_to<int>{}, all_kinds);
}

TYPED_TEST(ScanByKeyTest, Exclusive) {
  ARCHSCAN_REQUIRE_GPU();
  run_by_key<TypeParam>(true, thrust::equal_to<int>{}, all_kinds);
}

TYPED_TEST(ScanByKeyTest, CustomPredicate) {
  ARCHSCAN_REQUIRE_GPU();
  run_by_key<TypeParam>(false, non_decreasing{}, {keys_kind::all_distinct});
  run_by_key<TypeParam>(true, non_decreasing{}, {keys_kind::all_distinct});
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
  check("inclusive (k, v, out)",
        [&] { thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin()); },
        [&] { thrust::inclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin()); });
  check("inclusive (pred)",
        [&] { thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin(), non_decreasing{}); },
        [&] {
          thrust::inclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin(),
                                        non_decreasing{});
        });
  check("exclusive (k, v, out)",
        [&] { thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin()); },
        [&] { thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin()); });
  check("exclusive (init)",
        [&] { thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin(), 42); },
        [&] { thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin(), 42); });
  check("exclusive (init, pred)",
        [&] {
          thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), a.begin(), -3, non_decreasing{});
        },
        [&] {
          thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), b.begin(), -3,
                                        non_decreasing{});
        });
}

}  // namespace
