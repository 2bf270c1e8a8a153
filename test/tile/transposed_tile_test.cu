// tile/transposed_tile.cuh, host: the shared memory the tile adds to its shape's (transposed_io.cuh,
// tested in tile/transposed_io_test.cu): the cluster's slots, one per tile of a cluster, placed after
// the tile's own bytes and within its limit for the shipped rows; and the aggregates an ordered wave
// stages in the exchange regions, whole segments of 32 that fit there with their bank padding. Which
// tiles sum by dot products (`sums_words`, `widens_words`). What the tile scans is checked on the GPU
// through its routes and kernels (tile/routed_tile_test.cu, kernel/transposed_kernels_test.cu) and by
// every scan test; here, on the GPU, the sums by dot products (int8, uint8, int16 and uint16 sums, and
// one-byte items into int sums) against the item-by-item scan (the same bits), CUB and a host reference,
// in all three scan forms, on every route, at tile boundaries, off 16 bytes, in place and past 2^31 items.

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <thrust/equal.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>
#include <archscan/tile/transposed_tile.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <cuda/functional>
#include <cuda/std/functional>

#include "support/cub.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/policies.cuh"
#include "support/values.cuh"

namespace transposed_tile_test {

namespace detail = archscan::detail;
using archscan::native_tuning;
using archscan::test::device_buffer;

template <class T, class Op>
using problem = detail::scan_problem<const T*, T*, T, detail::callable<Op>, detail::identity_finish,
                                     detail::scan_kind::inclusive, false>;
template <class T, class Op = ::cuda::std::plus<T>>
using tile_of =
    archscan::tile::transposed_tile<problem<T, Op>,
                                    archscan::tile_config<native_tuning, archscan::row_for_accum<native_tuning, T>,
                                                          archscan::row_for_accum<native_tuning, T>::items_per_thread>>;

template <class Tile>
void expect_cluster_slots_and_staged_aggregates() {
  using T = typename Tile::T;
  // The slots start 16-byte aligned after the tile's own shared memory and hold a cluster's tiles.
  EXPECT_GE(Tile::cluster_slots_at, static_cast<std::size_t>(Tile::smem_bytes));
  EXPECT_EQ(Tile::cluster_slots_at % 16, 0u);
  EXPECT_GE(static_cast<std::size_t>(Tile::cluster_smem_bytes),
            Tile::cluster_slots_at + archscan::tile::cluster_exchange::max_blocks * sizeof(T));
  // Every shipped row's tile has room for them: the cluster route is open to every width.
  EXPECT_TRUE(Tile::cluster_fits);
  EXPECT_LE(static_cast<std::size_t>(Tile::cluster_smem_bytes), Tile::smem_limit);
  // Whole segments, and the padded slot of the last staged aggregate inside the exchange regions.
  constexpr std::int64_t staged = Tile::staged_aggregates;
  EXPECT_EQ(staged % archscan::tile::segment_tiles, 0);
  if (staged > 0) {
    const std::int64_t last_slot = staged - 1 + (staged - 1) / archscan::tile::segment_tiles;
    EXPECT_LE(static_cast<std::size_t>(last_slot + 1) * sizeof(T), (Tile::threads / 32) * Tile::region_bytes);
  }
}

TEST(TransposedTileSharedMemory, ClusterSlotsAndStagedAggregatesFit) {
  expect_cluster_slots_and_staged_aggregates<tile_of<std::int8_t>>();
  expect_cluster_slots_and_staged_aggregates<tile_of<int>>();
  expect_cluster_slots_and_staged_aggregates<tile_of<double>>();
  expect_cluster_slots_and_staged_aggregates<tile_of<archscan::test::mat2, archscan::test::mat2_mul>>();
  // A transposing tile of 4-byte items stages more than one segment's aggregates.
  static_assert(tile_of<int>::transposes && tile_of<int>::staged_aggregates > archscan::tile::segment_tiles);
}

//! native with its narrow sums by dot products, a word at a time (tuning/native.cuh, packed_dot_sums).
struct dot_sums_tuning : native_tuning {
  static constexpr bool packed_dot_sums = true;
};
template <class Tuning, class T, class Op = ::cuda::std::plus<>, class Finish = detail::identity_finish>
using packed_tile = archscan::tile::transposed_tile<
    detail::scan_problem<const T*, T*, T, detail::callable<Op>, Finish, detail::scan_kind::inclusive, false>,
    archscan::tile_config<Tuning, native_tuning::packed_rows::row_1, 64>>;
struct negate_finish {
  template <class T>
  __host__ __device__ T operator()(const T& x) const {
    return static_cast<T>(-x);
  }
};

template <class Tuning, class In, class T, class Op = ::cuda::std::plus<>, int Items = 32>
using widening_tile =
    archscan::tile::transposed_tile<detail::scan_problem<const In*, T*, T, detail::callable<Op>,
                                                         detail::identity_finish, detail::scan_kind::inclusive, false>,
                                    archscan::tile_config<Tuning, native_tuning::row_4, Items>>;

TEST(TransposedTileDotSums, OneByteInputsIntoFourByteSumsWidenWords) {
  static_assert(widening_tile<dot_sums_tuning, std::uint8_t, int>::widens_words);
  static_assert(widening_tile<dot_sums_tuning, std::int8_t, unsigned, ::cuda::std::plus<long long>>::widens_words);
  static_assert(widening_tile<dot_sums_tuning, std::uint8_t, int, ::cuda::std::plus<>, 16>::widens_words);
  static_assert(!widening_tile<dot_sums_tuning, std::uint8_t, int, ::cuda::std::plus<>, 8>::widens_words,
                "single tiles of 8 items: less than a vector a thread");
  static_assert(!widening_tile<native_tuning, std::uint8_t, int>::widens_words, "the shipped tuning");
  static_assert(!widening_tile<dot_sums_tuning, std::uint8_t, int, ::cuda::maximum<>>::widens_words);
  static_assert(!widening_tile<dot_sums_tuning, std::uint8_t, int, ::cuda::std::plus<std::uint8_t>>::widens_words);
  static_assert(!widening_tile<dot_sums_tuning, std::int16_t, int>::widens_words);
  static_assert(!widening_tile<dot_sums_tuning, std::uint8_t, long long>::widens_words);
  static_assert(!widening_tile<dot_sums_tuning, int, int>::widens_words);
  SUCCEED();
}

TEST(TransposedTileDotSums, OnlyPackedSumsTheTuningAsksForSumWords) {
  static_assert(packed_tile<dot_sums_tuning, std::int8_t>::packs_items);
  static_assert(packed_tile<dot_sums_tuning, std::int8_t>::sums_words);
  static_assert(packed_tile<dot_sums_tuning, std::uint8_t, ::cuda::std::plus<std::uint8_t>>::sums_words);
  static_assert(!packed_tile<native_tuning, std::int8_t>::sums_words, "the shipped tuning: item by item");
  static_assert(!packed_tile<dot_sums_tuning, std::int8_t, ::cuda::maximum<>>::sums_words);
  static_assert(!packed_tile<dot_sums_tuning, std::int8_t, ::cuda::std::plus<>, negate_finish>::sums_words);
  static_assert(packed_tile<dot_sums_tuning, std::int16_t>::sums_words, "two-byte items, two a word");
  static_assert(!packed_tile<native_tuning, std::uint16_t>::sums_words);
  SUCCEED();
}

using archscan::test::scan_form;
const char* form_name(scan_form f) {
  return f == scan_form::inclusive ? "inclusive" : f == scan_form::inclusive_init ? "inclusive from init" : "exclusive";
}

//! Wrapping sums of `in` on the host in the form `f` (init unused by the plain inclusive form).
template <class T>
std::vector<T> host_sums(const std::vector<T>& in, scan_form f, T init) {
  std::vector<T> out(in.size());
  const bool seeded = f != scan_form::inclusive;
  T run             = init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    // Added as unsigned 64-bit values and cut back to T: wrapping, where int's own add would overflow.
    const T next = i == 0 && !seeded
                       ? in[0]
                       : static_cast<T>(static_cast<unsigned long long>(run) + static_cast<unsigned long long>(in[i]));
    out[i]       = f == scan_form::exclusive_init ? run : next;
    run          = next;
  }
  return out;
}

