// instrumentation.cuh (host): the entry counters that prove which path a call took. Counting an entry
// moves its counter alone, by one a call, counts from many threads at once are all kept (relaxed
// atomics), and each entry names the Thrust algorithm it belongs to, as NVTX ranges name it.

#include <array>
#include <cstdint>
#include <random>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/instrumentation.cuh>

namespace instrumentation_test {

using archscan::instrumentation::entry;
constexpr int entries = static_cast<int>(entry::count);

std::array<std::uint64_t, entries> counts() {
  std::array<std::uint64_t, entries> s{};
  for (int e = 0; e < entries; ++e) s[e] = archscan::instrumentation::calls(entry(e));
  return s;
}

TEST(Instrumentation, CountingAnEntryMovesItsCounterAlone) {
  std::mt19937 rng(16);
  for (int e = 0; e < entries; ++e) {
    const int times   = 1 + static_cast<int>(rng() % 5);
    const auto before = counts();
    for (int i = 0; i < times; ++i) archscan::instrumentation::detail::count(entry(e));
    const auto after = counts();
    for (int o = 0; o < entries; ++o) {
      EXPECT_EQ(after[o] - before[o], o == e ? static_cast<std::uint64_t>(times) : 0u)
          << "counter " << o << " after counting entry " << e << " " << times << " times";
    }
  }
}

TEST(Instrumentation, CountsFromManyThreadsAreAllKept) {
  constexpr int threads = 8, per_thread = 20000;
  const auto before = counts();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    // Half the threads share one counter, the others two more between them.
    const entry e = t % 2 == 0 ? entry::exclusive_scan
                               : (t % 4 == 1 ? entry::inclusive_scan_by_key : entry::transform_exclusive_scan);
    pool.emplace_back([e] {
      for (int i = 0; i < per_thread; ++i) archscan::instrumentation::detail::count(e);
    });
  }
  for (auto& t : pool) t.join();
  const auto after = counts();
  EXPECT_EQ(after[static_cast<int>(entry::exclusive_scan)] - before[static_cast<int>(entry::exclusive_scan)],
            std::uint64_t{threads / 2} * per_thread);
  EXPECT_EQ(
      after[static_cast<int>(entry::inclusive_scan_by_key)] - before[static_cast<int>(entry::inclusive_scan_by_key)],
      std::uint64_t{threads / 4} * per_thread);
  EXPECT_EQ(after[static_cast<int>(entry::transform_exclusive_scan)] -
                before[static_cast<int>(entry::transform_exclusive_scan)],
            std::uint64_t{threads / 4} * per_thread);
}

TEST(Instrumentation, EveryEntryHasItsAlgorithm) {
  const char* expected[] = {
      "inclusive_scan",        "inclusive_scan",           "inclusive_scan",           "exclusive_scan",
      "exclusive_scan",        "exclusive_scan",           "inclusive_scan_by_key",    "inclusive_scan_by_key",
      "inclusive_scan_by_key", "exclusive_scan_by_key",    "exclusive_scan_by_key",    "exclusive_scan_by_key",
      "exclusive_scan_by_key", "transform_inclusive_scan", "transform_inclusive_scan", "transform_exclusive_scan"};
  static_assert(sizeof(expected) / sizeof(expected[0]) == static_cast<int>(entry::count));
  for (int e = 0; e < static_cast<int>(entry::count); ++e) {
    EXPECT_STREQ(archscan::instrumentation::algorithm_name(entry(e)), expected[e]) << "entry " << e;
  }
}

// A name is a compile-time constant (NVTX ranges are named without a lookup), and what is no entry gets
// the generic name.
TEST(Instrumentation, NamesAreConstantsAndTheRestIsScan) {
  static_assert(std::string_view(archscan::instrumentation::algorithm_name(entry::transform_inclusive_scan_init)) ==
                "transform_inclusive_scan");
  static_assert(std::string_view(archscan::instrumentation::algorithm_name(entry::count)) == "scan");
  EXPECT_STREQ(archscan::instrumentation::algorithm_name(static_cast<entry>(-1)), "scan");
}

}  // namespace instrumentation_test
