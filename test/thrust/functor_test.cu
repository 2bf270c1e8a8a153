// Function objects whose operator() is not const, in every functor slot of the sixteen scan-family
// overloads (binary operator, key predicate, unary transform), with every policy. Thrust copies a
// function object and calls its copy, so it accepts these; archscan must too. Each functor reads a
// member (an offset, a shift, a scale), so a default-made or lost copy would change the results.
// The overloads that take no functor read their items through a transform_iterator whose functor
// is not const either. Every result is compared with thrust::cuda::par and a host reference.
// A last test checks that cuda::std::plus<>/equal_to<> and thrust::plus<>/equal_to<> give the same bits.

#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>

#include <cuda/std/functional>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

//! a (+) b = a + b + offset: associative (x -> x + offset maps it onto +), not const.
struct offset_plus {
  int offset;
  __host__ __device__ int operator()(int a, int b) { return a + b + offset; }
};

//! Keys are equal when they agree above their lowest `shift` bits: an equivalence, not const.
struct equal_above {
  int shift;
  __host__ __device__ bool operator()(int a, int b) { return (a >> shift) == (b >> shift); }
};

//! x -> scale * x + offset, not const.
struct affine {
  int scale;
  int offset;
  __host__ __device__ int operator()(int x) { return scale * x + offset; }
};

// Values the members take: none of them is what a default-made functor holds.
constexpr offset_plus op{3};
constexpr equal_above pred{1};
constexpr affine unary{-2, 5};
constexpr int init = 17;
constexpr cuda::std::plus<> sum{};
constexpr cuda::std::equal_to<> eq{};

std::vector<std::int64_t> sizes() {
  auto s = short_sizes();
  s.push_back(3'000'017);  // beyond one turing wave of resident tiles on any current GPU
  return s;
}

struct inputs {
  std::vector<int> keys, items, transformed;
  device_buffer<int> d_keys, d_items;
  explicit inputs(std::int64_t n)
      : keys(random_key_runs(n, static_cast<std::uint64_t>(n) + 3)),
        items(random_values<int>(n, static_cast<std::uint64_t>(n) + 4)),
        transformed(items.size()),
        d_keys(keys),
        d_items(items) {
    for (std::size_t i = 0; i < items.size(); ++i) transformed[i] = affine{unary}(items[i]);
  }
  auto transform_begin() const { return thrust::make_transform_iterator(d_items.get(), affine{unary}); }
  std::int64_t size() const { return d_items.size(); }
};

//! Runs `call(policy, out)` with the archscan policy and with thrust::cuda::par into poisoned outputs;
//! both must return out + n and agree with `ref`.
template <class Policy, class Call>
::testing::AssertionResult same_as_par(const std::string& what, const Policy& policy, const std::vector<int>& ref,
                                       Call call) {
  const auto n = static_cast<std::int64_t>(ref.size());
  device_buffer<int> ours(n), theirs(n);
  ours.poison();
  theirs.poison();
  if (call(policy, ours.get()) != ours.end()) return ::testing::AssertionFailure() << what << ": wrong end";
  if (call(thrust::cuda::par, theirs.get()) != theirs.end()) {
    return ::testing::AssertionFailure() << what << ": wrong end from thrust::cuda::par";
  }
  const auto from_par = theirs.to_host();  // fills agree's CUB slot too: this test runs no CUB
  return agree(what + " n=" + std::to_string(n), ours.to_host(), from_par, from_par, ref, {});
}

template <class C>
class FunctorTest : public ::testing::Test {};
TYPED_TEST_SUITE(FunctorTest, policy_cases, case_names);

