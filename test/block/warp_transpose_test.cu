// block/warp_transpose.cuh: each warp's exchange between the striped and the blocked arrangement through
// its own region. Host: the slot layout (item i at i plus one padding slot per row of 32 banks where
// the layout pads) fits the region, splits into the per-lane bases and compile-time offsets the exchange
// uses, pads exactly where the header says, and leaves no bank conflict in the striped accesses nor in
// the blocked ones where it promises none (an odd item count, or padding), for 4-, 8- and 16-byte
// items. GPU: several warps, each in its own region, exchange random items striped to blocked and back
// twice over (the region reused), for items of 1, 4, 8, 12 and 16 bytes and odd and even counts.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/block/warp_transpose.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace warp_transpose_test {

template <int Bytes>
struct bytes {
  unsigned char b[Bytes];
};

//! Item i's slot, as the header states it.
template <class W>
int slot(int i) {
  return i + W::pad_per_row * (i / W::row_items);
}

//! Whether 32 lanes' accesses of `words` 4-byte words each, at these slots, meet no bank conflict: the
//! hardware serves them in `words` phases of 32 / words lanes, each conflict-free when its lanes' slots
//! differ modulo 32 / words.
bool conflict_free(const std::vector<int>& slots, int words) {
  const int lanes = 32 / words;
  for (int phase = 0; phase < words; ++phase) {
    std::vector<int> used(static_cast<std::size_t>(lanes), 0);
    for (int l = phase * lanes; l < (phase + 1) * lanes; ++l) {
      if (used[static_cast<std::size_t>(slots[l] % lanes)]++) return false;
    }
  }
  return true;
}

template <int Bytes, int Items>
void check_layout() {
  using W          = archscan::block::warp_transpose<bytes<Bytes>, 128, Items>;
  const auto where = "item bytes " + std::to_string(Bytes) + ", items " + std::to_string(Items);
  static_assert(W::warps == 4 && W::warp_items == 32 * Items && W::words == (Bytes + 3) / 4);
  const bool pow2  = (W::words & (W::words - 1)) == 0;
  const int row    = pow2 ? 32 / W::words : 1;
  const bool split = row % Items == 0 || Items % row == 0;
  EXPECT_EQ(W::padded, pow2 && Items % 2 == 0 && split) << where;
  EXPECT_EQ(W::warp_slots, W::padded ? W::warp_items + W::warp_items / row : W::warp_items) << where;
  EXPECT_LT(slot<W>(W::warp_items - 1), W::warp_slots) << where;
  std::vector<int> striped(32), blocked(32);
  for (int l = 0; l < 32; ++l) {
    for (int j = 0; j < Items; ++j) {  // blocked: lane l's item j is item l * Items + j
      ASSERT_EQ(slot<W>(l * Items + j), slot<W>(l * Items) + W::blocked_offset(j)) << where << ", lane " << l;
    }
    for (int k = 0; k < Items; ++k) {  // striped: lane l's item k is item k * 32 + l
      ASSERT_EQ(slot<W>(k * 32 + l), slot<W>(l) + k * W::striped_step) << where << ", lane " << l;
    }
  }
  for (int k = 0; k < Items; ++k) {
    for (int l = 0; l < 32; ++l) {
      striped[l] = slot<W>(k * 32 + l);
      blocked[l] = slot<W>(l * Items + k);
    }
    EXPECT_TRUE(conflict_free(striped, W::words)) << where << ", striped item " << k;
    // Padding shifts lane l by l * Items / row slots: distinct banks when that is l times an odd number
    // (an even multiple of a row, 64 four-byte items or 16 sixteen-byte ones, keeps a two-way conflict).
    const bool promised = Items % 2 == 1 || (W::padded && (Items < row || (Items / row) % 2 == 1));
    if (promised) EXPECT_TRUE(conflict_free(blocked, W::words)) << where << ", blocked item " << k;
  }
}

