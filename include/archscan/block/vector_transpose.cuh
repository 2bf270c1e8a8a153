#pragma once
//! \file Each warp of a block converts its segment of a tile between 16-byte vectors of `U` in the
//! warp-striped arrangement (lane l holds vectors l, l + 32, ...: every warp-wide load or store moves
//! 512 contiguous bytes) and the blocked arrangement of `Items` values per lane (lane l holds items
//! l * Items ... l * Items + Items - 1), through the warp's own region of shared memory.
//!
//! Why: a warp-striped load of one-byte items moves 32 bytes per instruction, a quarter of a 4-byte
//! item's, so narrow types run out of load/store instructions long before bandwidth. Moving 16 bytes
//! per lane makes every width issue the same instructions per byte.
//!
//! Bank conflicts: shared memory serves a 16-byte access eight lanes at a time, from the eight 16-byte
//! columns of a 128-byte row. Striped accesses touch consecutive vectors; blocked reads stride by
//! `lane_vectors` vectors, which spreads eight lanes over eight columns when that count is odd. When it
//! is even, vector v sits in slot v ^ ((v / lane_vectors) & 7): a lane's blocked vectors move to
//! columns XORed with its lane number, and the slots stay a permutation within each row, so both
//! arrangements are conflict-free (test/block/vector_transpose_test.cu checks every count up to 64).
//!
//! Warps never touch each other's regions, so no block barrier is needed; `__syncwarp` separates writes
//! from reads, and reads from the next exchange's writes. Every lane of a warp must call together.

#include <cstring>

namespace archscan::block {

template <class U, int Items>
struct vector_transpose {
  using vector                          = uint4;
  static constexpr int lanes            = 32;
  static constexpr int vector_items     = static_cast<int>(sizeof(vector) / sizeof(U));
  //! Whether `Items` values of `U` per lane split into whole vectors.
  static constexpr bool fits            = sizeof(U) <= sizeof(vector) && sizeof(vector) % sizeof(U) == 0 &&
                               Items % (sizeof(vector) / sizeof(U)) == 0;
  static constexpr int lane_vectors     = fits ? Items / vector_items : 1;
  static constexpr int warp_vectors     = lanes * lane_vectors;
  //! Shared memory of one warp's region, in bytes (16-byte aligned).
  static constexpr std::size_t warp_bytes = sizeof(vector) * warp_vectors;

  //! The shared-memory slot of the warp segment's vector v.
  __host__ __device__ static constexpr int slot(int v) { return lane_vectors % 2 == 0 ? v ^ ((v / lane_vectors) & 7) : v; }

  //! `striped[k]`: this lane's vector k (vector k * 32 + lane of the warp's segment); `items` receives
  //! the lane's blocked values, each converted to T. `region`: this warp's `warp_bytes`.
  template <class T>
  __device__ static void striped_to_blocked(const vector (&striped)[lane_vectors], T (&items)[Items], vector* region) {
    static_assert(fits, "Items must split into whole 16-byte vectors");
    const int lane = static_cast<int>(threadIdx.x) % lanes;
#pragma unroll
    for (int k = 0; k < lane_vectors; ++k) region[slot(k * lanes + lane)] = striped[k];
    __syncwarp(0xffffffffu);
#pragma unroll
    for (int j = 0; j < lane_vectors; ++j) {
      const vector w = region[slot(lane * lane_vectors + j)];
      U u[vector_items];
      std::memcpy(u, &w, sizeof(w));
#pragma unroll
      for (int i = 0; i < vector_items; ++i) items[j * vector_items + i] = static_cast<T>(u[i]);
    }
    __syncwarp(0xffffffffu);  // all reads done: the region may be written again
  }

  //! The inverse: the lane's blocked values (already of type U) to its striped vectors.
  __device__ static void blocked_to_striped(const U (&items)[Items], vector (&striped)[lane_vectors], vector* region) {
    static_assert(fits, "Items must split into whole 16-byte vectors");
    const int lane = static_cast<int>(threadIdx.x) % lanes;
#pragma unroll
    for (int j = 0; j < lane_vectors; ++j) {
      U u[vector_items];
#pragma unroll
      for (int i = 0; i < vector_items; ++i) u[i] = items[j * vector_items + i];
      vector w;
      std::memcpy(&w, u, sizeof(w));
      region[slot(lane * lane_vectors + j)] = w;
    }
    __syncwarp(0xffffffffu);
#pragma unroll
    for (int k = 0; k < lane_vectors; ++k) striped[k] = region[slot(k * lanes + lane)];
    __syncwarp(0xffffffffu);
  }
};

}  // namespace archscan::block
