// The host side of a scan across ranks, without a GPU: how a rank folds the gathered records into its
// seed (rank order, empty ranks, non-commutative operators, by-key runs across ranks, disagreeing
// ranks), the records' slots and the call's storage layout, and the policy's arguments.

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <thrust/random.h>
#include <thrust/shuffle.h>

#include <archscan/nccl.cuh>

#include "support/gpu.cuh"

#include "support/values.cuh"

namespace {

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

TEST(RankLayout, PartsAreAlignedAndDisjoint) {
  for (std::size_t family : {std::size_t{0}, std::size_t{1}, std::size_t{4096}, std::size_t{1000001}}) {
    for (int ranks : {1, 2, 8}) {
      const auto l = archscan::dispatch::make_rank_layout(family, 8 * 4097, ranks, 512);
      EXPECT_GE(l.chunks_offset, family);
      EXPECT_EQ(0u, l.chunks_offset % 256);
      EXPECT_GE(l.records_offset, l.chunks_offset + 8 * 4097);
      EXPECT_EQ(0u, l.records_offset % 256);
      EXPECT_EQ(l.bytes, l.records_offset + 512u * ranks);
    }
  }
}

// Chunks of the first pass: a function of n alone, at most ~8192 of them, every full tile in one.
TEST(RankLayout, ChunksDependOnTheTileCountAlone) {
  using archscan::dispatch::rank_tiles_per_chunk;
  for (std::int64_t tiles : {std::int64_t{1}, std::int64_t{12}, std::int64_t{4096}, std::int64_t{8191},
                             std::int64_t{209716}, std::int64_t{419431}, std::int64_t{1} << 33}) {
    const std::int64_t per    = rank_tiles_per_chunk(tiles);
    const std::int64_t chunks = (tiles + per - 1) / per;
    EXPECT_GE(per, 1);
    EXPECT_LE(chunks, 8192) << tiles << " tiles";
    EXPECT_GE(chunks * per, tiles);
    EXPECT_LT((chunks - 1) * per, tiles);
  }
}

TEST(CommPolicy, AcrossKeepsStreamAndCommunicator) {
  auto* comm                = reinterpret_cast<ncclComm*>(0x1000);  // never dereferenced here
  const cudaStream_t stream = reinterpret_cast<cudaStream_t>(0x2000);
  auto p                    = archscan::native_nosync.on(stream).across(comm);
  static_assert(std::is_same_v<decltype(p), archscan::comm_policy<archscan::native_tuning, false>>);
  EXPECT_EQ(p.comm, comm);
  EXPECT_EQ(archscan::detail::thrust_internals::stream(p), stream);
  static_assert(archscan::detail::across_ranks<decltype(p)>);
  static_assert(!archscan::detail::across_ranks<archscan::stream_policy<archscan::native_tuning, true>>);
}

TEST(CommPolicy, NullCommunicatorThrowsBeforeAnyCudaCall) {
  std::vector<int> unused;
  int* d = nullptr;  // never touched: the communicator is checked first
  try {
    thrust::inclusive_scan(archscan::native.across(nullptr), d, d + 10, d);
    FAIL() << "no exception";
  } catch (const thrust::system_error& e) {
    EXPECT_STREQ("nccl", e.code().category().name());
    EXPECT_NE(std::string(e.what()).find("communicator"), std::string::npos) << e.what();
  }
}

// Thrust's shuffle scans internally with the caller's policy; with a policy across ranks it must shuffle
// the local slice. The communicator here is null: had the scan inside gone across ranks, it would throw
// an NCCL error (as the test above shows). With a GPU the shuffle runs and permutes the slice; without
// one it reaches the CUDA backend and throws a CUDA error.
TEST(CommPolicy, ShuffleStaysLocal) {
  const bool gpu = archscan::test::gpu_available();
  int* d_in      = nullptr;
  int* d_out     = nullptr;
  const int h[5] = {1, 2, 3, 4, 5};
  if (gpu) {
    ASSERT_EQ(cudaSuccess, cudaMalloc(&d_in, sizeof(h)));
    ASSERT_EQ(cudaSuccess, cudaMalloc(&d_out, sizeof(h)));
    ASSERT_EQ(cudaSuccess, cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice));
  }
  const auto policy = archscan::native.across(nullptr);
  // shuffle_copy first: it allocates nothing before its scan, so without a GPU the scan's own first
  // CUDA call is what throws (shuffle in place allocates a copy first, which throws std::bad_alloc).
  for (const bool in_place : {false, true}) {
    try {
      if (in_place) {
        thrust::shuffle(policy, d_in, d_in + 5, thrust::default_random_engine(7));
      } else {
        thrust::shuffle_copy(policy, d_in, d_in + 5, d_out, thrust::default_random_engine(9));
      }
      ASSERT_TRUE(gpu) << "no GPU, yet the shuffle ran";
      int got[5];
      ASSERT_EQ(cudaSuccess, cudaMemcpy(got, in_place ? d_in : d_out, sizeof(got), cudaMemcpyDeviceToHost));
      std::sort(got, got + 5);
      EXPECT_TRUE(std::equal(got, got + 5, h)) << "not a permutation of the slice";
    } catch (const thrust::system_error& e) {
      EXPECT_FALSE(gpu) << e.what();
      EXPECT_STRNE("nccl", e.code().category().name()) << "the shuffle's scan went across ranks: " << e.what();
      EXPECT_FALSE(in_place) << e.what();
    } catch (const std::bad_alloc& e) {
      EXPECT_FALSE(gpu) << e.what();
      EXPECT_TRUE(in_place) << e.what();
    }
  }
  cudaFree(d_in);
  cudaFree(d_out);
}

