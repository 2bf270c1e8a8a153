// One cluster (tile/cluster.cuh): problems of at most 16 tiles run as one thread block cluster on
// devices that have clusters, the aggregates crossing in shared memory. Checked against a host
// reference and against the wave and the look-back over the same tiles (the same bits), at every
// cluster size from 2 to 16 and past it (17 tiles: a wave), each with the last tile full, one item
// short, or holding a single item; with a non-commutative type, a seed and in place; with starved
// tiles, which the others wait for at the cluster barrier; without temporary storage (a counting
// allocator); with packed one- and two-byte items and by key; and planned for every value width (the
// cluster's slots fit beside each tile). Skipped where the device has no clusters (compute
// capability below 9.0): there the dispatch never takes the route.

#include <cstdint>
#include <numeric>
#include <vector>

#include <thrust/device_allocator.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/values.cuh"

namespace {

using archscan::test::bytes_of;
using archscan::test::device_buffer;
using archscan::test::expect_equal;
using archscan::test::mat2;
using archscan::test::mat2_mul;
using archscan::test::random_values;

//! native's full tiles at every size (no small tiles), so that n / tile is the cluster's size.
struct cluster_tuning : archscan::native_tuning {
  static constexpr int small_tiles_max = 0;
};
//! The same tiles as a wave, and over the look-back.
struct wave_tuning : cluster_tuning {
  static constexpr int cluster_max_tiles = 0;
};
struct lookback_tuning : wave_tuning {
  static constexpr int wave_max_tiles = 0;
};
//! Every 3rd tile sleeps 100 us before writing its aggregate: the others wait at the cluster barrier.
struct starve_hooks {
  static constexpr int starve_every   = 3;
  static constexpr unsigned starve_ns = 100000;
};
using starving_cluster_tuning = archscan::with_hooks<cluster_tuning, starve_hooks>;

//! Compiled into this program as archscan's kernels are: its PTX version says whether the program
//! holds code for sm_90 or newer, which the cluster route needs.
__global__ void empty_kernel() {}

#define ARCHSCAN_REQUIRE_CLUSTERS()                                                                \
  do {                                                                                             \
    int device = 0, major = 0;                                                                     \
    ARCHSCAN_CUDA_OK(cudaGetDevice(&device));                                                      \
    ARCHSCAN_CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));   \
    if (major < 9) GTEST_SKIP() << "no thread block clusters below compute capability 9.0";        \
    cudaFuncAttributes attributes{};                                                               \
    ARCHSCAN_CUDA_OK(cudaFuncGetAttributes(&attributes, empty_kernel));                            \
    if (attributes.ptxVersion < 90) GTEST_SKIP() << "this build holds no code for sm_90 or newer"; \
  } while (0)

//! Tile counts 2..17, each three ways: the last tile full, one item short, or a single item.
std::vector<std::int64_t> sizes(std::int64_t tile) {
  std::vector<std::int64_t> counts(16);
  std::iota(counts.begin(), counts.end(), std::int64_t{2});
  return archscan::test::sizes_at_tile_counts(tile, counts);
}

//! Inclusive and seeded exclusive sums of T with `Tuning`, wrapping, against the host.
template <class Tuning, class T = int>
void check_sums(const std::vector<std::int64_t>& ns) {
  const archscan::policy<Tuning> cluster{};
  const ::cuda::std::plus<T> plus{};
  for (const std::int64_t n : ns) {
    const auto h = random_values<T>(n, static_cast<std::uint64_t>(n));
    device_buffer<T> d_in(h), d_out(n);
    std::vector<T> expect(h.size());
    std::inclusive_scan(h.begin(), h.end(), expect.begin(), plus);
    d_out.poison();
    thrust::inclusive_scan(cluster, d_in.begin(), d_in.end(), d_out.begin(), plus);
    expect_equal(d_out, expect, "inclusive", n);
    std::exclusive_scan(h.begin(), h.end(), expect.begin(), T{17}, plus);
    d_out.poison();
    thrust::exclusive_scan(cluster, d_in.begin(), d_in.end(), d_out.begin(), T{17}, plus);
    expect_equal(d_out, expect, "exclusive", n);
  }
}

TEST(NativeCluster, Int32SumsAtEveryClusterSize) {
  ARCHSCAN_REQUIRE_GPU();
  ARCHSCAN_REQUIRE_CLUSTERS();
  check_sums<cluster_tuning>(sizes(archscan::test::row_tile_items<cluster_tuning, int>()));
}

TEST(NativeCluster, PackedNarrowSums) {
  ARCHSCAN_REQUIRE_GPU();
  ARCHSCAN_REQUIRE_CLUSTERS();
  // One- and two-byte items: their tiles keep them packed in words.
  using archscan::test::row_tile_items;
  using archscan::test::sizes_at_tile_counts;
  const std::vector<std::int64_t> tiles{2, 9, 16};
  check_sums<cluster_tuning, std::int8_t>(sizes_at_tile_counts(row_tile_items<cluster_tuning, std::int8_t>(), tiles));
  check_sums<cluster_tuning, std::int16_t>(sizes_at_tile_counts(row_tile_items<cluster_tuning, std::int16_t>(), tiles));
}

