// Decoupled look-back under starvation: chosen tiles sleep ~100 us before publishing anything, so
// their successors must wait (bounded, backing off) and still combine every predecessor in order.
// Every walk over the tile states: the turing family's 32-wide window (and one predecessor at a time,
// with resident blocks looping over tiles), the kepler family's serial walk and both of the native
// family's segmented walks (plain, non-commutative and by-key items on each, one block per tile and
// with resident blocks; 16-byte items too). Runs through the public Thrust API with test hooks
// (hooks.cuh) attached to the tunings. The walks' association itself: tile/segment_fold_test.cu.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include <thrust/functional.h>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/policies.cuh"
#include "support/values.cuh"

namespace {

using archscan::test::device_buffer;

//! Every 7th tile sleeps 100 us before publishing its aggregate (a test hook, hooks.cuh).
struct starve_hooks {
  static constexpr int starve_every   = 7;
  static constexpr unsigned starve_ns = 100000;
};
//! The same with a grid of resident blocks looping over tiles (the other schedule of the tile).
struct starve_resident_hooks : starve_hooks {
  static constexpr int resident_blocks_per_sm = 4;
};
//! Always the look-back: small problems would otherwise run as one wave (tile/wave.cuh, wave_test.cu).
struct lookback_only_tuning : archscan::turing_tuning {
  static constexpr int wave_max_tiles = 0;
};
//! One predecessor per look-back step (the default reads a 32-wide window).
struct narrow_window_tuning : lookback_only_tuning {
  static constexpr int lookback_window = 1;
};
using starving_tuning        = archscan::with_hooks<lookback_only_tuning, starve_hooks>;
using starving_narrow_tuning = archscan::with_hooks<narrow_window_tuning, starve_resident_hooks>;
//! The kepler family's serial look-back over the same tile states.
using starving_serial_tuning = archscan::with_hooks<archscan::kepler_tuning, starve_hooks>;
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

//! x -> a * x + b (mod 2^32), plus a count: 12 bytes; composition is associative, not commutative.
struct affine {
  std::uint32_t a, b, count;
};
struct compose {  // apply l first, then r
  __host__ __device__ affine operator()(const affine& l, const affine& r) const {
    return affine{r.a * l.a, r.a * l.b + r.b, l.count + r.count};
  }
};
bool operator==(const affine& x, const affine& y) { return x.a == y.a && x.b == y.b && x.count == y.count; }

std::vector<std::int64_t> sizes() {
  // one tile, tile edges, and enough tiles that a look-back crosses 32-tile windows
  // (ARCHSCAN_TEST_SHORT, set under compute-sanitizer, drops the largest size)
  std::vector<std::int64_t> s = {1, 1791, 1793, 4095, 4097, 50 * 4096 + 123};
  if (std::getenv("ARCHSCAN_TEST_SHORT") == nullptr) s.push_back(300 * 4096 + 7);
  return s;
}

template <class Tuning>
void check_int32() {
  const archscan::policy<Tuning> policy{};
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  for (const std::int64_t n : sizes()) {
    std::vector<int> h(static_cast<std::size_t>(n));
    for (auto& x : h) x = dist(rng);
    std::vector<int> expect(h.size());
    device_buffer<int> d_in(h), d_out(n);

    d_out.poison();
    thrust::inclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin());
    std::inclusive_scan(h.begin(), h.end(), expect.begin());
    ASSERT_EQ(d_out.to_host(), expect) << "inclusive, n = " << n;

    d_out.poison();
    thrust::exclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin(), 17);
    std::exclusive_scan(h.begin(), h.end(), expect.begin(), 17);
    ASSERT_EQ(d_out.to_host(), expect) << "exclusive, n = " << n;
  }
}

template <class Tuning>
void check_affine() {
  const archscan::policy<Tuning> policy{};
  std::mt19937 rng(99);
  for (const std::int64_t n : sizes()) {
    std::vector<affine> h(static_cast<std::size_t>(n));
    for (auto& f : h) f = affine{static_cast<std::uint32_t>(rng()) | 1u, static_cast<std::uint32_t>(rng()), 1u};
    std::vector<affine> expect(h.size());
    affine run = h[0];
    expect[0]  = run;
    for (std::size_t i = 1; i < h.size(); ++i) expect[i] = run = compose{}(run, h[i]);

    device_buffer<affine> d_in(h), d_out(n);
    d_out.poison();
    thrust::inclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin(), compose{});
    std::vector<affine> got = d_out.to_host();
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_TRUE(got[i] == expect[i]) << "n = " << n << ", i = " << i;

    // in place, with a seed on the left
    const affine seed{3u, 5u, 0u};
    thrust::inclusive_scan(policy, d_in.begin(), d_in.end(), d_in.begin(), seed, compose{});
    run = seed;
    for (std::size_t i = 0; i < h.size(); ++i) expect[i] = run = compose{}(run, h[i]);
    got = d_in.to_host();
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_TRUE(got[i] == expect[i]) << "seeded, n = " << n << ", i = " << i;
  }
}

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

TEST(TuringLookbackStarvation, Int32WithDelayedTiles) {
  ARCHSCAN_REQUIRE_GPU();
  check_int32<starving_tuning>();
}

TEST(TuringLookbackStarvation, NonCommutativeStructWithDelayedTiles) {
  ARCHSCAN_REQUIRE_GPU();
  check_affine<starving_tuning>();
}

TEST(TuringLookbackStarvation, OnePredecessorAtATimeResidentBlocks) {
  ARCHSCAN_REQUIRE_GPU();
  check_int32<starving_narrow_tuning>();
  check_affine<starving_narrow_tuning>();
}

TEST(SerialLookbackStarvation, Int32AndNonCommutativeStructWithDelayedTiles) {
  ARCHSCAN_REQUIRE_GPU();
  check_int32<starving_serial_tuning>();
  check_affine<starving_serial_tuning>();
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

}  // namespace
