// Every iterator kind Thrust accepts, as input and as output, and in-place scans, with every policy.
// Each result is compared with the same call made with thrust::cuda::par and with a host reference.

#include <type_traits>
#include <utility>
#include <vector>

#include <thrust/device_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/scan.h>
#include <thrust/tuple.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;
using i64 = std::int64_t;

template <class C>
class IteratorTest : public ::testing::Test {};
TYPED_TEST_SUITE(IteratorTest, policy_cases, case_names);

struct times3 {
  __host__ __device__ i64 operator()(i64 x) const { return 3 * x - 7; }
};
struct pair_sum {
  __host__ __device__ i64 operator()(const thrust::tuple<int, i64>& t) const {
    return thrust::get<0>(t) + 2 * thrust::get<1>(t);
  }
};
struct halve {
  __host__ __device__ i64 operator()(i64 x) const { return x / 2; }
};

std::vector<i64> host_inclusive(const std::vector<i64>& v) {
  std::vector<i64> r(v.size());
  i64 acc = 0;
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = acc += v[i];
  return r;
}

// Runs the archscan policy and thrust::cuda::par on the same input range into fresh outputs and
// checks both against the host reference.
template <class Policy, class InIt>
void check_input(const Policy& policy, InIt first, i64 n, const std::vector<i64>& items, const char* what) {
  thrust::device_vector<i64> a(n, i64{-0x5A5A5A5A}), b(n, i64{-0x5A5A5A5A});
  auto end = thrust::inclusive_scan(policy, first, first + n, a.begin());
  EXPECT_EQ(end - a.begin(), n) << what;
  thrust::inclusive_scan(thrust::cuda::par, first, first + n, b.begin());
  std::vector<i64> ha(n), hb(n);
  thrust::copy(a.begin(), a.end(), ha.begin());
  thrust::copy(b.begin(), b.end(), hb.begin());
  const auto ref = host_inclusive(items);
  ASSERT_TRUE(agree(what, ha, hb, hb, ref, {})) << "n=" << n;
}

TYPED_TEST(IteratorTest, InputIterators) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  for (const i64 n : short_sizes()) {
    if (n == 0) continue;
    const auto base = random_values<i64>(n, static_cast<std::uint64_t>(n));
    thrust::device_vector<i64> d(base.begin(), base.end());
    std::vector<i64> items(n);

    for (i64 i = 0; i < n; ++i) items[i] = 5 + i;
    check_input(policy, thrust::counting_iterator<i64>(5), n, items, "counting_iterator");

    std::fill(items.begin(), items.end(), i64{-3});
    check_input(policy, thrust::constant_iterator<i64>(-3), n, items, "constant_iterator");

    for (i64 i = 0; i < n; ++i) items[i] = times3{}(base[i]);
    check_input(policy, thrust::make_transform_iterator(d.begin(), times3{}), n, items, "transform_iterator");

    std::vector<int> perm(n);
    for (i64 i = 0; i < n; ++i) perm[i] = static_cast<int>((i * 7919) % n);
    thrust::device_vector<int> dperm(perm.begin(), perm.end());
    for (i64 i = 0; i < n; ++i) items[i] = base[perm[i]];
    check_input(policy, thrust::make_permutation_iterator(d.begin(), dperm.begin()), n, items, "permutation_iterator");

    for (i64 i = 0; i < n; ++i) items[i] = base[n - 1 - i];
    check_input(policy, d.rbegin(), n, items, "reverse_iterator");
  }
  for (const i64 n : short_sizes()) {
    if (n == 0) continue;
    const auto base  = random_values<i64>(n, static_cast<std::uint64_t>(n) + 1);
    const auto small = random_values<int>(n, static_cast<std::uint64_t>(n) + 2);
    thrust::device_vector<i64> d(base.begin(), base.end());
    thrust::device_vector<int> ds(small.begin(), small.end());
    std::vector<i64> items(n);
    for (i64 i = 0; i < n; ++i) items[i] = small[i] + 2 * base[i];
    auto zip = thrust::make_zip_iterator(thrust::make_tuple(ds.begin(), d.begin()));
    check_input(policy, thrust::make_transform_iterator(zip, pair_sum{}), n, items, "zip_iterator (transformed)");
    check_input(policy, d.begin(), n, base, "device_vector iterator");
    check_input(policy, thrust::device_pointer_cast(thrust::raw_pointer_cast(d.data())), n, base, "device_ptr");
    // Read one item at a time, as the program says: no vectors, no read-only cache, a plain accumulator.
    // Into raw pointers: Thrust's own scan of a volatile input into a device_vector does not compile.
    const volatile i64* volatile_in = thrust::raw_pointer_cast(d.data());
    thrust::device_vector<i64> a(n, i64{-0x5A5A5A5A}), b(n, i64{-0x5A5A5A5A});
    thrust::inclusive_scan(policy, volatile_in, volatile_in + n, thrust::raw_pointer_cast(a.data()));
    thrust::inclusive_scan(thrust::cuda::par, volatile_in, volatile_in + n, thrust::raw_pointer_cast(b.data()));
    std::vector<i64> ha(n), hb(n);
    thrust::copy(a.begin(), a.end(), ha.begin());
    thrust::copy(b.begin(), b.end(), hb.begin());
    ASSERT_TRUE(agree("volatile pointer", ha, hb, hb, host_inclusive(base), {})) << "n=" << n;
  }
}

