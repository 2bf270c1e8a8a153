// block/striped_vectors.cuh (GPU): each warp moves its segment between memory and its lanes as 16-byte
// vectors, lane l holding vectors l, l + 32, ... Random items of 1, 4 and 8 bytes, one and three vectors
// a lane, several warps at once: a full segment's vectors land in the lanes where the arrangement puts
// them and store back to the same bytes; a partial segment (its first `rest` items, `rest` from none to
// all, the last one ending the allocation) loads the fill value in place of the missing items, and its
// store writes those first items and nothing after them.

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/block/striped_vectors.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace striped_vectors_test {

using archscan::test::device_buffer;

//! Warp w moves the segment at w * segment items, of which rests[w] exist (Partial) or all (not
//! Partial); its lanes' vectors go to `lanes` ((w * 32 + lane) * LaneVectors + k), then to `out`.
template <class U, int LaneVectors, bool Partial>
__global__ void move_segments(const U* in, const int* rests, U fill, uint4* lanes, U* out) {
  constexpr int segment = LaneVectors * 32 * static_cast<int>(sizeof(uint4) / sizeof(U));
  const int warp        = static_cast<int>(threadIdx.x) / 32;
  const int lane        = static_cast<int>(threadIdx.x) % 32;
  uint4 v[LaneVectors];
  if constexpr (Partial) {
    archscan::block::load_vectors(in + warp * segment, rests[warp], fill, v);
  } else {
    archscan::block::load_vectors(in + warp * segment, v);
  }
  for (int k = 0; k < LaneVectors; ++k) lanes[(warp * 32 + lane) * LaneVectors + k] = v[k];
  if constexpr (Partial) {
    archscan::block::store_vectors(out + warp * segment, rests[warp], v);
  } else {
    archscan::block::store_vectors(out + warp * segment, v);
  }
}

template <class U>
std::vector<U> random_items(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<U> v(n);
  for (auto& x : v) x = static_cast<U>(rng() | 1);  // never zero
  return v;
}

template <class U, int LaneVectors>
void expect_full(std::uint64_t seed) {
  constexpr int vector_items = static_cast<int>(sizeof(uint4) / sizeof(U));
  constexpr int segment = LaneVectors * 32 * vector_items, warps = 3;
  const auto h = random_items<U>(std::size_t{warps} * segment, seed);
  device_buffer<U> in(h), out(warps * segment);
  device_buffer<uint4> lanes(warps * 32 * LaneVectors);
  out.poison();
  lanes.poison();
  move_segments<U, LaneVectors, false><<<1, warps * 32>>>(in.get(), nullptr, U{}, lanes.get(), out.get());
  ASSERT_EQ(cudaSuccess, cudaGetLastError());
  const auto got = lanes.to_host();
  for (int w = 0; w < warps; ++w) {
    for (int l = 0; l < 32; ++l) {
      for (int k = 0; k < LaneVectors; ++k) {
        const U* expect = h.data() + w * segment + (k * 32 + l) * vector_items;  // the segment's vector k * 32 + l
        ASSERT_EQ(0, std::memcmp(&got[(w * 32 + l) * LaneVectors + k], expect, sizeof(uint4)))
            << sizeof(U) << "-byte items, warp " << w << ", lane " << l << ", vector " << k;
      }
    }
  }
  EXPECT_EQ(out.to_host(), h) << sizeof(U) << "-byte items, " << LaneVectors << " vectors a lane";
}

template <class U, int LaneVectors>
void expect_partial(std::uint64_t seed) {
  constexpr int vector_items = static_cast<int>(sizeof(uint4) / sizeof(U));
  constexpr int segment      = LaneVectors * 32 * vector_items;
  // Each warp's count: none, one, just short of and past a vector, the middle, all but one, all; the
  // last warp's segment ends the allocation.
  const std::vector<int> rests = {0,
                                  1,
                                  vector_items - 1 > 0 ? vector_items - 1 : 2,
                                  vector_items + 1,
                                  segment / 2 + 3,
                                  segment - 1,
                                  segment,
                                  segment - vector_items / 2 - 1};
  const int warps              = static_cast<int>(rests.size());
  const std::size_t n          = std::size_t(warps - 1) * segment + static_cast<std::size_t>(rests.back());
  const auto h                 = random_items<U>(n, seed);
  const U fill                 = static_cast<U>(0x5C);
  device_buffer<U> in(h), out(warps * segment);
  device_buffer<int> d_rests(rests);
  device_buffer<uint4> lanes(warps * 32 * LaneVectors);
  out.poison();
  lanes.poison();
  move_segments<U, LaneVectors, true><<<1, warps * 32>>>(in.get(), d_rests.get(), fill, lanes.get(), out.get());
  ASSERT_EQ(cudaSuccess, cudaGetLastError());
  const auto got = lanes.to_host();
  const auto o   = out.to_host();
  U poison;
  std::memset(&poison, 0xA5, sizeof(U));
  for (int w = 0; w < warps; ++w) {
    const auto where = [&] {
      return std::to_string(sizeof(U)) + "-byte items, warp " + std::to_string(w) + ", rest " +
             std::to_string(rests[w]);
    };
    for (int l = 0; l < 32; ++l) {
      for (int k = 0; k < LaneVectors; ++k) {
        U lane_items[vector_items];
        std::memcpy(lane_items, &got[(w * 32 + l) * LaneVectors + k], sizeof(uint4));
        for (int i = 0; i < vector_items; ++i) {
          const int item = (k * 32 + l) * vector_items + i;
          const U expect = item < rests[w] ? h[std::size_t(w) * segment + item] : fill;
          ASSERT_EQ(lane_items[i], expect) << where() << ", lane " << l << ", vector " << k << ", item " << item;
        }
      }
    }
    for (int item = 0; item < segment; ++item) {
      const U expect = item < rests[w] ? h[std::size_t(w) * segment + item] : poison;
      ASSERT_EQ(o[std::size_t(w) * segment + item], expect) << where() << ", stored item " << item;
    }
  }
}

TEST(StripedVectors, FullSegmentsMoveInTheStripedArrangement) {
  ARCHSCAN_REQUIRE_GPU();
  expect_full<std::uint8_t, 1>(1);
  expect_full<std::uint32_t, 3>(2);
  expect_full<double, 1>(3);
}

TEST(StripedVectors, PartialSegmentsFillLoadsAndStoreTheirItemsAlone) {
  ARCHSCAN_REQUIRE_GPU();
  expect_partial<std::uint8_t, 3>(4);
  expect_partial<std::uint32_t, 1>(5);
  expect_partial<std::uint32_t, 3>(6);
  expect_partial<double, 3>(7);
}

}  // namespace striped_vectors_test
