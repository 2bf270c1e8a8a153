#pragma once
//! \file The turing family's dispatch: a single-pass scan, by one wave or by decoupled look-back.
//!
//! One tile (n <= tile items): one kernel, one block, no temporary storage. Up to
//! `Tuning::wave_max_tiles` tiles that all fit on the device at once: one cooperative launch, the
//! tiles' aggregates meeting at a grid barrier (tile/wave.cuh); a wave that would have at most one
//! small tile per SM takes small tiles. Otherwise a cudaMemsetAsync resets the tile states (all
//! zero: statuses invalid, counter at tile 0) and the look-back kernel runs. Temporary storage is
//! only the tile states (for example 2^28 int32 items, 5120 per tile: 52429 tiles, 256 B + 410 KiB);
//! a wave keeps its aggregates in the same bytes. Each kernel's shared-memory carveout is set
//! explicitly and its dynamic shared memory above 48 KiB opted into where the tile needs it (guide
//! 4.3.1); the number of blocks that fit on a multiprocessor is read from the device (guide 4.1.3).
//! All of it once per device and kernel; launches are checked and nothing synchronizes.

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>

#include <archscan/dispatch/family.cuh>
#include <archscan/kernel/turing.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

//! Temporary storage of one turing scan, pure host arithmetic (tested for n up to 2^40).
struct turing_plan {
  int tile_items                = 0;     //!< the row's full tiles, or its small ones for a small wave
  std::int64_t tiles            = 0;
  bool packed                   = true;  //!< one state word per tile (accumulators <= 8 bytes)
  std::size_t word_bytes        = 8;     //!< packed only: 8 (values <= 4 bytes) or 16 bytes
  std::size_t counter_offset    = 0;     //!< the tile counter (8 bytes)
  std::size_t status_offset     = 0;     //!< packed words, or 32-bit status flags
  std::size_t aggregates_offset = 0;     //!< unpacked only: one accumulator per tile
  std::size_t inclusives_offset = 0;     //!< unpacked only: one accumulator per tile
  std::size_t zero_bytes        = 0;     //!< bytes from offset 0 that hold the counter and every status
  std::size_t wave_offset       = 0;     //!< a wave's aggregates (one accumulator per tile), in the states' bytes
  std::size_t temp_bytes        = 0;     //!< 0 for a single tile
};

constexpr std::size_t turing_align256(std::size_t b) { return (b + 255) / 256 * 256; }

//! `word_fits`: the accumulator travels in one status word (tile::packed_state), else flags and slots.
constexpr turing_plan make_turing_plan(std::int64_t n, int tile_items, std::size_t accum_bytes, bool word_fits) {
  turing_plan plan{};
  plan.tile_items = tile_items;
  plan.tiles      = n <= 0 ? 0 : (n - 1) / tile_items + 1;
  plan.packed     = word_fits;
  plan.word_bytes = accum_bytes <= 4 ? 8 : 16;
  if (plan.tiles <= 1) return plan;
  const auto tiles   = static_cast<std::size_t>(plan.tiles);
  std::size_t bytes  = turing_align256(sizeof(unsigned long long));
  plan.status_offset = bytes;
  plan.zero_bytes = bytes + tiles * (plan.packed ? plan.word_bytes : sizeof(unsigned));
  bytes           = turing_align256(plan.zero_bytes);
  if (!plan.packed) {
    plan.aggregates_offset = bytes;
    bytes += turing_align256(tiles * accum_bytes);
    plan.inclusives_offset = bytes;
    bytes += turing_align256(tiles * accum_bytes);
  }
  // A packed word is at least as large as its accumulator, and the flags' accumulators have slots.
  plan.wave_offset = plan.packed ? plan.status_offset : plan.aggregates_offset;
  plan.temp_bytes  = bytes;
  return plan;
}

//! Items per tile for n items: `small_tile` when small tiles are allowed (a wave may take them), are
//! smaller than `full_tile`, n needs more than one full tile and at most `max_small_tiles` small
//! ones; else `full_tile`.
constexpr int turing_tile_items(std::int64_t n, int full_tile, int small_tile, std::int64_t max_small_tiles) {
  if (small_tile >= full_tile || n <= full_tile) return full_tile;
  return (n - 1) / small_tile + 1 <= max_small_tiles ? small_tile : full_tile;
}

//! Blocks of the scan kernel to launch: every tile its own block, or only the blocks that are
//! resident at once (each then loops over tiles), never more blocks than tiles.
constexpr std::int64_t turing_grid(std::int64_t tiles, tile_schedule schedule, int sm_count, int blocks_per_sm) {
  if (schedule == tile_schedule::one_per_block) return tiles;
  const std::int64_t resident = static_cast<std::int64_t>(sm_count) * blocks_per_sm;
  return resident < tiles ? resident : tiles;
}

