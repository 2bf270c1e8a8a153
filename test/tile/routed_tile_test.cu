// tile/routed_tile.cuh: the transposed tile on its routes, where each tile's exclusive prefix comes
// from. On the GPU, native's int32-row tiles over floats, one routed kernel (the single tile, the
// wave, the reset of the tile states and the look-back) launched the dispatch's way on each route:
// the whole problem in one tile; the reset, in the kernel, of states left dirty by an earlier scan,
// then the ordered look-back; the wave, launched cooperatively; and the windowed look-back of
// scan_tiles<false>. Items that are small integers give exact sums, checked against the host on every
// route; items that round give, on the ordered routes (the look-back and the wave), the same bits,
// since both fold the aggregates in the segmented look-back's order. Sizes: one item, a tile +-1,
// several tiles and a partial last one.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/routed_tile.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <cuda/std/functional>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/tile_states.cuh"

namespace routed_tile_test {

namespace detail = archscan::detail;
namespace tile   = archscan::tile;
using archscan::native_tuning;
using archscan::test::device_buffer;
using archscan::test::owned_tile_states;

using problem = detail::scan_problem<const float*, float*, float, detail::callable<::cuda::std::plus<float>>,
                                     detail::identity_finish, detail::scan_kind::inclusive, false>;
using row     = native_tuning::row_4;
//! The row's small tiles (256 x 16): several tiles from few items.
using config                     = archscan::tile_config<native_tuning, row, row::small_items_per_thread>;
using routed                     = tile::routed_tile<problem, config>;
using state_t                    = routed::state_t;
using launch_args                = tile::routed_launch<state_t, float>;
constexpr tile::route_set routes = tile::route::single | tile::route::wave | tile::route::lookback | tile::route::reset;
static_assert(routed::smem_bytes <= 48 * 1024, "launched without the shared memory opt-in");

__global__ void routed_scan(problem p, launch_args a) {
  extern __shared__ __align__(16) unsigned char smem[];
  routed::scan_routed<true, routes>(p, a, smem);
}

__global__ void windowed_scan(problem p, state_t st, std::int64_t tiles) {
  extern __shared__ __align__(16) unsigned char smem[];
  routed::scan_tiles<false>(p, st, tiles, 0, smem);
}

constexpr std::int64_t tile_items = routed::tile_items;

//! Small integers: every sum exact in float, so each route must give the host's result.
std::vector<float> small_integers(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<float>(static_cast<int>(rng() % 21) - 10);
  v[0] = 7.0f;  // never all zero
  return v;
}
//! Reals in [-1, 1): sums that round, whose bits follow the association.
std::vector<float> reals(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = dist(rng);
  return v;
}

//! The problem over `in` on route `path` (the look-back after an in-kernel reset); the output.
std::vector<float> run_route(const std::vector<float>& in, tile::route path) {
  const auto n             = static_cast<std::int64_t>(in.size());
  const std::int64_t tiles = (n + tile_items - 1) / tile_items;
  device_buffer<float> d_in(in), d_out(n);
  d_out.poison();
  const problem p{d_in.get(), d_out.get(), n, {}, {}, 0.0f, {}};
  launch_args a{};
  a.path = path;
  if (path == tile::route::single) {
    routed_scan<<<1, routed::threads, routed::smem_bytes>>>(p, a);
  } else if (path == tile::route::lookback) {
    owned_tile_states<state_t, float> s(tile::segment_lookback_states(tiles), true);
    launch_args reset{};
    reset.path   = tile::route::reset;
    reset.d_temp = s.storage.get();
    reset.words  = tile::tile_state_words(s.layout);
    routed_scan<<<3, routed::threads, routed::smem_bytes>>>(p, reset);
    a.st    = s.bound();
    a.tiles = tiles;
    routed_scan<<<static_cast<unsigned>(tiles), routed::threads, routed::smem_bytes>>>(p, a);
    return d_out.to_host();  // before the states go
  } else {
    device_buffer<float> d_aggregates(tiles);
    a.d_aggregates = d_aggregates.get();
    void* args[]   = {const_cast<problem*>(&p), &a};
    archscan::test::check(
        cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&routed_scan), dim3(static_cast<unsigned>(tiles)),
                                    dim3(routed::threads), args, routed::smem_bytes, nullptr),
        "cooperative launch");
    return d_out.to_host();
  }
  return d_out.to_host();
}

