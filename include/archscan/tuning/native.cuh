#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The native family's tuning: a single-pass scan for today's GPUs whose results are bitwise
//! deterministic, floating point included (tile/segment_lookback.cuh).
//!
//! Determinism follows from the association being a function of n and the row only: the tile shape is
//! fixed per row and n (small and large tiles are chosen by n alone, never by the SM count; an
//! operator exact under any association, whose bits no tile shape changes, may take full tiles
//! staged where the device's memory runs them faster than its row's large ones), tile
//! aggregates are folded left to right whoever folds them, and the wave and the look-back fold the
//! same way (a wave of an operator exact under any association folds as a tree, one exact by a
//! user's declaration only while its lanes' runs are short: the same bits), so the route the device
//! allows does not matter.

#include <cstddef>
#include <cstdint>

#include <archscan/tuning/shape.cuh>

namespace archscan {

struct native_tuning {
  using family = native_family;

  //! Rows: tiles of 16-48 KB (row_8's and row_16's large tiles ~62 KB), since each tile's look-back
  //! costs about the same whatever its size (docs/design-notes.md); narrow accumulators take more items per
  //! tile.
  struct row_1 {  // H100, int8 exclusive sum, 2^30: 1704 GB/s (0.57 of copy, 1.73x CUB; scalar access 0.38)
    static constexpr int block_threads               = 256;
    static constexpr int items_per_thread            = 64;
    static constexpr int small_items_per_thread      = 16;
    static constexpr int min_blocks_per_sm           = 2;
    static constexpr int single_items_per_thread     = 4;  // as packed_rows::row_1 (the same tiles)
    static constexpr int single_max_items_per_thread = 16;
  };
  struct row_2 {  // H100, int16 exclusive sum unpacked, 2^30: 2531 GB/s (0.85 of copy) at 128x64 min 4, the
                  // same threads and items an SM as here; packed_rows' tile, so that the bits agree: not measured
    static constexpr int block_threads               = 256;
    static constexpr int items_per_thread            = 64;
    static constexpr int small_items_per_thread      = 8;
    static constexpr int min_blocks_per_sm           = 2;
    static constexpr int single_items_per_thread     = 4;  // as packed_rows::row_2 (the same tiles)
    static constexpr int single_max_items_per_thread = 16;
    static constexpr int small_tiles_max             = 264;  // as packed_rows::row_2: the same tiles
  };
  struct row_4 {  // H100, float exclusive sum, 2^30: 2793 GB/s (0.93 of copy, 1.13x CUB)
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 32;
    static constexpr int small_items_per_thread = 16;  // H100, int32 2^17: 1.31x CUB (1.14x with 40)
    static constexpr int min_blocks_per_sm      = 4;
    static constexpr int single_items_per_thread =
        4;  // H100, int32 2^10: 3.87 us, 1.06x a copy (256x32: 5.02 us, 1.38x)
    // H100, int32 2^11 / 2^12 (archscan-floor): 256x8 4.06 us, 1.09x a copy / 256x16 4.42 us, 1.19x (256x32: 1.38
    // / 1.39)
    static constexpr int single_max_items_per_thread = 16;
    static constexpr int small_tiles_max             = 264;  // H100, int32 / float 2^20: 0.98x the time at 132
    // H200, int32 exclusive sum, fraction of a copy staged / not: 2^26 0.877 / 0.854, 2^27 0.919 / 0.881,
    // 2^28 0.933 / 0.881, 2^30 0.943 / 0.881; 2^25 0.821 / 0.837 (docs/design-notes.md). H100: not measured.
    static constexpr std::int64_t staged_from_items = std::int64_t{1} << 26;
    static constexpr int staged_min_blocks_per_sm   = 3;  // 2 blocks (4 tiles an SM): 0.841 at 2^28
  };
  struct row_8 {  // H100, double exclusive sum, 2^23: 2124 GB/s (0.93x CUB; 2^21 1.10x), below the large tiles
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 16;
    static constexpr int small_items_per_thread = 4;  // H100, double 2^14: 1.26x CUB (1.07x with 16)
    static constexpr int min_blocks_per_sm      = 4;
    static constexpr int single_items_per_thread =
        4;  // H100, int64 / double 2^10: 1.13x a copy (the row's tile: 1.30 / 1.32)
    static constexpr int single_max_items_per_thread = 8;
    static constexpr int small_tiles_max             = 264;  // H100, double / int64 2^18: 0.96x the time at 132
    // H100, double / int64 2^22: 0.918 / 0.948 the time at 4 blocks (2^23 0.980 / 0.973; H200 2^22
    // 0.977 / 1.003); the wave keeps 4, so that 2^21's 512 tiles stay one wave (1.06x the time at 3).
    static constexpr int lookback_min_blocks_per_sm = 3;
    // H100, double 2^28: 2826 GB/s (0.935 of copy, 1.04x CUB; 2^30 0.942). Below 2^24 these tiles
    // lose to the 4096-item ones (double 2^20: 0.97x CUB against 1.03x; 2^23: 0.91x against 0.93x).
    // 31 items, 7936-item tiles: 32 would overflow the tile's 64 KiB of shared memory (the transpose's
    // padded slots) and be fitted to 31 anyway; an odd count moves items one by one, not as vectors.
    static constexpr int large_items_per_thread    = 31;
    static constexpr int large_min_blocks_per_sm   = 2;
    static constexpr std::int64_t large_from_items = std::int64_t{1} << 24;
    // H200, int64 exclusive sum, fraction of a copy, full tiles staged / the row's tiles unstaged (large
    // from 2^24): 2^24 0.832 / 0.815, 2^26 0.924 / 0.883, 2^28 0.939 / 0.890, 2^30 0.938 / 0.890; 2^22
    // 0.673 / 0.690, 2^23 0.755 / 0.753 (21 calls a case). Only operators exact under any
    // association take them where the large tiles run (double staged: 0.934 at 2^28, other bits); a
    // declared one (associativity.cuh) too, measured for libcu++'s sums alone. H100: not measured.
    static constexpr std::int64_t staged_from_items = std::int64_t{1} << 24;
    static constexpr int staged_min_blocks_per_sm   = 3;  // double 2 blocks: the same; int64: 0.899 at 2^28
  };
  struct row_16 {  // H100, 16-byte non-commutative struct product, 2^20: 24.0 us (1.89x CUB; 128x31 tiles: 27.2 us)
    static constexpr int block_threads           = 128;
    static constexpr int items_per_thread        = 16;  // one 16-byte vector an item
    static constexpr int small_items_per_thread  = 16;
    static constexpr int min_blocks_per_sm       = 4;
    static constexpr int single_items_per_thread = 8;  // H100, the product 2^10: 1.17x a copy (the row's tile: 1.64)
    // H100, the same product, 2^28: 0.839 of copy (2.60x CUB) at 192x21 against 0.823 at 128x31;
    // 160x25 0.985x the time of 128x31, 224x17 0.995x, 256x15 1.009x, 192x21 at 3 blocks 1.33x
    // (5 rounds at 2^22..2^30). 12 warps an SM at 2 blocks, 10.5 KB a warp: bulk stores.
    // A row derived from this one inherits the 192 threads: restate them with other large tiles.
    static constexpr int large_block_threads       = 192;
    static constexpr int large_items_per_thread    = 21;
    static constexpr int large_min_blocks_per_sm   = 2;
    static constexpr std::int64_t large_from_items = std::int64_t{1} << 22;
    // H100, the product, x the segment states' time (5 rounds): these tiles on the chain of
    // prefixes 2^22 0.985, 2^24 0.964, 2^26..2^30 0.95; the full tiles on it 2^21 1.13-1.15 (so not them).
    static constexpr bool large_chained = true;
  };
  struct row_large {  // H100, by-key mat2x2 (keyed<mat2x2>), 2^30: 1357 GB/s (1.21x CUB; 128x3: 0.21x)
    static constexpr int block_threads          = 256;
    static constexpr int items_per_thread       = 6;
    static constexpr int small_items_per_thread = 6;
    static constexpr int min_blocks_per_sm      = 1;
  };

