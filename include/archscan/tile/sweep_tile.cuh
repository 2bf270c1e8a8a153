#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The paper's per-block work for arrays of arbitrary size ("Arrays of Arbitrary Size"):
//! scan one block of 2 * Threads items and store its sum (blocks A and E around the block scan),
//! and the uniform add of scanned block sums.
//!
//! Generalized from the paper: the last block may be partial (its missing items are padded with a
//! copy of a real item, never read back, so no identity is needed); a seed (Thrust's init) is folded
//! in on the left; and what a level writes may be a scratch array of accumulators rather than the
//! output, because Thrust outputs may be write-only (discard, transform_output) or of another type.

#include <cstdint>

#include <archscan/block/sweep_scan.cuh>
#include <archscan/detail/problem.cuh>

namespace archscan::tile {

template <class Problem, int Threads, bool ConflictFree>
struct sweep_tile {
  using T                         = typename Problem::accum_type;
  using scan                      = block::sweep_scan<T, Threads, ConflictFree>;
  static constexpr int items      = scan::items;
  static constexpr int smem_bytes = scan::smem_slots * static_cast<int>(sizeof(T));

  //! Scans block `blockIdx.x` of the problem. Final: the whole problem is this one block, and results
  //! (seed folded in) go to the output. Otherwise local results go to `scratch` and the block's sum
  //! to `sums[blockIdx.x]`: inclusive problems store local inclusive prefixes, exclusive ones local
  //! exclusive prefixes (the block's first item stores nothing).
  template <bool Final>
  __device__ static void scan_block(const Problem& p, T* temp, T* scratch, T* sums) {
    const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * items;
    const std::int64_t rest = p.n - base;
    const int thid          = static_cast<int>(threadIdx.x);
    // A: each thread loads one item from each half of the block's range.
    const int ai         = thid;
    const int bi         = thid + Threads;
    const T xa           = p.load(base + (ai < rest ? ai : 0));
    const T xb           = p.load(base + (bi < rest ? bi : 0));
    temp[scan::slot(ai)] = xa;
    temp[scan::slot(bi)] = xb;
    // B, C, D
    const T total = scan::sweep(temp, p.op);
    if (!Final && thid == 0) sums[blockIdx.x] = total;
    // E: write each item's result.
    write<Final>(p, base + ai, ai == 0, temp[scan::slot(ai)], xa, ai < rest, scratch);
    write<Final>(p, base + bi, false, temp[scan::slot(bi)], xb, bi < rest, scratch);
  }

  //! The paper's uniform add: combines block `blockIdx.x`'s local results with the scanned sums of the
  //! blocks before it (`sums` holds their inclusive scan) and the seed, and writes the output.
  __device__ static void uniform_add(const Problem& p, const T* scratch, const T* sums) {
    const std::int64_t base     = static_cast<std::int64_t>(blockIdx.x) * items;
    const std::int64_t rest     = p.n - base;
    const detail::maybe<T> seed = p.seed_maybe();
    const bool has_incr         = blockIdx.x > 0 || seed.valid;
    const T incr                = blockIdx.x > 0 ? p.seeded(sums[blockIdx.x - 1]) : seed.value;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int local = static_cast<int>(threadIdx.x) + half * Threads;
      if (local >= rest) break;
      const std::int64_t i = base + local;
      if (Problem::exclusive && local == 0) {
        p.store(i, incr);
      } else {
        p.store(i, has_incr ? T(p.op(incr, scratch[i])) : scratch[i]);
      }
    }
  }

 private:
  template <bool Final>
  __device__ static void write(const Problem& p, std::int64_t i, bool first, const T& prefix, const T& x, bool valid,
                               T* scratch) {
    if (!valid) return;
    if constexpr (Final) {
      if constexpr (Problem::exclusive) {
        const T seed = p.seed_maybe().value;  // exclusive problems always have one
        p.store(i, first ? seed : T(p.op(seed, prefix)));
      } else {
        const T local = first ? x : T(p.op(prefix, x));
        p.store(i, p.seeded(local));
      }
    } else if constexpr (Problem::exclusive) {
      if (!first) scratch[i] = prefix;
    } else {
      scratch[i] = first ? x : T(p.op(prefix, x));
    }
  }
};

}  // namespace archscan::tile
