// tuning/blelloch.cuh (host): the paper's scan as data. Every accumulator takes the same row, two items
// a thread in full and small tiles alike (a tile of 2 * block_threads items, as the paper has it),
// with the paper's conflict-free padding, and the row runs on every supported GPU.

#include <type_traits>

#include <gtest/gtest.h>

#include <archscan/tuning/blelloch.cuh>

#include "support/shipped_rows.cuh"

namespace blelloch_test {

using archscan::blelloch_tuning;

TEST(BlellochTuning, OneRowOfTwoItemsForEveryAccumulator) {
  using row = blelloch_tuning::row_4;
  static_assert(std::is_same_v<blelloch_tuning::family, archscan::blelloch_family>);
  static_assert(row::items_per_thread == 2 && row::small_items_per_thread == 2);
  static_assert(std::is_same_v<archscan::row_for<blelloch_tuning, 1>, row>);
  static_assert(std::is_same_v<archscan::row_for<blelloch_tuning, 2>, row>);
  static_assert(std::is_same_v<archscan::row_for<blelloch_tuning, 8>, row>);
  static_assert(std::is_same_v<archscan::row_for<blelloch_tuning, 16>, row>);
  static_assert(std::is_same_v<archscan::row_for<blelloch_tuning, 1024>, row>);
  static_assert(blelloch_tuning::conflict_free);
  archscan::test::expect_rows_run_everywhere<blelloch_tuning>();
}

}  // namespace blelloch_test
