// transform_inclusive_scan (with and without init) and transform_exclusive_scan with every policy and
// value type, against thrust::cuda::par, CUB over a transform iterator, and a host reference.

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform_scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/cub.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

//! A transform that changes every value and keeps the type: x -> x op x for numbers, squares for mat2.
template <class T, class Op>
struct twice {
  __host__ __device__ T operator()(const T& x) const { return static_cast<T>(Op{}(x, x)); }
};

template <class C>
class TransformScanTest : public ::testing::Test {};
TYPED_TEST_SUITE(TransformScanTest, scan_cases, case_names);

template <class C>
void run(scan_form f) {
  using T  = typename C::value;
  using Op = typename C::op;
  using U  = twice<T, Op>;
  const typename C::policy policy{};
  for (const std::int64_t n : short_sizes()) {
    const auto items = random_values<T>(n, static_cast<std::uint64_t>(n) + 31);
    const T init     = random_values<T>(1, static_cast<std::uint64_t>(n) + 32)[0];
    std::vector<T> transformed(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) transformed[i] = U{}(items[i]);
    device_buffer<T> in(items), out(n), cub_out(n), par_out(n);
    out.poison();
    cub_out.poison();
    par_out.poison();
    ARCHSCAN_CUDA_OK(cub_scan(f, thrust::make_transform_iterator(in.get(), U{}), cub_out.get(), Op{}, init, n));

    T* end = nullptr;
    if (f == scan_form::inclusive) {
      end = thrust::transform_inclusive_scan(policy, in.begin(), in.end(), out.begin(), U{}, Op{});
      thrust::transform_inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), U{}, Op{});
    } else if (f == scan_form::inclusive_init) {
      end = thrust::transform_inclusive_scan(policy, in.begin(), in.end(), out.begin(), U{}, init, Op{});
      thrust::transform_inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), U{}, init, Op{});
    } else {
      end = thrust::transform_exclusive_scan(policy, in.begin(), in.end(), out.begin(), U{}, init, Op{});
      thrust::transform_exclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), U{}, init, Op{});
    }
    ASSERT_EQ(end, out.end());
    ASSERT_TRUE((scan_results_agree<T, Op>)("n=" + std::to_string(n), f, transformed, init, out, cub_out, par_out));
  }
}

TYPED_TEST(TransformScanTest, Inclusive) {
  ARCHSCAN_REQUIRE_GPU();
  run<TypeParam>(scan_form::inclusive);
}
TYPED_TEST(TransformScanTest, InclusiveWithInit) {
  ARCHSCAN_REQUIRE_GPU();
  run<TypeParam>(scan_form::inclusive_init);
}
TYPED_TEST(TransformScanTest, Exclusive) {
  ARCHSCAN_REQUIRE_GPU();
  run<TypeParam>(scan_form::exclusive_init);
}

}  // namespace