//! The carveout (percent of the multiprocessor's shared memory) that holds `blocks` blocks of
//! `block_smem` bytes each plus the per-block reservation; at least 1, at most 100.
constexpr int turing_fit_carveout(int blocks, int block_smem, int reserved_per_block, int smem_per_sm) {
  const long long need = static_cast<long long>(blocks) * (block_smem + reserved_per_block);
  const long long pct  = (need * 100 + smem_per_sm - 1) / smem_per_sm;
  return pct < 1 ? 1 : pct > 100 ? 100 : static_cast<int>(pct);
}

template <>
struct family_dispatch<turing_family> {
  template <class Tuning, class Problem>
  using tile_of = kernel::turing_tile<Tuning, Problem>;
  template <class Tuning, class Problem>
  using small_tile_of = kernel::turing_tile<Tuning, Problem, kernel::turing_small_items<Tuning, Problem>>;

  //! Full tiles, or small ones for a wave of at most one small tile per SM (Tuning::wave_small_tiles).
  template <class Tuning, class Problem>
  static turing_plan plan(const Problem& p, const detail::device_facts& facts, bool small_allowed = true) {
    using T = typename Problem::accum_type;
    const bool small = small_allowed && Tuning::wave_small_tiles && facts.cooperative_launch;
    const std::int64_t max_small_tiles = small ? std::min<std::int64_t>(facts.sm_count, Tuning::wave_max_tiles) : 0;
    const int tile = turing_tile_items(p.n, tile_of<Tuning, Problem>::tile_items,
                                       small_tile_of<Tuning, Problem>::tile_items, max_small_tiles);
    return make_turing_plan(p.n, tile, sizeof(T), tile::packed_state<T>);
  }

  template <class Tuning, class Problem>
  static std::size_t temp_bytes(const Problem& p, const detail::device_facts& facts) {
    return plan<Tuning>(p, facts).temp_bytes;
  }

  template <class Tuning, class Problem>
  static void launch(const Problem& p, void* d_temp, std::size_t, const detail::device_facts& facts,
                     cudaStream_t stream) {
    using T            = typename Problem::accum_type;
    using tile_t       = tile_of<Tuning, Problem>;
    const int threads  = tile_t::threads;
    const int smem     = tile_t::smem_bytes;
    turing_plan pl = plan<Tuning>(p, facts);

    if (pl.tiles <= 1) {
      constexpr auto k = kernel::turing_scan_single<Tuning, Problem>;
      configure<Tuning, k, false>(threads, smem, facts);
      k<<<1, threads, smem, stream>>>(p);
      detail::throw_on_launch_error("archscan::turing: scan_single");
      return;
    }

    auto* temp = static_cast<unsigned char*>(d_temp);
    if (pl.tile_items != tile_t::tile_items) {  // a small wave
      using small_t = small_tile_of<Tuning, Problem>;
      if (launch_wave<Tuning, Problem, small_t::items>(p, reinterpret_cast<T*>(temp + pl.wave_offset), pl.tiles,
                                                       facts, stream)) {
        return;
      }
      pl = plan<Tuning>(p, facts, false);  // full tiles: fewer, so their states fit in the same bytes
    }
    if (launch_wave<Tuning, Problem, tile_t::items>(p, reinterpret_cast<T*>(temp + pl.wave_offset), pl.tiles, facts,
                                                   stream)) {
      return;
    }
    typename tile_t::states_t states{};
    states.d_counter = reinterpret_cast<unsigned long long*>(temp + pl.counter_offset);
    if constexpr (tile::packed_state<T>) {
      states.d_words = reinterpret_cast<typename tile_t::states_t::word::storage*>(temp + pl.status_offset);
    } else {
      states.d_status     = reinterpret_cast<unsigned*>(temp + pl.status_offset);
      states.d_aggregates = reinterpret_cast<T*>(temp + pl.aggregates_offset);
      states.d_inclusives = reinterpret_cast<T*>(temp + pl.inclusives_offset);
    }

    // The reset state is all zero. A memset, not a kernel: at 2^13..2^18 items a reset kernel made a
    // call 1.2x slower (perf/NOTES.md, run K).
    detail::throw_on_error(cudaMemsetAsync(temp, 0, pl.zero_bytes, stream), "archscan::turing: resetting tile states");

    constexpr auto k        = kernel::turing_scan_tiles<Tuning, Problem>;
    const int blocks_per_sm = configure<Tuning, k, true>(threads, smem, facts);
    const std::int64_t grid = turing_grid(pl.tiles, Tuning::schedule, facts.sm_count, blocks_per_sm);
    if (grid > INT_MAX) detail::throw_on_error(cudaErrorInvalidValue, "archscan::turing: too many tiles for one grid");
    const unsigned delay =
        lookback_delay(pl.tiles, static_cast<std::int64_t>(facts.sm_count) * blocks_per_sm, Tuning::lookback_delay_ns);
    k<<<static_cast<unsigned>(grid), threads, smem, stream>>>(p, states, pl.tiles, delay);
    detail::throw_on_launch_error("archscan::turing: scan_tiles");
  }

