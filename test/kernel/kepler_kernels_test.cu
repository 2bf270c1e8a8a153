// kernel/kepler_kernels.cuh: the kepler family's kernel, one striped tile a block with its storage in
// static shared memory, launched as the dispatch launches it (a block per tile, the row's threads, the
// tile states zeroed first). On the GPU: its launch bounds are the row's threads and its static shared
// memory holds the tile's storage; at the row's full and small tiles it gives the host's inclusive
// int32 scan, one tile (no states) to many, partial last tiles included.

#include <cstdint>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/detail/callable.cuh>
#include <archscan/kernel/kepler_kernels.cuh>
#include <archscan/tuning/kepler.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <cuda/std/functional>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/tile_states.cuh"
#include "support/values.cuh"

namespace kepler_kernels_test {

namespace detail = archscan::detail;
namespace kernel = archscan::kernel;
using archscan::kepler_tuning;
using archscan::test::device_buffer;

using problem = detail::scan_problem<const int*, int*, int, detail::callable<::cuda::std::plus<int>>,
                                     detail::identity_finish, detail::scan_kind::inclusive, false>;
using row     = kepler_tuning::row_4;
template <int Items>
using config = archscan::striped_config<kepler_tuning, row, Items>;

template <class Config>
void expect_bounds() {
  cudaFuncAttributes a{};
  ASSERT_EQ(cudaFuncGetAttributes(&a, kernel::kepler_chained_scan<Config, problem>), cudaSuccess);
  EXPECT_EQ(a.maxThreadsPerBlock, Config::threads);
  EXPECT_GE(a.sharedSizeBytes, sizeof(typename kernel::kepler_tile<Config, problem>::storage));
}

TEST(KeplerKernels, LaunchBoundsAndStaticSharedMemory) {
  ARCHSCAN_REQUIRE_GPU();
  expect_bounds<config<row::items_per_thread>>();
  expect_bounds<config<row::small_items_per_thread>>();
}

template <class Config>
void check_scans() {
  using tile                  = kernel::kepler_tile<Config, problem>;
  using state_t               = typename tile::state_t;
  constexpr std::int64_t size = tile::tile_items;
  for (const std::int64_t n : {std::int64_t{1}, size - 1, size, size + 1, 9 * size + 3}) {
    const std::int64_t tiles = (n + size - 1) / size;
    const auto h             = archscan::test::random_values<int>(n, static_cast<std::uint64_t>(n));
    device_buffer<int> d_in(h), d_out(n);
    const archscan::test::owned_tile_states<state_t, int> states(tiles);
    const state_t st = tiles > 1 ? states.bound() : state_t{};
    d_out.poison();
    kernel::kepler_chained_scan<Config, problem><<<static_cast<unsigned>(tiles), Config::threads>>>(
        problem{d_in.get(), d_out.get(), n, {}, {}, 0, {}}, st, tiles, 0);
    ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> want(h.size());
    std::inclusive_scan(h.begin(), h.end(), want.begin());
    EXPECT_EQ(d_out.to_host(), want) << Config::items_per_thread << " items a thread, n = " << n;
  }
}

TEST(KeplerKernels, FullAndSmallTilesScan) {
  ARCHSCAN_REQUIRE_GPU();
  check_scans<config<row::items_per_thread>>();
  check_scans<config<row::small_items_per_thread>>();
}

}  // namespace kepler_kernels_test