TYPED_TEST(IteratorTest, OutputIterators) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  for (const i64 n : short_sizes()) {
    const auto base = random_values<i64>(n, static_cast<std::uint64_t>(n) + 9);
    thrust::device_vector<i64> d(base.begin(), base.end());
    // discard_iterator: the scan runs, nothing is written, the returned end is first + n.
    auto dend = thrust::inclusive_scan(policy, d.begin(), d.end(), thrust::make_discard_iterator());
    EXPECT_EQ(dend - thrust::make_discard_iterator(), n);
    // transform_output_iterator: every result passes through the functor.
    thrust::device_vector<i64> a(n, -1), b(n, -1);
    thrust::exclusive_scan(policy, d.begin(), d.end(), thrust::make_transform_output_iterator(a.begin(), halve{}),
                           i64{11});
    thrust::exclusive_scan(thrust::cuda::par, d.begin(), d.end(),
                           thrust::make_transform_output_iterator(b.begin(), halve{}), i64{11});
    std::vector<i64> ha(n), hb(n), ref(n);
    thrust::copy(a.begin(), a.end(), ha.begin());
    thrust::copy(b.begin(), b.end(), hb.begin());
    i64 acc = 11;
    for (i64 i = 0; i < n; ++i) {
      ref[i] = acc / 2;
      acc += base[i];
    }
    ASSERT_TRUE(agree("transform_output_iterator", ha, hb, hb, ref, {}));
    // reverse_iterator output.
    thrust::device_vector<i64> r(n, -1);
    thrust::inclusive_scan(policy, d.begin(), d.end(), r.rbegin());
    std::vector<i64> hr(n);
    thrust::copy(r.begin(), r.end(), hr.begin());
    const auto inc = host_inclusive(base);
    for (i64 i = 0; i < n; ++i) ASSERT_EQ(hr[n - 1 - i], inc[i]) << "reverse output, i=" << i;
  }
}

TYPED_TEST(IteratorTest, InPlace) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  for (const i64 n : test_sizes()) {
    const auto base = random_values<i64>(n, static_cast<std::uint64_t>(n) + 13);
    device_buffer<i64> d(base);
    thrust::exclusive_scan(policy, d.begin(), d.end(), d.begin(), i64{5});
    const auto got = d.to_host();
    i64 acc        = 5;
    for (i64 i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], acc) << "in-place exclusive, n=" << n << " i=" << i;
      acc += base[i];
    }
    device_buffer<i64> e(base);
    thrust::inclusive_scan(policy, e.begin(), e.end(), e.begin());
    const auto inc = host_inclusive(base);
    ASSERT_EQ(e.to_host(), inc) << "in-place inclusive, n=" << n;
  }
}

// Raw pointers off 16-byte alignment, as input, output or both, and in place: families that move
// 16-byte vectors where the pointers allow (tuning field vector_access) must fall back to one item
// per access here, and take the vectors again on aligned pointers. One- and two-byte items (which
// wrap), four-byte items, and one-byte inputs to four-byte outputs.
template <class In, class Out, class Policy>
void check_offsets(const Policy& policy, i64 n, int in_offset, int out_offset) {
  const auto items = random_values<In>(n + in_offset, static_cast<std::uint64_t>(n) * 31 + in_offset);
  device_buffer<In> d_in(items);
  device_buffer<Out> d_out(n + out_offset);
  d_out.poison();
  const cuda::std::plus<Out> sum;  // the accumulator is Out: one- and two-byte sums wrap
  const Out init = static_cast<Out>(items[0] | 1);
  thrust::exclusive_scan(policy, d_in.get() + in_offset, d_in.get() + in_offset + n, d_out.get() + out_offset, init,
                         sum);
  const auto got = d_out.to_host();
  Out acc        = init;
  for (i64 i = 0; i < n; ++i) {
    ASSERT_EQ(got[out_offset + i], acc) << "n=" << n << " in+" << in_offset << " out+" << out_offset << " i=" << i;
    acc = static_cast<Out>(acc + static_cast<Out>(items[in_offset + i]));
  }
}