  //! Rows for one- and two-byte items that the tiles keep packed, four or two to a register (raw
  //! pointers in and out of the same width, tuning/shape.cuh): a 256x64 tile fits 64 registers a thread,
  //! so 4 blocks an SM (unpacked, row_1 and row_2 need 128 and spill at 64). The same tiles as
  //! row_1 and row_2 (tuning/shape.cuh requires it): the association, so the bits, must not depend on
  //! the iterators.
  struct packed_rows {
    struct row_1 {  // H100, int8 exclusive sum, 2^30: 2430 GB/s (0.81 of copy, 2.47x CUB; 256x64 at 2 blocks: 0.59)
      static constexpr int block_threads               = 256;
      static constexpr int items_per_thread            = 64;
      static constexpr int small_items_per_thread      = 16;
      static constexpr int min_blocks_per_sm           = 4;
      static constexpr int single_items_per_thread     = 4;  // H100, int8 2^10: 1.05x a copy (the row's tile: 1.54)
      static constexpr int single_max_items_per_thread = 16;
    };
    struct row_2 {  // H100, int16 exclusive sum, 2^30: 2787 GB/s (0.93 of copy, 1.62x CUB; 128x64 at 4 blocks: 0.85)
      static constexpr int block_threads               = 256;
      static constexpr int items_per_thread            = 64;
      static constexpr int small_items_per_thread      = 8;
      static constexpr int min_blocks_per_sm           = 4;
      static constexpr int single_items_per_thread     = 4;  // H100, int16 2^10: 1.06x a copy (the row's tile: 1.53)
      static constexpr int single_max_items_per_thread = 16;
      static constexpr int small_tiles_max             = 264;  // H100, int16 2^19: 0.90x the time at 132
      // H200, int16 exclusive sum, fraction of a copy staged / not: 2^28 0.906 / 0.888, 2^29 0.918 / 0.889,
      // 2^30 0.929 / 0.895; 2^27 0.879 / 0.875, 2^26 0.881 / 0.898 (three runs). H100: not
      // measured. Not row_1: int8 staged 0.627 / 0.631 at 2^28, 0.642 / 0.639 at 2^30 (its tiles' work binds).
      static constexpr std::int64_t staged_from_items = std::int64_t{1} << 28;
      static constexpr int staged_min_blocks_per_sm   = 3;  // 2 blocks: 0.873 at 2^28
    };
  };

