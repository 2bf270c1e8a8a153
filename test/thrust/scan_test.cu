// The scan suite's cases beyond the typed ones (scan_<family>.cu, generated from scan_family.cu.in):
// native's large and bulk-stored tiles, at sizes past test_sizes(), against cub::DeviceScan,
// thrust::cuda::par and a sequential host reference (scan.cuh).

#include <cstdint>
#include <vector>

#include "thrust/scan_oracle.cuh"

namespace {

using namespace archscan::test;
using namespace archscan::test::scan_suite;

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
  using policy                          = archscan::policy<early_large_tiles>;
  using large                           = archscan::detail::large_tiles<early_large_tiles::row_16>;
  const std::int64_t tile               = std::int64_t{large::block_threads} * large::items_per_thread;
  const std::vector<std::int64_t> sizes = {5 * tile,      5 * tile - 3, 40 * tile,
                                           40 * tile + 1, 300 * tile,   300 * tile + 17};
  for (const scan_form f : {scan_form::inclusive, scan_form::inclusive_init, scan_form::exclusive_init}) {
    run_form<scan_case<policy, mat2, mat2_mul>>(f, sizes);
  }
}

}  // namespace
