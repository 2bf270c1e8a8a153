// tile/segment_lookback.cuh: the native family's deterministic segmented look-back. Host: the states
// each walk takes (the tiles', then one a segment of 32 tiles on the segment states) and which walk a
// configuration gives an accumulator by its size. On the GPU, under starvation (chosen tiles sleep
// ~100 us before publishing anything, so their successors must wait and still combine every
// predecessor in order): both walks, the chain of prefixes and the segment states, whatever the
// accumulator (plain, non-commutative and by-key items, 16-byte items too), one block per tile and with
// resident blocks looping over tiles, and tiles of 32 items, so that a walk back crosses many windows
// of segment ends. Runs through the public Thrust API with test hooks (hooks.cuh) attached to the
// tunings. The walks' association itself: tile/segment_fold_test.cu.

#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <thrust/functional.h>

#include <archscan/archscan.cuh>
#include <archscan/tile/segment_lookback.cuh>

#include "support/by_key.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/policies.cuh"
#include "support/starved_scans.cuh"
#include "support/values.cuh"

namespace segment_lookback_test {

using namespace archscan::test::starved;

//! The segment states of `tiles` tiles, counted a segment at a time.
std::int64_t segments_of(std::int64_t tiles) {
  std::int64_t segments = 0;
  for (std::int64_t first = 0; first < tiles; first += archscan::tile::segment_tiles) ++segments;
  return segments;
}

TEST(SegmentLookbackStates, TheTilesThenOneASegment) {
  for (const std::int64_t tiles : {std::int64_t{1}, std::int64_t{31}, std::int64_t{32}, std::int64_t{33},
                                   std::int64_t{64}, std::int64_t{65}, std::int64_t{1000}, std::int64_t{1} << 31}) {
    EXPECT_EQ(archscan::tile::segment_lookback_states(tiles), tiles + segments_of(tiles)) << tiles << " tiles";
  }
  static_assert(archscan::tile::segment_lookback_states(0) == 0);
}

//! The walk a configuration gives an accumulator: the chain of prefixes up to its byte limits (plain
//! and by-key items apart), the segment states past them.
template <class Tuning>
using config_of = archscan::tile_config<Tuning, typename Tuning::row_4, Tuning::row_4::items_per_thread>;
template <class T, class Tuning>
constexpr bool chained = archscan::tile::segment_lookback<T, config_of<Tuning>>::chained;

TEST(SegmentLookbackWalk, ChosenByTheAccumulatorsSize) {
  using archscan::native_tuning;
  using archscan::detail::keyed;
  using archscan::test::mat2;
  // The shipped tuning: plain accumulators of up to 8 bytes on the chain, larger ones and by-key items
  // on the segment states.
  static_assert(chained<int, native_tuning> && chained<double, native_tuning>);
  static_assert(!chained<mat2, native_tuning>);
  static_assert(!chained<keyed<int>, native_tuning>);
  // Either walk for every accumulator (support/policies.cuh), as the GPU tests below run them.
  static_assert(chained<mat2, archscan::test::on_prefix_chain<native_tuning>>);
  static_assert(chained<keyed<int>, archscan::test::on_prefix_chain<native_tuning>>);
  static_assert(!chained<int, archscan::test::on_segment_states<native_tuning>>);
  static_assert(!chained<keyed<int>, archscan::test::on_segment_states<native_tuning>>);
  // A tile may choose the chain whatever its size (a row's large tiles, `large_chained`).
  static_assert(archscan::tile::segment_lookback<mat2, config_of<native_tuning>, true>::chained);
  SUCCEED();
}

//! The native family's segmented look-back (tile/segment_lookback.cuh), on each of its
//! walks (the chain of prefixes, the segment states) whatever the accumulator: one block per tile and
//! resident blocks looping over tiles; and with 32-item tiles, so that the larger sizes span more than
//! 32 segments of 32 tiles and a walk back crosses several windows of segment ends.
using native_lookback_only = archscan::test::lookback_only<archscan::native_tuning>;
template <template <class> class Walk>
struct segment_walk {
  using starving          = archscan::with_hooks<Walk<native_lookback_only>, starve_hooks>;
  using starving_resident = archscan::with_hooks<Walk<archscan::native_tuning>, starve_resident_hooks>;
  using starving_tiny = archscan::with_hooks<archscan::test::with_tiny_tiles<Walk<native_lookback_only>>, starve_hooks>;
};
using chain_walk  = segment_walk<archscan::test::on_prefix_chain>;
using states_walk = segment_walk<archscan::test::on_segment_states>;

//! Keys 0, 1, 2, ... in runs of 2 to `longest` items (1 to `longest` where it is at most 2), lengths from `rng`.
std::vector<int> key_runs(std::int64_t n, std::int64_t longest, std::mt19937& rng) {
  std::uniform_int_distribution<std::int64_t> run(longest > 2 ? 2 : 1, longest);
  std::vector<int> keys(static_cast<std::size_t>(n));
  int key = 0;
  for (std::size_t i = 0; i < keys.size();) {
    for (std::int64_t r = run(rng); r > 0 && i < keys.size(); --r, ++i) keys[i] = key;
    ++key;
  }
  return keys;
}

//! By-key sums of int32, inclusive and exclusive with an initial value, against the host: under runs
//! of equal keys of 2 to 40 items, of up to n / 40 (a few tiles, or segments of tiny tiles: tiles and
//! segments with and without a segment start), and of about a third of n, which carry a prefix across
//! many segments of tiles (short runs break every tile's dependence on the segments before it).
template <class Tuning>
void check_by_key_int32() {
  const archscan::policy<Tuning> policy{};
  std::mt19937 rng(77);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  for (const std::int64_t n : sizes()) {
    for (const std::int64_t longest : {std::int64_t{40}, n / 40 + 1, n / 3 + 1}) {
      const std::vector<int> keys = key_runs(n, longest, rng);
      std::vector<int> vals(keys.size()), expect(keys.size());
      for (auto& v : vals) v = dist(rng);
      device_buffer<int> d_keys(keys), d_vals(vals), d_out(n);

      d_out.poison();
      thrust::inclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d_vals.begin(), d_out.begin());
      for (std::size_t i = 0; i < keys.size(); ++i) {
        expect[i] = (i > 0 && keys[i] == keys[i - 1] ? expect[i - 1] : 0) + vals[i];
      }
      ASSERT_EQ(d_out.to_host(), expect) << "inclusive by key, n = " << n << ", runs up to " << longest;

      d_out.poison();
      thrust::exclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d_vals.begin(), d_out.begin(), 5);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        expect[i] = i > 0 && keys[i] == keys[i - 1] ? expect[i - 1] + vals[i - 1] : 5;
      }
      ASSERT_EQ(d_out.to_host(), expect) << "exclusive by key, n = " << n << ", runs up to " << longest;
    }
  }
}