  //! Rows for by-key items, by the size of their value (tuning/shape.cuh); a tuning derived from this one
  //! that redefines a plain row redefines these too where by-key items should follow. Tiles hold
  //! by-key items as values and a word of flags (tile/transposed_io.cuh): keyed<int> 256x16 takes
  //! 64 registers and 256x28 80; keyed<double> 256x16 80 with 56 bytes of spills (measured faster
  //! than 4 blocks' 64, and than 2 blocks' 128 without spills from 2^23), 256x28 128 without. Large
  //! tiles from 2^25 (2^26 for 8-byte values) as for row_8: measured in one run (H100,
  //! 2^24..2^26, 2026-11-24).
  struct keyed_rows {
    struct row_1 {  // H100, by-key int8 exclusive sum, 2^30: 2211 GB/s, 1.38x CUB (chosen at 1.05x,
                    // against 0.90x at 80 registers, before the walk's by-key waits)
      static constexpr int block_threads           = 256;
      static constexpr int items_per_thread        = 16;
      static constexpr int small_items_per_thread  = 4;
      static constexpr int min_blocks_per_sm       = 4;
      static constexpr int single_items_per_thread = 4;  // H100, by-key int8 2^10: 1.37x a copy (the row's tile: 1.54)
      static constexpr int single_max_items_per_thread = 8;
    };
    struct row_4 {  // H100, by-key int32 exclusive sum, 2^22: 1689 GB/s, 1.18x CUB (chosen at
                    // 0.95-0.97x, against 256x16 at 3 blocks' 0.89x)
      static constexpr int block_threads          = 256;
      static constexpr int items_per_thread       = 16;
      static constexpr int small_items_per_thread = 4;
      static constexpr int min_blocks_per_sm      = 4;
      static constexpr int single_items_per_thread =
          4;  // H100, by-key int32 / float 2^10: 1.23 / 1.27x a copy (1.57 / 1.56)
      static constexpr int single_max_items_per_thread = 8;
      // H100, by-key int32 2^28: 3007 GB/s, 1.12x CUB (chosen at 0.965x, against 24 items' 0.92x
      // and the small tiles' 0.89x; at 2^24 0.87x against the small tiles' 0.92x).
      // 3 blocks: the 3 that 80 registers and the tile's 28.8 KB allowed when measured; at a cap
      // of 2, the branch-free item-by-item loads took 104 registers (2 blocks).
      static constexpr int large_items_per_thread    = 28;
      static constexpr int large_min_blocks_per_sm   = 3;
      static constexpr std::int64_t large_from_items = std::int64_t{1} << 25;
    };
    struct row_2 : row_4 {  // int16: row_4's tiles, large ones of 24 items (28 two-byte values split
                            // into no whole vectors). Not measured since the split items.
      static constexpr int large_items_per_thread = 24;
    };
    struct row_8 {  // H100, by-key double, 2^24: 2516 GB/s, 0.99x CUB (chosen at 0.81x, against
                    // 256x16 at 4 blocks' 0.73x and 256x28's 0.76x)
      static constexpr int block_threads          = 256;
      static constexpr int items_per_thread       = 16;  // 16-byte vectors of 8-byte values, 4-byte keys
      static constexpr int small_items_per_thread = 4;   // 2^16: 1.00x CUB (12 items: 0.79x)
      static constexpr int min_blocks_per_sm      = 3;
      static constexpr int single_items_per_thread =
          4;  // H100, by-key int64 / double 2^10: 1.28 / 1.29x a copy (1.70 / 1.72)
      static constexpr int single_max_items_per_thread = 8;
      static constexpr int small_tiles_max             = 264;  // H100, by-key double 2^18: 0.88x the time at 132
      // H100, by-key double 2^28: 2950 GB/s, 1.02x CUB (chosen at 0.92x, against 24 items' 0.90x
      // and the small tiles' 0.86x; at 2^25 0.81x against the small tiles' 0.83x).
      static constexpr int large_items_per_thread    = 28;
      static constexpr int large_min_blocks_per_sm   = 2;
      static constexpr std::int64_t large_from_items = std::int64_t{1} << 26;
    };
    using row_16 = native_tuning::row_large;  // keyed<mat2x2>: as before (row_bytes 20); 9..12-byte
                                              // values took row_16 before (row_bytes 16): not measured
    using row_large = native_tuning::row_large;
  };

