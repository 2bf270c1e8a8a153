// block::vector_transpose: the slot layout (host: a permutation of each warp's region, no bank
// conflict in either arrangement, for every vector count per lane up to 64) and the exchange itself
// (GPU: striped vectors to blocked values and back, for one-, two- and four-byte items; blocked
// values to the region in the segment's order, for an odd count of vectors a lane).

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/block/vector_transpose.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace {

using archscan::test::device_buffer;

//! The most lanes of one 8-lane phase whose 16-byte accesses fall in the same column of a 128-byte row.
int worst_phase(const std::vector<int>& slots_by_lane) {
  int worst = 1;
  for (int phase = 0; phase < 4; ++phase) {
    int count[8] = {};
    for (int l = phase * 8; l < phase * 8 + 8; ++l) worst = std::max(worst, ++count[slots_by_lane[l] % 8]);
  }
  return worst;
}

template <int LaneVectors>
void check_layout() {
  using vt = archscan::block::vector_transpose<std::int8_t, 16 * LaneVectors>;
  static_assert(vt::fits && vt::lane_vectors == LaneVectors);
  std::vector<int> seen(vt::warp_vectors, 0);
  for (int v = 0; v < vt::warp_vectors; ++v) {
    const int s = vt::slot(v);
    ASSERT_GE(s, 0) << LaneVectors;
    ASSERT_LT(s, vt::warp_vectors) << LaneVectors;
    ASSERT_EQ(s / 8, v / 8) << "a vector leaves its 128-byte row, lane_vectors=" << LaneVectors;
    ++seen[s];
  }
  for (int s = 0; s < vt::warp_vectors; ++s) ASSERT_EQ(seen[s], 1) << "slot " << s << ", lane_vectors=" << LaneVectors;
  std::vector<int> by_lane(32);
  for (int k = 0; k < LaneVectors; ++k) {  // striped: lane l's vector k is vector k * 32 + l
    for (int l = 0; l < 32; ++l) by_lane[l] = vt::slot(k * 32 + l);
    EXPECT_EQ(worst_phase(by_lane), 1) << "striped, lane_vectors=" << LaneVectors << ", k=" << k;
  }
  for (int j = 0; j < LaneVectors; ++j) {  // blocked: lane l's vector j is vector l * LaneVectors + j
    for (int l = 0; l < 32; ++l) by_lane[l] = vt::slot(l * LaneVectors + j);
    EXPECT_EQ(worst_phase(by_lane), 1) << "blocked, lane_vectors=" << LaneVectors << ", j=" << j;
  }
}

template <int... R>
void check_layouts(std::integer_sequence<int, R...>) {
  (check_layout<R + 1>(), ...);
}

TEST(VectorTranspose, SlotsArePermutationsWithoutBankConflicts) {
  check_layouts(std::make_integer_sequence<int, 64>{});
}

TEST(VectorTranspose, FitsOnlyWholeVectors) {
  static_assert(archscan::block::vector_transpose<std::int8_t, 64>::fits);
  static_assert(!archscan::block::vector_transpose<std::int8_t, 40>::fits);
  static_assert(archscan::block::vector_transpose<std::int16_t, 40>::fits);
  static_assert(archscan::block::vector_transpose<int, 40>::fits);
  static_assert(!archscan::block::vector_transpose<double, 3>::fits);
  SUCCEED();
}

//! One warp: loads its segment as striped vectors, exchanges to blocked values of T (one slot per
//! value in `d_blocked`, in blocked order), adds one to each, and writes them back through the
//! inverse exchange as striped vectors.
template <class U, int Items>
__global__ void round_trip(const U* d_in, U* d_out, long long* d_blocked) {
  using vt = archscan::block::vector_transpose<U, Items>;
  __shared__ typename vt::vector region[vt::warp_vectors];
  const int lane = static_cast<int>(threadIdx.x);
  typename vt::vector v[vt::lane_vectors];
  const auto* src = reinterpret_cast<const typename vt::vector*>(d_in) + lane;
  for (int k = 0; k < vt::lane_vectors; ++k) v[k] = src[k * 32];
  long long items[Items];
  vt::striped_to_blocked(v, items, region);
  U back[Items];
  for (int j = 0; j < Items; ++j) {
    d_blocked[lane * Items + j] = items[j];
    back[j]                     = static_cast<U>(items[j] + 1);
  }
  vt::blocked_to_striped(back, v, region);
  auto* dst = reinterpret_cast<typename vt::vector*>(d_out) + lane;
  for (int k = 0; k < vt::lane_vectors; ++k) dst[k * 32] = v[k];
}

template <class U, int Items>
void check_round_trip() {
  constexpr int n = 32 * Items;
  std::vector<U> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<U>(i * 7 + 3);  // neighbours differ, in every byte width
  device_buffer<U> d_in(in), d_out(n);
  device_buffer<long long> d_blocked(n);
  d_out.poison();
  d_blocked.poison();
  round_trip<U, Items><<<1, 32>>>(d_in.get(), d_out.get(), d_blocked.get());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto blocked = d_blocked.to_host();
  const auto out     = d_out.to_host();
  for (int i = 0; i < n; ++i) {  // blocked order is item order: lane l's j-th value is item l * Items + j
    ASSERT_EQ(blocked[i], static_cast<long long>(in[i])) << "item " << i << ", Items=" << Items;
    ASSERT_EQ(out[i], static_cast<U>(in[i] + 1)) << "item " << i << ", Items=" << Items;
  }
}

TEST(VectorTranspose, RoundTripsEveryItem) {
  ARCHSCAN_REQUIRE_GPU();
  check_round_trip<std::int8_t, 16>();
  check_round_trip<std::int8_t, 64>();
  check_round_trip<std::uint8_t, 96>();
  check_round_trip<std::int16_t, 24>();
  check_round_trip<std::int16_t, 32>();
  check_round_trip<int, 40>();
  check_round_trip<float, 12>();
}

using archscan::test::mat2;  // a 16-byte item that is not arithmetic (the product's items)

//! One warp: lane l's blocked items are items l * Items ... of a segment whose item i is i * 7 + 3
//! (matrices: i, i + 1, ...); blocked_to_linear writes them to the region, which the warp then copies
//! out word by word after a __syncwarp.
template <class U, int Items>
__global__ void to_linear(std::uint32_t* d_region_words) {
  using vt = archscan::block::vector_transpose<U, Items>;
  __shared__ typename vt::vector region[vt::warp_vectors];
  const int lane = static_cast<int>(threadIdx.x);
  U items[Items];
  for (int j = 0; j < Items; ++j) {
    const auto i = static_cast<std::uint32_t>(lane * Items + j);
    if constexpr (std::is_same_v<U, mat2>) {
      items[j] = mat2{i, i + 1, i + 2, i + 3};
    } else {
      items[j] = static_cast<U>(i * 7 + 3);
    }
  }
  vt::blocked_to_linear(items, region);
  __syncwarp(0xffffffffu);
  const auto* words = reinterpret_cast<const std::uint32_t*>(region);
  for (int w = lane; w < vt::warp_vectors * 4; w += 32) d_region_words[w] = words[w];
}

template <class U, int Items>
void check_linear() {
  using vt = archscan::block::vector_transpose<U, Items>;
  static_assert(vt::lane_vectors % 2 == 1);
  constexpr int n = 32 * Items;
  device_buffer<std::uint32_t> d_words(vt::warp_vectors * 4);
  d_words.poison();
  to_linear<U, Items><<<1, 32>>>(d_words.get());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto words = d_words.to_host();
  std::vector<U> region(n);
  std::memcpy(region.data(), words.data(), sizeof(U) * n);
  for (int i = 0; i < n; ++i) {  // the region holds the segment's item i at element i
    const auto u = static_cast<std::uint32_t>(i);
    if constexpr (std::is_same_v<U, mat2>) {
      ASSERT_TRUE(region[i].a == u && region[i].b == u + 1 && region[i].c == u + 2 && region[i].d == u + 3)
          << "item " << i << ", Items=" << Items;
    } else {
      ASSERT_EQ(region[i], static_cast<U>(u * 7 + 3)) << "item " << i << ", Items=" << Items;
    }
  }
}

TEST(VectorTranspose, BlockedToLinearIsTheSegmentInOrder) {
  ARCHSCAN_REQUIRE_GPU();
  check_linear<std::int8_t, 16>();   // one vector a lane
  check_linear<std::int16_t, 24>();  // three
  check_linear<int, 20>();           // five
  check_linear<std::int64_t, 14>();  // seven
  check_linear<mat2, 21>();          // 21: the product's large tiles
  check_linear<mat2, 31>();          // 31: the most 16-byte vectors a lane a 64 KiB tile of 128 threads holds
}

}  // namespace
