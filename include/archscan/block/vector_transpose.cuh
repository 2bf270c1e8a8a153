#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
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

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace archscan::block {

template <class U, int Items>
struct vector_transpose {
  using vector                      = uint4;
  static constexpr int lanes        = 32;
  static constexpr int vector_items = static_cast<int>(sizeof(vector) / sizeof(U));
  //! Whether `Items` values of `U` per lane split into whole vectors.
  static constexpr bool fits =
      sizeof(U) <= sizeof(vector) && sizeof(vector) % sizeof(U) == 0 && Items % (sizeof(vector) / sizeof(U)) == 0;
  static constexpr int lane_vectors = fits ? Items / vector_items : 1;
  static constexpr int warp_vectors = lanes * lane_vectors;
  //! Shared memory of one warp's region, in bytes (16-byte aligned).
  static constexpr std::size_t warp_bytes = sizeof(vector) * warp_vectors;

  //! The shared-memory slot of the warp segment's vector v.
  __host__ __device__ static constexpr int slot(int v) {
    return lane_vectors % 2 == 0 ? v ^ ((v / lane_vectors) & 7) : v;
  }

  //! `striped[k]`: this lane's vector k (vector k * 32 + lane of the warp's segment); `items` receives
  //! the lane's blocked values, each converted to T. `region`: this warp's `warp_bytes`.
  template <class T>
  __device__ static void striped_to_blocked(const vector (&striped)[lane_vectors], T (&items)[Items], vector* region) {
    striped_to_blocked(striped, items, region, [](const U& u) { return static_cast<T>(u); });
  }
  //! The same, each value becoming `convert(u)` (a transform iterator's item: detail/vector_access.cuh).
  template <class T, class Convert>
  __device__ static void striped_to_blocked(const vector (&striped)[lane_vectors], T (&items)[Items], vector* region,
                                            Convert&& convert) {
    static_assert(fits, "Items must split into whole 16-byte vectors");
    const int lane = static_cast<int>(threadIdx.x) % lanes;
    write_striped(striped, region, lane);
    __syncwarp(0xffffffffu);
#pragma unroll
    for (int j = 0; j < lane_vectors; ++j) {
      const vector w = region[slot(lane * lane_vectors + j)];
      U u[vector_items];
      std::memcpy(u, &w, sizeof(w));
#pragma unroll
      for (int i = 0; i < vector_items; ++i) items[j * vector_items + i] = convert(u[i]);
    }
    __syncwarp(0xffffffffu);  // all reads done: the region may be written again
  }

  //! The bits of one packed value (meaningful for values of one or two bytes).
  using bits_t = std::conditional_t<sizeof(U) == 1, std::uint8_t, std::uint16_t>;
  //! A lane's blocked values of one or two bytes, kept in the words of their vectors (value j: bits
  //! 8 * sizeof(U) * (j % per_word) up of word j / per_word): 16 registers hold 64 one-byte values
  //! that an array of values would hold in 64, so that narrow tiles leave room for more blocks.
  struct packed {
    static_assert(sizeof(U) <= 2, "packed values are one or two bytes");
    static constexpr int per_word  = static_cast<int>(4 / sizeof(U));
    static constexpr int bit_width = 8 * static_cast<int>(sizeof(U));
    unsigned words[lane_vectors * 4];

    __device__ U get(int j) const {
      const auto bits = static_cast<bits_t>(words[j / per_word] >> (j % per_word * bit_width));
      U u;
      std::memcpy(&u, &bits, sizeof(u));
      return u;
    }
    //! Value j becomes `v`'s bits (a value of the same width: an output element in place of an input).
    template <class V>
    __device__ void set(int j, const V& v) {
      static_assert(sizeof(V) == sizeof(U), "a value of the same width");
      bits_t bits;
      std::memcpy(&bits, &v, sizeof(bits));
      const int shift     = j % per_word * bit_width;
      const unsigned in   = static_cast<unsigned>(bits) << shift;
      const unsigned keep = ~(static_cast<unsigned>(static_cast<bits_t>(~bits_t{0})) << shift);
      words[j / per_word] = (words[j / per_word] & keep) | in;
    }
  };

  //! striped_to_blocked, into packed values (U of one or two bytes).
  __device__ static void striped_to_packed(const vector (&striped)[lane_vectors], packed& blocked, vector* region) {
    static_assert(fits, "Items must split into whole 16-byte vectors");
    const int lane = static_cast<int>(threadIdx.x) % lanes;
    write_striped(striped, region, lane);
    __syncwarp(0xffffffffu);
    read_blocked(blocked, region, lane);
    __syncwarp(0xffffffffu);
  }

  //! blocked_to_striped, from packed values.
  __device__ static void packed_to_striped(const packed& blocked, vector (&striped)[lane_vectors], vector* region) {
    static_assert(fits, "Items must split into whole 16-byte vectors");
    const int lane = static_cast<int>(threadIdx.x) % lanes;
    write_blocked(blocked, region, lane);
    __syncwarp(0xffffffffu);
    read_striped(striped, region, lane);
    __syncwarp(0xffffffffu);
  }

  //! The same exchanges for values that are not whole vectors in memory (a pointer off 16 bytes):
  //! `load(k)` gives this lane's striped value k (the segment's value k * 32 + lane), and
  //! `store(k, bits)` takes back its bits (`bits_t`: what `packed::set` wrote, perhaps of another type
  //! of the same width), each one value at a time, so that no lane holds an array of values.
  //! These keep the segment's values in their own order in the region, without the slot swizzle:
  //! value e at element e, one constant offset from a base per lane, where the swizzled slot of each
  //! value cost some ten instructions of address arithmetic (its blocked reads conflict instead).
  //! Loads go out `load_batch` at a time before their values are stored: a store to the region may
  //! alias the loaded memory as far as the compiler knows, so it would not move a load ahead of one.
  static constexpr int load_batch = Items < 32 ? Items : 32;
  template <class Load>
  __device__ static void striped_to_packed(Load load, packed& blocked, vector* region) {
    const int lane = static_cast<int>(threadIdx.x) % lanes;
    U* values      = reinterpret_cast<U*>(region) + lane;
#pragma unroll
    for (int k0 = 0; k0 < Items; k0 += load_batch) {
      U u[load_batch];
#pragma unroll
      for (int b = 0; b < load_batch; ++b) {
        if (k0 + b < Items) u[b] = load(k0 + b);
      }
#pragma unroll
      for (int b = 0; b < load_batch; ++b) {
        if (k0 + b < Items) values[(k0 + b) * lanes] = u[b];
      }
    }
    __syncwarp(0xffffffffu);
    read_blocked<false>(blocked, region, lane);
    __syncwarp(0xffffffffu);
  }
  template <class Store>
  __device__ static void packed_to_striped(const packed& blocked, Store store, vector* region) {
    const int lane = static_cast<int>(threadIdx.x) % lanes;
    write_blocked<false>(blocked, region, lane);
    __syncwarp(0xffffffffu);
    const bits_t* values = reinterpret_cast<const bits_t*>(region) + lane;
#pragma unroll
    for (int k = 0; k < Items; ++k) store(k, values[k * lanes]);
    __syncwarp(0xffffffffu);
  }

  //! The inverse: the lane's blocked values (already of type U) to its striped vectors.
  __device__ static void blocked_to_striped(const U (&items)[Items], vector (&striped)[lane_vectors], vector* region) {
    static_assert(fits, "Items must split into whole 16-byte vectors");
    const int lane = static_cast<int>(threadIdx.x) % lanes;
    write_blocked_values(items, region, lane);
    __syncwarp(0xffffffffu);
    read_striped(striped, region, lane);
    __syncwarp(0xffffffffu);
  }

  //! The lane's blocked values (already of type U) to the warp's region in the segment's own order
  //! (vector v at element v), for a copy of the whole region to memory (detail/bulk_copy.cuh). For an
  //! odd `lane_vectors` alone: its slots are in that order, and its blocked writes meet no bank twice.
  //! No `__syncwarp` of its own, before or after: the caller makes sure that no lane still reads the
  //! region (the tile: its block barriers since the last exchange), and the copy that reads the
  //! region synchronizes the warp first.
  __device__ static void blocked_to_linear(const U (&items)[Items], vector* region) {
    static_assert(fits && lane_vectors % 2 == 1, "an odd count of whole 16-byte vectors a lane");
    write_blocked_values(items, region, static_cast<int>(threadIdx.x) % lanes);  // slot(v) is v for an odd count
  }

 private:
  //! The lane's blocked values (of type U) at their slots.
  __device__ static void write_blocked_values(const U (&items)[Items], vector* region, int lane) {
#pragma unroll
    for (int j = 0; j < lane_vectors; ++j) {
      U u[vector_items];
#pragma unroll
      for (int i = 0; i < vector_items; ++i) u[i] = items[j * vector_items + i];
      vector w;
      std::memcpy(&w, u, sizeof(w));
      region[slot(lane * lane_vectors + j)] = w;
    }
  }
  //! The lane's striped vectors (vector k * 32 + lane of the segment) at their slots in the region.
  __device__ static void write_striped(const vector (&striped)[lane_vectors], vector* region, int lane) {
#pragma unroll
    for (int k = 0; k < lane_vectors; ++k) region[slot(k * lanes + lane)] = striped[k];
  }
  __device__ static void read_striped(vector (&striped)[lane_vectors], const vector* region, int lane) {
#pragma unroll
    for (int k = 0; k < lane_vectors; ++k) striped[k] = region[slot(k * lanes + lane)];
  }
  //! The lane's blocked vectors in the region: at their swizzled slots, or in order.
  template <bool Swizzled = true>
  __device__ static void read_blocked(packed& blocked, const vector* region, int lane) {
#pragma unroll
    for (int j = 0; j < lane_vectors; ++j) {
      const int v              = lane * lane_vectors + j;
      const vector w           = region[Swizzled ? slot(v) : v];
      blocked.words[4 * j]     = w.x;
      blocked.words[4 * j + 1] = w.y;
      blocked.words[4 * j + 2] = w.z;
      blocked.words[4 * j + 3] = w.w;
    }
  }
  template <bool Swizzled = true>
  __device__ static void write_blocked(const packed& blocked, vector* region, int lane) {
#pragma unroll
    for (int j = 0; j < lane_vectors; ++j) {
      const int v = lane * lane_vectors + j;
      region[Swizzled ? slot(v) : v] =
          vector{blocked.words[4 * j], blocked.words[4 * j + 1], blocked.words[4 * j + 2], blocked.words[4 * j + 3]};
    }
  }
};

}  // namespace archscan::block
