// native's bits whatever path a by-key tile takes: vectors or item by item, in a cluster, a wave or
// the look-back, with runs shorter and longer than tiles and segments.

#include "thrust/determinism_paths.cuh"

namespace {

using namespace archscan::test;

TEST(NativeDeterminism, ByKeyVectorsOrItemByItemWaveOrLookbackGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  // One partial tile, one cluster of 11 small (1024-item) tiles (a wave where clusters are not),
  // 11 full (4096-item) tiles in one cluster (values of up to 4 bytes: full_tiles_max) or a wave of
  // 41 small ones (doubles), a wave of 132 small tiles, a wave of a few full tiles, and a look-back
  // over many.
  for (const std::int64_t n :
       {std::int64_t{1000}, std::int64_t{10} * 1024 + 5, std::int64_t{40} * 1024 + 3, std::int64_t{132} * 1024 - 1,
        std::int64_t{200} * 4096 + 5, std::int64_t{3000} * 4096 + 7}) {
    const auto keys = random_key_runs(n, static_cast<std::uint64_t>(n) + 91);
    expect_same_bits_by_key(random_values<float>(n, 71), ::cuda::std::plus<float>{}, 0.25f, false, keys);
    expect_same_bits_by_key(random_values<double>(n, 72), ::cuda::std::plus<double>{}, 0.5, false, keys);
    expect_same_bits_by_key(random_values<std::int16_t>(n, 73), affine_mix{}, std::int16_t{7}, false, keys);
    expect_same_bits_by_key(random_values<std::int16_t>(n, 74), ::cuda::std::plus<std::int16_t>{}, std::int16_t{7},
                            true, keys);
  }
}

//! Keys in runs longer than `span` items: a new key about every 1.5 spans, and at every third
//! multiple of `span` (with a span of a tile or a segment of tiles, the one before ends closing its
//! run).
std::vector<int> long_key_runs(std::int64_t n, std::int64_t span, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> keys(static_cast<std::size_t>(n));
  int key = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if ((i % span == 0 && i / span % 3 == 0) || rng() % static_cast<std::uint64_t>(span * 3 / 2) == 0) ++key;
    keys[static_cast<std::size_t>(i)] = key;
  }
  return keys;
}

//! Tile aggregates that do not restart, or whose segment starts only because the tile before ends
//! one: the look-back's by-key folds start at the last segment start (tile/segment_fold.cuh, fold_lanes
//! over a segment's tiles, and the segment states' walk over segment ends), the wave's fold of the
//! same tiles lane by lane. Floating-point sums: the same bits only if both fold exactly the same
//! operands in the same order.
TEST(NativeDeterminism, ByKeyRunsLongerThanTilesGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr std::int64_t tile = 4096, segment = 32 * tile;
  // 11 full (4096-item) tiles in one cluster (doubles: a wave of 41 small, 1024-item tiles), a wave
  // of 132 small tiles, and one of 201 full tiles: 1, 5 and 6 segments; then 94 segments, so that
  // the walk over segment ends starts past the seed, with runs longer than a tile and runs longer
  // than a segment (segments that do not restart, or start only because the one before closes).
  const struct {
    std::int64_t n, span;
  } cases[] = {{40 * 1024 + 3, tile},
               {132 * 1024 - 1, tile},
               {200 * tile + 5, tile},
               {3000 * tile + 7, tile},
               {3000 * tile + 7, segment}};
  for (const auto c : cases) {
    const auto keys = long_key_runs(c.n, c.span, static_cast<std::uint64_t>(c.n + c.span) + 93);
    expect_same_bits_by_key(random_values<float>(c.n, 75), ::cuda::std::plus<float>{}, 0.25f, false, keys);
    expect_same_bits_by_key(random_values<double>(c.n, 76), ::cuda::std::plus<double>{}, 0.5, false, keys);
    expect_same_bits_by_key(random_values<std::int16_t>(c.n, 77), affine_mix{}, std::int16_t{7}, false, keys);
    // Exact against the host: past one wave every route above takes the same look-back.
    expect_same_bits_by_key(random_values<std::int16_t>(c.n, 78), ::cuda::std::plus<std::int16_t>{}, std::int16_t{7},
                            true, keys);
  }
}

}  // namespace
