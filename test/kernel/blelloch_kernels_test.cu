// kernel/blelloch_kernels.cuh: the blelloch family's kernels, launched as the dispatch launches them:
// the block scan (its shared memory placed by the kernel) into scratch and block sums, the same kernel
// over the sums as one final block, then the uniform add. On the GPU: the kernels' launch bounds are
// the row's threads, and the three launches give the host's seeded exclusive int32 scan at one block,
// a block +-1 and many blocks with a partial last one.

#include <cstdint>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/detail/callable.cuh>
#include <archscan/kernel/blelloch_kernels.cuh>
#include <archscan/tuning/blelloch.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <cuda/std/functional>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace blelloch_kernels_test {

namespace detail = archscan::detail;
namespace kernel = archscan::kernel;
using archscan::test::device_buffer;

using config = archscan::sweep_config<archscan::blelloch_tuning, archscan::blelloch_tuning::row_4>;
using op_t   = detail::callable<::cuda::std::plus<int>>;
using exclusive_problem =
    detail::scan_problem<const int*, int*, int, op_t, detail::identity_finish, detail::scan_kind::exclusive, true>;
using sums_problem =
    detail::scan_problem<const int*, int*, int, op_t, detail::identity_finish, detail::scan_kind::inclusive, false>;
using tile = kernel::blelloch_tile<config, exclusive_problem>;

TEST(BlellochKernels, LaunchBoundsAreTheRowsThreads) {
  ARCHSCAN_REQUIRE_GPU();
  cudaFuncAttributes blocks{}, add{};
  ARCHSCAN_CUDA_OK(cudaFuncGetAttributes(&blocks, kernel::blelloch_scan_blocks<config, exclusive_problem, false>));
  ARCHSCAN_CUDA_OK(cudaFuncGetAttributes(&add, kernel::blelloch_uniform_add<config, exclusive_problem>));
  EXPECT_EQ(blocks.maxThreadsPerBlock, config::threads);
  EXPECT_EQ(add.maxThreadsPerBlock, config::threads);
}

TEST(BlellochKernels, BlocksSumsAndUniformAddGiveTheScan) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr std::int64_t items = tile::items;
  const int seed               = 17;
  // At most `items` blocks: their sums scan as one final block.
  for (const std::int64_t n : {std::int64_t{1}, items - 1, items, items + 1, 37 * items + 5, items * items}) {
    const auto h              = archscan::test::random_values<int>(n, static_cast<std::uint64_t>(n));
    const std::int64_t blocks = (n + items - 1) / items;
    device_buffer<int> d_in(h), d_out(n), d_scratch(n), d_sums(blocks);
    d_out.poison();
    const exclusive_problem p{d_in.get(), d_out.get(), n, {}, {}, seed, {}};
    if (blocks == 1) {
      kernel::blelloch_scan_blocks<config, exclusive_problem, true>
          <<<1, config::threads, tile::smem_bytes>>>(p, nullptr, nullptr);
    } else {
      kernel::blelloch_scan_blocks<config, exclusive_problem, false>
          <<<static_cast<unsigned>(blocks), config::threads, tile::smem_bytes>>>(p, d_scratch.get(), d_sums.get());
      const sums_problem sums{d_sums.get(), d_sums.get(), blocks, {}, {}, 0, {}};
      kernel::blelloch_scan_blocks<config, sums_problem, true>
          <<<1, config::threads, kernel::blelloch_tile<config, sums_problem>::smem_bytes>>>(sums, nullptr, nullptr);
      kernel::blelloch_uniform_add<config, exclusive_problem>
          <<<static_cast<unsigned>(blocks), config::threads>>>(p, d_scratch.get(), d_sums.get());
    }
    ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    std::vector<int> want(h.size());
    std::exclusive_scan(h.begin(), h.end(), want.begin(), seed);
    EXPECT_EQ(d_out.to_host(), want) << "n = " << n;
  }
}

}  // namespace blelloch_kernels_test
