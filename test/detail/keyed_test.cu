// detail::keyed (host): the segmented operator is associative for every combination of flags with a
// non-commutative operator, a left fold of by-key items gives the by-key scan, and keyed items choose
// their row by the registers they take.

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include <cuda/std/functional>
#include <gtest/gtest.h>

#include <archscan/detail/keyed.cuh>
#include <archscan/tuning.cuh>

namespace {

using archscan::detail::keyed;
using archscan::detail::segmented_op;

//! x -> a x + b, composed left to right: associative, not commutative.
struct affine {
  std::int64_t a, b;
  bool operator==(const affine& o) const { return a == o.a && b == o.b; }
};
struct compose {
  affine operator()(const affine& f, const affine& g) const { return {f.a * g.a, f.b * g.a + g.b}; }
};
using K = keyed<affine>;

TEST(Keyed, SegmentedOperatorIsAssociativeForEveryFlagCombination) {
  const segmented_op<compose> op{};
  const affine f{2, 1}, g{3, 5}, h{-1, 7};
  for (int fa = 0; fa < 4; ++fa) {
    for (int fb = 0; fb < 4; ++fb) {
      for (int fc = 0; fc < 4; ++fc) {
        const K a{f, static_cast<std::uint8_t>(fa)}, b{g, static_cast<std::uint8_t>(fb)},
            c{h, static_cast<std::uint8_t>(fc)};
        const K left = op(op(a, b), c), right = op(a, op(b, c));
        EXPECT_EQ(left.value, right.value) << fa << fb << fc;
        EXPECT_EQ(left.flags, right.flags) << fa << fb << fc;
      }
    }
  }
}

TEST(Keyed, LeftFoldOfItemsIsTheByKeyScan) {
  std::mt19937 rng(7);
  const std::int64_t n = 2000;
  std::vector<int> keys(n);
  std::vector<affine> values(n);
  for (std::int64_t i = 0; i < n; ++i) {
    keys[i]   = static_cast<int>(rng() % 3 == 0) + (i > 0 ? keys[i - 1] : 0);  // runs of random length
    values[i] = {static_cast<std::int64_t>(rng() % 3) + 1, static_cast<std::int64_t>(rng() % 11) - 5};
  }
  const auto item = archscan::detail::keyed_item<affine, const int*, const affine*, ::cuda::std::equal_to<int>>{
      keys.data(), values.data(), {}, n};
  const segmented_op<compose> op{};
  K running     = item(0);
  affine expect = values[0];
  for (std::int64_t i = 1; i < n; ++i) {
    running = op(running, item(i));
    expect  = keys[i] == keys[i - 1] ? compose{}(expect, values[i]) : values[i];
    ASSERT_EQ(expect, running.value) << i;
    ASSERT_EQ(i + 1 < n && keys[i + 1] != keys[i], running.closes()) << i;
  }
  // An exclusive scan's seed closes, so the first item starts a segment and the seed never leaks in.
  const K seeded = op(archscan::detail::keyed_seed(affine{5, 5}), item(0));
  EXPECT_EQ(values[0], seeded.value);
  EXPECT_TRUE(seeded.restarts());
}

TEST(Keyed, ItemsFormedFromRegistersMatchTheIterator) {
  const std::int64_t n   = 12;
  const int keys[n]      = {1, 1, 2, 2, 2, 3, 4, 4, 4, 4, 5, 5};
  const affine values[n] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6},
                            {7, 7}, {8, 8}, {9, 9}, {1, 2}, {3, 4}, {5, 6}};
  const auto item =
      archscan::detail::keyed_item<affine, const int*, const affine*, ::cuda::std::equal_to<int>>{keys, values, {}, n};
  for (const std::int64_t first : {0, 4, 8}) {  // runs of four items, the last one ending the input
    int k[4];
    affine v[4];
    for (int j = 0; j < 4; ++j) {
      k[j] = keys[first + j];
      v[j] = values[first + j];
    }
    affine x[4];
    unsigned closes = ~0u;  // every bit formed, not or-ed in
    item.form(first, k, v, first + 4 < n ? keys[first + 4] : -1, x, closes);
    EXPECT_EQ(closes >> 4, 0u) << "bits past the items";
    for (int j = 0; j < 4; ++j) {
      const K split = K::split(x[j], closes, j);
      EXPECT_EQ(item(first + j).value, split.value) << first + j;
      EXPECT_EQ(item(first + j).flags, split.flags) << first + j;
    }
  }
}

TEST(Keyed, RowsFollowRegistersOrTheValueSizeInKeyedRows) {
  // A tuning without by-key rows: by-key items take its plain rows by the registers they hold.
  static_assert(keyed<std::int8_t>::row_bytes == 8 && keyed<std::int32_t>::row_bytes == 8);
  static_assert(keyed<double>::row_bytes == 12 && keyed<affine>::row_bytes == 20);
  using turing = archscan::turing_tuning;
  static_assert(std::is_same_v<archscan::row_for_accum<turing, keyed<std::int8_t>>, turing::row_8>);
  static_assert(std::is_same_v<archscan::row_for_accum<turing, keyed<double>>, turing::row_16>);
  static_assert(std::is_same_v<archscan::row_for_accum<turing, double>, turing::row_8>);
  // native's by-key rows, by the value's size; plain items keep the plain rows.
  using native = archscan::native_tuning;
  static_assert(std::is_same_v<archscan::row_for_accum<native, keyed<std::int8_t>>, native::keyed_rows::row_1>);
  static_assert(std::is_same_v<archscan::row_for_accum<native, keyed<std::int32_t>>, native::keyed_rows::row_4>);
  static_assert(std::is_same_v<archscan::row_for_accum<native, keyed<double>>, native::keyed_rows::row_8>);
  // 9..12-byte values take row_large now (their row_bytes, 16, chose row_16 before keyed_rows).
  struct twelve_bytes {
    float x, y, z;
  };
  static_assert(keyed<twelve_bytes>::row_bytes == 16);
  static_assert(std::is_same_v<archscan::row_for_accum<native, keyed<twelve_bytes>>, native::row_large>);
  static_assert(std::is_same_v<archscan::row_for_accum<native, keyed<affine>>, native::row_large>);
  static_assert(std::is_same_v<archscan::row_for_accum<native, std::int8_t>, native::row_1>);
  static_assert(std::is_same_v<archscan::row_for_accum<native, double>, native::row_8>);
  SUCCEED();
}

}  // namespace