 private:
  //! The wave kernel (tile/wave.cuh) for at most `Tuning::wave_max_tiles` tiles, launched cooperatively
  //! so that the driver guarantees every block is resident at once. false, with nothing launched, when
  //! the tiles are more than that, do not all fit on the device, or it cannot launch cooperatively.
  template <class Tuning, class Problem, int Items>
  static bool launch_wave(const Problem& p, typename Problem::accum_type* d_aggregates, std::int64_t tiles,
                          const detail::device_facts& facts, cudaStream_t stream) {
    if (tiles > Tuning::wave_max_tiles || !facts.cooperative_launch) return false;
    using tile_t            = kernel::turing_tile<Tuning, Problem, Items>;
    constexpr auto k        = kernel::turing_scan_wave<Tuning, Problem, Items>;
    // Every block of a wave must be resident at once. All shared memory to the carveout, so that the
    // blocks the occupancy query counts are certainly the blocks that fit (the preferred carveout is
    // a hint); for one pass over few items the L1 it leaves makes no measured difference (run K).
    const int blocks_per_sm = configure<Tuning, k, true>(tile_t::threads, tile_t::smem_bytes, facts, 100);
    if (tiles > static_cast<std::int64_t>(facts.sm_count) * blocks_per_sm) return false;
    cudaLaunchAttribute cooperative{};
    cooperative.id              = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    cudaLaunchConfig_t config{};
    config.gridDim          = dim3(static_cast<unsigned>(tiles));
    config.blockDim         = dim3(static_cast<unsigned>(tile_t::threads));
    config.dynamicSmemBytes = static_cast<std::size_t>(tile_t::smem_bytes);
    config.stream           = stream;
    config.attrs            = &cooperative;
    config.numAttrs         = 1;
    const cudaError_t status = cudaLaunchKernelEx(&config, k, p, d_aggregates);
    if (status == cudaErrorCooperativeLaunchTooLarge) {  // e.g. fewer SMs under MPS than the device has
      cudaGetLastError();
      return false;
    }
    detail::throw_on_error(status, "archscan::turing: scan_wave (cooperative launch)");
    detail::throw_on_launch_error("archscan::turing: scan_wave");
    return true;
  }

  //! Sets kernel `k`'s shared-memory attributes (carveout: a percentage, Tuning::carveout_fit or
  //! Tuning::carveout_unset) and, with `Occupancy`, returns how many of its blocks fit on one
  //! multiprocessor (else 1), once per device and kernel (later calls read the cached answer).
  template <class Tuning, auto k, bool Occupancy>
  static int configure(int threads, int smem, const detail::device_facts& facts,
                       int carveout = Tuning::carveout_percent) {
    constexpr int max_devices = 64;
    static std::atomic<int> cached[max_devices];  // 0: not configured yet
    const bool cacheable = facts.device >= 0 && facts.device < max_devices;
    if (cacheable) {
      const int c = cached[facts.device].load(std::memory_order_acquire);
      if (c > 0) return c;
    }
    opt_in_dynamic_smem(k, smem, facts, "archscan::turing");  // guide 4.3.1
    auto set_carveout = [&](int percent) {
      detail::throw_on_error(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, percent),
                             "archscan::turing: cudaFuncSetAttribute (carveout)");
    };
    auto occupancy = [&] {
      int blocks = 0;
      detail::throw_on_error(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads, smem),
                             "archscan::turing: cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      return blocks;
    };
    int blocks = 1;
    if (carveout == Tuning::carveout_fit) {
      // Blocks that fit with all the shared memory, then just the shared memory they use: the rest
      // stays L1 (guide 4.3.1), and the occupancy limits (threads, registers, blocks) are the device's.
      set_carveout(100);
      blocks = occupancy();
      const int reserved = facts.cc_major >= 8 ? 1024 : 0;  // per-block system reservation (sm_80 on)
      set_carveout(turing_fit_carveout(std::max(blocks, 1), smem, reserved, facts.smem_per_sm));
      blocks = occupancy();
    } else {
      if (carveout >= 0) set_carveout(carveout);
      if (Occupancy) blocks = occupancy();
    }
    if (blocks < 1) {
      detail::throw_on_error(cudaErrorInvalidConfiguration, "archscan::turing: no block of the kernel fits");
    }
    if (cacheable) cached[facts.device].store(blocks, std::memory_order_release);
    return blocks;
  }
};

}  // namespace archscan::dispatch
