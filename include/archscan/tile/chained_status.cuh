#pragma once
//! \file How tiles of one scan hand their results to the tiles after them (single-pass chained scan).
//!
//! Every tile but the last publishes, in global memory, first its aggregate (the reduction of its own
//! items) and then its inclusive prefix (everything up to and including it). A tile's exclusive
//! prefix is found by one thread walking back serially: it adds aggregates of the tiles just before it
//! until it meets a published inclusive prefix. Tile ids are handed out by an atomic counter in the
//! order blocks start, so every tile a walk waits on belongs to a block that is running or done, and
//! the walk terminates.
//!
//! Two publication mechanisms (tuning field `tile_status`):
//!  - `packed_status`: for accumulators of at most 8 bytes, flag and value share one word
//!    (tile/status_word.cuh) written and read by single accesses, so no fence is needed;
//!  - `split_status`: any accumulator. The value goes to its own array (aggregates and inclusive
//!    prefixes apart, so a reader never sees one overwritten by the other) and a 32-bit flag is
//!    stored with release semantics after it; readers load the flag with acquire semantics.
//! Both need their flags zeroed before the kernel runs (dispatch/kepler.cuh, `cudaMemsetAsync`).

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda/atomic>

#include <archscan/tile/status_word.cuh>

namespace archscan::tile {

enum tile_flag : unsigned {
  flag_empty     = 0,  //!< nothing published yet (the zeroed state)
  flag_aggregate = 1,  //!< the tile's own reduction
  flag_inclusive = 2,  //!< the prefix through the end of the tile
};

template <class T>
struct packed_status {
  static_assert(fits_status_word<T>, "packed tile status holds at most 8 bytes of value");
  using word = status_word<T>;
  typename word::storage* d_words;  //!< one per tile

  __device__ __forceinline__ void publish(std::int64_t tile, tile_flag flag, const T& v) const {
    word::store(d_words + tile, flag, v);
  }
  //! Spins until tile `tile` has published; returns its flag and stores its value in `v`.
  __device__ __forceinline__ tile_flag wait(std::int64_t tile, T& v) const {
    unsigned flag;
    do {
      flag = word::load(d_words + tile, v);
    } while (flag == flag_empty);
    return static_cast<tile_flag>(flag);
  }
};

template <class T>
struct split_status {
  unsigned* d_flags;  //!< one per tile
  T* d_aggregates;
  T* d_inclusives;

  __device__ __forceinline__ void publish(std::int64_t tile, tile_flag flag, const T& v) const {
    (flag == flag_aggregate ? d_aggregates : d_inclusives)[tile] = v;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(d_flags[tile]);
    f.store(flag, cuda::std::memory_order_release);
  }
  __device__ __forceinline__ tile_flag wait(std::int64_t tile, T& v) const {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(d_flags[tile]);
    unsigned flag;
    do {
      flag = f.load(cuda::std::memory_order_acquire);
    } while (flag == flag_empty);
    v = flag == flag_aggregate ? d_aggregates[tile] : d_inclusives[tile];
    return static_cast<tile_flag>(flag);
  }
};

//! The inclusive prefix of tiles [0, tile), for tile > 0, by one thread: serial look-back from
//! tile - 1, combining earlier values on the left (operators need not commute).
template <class Status, class T, class Op>
__device__ T serial_lookback(const Status& status, std::int64_t tile, Op op) {
  T acc;
  tile_flag flag = status.wait(tile - 1, acc);
  for (std::int64_t t = tile - 2; flag != flag_inclusive; --t) {
    T v;
    flag = status.wait(t, v);
    acc  = op(v, acc);
  }
  return acc;
}

}  // namespace archscan::tile