//! Thrust's call of form `f` over [first, first + n) into `result`, accumulating in T: the plain
//! inclusive form in the input's type, the others in init's, here T (plus<T> where init is passed with
//! an operator, whose result type is the accumulator's).
template <class T, class Policy, class In, class Out>
Out thrust_scan(const Policy& policy, scan_form f, In first, std::int64_t n, Out result, T init) {
  if (f == scan_form::exclusive_init) return thrust::exclusive_scan(policy, first, first + n, result, init);
  if (f == scan_form::inclusive_init) {
    return thrust::inclusive_scan(policy, first, first + n, result, init, ::cuda::std::plus<T>{});
  }
  return thrust::inclusive_scan(policy, first, first + n, result);
}

//! One scan of `n` items at offsets `in_off` and `out_off` (0 or 1: off 16 bytes; the same buffer for
//! in place) by `Policy` (byte sums) and by native (item by item): the same bits, and those of CUB and
//! the host.
template <class Policy, class T>
void expect_dot_sums(std::int64_t n, int in_off, int out_off, bool in_place, scan_form f) {
  const T init = static_cast<T>(f == scan_form::exclusive_init ? 101 : 57);
  const auto h = archscan::test::random_values<T>(n + 1, static_cast<std::uint64_t>(n) * 3 + in_off);
  device_buffer<T> d_in(h), d_out(n + 1), d_native(n + 1), d_cub(n + 1);
  T* in  = d_in.get() + in_off;
  T* out = in_place ? in : d_out.get() + out_off;
  d_out.poison();
  d_native.poison();
  d_cub.poison();
  ASSERT_EQ(thrust_scan(archscan::policy<native_tuning, false>{}, f, in, n, d_native.get(), init), d_native.get() + n);
  ASSERT_EQ(cudaSuccess, archscan::test::cub_scan(f, in, d_cub.get(), ::cuda::std::plus<T>{}, init, n));
  ASSERT_EQ(thrust_scan(Policy{}, f, in, n, out, init), out + n);  // last: in place, it overwrites the input
  ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
  const std::vector<T> first(h.begin() + in_off, h.begin() + in_off + n);
  const auto want   = host_sums(first, f, init);
  const auto ours   = (in_place ? d_in : d_out).to_host();
  const auto native = d_native.to_host();
  const auto cub    = d_cub.to_host();
  const int at      = in_place ? in_off : out_off;
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(ours[at + i], want[i]) << "n " << n << ", item " << i;
    ASSERT_EQ(native[i], want[i]) << "native, n " << n << ", item " << i;
    ASSERT_EQ(cub[i], want[i]) << "CUB, n " << n << ", item " << i;
  }
  if (!in_place && out_off == 0) {
    T poison;
    std::memset(&poison, 0xA5, sizeof(T));
    ASSERT_EQ(ours[n], poison) << "n " << n << ": nothing written past the end";
  }
}

