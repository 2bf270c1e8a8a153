// detail::contiguous_source (host): which inputs a look-back tile may prefetch as one range. Only
// iterators whose items i .. i + k are one array's elements i .. i + k qualify (Thrust's contiguous
// iterators, transforms of them): a prefetch of an adaptor that reads elsewhere (a permutation, a
// reversal) would fetch the wrong bytes, or bytes outside the array.

#include <cstdint>
#include <type_traits>

#include <cuda/std/functional>
#include <gtest/gtest.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <archscan/detail/keyed.cuh>
#include <archscan/detail/l2_prefetch.cuh>

namespace {

using archscan::detail::contiguous_source;

struct twice {
  __host__ __device__ std::int64_t operator()(std::int64_t x) const { return 2 * x; }
};

TEST(ContiguousSource, ContiguousIteratorsAndTransformsOfThemQualify) {
  EXPECT_TRUE((contiguous_source<int*>::value));
  EXPECT_TRUE((contiguous_source<const double*>::value));
  EXPECT_TRUE((contiguous_source<thrust::transform_iterator<twice, std::int64_t*>>::value));
  EXPECT_TRUE(
      (contiguous_source<thrust::transform_iterator<twice, const std::int64_t*, std::int64_t, std::int64_t>>::value));

  EXPECT_TRUE((contiguous_source<thrust::device_ptr<float>>::value));
  EXPECT_TRUE((contiguous_source<thrust::device_vector<float>::iterator>::value));
  EXPECT_TRUE((contiguous_source<
               thrust::transform_iterator<twice, thrust::device_vector<std::int64_t>::const_iterator>>::value));

  std::int64_t items[8] = {};
  const thrust::transform_iterator<twice, std::int64_t*> it(items, twice{});
  EXPECT_EQ(contiguous_source<decltype(it)>::pointer(it + 5), items + 5);
  EXPECT_EQ(contiguous_source<std::int64_t*>::pointer(items + 3), items + 3);
  // A device pointer unwraps to its address (nothing is dereferenced on the host).
  const thrust::transform_iterator<twice, thrust::device_ptr<std::int64_t>> on_device(
      thrust::device_pointer_cast(items), twice{});
  EXPECT_EQ(contiguous_source<std::decay_t<decltype(on_device)>>::pointer(on_device + 2), items + 2);
}

TEST(ContiguousSource, AdaptorsThatReadElsewhereDoNot) {
  EXPECT_FALSE((contiguous_source<thrust::counting_iterator<std::int64_t>>::value));
  EXPECT_FALSE((contiguous_source<thrust::constant_iterator<int>>::value));
  EXPECT_FALSE((contiguous_source<thrust::permutation_iterator<int*, int*>>::value));
  EXPECT_FALSE((contiguous_source<thrust::reverse_iterator<int*>>::value));
  // A transform of an adaptor, and a by-key input (a transform of a counter): not one array.
  EXPECT_FALSE((contiguous_source<thrust::transform_iterator<twice, thrust::reverse_iterator<std::int64_t*>>>::value));
  using keyed_input = decltype(archscan::detail::make_keyed_input<int>(
      static_cast<int*>(nullptr), static_cast<int*>(nullptr), cuda::std::equal_to<int>{}, 0));
  EXPECT_FALSE((contiguous_source<keyed_input>::value));
}

}  // namespace
