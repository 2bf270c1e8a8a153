// detail/hook_traits.cuh: how the kernels read the hooks that a tuning carries (hooks.cuh). Every field
// reads as off without hooks, a hooks struct sets any subset of them, and `hooks_of` finds the hooks
// that `with_hooks` attached, through a user's tuning derived from that as well. Host only: the traits
// are compile-time values.

#include <cstdint>
#include <type_traits>

#include <gtest/gtest.h>

#include <archscan/hooks.cuh>
#include <archscan/tuning.cuh>

namespace hook_traits_test {

using archscan::detail::hook_traits;

struct plain_tuning {
  static constexpr int some_field = 1;
};
struct starve_only {
  static constexpr int starve_every   = 7;
  static constexpr unsigned starve_ns = 100000;
};
struct everything {
  static constexpr int starve_every           = 3;
  static constexpr unsigned starve_ns         = 5;
  static constexpr int resident_blocks_per_sm = 2;
  static constexpr bool tree_fold             = true;
  static constexpr unsigned reset_delay_ns    = 9;
  __device__ static void mark(std::int64_t, archscan::tile_event) {}
};
struct mark_with_other_signature {
  __device__ static void mark(int) {}
};

TEST(HookTraits, EveryFieldReadsOffWithoutHooks) {
  using off = hook_traits<archscan::no_hooks>;
  EXPECT_EQ(off::starve_every, 0);
  EXPECT_EQ(off::starve_ns, 0u);
  EXPECT_EQ(off::resident_blocks_per_sm, 0);
  EXPECT_FALSE(off::tree_fold);
  EXPECT_EQ(off::reset_delay_ns, 0u);
  EXPECT_FALSE(archscan::detail::has_mark<archscan::no_hooks>::value);
}

TEST(HookTraits, AStructSetsTheFieldsItNames) {
  using some = hook_traits<starve_only>;
  EXPECT_EQ(some::starve_every, 7);
  EXPECT_EQ(some::starve_ns, 100000u);
  EXPECT_EQ(some::resident_blocks_per_sm, 0);
  EXPECT_FALSE(some::tree_fold);
  using all = hook_traits<everything>;
  EXPECT_EQ(all::starve_every, 3);
  EXPECT_EQ(all::starve_ns, 5u);
  EXPECT_EQ(all::resident_blocks_per_sm, 2);
  EXPECT_TRUE(all::tree_fold);
  EXPECT_EQ(all::reset_delay_ns, 9u);
  EXPECT_TRUE(archscan::detail::has_mark<everything>::value);
  EXPECT_FALSE(archscan::detail::has_mark<mark_with_other_signature>::value);  // not the hook's signature
}

TEST(HookTraits, HooksOfFindsAttachedHooks) {
  EXPECT_TRUE((std::is_same_v<archscan::hooks_of<plain_tuning>, archscan::no_hooks>));
  using hooked = archscan::with_hooks<plain_tuning, starve_only>;
  EXPECT_TRUE((std::is_same_v<archscan::hooks_of<hooked>, starve_only>));
  EXPECT_EQ(hooked::some_field, 1);  // still the tuning in every other respect
  struct users_tuning : hooked {};
  EXPECT_TRUE((std::is_same_v<archscan::hooks_of<users_tuning>, starve_only>));
  EXPECT_TRUE((std::is_same_v<archscan::hooks_of<archscan::turing_tuning>, archscan::no_hooks>));
}

}  // namespace hook_traits_test