  //! Problems of at most this many tiles of the row's small_items_per_thread (and more than one full
  //! tile) take those smaller tiles, so that few items spread over more SMs. A choice by n alone,
  //! which keeps the bits the same on every device. A row may state its own `small_tiles_max`
  //! (rows whose full tiles hold 32 KiB or more gained from more small tiles); 0 here: never, in no
  //! row, and the small tiles' kernels are not compiled. H100, int32 2^14..2^17: 1.17-1.31x CUB
  //! with them, 1.03-1.14x without.
  static constexpr int small_tiles_max = 132;

  //! Problems of at most this many tiles (and more than one) run as one thread block cluster on
  //! devices that have clusters (sm_90 on) and fit one that large (tile/cluster.cuh): the aggregates
  //! cross in shared memory, so no temporary storage and no grid-wide barrier. Folded as a wave: the
  //! same bits. At most 16, the largest cluster a device may allow; 0: never. H100, int32 exclusive
  //! sum, 2^14 / 2^16 (4 / 16 small tiles): 6.43 / 6.88 us, 1.20x / 1.17x CUB (a wave: 7.52 / 7.23 us;
  //! clusters of at most 8: 2^16 as a wave). H200, one barrier (the aggregates written into the later
  //! blocks) against two (read from the earlier ones): int32 2^16 5.49 / 5.92 us, double 6.59 / 7.04.
  static constexpr int cluster_max_tiles = 16;

