// inclusive_scan and exclusive_scan with every policy, value type and operator, at every test size,
// against cub::DeviceScan, thrust::cuda::par and a sequential host reference.

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

template <class C>
class ScanTest : public ::testing::Test {};
TYPED_TEST_SUITE(ScanTest, scan_cases, case_names);

enum class form { inclusive, inclusive_init, exclusive_init };

template <class C>
void run_form(form f) {
  using T  = typename C::value;
  using Op = typename C::op;
  const typename C::policy policy{};
  for (const std::int64_t n : test_sizes()) {
    const auto items = random_values<T>(n, static_cast<std::uint64_t>(n) + 7 * static_cast<int>(f));
    const T init     = random_values<T>(1, static_cast<std::uint64_t>(n) + 99)[0];
    device_buffer<T> in(items), out(n), cub_out(n), par_out(n);
    out.poison();
    cub_out.poison();
    par_out.poison();

    std::size_t temp_bytes = 0;
    void* d_temp           = nullptr;
    auto cub_call          = [&] {
      if (f == form::inclusive) return cub::DeviceScan::InclusiveScan(d_temp, temp_bytes, in.get(), cub_out.get(), Op{}, n);
      if (f == form::inclusive_init) {
        return cub::DeviceScan::InclusiveScanInit(d_temp, temp_bytes, in.get(), cub_out.get(), Op{}, init, n);
      }
      return cub::DeviceScan::ExclusiveScan(d_temp, temp_bytes, in.get(), cub_out.get(), Op{}, init, n);
    };
    ARCHSCAN_CUDA_OK(cub_call());
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(temp_bytes));
    d_temp = temp.get();
    ARCHSCAN_CUDA_OK(cub_call());

    T* end = nullptr;
    if (f == form::inclusive) {
      end = thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), Op{});
      thrust::inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), Op{});
    } else if (f == form::inclusive_init) {
      end = thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), init, Op{});
      thrust::inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), init, Op{});
    } else {
      end = thrust::exclusive_scan(policy, in.begin(), in.end(), out.begin(), init, Op{});
      thrust::exclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), init, Op{});
    }
    ASSERT_EQ(end, out.end()) << "n=" << n;
    const bool has_init = f != form::inclusive;
    const auto ref      = host_scan(items, Op{}, f == form::exclusive_init, has_init, init);
    double init_mag     = 0;
    if constexpr (std::is_arithmetic_v<T>) init_mag = has_init ? std::fabs(static_cast<double>(init)) : 0.0;
    ASSERT_TRUE(agree("n=" + std::to_string(n), out.to_host(), cub_out.to_host(), par_out.to_host(), ref,
                      magnitude_prefix(items, init_mag)));
  }
}

TYPED_TEST(ScanTest, InclusiveScan) {
  ARCHSCAN_REQUIRE_GPU();
  run_form<TypeParam>(form::inclusive);
}

TYPED_TEST(ScanTest, InclusiveScanWithInit) {
  ARCHSCAN_REQUIRE_GPU();
  run_form<TypeParam>(form::inclusive_init);
}

TYPED_TEST(ScanTest, ExclusiveScan) {
  ARCHSCAN_REQUIRE_GPU();
  run_form<TypeParam>(form::exclusive_init);
}

}  // namespace