//! By-key scans in one cluster (the by-key tiles' own size): int32 sums against the host, float sums
//! bit for bit against the wave and the look-back over the same tiles.
TEST(NativeCluster, ByKeyScans) {
  ARCHSCAN_REQUIRE_GPU();
  ARCHSCAN_REQUIRE_CLUSTERS();
  using keyed_row         = cluster_tuning::keyed_rows::row_4;
  const std::int64_t tile = std::int64_t{keyed_row::block_threads} * keyed_row::items_per_thread;
  for (const std::int64_t n : archscan::test::sizes_at_tile_counts(tile, {2, 9, 16})) {
    const auto keys = archscan::test::random_key_runs(n, static_cast<std::uint64_t>(n));
    const auto hi   = random_values<int>(n, static_cast<std::uint64_t>(n) + 1);
    const auto hf   = random_values<float>(n, static_cast<std::uint64_t>(n) + 2);
    device_buffer<int> d_keys(keys), d_ints(hi), d_out(n);
    d_out.poison();
    thrust::inclusive_scan_by_key(archscan::policy<cluster_tuning>{}, d_keys.begin(), d_keys.end(), d_ints.begin(),
                                  d_out.begin());
    expect_equal(
        d_out,
        archscan::test::host_scan_by_key(keys, hi, ::cuda::std::plus<int>{}, ::cuda::std::equal_to<int>{}, false, 0),
        "by key, int32", n);
    device_buffer<float> d_floats(hf), fc(n), fw(n), fl(n);
    for (auto* b : {&fc, &fw, &fl}) b->poison();
    thrust::inclusive_scan_by_key(archscan::policy<cluster_tuning>{}, d_keys.begin(), d_keys.end(), d_floats.begin(),
                                  fc.begin());
    thrust::inclusive_scan_by_key(archscan::policy<wave_tuning>{}, d_keys.begin(), d_keys.end(), d_floats.begin(),
                                  fw.begin());
    thrust::inclusive_scan_by_key(archscan::policy<lookback_tuning>{}, d_keys.begin(), d_keys.end(), d_floats.begin(),
                                  fl.begin());
    const auto c = bytes_of(fc.to_host());
    EXPECT_EQ(c, bytes_of(fw.to_host())) << "by key, float, wave, n = " << n;
    EXPECT_EQ(c, bytes_of(fl.to_host())) << "by key, float, look-back, n = " << n;
  }
}

TEST(NativeCluster, NonCommutativeSeededInPlace) {
  ARCHSCAN_REQUIRE_GPU();
  ARCHSCAN_REQUIRE_CLUSTERS();
  const archscan::policy<cluster_tuning> cluster{};
  const std::int64_t tile = archscan::test::row_tile_items<cluster_tuning, mat2>();
  for (const std::int64_t tiles : {2, 9, 16}) {
    const std::int64_t n = tiles * tile - 5;
    const auto h         = random_values<mat2>(n, static_cast<std::uint64_t>(tiles));
    const mat2 seed{2u, 1u, 7u, 3u};
    std::vector<mat2> expect(h.size());
    mat2 run = seed;
    for (std::size_t i = 0; i < h.size(); ++i) expect[i] = run = mat2_mul{}(run, h[i]);
    device_buffer<mat2> d(h);
    thrust::inclusive_scan(cluster, d.begin(), d.end(), d.begin(), seed, mat2_mul{});
    expect_equal(d, expect, "seeded, in place", n);
  }
}

TEST(NativeCluster, StarvedTilesWaitAtTheBarrier) {
  ARCHSCAN_REQUIRE_GPU();
  ARCHSCAN_REQUIRE_CLUSTERS();
  const std::int64_t tile = archscan::test::row_tile_items<starving_cluster_tuning, int>();
  check_sums<starving_cluster_tuning>({2 * tile, 9 * tile + 123, 16 * tile});  // 16 tiles: 5 starve
}