template <class Policy, class T>
void expect_dot_sums_at_every_size() {
  // Single tiles of 4, 8 and 16 items a thread, small tiles (256 x 16 bytes, 256 x 8 halves) and full
  // ones (256 x 64), at their boundaries +-1, a wave's worth, a look-back's, and a random size.
  constexpr std::int64_t waves = 16384 * 264 + 1, lookback = (1 << 22) - 1;
  const std::int64_t sizes[] = {1,    2,     1023,  1024,  1025,  2047,  2048,     2049,     4095,  4096,
                                4097, 16383, 16384, 16385, 65537, waves, lookback, 20000003, 777777};
  for (const std::int64_t n : sizes) {
    for (const scan_form f : {scan_form::inclusive, scan_form::inclusive_init, scan_form::exclusive_init}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << ", " << form_name(f));
      expect_dot_sums<Policy, T>(n, 0, 0, false, f);
      if (n == 16385 || n == 777777) {
        expect_dot_sums<Policy, T>(n, 1, 0, false, f);
        expect_dot_sums<Policy, T>(n, 0, 1, false, f);
        expect_dot_sums<Policy, T>(n, 0, 0, true, f);
      }
    }
  }
}

TEST(TransposedTileDotSums, SameBitsAsItemByItemCubAndHost) {
  ARCHSCAN_REQUIRE_GPU();
  using dot_sums = archscan::policy<dot_sums_tuning, false>;
  expect_dot_sums_at_every_size<dot_sums, std::int8_t>();
  expect_dot_sums_at_every_size<dot_sums, std::uint8_t>();
  expect_dot_sums_at_every_size<dot_sums, std::int16_t>();
  expect_dot_sums_at_every_size<dot_sums, std::uint16_t>();
}

