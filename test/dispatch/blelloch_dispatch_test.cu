// The blelloch family's dispatch: its plan (levels, blocks, temporary storage) up to 2^40 items, and the
// fallback block of large accumulators.

#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/dispatch/blelloch_dispatch.cuh>

#include "support/sized_problem.cuh"

namespace {

using archscan::dispatch::make_blelloch_plan;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

TEST(BlellochPlan, OneBlockNeedsNoTemporaryStorage) {
  for (std::int64_t n : {1, 2, 1023, 1024}) {
    const auto plan = make_blelloch_plan(n, 1024, 4, false);
    EXPECT_EQ(plan.levels, 1) << n;
    EXPECT_EQ(plan.blocks[0], 1) << n;
    EXPECT_EQ(plan.temp_bytes, 0u) << n;
  }
}

TEST(BlellochPlan, LevelsFollowTheRecursionOverBlockSums) {
  const int b = 1024;
  for (int k = 10; k <= 40; ++k) {
    for (std::int64_t delta : {-1, 0, 1}) {
      const std::int64_t n = (std::int64_t{1} << k) + delta;
      for (bool in_output : {true, false}) {
        const auto plan = make_blelloch_plan(n, b, 8, in_output);
        // Expected from first principles: keep dividing by B until one block remains.
        std::int64_t count = n;
        std::size_t sums   = 0;
        int levels         = 0;
        while (true) {
          const std::int64_t blocks = ceil_div(count, b);
          EXPECT_EQ(plan.items[levels], count);
          EXPECT_EQ(plan.blocks[levels], blocks);
          ++levels;
          if (blocks == 1) break;
          sums += (blocks * 8 + 255) / 256 * 256;
          count = blocks;
        }
        EXPECT_EQ(plan.levels, levels) << n;
        const std::size_t scratch = (!in_output && n > b) ? (static_cast<std::size_t>(n) * 8 + 255) / 256 * 256 : 0;
        EXPECT_EQ(plan.scratch_bytes, scratch) << n;
        EXPECT_EQ(plan.temp_bytes, scratch + sums) << n;
      }
    }
  }
}

TEST(BlellochPlan, TwoToTheFortyInt32) {
  const auto plan = make_blelloch_plan(std::int64_t{1} << 40, 1024, 4, true);
  EXPECT_EQ(plan.levels, 4);  // 2^40 -> 2^30 -> 2^20 -> 2^10 -> 1
  EXPECT_EQ(plan.blocks[0], std::int64_t{1} << 30);
  EXPECT_EQ(plan.blocks[3], 1);
  EXPECT_EQ(plan.temp_bytes, (std::size_t{1} << 32) + (std::size_t{1} << 22) + (std::size_t{1} << 12));
}

TEST(BlellochPlan, SumsAreAlignedAndDisjoint) {
  const auto plan = make_blelloch_plan(123456789, 512, 12, false);
  for (int l = 0; l + 1 < plan.levels; ++l) {
    EXPECT_EQ(plan.sums_offset[l] % 256, 0u);
    EXPECT_GE(plan.sums_offset[l], plan.scratch_offset + plan.scratch_bytes);
    if (l > 0) EXPECT_GE(plan.sums_offset[l], plan.sums_offset[l - 1] + 12 * plan.blocks[l - 1]);
  }
}

// Large accumulators: the fallback block fits the shared memory every CUDA 13 device grants a block
// (64 KiB with the opt-in on sm_75, the smallest), so blelloch runs any item of up to 1 KiB anywhere.
using archscan::test::problem_of;

using dispatch = archscan::dispatch::family_dispatch<archscan::blelloch_family>;

template <int Bytes>
int fallback_block_smem() {
  using row = dispatch::fallback_row_of<archscan::blelloch_tuning, problem_of<Bytes>>;
  return archscan::kernel::blelloch_tile<archscan::sweep_config<archscan::blelloch_tuning, row>,
                                         problem_of<Bytes>>::smem_bytes;
}

TEST(BlellochPlan, FallbackBlocksFitEveryCuda13Device) {
  EXPECT_LE(fallback_block_smem<64>(), 48 * 1024);
  EXPECT_LE(fallback_block_smem<256>(), 48 * 1024);
  EXPECT_LE(fallback_block_smem<1024>(), 64 * 1024);
  EXPECT_EQ((dispatch::fallback_row_of<archscan::blelloch_tuning, problem_of<4>>::block_threads),
            archscan::blelloch_tuning::row_4::block_threads);  // small items keep the row's block
}

}  // namespace
