// The native look-back's staged schedule (tuning/shape.cuh, example_staged_row; dispatch/native_dispatch.cuh):
// when the plan takes it. That the staged tiles scan right: test/tile/staged_tile_test.cu; their bits
// against the ordinary look-back's: test/thrust/determinism_staged_test.cu (StagedAndPlainLookbackGiveTheSameBits).

#include <algorithm>
#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/archscan.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/policies.cuh"
#include "support/values.cuh"

namespace {

using namespace archscan;
using namespace archscan::test;

//! native, its row_4, row_8 and packed rows staged from every look-back size on every device (row_8
//! past its large tiles for exact operators alone).
using staged_everywhere = staged_from<native_tuning, 0>;

//! The same, never a wave or a cluster: small problems take the staged look-back too.
using staged_lookback_only = staged_from<lookback_only<native_tuning>, 0>;

TEST(NativeStaged, PlanStagesWhereTheRowTheDeviceAndThePointersAllow) {
  ARCHSCAN_REQUIRE_GPU();
  const auto facts     = detail::current_device_facts();
  const std::int64_t n = (std::int64_t{1} << 23) + 7;  // 1025 tiles of 8192 floats: more than a GPU holds
  device_buffer<float> in(n + 1), out(n + 1);
  const auto staged = plan_of<staged_everywhere>(in.get(), out.get(), n);
  EXPECT_EQ(staged.route, dispatch::single_pass_route::lookback);
  EXPECT_TRUE(staged.staged);
  EXPECT_LE(staged.tiles.grid, std::int64_t{facts.sm_count} * native_tuning::row_4::staged_min_blocks_per_sm);
  EXPECT_EQ(staged.first_set, staged.tiles.grid);
  EXPECT_EQ(staged.tiles.tiles, 1025);
  // Off 16-byte alignment, in or out: the ordinary look-back, one block a tile.
  EXPECT_FALSE(plan_of<staged_everywhere>(in.get() + 1, out.get(), n).staged);
  EXPECT_FALSE(plan_of<staged_everywhere>(in.get(), out.get() + 1, n).staged);
  EXPECT_EQ(plan_of<staged_everywhere>(in.get() + 1, out.get(), n).tiles.grid, 1025);
  // The shipped tuning: from its row's size, on memory of 4000 GB/s or more (the plan allocates nothing).
  const bool fast_memory  = facts.memory_gbps >= native_tuning::staged_min_memory_gbps;
  const std::int64_t from = native_tuning::row_4::staged_from_items;
  EXPECT_FALSE(plan_of<native_tuning>(in.get(), out.get(), from - 1).staged);
  EXPECT_EQ(plan_of<native_tuning>(in.get(), out.get(), from).staged, fast_memory)
      << "memory " << facts.memory_gbps << " GB/s";
  RecordProperty("memory_gbps", facts.memory_gbps);
}

TEST(NativeStaged, PackedTilesStageWhereTheirRowSays) {
  ARCHSCAN_REQUIRE_GPU();
  const auto facts     = detail::current_device_facts();
  const std::int64_t n = std::int64_t{16384} * 1025 + 7;
  device_buffer<std::int16_t> in16(n), out16(n);
  device_buffer<std::int8_t> in8(n), out8(n);
  const auto int16_plan = plan_of<staged_lookback_only>(in16.get(), out16.get(), n);
  EXPECT_TRUE(int16_plan.staged);
  EXPECT_EQ(int16_plan.tiles.tiles, 1026);
  EXPECT_TRUE(plan_of<staged_lookback_only>(in8.get(), out8.get(), n).staged);
  EXPECT_FALSE(plan_of<staged_lookback_only>(in16.get() + 1, out16.get(), n).staged);
  // The shipped tuning: packed int16 from its row's size on fast memory; packed int8 never.
  const bool fast_memory  = facts.memory_gbps >= native_tuning::staged_min_memory_gbps;
  const std::int64_t from = native_tuning::packed_rows::row_2::staged_from_items;
  EXPECT_FALSE(plan_of<native_tuning>(in16.get(), out16.get(), from - 1).staged);
  EXPECT_EQ(plan_of<native_tuning>(in16.get(), out16.get(), from).staged, fast_memory);
  EXPECT_FALSE(plan_of<native_tuning>(in8.get(), out8.get(), std::int64_t{1} << 30).staged);
}

//! row_8's large tiles (from 2^24 items) never stage. An operator exact under any association (int64
//! sums), whose bits no tile shape changes, takes the staged full tiles instead where they stage on
//! the device; one that rounds (double sums) keeps the large tiles, whose association the bits follow.
TEST(NativeStaged, ExactOperatorsStageFullTilesWhereLargeOnesWouldRun) {
  ARCHSCAN_REQUIRE_GPU();
  const auto facts         = detail::current_device_facts();
  const std::int64_t large = native_tuning::row_8::large_from_items;
  const std::int64_t n     = large + 5;
  device_buffer<std::int64_t> in64(n + 1), out64(n + 1);
  device_buffer<double> ind(n), outd(n);
  using row_8             = native_tuning::row_8;
  const std::int64_t full = std::int64_t{row_8::block_threads} * row_8::items_per_thread;
  // Staged on every device: the mechanism itself.
  const auto exact = plan_of<staged_everywhere>(in64.get(), out64.get(), n);
  EXPECT_TRUE(exact.staged);
  EXPECT_EQ(exact.tiles.tile_items, full);
  const auto rounding = plan_of<staged_everywhere>(ind.get(), outd.get(), n);
  EXPECT_FALSE(rounding.staged);
  EXPECT_GT(rounding.tiles.tile_items, full) << "double sums keep the large tiles";
  // Pointers off 16 bytes never stage: the large tiles.
  const auto unaligned = plan_of<staged_everywhere>(in64.get() + 1, out64.get(), n);
  EXPECT_FALSE(unaligned.staged);
  EXPECT_EQ(unaligned.tiles.tile_items, rounding.tiles.tile_items);
  // The shipped tuning: int64 sums from the row's staged size on memory of 4000 GB/s or more.
  const bool fast_memory = facts.memory_gbps >= native_tuning::staged_min_memory_gbps;
  const auto shipped     = plan_of<native_tuning>(in64.get(), out64.get(), std::max(n, row_8::staged_from_items));
  EXPECT_EQ(shipped.staged, fast_memory) << "memory " << facts.memory_gbps << " GB/s";
  EXPECT_EQ(shipped.tiles.tile_items == full, fast_memory);
  EXPECT_FALSE(plan_of<native_tuning>(ind.get(), outd.get(), n).staged);
  EXPECT_GT(plan_of<native_tuning>(ind.get(), outd.get(), n).tiles.tile_items, full);
}

}  // namespace
