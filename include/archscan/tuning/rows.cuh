#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file How dispatch reads a tuning (tuning/shape.cuh): the row for an accumulator (`row_for`,
//! `row_for_accum`, `row_for_items`) and the optional fields of rows and tunings, each with its default
//! where a tuning leaves it out.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <archscan/tuning/shape.cuh>

namespace archscan {

namespace detail {
//! A row's staged look-back (`example_staged_row`); rows without it: never taken, nothing compiled.
template <class Row, class = void>
struct staged_tiles {
  static constexpr bool present            = false;
  static constexpr std::int64_t from_items = INT64_MAX;
  static constexpr int min_blocks_per_sm   = 1;
};
template <class Row>
struct staged_tiles<Row, std::void_t<decltype(Row::staged_from_items)>> {
  static constexpr bool present            = true;
  static constexpr std::int64_t from_items = Row::staged_from_items;
  static constexpr int min_blocks_per_sm   = Row::staged_min_blocks_per_sm;
};
//! A row's own `single_max_items_per_thread` (`example_single_row`), 0 where it states none.
template <class Row, class = void>
struct own_single_max_items : std::integral_constant<int, 0> {};
template <class Row>
struct own_single_max_items<Row, std::void_t<decltype(Row::single_max_items_per_thread)>>
    : std::integral_constant<int, Row::single_max_items_per_thread> {};
//! A row's single tiles of few items (`example_single_row`); rows without them: none, never taken.
template <class Row, class = void>
struct single_tiles {
  static_assert(own_single_max_items<Row>::value == 0, "single_max_items_per_thread needs single_items_per_thread");
  static constexpr bool present             = false;
  static constexpr int items_per_thread     = Row::items_per_thread;
  static constexpr int max_items_per_thread = Row::items_per_thread;
};
template <class Row>
struct single_tiles<Row, std::void_t<decltype(Row::single_items_per_thread)>> {
  static_assert(Row::single_items_per_thread > 0, "single_items_per_thread: at least one item a thread");
  static constexpr bool present         = true;
  static constexpr int items_per_thread = Row::single_items_per_thread;
  static constexpr int max_items_per_thread =
      own_single_max_items<Row>::value > items_per_thread ? own_single_max_items<Row>::value : items_per_thread;
};
//! A row's own `large_block_threads` (`example_large_row`), 0 where it states none.
template <class Row, class = void>
struct own_large_block_threads : std::integral_constant<int, 0> {};
template <class Row>
struct own_large_block_threads<Row, std::void_t<decltype(Row::large_block_threads)>>
    : std::integral_constant<int, Row::large_block_threads> {};
//! A row's large tiles (`example_large_row`); rows without them: none, never taken.
template <class Row, class = void>
struct large_tiles {
  static_assert(own_large_block_threads<Row>::value == 0, "large_block_threads needs large_items_per_thread");
  static constexpr bool present            = false;
  static constexpr int items_per_thread    = Row::items_per_thread;
  static constexpr int min_blocks_per_sm   = Row::min_blocks_per_sm;
  static constexpr int block_threads       = Row::block_threads;
  static constexpr std::int64_t from_items = INT64_MAX;
};
//! Whether a row's tiles other than its large ones (full, small, the single tiles' ladder) include
//! one of `Items` a thread.
template <class Row>
constexpr bool other_tile_of(int items) {
  if (items == Row::items_per_thread || items == Row::small_items_per_thread) return true;
  for (int single = single_tiles<Row>::items_per_thread;
       single_tiles<Row>::present && single <= single_tiles<Row>::max_items_per_thread; single *= 2) {
    if (items == single) return true;
  }
  return false;
}
template <class Row>
struct large_tiles<Row, std::void_t<decltype(Row::large_items_per_thread)>> {
  static constexpr bool present          = true;
  static constexpr int items_per_thread  = Row::large_items_per_thread;
  static constexpr int min_blocks_per_sm = Row::large_min_blocks_per_sm;
  static constexpr int block_threads =
      own_large_block_threads<Row>::value > 0 ? own_large_block_threads<Row>::value : Row::block_threads;
  static constexpr std::int64_t from_items = Row::large_from_items;
  static_assert(block_threads % 32 == 0 && block_threads > 0 && block_threads <= 1024,
                "large_block_threads: a multiple of 32, at most 1024");
  static_assert(block_threads == Row::block_threads || !other_tile_of<Row>(items_per_thread),
                "with large_block_threads of their own (possibly inherited), large tiles need an "
                "items_per_thread no other tile of the row has");
};
//! Whether a row's tiles of `Items` items per thread are its large tiles (the fields below follow).
template <class Row, int Items>
inline constexpr bool is_large_tile = large_tiles<Row>::present&& Items == large_tiles<Row>::items_per_thread;
//! The threads of a row's tiles of `Items` items per thread: its large tiles' (`large_block_threads`,
//! where it states them), else block_threads.
template <class Row, int Items>
inline constexpr int tile_threads = is_large_tile<Row, Items> ? large_tiles<Row>::block_threads : Row::block_threads;
//! A row's own `large_chained` (`example_large_row`), false where it states none.
template <class Row, class = void>
struct own_large_chained : std::false_type {};
template <class Row>
struct own_large_chained<Row, std::void_t<decltype(Row::large_chained)>> : std::bool_constant<Row::large_chained> {};
//! Whether a row's tiles of `Items` items per thread are its large tiles and walk the chain of prefixes.
template <class Row, int Items>
inline constexpr bool large_tiles_chained = is_large_tile<Row, Items>&& own_large_chained<Row>::value;
//! The `__launch_bounds__` minimum of a row's tiles of `Items` items per thread.
template <class Row, int Items>
inline constexpr int min_blocks_for =
    is_large_tile<Row, Items> ? large_tiles<Row>::min_blocks_per_sm : Row::min_blocks_per_sm;
//! The same for the look-back's kernel (native): a row's `lookback_min_blocks_per_sm`, where it has
//! one, for its full tiles (`example_lookback_row`); otherwise min_blocks_for.
template <class Row, class = void>
struct own_lookback_min_blocks : std::integral_constant<int, 0> {};
template <class Row>
struct own_lookback_min_blocks<Row, std::void_t<decltype(Row::lookback_min_blocks_per_sm)>>
    : std::integral_constant<int, Row::lookback_min_blocks_per_sm> {};
template <class Row, int Items>
inline constexpr int lookback_min_blocks_for =
    own_lookback_min_blocks<Row>::value > 0 && Items == Row::items_per_thread ? own_lookback_min_blocks<Row>::value
                                                                              : min_blocks_for<Row, Items>;

template <class Tuning, class = void>
struct narrow_rows {  // no rows of their own: row_4 serves
  using row_1 = typename Tuning::row_4;
  using row_2 = typename Tuning::row_4;
};
template <class Tuning>
struct narrow_rows<Tuning, std::void_t<typename Tuning::row_1, typename Tuning::row_2>> {
  using row_1 = typename Tuning::row_1;
  using row_2 = typename Tuning::row_2;
};

//! A row's own small_tiles_max (native), -1 without one.
template <class Row, class = void>
struct own_small_tiles_max : std::integral_constant<int, -1> {};
template <class Row>
struct own_small_tiles_max<Row, std::void_t<decltype(Row::small_tiles_max)>>
    : std::integral_constant<int, Row::small_tiles_max> {};
//! How many small tiles a problem may take (native): the row's own `small_tiles_max` where it has
//! one, else its tuning's; 0 in the tuning turns small tiles off for every row.
template <class Tuning, class Row>
struct small_tiles_max
    : std::integral_constant<int, Tuning::small_tiles_max == 0           ? 0
                                  : own_small_tiles_max<Row>::value >= 0 ? own_small_tiles_max<Row>::value
                                                                         : Tuning::small_tiles_max> {};

//! Optional fields of a native tuning (tuning/native.cuh documents them); a tuning without one goes
//! without what it asks for: the look-back's first set of tiles paces its loads by
//! `first_set_stagger_cycles_per_kib`, its look-back tiles ask the L2 for a later tile's input by
//! `l2_prefetch_ahead_percent`, `dependent_launch` launches the scan after its reset as a
//! programmatic dependent, `bulk_store_min_bytes` sets which full tiles the bulk copy unit stores,
//! and `wave_tree_max_run_bytes` which waves of an exact operator fold in order (without it: none,
//! and one wave kernel is compiled).
template <class Tuning, class = void>
struct stagger_cycles_per_kib {
  static constexpr double value = 0;
};
template <class Tuning>
struct stagger_cycles_per_kib<Tuning, std::void_t<decltype(Tuning::first_set_stagger_cycles_per_kib)>> {
  static constexpr double value = Tuning::first_set_stagger_cycles_per_kib;
};
template <class Tuning, class = void>
struct l2_prefetch_ahead_percent : std::integral_constant<int, 0> {};
template <class Tuning>
struct l2_prefetch_ahead_percent<Tuning, std::void_t<decltype(Tuning::l2_prefetch_ahead_percent)>>
    : std::integral_constant<int, Tuning::l2_prefetch_ahead_percent> {};
template <class Tuning, class = void>
struct bulk_store_min_bytes : std::integral_constant<std::size_t, 0> {};
template <class Tuning>
struct bulk_store_min_bytes<Tuning, std::void_t<decltype(Tuning::bulk_store_min_bytes)>>
    : std::integral_constant<std::size_t, Tuning::bulk_store_min_bytes> {};
template <class Tuning, class = void>
struct wave_tree_max_run_bytes : std::integral_constant<std::size_t, ~std::size_t{0}> {};
template <class Tuning>
struct wave_tree_max_run_bytes<Tuning, std::void_t<decltype(Tuning::wave_tree_max_run_bytes)>>
    : std::integral_constant<std::size_t, Tuning::wave_tree_max_run_bytes> {};
//! A tuning's prefix_chain_max_bytes and keyed_prefix_chain_max_bytes (tuning/native.cuh), both
//! stated or both 0: which accumulators walk the look-back's chain of prefixes (none without them).
template <class Tuning, class = void>
struct prefix_chain_max_bytes {
  static constexpr std::size_t plain = 0;
  static constexpr std::size_t keyed = 0;
};
template <class Tuning>
struct prefix_chain_max_bytes<
    Tuning, std::void_t<decltype(Tuning::prefix_chain_max_bytes), decltype(Tuning::keyed_prefix_chain_max_bytes)>> {
  static constexpr std::size_t plain = Tuning::prefix_chain_max_bytes;
  static constexpr std::size_t keyed = Tuning::keyed_prefix_chain_max_bytes;
};
//! A native tuning's `staged_min_memory_gbps` (tuning/native.cuh), 0 (every device) where it states none.
template <class Tuning, class = void>
struct staged_min_memory_gbps : std::integral_constant<int, 0> {};
template <class Tuning>
struct staged_min_memory_gbps<Tuning, std::void_t<decltype(Tuning::staged_min_memory_gbps)>>
    : std::integral_constant<int, Tuning::staged_min_memory_gbps> {};
//! A native tuning's `packed_dot_sums` (tuning/native.cuh): packed tiles of one-byte sums scan a word
//! at a time (detail/packed_sums.cuh); without it, item by item.
template <class Tuning, class = void>
struct packed_dot_sums : std::false_type {};
template <class Tuning>
struct packed_dot_sums<Tuning, std::void_t<decltype(Tuning::packed_dot_sums)>>
    : std::bool_constant<Tuning::packed_dot_sums> {};
template <class Tuning, class = void>
struct dependent_launch : std::false_type {};
template <class Tuning>
struct dependent_launch<Tuning, std::void_t<decltype(Tuning::dependent_launch)>>
    : std::bool_constant<Tuning::dependent_launch> {};
}  // namespace detail

//! The row of `Tuning` for accumulators of `AccumBytes` bytes.
template <class Tuning, std::size_t AccumBytes>
using row_for = std::conditional_t<
    (AccumBytes <= 1), typename detail::narrow_rows<Tuning>::row_1,
    std::conditional_t<
        (AccumBytes <= 2), typename detail::narrow_rows<Tuning>::row_2,
        std::conditional_t<(AccumBytes <= 4), typename Tuning::row_4,
                           std::conditional_t<(AccumBytes <= 8), typename Tuning::row_8,
                                              std::conditional_t<(AccumBytes <= 16), typename Tuning::row_16,
                                                                 typename Tuning::row_large>>>>>;

namespace detail {
//! The bytes by which an accumulator chooses its row: sizeof, unless the type states the registers
//! an item takes as `row_bytes` (a by-key item: its value's words and one word of flags, detail/keyed.cuh).
template <class T, class = void>
struct row_bytes : std::integral_constant<std::size_t, sizeof(T)> {};
template <class T>
struct row_bytes<T, std::void_t<decltype(T::row_bytes)>> : std::integral_constant<std::size_t, T::row_bytes> {};

template <class V>
struct keyed;
//! The rows and the bytes that choose among them: a by-key item's value size in the tuning's
//! `keyed_rows` where it has them, otherwise the plain rows by `row_bytes`.
template <class Tuning, class Accum, class = void>
struct accum_rows {
  using rows                         = Tuning;
  static constexpr std::size_t bytes = row_bytes<Accum>::value;
};
template <class Tuning, class V>
struct accum_rows<Tuning, keyed<V>, std::void_t<typename Tuning::keyed_rows>> {
  using rows                         = typename Tuning::keyed_rows;
  static constexpr std::size_t bytes = sizeof(V);
};
}  // namespace detail

//! The row of `Tuning` for items of accumulator type `Accum`.
template <class Tuning, class Accum>
using row_for_accum =
    row_for<typename detail::accum_rows<Tuning, Accum>::rows, detail::accum_rows<Tuning, Accum>::bytes>;

namespace detail {
template <class Tuning, std::size_t AccumBytes, bool Packs, class Else, class = void>
struct packed_row {
  using type = Else;
};
template <class A, class B>
inline constexpr bool same_tiles =
    A::block_threads == B::block_threads&& A::items_per_thread == B::items_per_thread&& A::small_items_per_thread ==
    B::small_items_per_thread&& own_small_tiles_max<A>::value ==
    own_small_tiles_max<B>::value&& large_tiles<A>::items_per_thread ==
    large_tiles<B>::items_per_thread&& large_tiles<A>::block_threads ==
    large_tiles<B>::block_threads&& large_tiles<A>::from_items ==
    large_tiles<B>::from_items&& single_tiles<A>::present ==
    single_tiles<B>::present&& single_tiles<A>::items_per_thread ==
    single_tiles<B>::items_per_thread&& single_tiles<A>::max_items_per_thread == single_tiles<B>::max_items_per_thread;
template <class Tuning, std::size_t AccumBytes, class Else>
struct packed_row<Tuning, AccumBytes, true, Else, std::void_t<typename Tuning::packed_rows>> {
  static_assert(same_tiles<typename Tuning::packed_rows::row_1, typename narrow_rows<Tuning>::row_1> &&
                    same_tiles<typename Tuning::packed_rows::row_2, typename narrow_rows<Tuning>::row_2>,
                "packed_rows may differ from row_1 and row_2 in min_blocks_per_sm and the staged fields alone: the "
                "tiles fix the association, and the bits must not depend on whether the items are packed");
  using type = std::conditional_t<(AccumBytes <= 1), typename Tuning::packed_rows::row_1,
                                  std::conditional_t<(AccumBytes <= 2), typename Tuning::packed_rows::row_2, Else>>;
};
}  // namespace detail

//! The row of `Tuning` for items of accumulator type `Accum` in tiles that keep them packed where
//! `Packs` (the tuning's `packed_rows` for one- and two-byte accumulators, if it has them).
template <class Tuning, class Accum, bool Packs>
using row_for_items =
    typename detail::packed_row<Tuning, detail::row_bytes<Accum>::value, Packs, row_for_accum<Tuning, Accum>>::type;

}  // namespace archscan
