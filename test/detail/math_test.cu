// detail/math.cuh: the integer arithmetic that plans and tiles share, at the sizes plans reach (2^40
// items and more).

#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/detail/math.cuh>

namespace {

using archscan::detail::align_up;
using archscan::detail::ceil_div;
using archscan::detail::max_of;

TEST(Math, CeilDivRoundsUpOnlyWhatIsLeftOver) {
  EXPECT_EQ(ceil_div(0, 5120), 0);
  EXPECT_EQ(ceil_div(1, 5120), 1);
  EXPECT_EQ(ceil_div(5120, 5120), 1);
  EXPECT_EQ(ceil_div(5121, 5120), 2);
  const std::int64_t big = std::int64_t{1} << 40;
  EXPECT_EQ(ceil_div(big, 5120), (big + 5119) / 5120);
  EXPECT_EQ(ceil_div(big - 1, std::int64_t{1} << 20), std::int64_t{1} << 20);
  EXPECT_EQ(ceil_div(big + 1, std::int64_t{1} << 20), (std::int64_t{1} << 20) + 1);
}

TEST(Math, AlignUpKeepsMultiplesAndRaisesTheRest) {
  EXPECT_EQ(align_up(0, 256), 0u);
  EXPECT_EQ(align_up(1, 256), 256u);
  EXPECT_EQ(align_up(256, 256), 256u);
  EXPECT_EQ(align_up(257, 256), 512u);
  EXPECT_EQ(align_up(std::size_t{1} << 40, archscan::detail::storage_alignment), std::size_t{1} << 40);
  EXPECT_EQ(align_up((std::size_t{1} << 40) + 1, 16), (std::size_t{1} << 40) + 16);
}

TEST(Math, MaxOfAnyCount) {
  static_assert(max_of(3) == 3);
  EXPECT_EQ(max_of(3, 7), 7u);
  EXPECT_EQ(max_of(9, 7, 8), 9u);
  EXPECT_EQ(max_of(1, 2, 3, 40, 5), 40u);
}

}  // namespace
