#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Each warp of a block converts its segment of a tile between the warp-striped arrangement
//! (lane l holds items l, l + 32, ..., the arrangement of coalesced loads and stores) and the blocked
//! one (lane l holds items l * Items ... l * Items + Items - 1, the arrangement of a thread-local
//! scan), through its own region of shared memory.
//!
//! The caller gives each warp its own region (at least `warp_slots` slots of T); warps never touch each
//! other's regions, so no block barrier is needed; `__syncwarp` separates
//! the writes from the reads and the reads from the next exchange's writes (no lock-step assumed,
//! Turing Tuning Guide 4.1.2). Every lane of a warp must call together.

namespace archscan::block {

template <class T, int Threads, int Items>
struct warp_transpose {
  static constexpr int lanes      = 32;
  static constexpr int warps      = Threads / lanes;
  static constexpr int warp_items = lanes * Items;
  static constexpr int words      = static_cast<int>((sizeof(T) + 3) / 4);
  //! Blocked reads stride by Items * words banks; an odd item count, or a word count that is not a
  //! power of two, spreads them over all banks. Otherwise one padding slot per row of 32 banks does
  //! where Items divides the row or is an odd multiple of it, the padding a per-lane base plus
  //! constants; an even multiple (64 four-byte items, 16 sixteen-byte ones) keeps a two-way conflict
  //! on the blocked side (test/block/warp_transpose_test.cu works the banks out).
  static constexpr bool pow2_words = words <= 32 && (words & (words - 1)) == 0;
  static constexpr int row_items   = pow2_words ? 32 / words : 1;
  static constexpr bool padded     = pow2_words && Items % 2 == 0 && (row_items % Items == 0 || Items % row_items == 0);
  static constexpr int pad_per_row = padded ? 1 : 0;
  static constexpr int warp_slots  = warp_items + pad_per_row * warp_items / row_items;

  // slot(i) = i + pad_per_row * (i / row_items), split into a per-lane base and compile-time offsets.
  static constexpr int striped_step = lanes + pad_per_row * (lanes / row_items);  // item k -> k + 1
  __device__ __forceinline__ static int striped_base(int lane) { return lane + pad_per_row * (lane / row_items); }
  __device__ __forceinline__ static int blocked_base(int lane) {
    return lane * Items + pad_per_row * (lane * Items / row_items);
  }
  __host__ __device__ static constexpr int blocked_offset(int j) { return j + pad_per_row * (j / row_items); }

  //! `region`: this warp's `warp_slots` slots.
  __device__ static void striped_to_blocked(T (&items)[Items], T* region) {
    const int lane = static_cast<int>(threadIdx.x) % lanes;
    T* striped     = region + striped_base(lane);
    T* blocked     = region + blocked_base(lane);
#pragma unroll
    for (int k = 0; k < Items; ++k) striped[k * striped_step] = items[k];
    __syncwarp(0xffffffffu);
#pragma unroll
    for (int j = 0; j < Items; ++j) items[j] = blocked[blocked_offset(j)];
    __syncwarp(0xffffffffu);  // all reads done: the region may be written again
  }

  __device__ static void blocked_to_striped(T (&items)[Items], T* region) {
    const int lane = static_cast<int>(threadIdx.x) % lanes;
    T* striped     = region + striped_base(lane);
    T* blocked     = region + blocked_base(lane);
#pragma unroll
    for (int j = 0; j < Items; ++j) blocked[blocked_offset(j)] = items[j];
    __syncwarp(0xffffffffu);
#pragma unroll
    for (int k = 0; k < Items; ++k) items[k] = striped[k * striped_step];
    __syncwarp(0xffffffffu);
  }
};

}  // namespace archscan::block
