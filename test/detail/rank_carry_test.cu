// detail/rank_carry.cuh (host): how a rank folds the records that every rank of a scan across ranks
// publishes into its own seed: rank order, empty ranks skipped, an exclusive scan's init once before
// rank 0, several partial totals per record in item order, non-commutative and rounding operators,
// by-key runs that continue across ranks (and across empty ones), the disagreeing rank found, and the
// records' slots and signatures. The fold is host and device code; the host runs the same loop, so
// these checks need no GPU and no NCCL.

#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <thrust/functional.h>

#include <archscan/detail/rank_carry.cuh>

#include "support/values.cuh"

namespace rank_carry_test {

using archscan::detail::fold_lower_ranks;
using archscan::detail::keyed;
using archscan::detail::maybe;
using archscan::detail::no_boundary;
using archscan::detail::no_key;
using archscan::detail::rank_record;
using archscan::detail::rank_slot_bytes;
using archscan::test::mat2;
using archscan::test::mat2_mul;

//! Records as NCCL gathers them: one slot per rank.
template <class Accum, class Key>
struct gathered {
  static constexpr std::size_t slot = rank_slot_bytes<Accum, Key>();
  std::vector<unsigned char> bytes;
  explicit gathered(int ranks) : bytes(slot * static_cast<std::size_t>(ranks), 0xCD) {}
  rank_record<Accum, Key>& at(int r) { return *reinterpret_cast<rank_record<Accum, Key>*>(bytes.data() + slot * r); }
  void set(int r, std::uint64_t signature, std::int64_t n, Accum total, Key first = {}, Key last = {}) {
    at(r).header = {signature, n, n > 0 ? 1 : 0};
    if (n > 0) {
      at(r).totals[0] = total;
      at(r).first_key = first;
      at(r).last_key  = last;
    }
  }
};

struct plus_int {
  __host__ __device__ int operator()(int a, int b) const { return a + b; }
};

TEST(RankCarry, FoldsLowerRanksInOrderSkippingEmptyOnes) {
  gathered<int, no_key> g(4);
  g.set(0, 42, 3, 10);
  g.set(1, 42, 0, 0);
  g.set(2, 42, 5, 20);
  g.set(3, 42, 2, 7);
  const maybe<int> none{0, 0};
  EXPECT_EQ(0, (fold_lower_ranks<int, no_key>(g.bytes.data(), 0, none, plus_int{}, no_boundary{}).valid));
  const auto r1 = fold_lower_ranks<int, no_key>(g.bytes.data(), 1, none, plus_int{}, no_boundary{});
  EXPECT_TRUE(r1.valid && r1.value == 10);
  const auto r2 = fold_lower_ranks<int, no_key>(g.bytes.data(), 2, none, plus_int{}, no_boundary{});
  EXPECT_TRUE(r2.valid && r2.value == 10);  // rank 1 holds nothing
  const auto r3 = fold_lower_ranks<int, no_key>(g.bytes.data(), 3, none, plus_int{}, no_boundary{});
  EXPECT_TRUE(r3.valid && r3.value == 30);
  // An exclusive scan's init enters once, before rank 0.
  const maybe<int> init{100, 1};
  const auto e0 = fold_lower_ranks<int, no_key>(g.bytes.data(), 0, init, plus_int{}, no_boundary{});
  EXPECT_TRUE(e0.valid && e0.value == 100);
  const auto e3 = fold_lower_ranks<int, no_key>(g.bytes.data(), 3, init, plus_int{}, no_boundary{});
  EXPECT_TRUE(e3.valid && e3.value == 130);
}

TEST(RankCarry, NonCommutativeOperatorKeepsRankOrder) {
  gathered<mat2, no_key> g(3);
  const mat2 a{1, 2, 0, 1}, b{1, 0, 3, 1}, init{2, 0, 0, 1};
  g.set(0, 9, 1, a);
  g.set(1, 9, 1, b);
  g.set(2, 9, 1, a);
  const auto s = fold_lower_ranks<mat2, no_key>(g.bytes.data(), 2, maybe<mat2>{init, 1}, mat2_mul{}, no_boundary{});
  ASSERT_TRUE(s.valid);
  EXPECT_EQ(s.value, mat2_mul{}(mat2_mul{}(init, a), b));
  EXPECT_NE(s.value, mat2_mul{}(mat2_mul{}(init, b), a));  // the order matters for this operator
}

// A small slice publishes one partial total per chunk of its first pass; they fold in item order.
TEST(RankCarry, PartialTotalsFoldInOrder) {
  constexpr int capacity = archscan::detail::rank_record_capacity<mat2, no_key>();
  static_assert(capacity >= 3, "a 16-byte accumulator's record holds several totals");
  gathered<mat2, no_key> g(3);
  const mat2 a{1, 2, 0, 1}, b{1, 0, 3, 1}, c{2, 1, 1, 1};
  g.set(0, 9, 100, a);
  g.at(0).header.totals = 3;  // rank 0: a, b, c
  g.at(0).totals[1]     = b;
  g.at(0).totals[2]     = c;
  g.set(1, 9, 7, b);
  g.set(2, 9, 1, a);
  const mat2_mul mul;
  const auto s1 = fold_lower_ranks<mat2, no_key>(g.bytes.data(), 1, maybe<mat2>{mat2{}, 0}, mul, no_boundary{});
  ASSERT_TRUE(s1.valid);
  EXPECT_EQ(s1.value, mul(mul(a, b), c));
  const auto s2 = fold_lower_ranks<mat2, no_key>(g.bytes.data(), 2, maybe<mat2>{mat2{}, 0}, mul, no_boundary{});
  ASSERT_TRUE(s2.valid);
  EXPECT_EQ(s2.value, mul(mul(mul(a, b), c), b));
  // A full record: every total counts, and none past header.totals.
  gathered<int, no_key> full(2);
  constexpr int k = archscan::detail::rank_record_capacity<int, no_key>();
  full.set(0, 1, 1000, 1);
  full.at(0).header.totals = k;
  for (int i = 0; i < k; ++i) full.at(0).totals[i] = 1 << (i % 20);
  int expect = 0;
  for (int i = 0; i < k; ++i) expect += 1 << (i % 20);
  full.at(0).header.totals = k - 1;
  const auto partial = fold_lower_ranks<int, no_key>(full.bytes.data(), 1, maybe<int>{0, 0}, plus_int{}, no_boundary{});
  EXPECT_EQ(expect - (1 << ((k - 1) % 20)), partial.value);
  full.at(0).header.totals = k;
  const auto whole = fold_lower_ranks<int, no_key>(full.bytes.data(), 1, maybe<int>{0, 0}, plus_int{}, no_boundary{});
  EXPECT_EQ(expect, whole.value);
}

TEST(RankCarry, ByKeyRunsContinueAcrossRanksAndEmptyRanks) {
  using K  = keyed<int>;
  using op = archscan::detail::segmented_op<plus_int>;
  const archscan::detail::keyed_boundary<const int*, thrust::equal_to<int>> boundary{nullptr, {}};
  // rank 0: keys ... 5 (trailing run of 5 sums to 4); rank 1 empty; rank 2: keys 5 ... 6 (restarts inside,
  // trailing run of 6 sums to 3); rank 3 starts with key 6 or 7.
  gathered<K, int> g(4);
  g.set(0, 1, 4, K{4, K::restarts_bit}, 1, 5);
  g.set(1, 1, 0, K{});
  g.set(2, 1, 6, K{3, K::restarts_bit}, 5, 6);
  g.set(3, 1, 2, K{}, 6, 6);
  const maybe<K> none{K{}, 0};
  auto s = fold_lower_ranks<K, int>(g.bytes.data(), 3, none, op{}, boundary);
  ASSERT_TRUE(s.valid);
  EXPECT_EQ(3, s.value.value);
  EXPECT_FALSE(s.value.closes()) << "rank 3's first run continues rank 2's last run (key 6)";
  g.set(3, 1, 2, K{}, 7, 7);
  s = fold_lower_ranks<K, int>(g.bytes.data(), 3, none, op{}, boundary);
  EXPECT_TRUE(s.value.closes()) << "key 7 starts a new run on rank 3";
  // Rank 2's first run (key 5) continues rank 0's last run across the empty rank 1.
  s = fold_lower_ranks<K, int>(g.bytes.data(), 2, none, op{}, boundary);
  EXPECT_TRUE(s.valid && s.value.value == 4 && !s.value.closes());
  // Rank 2 without rank 0's run: rank 2's first run would start fresh.
  g.set(2, 1, 6, K{3, K::restarts_bit}, 8, 6);
  s = fold_lower_ranks<K, int>(g.bytes.data(), 2, none, op{}, boundary);
  EXPECT_TRUE(s.value.closes());
  // An exclusive by-key seed (a closed run holding init) is never reopened by a boundary.
  const maybe<K> init{archscan::detail::keyed_seed(100), 1};
  s = fold_lower_ranks<K, int>(g.bytes.data(), 0, init, op{}, boundary);
  EXPECT_TRUE(s.valid && s.value.closes() && s.value.value == 100);
}

TEST(RankCarry, EveryRankSeesADisagreement) {
  gathered<int, no_key> g(3);
  g.set(0, 5, 1, 1);
  g.set(1, 5, 1, 1);
  g.set(2, 6, 1, 1);  // rank 2 called another scan
  EXPECT_EQ(2, (archscan::detail::rank_disagreeing<int, no_key>(g.bytes.data(), 3, 5)));
  EXPECT_EQ(0, (archscan::detail::rank_disagreeing<int, no_key>(g.bytes.data(), 3, 6)));
  g.set(2, 5, 0, 0);  // an empty slice agrees too
  EXPECT_EQ(-1, (archscan::detail::rank_disagreeing<int, no_key>(g.bytes.data(), 3, 5)));
}

TEST(RankCarry, ByKeyInputsHaveAKeyedBoundaryOthersNone) {
  const int keys[3]   = {4, 4, 5};
  const int values[3] = {1, 2, 3};
  const auto input    = archscan::detail::make_keyed_input<int>(keys + 0, values + 0, thrust::equal_to<int>{}, 3);
  using of_keyed      = archscan::detail::boundary_of<std::decay_t<decltype(input)>>;
  static_assert(std::is_same_v<of_keyed::type, archscan::detail::keyed_boundary<const int*, thrust::equal_to<int>>>);
  static_assert(std::is_same_v<archscan::detail::boundary_of<const int*>::type, no_boundary>);
  const auto bound = of_keyed::get(input);
  EXPECT_EQ(keys, bound.keys);
  keyed<int> run{7, 0};
  bound(run, keys[1], keys[2]);
  EXPECT_TRUE(run.closes()) << "keys 4 and 5 differ: the next slice starts a run";
  bound(run, keys[0], keys[1]);
  EXPECT_FALSE(run.closes());
}

TEST(RankCarry, SlotsAndSignatures) {
  static_assert(rank_slot_bytes<int, no_key>() == 256);
  static_assert(rank_slot_bytes<mat2, int>() == 256);
  struct big {
    char b[300];
  };
  static_assert(rank_slot_bytes<big, no_key>() == 512);
  static_assert(archscan::detail::rank_record_capacity<big, no_key>() == 1);
  static_assert(archscan::detail::rank_record_capacity<int, no_key>() == 32);
  static_assert(archscan::detail::rank_record_capacity<double, keyed<double>>() >= 8);
  EXPECT_EQ((archscan::detail::rank_signature<int, plus_int>()), (archscan::detail::rank_signature<int, plus_int>()));
  EXPECT_NE((archscan::detail::rank_signature<int, plus_int>()), (archscan::detail::rank_signature<float, plus_int>()));
  EXPECT_NE((archscan::detail::rank_signature<int, plus_int>()), (archscan::detail::rank_signature<int, mat2_mul>()));
}

struct plus_float {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

// A rounding operator: the seed is the left fold in rank order, item order within a record, bit for
// bit; random totals, several per record, some ranks empty, against std::accumulate over the same order.
TEST(RankCarry, RoundingOperatorFoldsLeftToRightInRankOrder) {
  constexpr int ranks    = 9;
  constexpr int capacity = archscan::detail::rank_record_capacity<float, no_key>();
  std::mt19937_64 rng(20261207);
  std::uniform_real_distribution<float> value(-1000.0f, 1000.0f);
  gathered<float, no_key> g(ranks);
  std::vector<std::vector<float>> totals(ranks);
  for (int r = 0; r < ranks; ++r) {
    const bool empty = r == 2 || r == 5;
    const int count  = empty ? 0 : 1 + static_cast<int>(rng() % capacity);
    g.at(r).header   = {77, empty ? 0 : 1000 + r, count};
    for (int i = 0; i < count; ++i) {
      totals[r].push_back(value(rng));
      g.at(r).totals[i] = totals[r].back();
    }
  }
  const float init = value(rng);
  for (const bool seeded : {false, true}) {
    std::vector<float> order;  // every total below the rank, in the order the fold must take them
    if (seeded) order.push_back(init);
    for (int r = 0; r < ranks; ++r) {
      const auto s = fold_lower_ranks<float, no_key>(g.bytes.data(), r, maybe<float>{init, seeded ? 1 : 0},
                                                     plus_float{}, no_boundary{});
      ASSERT_EQ(s.valid != 0, !order.empty()) << "rank " << r;
      if (!order.empty()) {
        const float expect = std::accumulate(order.begin() + 1, order.end(), order.front());
        EXPECT_EQ(0, std::memcmp(&expect, &s.value, sizeof(float)))
            << "rank " << r << ": " << s.value << " vs " << expect;
      }
      order.insert(order.end(), totals[r].begin(), totals[r].end());
    }
  }
}

// The signature hashes the parts in order: two calls that differ only in their parts' order disagree.
TEST(RankCarry, SignaturesDependOnThePartsOrder) {
  EXPECT_NE((archscan::detail::rank_signature<int, float>()), (archscan::detail::rank_signature<float, int>()));
  EXPECT_NE((archscan::detail::rank_signature<int>()), (archscan::detail::rank_signature<int, int>()));
}

}  // namespace rank_carry_test