template <int Bytes>
void check_layouts() {
  check_layout<Bytes, 1>();
  check_layout<Bytes, 2>();
  check_layout<Bytes, 3>();
  check_layout<Bytes, 4>();
  check_layout<Bytes, 7>();
  check_layout<Bytes, 8>();
  check_layout<Bytes, 12>();  // even, and neither it nor a row divides the other: unpadded
  check_layout<Bytes, 16>();
  check_layout<Bytes, 40>();
  check_layout<Bytes, 64>();
}

TEST(WarpTranspose, LayoutSplitsPadsAndAvoidsBankConflicts) {
  check_layouts<4>();
  check_layouts<8>();
  check_layouts<16>();
  // Words that are no power of two: never padded, the stride itself spreads the banks.
  static_assert(!archscan::block::warp_transpose<bytes<12>, 128, 8>::padded);
  static_assert(archscan::block::warp_transpose<bytes<12>, 128, 8>::warp_slots == 256);
}

//! Striped in (lane l holds the segment's items l, l + 32, ...), blocked out to `blocked`, back to
//! striped and out to `striped`, twice: every exchange reuses the warp's region.
template <class T, int Threads, int Items>
__global__ void exchange_twice(const T* in, T* blocked, T* striped) {
  using W = archscan::block::warp_transpose<T, Threads, Items>;
  __shared__ T regions[W::warps * W::warp_slots];
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const std::int64_t base = (static_cast<std::int64_t>(blockIdx.x) * W::warps + warp) * W::warp_items;
  T* region               = regions + warp * W::warp_slots;
  T items[Items];
  for (int k = 0; k < Items; ++k) items[k] = in[base + k * 32 + lane];
  for (int round = 0; round < 2; ++round) {
    W::striped_to_blocked(items, region);
    for (int j = 0; j < Items; ++j) blocked[base + lane * Items + j] = items[j];
    W::blocked_to_striped(items, region);
    for (int k = 0; k < Items; ++k) striped[base + k * 32 + lane] = items[k];
  }
}

template <class T, int Items>
void expect_exchange(std::uint64_t seed) {
  constexpr int threads = 128, blocks = 3;
  const std::int64_t n = std::int64_t{blocks} * threads * Items;
  std::mt19937_64 rng(seed);
  std::vector<T> h(static_cast<std::size_t>(n));
  for (auto& x : h) {
    unsigned char raw[sizeof(T)];
    for (auto& c : raw) c = static_cast<unsigned char>(rng());
    std::memcpy(&x, raw, sizeof(T));
  }
  archscan::test::device_buffer<T> in(h), blocked(n), striped(n);
  blocked.poison();
  striped.poison();
  exchange_twice<T, threads, Items><<<blocks, threads>>>(in.get(), blocked.get(), striped.get());
  ASSERT_EQ(cudaSuccess, cudaGetLastError());
  const auto b = blocked.to_host(), s = striped.to_host();
  // The segment's items in order either way: blocked[l * Items + j] and striped[k * 32 + l] are the
  // items those positions name.
  EXPECT_EQ(0, std::memcmp(b.data(), h.data(), h.size() * sizeof(T))) << sizeof(T) << " bytes, " << Items << " items";
  EXPECT_EQ(0, std::memcmp(s.data(), h.data(), h.size() * sizeof(T))) << sizeof(T) << " bytes, " << Items << " items";
}

TEST(WarpTranspose, WarpsExchangeTheirSegmentsBothWays) {
  ARCHSCAN_REQUIRE_GPU();
  expect_exchange<std::uint8_t, 3>(1);
  expect_exchange<std::uint32_t, 8>(2);   // padded
  expect_exchange<std::uint32_t, 12>(3);  // even, unpadded
  expect_exchange<double, 16>(4);         // padded, 8-byte words
  expect_exchange<bytes<12>, 4>(5);       // words no power of two
  expect_exchange<bytes<16>, 7>(6);       // odd
}

}  // namespace warp_transpose_test
