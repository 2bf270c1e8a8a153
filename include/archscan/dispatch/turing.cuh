#pragma once
//! \file The turing family's dispatch: a single-pass scan with decoupled look-back.
//!
//! One tile (n <= tile items): one kernel, one block, no temporary storage. Otherwise an init kernel
//! marks the tile states invalid and zeroes the tile counter, then the scan kernel runs; temporary
//! storage is only the tile states (for example 2^28 int32 items, 5120 per tile: 52429 tiles,
//! 256 B + 410 KiB). Each kernel's shared-memory carveout is set explicitly and its dynamic shared
//! memory above 48 KiB opted into where the tile needs it (guide 4.3.1); the number of blocks that
//! fit on a multiprocessor is read from the device (guide 4.1.3). All of it once per device and
//! kernel; launches are checked and nothing synchronizes.

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
  std::int64_t tiles            = 0;
  bool packed                   = true;  //!< one state word per tile (accumulators <= 8 bytes)
  std::size_t word_bytes        = 8;     //!< packed only: 8 (values <= 4 bytes) or 16 bytes
  std::size_t counter_offset    = 0;     //!< the tile counter (8 bytes)
  std::size_t status_offset     = 0;     //!< packed words, or 32-bit status flags
  std::size_t aggregates_offset = 0;     //!< unpacked only: one accumulator per tile
  std::size_t inclusives_offset = 0;     //!< unpacked only: one accumulator per tile
  std::size_t temp_bytes        = 0;     //!< 0 for a single tile
};

constexpr std::size_t turing_align256(std::size_t b) { return (b + 255) / 256 * 256; }

//! `word_fits`: the accumulator travels in one status word (tile::packed_state), else flags and slots.
constexpr turing_plan make_turing_plan(std::int64_t n, int tile_items, std::size_t accum_bytes, bool word_fits) {
  turing_plan plan{};
  plan.tiles  = n <= 0 ? 0 : (n - 1) / tile_items + 1;
  plan.packed     = word_fits;
  plan.word_bytes = accum_bytes <= 4 ? 8 : 16;
  if (plan.tiles <= 1) return plan;
  const auto tiles   = static_cast<std::size_t>(plan.tiles);
  std::size_t bytes  = turing_align256(sizeof(unsigned long long));
  plan.status_offset = bytes;
  bytes += turing_align256(tiles * (plan.packed ? plan.word_bytes : sizeof(unsigned)));
  if (!plan.packed) {
    plan.aggregates_offset = bytes;
    bytes += turing_align256(tiles * accum_bytes);
    plan.inclusives_offset = bytes;
    bytes += turing_align256(tiles * accum_bytes);
  }
  plan.temp_bytes = bytes;
  return plan;
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
  static turing_plan plan(const Problem& p) {
    using T = typename Problem::accum_type;
    return make_turing_plan(p.n, tile_of<Tuning, Problem>::tile_items, sizeof(T), tile::packed_state<T>);
  }

  template <class Tuning, class Problem>
  static std::size_t temp_bytes(const Problem& p, const detail::device_facts&) {
    return plan<Tuning>(p).temp_bytes;
  }

  template <class Tuning, class Problem>
  static void launch(const Problem& p, void* d_temp, std::size_t, const detail::device_facts& facts,
                     cudaStream_t stream) {
    using T            = typename Problem::accum_type;
    using tile_t       = tile_of<Tuning, Problem>;
    const int threads  = tile_t::threads;
    const int smem     = tile_t::smem_bytes;
    const turing_plan pl = plan<Tuning>(p);

    if (pl.tiles <= 1) {
      auto k = kernel::turing_scan_single<Tuning, Problem>;
      configure<Tuning, false>(k, threads, smem, facts);
      k<<<1, threads, smem, stream>>>(p);
      detail::throw_on_launch_error("archscan::turing: scan_single");
      return;
    }

    auto* temp = static_cast<unsigned char*>(d_temp);
    typename tile_t::states_t states{};
    states.d_counter = reinterpret_cast<unsigned long long*>(temp + pl.counter_offset);
    if constexpr (tile::packed_state<T>) {
      states.d_words = reinterpret_cast<typename tile_t::states_t::word::storage*>(temp + pl.status_offset);
    } else {
      states.d_status     = reinterpret_cast<unsigned*>(temp + pl.status_offset);
      states.d_aggregates = reinterpret_cast<T*>(temp + pl.aggregates_offset);
      states.d_inclusives = reinterpret_cast<T*>(temp + pl.inclusives_offset);
    }

    constexpr int init_threads = 256;
    const std::int64_t init_blocks = (pl.tiles + init_threads - 1) / init_threads;
    kernel::turing_init_states<Tuning, Problem><<<static_cast<unsigned>(init_blocks), init_threads, 0, stream>>>(
        states, pl.tiles);
    detail::throw_on_launch_error("archscan::turing: init_states");

    auto k                  = kernel::turing_scan_tiles<Tuning, Problem>;
    const int blocks_per_sm = configure<Tuning, true>(k, threads, smem, facts);
    const std::int64_t grid = turing_grid(pl.tiles, Tuning::schedule, facts.sm_count, blocks_per_sm);
    if (grid > INT_MAX) detail::throw_on_error(cudaErrorInvalidValue, "archscan::turing: too many tiles for one grid");
    const unsigned delay =
        lookback_delay(pl.tiles, static_cast<std::int64_t>(facts.sm_count) * blocks_per_sm, Tuning::lookback_delay_ns);
    k<<<static_cast<unsigned>(grid), threads, smem, stream>>>(p, states, pl.tiles, delay);
    detail::throw_on_launch_error("archscan::turing: scan_tiles");
  }

 private:
  //! Sets the kernel's shared-memory attributes and returns how many of its blocks fit on one
  //! multiprocessor, once per device and kernel (later calls read the cached answer).
  template <class Tuning, bool Tiles, class Kernel>
  static int configure(Kernel k, int threads, int smem, const detail::device_facts& facts) {
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
    if constexpr (Tuning::carveout_percent == Tuning::carveout_fit) {
      // Blocks that fit with all the shared memory, then just the shared memory they use: the rest
      // stays L1 (guide 4.3.1), and the occupancy limits (threads, registers, blocks) are the device's.
      set_carveout(100);
      blocks = occupancy();
      const int reserved = facts.cc_major >= 8 ? 1024 : 0;  // per-block system reservation (sm_80 on)
      set_carveout(turing_fit_carveout(std::max(blocks, 1), smem, reserved, facts.smem_per_sm));
      blocks = occupancy();
    } else {
      if constexpr (Tuning::carveout_percent >= 0) set_carveout(Tuning::carveout_percent);
      if (Tiles) blocks = occupancy();
    }
    if (blocks < 1) {
      detail::throw_on_error(cudaErrorInvalidConfiguration, "archscan::turing: no block of the kernel fits");
    }
    if (cacheable) cached[facts.device].store(blocks, std::memory_order_release);
    return blocks;
  }
};

}  // namespace archscan::dispatch