std::vector<float> run_windowed(const std::vector<float>& in) {
  const auto n             = static_cast<std::int64_t>(in.size());
  const std::int64_t tiles = (n + tile_items - 1) / tile_items;
  device_buffer<float> d_in(in), d_out(n);
  d_out.poison();
  owned_tile_states<state_t, float> s(tile::segment_lookback_states(tiles));
  windowed_scan<<<static_cast<unsigned>(tiles), routed::threads, routed::smem_bytes>>>(
      problem{d_in.get(), d_out.get(), n, {}, {}, 0.0f, {}}, s.bound(), tiles);
  return d_out.to_host();
}

std::vector<float> host_sums(const std::vector<float>& in) {
  std::vector<float> r(in.size());
  std::inclusive_scan(in.begin(), in.end(), r.begin());
  return r;
}

std::vector<unsigned char> bytes_of(const std::vector<float>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(float));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

TEST(RoutedTile, SingleTile) {
  ARCHSCAN_REQUIRE_GPU();
  for (const std::int64_t n : {std::int64_t{1}, tile_items - 1, tile_items}) {
    const auto h = small_integers(n, static_cast<std::uint64_t>(n));
    EXPECT_EQ(run_route(h, tile::route::single), host_sums(h)) << "n = " << n;
  }
}

TEST(RoutedTile, ResetThenOrderedLookback) {
  ARCHSCAN_REQUIRE_GPU();
  for (const std::int64_t n : {tile_items + 1, 5 * tile_items - 1, 40 * tile_items + 3}) {
    const auto h = small_integers(n, static_cast<std::uint64_t>(n) + 1);
    EXPECT_EQ(run_route(h, tile::route::lookback), host_sums(h)) << "n = " << n;
  }
}

TEST(RoutedTile, WaveLaunchedCooperatively) {
  ARCHSCAN_REQUIRE_GPU();
  // At most 8 tiles: every device holds that many blocks at once.
  for (const std::int64_t n : {tile_items + 1, 5 * tile_items - 1, 8 * tile_items}) {
    const auto h = small_integers(n, static_cast<std::uint64_t>(n) + 2);
    EXPECT_EQ(run_route(h, tile::route::wave), host_sums(h)) << "n = " << n;
  }
}

TEST(RoutedTile, WindowedLookback) {
  ARCHSCAN_REQUIRE_GPU();
  for (const std::int64_t n : {std::int64_t{1}, tile_items + 1, 5 * tile_items - 1, 40 * tile_items + 3}) {
    const auto h = small_integers(n, static_cast<std::uint64_t>(n) + 3);
    EXPECT_EQ(run_windowed(h), host_sums(h)) << "n = " << n;
  }
}

TEST(RoutedTile, OrderedRoutesGiveTheSameBits) {
  ARCHSCAN_REQUIRE_GPU();
  for (const std::int64_t n : {2 * tile_items - 1, 7 * tile_items + 5}) {
    const auto h        = reals(n, static_cast<std::uint64_t>(n));
    const auto lookback = run_route(h, tile::route::lookback);
    EXPECT_EQ(bytes_of(lookback), bytes_of(run_route(h, tile::route::wave))) << "n = " << n;
    // The sums round: close to the host's (relative to the magnitudes summed), not necessarily its bits.
    const auto want  = host_sums(h);
    double magnitude = 1.0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      magnitude += std::fabs(h[i]);
      ASSERT_NEAR(lookback[i], want[i], 2e-5 * magnitude) << "n = " << n << ", i = " << i;
    }
  }
}

}  // namespace routed_tile_test
