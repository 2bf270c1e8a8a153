#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Harris's work-efficient block scan (*Parallel Prefix Sum (Scan) with CUDA*, Listing 2),
//! with the padding of Listing 3 and generalized from `float +` to any associative operator.
//!
//! The paper's blocks: A (load, tile/sweep_tile.cuh), B (up-sweep), C (clear the root), D (down-sweep),
//! E (write, tile/sweep_tile.cuh). Three changes make it operator-generic:
//!  - B computes `left op right`, never `right op left`, so non-commutative operators keep their order;
//!  - there is no identity to clear the root with (C). Instead the root is *empty*, and so is every node
//!    on the left spine of the tree, which thread 0 alone visits in D: a right child of the spine takes
//!    its left sibling's sum unchanged, and the spine's left children stay empty;
//!  - item 0 therefore ends with no exclusive prefix; the caller seeds it (tile/sweep_tile.cuh).

#include <archscan/detail/problem.cuh>

namespace archscan::block {

//! Listing 3 for today's 32 banks of 4 bytes: one padding slot per row of banks, a row holding
//! 32 items of 4 bytes, 16 of 8 bytes, and so on. `ConflictFree = false` is the unpadded Listing 2.
//! Items of 32 words or more fill a row each, so a slot of padding per item would only double the
//! block's shared memory (past what any device has, for large accumulators): they are not padded.
template <class T, bool ConflictFree>
struct sweep_layout {
  static constexpr int words   = static_cast<int>((sizeof(T) + 3) / 4);
  static constexpr bool padded = ConflictFree && words < 32;
  static constexpr int log_row = words >= 16 ? 1 : words >= 8 ? 2 : words >= 4 ? 3 : words >= 2 ? 4 : 5;
  __host__ __device__ static constexpr int conflict_free_offset(int i) { return padded ? i >> log_row : 0; }
  __host__ __device__ static constexpr int slots(int items) { return items + conflict_free_offset(items); }
};

template <class T, int Threads, bool ConflictFree>
struct sweep_scan {
  static_assert(Threads >= 32 && (Threads & (Threads - 1)) == 0, "block threads: a power of two, >= 32");
  static constexpr int items      = 2 * Threads;
  using layout                    = sweep_layout<T, ConflictFree>;
  static constexpr int smem_slots = layout::slots(items);

  __device__ __forceinline__ static int slot(int i) { return i + layout::conflict_free_offset(i); }

  //! `temp` holds the tile's `items` items at `slot(i)`. Afterwards it holds, for every i > 0, the
  //! exclusive prefix of item i within the tile. Returns the tile's total to every thread.
  template <class Op>
  __device__ static T sweep(T* temp, Op op) {
    const int thid = static_cast<int>(threadIdx.x);
    int offset     = 1;
    for (int d = items >> 1; d > 0; d >>= 1) {  // B: build sums in place up the tree
      __syncthreads();
      if (thid < d) {
        const int ai = slot(offset * (2 * thid + 1) - 1);
        const int bi = slot(offset * (2 * thid + 2) - 1);
        temp[bi]     = op(temp[ai], temp[bi]);
      }
      offset *= 2;
    }
    __syncthreads();
    const T total = temp[slot(items - 1)];  // C: the root's sum leaves; the root becomes empty
    for (int d = 1; d < items; d *= 2) {    // D: traverse down the tree and build the scan
      offset >>= 1;
      __syncthreads();
      if (thid < d) {
        const int ai = slot(offset * (2 * thid + 1) - 1);
        const int bi = slot(offset * (2 * thid + 2) - 1);
        const T t    = temp[ai];
        if (thid == 0) {
          temp[bi] = t;  // the parent is on the empty spine
        } else {
          temp[ai] = temp[bi];
          temp[bi] = op(temp[bi], t);
        }
      }
    }
    __syncthreads();
    return total;
  }
};

}  // namespace archscan::block
