#pragma once
//! \file The blelloch family's dispatch: the paper's recursion over block sums.
//!
//! Level 0 scans blocks of B = 2 * block_threads items and stores each block's sum; the sums are scanned
//! by the same procedure (recursively, in place) and added back uniformly. Accumulators too large for
//! the tuning's block on the device at hand (its items do not fit a block's shared memory) run with
//! smaller blocks instead (`blelloch_fallback_threads`). Temporary storage: the sums
//! of every level, plus a scratch array of n accumulators when the output cannot hold them (it is not a
//! plain array of the accumulator type, or a by-key finish must run). For example 2^40 int32 items
//! with B = 1024 and the output as scratch: 4 levels and 4 GiB + 4 MiB + 4 KiB of sums.

#include <climits>
#include <cstdint>
#include <type_traits>

#include <archscan/dispatch/family.cuh>
#include <archscan/kernel/blelloch.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

//! The planning arithmetic, pure host code (tested for n up to 2^40).
struct blelloch_plan {
  static constexpr int max_levels = 8;
  int levels = 0;                                 //!< 1: one block does all
  std::int64_t items[max_levels]  = {};           //!< items scanned at each level (items[0] == n)
  std::int64_t blocks[max_levels] = {};           //!< blocks launched at each level
  std::size_t scratch_offset      = 0;            //!< level-0 scratch (when scratch_bytes > 0)
  std::size_t scratch_bytes       = 0;
  std::size_t sums_offset[max_levels] = {};       //!< level l's block sums (level l + 1's items)
  std::size_t temp_bytes          = 0;
};

constexpr std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }

constexpr blelloch_plan make_blelloch_plan(std::int64_t n, int block_items, std::size_t accum_bytes,
                                           bool scratch_in_output) {
  blelloch_plan plan{};
  std::size_t bytes = 0;
  if (!scratch_in_output && n > block_items) {
    plan.scratch_offset = bytes;
    plan.scratch_bytes  = align256(accum_bytes * static_cast<std::size_t>(n));
    bytes += plan.scratch_bytes;
  }
  std::int64_t count = n;
  for (;;) {
    const int l     = plan.levels++;
    plan.items[l]   = count;
    plan.blocks[l]  = (count + block_items - 1) / block_items;
    if (plan.blocks[l] <= 1) break;
    plan.sums_offset[l] = bytes;
    bytes += align256(accum_bytes * static_cast<std::size_t>(plan.blocks[l]));
    count = plan.blocks[l];
  }
  plan.temp_bytes = bytes;
  return plan;
}

//! `Tuning` with `Threads` threads per block.
template <class Tuning, int Threads>
struct blelloch_narrowed : Tuning {
  static constexpr int block_threads = Threads;
};

//! Threads per block of the fallback: the largest power of two, at most the tuning's and at least 32,
//! whose block of 2 items per thread fits the 48 KiB of shared memory that every block may use (32 if
//! none does: 64 items, which still fit the opt-in of every CUDA 13 device for items of up to 1 KiB).
template <class Tuning, class Problem, int Threads = Tuning::block_threads>
constexpr int blelloch_fallback_threads() {
  using tile = kernel::blelloch_tile<blelloch_narrowed<Tuning, Threads>, Problem>;
  if constexpr (Threads <= 32 || tile::smem_bytes <= 48 * 1024) {
    return Threads;
  } else {
    return blelloch_fallback_threads<Tuning, Problem, Threads / 2>();
  }
}

template <class T>
struct type_tag {
  using type = T;
};

template <>
struct family_dispatch<blelloch_family> {
  //! Calls `f(type_tag<tuning>{})` with `Tuning`, or with its fallback where the tuning's block does
  //! not fit the device's shared memory.
  template <class Tuning, class Problem, class F>
  static auto with_fitting_block(const detail::device_facts& facts, F&& f) {
    constexpr int fallback = blelloch_fallback_threads<Tuning, Problem>();
    if constexpr (fallback == Tuning::block_threads) {
      return f(type_tag<Tuning>{});
    } else {
      if (kernel::blelloch_tile<Tuning, Problem>::smem_bytes <= facts.max_smem_optin) return f(type_tag<Tuning>{});
      return f(type_tag<blelloch_narrowed<Tuning, fallback>>{});
    }
  }