template <class T, class Policy>
void check_in_place_offset(const Policy& policy, i64 n, int offset) {
  const auto items = random_values<T>(n + offset, static_cast<std::uint64_t>(n) * 17 + offset);
  device_buffer<T> d(items);
  const cuda::std::plus<T> sum;
  thrust::inclusive_scan(policy, d.get() + offset, d.get() + offset + n, d.get() + offset, sum);
  const auto got = d.to_host();
  T acc          = T{};
  for (i64 i = 0; i < n; ++i) {
    acc = static_cast<T>(acc + items[offset + i]);
    ASSERT_EQ(got[offset + i], acc) << "in place, n=" << n << " offset " << offset << " i=" << i;
  }
  for (int i = 0; i < offset; ++i) ASSERT_EQ(got[i], items[i]) << "an item before the range changed";
}

// By-key scans read keys and values in 16-byte vectors where both are aligned: keys and values off
// alignment, apart or together, the output over the values, and keys of every width (bool included).
template <class V, class K = int, class Policy>
void check_by_key_offsets(const Policy& policy, i64 n, int key_offset, int value_offset, bool in_place) {
  const auto noise  = random_values<std::uint8_t>(n + key_offset, static_cast<std::uint64_t>(n) * 13 + key_offset);
  const auto values = random_values<V>(n + value_offset, static_cast<std::uint64_t>(n) * 29 + value_offset);
  std::vector<std::conditional_t<std::is_same_v<K, bool>, std::uint8_t, K>> keys(n + key_offset);  // not vector<bool>
  const int kinds = std::is_same_v<K, bool> ? 2 : 100;  // adjacent runs' keys differ
  for (i64 i = 1, run = 0; i < n + key_offset; ++i) {
    run += noise[i] % 5 == 0;  // runs of ~5
    keys[i] = static_cast<K>(run % kinds);
  }
  const thrust::device_vector<K> d_keys_vector(keys.begin(), keys.end());
  const K* d_keys = thrust::raw_pointer_cast(d_keys_vector.data());
  device_buffer<V> d_values(values);
  device_buffer<V> d_out(n + value_offset);
  d_out.poison();
  V* out       = in_place ? d_values.get() + value_offset : d_out.get() + value_offset;
  const V init = static_cast<V>(values[0] | 1);
  thrust::exclusive_scan_by_key(policy, d_keys + key_offset, d_keys + key_offset + n, d_values.get() + value_offset,
                                out, init);
  const auto got = in_place ? d_values.to_host() : d_out.to_host();
  V acc          = init;
  for (i64 i = 0; i < n; ++i) {
    if (i > 0 && keys[key_offset + i] != keys[key_offset + i - 1]) acc = init;
    ASSERT_EQ(got[value_offset + i], acc) << "n=" << n << " keys+" << key_offset << " values+" << value_offset
                                          << (in_place ? " in place" : "") << " i=" << i;
    acc = static_cast<V>(acc + values[value_offset + i]);
  }
}

TYPED_TEST(IteratorTest, PointersOffAlignment) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  const std::vector<i64> sizes =
      short_run() ? std::vector<i64>{1, 70001} : std::vector<i64>{1, 4097, 70001, (1 << 20) + 3};
  for (const i64 n : sizes) {
    for (const auto& [in_offset, out_offset] : {std::pair{0, 0}, std::pair{1, 0}, std::pair{0, 3}, std::pair{5, 2}}) {
      check_offsets<std::int8_t, std::int8_t>(policy, n, in_offset, out_offset);
      check_offsets<std::int16_t, std::int16_t>(policy, n, in_offset, out_offset);
      check_offsets<int, int>(policy, n, in_offset, out_offset);
      check_offsets<std::uint8_t, int>(policy, n, in_offset, out_offset);
    }
    check_in_place_offset<std::int8_t>(policy, n, 0);
    check_in_place_offset<std::int8_t>(policy, n, 7);
    check_in_place_offset<std::int16_t>(policy, n, 1);
    for (const auto& [key_offset, value_offset] :
         {std::pair{0, 0}, std::pair{1, 0}, std::pair{0, 1}, std::pair{3, 3}}) {
      check_by_key_offsets<int>(policy, n, key_offset, value_offset, false);
      check_by_key_offsets<std::int8_t>(policy, n, key_offset, value_offset, value_offset > 0);
      check_by_key_offsets<std::int64_t>(policy, n, key_offset, value_offset, value_offset == 0);
    }
    for (const int key_offset : {0, 1}) {
      check_by_key_offsets<int, std::int8_t>(policy, n, key_offset, 0, false);
      check_by_key_offsets<int, bool>(policy, n, key_offset, 0, false);
      check_by_key_offsets<int, std::int16_t>(policy, n, key_offset, 0, true);
      check_by_key_offsets<int, double>(policy, n, key_offset, 0, false);
      check_by_key_offsets<std::int64_t, std::int64_t>(policy, n, key_offset, 0, false);
    }
  }
}

}  // namespace
