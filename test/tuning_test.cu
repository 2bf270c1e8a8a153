// The shipped tunings (host): every row's tile, full, small and each single one, sits among the sizes every
// scan test runs, with its neighbours, so that a row changed without the test sizes still meets its boundaries.

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tuning.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/turing.cuh>

#include "support/values.cuh"

namespace {

template <class Row>
void expect_tested(const std::vector<std::int64_t>& sizes, const std::string& name) {
  using single                         = archscan::detail::single_tiles<Row>;
  std::vector<std::int64_t> per_thread = {Row::items_per_thread, Row::small_items_per_thread};
  for (int items = single::items_per_thread; items <= single::max_items_per_thread; items *= 2) {
    per_thread.push_back(items);  // the single tiles' ladder
  }
  for (const std::int64_t items : per_thread) {
    const std::int64_t tile = Row::block_threads * items;
    for (const std::int64_t n : {tile - 1, tile, tile + 1, 2 * tile + 1}) {
      const bool listed = std::find(sizes.begin(), sizes.end(), n) != sizes.end();
      EXPECT_TRUE(listed) << name << ": a tile of " << tile << " items, and size " << n << " is not in test_sizes()";
      if (!listed) return;  // one message per tile
    }
  }
}

template <class Tuning>
void expect_rows_tested(const std::string& name) {
  const auto sizes = archscan::test::test_sizes();
  expect_tested<typename archscan::detail::narrow_rows<Tuning>::row_1>(sizes, name + " row_1");
  expect_tested<typename archscan::detail::narrow_rows<Tuning>::row_2>(sizes, name + " row_2");
  expect_tested<typename Tuning::row_4>(sizes, name + " row_4");
  expect_tested<typename Tuning::row_8>(sizes, name + " row_8");
  expect_tested<typename Tuning::row_16>(sizes, name + " row_16");
  expect_tested<typename Tuning::row_large>(sizes, name + " row_large");
}

//! native's packed rows serve one- and two-byte accumulators whose tiles keep items packed (raw
//! pointers in and out of the same width), and only those; a tuning without packed rows keeps its own.
TEST(Tuning, PackedRowsServePackedNarrowItemsOnly) {
  using native = archscan::native_tuning;
  using turing = archscan::turing_tuning;
  using archscan::row_for_items;
  static_assert(std::is_same_v<row_for_items<native, std::int8_t, true>, native::packed_rows::row_1>);
  static_assert(std::is_same_v<row_for_items<native, std::int16_t, true>, native::packed_rows::row_2>);
  static_assert(std::is_same_v<row_for_items<native, std::int8_t, false>, native::row_1>);
  static_assert(std::is_same_v<row_for_items<native, std::int16_t, false>, native::row_2>);
  static_assert(std::is_same_v<row_for_items<native, int, true>, native::row_4>);  // int8 in, int accumulated
  static_assert(std::is_same_v<row_for_items<turing, std::int8_t, true>, archscan::detail::narrow_rows<turing>::row_1>);
  SUCCEED();
}

TEST(Tuning, EveryRowsTilesAreAmongTheTestSizes) {
  if (archscan::test::short_run()) GTEST_SKIP() << "the short size list of sanitizer runs is not meant to cover rows";
  expect_rows_tested<archscan::blelloch_tuning>("blelloch");
  expect_rows_tested<archscan::kepler_tuning>("kepler");
  expect_rows_tested<archscan::turing_tuning>("turing");
  expect_rows_tested<archscan::native_tuning>("native");
  const auto sizes = archscan::test::test_sizes();
  expect_tested<archscan::native_tuning::packed_rows::row_1>(sizes, "native packed row_1");
  expect_tested<archscan::native_tuning::packed_rows::row_2>(sizes, "native packed row_2");
  using keyed = archscan::native_tuning::keyed_rows;
  expect_tested<keyed::row_1>(sizes, "native keyed row_1");
  expect_tested<keyed::row_2>(sizes, "native keyed row_2");
  expect_tested<keyed::row_4>(sizes, "native keyed row_4");
  expect_tested<keyed::row_8>(sizes, "native keyed row_8");
  expect_tested<keyed::row_16>(sizes, "native keyed row_16");
}

}  // namespace
