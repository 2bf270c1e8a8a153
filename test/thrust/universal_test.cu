// thrust::universal_vector (managed memory) inputs and outputs with the blocking policies, which
// return with results ready: each result is read on the host, through the raw managed pointer, right
// after the call, with no synchronization of any kind in between, and compared with a host reference.
// Allocations stay under 64 MB.

#include <cstring>

#include <thrust/scan.h>
#include <thrust/transform_scan.h>
#include <thrust/universal_vector.h>

#include <cuda/std/functional>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

struct triple_minus_one {
  __host__ __device__ int operator()(int x) const { return 3 * x - 1; }
};

std::vector<std::int64_t> sizes() {
  auto s = short_sizes();
  s.push_back(3'000'017);  // 12 MB a vector, more than one turing wave of tiles
  return s;
}

//! Managed inputs of one size and the host copies they were made from.
struct managed_inputs {
  std::vector<int> keys, items;
  thrust::universal_vector<int> d_keys, d_items;
  explicit managed_inputs(std::int64_t n)
      : keys(random_key_runs(n, static_cast<std::uint64_t>(n) + 61)),
        items(random_values<int>(n, static_cast<std::uint64_t>(n) + 62)),
        d_keys(keys.begin(), keys.end()),
        d_items(items.begin(), items.end()) {}
};

//! For every size: poisons a managed output on the host, runs `call(inputs, out)` and reads `out` on
//! the host as soon as it returns, through the raw pointer, with no synchronization in between.
template <class Reference, class Call>
void check_ready(const char* what, Reference reference, Call call) {
  for (const std::int64_t n : sizes()) {
    const managed_inputs in(n);
    const std::vector<int> ref = reference(in);
    thrust::universal_vector<int> out(static_cast<std::size_t>(n));
    int* const raw = thrust::raw_pointer_cast(out.data());
    if (n > 0) std::memset(raw, 0xA5, sizeof(int) * static_cast<std::size_t>(n));
    const auto end = call(in, out);
    const std::vector<int> got(raw, raw + n);
    ASSERT_TRUE(end == out.end()) << what << ", n=" << n << ": wrong end";
    ASSERT_TRUE(matches_reference(std::string(what) + " on managed memory, n=" + std::to_string(n), got, ref));
  }
}

template <class C>
class UniversalTest : public ::testing::Test {};
TYPED_TEST_SUITE(UniversalTest, blocking_policy_cases, case_names);

constexpr cuda::std::plus<> sum{};
constexpr int init = 12;

TYPED_TEST(UniversalTest, InclusiveScan) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  check_ready(
      "inclusive_scan", [](const managed_inputs& in) { return host_scan(in.items, sum, false, false, 0); },
      [&](const managed_inputs& in, thrust::universal_vector<int>& out) {
        return thrust::inclusive_scan(policy, in.d_items.begin(), in.d_items.end(), out.begin());
      });
}

TYPED_TEST(UniversalTest, ExclusiveScan) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  check_ready(
      "exclusive_scan", [](const managed_inputs& in) { return host_scan(in.items, sum, true, true, init); },
      [&](const managed_inputs& in, thrust::universal_vector<int>& out) {
        return thrust::exclusive_scan(policy, in.d_items.begin(), in.d_items.end(), out.begin(), init);
      });
}

TYPED_TEST(UniversalTest, InclusiveScanByKey) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  check_ready(
      "inclusive_scan_by_key",
      [](const managed_inputs& in) {
        return host_scan_by_key(in.keys, in.items, sum, cuda::std::equal_to<>{}, false, 0);
      },
      [&](const managed_inputs& in, thrust::universal_vector<int>& out) {
        return thrust::inclusive_scan_by_key(policy, in.d_keys.begin(), in.d_keys.end(), in.d_items.begin(),
                                             out.begin());
      });
}

TYPED_TEST(UniversalTest, TransformInclusiveScan) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  check_ready(
      "transform_inclusive_scan",
      [](const managed_inputs& in) {
        std::vector<int> transformed(in.items.size());
        for (std::size_t i = 0; i < transformed.size(); ++i) transformed[i] = triple_minus_one{}(in.items[i]);
        return host_scan(transformed, sum, false, false, 0);
      },
      [&](const managed_inputs& in, thrust::universal_vector<int>& out) {
        return thrust::transform_inclusive_scan(policy, in.d_items.begin(), in.d_items.end(), out.begin(),
                                                triple_minus_one{}, sum);
      });
}

}  // namespace
