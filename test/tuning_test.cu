// The shipped tunings (host): every row's tile, full, small and each single one, sits among the sizes every
// scan test runs, with its neighbours, so that a row changed without the test sizes still meets its boundaries.

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <archscan/detail/vector_access.cuh>
#include <archscan/tuning.cuh>
#include <archscan/tuning_native.cuh>
#include <archscan/tuning_turing.cuh>

#include "support/values.cuh"

namespace {

struct plus_one {
  __host__ __device__ int operator()(std::int8_t x) const { return x + 1; }
};
struct flip {
  __host__ __device__ std::uint8_t operator()(std::uint8_t x) const { return static_cast<std::uint8_t>(~x); }
};
struct narrow {
  __host__ __device__ float operator()(double x) const { return static_cast<float>(x); }
};

template <class Row>
void expect_tested(const std::vector<std::int64_t>& sizes, const std::string& name) {
  using single = archscan::detail::single_tiles<Row>;
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
  static_assert(std::is_same_v<row_for_items<turing, std::int8_t, true>,
                               archscan::detail::narrow_rows<turing>::row_1>);
  using archscan::detail::packs_narrow_items;
  static_assert(packs_narrow_items<true, const std::int8_t*, std::uint8_t*, std::int8_t>);
  static_assert(packs_narrow_items<true, const std::int8_t*, std::int8_t*, int>);  // int accumulated, packed as int8
  static_assert(packs_narrow_items<true, std::int16_t*, std::int16_t*, std::int16_t>);
  static_assert(!packs_narrow_items<false, std::int8_t*, std::int8_t*, std::int8_t>);  // no vector access
  static_assert(!packs_narrow_items<true, std::int8_t*, std::int16_t*, std::int8_t>);  // widths differ
  static_assert(!packs_narrow_items<true, int*, int*, int>);
  static_assert(!packs_narrow_items<true, std::vector<std::int8_t>::iterator, std::int8_t*, std::int8_t>);
  // Transform iterators over arrays: the vectors are the array's, packed where its elements, the
  // items and the output are of one narrow type; arrays wider than the items are read item by item
  // (detail/vector_access.cuh).
  using flip_u8 = thrust::transform_iterator<flip, const std::uint8_t*>;
  static_assert(packs_narrow_items<true, flip_u8, std::uint8_t*, std::uint8_t>);
  static_assert(!packs_narrow_items<true, flip_u8, std::uint8_t*, int>);  // transformed items wider than the packed slots
  using archscan::detail::vector_source;
  using archscan::detail::vector_source_element_t;
  using widened = thrust::transform_iterator<plus_one, const std::int8_t*>;
  static_assert(std::is_same_v<vector_source_element_t<widened>, std::int8_t> && vector_source<widened>::reads<int>);
  static_assert(std::is_same_v<vector_source_element_t<
                                   thrust::transform_iterator<plus_one, thrust::device_vector<std::int8_t>::iterator>>,
                               std::int8_t>);
  static_assert(std::is_void_v<
                vector_source_element_t<thrust::transform_iterator<plus_one, thrust::counting_iterator<std::int8_t>>>>);
  static_assert(!vector_source<thrust::transform_iterator<narrow, const double*>>::reads<float>);
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