TYPED_TEST(FunctorTest, ScanOverloads) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  for (const std::int64_t n : sizes()) {
    const inputs in(n);
    const auto t = in.transform_begin();
    const auto i = in.d_items.get();
    ASSERT_TRUE(same_as_par("inclusive_scan(f, l, o) over affine", policy,
                            host_scan(in.transformed, sum, false, false, 0),
                            [&](const auto& p, int* o) { return thrust::inclusive_scan(p, t, t + n, o); }));
    ASSERT_TRUE(same_as_par("inclusive_scan(op)", policy, host_scan(in.items, op, false, false, 0),
                            [&](const auto& p, int* o) { return thrust::inclusive_scan(p, i, i + n, o, op); }));
    ASSERT_TRUE(same_as_par("inclusive_scan(init, op)", policy, host_scan(in.items, op, false, true, init),
                            [&](const auto& p, int* o) { return thrust::inclusive_scan(p, i, i + n, o, init, op); }));
    ASSERT_TRUE(same_as_par("exclusive_scan(f, l, o) over affine", policy,
                            host_scan(in.transformed, sum, true, true, 0),
                            [&](const auto& p, int* o) { return thrust::exclusive_scan(p, t, t + n, o); }));
    ASSERT_TRUE(same_as_par("exclusive_scan(init) over affine", policy,
                            host_scan(in.transformed, sum, true, true, init),
                            [&](const auto& p, int* o) { return thrust::exclusive_scan(p, t, t + n, o, init); }));
    ASSERT_TRUE(same_as_par("exclusive_scan(init, op)", policy, host_scan(in.items, op, true, true, init),
                            [&](const auto& p, int* o) { return thrust::exclusive_scan(p, i, i + n, o, init, op); }));
  }
}

TYPED_TEST(FunctorTest, ScanByKeyOverloads) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  for (const std::int64_t n : sizes()) {
    const inputs in(n);
    const auto t   = in.transform_begin();
    const auto i   = in.d_items.get();
    const auto k   = in.d_keys.get();
    const auto& hk = in.keys;
    ASSERT_TRUE(same_as_par("inclusive_scan_by_key(k, kl, v, o) over affine", policy,
                            host_scan_by_key(hk, in.transformed, sum, eq, false, 0),
                            [&](const auto& p, int* o) { return thrust::inclusive_scan_by_key(p, k, k + n, t, o); }));
    ASSERT_TRUE(
        same_as_par("inclusive_scan_by_key(pred)", policy, host_scan_by_key(hk, in.items, sum, pred, false, 0),
                    [&](const auto& p, int* o) { return thrust::inclusive_scan_by_key(p, k, k + n, i, o, pred); }));
    ASSERT_TRUE(
        same_as_par("inclusive_scan_by_key(pred, op)", policy, host_scan_by_key(hk, in.items, op, pred, false, 0),
                    [&](const auto& p, int* o) { return thrust::inclusive_scan_by_key(p, k, k + n, i, o, pred, op); }));
    ASSERT_TRUE(same_as_par("exclusive_scan_by_key(k, kl, v, o) over affine", policy,
                            host_scan_by_key(hk, in.transformed, sum, eq, true, 0),
                            [&](const auto& p, int* o) { return thrust::exclusive_scan_by_key(p, k, k + n, t, o); }));
    ASSERT_TRUE(same_as_par(
        "exclusive_scan_by_key(init) over affine", policy, host_scan_by_key(hk, in.transformed, sum, eq, true, init),
        [&](const auto& p, int* o) { return thrust::exclusive_scan_by_key(p, k, k + n, t, o, init); }));
    ASSERT_TRUE(same_as_par(
        "exclusive_scan_by_key(init, pred)", policy, host_scan_by_key(hk, in.items, sum, pred, true, init),
        [&](const auto& p, int* o) { return thrust::exclusive_scan_by_key(p, k, k + n, i, o, init, pred); }));
    ASSERT_TRUE(same_as_par(
        "exclusive_scan_by_key(init, pred, op)", policy, host_scan_by_key(hk, in.items, op, pred, true, init),
        [&](const auto& p, int* o) { return thrust::exclusive_scan_by_key(p, k, k + n, i, o, init, pred, op); }));
  }
}

TYPED_TEST(FunctorTest, TransformScanOverloads) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  for (const std::int64_t n : sizes()) {
    const inputs in(n);
    const auto i = in.d_items.get();
    ASSERT_TRUE(same_as_par(
        "transform_inclusive_scan(unary, op)", policy, host_scan(in.transformed, op, false, false, 0),
        [&](const auto& p, int* o) { return thrust::transform_inclusive_scan(p, i, i + n, o, unary, op); }));
    ASSERT_TRUE(same_as_par(
        "transform_inclusive_scan(unary, init, op)", policy, host_scan(in.transformed, op, false, true, init),
        [&](const auto& p, int* o) { return thrust::transform_inclusive_scan(p, i, i + n, o, unary, init, op); }));
    ASSERT_TRUE(same_as_par(
        "transform_exclusive_scan(unary, init, op)", policy, host_scan(in.transformed, op, true, true, init),
        [&](const auto& p, int* o) { return thrust::transform_exclusive_scan(p, i, i + n, o, unary, init, op); }));
  }
}

