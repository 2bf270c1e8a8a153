// The tile-state module (tile/tile_state.cuh): the layout of counter and states in temporary storage
// (host arithmetic), and on the GPU the publication protocol of packed and split states under
// starvation: a reader never sees a status without its value, statuses only move forward, the reset
// state reads as invalid, and the counter hands out every tile id exactly once.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/tile_state.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using archscan::test::device_buffer;
using archscan::tile::make_tile_state_layout;
using archscan::tile::tile_state;
namespace tile = archscan::tile;

std::size_t up256(std::size_t b) { return (b + 255) / 256 * 256; }

TEST(TileStateLayout, PackedWordsOfEightOrSixteenBytes) {
  for (std::int64_t tiles : {std::int64_t{1}, std::int64_t{2}, std::int64_t{1000}, std::int64_t{1} << 28}) {
    const auto t = static_cast<std::size_t>(tiles);
    for (std::size_t bytes : {1u, 4u, 5u, 8u, 16u}) {  // 16: by-key items of 8-byte values
      const auto l = make_tile_state_layout(tiles, bytes, true);
      EXPECT_TRUE(l.packed);
      EXPECT_EQ(l.status_offset, 256u);  // the counter sits alone in the first 256 bytes
      EXPECT_EQ(l.zero_bytes, 256 + t * (bytes <= 4 ? 8 : 16)) << tiles;
      EXPECT_EQ(l.bytes, up256(l.zero_bytes)) << tiles;
    }
  }
}

TEST(TileStateLayout, SplitStatusesAndTwoSlotArrays) {
  for (std::size_t bytes : {4u, 8u, 12u, 16u, 40u, 1024u}) {
    const std::int64_t tiles = (std::int64_t{1} << 20) + 3;
    const auto t             = static_cast<std::size_t>(tiles);
    const auto l             = make_tile_state_layout(tiles, bytes, false);
    EXPECT_FALSE(l.packed);
    // counter | statuses | aggregates | inclusive prefixes: aligned, disjoint, all zeroed by the reset
    EXPECT_EQ(l.aggregates_offset, up256(256 + 4 * t));
    EXPECT_EQ(l.zero_bytes, l.bytes);
    EXPECT_EQ(l.inclusives_offset, l.aggregates_offset + up256(bytes * t));
    EXPECT_EQ(l.bytes, l.inclusives_offset + up256(bytes * t));
    EXPECT_EQ(l.aggregates_offset % 256, 0u);
    EXPECT_EQ(l.inclusives_offset % 256, 0u);
  }
}

// --- the protocol, on the GPU -------------------------------------------------------------------------

struct three_words {  // 12 bytes: always split
  std::uint32_t a, b, c;
};
__host__ __device__ bool operator==(const three_words& x, const three_words& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c;
}

template <class V>
__host__ __device__ bool operator==(const archscan::detail::keyed<V>& x, const archscan::detail::keyed<V>& y) {
  return x.value == y.value && x.flags == y.flags;
}

//! The value tile `t` publishes with status `s` (1 aggregate, 2 prefix): distinct for every pair.
template <class T>
__host__ __device__ T value_of(std::int64_t t, unsigned s) {
  const auto x = static_cast<std::uint64_t>(t) * 4 + s;
  if constexpr (archscan::detail::is_keyed_v<T>) {  // flags that vary with the tile as the value does
    using V = typename archscan::detail::keyed_value<T>::type;
    return T{value_of<V>(t, s), static_cast<std::uint8_t>((t + s) % 4)};
  } else if constexpr (std::is_same_v<T, three_words>) {
    return three_words{static_cast<std::uint32_t>(x), ~static_cast<std::uint32_t>(x), 0x5a5a0000u + s};
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(x) + T(0.25);
  } else {
    return static_cast<T>(x * 0x9e3779b97f4a7c15ull >> (64 - 8 * sizeof(T)));
  }
}

constexpr int starve_every   = 7;
constexpr unsigned starve_ns = 50000;
constexpr int watcher_blocks = 4;

