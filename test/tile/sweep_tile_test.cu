// tile/sweep_tile.cuh: the blelloch family's per-block work ("Arrays of Arbitrary Size"): scan one
// block of 2 x Threads items and store its sum, and the uniform add of the scanned block sums. Host:
// a block's items and shared memory. On the GPU, with an affine map that does not commute (odd
// factors, so that a composition never forgets a map), each step against the host on its own: a
// problem of one block written straight to the output (seeded, inclusive and exclusive); a block's
// local prefixes in scratch (inclusive, or exclusive with the block's first item left unwritten) and
// its sum; and the uniform add from scratch and the scanned sums to the output, with the seed. Sizes
// at block edges +-1, and a last block of one item.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/sweep_tile.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/primitives.cuh"
#include "support/values.cuh"

namespace sweep_tile_test {

namespace detail = archscan::detail;
using archscan::test::affine2;
using archscan::test::affine2_compose;
using archscan::test::device_buffer;

constexpr int threads = 128;
template <detail::scan_kind Kind, bool HasSeed>
using problem =
    detail::scan_problem<const affine2*, affine2*, affine2, affine2_compose, detail::identity_finish, Kind, HasSeed>;
using inclusive_problem        = problem<detail::scan_kind::inclusive, false>;
using seeded_inclusive_problem = problem<detail::scan_kind::inclusive, true>;
using exclusive_problem        = problem<detail::scan_kind::exclusive, true>;
//! The paper's padded layout for the inclusive scans, the unpadded one for the exclusive ones.
template <class Problem>
using tile_of = archscan::tile::sweep_tile<Problem, threads, !Problem::exclusive>;

TEST(SweepTileShape, TwoItemsAThreadInSharedMemory) {
  static_assert(tile_of<inclusive_problem>::items == 2 * threads);
  static_assert(tile_of<exclusive_problem>::items == 2 * threads);
  // Unpadded: the items alone; padded: a slot more every 32 (16 for 8-byte items).
  EXPECT_EQ(tile_of<exclusive_problem>::smem_bytes, 2 * threads * static_cast<int>(sizeof(affine2)));
  EXPECT_GT(tile_of<inclusive_problem>::smem_bytes, 2 * threads * static_cast<int>(sizeof(affine2)));
}

template <class Problem, bool Final>
__global__ void scan_blocks(Problem p, affine2* scratch, affine2* sums) {
  extern __shared__ __align__(16) unsigned char smem[];
  tile_of<Problem>::template scan_block<Final>(p, reinterpret_cast<affine2*>(smem), scratch, sums);
}

template <class Problem>
__global__ void uniform_add(Problem p, const affine2* scratch, const affine2* sums) {
  tile_of<Problem>::uniform_add(p, scratch, sums);
}

const affine2_compose op{};

//! The host's scan of `h` from `*seed` (none: from the first item).
std::vector<affine2> host_scan(const std::vector<affine2>& h, bool exclusive, const affine2* seed) {
  return archscan::test::host_scan(h, op, exclusive, seed != nullptr, seed != nullptr ? *seed : affine2{});
}

affine2 poison_value() {
  affine2 x;
  std::memset(&x, 0xA5, sizeof(x));
  return x;
}

template <class Problem>
void check_one_block(const affine2* seed) {
  using tile = tile_of<Problem>;
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{tile::items - 1}, std::int64_t{tile::items}}) {
    const auto h = archscan::test::exact_inputs<affine2>(n, static_cast<std::uint64_t>(n));
    device_buffer<affine2> d_in(h), d_out(n);
    d_out.poison();
    const Problem p{d_in.get(), d_out.get(), n, op, {}, Problem::has_seed ? *seed : affine2{}, {}};
    scan_blocks<Problem, true><<<1, threads, tile::smem_bytes>>>(p, nullptr, nullptr);
    ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    const auto out  = d_out.to_host();
    const auto want = host_scan(h, Problem::exclusive, seed);
    for (std::int64_t i = 0; i < n; ++i) ASSERT_TRUE(out[i] == want[i]) << "n = " << n << ", i = " << i;
  }
}

