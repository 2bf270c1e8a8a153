#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The blelloch family's dispatch: the paper's recursion over block sums.
//!
//! Level 0 scans blocks of B = 2 * block_threads items and stores each block's sum; the sums are scanned
//! by the same procedure (recursively, in place) and added back uniformly. Accumulators too large for
//! the row's block on the device at hand (its items do not fit a block's shared memory) run with
//! smaller blocks instead (`blelloch_fallback_threads`). Temporary storage: the sums
//! of every level, plus a scratch array of n accumulators when the output cannot hold them (it is not a
//! plain array of the accumulator type, or a by-key finish must run). For example 2^40 int32 items
//! with B = 1024 and the output as scratch: 4 levels and 4 GiB + 4 MiB + 4 KiB of sums.

#include <cstdint>
#include <type_traits>

#include <archscan/detail/math.cuh>
#include <archscan/dispatch/family.cuh>
#include <archscan/kernel/blelloch_kernels.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

//! The planning arithmetic, pure host code (tested for n up to 2^40).
struct blelloch_plan {
  static constexpr int max_levels     = 8;
  int levels                          = 0;   //!< 1: one block does all
  std::int64_t items[max_levels]      = {};  //!< items scanned at each level (items[0] == n)
  std::int64_t blocks[max_levels]     = {};  //!< blocks launched at each level
  std::size_t scratch_offset          = 0;   //!< level-0 scratch (when scratch_bytes > 0)
  std::size_t scratch_bytes           = 0;
  std::size_t sums_offset[max_levels] = {};     //!< level l's block sums (level l + 1's items)
  bool narrowed                       = false;  //!< the fallback block (blelloch_fallback_threads) runs
  std::size_t temp_bytes              = 0;
};

constexpr blelloch_plan make_blelloch_plan(std::int64_t n, int block_items, std::size_t accum_bytes,
                                           bool scratch_in_output) {
  using detail::align_up;
  using detail::storage_alignment;
  blelloch_plan plan{};
  std::size_t bytes = 0;
  if (!scratch_in_output && n > block_items) {
    plan.scratch_offset = bytes;
    plan.scratch_bytes  = align_up(accum_bytes * static_cast<std::size_t>(n), storage_alignment);
    bytes += plan.scratch_bytes;
  }
  std::int64_t count = n;
  for (;;) {
    const int l    = plan.levels++;
    plan.items[l]  = count;
    plan.blocks[l] = detail::ceil_div(count, block_items);
    if (plan.blocks[l] <= 1) break;
    plan.sums_offset[l] = bytes;
    bytes += align_up(accum_bytes * static_cast<std::size_t>(plan.blocks[l]), storage_alignment);
    count = plan.blocks[l];
  }
  plan.temp_bytes = bytes;
  return plan;
}

//! `Row` with `Threads` threads per block.
template <class Row, int Threads>
struct blelloch_narrowed : Row {
  static constexpr int block_threads = Threads;
};

//! Threads per block of the fallback: the largest power of two, at most the row's and at least 32,
//! whose block of 2 items per thread fits the 48 KiB of shared memory that every block may use (32 if
//! none does: 64 items, which still fit the opt-in of every CUDA 13 device for items of up to 1 KiB).
template <class Tuning, class Row, class Problem, int Threads = Row::block_threads>
constexpr int blelloch_fallback_threads() {
  using tile = kernel::blelloch_tile<sweep_config<Tuning, blelloch_narrowed<Row, Threads>>, Problem>;
  if constexpr (Threads <= 32 || tile::smem_bytes <= 48 * 1024) {
    return Threads;
  } else {
    return blelloch_fallback_threads<Tuning, Row, Problem, Threads / 2>();
  }
}

template <>
struct family_dispatch<blelloch_family> {
  template <class Tuning, class Problem>
  using row_of = row_for_accum<Tuning, typename Problem::accum_type>;
  template <class Tuning, class Problem>
  using fallback_row_of =
      blelloch_narrowed<row_of<Tuning, Problem>, blelloch_fallback_threads<Tuning, row_of<Tuning, Problem>, Problem>()>;

  template <class Tuning, class Problem>
  static constexpr bool scans_in_output() {
    using T = typename Problem::accum_type;
    return std::is_same_v<typename Problem::output_iterator, T*> &&
           std::is_same_v<typename Problem::finish_type, detail::identity_finish>;
  }