//! Float and double sums: the cluster folds the aggregates in the wave's and the look-back's order.
TEST(NativeCluster, TheSameBitsAsTheWaveAndTheLookback) {
  ARCHSCAN_REQUIRE_GPU();
  ARCHSCAN_REQUIRE_CLUSTERS();
  for (const std::int64_t tiles : {2, 7, 16}) {
    const std::int64_t nf = tiles * archscan::test::row_tile_items<cluster_tuning, float>() - 3;
    const std::int64_t nd = tiles * archscan::test::row_tile_items<cluster_tuning, double>() - 3;
    const auto hf         = random_values<float>(nf, static_cast<std::uint64_t>(tiles));
    const auto hd         = random_values<double>(nd, static_cast<std::uint64_t>(tiles) + 1);
    device_buffer<float> fin(hf), fc(nf), fw(nf), fl(nf);
    device_buffer<double> din(hd), dc(nd), dw(nd), dl(nd);
    for (auto* b : {&fc, &fw, &fl}) b->poison();
    for (auto* b : {&dc, &dw, &dl}) b->poison();
    thrust::inclusive_scan(archscan::policy<cluster_tuning>{}, fin.begin(), fin.end(), fc.begin());
    thrust::inclusive_scan(archscan::policy<wave_tuning>{}, fin.begin(), fin.end(), fw.begin());
    thrust::inclusive_scan(archscan::policy<lookback_tuning>{}, fin.begin(), fin.end(), fl.begin());
    thrust::exclusive_scan(archscan::policy<cluster_tuning>{}, din.begin(), din.end(), dc.begin(), 0.5);
    thrust::exclusive_scan(archscan::policy<wave_tuning>{}, din.begin(), din.end(), dw.begin(), 0.5);
    thrust::exclusive_scan(archscan::policy<lookback_tuning>{}, din.begin(), din.end(), dl.begin(), 0.5);
    const auto f = bytes_of(fc.to_host());
    const auto d = bytes_of(dc.to_host());
    EXPECT_EQ(f, bytes_of(fw.to_host())) << "float, wave, " << tiles << " tiles";
    EXPECT_EQ(f, bytes_of(fl.to_host())) << "float, look-back, " << tiles << " tiles";
    EXPECT_EQ(d, bytes_of(dw.to_host())) << "double, wave, " << tiles << " tiles";
    EXPECT_EQ(d, bytes_of(dl.to_host())) << "double, look-back, " << tiles << " tiles";
  }
}

//! The shipped tuning plans one cluster for 2 and 8 full tiles (8: the portable size) of every value
//! width: the cluster's slots fit beside each of these tiles in shared memory, so none falls back to
//! a wave.
template <class T, class Op = ::cuda::std::plus<T>>
void expect_cluster_planned(Op op = {}) {
  const std::int64_t tile = archscan::test::row_tile_items<cluster_tuning, T>();
  for (const std::int64_t tiles : {2, 8}) {
    const std::int64_t n = tiles * tile;
    device_buffer<T> d_in(n), d_out(n);
    const auto plan = archscan::test::plan_of<cluster_tuning>(d_in.get(), d_out.get(), n, op);
    EXPECT_EQ(plan.route, archscan::dispatch::single_pass_route::cluster)
        << sizeof(T) << "-byte items, " << tiles << " tiles";
    EXPECT_EQ(plan.tiles.tiles, tiles) << sizeof(T) << "-byte items";
  }
}

TEST(NativeCluster, EveryWidthPlansOneCluster) {
  ARCHSCAN_REQUIRE_GPU();
  ARCHSCAN_REQUIRE_CLUSTERS();
  expect_cluster_planned<std::int8_t>();
  expect_cluster_planned<std::int16_t>();
  expect_cluster_planned<int>();
  expect_cluster_planned<double>();
  expect_cluster_planned<mat2>(mat2_mul{});
}

//! A device allocator that counts its allocations.
struct counting_allocator : thrust::device_allocator<char> {
  int* allocations;
  explicit counting_allocator(int* a) : allocations(a) {}
  thrust::device_ptr<char> allocate(std::size_t n) {
    ++*allocations;
    return thrust::device_allocator<char>::allocate(n);
  }
};

//! The promise of the native policy's documentation (policy.cuh): a cluster takes no temporary
//! storage, up to 8 tiles (the portable cluster size) wherever clusters run; 16 tiles where the
//! device allows clusters that large (recorded: an H100 does); 17 tiles, a wave, take some (which
//! shows the count works).
TEST(NativeCluster, NoTemporaryStorage) {
  ARCHSCAN_REQUIRE_GPU();
  ARCHSCAN_REQUIRE_CLUSTERS();
  const std::int64_t tile = archscan::test::row_tile_items<cluster_tuning, int>();
  for (const std::int64_t tiles : {2, 8, 16, 17}) {
    const std::int64_t n = tiles * tile;
    const auto h         = random_values<int>(n, static_cast<std::uint64_t>(tiles) + 5);
    device_buffer<int> d_in(h), d_out(n);
    std::vector<int> expect(h.size());
    std::inclusive_scan(h.begin(), h.end(), expect.begin());
    int allocations = 0;
    counting_allocator alloc(&allocations);
    d_out.poison();
    thrust::inclusive_scan(archscan::policy<cluster_tuning>{}(alloc), d_in.begin(), d_in.end(), d_out.begin());
    expect_equal(d_out, expect, "inclusive, user allocator", n);
    if (tiles <= 8) {
      EXPECT_EQ(allocations, 0) << tiles << " tiles: one cluster";
    } else if (tiles == 16) {
      ::testing::Test::RecordProperty("sixteen_tiles_allocations", allocations);
    } else {
      EXPECT_GE(allocations, 1) << tiles << " tiles: a wave's aggregates";
    }
  }
}

}  // namespace
