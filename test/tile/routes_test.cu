// tile/routes.cuh: the route sets that select what a routed kernel compiles, and the launch arguments
// whose unused fields stay value-initialized.

#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/tile/routes.cuh>

namespace {

using archscan::tile::has_route;
using archscan::tile::route;
using archscan::tile::route_set;

constexpr route every_route[] = {route::single, route::cluster, route::wave, route::lookback, route::reset};

TEST(Routes, EachRouteIsItsOwnBit) {
  for (const route a : every_route) {
    for (const route b : every_route) {
      EXPECT_EQ(has_route(static_cast<route_set>(a), b), a == b);
    }
  }
}

TEST(Routes, ASetHoldsExactlyWhatItWasBuiltFrom) {
  const route_set lookback_and_reset = route::lookback | route::reset;
  EXPECT_TRUE(has_route(lookback_and_reset, route::lookback));
  EXPECT_TRUE(has_route(lookback_and_reset, route::reset));
  EXPECT_FALSE(has_route(lookback_and_reset, route::wave));
  const route_set all = route::single | route::cluster | route::wave | route::lookback | route::reset;
  for (const route r : every_route) EXPECT_TRUE(has_route(all, r));
  // The in-order wave flag shares no bit with a route.
  for (const route r : every_route) EXPECT_FALSE(has_route(archscan::tile::wave_in_order, r));
  EXPECT_FALSE(has_route(route_set{0}, route::single));
}

TEST(Routes, LaunchArgumentsStartAsOneTileWithNothingBound) {
  const archscan::tile::routed_launch<int, double> a{};
  EXPECT_EQ(a.path, route::single);
  EXPECT_EQ(a.single_items, 0);  // the kernel's own tile
  EXPECT_EQ(a.tiles, 0);
  EXPECT_EQ(a.first_set, 0);
  EXPECT_EQ(a.d_aggregates, nullptr);
  EXPECT_FALSE(a.wave_in_order);
  EXPECT_EQ(a.d_temp, nullptr);
  EXPECT_EQ(a.words, 0);
}

}  // namespace