//! Blocks [0, watcher_blocks) watch: each lane polls its share of the tiles until every one shows its
//! prefix, counting every observation whose value does not match its status and every status that
//! moved backwards. The other blocks publish: each claims a tile id from the counter, records the
//! claim, starves if chosen, publishes its aggregate, then its prefix. Watchers come first so that
//! they start polling before the publishers finish, however the blocks are scheduled (racecheck
//! runs the grid in another order than the hardware does); publishers wait for nothing, so they
//! finish whatever the watchers occupy.
template <class T, bool Packed>
__global__ void publish_and_watch(tile_state<T, Packed> st, std::int64_t tiles, unsigned* d_claims,
                                  unsigned long long* d_bad, unsigned long long* d_observed,
                                  unsigned long long* d_invalid) {
  if (blockIdx.x >= watcher_blocks) {
    if (threadIdx.x != 0) return;
    const std::int64_t t = st.next_tile();
    if (t < 0 || t >= tiles) {
      atomicAdd(d_bad, 1ull);
      return;
    }
    atomicAdd(d_claims + t, 1u);
    if (t % starve_every == starve_every - 1) {
      for (unsigned slept = 0; slept < starve_ns; slept += 1000) __nanosleep(1000);
    }
    st.publish(t, tile::status_aggregate, value_of<T>(t, 1));
    __nanosleep(2000);
    st.publish(t, tile::status_prefix, value_of<T>(t, 2));
    return;
  }
  unsigned long long bad = 0, observed = 0, invalid = 0;
  for (std::int64_t t = threadIdx.x; t < tiles; t += blockDim.x) {
    unsigned last = tile::status_invalid;
    for (;;) {
      T v{};
      const tile::tile_status s = st.poll(t, v);
      ++observed;
      if (s < last) ++bad;                                                // moved backwards
      if (s != tile::status_invalid && !(v == value_of<T>(t, s))) ++bad;  // status without its value
      if (s == tile::status_invalid) ++invalid;
      last = s;
      if (s == tile::status_prefix) break;
    }
  }
  atomicAdd(d_bad, bad);
  atomicAdd(d_observed, observed);
  atomicAdd(d_invalid, invalid);
}

template <class T, bool Packed>
void check_protocol(std::int64_t tiles) {
  const auto layout = make_tile_state_layout(tiles, sizeof(T), Packed);
  ASSERT_EQ(layout.packed, Packed);
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(layout.bytes));
  temp.poison();  // the reset must make every state invalid, whatever was there
  device_buffer<unsigned> claims(tiles);
  device_buffer<unsigned long long> counts(3);
  ARCHSCAN_CUDA_OK(cudaMemset(claims.get(), 0, sizeof(unsigned) * static_cast<std::size_t>(tiles)));
  ARCHSCAN_CUDA_OK(cudaMemset(counts.get(), 0, 3 * sizeof(unsigned long long)));
  tile::reset_tile_states(temp.get(), layout, nullptr, "reset");
  const auto st = tile_state<T, Packed>::bind(temp.get(), layout);
  publish_and_watch<T, Packed><<<static_cast<unsigned>(tiles + watcher_blocks), 32>>>(
      st, tiles, claims.get(), counts.get(), counts.get() + 1, counts.get() + 2);
  ARCHSCAN_CUDA_OK(cudaGetLastError());
  ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());

  const std::vector<unsigned long long> c = counts.to_host();
  EXPECT_EQ(c[0], 0u) << "observations with a status but not its value, or a status moving backwards";
  EXPECT_GE(c[1], static_cast<unsigned long long>(watcher_blocks * tiles));
  EXPECT_GT(c[2], 0u) << "the watchers never saw a starved tile still invalid: the test did not test waiting";
  const std::vector<unsigned> got = claims.to_host();
  for (std::int64_t t = 0; t < tiles; ++t) ASSERT_EQ(got[static_cast<std::size_t>(t)], 1u) << "tile id " << t;
}

TEST(TileState, PackedFourByteWordsUnderStarvation) {
  ARCHSCAN_REQUIRE_GPU();
  check_protocol<std::uint32_t, true>(5000);
  check_protocol<float, true>(777);
}

TEST(TileState, PackedSixteenByteWordsUnderStarvation) {
  ARCHSCAN_REQUIRE_GPU();
  check_protocol<double, true>(5000);
  check_protocol<std::uint64_t, true>(777);
}

TEST(TileState, PackedByKeyItemsOfEightByteValuesUnderStarvation) {
  ARCHSCAN_REQUIRE_GPU();
  // 16 bytes with their flags: the flags travel beside the status, the value in the other half.
  static_assert(sizeof(archscan::detail::keyed<double>) == 16 &&
                tile::fits_status_word<archscan::detail::keyed<double>>);
  check_protocol<archscan::detail::keyed<double>, true>(5000);
  check_protocol<archscan::detail::keyed<std::int64_t>, true>(777);
}

TEST(TileState, SplitStatesUnderStarvation) {
  ARCHSCAN_REQUIRE_GPU();
  check_protocol<three_words, false>(5000);
  check_protocol<std::uint64_t, false>(5000);  // what tile_status_kind::flag_and_values asks for
  check_protocol<std::uint32_t, false>(777);
}

}  // namespace
