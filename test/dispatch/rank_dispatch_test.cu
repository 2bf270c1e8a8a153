// dispatch/rank_dispatch.cuh, the host side of a scan across ranks, without a GPU: the call's storage
// layout and its first pass's chunks, the policy's arguments (the communicator checked before any CUDA
// call) and NCCL's errors. (How a rank folds the gathered records: detail/rank_carry_test.cu.)

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/nccl.cuh>

namespace {

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

TEST(CommPolicy, NcclErrorsCarryNcclsMessage) {
  try {
    archscan::dispatch::throw_on_nccl(ncclInvalidArgument, nullptr, "archscan: test");
    FAIL() << "no exception";
  } catch (const thrust::system_error& e) {
    EXPECT_EQ(static_cast<int>(ncclInvalidArgument), e.code().value());
    EXPECT_NE(std::string(e.what()).find(ncclGetErrorString(ncclInvalidArgument)), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("archscan: test"), std::string::npos) << e.what();  // names `what`
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
