// kernel/transposed_kernels.cuh: turing's and native's kernels over the transposed tile, each placing
// its shared memory and calling the tile. Host: native's kernels fold in the look-back's order unless
// the tree_fold hook asks otherwise, and take the look-back's block minimum where they run it. On the
// GPU, int32 sums against the host, launched as the dispatch launches them: turing's single tile,
// look-back over tile states and wave (cooperatively); native's routed kernel on its single tiles of
// few items (a smaller tile than the kernel's own), the reset of its states and the look-back; and the
// staged look-back's persistent blocks (more tiles than blocks), with their launch bounds (the
// workers and the look-back warp). Sizes: one item, a tile +-1, many tiles with a partial last one.

#include <cstdint>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/kernel/transposed_kernels.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <archscan/tuning/turing.cuh>
#include <cuda/std/functional>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/tile_states.cuh"
#include "support/values.cuh"

namespace transposed_kernels_test {

namespace detail = archscan::detail;
namespace kernel = archscan::kernel;
namespace tile   = archscan::tile;
using archscan::native_tuning;
using archscan::turing_tuning;
using archscan::test::device_buffer;
using archscan::test::owned_tile_states;

using problem = detail::scan_problem<const int*, int*, int, detail::callable<::cuda::std::plus<int>>,
                                     detail::identity_finish, detail::scan_kind::inclusive, false>;
//! turing's int32 row at its small tiles; native's at its full tiles.
using turing_config =
    archscan::tile_config<turing_tuning, turing_tuning::row_4, turing_tuning::row_4::small_items_per_thread>;
using native_config =
    archscan::tile_config<native_tuning, native_tuning::row_4, native_tuning::row_4::items_per_thread>;
using turing_tile                       = kernel::turing_tile<turing_config, problem>;
using native_tile                       = kernel::native_tile<native_config, problem>;
using staged_tile                       = kernel::native_staged_tile<native_config, problem>;
constexpr tile::route_set native_routes = tile::route::single | tile::route::lookback | tile::route::reset;
constexpr unsigned singles              = 1u;  // the row's smallest single tile
using native_kernel_args                = tile::routed_launch<native_tile::state_t, int>;

struct tree_fold_hooks {
  static constexpr bool tree_fold = true;
};

TEST(TransposedKernelsChoices, OrderedFoldAndTheLookbacksBlocks) {
  static_assert(kernel::native_ordered_fold<archscan::no_hooks>);
  static_assert(!kernel::native_ordered_fold<tree_fold_hooks>);
  static_assert(kernel::native_min_blocks<native_config, native_routes> == native_config::lookback_min_blocks_per_sm);
  static_assert(kernel::native_min_blocks<native_config, tile::route::single | tile::route::wave> ==
                native_config::min_blocks_per_sm);
  SUCCEED();
}

std::vector<int> host_sums(const std::vector<int>& h) {
  std::vector<int> r(h.size());
  std::inclusive_scan(h.begin(), h.end(), r.begin());
  return r;
}

TEST(TransposedKernels, TuringSingleLookbackAndWave) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr std::int64_t size = turing_tile::tile_items;
  const int threads           = turing_config::threads;
  const int smem              = turing_tile::smem_bytes;
  for (const std::int64_t n : {std::int64_t{1}, size - 1, size, size + 1, 5 * size - 1, 40 * size + 3}) {
    const std::int64_t tiles = (n + size - 1) / size;
    const auto h             = archscan::test::random_values<int>(n, static_cast<std::uint64_t>(n));
    device_buffer<int> d_in(h), d_out(n);
    problem p{d_in.get(), d_out.get(), n, {}, {}, 0, {}};
    d_out.poison();
    if (tiles == 1) {
      kernel::turing_scan_single<turing_config, problem><<<1, threads, smem>>>(p);
    } else {
      owned_tile_states<turing_tile::state_t, int> s(tile::segment_lookback_states(tiles));
      kernel::turing_scan_tiles<turing_config, problem>
          <<<static_cast<unsigned>(tiles), threads, smem>>>(p, s.bound(), tiles, 0);
      ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    }
    EXPECT_EQ(d_out.to_host(), host_sums(h)) << "n = " << n << (tiles == 1 ? ", single" : ", look-back");
    if (tiles == 1 || tiles > 8) continue;  // a wave of at most 8 tiles: resident on every device
    device_buffer<int> d_aggregates(tiles);
    int* aggregates = d_aggregates.get();
    void* args[]    = {&p, &aggregates};
    d_out.poison();
    ARCHSCAN_CUDA_OK(
        cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&kernel::turing_scan_wave<turing_config, problem>),
                                    dim3(static_cast<unsigned>(tiles)), dim3(threads), args, smem, nullptr));
    EXPECT_EQ(d_out.to_host(), host_sums(h)) << "n = " << n << ", wave";
  }
}