TEST(SweepTile, OneBlockStraightToTheOutput) {
  ARCHSCAN_REQUIRE_GPU();
  const affine2 seed{3, 7};
  check_one_block<inclusive_problem>(nullptr);
  check_one_block<seeded_inclusive_problem>(&seed);
  check_one_block<exclusive_problem>(&seed);
}

//! Several blocks: scan_block<false>'s scratch and sums against the host's blocks, then uniform_add
//! from that scratch and the host's inclusive scan of the device's sums against the host's scan.
template <class Problem>
void check_blocks(const affine2* seed) {
  using tile                   = tile_of<Problem>;
  constexpr std::int64_t items = tile::items;
  for (const std::int64_t n : {items + 1, 3 * items - 1, 3 * items, 5 * items + 7, 4 * items + 1}) {
    const std::int64_t blocks = (n + items - 1) / items;
    const auto h              = archscan::test::exact_inputs<affine2>(n, static_cast<std::uint64_t>(n) + 1);
    device_buffer<affine2> d_in(h), d_out(n), d_scratch(n), d_sums(blocks);
    d_out.poison();
    d_scratch.poison();
    d_sums.poison();
    const Problem p{d_in.get(), d_out.get(), n, op, {}, Problem::has_seed ? *seed : affine2{}, {}};
    scan_blocks<Problem, false>
        <<<static_cast<unsigned>(blocks), threads, tile::smem_bytes>>>(p, d_scratch.get(), d_sums.get());
    ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    const auto scratch = d_scratch.to_host();
    const auto sums    = d_sums.to_host();
    EXPECT_TRUE(d_out.to_host() == std::vector<affine2>(static_cast<std::size_t>(n), poison_value()))
        << "a block that is not the whole problem writes no output, n = " << n;
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::int64_t base = b * items, end = std::min(n, base + items);
      const std::vector<affine2> block(h.begin() + base, h.begin() + end);
      const auto local = host_scan(block, Problem::exclusive, nullptr);
      for (std::int64_t i = base; i < end; ++i) {
        // An exclusive block's first item has no local prefix: left unwritten.
        const affine2 want = Problem::exclusive && i == base ? poison_value() : local[i - base];
        ASSERT_TRUE(scratch[i] == want) << "scratch, n = " << n << ", i = " << i;
      }
      // The last block's sum may fold its padding; no block reads it.
      if (end - base == items) {
        const affine2 total = Problem::exclusive ? op(local.back(), block.back()) : local.back();
        ASSERT_TRUE(sums[b] == total) << "sum of block " << b << ", n = " << n;
      }
    }
    std::vector<affine2> scanned_sums(sums);
    for (std::size_t b = 1; b < scanned_sums.size(); ++b) scanned_sums[b] = op(scanned_sums[b - 1], sums[b]);
    device_buffer<affine2> d_scanned(scanned_sums);
    uniform_add<Problem><<<static_cast<unsigned>(blocks), threads>>>(p, d_scratch.get(), d_scanned.get());
    ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    const auto out  = d_out.to_host();
    const auto want = host_scan(h, Problem::exclusive, seed);
    for (std::int64_t i = 0; i < n; ++i) ASSERT_TRUE(out[i] == want[i]) << "uniform add, n = " << n << ", i = " << i;
  }
}

TEST(SweepTile, BlocksLocalPrefixesSumsAndTheUniformAdd) {
  ARCHSCAN_REQUIRE_GPU();
  const affine2 seed{5, 11};
  check_blocks<inclusive_problem>(nullptr);
  check_blocks<seeded_inclusive_problem>(&seed);
  check_blocks<exclusive_problem>(&seed);
}

}  // namespace sweep_tile_test
