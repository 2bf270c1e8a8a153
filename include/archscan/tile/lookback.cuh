#pragma once
//! \file Decoupled look-back: how a tile learns the exclusive prefix of everything before it in one pass.
//!
//! Each tile has a state in global memory: a status (invalid, aggregate, prefix) and a value.
//! A tile publishes its aggregate (the combination of its own items) as soon as it has one, then
//! looks back over its predecessors and finally publishes its inclusive prefix. A looking-back warp
//! reads a window of up to 32 predecessors at once (one lane each); where one of them has published
//! its inclusive prefix the walk stops, otherwise the window's aggregates are folded in and the
//! window slides 32 tiles further back.
//!
//! Publication: no reader can see a status without its value.
//!  - accumulators of at most 8 bytes: status and value share one word (64-bit for values of at
//!    most 4 bytes, 128-bit for 8-byte values; tile/status_word.cuh), written and read by single
//!    accesses (relaxed: the word is the whole message);
//!  - larger accumulators: separate aggregate and inclusive slots per tile (never rewritten once
//!    published) and a 32-bit status. The value is stored first, then the status with release
//!    semantics (`cuda::atomic_ref::store`, st.release.gpu); readers load the status with acquire
//!    semantics before reading the slot the status names.
//!
//! Forward progress: tile ids come from an atomic counter in the order blocks *start* work, so a
//! tile only ever waits for tiles already owned by running blocks, which wait only for smaller ids;
//! tile 0 waits for nobody. No assumption about block scheduling order is made.
//!
//! Waiting: a poll that finds a needed predecessor still invalid sleeps (`__nanosleep`, doubling
//! from backoff_min_ns to backoff_max_ns) and polls again. After `spin_limit` polls the kernel calls
//! `__trap()`: with the default tuning that is tens of seconds, reachable only if the forward-progress
//! argument above is broken (for example a corrupted or re-used state array), and a trap turns a
//! silent hang into a reported launch failure.

#include <cstdint>
#include <cstring>

#include <cuda/atomic>

#include <archscan/tile/status_word.cuh>
#include <archscan/warp/warp_scans.cuh>

namespace archscan::tile {

enum tile_status : unsigned { status_invalid = 0, status_aggregate = 1, status_prefix = 2 };

//! True when T's status and value share one word (tile/status_word.cuh): values of at most 8 bytes.
template <class T>
inline constexpr bool packed_state = fits_status_word<T>;

//! The tile states in global memory (temporary storage laid out by the dispatch). All bytes zero is
//! the reset state: every status invalid, the counter at tile 0.
template <class T, bool Packed = packed_state<T>>
struct lookback_states;

template <class T>
struct lookback_states<T, true> {
  using word = status_word<T>;
  unsigned long long* d_counter;         //!< next tile id
  typename word::storage* d_words;       //!< per tile: status and value

  __device__ __forceinline__ void publish(std::int64_t tile, tile_status s, const T& v) const {
    word::store(d_words + tile, s, v);
  }
  __device__ __forceinline__ tile_status poll(std::int64_t tile, T& v) const {
    return static_cast<tile_status>(word::load(d_words + tile, v));
  }
};

template <class T>
struct lookback_states<T, false> {
  unsigned long long* d_counter;
  unsigned* d_status;
  T* d_aggregates;
  T* d_inclusives;

  __device__ __forceinline__ void publish(std::int64_t tile, tile_status s, const T& v) const {
    (s == status_prefix ? d_inclusives : d_aggregates)[tile] = v;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(d_status[tile]).store(s, cuda::memory_order_release);
  }

  __device__ __forceinline__ tile_status poll(std::int64_t tile, T& v) const {
    const auto s = static_cast<tile_status>(
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(d_status[tile]).load(cuda::memory_order_acquire));
    if (s == status_prefix) v = d_inclusives[tile];
    if (s == status_aggregate) v = d_aggregates[tile];
    return s;
  }
};

//! A value that may be absent: the look-back's window combines only the predecessors it needs.
template <class T>
struct maybe {
  T value;
  int valid;
};

template <class Op>
struct maybe_op {
  Op op;
  template <class T>
  __device__ __forceinline__ maybe<T> operator()(const maybe<T>& a, const maybe<T>& b) const {
    if (!a.valid) return b;
    if (!b.valid) return a;
    return maybe<T>{static_cast<T>(op(a.value, b.value)), 1};
  }
};

//! `Config` supplies lookback_window, backoff_min_ns, backoff_max_ns and spin_limit (a tuning).
template <class T, class Config>
struct lookback {
  static constexpr int window = Config::lookback_window;
  static_assert(window >= 1 && window <= 32 && (window & (window - 1)) == 0, "look-back window: 1, 2, 4, ... 32");

  //! The next tile id for the calling thread's block (call from one thread).
  template <class States>
  __device__ __forceinline__ static std::int64_t next_tile(const States& st) {
    return static_cast<std::int64_t>(atomicAdd(st.d_counter, 1ull));
  }

  //! The exclusive prefix of tile `tile` > 0: predecessors combined in order (earliest leftmost),
  //! including whatever tile 0 folded into its inclusive prefix. All 32 lanes of one warp call.
  //! `delay_ns` > 0: sleep that long before the first poll, so that the tiles just before have
  //! published inclusive prefixes and the walk ends in the first window more often.
  template <class States, class Op>
  __device__ static T exclusive_prefix(const States& st, std::int64_t tile, Op op, unsigned delay_ns) {
    const int lane = warp::lane_id();
    if (delay_ns > 0) __nanosleep(delay_ns);
    maybe<T> running{T{}, 0};
    std::int64_t end = tile;  // this window: tiles [end - window, end)
    for (;;) {
      const std::int64_t pred = end - window + lane;
      const bool in_window    = lane < window && pred >= 0;
      T v{};
      tile_status s        = status_invalid;
      unsigned prefix_lanes = 0;
      unsigned delay        = Config::backoff_min_ns;
      for (std::uint64_t polls = 0;; ++polls) {
        s                             = in_window ? st.poll(pred, v) : status_aggregate;
        prefix_lanes                  = __ballot_sync(warp::full_mask, in_window && s == status_prefix);
        const unsigned invalid_lanes  = __ballot_sync(warp::full_mask, s == status_invalid);
        // Lanes below the latest published prefix are not needed.
        const unsigned needed = prefix_lanes ? ~0u << (31 - __clz(prefix_lanes)) : ~0u;
        if ((invalid_lanes & needed) == 0) break;
        if (polls >= Config::spin_limit) __trap();  // forward progress is broken: fail loudly
        if constexpr (Config::backoff_min_ns > 0) {
          __nanosleep(delay);
          delay = delay * 2 < Config::backoff_max_ns ? delay * 2 : Config::backoff_max_ns;
        }
      }
      const int first = prefix_lanes ? 31 - __clz(prefix_lanes) : 0;
      const maybe<T> mine{v, in_window && lane >= first ? 1 : 0};
      const maybe<T> scanned = warp::inclusive_scan(mine, maybe_op<Op>{op});
      const maybe<T> total   = warp::shfl_idx(scanned, window - 1);  // the window, in tile order
      running                = maybe_op<Op>{op}(total, running);     // earlier windows go on the left
      if (prefix_lanes) return running.value;
      end -= window;
    }
  }
};

}  // namespace archscan::tile