TEST(TransposedKernels, NativeSingleTilesResetAndLookback) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr std::int64_t size   = native_tile::tile_items;
  constexpr int single_items    = native_config::single_items_per_thread;
  constexpr std::int64_t single = std::int64_t{native_config::threads} * single_items;
  static_assert(single < size, "a single tile of few items is smaller than the kernel's own");
  const auto native_scan = kernel::native_scan<native_config, problem, native_routes, singles>;
  const int threads      = native_config::threads;
  const int smem         = native_tile::smem_bytes;
  for (const std::int64_t n : {std::int64_t{1}, single - 1, single, size - 1, size + 1, 20 * size + 3}) {
    const std::int64_t tiles = (n + size - 1) / size;
    const auto h             = archscan::test::random_values<int>(n, static_cast<std::uint64_t>(n) + 1);
    device_buffer<int> d_in(h), d_out(n);
    const problem p{d_in.get(), d_out.get(), n, {}, {}, 0, {}};
    d_out.poison();
    native_kernel_args a{};
    if (n <= single) {  // the single tile of few items, in the full tiles' kernel
      a.single_items = single_items;
      native_scan<<<1, threads, smem>>>(p, a);
      EXPECT_EQ(d_out.to_host(), host_sums(h)) << "n = " << n << ", single tile of few items";
      continue;
    }
    if (tiles == 1) {
      native_scan<<<1, threads, smem>>>(p, a);
      EXPECT_EQ(d_out.to_host(), host_sums(h)) << "n = " << n << ", the kernel's own tile";
      continue;
    }
    owned_tile_states<native_tile::state_t, int> s(tile::segment_lookback_states(tiles), true);
    // States left dirty: only the kernel's own reset makes them usable.
    native_kernel_args reset{};
    reset.path   = tile::route::reset;
    reset.d_temp = s.storage.get();
    reset.words  = tile::tile_state_words(s.layout);
    native_scan<<<4, threads, smem>>>(p, reset);
    a.path  = tile::route::lookback;
    a.st    = s.bound();
    a.tiles = tiles;
    native_scan<<<static_cast<unsigned>(tiles), threads, smem>>>(p, a);
    EXPECT_EQ(d_out.to_host(), host_sums(h)) << "n = " << n << ", reset and look-back";
  }
}

TEST(TransposedKernels, NativeStagedPersistentBlocks) {
  ARCHSCAN_REQUIRE_GPU();
  static_assert(native_tile::stages_fit);
  const auto staged = kernel::native_scan_tiles_staged<native_config, problem>;
  cudaFuncAttributes attributes{};
  ARCHSCAN_CUDA_OK(cudaFuncGetAttributes(&attributes, staged));
  EXPECT_EQ(attributes.maxThreadsPerBlock, staged_tile::staged_threads);
  ARCHSCAN_CUDA_OK(
      cudaFuncSetAttribute(staged, cudaFuncAttributeMaxDynamicSharedMemorySize, staged_tile::staged_smem_bytes));
  constexpr std::int64_t size = native_tile::tile_items;
  const std::int64_t blocks   = 4;
  for (const std::int64_t n : {size - 1, size + 1, 3 * size - 1, 20 * size + 5}) {
    const std::int64_t tiles = (n + size - 1) / size;
    const auto h             = archscan::test::random_values<int>(n, static_cast<std::uint64_t>(n) + 2);
    device_buffer<int> d_in(h), d_out(n);
    owned_tile_states<native_tile::state_t, int> s(tile::segment_lookback_states(tiles));
    d_out.poison();
    staged<<<static_cast<unsigned>(blocks), staged_tile::staged_threads, staged_tile::staged_smem_bytes>>>(
        problem{d_in.get(), d_out.get(), n, {}, {}, 0, {}}, s.bound(), tiles, blocks);
    EXPECT_EQ(d_out.to_host(), host_sums(h)) << "n = " << n << ", " << tiles << " tiles on " << blocks << " blocks";
  }
}

}  // namespace transposed_kernels_test