//! The tests' 2x2 matrix product mod 2^32: 16 bytes (native's row_16, and by key keyed<mat2>), exact
//! and not commutative, so the host's left fold is its result in any association that keeps the
//! operands' order. Plain inclusive and seeded exclusive scans, and by-key scans under runs as
//! check_by_key_int32's.
template <class Tuning>
void check_mat2() {
  using archscan::test::mat2;
  using archscan::test::mat2_mul;
  const archscan::policy<Tuning> policy{};
  const mat2 seed{1, 2, 0, 1};
  for (const std::int64_t n : sizes()) {
    const auto h = archscan::test::random_values<mat2>(n, static_cast<std::uint64_t>(n) + 5);
    std::vector<mat2> expect(h.size());
    device_buffer<mat2> d_in(h), d_out(n);
    d_out.poison();
    thrust::inclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin(), mat2_mul{});
    std::inclusive_scan(h.begin(), h.end(), expect.begin(), mat2_mul{});
    ASSERT_TRUE(d_out.to_host() == expect) << "inclusive, n = " << n;
    d_out.poison();
    thrust::exclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin(), seed, mat2_mul{});
    std::exclusive_scan(h.begin(), h.end(), expect.begin(), seed, mat2_mul{});
    ASSERT_TRUE(d_out.to_host() == expect) << "exclusive, n = " << n;
    for (const std::int64_t longest : {std::int64_t{40}, n / 40 + 1, n / 3 + 1}) {
      std::mt19937 rng(static_cast<unsigned>(n + longest));
      const std::vector<int> keys = key_runs(n, longest, rng);
      device_buffer<int> d_keys(keys);
      d_out.poison();
      thrust::inclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d_in.begin(), d_out.begin(),
                                    thrust::equal_to<int>{}, mat2_mul{});
      ASSERT_TRUE(d_out.to_host() ==
                  archscan::test::host_scan_by_key(keys, h, mat2_mul{}, thrust::equal_to<int>{}, false, seed))
          << "inclusive by key, n = " << n << ", runs up to " << longest;
    }
  }
}

template <class Walk>
void check_segment_walk() {
  check_int32<typename Walk::starving>();
  check_affine<typename Walk::starving>();
  check_by_key_int32<typename Walk::starving>();
  check_mat2<typename Walk::starving>();
  check_int32<typename Walk::starving_resident>();
  check_affine<typename Walk::starving_resident>();
  check_by_key_int32<typename Walk::starving_resident>();
  check_mat2<typename Walk::starving_resident>();
}

TEST(SegmentLookbackStarvation, ChainOfPrefixesWithDelayedTiles) {
  ARCHSCAN_REQUIRE_GPU();
  check_segment_walk<chain_walk>();
}

TEST(SegmentLookbackStarvation, SegmentStatesWithDelayedTiles) {
  ARCHSCAN_REQUIRE_GPU();
  check_segment_walk<states_walk>();
}

TEST(SegmentLookbackStarvation, ManySegmentsOfTinyTilesOnEachWalk) {
  ARCHSCAN_REQUIRE_GPU();
  check_affine<chain_walk::starving_tiny>();
  check_by_key_int32<chain_walk::starving_tiny>();
  check_mat2<chain_walk::starving_tiny>();
  check_affine<states_walk::starving_tiny>();
  check_by_key_int32<states_walk::starving_tiny>();
  check_mat2<states_walk::starving_tiny>();
}

}  // namespace segment_lookback_test