  //! Problems that at most this many full tiles cover, where small tiles would number more, take the
  //! full tiles if a full tile holds at most `full_tiles_max_extra_bytes` accumulator bytes more than
  //! a small one: as many as cluster_max_tiles, so that they run as one cluster where small tiles
  //! would run as a wave (temporary storage, a grid barrier), while small tiles that spread the items
  //! over many more SMs keep them. A choice by n and the tuning alone; 0: never. H100, time x the
  //! small tiles' wave (a full tile's extra bytes): by-key int8 2^15 0.87 (6 KiB), int32 2^17 0.95
  //! (16 KiB), double 2^15 0.94 (24 KiB), by-key int32 2^15 / 2^16 0.95 / 1.01 (24 KiB); int16 2^17
  //! 1.03 (28 KiB), by-key double 2^16 1.11 (48 KiB).
  static constexpr int full_tiles_max             = 16;
  static constexpr int full_tiles_max_extra_bytes = 24 * 1024;

  //! Problems of at most this many tiles, when all fit on the device at once, run as one cooperative
  //! launch (no reset, one launch instead of two) folded as the look-back folds (or, for an operator
  //! exact under any association, as a tree: wave_tree_max_run_bytes): the same bits either way.
  //! Every fitting wave: on the H100 it beat a 64-tile cap at 2^20..2^22 items.
  static constexpr int wave_max_tiles = 1 << 30;

  //! A wave of an operator that a user declares exact (associativity.cuh) folds its aggregates as a
  //! tree while each lane's run (the last tile's: ceil((tiles - 1) / 32) aggregates) holds at most
  //! this many bytes, and in order (the look-back's association) past that: the same bits either
  //! way, a choice the dispatch makes once per call. libcu++'s integer functors keep the tree
  //! (dispatch/native_dispatch.cuh, `exact_waves_in_order`). H100, the declared 16-byte product,
  //! time as a tree / in order: 64 tiles 0.96, 320 tiles (160 bytes) 0.99, 336 tiles 1.003, 352-384
  //! tiles 1.01, 448 tiles 1.02, 512 tiles 1.05.
  static constexpr std::size_t wave_tree_max_run_bytes = 160;

  //! The look-back's walk (tile/segment_lookback.cuh; the same bits either way): the chain
  //! of prefixes for accumulators of at most this many bytes, the segment states for wider ones
  //! (but for a row's large tiles that state `large_chained`: row_16's).
  //! H100, 2^30, x CUB (chain / segment states): int32 1.13 / 1.04, double 0.99 / 0.91, 16-byte
  //! non-commutative struct 1.56 / 1.63.
  static constexpr std::size_t prefix_chain_max_bytes = 8;
  //! The same for by-key items, compared with sizeof(keyed<value>): the segment states always. H100,
  //! by-key 2^30, x CUB (chain / segment states): int8 0.59 / 1.05, int32 0.59 / 0.72.
  static constexpr std::size_t keyed_prefix_chain_max_bytes = 0;

  //! The look-back's first set of tiles (those the device holds at once) starts its loads staggered:
  //! tile t of it t x this x (its tile's accumulator KiB) SM cycles after its block starts
  //! (tile/transposed_tile.cuh, `pace_start`), so that the first tiles' inputs arrive first and the
  //! chain of prefixes starts while the rest still load. Timing only: the bits do not change. 0: all
  //! at once. H100, 32 KB tiles, x the unpaced kernel: double 2^22 0.91, int32 2^23 0.89, int16 2^24
  //! 0.88; 2^28 within 0.5% (8 rounds; docs/design-notes.md).
  static constexpr double first_set_stagger_cycles_per_kib = 0.75;

  //! While a look-back tile waits for its prefix, it asks the L2 (sm_90 on: one bulk prefetch) for
  //! the input of the tile this many percent of the first set after its own, which at 50 a block
  //! claims about half a tile's life later (tile/transposed_tile.cuh, `prefetch_input`): the memory
  //! fetches during the waits, which otherwise leave it idle past one set, what that tile would load
  //! itself. Contiguous inputs alone; timing only: the bits do not change. 0: none. H100, fraction
  //! of a copy at 2^28 without -> with (10 rounds): int32 0.918 -> 0.966, double 0.940
  //! -> 0.985, int8 0.786 -> 0.818, the 16-byte product 0.759 -> 0.817; 75 and 100 fetch too early
  //! (5-25% slower).
  static constexpr int l2_prefetch_ahead_percent = 50;