//! int8 items through a transform iterator keep their (transformed) values packed, and sum them as words.
struct twice_minus_one {
  __host__ __device__ std::int8_t operator()(std::int8_t x) const { return static_cast<std::int8_t>(2 * x - 1); }
};

TEST(TransposedTileDotSums, TransformedItemsSameBitsAsItemByItemAndHost) {
  ARCHSCAN_REQUIRE_GPU();
  static_assert(
      archscan::detail::packs_narrow_items<true, thrust::transform_iterator<twice_minus_one, const std::int8_t*>,
                                           std::int8_t*, std::int8_t>);
  for (const std::int64_t n : {std::int64_t{4097}, std::int64_t{16385}, std::int64_t{777777}}) {
    for (const bool exclusive : {false, true}) {
      const auto h = archscan::test::random_values<std::int8_t>(n, static_cast<std::uint64_t>(n) + 17);
      std::vector<std::int8_t> items(h.size());
      for (std::size_t i = 0; i < h.size(); ++i) items[i] = twice_minus_one{}(h[i]);
      const auto want = host_sums(items, exclusive ? scan_form::exclusive_init : scan_form::inclusive, std::int8_t{3});
      device_buffer<std::int8_t> d_in(h), d_out(n), d_native(n);
      d_out.poison();
      d_native.poison();
      const auto first =
          thrust::make_transform_iterator(static_cast<const std::int8_t*>(d_in.get()), twice_minus_one{});
      const auto scan = [&](const auto& policy, std::int8_t* result) {
        if (exclusive) return thrust::exclusive_scan(policy, first, first + n, result, std::int8_t{3});
        return thrust::inclusive_scan(policy, first, first + n, result);
      };
      ASSERT_EQ(scan(archscan::policy<dot_sums_tuning, false>{}, d_out.get()), d_out.get() + n);
      ASSERT_EQ(scan(archscan::policy<native_tuning, false>{}, d_native.get()), d_native.get() + n);
      const auto ours = d_out.to_host(), native = d_native.to_host();
      for (std::int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(ours[i], want[i]) << "n " << n << (exclusive ? " exclusive" : " inclusive") << ", item " << i;
        ASSERT_EQ(native[i], want[i]) << "native, n " << n << ", item " << i;
      }
    }
  }
}

TEST(TransposedTileDotSums, SameBitsOnTheLookbackAlone) {
  ARCHSCAN_REQUIRE_GPU();
  expect_dot_sums_at_every_size<archscan::policy<archscan::test::lookback_only<dot_sums_tuning>, false>, std::int8_t>();
}

