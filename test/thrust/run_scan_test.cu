// thrust/run_scan.cuh: the step every scan-family overload shares. Host: an input's value type loses its
// cv-qualifiers, a negative distance is an empty range, a policy across ranks is told apart from the
// others, each family tag has its name (a user's own tag is "custom"), and a call of no items counts its
// entry, makes no CUDA call and returns its result iterator unchanged. GPU: a problem formed from
// Thrust's iterators (unwrapped to raw pointers) with a seed, a non-const operator and a finish functor
// scans as the host does, and the call returns result + n.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>

#include <archscan/archscan.cuh>
#include <archscan/thrust/run_scan.cuh>

#include "support/gpu.cuh"
#include "support/values.cuh"

namespace run_scan_test {

namespace d = archscan::detail;
using archscan::instrumentation::entry;

struct own_family {};
struct own_tuning : archscan::kepler_tuning {
  using family = own_family;
};

//! Counts its own calls: its operator() is not const, as a user's need not be.
struct counting_plus {
  int calls = 0;
  __host__ __device__ int operator()(int a, int b) {
    ++calls;
    return a + b;
  }
};
//! The finish of a problem: what is written for each scanned accumulator.
struct twice_plus_one {
  __host__ __device__ long long operator()(int scanned) const { return 2LL * scanned + 1; }
};

TEST(RunScan, ValueTypesLoseTheirQualifiers) {
  static_assert(std::is_same_v<d::value_t<volatile int*>, int>);
  static_assert(std::is_same_v<d::value_t<const volatile double*>, double>);
  static_assert(std::is_same_v<d::value_t<thrust::device_ptr<const float>>, float>);
  static_assert(std::is_same_v<d::value_t<thrust::counting_iterator<std::int64_t>>, std::int64_t>);
  SUCCEED();
}

TEST(RunScan, ItemCountIsTheDistanceOrNothing) {
  const thrust::counting_iterator<std::int64_t> zero(0);
  const std::int64_t big = (std::int64_t{1} << 40) + 12345;  // beyond 32 bits
  EXPECT_EQ(d::item_count(zero, zero + big), big);
  EXPECT_EQ(d::item_count(zero + big, zero), 0) << "a negative distance is an empty range";
  EXPECT_EQ(d::item_count(zero, zero), 0);
  int a[7];
  EXPECT_EQ(d::item_count(a + 2, a + 7), 5);
  EXPECT_EQ(d::item_count(a + 7, a + 2), 0);
}

TEST(RunScan, OnlyPoliciesAcrossRanksScanAcrossRanks) {
  static_assert(d::across_ranks<archscan::comm_policy<archscan::kepler_tuning, true>>);
  static_assert(d::across_ranks<archscan::comm_policy<archscan::native_tuning, false>>);
  static_assert(!d::across_ranks<archscan::stream_policy<archscan::native_tuning, false>>);
  static_assert(!d::across_ranks<archscan::policy<archscan::native_tuning>>);
  SUCCEED();
}

TEST(RunScan, EveryFamilyHasItsName) {
  EXPECT_STREQ(archscan::detail::family_name<archscan::native_tuning::family>, "native");
  EXPECT_STREQ(archscan::detail::family_name<archscan::blelloch_tuning::family>, "blelloch");
  EXPECT_STREQ(archscan::detail::family_name<archscan::kepler_tuning::family>, "kepler");
  EXPECT_STREQ(archscan::detail::family_name<archscan::turing_tuning::family>, "turing");
  EXPECT_STREQ(archscan::detail::family_name<own_tuning::family>, "custom");
}

// No items: the entry is counted, nothing reaches CUDA (no GPU is needed: the output is never touched)
// and the result iterator comes back as it was given, a negative count too.
TEST(RunScan, NoItemsCountsTheEntryAndReturnsTheResult) {
  auto policy    = archscan::kepler;
  long long* out = reinterpret_cast<long long*>(0x1000);  // never dereferenced
  const int* in  = reinterpret_cast<const int*>(0x2000);
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{-3}}) {
    const auto before = archscan::instrumentation::calls(entry::exclusive_scan_init_op);
    const auto got = d::run_scan<d::scan_kind::exclusive, true, int>(entry::exclusive_scan_init_op, policy, in, n, out,
                                                                     counting_plus{}, twice_plus_one{}, 5);
    EXPECT_EQ(got, out) << "n = " << n;
    EXPECT_EQ(archscan::instrumentation::calls(entry::exclusive_scan_init_op), before + 1) << "n = " << n;
  }
}

TEST(RunScan, FormsTheProblemAndReturnsResultPlusN) {
  ARCHSCAN_REQUIRE_GPU();
  auto policy = archscan::kepler;
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{4097}, std::int64_t{1000003}}) {
    const auto h   = archscan::test::random_values<int>(n, static_cast<std::uint64_t>(n));
    const int seed = static_cast<int>(n % 1000) - 777;
    thrust::device_vector<int> in(h.begin(), h.end());
    thrust::device_vector<long long> out(static_cast<std::size_t>(n) + 1, 0x5A5A5A5A5A5A5A5ALL);  // one past: untouched
    const auto before = archscan::instrumentation::calls(entry::exclusive_scan_init_op);
    const auto end    = d::run_scan<d::scan_kind::exclusive, true, int>(
        entry::exclusive_scan_init_op, policy, in.begin(), n, out.begin(), counting_plus{}, twice_plus_one{}, seed);
    EXPECT_EQ(end - out.begin(), n);
    EXPECT_EQ(archscan::instrumentation::calls(entry::exclusive_scan_init_op), before + 1);
    std::vector<long long> got(out.begin(), out.end());
    int acc = seed;
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], twice_plus_one{}(acc)) << "item " << i << " of " << n;
      acc += h[i];
    }
    EXPECT_EQ(got[n], 0x5A5A5A5A5A5A5A5ALL) << "written past the end, n = " << n;
  }
}

}  // namespace run_scan_test