TEST(CommPolicy, NcclErrorsCarryNcclsMessage) {
  try {
    archscan::dispatch::throw_on_nccl(ncclInvalidArgument, nullptr, "archscan: test");
    FAIL() << "no exception";
  } catch (const thrust::system_error& e) {
    EXPECT_EQ(static_cast<int>(ncclInvalidArgument), e.code().value());
    EXPECT_NE(std::string(e.what()).find(ncclGetErrorString(ncclInvalidArgument)), std::string::npos) << e.what();
  }
}

}  // namespace

// Small slices put a total per tile into the record (one kernel before the gather); larger ones fold
// chunks' totals into one; every item is in exactly one chunk, and an empty slice still writes a header.
TEST(RankLayout, FirstPassPutsSmallSlicesTotalsInTheRecord) {
  using archscan::dispatch::make_rank_chunks;
  constexpr std::int64_t tile = 5120;
  constexpr int capacity      = 32;
  const auto empty            = make_rank_chunks(0, tile, capacity);
  EXPECT_TRUE(empty.in_record && empty.chunks == 1 && empty.record_totals == 0 && empty.full_tiles == 0);
  const auto partial = make_rank_chunks(tile - 1, tile, capacity);
  EXPECT_TRUE(partial.in_record && partial.chunks == 1 && partial.record_totals == 1 && partial.full_tiles == 0);
  const auto at_2_16 = make_rank_chunks(1 << 16, tile, capacity);  // 12 full tiles, then the tail's own chunk
  EXPECT_TRUE(at_2_16.in_record && at_2_16.chunks == 13 && at_2_16.record_totals == 13 && at_2_16.tiles_per_chunk == 1);
  EXPECT_EQ(12, at_2_16.full_tiles);
  const auto fits = make_rank_chunks(capacity * tile, tile, capacity);
  EXPECT_TRUE(fits.in_record && fits.chunks == capacity && fits.record_totals == capacity);
  const auto fits_with_tail = make_rank_chunks((capacity - 1) * tile + 1, tile, capacity);
  EXPECT_TRUE(fits_with_tail.in_record && fits_with_tail.chunks == capacity);
  const auto over = make_rank_chunks(capacity * tile + 1, tile, capacity);
  EXPECT_TRUE(!over.in_record && over.chunks == capacity && over.record_totals == 1 && over.full_tiles == capacity);
  for (std::int64_t n : {std::int64_t{1} << 20, (std::int64_t{1} << 30) + 7, std::int64_t{1} << 40}) {
    const auto c = make_rank_chunks(n, tile, capacity);
    EXPECT_FALSE(c.in_record);
    EXPECT_EQ(1, c.record_totals);
    EXPECT_EQ(n / tile, c.full_tiles);
    EXPECT_GE(c.chunks * c.tiles_per_chunk, c.full_tiles);
    EXPECT_LT((c.chunks - 1) * c.tiles_per_chunk, c.full_tiles);
    EXPECT_LT(c.chunks, 8192);
  }
}
