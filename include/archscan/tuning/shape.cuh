#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Tunings: plain data that selects a kernel family and its parameters.
//!
//! Every tuning has one shape:
//!  - `using family = <tag>`: the dispatch that runs it (dispatch/<family>_dispatch.cuh);
//!  - four rows, the tile shape by accumulator size: `row_4` (at most 4 bytes), `row_8` (at most 8),
//!    `row_16` (at most 16) and `row_large`, each with the fields of `example_row` below, and two
//!    optional ones for narrow accumulators, `row_1` and `row_2` (defined together; a tuning without
//!    them uses its `row_4`). `row_for` chooses the row once, in the dispatch, and the kernels and
//!    tiles receive it resolved;
//!  - optionally `keyed_rows`, a struct of rows (`row_1` .. `row_large`) for by-key items, chosen by
//!    the size of the item's value: a by-key tile holds values, flags and keys, and wants other
//!    shapes than a plain tile of the same bytes. Without it by-key items take the plain rows by
//!    their `row_bytes` (detail/keyed.cuh);
//!  - optionally `packed_rows`, a struct with `row_1` and `row_2` for tiles that keep one- and
//!    two-byte items packed in registers (raw pointers in and out of the same width: four or two
//!    items to a register leave room for more blocks an SM); other narrow problems (iterators,
//!    conversions) take `row_1` and `row_2`. They may differ in `min_blocks_per_sm` and the staged
//!    look-back's fields alone (the tile shape fixes the association), so a tuning that redefines
//!    row_1 or row_2 redefines these too;
//!  - optionally, in a native row, a third tile for large problems: `large_items_per_thread` at
//!    `large_min_blocks_per_sm`, taken from `large_from_items` items up (a choice by n alone, like the
//!    small tiles, but for exact operators where the full tiles stage: `example_staged_row`), on
//!    `large_block_threads` threads where they differ, optionally on the chain of prefixes
//!    (`large_chained`; `example_large_row`); tiles for problems that one tile of few items covers:
//!    `single_items_per_thread`, up to `single_max_items_per_thread` (`example_single_row`); and a
//!    minimum of blocks an SM for the look-back's kernel alone (`example_lookback_row`); a staged
//!    look-back for large problems on fast memory (`example_staged_row`). Other families ignore these
//!    fields;
//!  - the family's own named fields (tuning/kepler.cuh, tuning/turing.cuh).
//! Each shipped row states in one line the GPU, the type and the throughput measured with it
//! (docs/design-notes.md has the runs). `archscan::policy<my_tuning>` runs a user's own tuning: derive from a
//! shipped one and redefine what differs (a redefined row is found by `row_for_accum`; by-key items
//! use `keyed_rows` where the tuning has them, so redefine those as well).

#include <cstddef>
#include <cstdint>

namespace archscan {

//! Family tags: which dispatch runs a tuning.
struct blelloch_family {};
struct kepler_family {};
struct turing_family {};
struct native_family {};

//! How a tile's items are read from global memory.
enum class load_kind {
  direct,     //!< ordinary loads through the iterator
  read_only,  //!< `__ldg`, the read-only data path, for raw pointers to arithmetic types (others load directly)
};

//! How a tile publishes its state (aggregate or inclusive prefix) to the tiles after it.
enum class tile_status_kind {
  packed_word,      //!< status and value in one word, one access (accumulators <= 8 bytes, by-key items of
                    //!< values <= 8 bytes; others use flags)
  flag_and_values,  //!< a 32-bit status released after the value is written (any accumulator)
};

//! The fields of a row (documentation; tunings define their own structs of this shape).
struct example_row {
  static constexpr int block_threads          = 256;  //!< a multiple of 32, at most 1024
  static constexpr int items_per_thread       = 8;    //!< items a thread holds in registers
  static constexpr int small_items_per_thread = 8;    //!< the same for small problems (families that shrink tiles)
  static constexpr int min_blocks_per_sm      = 1;    //!< `__launch_bounds__` minimum: caps registers per thread
};

//! A row with the native family's optional large tiles (documentation, like example_row).
struct example_large_row : example_row {
  static constexpr int large_items_per_thread    = 16;                     //!< items a thread holds in a large tile
  static constexpr int large_min_blocks_per_sm   = 1;                      //!< its `__launch_bounds__` minimum
  static constexpr std::int64_t large_from_items = std::int64_t{1} << 24;  //!< problems of this many items up
  //! Optional: a large tile's threads, where they differ from block_threads (a multiple of 32, at most
  //! 1024). Then large_items_per_thread must differ from every other tile's items a thread, which
  //! tell the tiles apart. A row derived from one that states it inherits it: restate it where the
  //! derived row changes its threads or its large tiles.
  static constexpr int large_block_threads = 192;
  //! Optional: the large tiles find their prefixes on the chain of prefixes (tile/segment_lookback.cuh),
  //! whatever the tuning's prefix_chain_max_bytes gives the accumulator. Timing only: the same bits.
  static constexpr bool large_chained = true;
};

//! A row with the native family's optional minimum for its look-back kernel (documentation, like
//! example_row): its full tiles' look-back kernel takes this `__launch_bounds__` minimum, more
//! registers a thread where it is smaller, while the kernels whose tiles must all be resident at once
//! (a wave, a cluster) keep min_blocks_per_sm, so that as many tiles fit. Timing only: the tiles,
//! so the bits, are the same.
struct example_lookback_row : example_row {
  static constexpr int lookback_min_blocks_per_sm = 1;  //!< the look-back kernel's minimum, full tiles
};

//! A row with the native family's optional single tiles of few items (documentation, like
//! example_row): a problem of at most `block_threads * single_items_per_thread` items runs as that one
//! tile (a choice by n alone), whose latency, not the memory, sets such a call's time. Optionally a
//! ladder: larger problems take the smallest tile of twice, four times, ... as many items a thread,
//! up to `single_max_items_per_thread`, that covers them (each step smaller than the row's full tile
//! is one more kernel per problem type); without the field, or at most single_items_per_thread, the
//! ladder has one step.
struct example_single_row : example_row {
  static constexpr int single_items_per_thread     = 4;   //!< items a thread holds in the smallest such tile
  static constexpr int single_max_items_per_thread = 16;  //!< optional: the ladder's largest (4, 8, 16 here)
};

//! A row with the native family's optional staged look-back (documentation, like example_row): problems
//! of at least `staged_from_items` items, on a device whose memory's peak bandwidth reaches the
//! tuning's `staged_min_memory_gbps`, run the row's full tiles on persistent blocks of block_threads
//! workers and one look-back warp, `staged_min_blocks_per_sm` of them an SM, each keeping two tiles
//! in shared memory (tile/staged_tile.cuh): a tile waiting for its prefix
//! holds no registers, so more tiles load at once. Full tiles of 16-byte vectors in and out (packed
//! or not: `packed_rows` may state these fields too), items not split by key; others, and unaligned
//! calls, take the ordinary look-back. In a row with large tiles (`example_large_row`), which never
//! stage, problems whose operator is exact under any association (detail/exact_fold.cuh) take the
//! staged full tiles instead of the large ones where they stage; others keep the large tiles.
//! Timing only: the same tiles and folds, so the same bits (exact operators: no association changes
//! them).
struct example_staged_row : example_row {
  static constexpr std::int64_t staged_from_items = std::int64_t{1} << 27;  //!< problems of this many items up
  static constexpr int staged_min_blocks_per_sm   = 3;  //!< the staged kernel's `__launch_bounds__` minimum
};

}  // namespace archscan