// thrust::plus and thrust::equal_to are deprecated in newer CCCL (aliases of the cuda::std ones); this
// test names them on purpose, to check that code still using them gets the same results.
_CCCL_SUPPRESS_DEPRECATED_PUSH
using thrust_plus     = thrust::plus<>;
using thrust_equal_to = thrust::equal_to<>;
using thrust_negate   = thrust::negate<>;
_CCCL_SUPPRESS_DEPRECATED_POP

//! The results of every overload that takes a standard functor, one vector per call.
template <class Plus, class EqualTo, class Negate, class Policy>
std::vector<std::vector<int>> standard_functor_results(const Policy& policy, const inputs& in) {
  const std::int64_t n = in.size();
  const auto i         = in.d_items.get();
  const auto k         = in.d_keys.get();
  const Plus add{};
  const EqualTo same{};
  const Negate neg{};
  std::vector<std::vector<int>> results;
  device_buffer<int> out(n);
  auto run = [&](auto call) {
    out.poison();
    call(out.get());
    results.push_back(out.to_host());
  };
  run([&](int* o) { thrust::inclusive_scan(policy, i, i + n, o, add); });
  run([&](int* o) { thrust::inclusive_scan(policy, i, i + n, o, init, add); });
  run([&](int* o) { thrust::exclusive_scan(policy, i, i + n, o, init, add); });
  run([&](int* o) { thrust::inclusive_scan_by_key(policy, k, k + n, i, o, same); });
  run([&](int* o) { thrust::inclusive_scan_by_key(policy, k, k + n, i, o, same, add); });
  run([&](int* o) { thrust::exclusive_scan_by_key(policy, k, k + n, i, o, init, same); });
  run([&](int* o) { thrust::exclusive_scan_by_key(policy, k, k + n, i, o, init, same, add); });
  run([&](int* o) { thrust::transform_inclusive_scan(policy, i, i + n, o, neg, add); });
  run([&](int* o) { thrust::transform_inclusive_scan(policy, i, i + n, o, neg, init, add); });
  run([&](int* o) { thrust::transform_exclusive_scan(policy, i, i + n, o, neg, init, add); });
  return results;
}

TYPED_TEST(FunctorTest, CudaStdAndThrustFunctorsAgree) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  for (const std::int64_t n : sizes()) {
    const inputs in(n);
    std::vector<int> negated(in.items.size());
    for (std::size_t j = 0; j < negated.size(); ++j) negated[j] = -in.items[j];
    const auto inclusive_by_key              = host_scan_by_key(in.keys, in.items, sum, eq, false, 0);
    const auto exclusive_by_key              = host_scan_by_key(in.keys, in.items, sum, eq, true, init);
    const std::vector<std::vector<int>> refs = {host_scan(in.items, sum, false, false, 0),
                                                host_scan(in.items, sum, false, true, init),
                                                host_scan(in.items, sum, true, true, init),
                                                inclusive_by_key,
                                                inclusive_by_key,
                                                exclusive_by_key,
                                                exclusive_by_key,
                                                host_scan(negated, sum, false, false, 0),
                                                host_scan(negated, sum, false, true, init),
                                                host_scan(negated, sum, true, true, init)};
    const auto std_results =
        standard_functor_results<cuda::std::plus<>, cuda::std::equal_to<>, cuda::std::negate<>>(policy, in);
    const auto thrust_results = standard_functor_results<thrust_plus, thrust_equal_to, thrust_negate>(policy, in);
    ASSERT_EQ(std_results.size(), refs.size());
    for (std::size_t c = 0; c < refs.size(); ++c) {
      const std::string what = "call " + std::to_string(c) + " n=" + std::to_string(n) + " (cuda::std vs thrust::)";
      ASSERT_TRUE(agree(what, std_results[c], thrust_results[c], thrust_results[c], refs[c], {}));
    }
  }
}

}  // namespace