  //! The staged look-back (tuning/shape.cuh, `example_staged_row`: row_4's full tiles from 2^26 items, packed
  //! row_2's from 2^28, row_8's from 2^24 for exact operators) runs on devices whose memory's peak
  //! bandwidth (clock x bus width) is at least this many GB/s: the H200 (4.9 TB/s), where it measured
  //! faster, and not the H100 (3.35 TB/s), where it has not been measured. 0: every device. Timing
  //! only: the bits do not change.
  static constexpr int staged_min_memory_gbps = 4000;

  //! On sm_90 on, the look-back resets its tile states with a kernel of its own and launches the scan
  //! as its programmatic dependent (detail/dependent_launch.cuh), so that the scan's launch overlaps
  //! the reset instead of following it; elsewhere, or false, a cudaMemsetAsync and a plain launch.
  static constexpr bool dependent_launch = true;

  //! On sm_90 and newer, a warp of a full tile whose items (unpacked) are stored as an odd count of
  //! 16-byte vectors a lane, and its segment at least this many bytes, writes its blocked items to
  //! its exchange region (already the memory's order) and hands the region to the bulk copy unit in
  //! one instruction (detail/bulk_copy.cuh), instead of exchanging them back and storing a vector a
  //! lane. Timing only: the bits do not change. 0: never. Today row_16's large tiles of 16-byte
  //! outputs (192x21, 10.5 KB a warp: the product, or any other 16-byte struct) take it. H100, the
  //! product, x the vector stores' time (5 rounds each): 128x31 2^22 0.96, 2^24 0.986,
  //! 2^28 0.995; 192x21 2^24 0.981, 2^28 0.994.
  //! Smaller segments lost: int8 16-item tiles (one vector a lane, 512 B a warp) 1.03-1.05 at
  //! 2^16..2^20; even counts, which need the exchange first, lost too (int32 256x32 1.013 at 2^28).
  static constexpr std::size_t bulk_store_min_bytes = 8192;

  //! `packed_dot_sums` (optional, tuning/rows.cuh): where true, packed tiles of one- and two-byte sums
  //! (libcu++'s plus, no finishing step) fold and rescan a word of four (two) items at a time: dot
  //! products of the word's items onto a running sum (`__dp4a`, `__dp2a_lo`) and byte picks
  //! (detail/packed_sums.cuh), which chain one instruction a word where the item-by-item rescan chains
  //! one an item. sm_90 SASS of the 256x64 int8 kernel: 79 IDP4A and 48 PRMT for the fold and the
  //! rescan, 120 instructions fewer in all; int16's: 118 IDP2A. One-byte integer inputs summed into
  //! four-byte integers (uint8 flags into int32 offsets) stay packed until the rescan writes each item's
  //! sum from one dot product (its 256x32 kernel: 39 IDP4A). The bits do not change (integer sums).
  //! Not set here, so false: not yet measured against the item-by-item scan (perf/policies.cuh's
  //! probe, native_dot_sums).

  // The transposed tile's fields (tuning/turing.cuh documents each).
  static constexpr int carveout_fit             = -1;
  static constexpr int carveout_unset           = -2;
  static constexpr bool warp_transpose          = true;
  static constexpr int carveout_percent         = carveout_fit;
  static constexpr bool opt_in_large_smem       = true;
  static constexpr load_kind load               = load_kind::direct;
  static constexpr tile_status_kind tile_status = tile_status_kind::packed_word;
  static constexpr bool narrow_index_arithmetic = true;
  static constexpr bool vector_access           = true;
  static constexpr int lookback_window          = 32;
  static constexpr unsigned lookback_delay_ns   = 1500;
  static constexpr unsigned backoff_min_ns      = 200;
  static constexpr unsigned backoff_max_ns      = 512;
  static constexpr std::uint64_t spin_limit     = std::uint64_t{1} << 26;
};

}  // namespace archscan