//! One-byte items `In` summed into int by `Policy` (widened words) and by native (item by item), at
//! offsets `in_off`, `out_off`, in a form with an int init (so an int accumulator): the same bits, and
//! those of CUB and the host.
template <class Policy, class In>
void expect_widened_sums(std::int64_t n, int in_off, int out_off, scan_form f) {
  const int init = f == scan_form::exclusive_init ? -77 : 5;
  const auto h   = archscan::test::random_values<In>(n + 1, static_cast<std::uint64_t>(n) * 5 + in_off);
  std::vector<int> items(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) items[i] = h[in_off + i];
  const auto want = host_sums(items, f, init);
  device_buffer<In> d_in(h);
  device_buffer<int> d_out(n + 1), d_native(n), d_cub(n), d_items(items);
  d_out.poison();
  d_native.poison();
  d_cub.poison();
  const In* in = d_in.get() + in_off;
  ASSERT_EQ(thrust_scan(archscan::policy<native_tuning, false>{}, f, in, n, d_native.get(), init), d_native.get() + n);
  ASSERT_EQ(thrust_scan(Policy{}, f, in, n, d_out.get() + out_off, init), d_out.get() + out_off + n);
  ASSERT_EQ(cudaSuccess, archscan::test::cub_scan(f, d_items.get(), d_cub.get(), ::cuda::std::plus<>{}, init, n));
  const auto ours = d_out.to_host(), native = d_native.to_host(), cub = d_cub.to_host();
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(ours[out_off + i], want[i]) << "n " << n << ", item " << i;
    ASSERT_EQ(native[i], want[i]) << "native, n " << n << ", item " << i;
    ASSERT_EQ(cub[i], want[i]) << "CUB, n " << n << ", item " << i;
  }
  if (out_off == 0) ASSERT_EQ(ours[n], static_cast<int>(0xA5A5A5A5u)) << "n " << n << ": nothing written past the end";
}

TEST(TransposedTileDotSums, FlagsIntoIntSumsSameBitsAsItemByItemCubAndHost) {
  ARCHSCAN_REQUIRE_GPU();
  using dot_sums = archscan::policy<dot_sums_tuning, false>;
  // Single tiles (4 and 8 items a thread: item by item), small tiles (256 x 16) and full ones (256 x 32)
  // at their boundaries +-1, a wave's worth, a look-back's, and a random size.
  const std::int64_t sizes[] = {1,    1025, 2047, 2048,  2049,           4095,          4096,     4097,
                                8191, 8192, 8193, 65537, 4096 * 264 + 1, (1 << 22) - 1, 20000003, 777777};
  for (const std::int64_t n : sizes) {
    for (const scan_form f : {scan_form::exclusive_init, scan_form::inclusive_init}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << ", " << form_name(f));
      expect_widened_sums<dot_sums, std::uint8_t>(n, 0, 0, f);
      expect_widened_sums<dot_sums, std::int8_t>(n, 0, 0, f);
      if (n == 8193 || n == 777777) {
        expect_widened_sums<dot_sums, std::uint8_t>(n, 1, 0, f);
        expect_widened_sums<dot_sums, std::int8_t>(n, 0, 1, f);
        expect_widened_sums<archscan::policy<archscan::test::lookback_only<dot_sums_tuning>, false>, std::uint8_t>(
            n, 0, 0, f);
      }
    }
  }
}

TEST(TransposedTileDotSums, MoreThanTwoToTheThirtyOneItems) {
  ARCHSCAN_REQUIRE_GPU();
  const std::int64_t n   = (std::int64_t{1} << 31) + 4099;
  std::size_t free_bytes = 0, total = 0;
  ARCHSCAN_CUDA_OK(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < static_cast<std::size_t>(n) * 3 + (1ull << 30)) GTEST_SKIP() << "needs ~7 GB of device memory";
  const auto h = archscan::test::random_values<std::int8_t>(n, 5);
  device_buffer<std::int8_t> d_in(h), d_out(n), d_cub(n);
  d_out.poison();
  d_cub.poison();
  ASSERT_EQ(thrust::inclusive_scan(archscan::policy<dot_sums_tuning, false>{}, d_in.begin(), d_in.end(), d_out.begin()),
            d_out.end());
  ASSERT_EQ(cudaSuccess, archscan::test::cub_scan(archscan::test::scan_form::inclusive, d_in.get(), d_cub.get(),
                                                  ::cuda::std::plus<>{}, std::int8_t{}, n));
  EXPECT_TRUE(thrust::equal(thrust::cuda::par, d_out.begin(), d_out.end(), d_cub.begin()));
  const auto out  = d_out.to_host();
  std::int8_t run = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    run = static_cast<std::int8_t>(run + h[i]);
    if (i % 4099 == 0 || i >= n - 100000) ASSERT_EQ(out[i], run) << "item " << i;
  }
}

}  // namespace transposed_tile_test
