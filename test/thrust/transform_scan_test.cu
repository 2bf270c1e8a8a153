// The arrays under transform iterators that native's tiles read in vectors, against thrust::cuda::par,
// CUB and a host reference. Every policy and value type in every transform scan form:
// transform_scan_<family>.cu (generated from transform_scan_family.cu.in; transform_scan.cuh).

#include <cub/device/device_scan.cuh>
#include <thrust/device_vector.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/cub.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

// Native's tiles read the array under a transform iterator in 16-byte vectors and apply the functor
// to each element (detail/vector_access.cuh); one- and two-byte items of the array's type stay
// packed, transformed. Checked where that path departs from an item-by-item read: inputs at 16
// bytes and one element off (item by item), transforms that widen one-byte elements (vectors of one
// type, items of another; into a wider output, and into one of the elements' width, which must not
// pack the wider items), a functor whose operator() is not const and whose result depends on its
// own state (each element gets a fresh copy, as each read through the iterator does), and a
// device_vector's iterator under the transform. Sizes: one single tile (4096 at offset 0, a
// partial one at 1000), two small tiles (4097), and partial last tiles of 65 and 513 full tiles
// (on an H100 a wave for the packed one- and two-byte items; the int items take 257 small tiles
// and 1025 full ones, the second a look-back); at offset 1, one item fewer. Against CUB,
// thrust::cuda::par and the host, bitwise.
template <class C>
class TransformSourceTest : public ::testing::Test {};
TYPED_TEST_SUITE(TransformSourceTest, family_policy_cases<archscan::native_family>, case_names);

struct widen {
  __host__ __device__ int operator()(std::int8_t x) const { return 3 * x - 1; }
};
//! Not const, and its result depends on its state: Thrust's transform iterator calls its own copy
//! of the functor as non-const, and every read copies the iterator, so every item sees calls == 0.
struct flip_counted {
  int calls = 0;
  __host__ __device__ std::uint8_t operator()(std::uint8_t x) {
    return static_cast<std::uint8_t>(x ^ (0x5a + calls++));
  }
};
struct negate16 {
  __host__ __device__ std::int16_t operator()(std::int16_t x) const { return static_cast<std::int16_t>(-x); }
};

TYPED_TEST(TransformSourceTest, ArraysUnderTransforms) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{4096}, std::int64_t{4097}, std::int64_t{(1 << 20) + 3},
                               std::int64_t{(1 << 23) + 5}}) {
    for (const int offset : {0, 1}) {
      const std::int64_t m = n - offset;
      const std::string at = "n=" + std::to_string(m) + " offset=" + std::to_string(offset);
      {  // int8 elements, int items: a user's transform iterator into an inclusive scan
        const auto items = random_values<std::int8_t>(n, static_cast<std::uint64_t>(n) + offset);
        thrust::device_vector<std::int8_t> in(items.begin(), items.end());
        const auto first = thrust::make_transform_iterator(thrust::raw_pointer_cast(in.data()) + offset, widen{});
        device_buffer<int> out(m), cub_out(m), par_out(m);
        out.poison();
        cub_out.poison();
        par_out.poison();
        thrust::inclusive_scan(policy, first, first + m, out.begin());
        thrust::inclusive_scan(thrust::cuda::par, first, first + m, par_out.begin());
        ARCHSCAN_CUDA_OK(cub_scan(scan_form::inclusive, first, cub_out.get(), thrust::plus<int>{}, 0, m));
        std::vector<int> ref(m);
        int acc = 0;
        for (std::int64_t i = 0; i < m; ++i) ref[i] = acc += widen{}(items[i + offset]);
        ASSERT_TRUE(agree("int8 -> int, " + at, out.to_host(), cub_out.to_host(), par_out.to_host(), ref, {}));
        // The same int items into an int8 output: items wider than the packed slots, never packed.
        device_buffer<std::int8_t> out8(m), cub_out8(m), par_out8(m);
        out8.poison();
        cub_out8.poison();
        par_out8.poison();
        thrust::inclusive_scan(policy, first, first + m, out8.begin());
        thrust::inclusive_scan(thrust::cuda::par, first, first + m, par_out8.begin());
        ARCHSCAN_CUDA_OK(cub_two_phase([&](void* d_temp, std::size_t& bytes) {
          return cub::DeviceScan::InclusiveScan(d_temp, bytes, first, cub_out8.get(), thrust::plus<int>{}, m);
        }));
        std::vector<std::int8_t> ref8(ref.begin(), ref.end());  // int results, stored as int8
        ASSERT_TRUE(
            agree("int8 -> int -> int8, " + at, out8.to_host(), cub_out8.to_host(), par_out8.to_host(), ref8, {}));
      }
      {  // uint8 elements and items, packed; a transform_inclusive_scan with a non-const functor
        const auto items = random_values<std::uint8_t>(n, static_cast<std::uint64_t>(n) + 7 + offset);
        device_buffer<std::uint8_t> in(items), out(m), cub_out(m), par_out(m);
        out.poison();
        cub_out.poison();
        par_out.poison();
        const std::uint8_t* d_in = in.get() + offset;
        const thrust::plus<std::uint8_t> op;
        thrust::transform_inclusive_scan(policy, d_in, d_in + m, out.begin(), flip_counted{}, op);
        thrust::transform_inclusive_scan(thrust::cuda::par, d_in, d_in + m, par_out.begin(), flip_counted{}, op);
        ARCHSCAN_CUDA_OK(cub_scan(scan_form::inclusive, thrust::make_transform_iterator(d_in, flip_counted{}),
                                  cub_out.get(), op, std::uint8_t{0}, m));
        std::vector<std::uint8_t> ref(m);
        std::uint8_t acc = 0;
        for (std::int64_t i = 0; i < m; ++i)
          ref[i] = acc = static_cast<std::uint8_t>(acc + flip_counted{}(items[i + offset]));
        ASSERT_TRUE(agree("uint8 packed, " + at, out.to_host(), cub_out.to_host(), par_out.to_host(), ref, {}));
      }
      {  // int16 elements and items, packed, from a device_vector's iterator; exclusive with init
        const auto items = random_values<std::int16_t>(n, static_cast<std::uint64_t>(n) + 13 + offset);
        thrust::device_vector<std::int16_t> in(items.begin(), items.end());
        device_buffer<std::int16_t> out(m), cub_out(m), par_out(m);
        out.poison();
        cub_out.poison();
        par_out.poison();
        const std::int16_t init = 7;
        const thrust::plus<std::int16_t> op;
        thrust::transform_exclusive_scan(policy, in.begin() + offset, in.end(), out.begin(), negate16{}, init, op);
        thrust::transform_exclusive_scan(thrust::cuda::par, in.begin() + offset, in.end(), par_out.begin(), negate16{},
                                         init, op);
        ARCHSCAN_CUDA_OK(
            cub_scan(scan_form::exclusive_init,
                     thrust::make_transform_iterator(thrust::raw_pointer_cast(in.data()) + offset, negate16{}),
                     cub_out.get(), op, init, m));
        std::vector<std::int16_t> ref(m);
        std::int16_t acc = init;
        for (std::int64_t i = 0; i < m; ++i) {
          ref[i] = acc;
          acc    = static_cast<std::int16_t>(acc + negate16{}(items[i + offset]));
        }
        ASSERT_TRUE(agree("int16 packed, " + at, out.to_host(), cub_out.to_host(), par_out.to_host(), ref, {}));
      }
    }
  }
}

}  // namespace