  template <class Tuning, class Problem>
  static constexpr bool scans_in_output() {
    using T = typename Problem::accum_type;
    return std::is_same_v<typename Problem::output_iterator, T*> &&
           std::is_same_v<typename Problem::finish_type, detail::identity_finish>;
  }

  template <class Tuning, class Problem>
  static blelloch_plan plan(const Problem& p) {
    return make_blelloch_plan(p.n, 2 * Tuning::block_threads, sizeof(typename Problem::accum_type),
                              scans_in_output<Tuning, Problem>());
  }

  template <class Tuning, class Problem>
  static std::size_t temp_bytes(const Problem& p, const detail::device_facts& facts) {
    return with_fitting_block<Tuning, Problem>(facts, [&](auto tag) {
      return plan<typename decltype(tag)::type>(p).temp_bytes;
    });
  }

  template <class Tuning, class Problem>
  static void launch(const Problem& p, void* d_temp, std::size_t, const detail::device_facts& facts,
                     cudaStream_t stream) {
    with_fitting_block<Tuning, Problem>(facts, [&](auto tag) {
      using fitting          = typename decltype(tag)::type;
      const blelloch_plan pl = plan<fitting>(p);
      if (pl.blocks[0] > INT_MAX) {
        detail::throw_on_error(cudaErrorInvalidValue, "archscan::blelloch: too many blocks for one grid");
      }
      run_level<fitting>(p, pl, 0, static_cast<unsigned char*>(d_temp), facts, stream);
    });
  }

 private:
  template <class Tuning, class Problem>
  static void run_level(const Problem& p, const blelloch_plan& pl, int level, unsigned char* temp,
                        const detail::device_facts& facts, cudaStream_t stream) {
    using T    = typename Problem::accum_type;
    using tile = kernel::blelloch_tile<Tuning, Problem>;
    const int threads = Tuning::block_threads;
    const int smem    = tile::smem_bytes;
    if (pl.blocks[level] <= 1) {
      auto k = kernel::blelloch_scan_blocks<Tuning, Problem, true>;
      opt_in_dynamic_smem(k, smem, facts, "archscan::blelloch");
      k<<<1, threads, smem, stream>>>(p, nullptr, nullptr);
      detail::throw_on_launch_error("archscan::blelloch: scan_blocks (single block)");
      return;
    }
    T* scratch = nullptr;
    if constexpr (scans_in_output<Tuning, Problem>()) {
      scratch = p.out;
    } else {
      scratch = reinterpret_cast<T*>(temp + pl.scratch_offset);
    }
    T* sums           = reinterpret_cast<T*>(temp + pl.sums_offset[level]);
    const auto blocks = static_cast<unsigned>(pl.blocks[level]);

    auto scan_blocks = kernel::blelloch_scan_blocks<Tuning, Problem, false>;
    opt_in_dynamic_smem(scan_blocks, smem, facts, "archscan::blelloch");
    scan_blocks<<<blocks, threads, smem, stream>>>(p, scratch, sums);
    detail::throw_on_launch_error("archscan::blelloch: scan_blocks");

    // Scan the block sums "in the same manner", in place, inclusively and without a seed.
    using sums_problem = detail::scan_problem<T*, T*, T, typename Problem::op_type, detail::identity_finish,
                                              detail::scan_kind::inclusive, false>;
    run_level<Tuning>(sums_problem{sums, sums, pl.blocks[level], p.op, detail::identity_finish{}, T{}}, pl,
                      level + 1, temp, facts, stream);

    kernel::blelloch_uniform_add<Tuning, Problem><<<blocks, threads, 0, stream>>>(p, scratch, sums);
    detail::throw_on_launch_error("archscan::blelloch: uniform_add");
  }
};

}  // namespace archscan::dispatch
