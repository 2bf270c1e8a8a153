// inclusive_scan and exclusive_scan with every policy, value type and operator, at every test size,
// against cub::DeviceScan, thrust::cuda::par and a sequential host reference.

#include <vector>

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/cub.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

template <class C>
class ScanTest : public ::testing::Test {};
TYPED_TEST_SUITE(ScanTest, scan_cases, case_names);

template <class C>
void run_form(scan_form f, const std::vector<std::int64_t>& sizes = test_sizes()) {
  using T  = typename C::value;
  using Op = typename C::op;
  const typename C::policy policy{};
  for (const std::int64_t n : sizes) {
    const auto items = random_values<T>(n, static_cast<std::uint64_t>(n) + 7 * static_cast<int>(f));
    const T init     = random_values<T>(1, static_cast<std::uint64_t>(n) + 99)[0];
    device_buffer<T> in(items), out(n), cub_out(n), par_out(n);
    out.poison();
    cub_out.poison();
    par_out.poison();
    ARCHSCAN_CUDA_OK(cub_scan(f, in.get(), cub_out.get(), Op{}, init, n));

    T* end = nullptr;
    if (f == scan_form::inclusive) {
      end = thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), Op{});
      thrust::inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), Op{});
    } else if (f == scan_form::inclusive_init) {
      end = thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), init, Op{});
      thrust::inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), init, Op{});
    } else {
      end = thrust::exclusive_scan(policy, in.begin(), in.end(), out.begin(), init, Op{});
      thrust::exclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), init, Op{});
    }
    ASSERT_EQ(end, out.end()) << "n=" << n;
    ASSERT_TRUE((scan_results_agree<T, Op>)("n=" + std::to_string(n), f, items, init, out, cub_out, par_out));
  }
}

TYPED_TEST(ScanTest, InclusiveScan) {
  ARCHSCAN_REQUIRE_GPU();
  run_form<TypeParam>(scan_form::inclusive);
}

TYPED_TEST(ScanTest, InclusiveScanWithInit) {
  ARCHSCAN_REQUIRE_GPU();
  run_form<TypeParam>(scan_form::inclusive_init);
}

TYPED_TEST(ScanTest, ExclusiveScan) {
  ARCHSCAN_REQUIRE_GPU();
  run_form<TypeParam>(scan_form::exclusive_init);
}

//! native's large tiles (a row's third tile, taken from its large_from_items up: tuning/shape.cuh) lie
//! beyond test_sizes(): sizes_around_large_tiles, in every form.

TEST(NativeLargeTiles, AroundTheirThreshold) {
  ARCHSCAN_REQUIRE_GPU();
  using policy       = archscan::policy<archscan::native_tuning>;
  const auto eight   = sizes_around_large_tiles<archscan::native_tuning::row_8>();
  const auto sixteen = sizes_around_large_tiles<archscan::native_tuning::row_16>();
  for (const scan_form f : {scan_form::inclusive, scan_form::inclusive_init, scan_form::exclusive_init}) {
    run_form<scan_case<policy, std::int64_t, thrust::plus<>>>(f, eight);
    run_form<scan_case<policy, double, thrust::plus<>>>(f, eight);
    run_form<scan_case<policy, mat2, mat2_mul>>(f, sixteen);  // 16 bytes, not commutative
  }
}

//! native's bulk stores (sm_90 on: tuning/native.cuh's bulk_store_min_bytes) write the large tiles
//! of 16-byte items, which the shipped row takes from 2^22 items only: too large for the sanitizers
//! (tools/sanitize.sh leaves *LargeTiles* out). A tuning whose row_16 takes them from 2^14 items
//! runs the same tiles over a cluster (5 tiles), a wave (40) and a look-back (300), each with a
//! whole last tile (bulk stores throughout) and a partial one (stored item by item).
struct early_large_tiles : archscan::native_tuning {
  struct row_16 : archscan::native_tuning::row_16 {
    static constexpr std::int64_t large_from_items = std::int64_t{1} << 14;
  };
};

TEST(NativeBulkStores, SixteenByteItemsAtSmallSizes) {
  ARCHSCAN_REQUIRE_GPU();
  using policy = archscan::policy<early_large_tiles>;
  using large  = archscan::detail::large_tiles<early_large_tiles::row_16>;
  const std::int64_t tile = std::int64_t{large::block_threads} * large::items_per_thread;
  const std::vector<std::int64_t> sizes = {5 * tile, 5 * tile - 3, 40 * tile, 40 * tile + 1, 300 * tile, 300 * tile + 17};
  for (const scan_form f : {scan_form::inclusive, scan_form::inclusive_init, scan_form::exclusive_init}) {
    run_form<scan_case<policy, mat2, mat2_mul>>(f, sizes);
  }
}

}  // namespace