  //! The row's block where the device gives a block its shared memory, else the fallback block.
  template <class Tuning, class Hooks, class Problem>
  static blelloch_plan plan(const Problem& p, const detail::device_facts& facts) {
    using row = row_of<Tuning, Problem>;
    static_assert(row::items_per_thread == 2, "blelloch: the paper's blocks hold two items per thread");
    const bool fits   = kernel::blelloch_tile<sweep_config<Tuning, row>, Problem>::smem_bytes <= facts.max_smem_optin;
    const bool narrow = !fits && fallback_row_of<Tuning, Problem>::block_threads < row::block_threads;
    blelloch_plan pl  = narrow ? plan_for<Tuning, fallback_row_of<Tuning, Problem>, Problem>(p, facts)
                               : plan_for<Tuning, row, Problem>(p, facts);
    pl.narrowed       = narrow;
    return pl;
  }

  template <class Tuning, class Hooks, class Problem>
  static void launch(const Problem& p, const blelloch_plan& pl, const detail::device_facts& facts, void* d_temp,
                     cudaStream_t stream) {
    auto* temp = static_cast<unsigned char*>(d_temp);
    if (pl.narrowed) {
      run_level<Tuning, fallback_row_of<Tuning, Problem>>(p, pl, 0, facts, temp, stream);
    } else {
      run_level<Tuning, row_of<Tuning, Problem>>(p, pl, 0, facts, temp, stream);
    }
  }

 private:
  //! The problem of scanning level `level`'s block sums (in place, inclusive, no seed).
  template <class Problem>
  using sums_problem =
      detail::scan_problem<typename Problem::accum_type*, typename Problem::accum_type*, typename Problem::accum_type,
                           typename Problem::op_type, detail::identity_finish, detail::scan_kind::inclusive, false>;

  //! The plan for blocks of `Row`. The kernels' shared memory is set where they are launched
  //! (run_level; dispatch/family.cuh says why).
  template <class Tuning, class Row, class Problem>
  static blelloch_plan plan_for(const Problem& p, const detail::device_facts& facts) {
    const blelloch_plan pl = make_blelloch_plan(p.n, 2 * Row::block_threads, sizeof(typename Problem::accum_type),
                                                scans_in_output<Tuning, Problem>());
    check_grid(pl.blocks[0], "archscan::blelloch: too many blocks for one grid");
    if (kernel::blelloch_tile<sweep_config<Tuning, Row>, Problem>::smem_bytes > facts.max_smem_optin) {
      detail::throw_on_error(cudaErrorInvalidConfiguration,
                             "archscan::blelloch: accumulator too large for a block's shared memory");
    }
    return pl;
  }

  template <class Tuning, class Row, class Problem>
  static void run_level(const Problem& p, const blelloch_plan& pl, int level, const detail::device_facts& facts,
                        unsigned char* temp, cudaStream_t stream) {
    using T           = typename Problem::accum_type;
    using config      = sweep_config<Tuning, Row>;
    const int threads = config::threads;
    const int smem    = kernel::blelloch_tile<config, Problem>::smem_bytes;
    if (pl.blocks[level] <= 1) {
      opt_in_dynamic_smem(kernel::blelloch_scan_blocks<config, Problem, true>, smem, facts, "archscan::blelloch");
      kernel::blelloch_scan_blocks<config, Problem, true><<<1, threads, smem, stream>>>(p, nullptr, nullptr);
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

    opt_in_dynamic_smem(kernel::blelloch_scan_blocks<config, Problem, false>, smem, facts, "archscan::blelloch");
    kernel::blelloch_scan_blocks<config, Problem, false><<<blocks, threads, smem, stream>>>(p, scratch, sums);
    detail::throw_on_launch_error("archscan::blelloch: scan_blocks");

    // Scan the block sums "in the same manner", in place, inclusively and without a seed.
    run_level<Tuning, Row>(
        sums_problem<Problem>{sums, sums, pl.blocks[level], p.op, detail::identity_finish{}, T{}, {}}, pl, level + 1,
        facts, temp, stream);

    kernel::blelloch_uniform_add<config, Problem><<<blocks, threads, 0, stream>>>(p, scratch, sums);
    detail::throw_on_launch_error("archscan::blelloch: uniform_add");
  }
};

}  // namespace archscan::dispatch
