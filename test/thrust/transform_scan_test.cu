// transform_inclusive_scan (with and without init) and transform_exclusive_scan with every policy and
// value type, against thrust::cuda::par, CUB over a transform iterator, and a host reference.

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform_scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
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

enum class form { inclusive, inclusive_init, exclusive_init };

template <class C>
void run(form f) {
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

    auto tin               = thrust::make_transform_iterator(in.get(), U{});
    std::size_t temp_bytes = 0;
    void* d_temp           = nullptr;
    auto cub_call          = [&] {
      if (f == form::inclusive) return cub::DeviceScan::InclusiveScan(d_temp, temp_bytes, tin, cub_out.get(), Op{}, n);
      if (f == form::inclusive_init) {
        return cub::DeviceScan::InclusiveScanInit(d_temp, temp_bytes, tin, cub_out.get(), Op{}, init, n);
      }
      return cub::DeviceScan::ExclusiveScan(d_temp, temp_bytes, tin, cub_out.get(), Op{}, init, n);
    };
    ARCHSCAN_CUDA_OK(cub_call());
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(temp_bytes));
    d_temp = temp.get();
    ARCHSCAN_CUDA_OK(cub_call());

    T* end = nullptr;
    if (f == form::inclusive) {
      end = thrust::transform_inclusive_scan(policy, in.begin(), in.end(), out.begin(), U{}, Op{});
      thrust::transform_inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), U{}, Op{});
    } else if (f == form::inclusive_init) {
      end = thrust::transform_inclusive_scan(policy, in.begin(), in.end(), out.begin(), U{}, init, Op{});
      thrust::transform_inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), U{}, init, Op{});
    } else {
      end = thrust::transform_exclusive_scan(policy, in.begin(), in.end(), out.begin(), U{}, init, Op{});
      thrust::transform_exclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), U{}, init, Op{});
    }
    ASSERT_EQ(end, out.end());
    const bool has_init = f != form::inclusive;
    const auto ref      = host_scan(transformed, Op{}, f == form::exclusive_init, has_init, init);
    double init_mag     = 0;
    if constexpr (std::is_arithmetic_v<T>) init_mag = std::fabs(static_cast<double>(init));
    ASSERT_TRUE(agree("n=" + std::to_string(n), out.to_host(), cub_out.to_host(), par_out.to_host(), ref,
                      magnitude_prefix(transformed, init_mag)));
  }
}

TYPED_TEST(TransformScanTest, Inclusive) {
  ARCHSCAN_REQUIRE_GPU();
  run<TypeParam>(form::inclusive);
}
TYPED_TEST(TransformScanTest, InclusiveWithInit) {
  ARCHSCAN_REQUIRE_GPU();
  run<TypeParam>(form::inclusive_init);
}
TYPED_TEST(TransformScanTest, Exclusive) {
  ARCHSCAN_REQUIRE_GPU();
  run<TypeParam>(form::exclusive_init);
}

}  // namespace
