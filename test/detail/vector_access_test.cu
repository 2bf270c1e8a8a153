// detail/vector_access.cuh (host): which inputs a tile reads in 16-byte vectors, from which array,
// and when it may keep one- and two-byte items packed. Raw pointers to qualifying elements, and
// Thrust transform iterators over contiguous arrays of them: their vectors are the array's, read
// only where the array is no wider than the items (a wider one would shrink the tile), and packed
// only where elements, items and output are of one narrow type (transformed values replace the
// elements in their slots). Iterators over anything else read item by item.

#include <cstdint>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <archscan/detail/vector_access.cuh>

namespace {

using archscan::detail::packs_narrow_items;
using archscan::detail::vector_source;
using archscan::detail::vector_source_element_t;

struct plus_one {
  __host__ __device__ int operator()(std::int8_t x) const { return x + 1; }
};
struct flip {
  __host__ __device__ std::uint8_t operator()(std::uint8_t x) const { return static_cast<std::uint8_t>(~x); }
};
struct narrow {
  __host__ __device__ float operator()(double x) const { return static_cast<float>(x); }
};

TEST(VectorSource, PointersAndTransformsOfContiguousArrays) {
  static_assert(std::is_same_v<vector_source_element_t<const float*>, float>);
  static_assert(!vector_source<const float*>::transforms);
  using widened = thrust::transform_iterator<plus_one, const std::int8_t*>;
  static_assert(std::is_same_v<vector_source_element_t<widened>, std::int8_t> && vector_source<widened>::transforms);
  static_assert(vector_source<widened>::reads<int>);
  static_assert(
      std::is_same_v<
          vector_source_element_t<thrust::transform_iterator<plus_one, thrust::device_vector<std::int8_t>::iterator>>,
          std::int8_t>);
  static_assert(std::is_void_v<
                vector_source_element_t<thrust::transform_iterator<plus_one, thrust::counting_iterator<std::int8_t>>>>);
  static_assert(std::is_void_v<vector_source_element_t<std::vector<std::int8_t>::iterator>>);
  // An array wider than the items: read item by item.
  static_assert(!vector_source<thrust::transform_iterator<narrow, const double*>>::reads<float>);
  static_assert(vector_source<thrust::transform_iterator<narrow, const double*>>::reads<double>);
  SUCCEED();
}

//! Volatile memory is accessed as the program says, an item at a time: never in vectors, in or out.
TEST(VectorSource, NeverVolatileMemory) {
  EXPECT_TRUE((std::is_same_v<archscan::detail::vector_element_t<float*>, float>));
  EXPECT_TRUE((std::is_void_v<archscan::detail::vector_element_t<volatile float*>>));
  EXPECT_TRUE((std::is_void_v<archscan::detail::vector_element_t<const volatile int*>>));
  EXPECT_TRUE((std::is_void_v<archscan::detail::arithmetic_vector_element_t<volatile int*>>));
  EXPECT_TRUE((std::is_void_v<vector_source_element_t<const volatile int*>>));
}

TEST(VectorSource, PackedOnlyWhereSlotsHoldTheItems) {
  static_assert(packs_narrow_items<true, const std::int8_t*, std::uint8_t*, std::int8_t>);
  static_assert(packs_narrow_items<true, const std::int8_t*, std::int8_t*, int>);  // int accumulated, packed as int8
  static_assert(packs_narrow_items<true, std::int16_t*, std::int16_t*, std::int16_t>);
  static_assert(!packs_narrow_items<false, std::int8_t*, std::int8_t*, std::int8_t>);  // no vector access
  static_assert(!packs_narrow_items<true, std::int8_t*, std::int16_t*, std::int8_t>);  // widths differ
  static_assert(!packs_narrow_items<true, int*, int*, int>);
  static_assert(!packs_narrow_items<true, std::vector<std::int8_t>::iterator, std::int8_t*, std::int8_t>);
  using flip_u8 = thrust::transform_iterator<flip, const std::uint8_t*>;
  static_assert(packs_narrow_items<true, flip_u8, std::uint8_t*, std::uint8_t>);
  static_assert(!packs_narrow_items<true, flip_u8, std::uint8_t*, int>);  // transformed items wider than the slots
  SUCCEED();
}

}  // namespace
