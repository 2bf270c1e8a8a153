#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Tile states: how the tiles of one single-pass scan hand their results to the tiles after them.
//!
//! Each tile has a state in global memory: a status (invalid, aggregate, prefix) and a value. A tile
//! publishes its aggregate (the combination of its own items) as soon as it has one and its inclusive
//! prefix (everything up to and including it) once it has looked back (tile/lookback.cuh). A counter
//! beside the states hands out tile ids in the order blocks start, which is what makes every look-back
//! terminate: a tile only waits for tiles owned by blocks that are running or done.
//!
//! Publication: no reader can see a status without its value.
//!  - packed (accumulators of at most 8 bytes, and by-key items of values of at most 8 bytes, all
//!    trivially copyable): status and value share one word, written and read by single relaxed
//!    accesses: the word is the whole message. Values of at most 4 bytes use a 64-bit word and 64-bit
//!    atomics; values of 5 to 8 bytes a 16-byte aligned word accessed by one
//!    `ld/st.relaxed.gpu.v2.u64`. By-key items wider than 8 bytes (a value of 5 to 8 bytes and the
//!    flags' byte, padded) take that word too: the flags beside the status, the value in the other
//!    half. Aligned 16-byte accesses of a thread are single transactions
//!    in the memory system of every sm_70+ GPU (the property CUB relies on for its 8-byte tile states);
//!    the PTX memory model does not promise it for vectors, so 4-byte values keep a true atomic.
//!  - split (any accumulator): separate aggregate and inclusive slots per tile (never rewritten once
//!    published, so a reader never sees one overwritten by the other) and a 32-bit status. The value
//!    is stored first, then the status with release semantics; readers load the status with acquire
//!    semantics before reading the slot it names.
//!
//! Host side: `tile_state_layout` places the counter and the states in temporary storage, the reset
//! state is all zero (every status invalid, the counter at tile 0), and `reset_tile_states` zeroes it
//! with one `cudaMemsetAsync`; or a kernel calls `zero_tile_states` (the native family on sm_90 on,
//! so that the scan after it may launch as its programmatic dependent; dispatch/native_dispatch.cuh). Split
//! states have their slots zeroed as well: a store of a struct need not write its padding, and a
//! reader copies the whole slot, so without the reset it would read uninitialized bytes (harmless,
//! but compute-sanitizer's initcheck reports them).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda/atomic>
#include <cuda_runtime_api.h>

#include <archscan/detail/error.cuh>
#include <archscan/detail/keyed.cuh>
#include <archscan/detail/math.cuh>

namespace archscan::tile {

enum tile_status : unsigned {
  status_invalid   = 0,  //!< nothing published yet (the zeroed state)
  status_aggregate = 1,  //!< the tile's own reduction
  status_prefix    = 2,  //!< the inclusive prefix through the end of the tile
};

//! Whether values of type T can travel in one status word.
template <class T>
inline constexpr bool fits_status_word = sizeof(T) <= 8 && std::is_trivially_copyable_v<T>;
template <class V>
inline constexpr bool fits_status_word<detail::keyed<V>> = sizeof(V) <= 8 && std::is_trivially_copyable_v<V>;

//! One tile's status and value in a single word. `Keyed`: wider than 8 bytes, which among the types
//! that fit a status word only by-key items are (their flags then travel beside the status).
template <class T, bool Wide = (sizeof(T) > 4), bool Keyed = (sizeof(T) > 8)>
struct status_word;

template <class T>
struct status_word<T, false, false> {
  using storage = unsigned long long;
  __device__ __forceinline__ static void store(storage* p, unsigned status, const T& v) {
    unsigned bits = 0;
    memcpy(&bits, &v, sizeof(T));
    cuda::atomic_ref<storage, cuda::thread_scope_device>(*p).store((static_cast<storage>(status) << 32) | bits,
                                                                   cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ static unsigned load(const storage* p, T& v) {
    const storage w =
        cuda::atomic_ref<storage, cuda::thread_scope_device>(*const_cast<storage*>(p)).load(cuda::memory_order_relaxed);
    const auto bits = static_cast<unsigned>(w);
    memcpy(&v, &bits, sizeof(T));
    return static_cast<unsigned>(w >> 32);
  }
};

template <class T>
struct status_word<T, true, false> {
  struct alignas(16) storage {
    unsigned long long status;
    unsigned long long bits;
  };
  __device__ __forceinline__ static void store(storage* p, unsigned status, const T& v) {
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof(T));
    store_halves(p, status, bits);
  }
  __device__ __forceinline__ static unsigned load(const storage* p, T& v) {
    unsigned long long s = 0, bits = 0;
    load_halves(p, s, bits);
    memcpy(&v, &bits, sizeof(T));
    return static_cast<unsigned>(s);
  }
  __device__ __forceinline__ static void store_halves(storage* p, unsigned long long s, unsigned long long bits) {
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(s), "l"(bits) : "memory");
  }
  __device__ __forceinline__ static void load_halves(const storage* p, unsigned long long& s,
                                                     unsigned long long& bits) {
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(s), "=l"(bits) : "l"(p) : "memory");
  }
};

//! A by-key item of a 5- to 8-byte value: its flags in bits 32-39 of the status half.
template <class T>
struct status_word<T, true, true> {
  using halves  = status_word<typename detail::keyed_value<T>::type, true, false>;
  using storage = typename halves::storage;
  __device__ __forceinline__ static void store(storage* p, unsigned status, const T& v) {
    unsigned long long bits = 0;
    memcpy(&bits, &v.value, sizeof(v.value));
    halves::store_halves(p, status | static_cast<unsigned long long>(v.flags) << 32, bits);
  }
  __device__ __forceinline__ static unsigned load(const storage* p, T& v) {
    unsigned long long s = 0, bits = 0;
    halves::load_halves(p, s, bits);
    memcpy(&v.value, &bits, sizeof(v.value));
    v.flags = static_cast<std::uint8_t>(s >> 32);
    return static_cast<unsigned>(s);
  }
};

//! Where the counter and the states of `tiles` tiles live in temporary storage (host arithmetic).
struct tile_state_layout {
  bool packed                   = true;
  std::size_t status_offset     = 0;  //!< packed words, or 32-bit statuses (the counter is at offset 0)
  std::size_t aggregates_offset = 0;  //!< split only: one accumulator per tile
  std::size_t inclusives_offset = 0;  //!< split only
  std::size_t zero_bytes = 0;  //!< bytes from offset 0 that the reset zeroes: counter, statuses (and split slots)
  std::size_t bytes      = 0;  //!< the whole, a multiple of detail::storage_alignment
};

//! The layout for `tiles` tiles of `accum_bytes`-byte accumulators; `packed` when they travel in one word.
constexpr tile_state_layout make_tile_state_layout(std::int64_t tiles, std::size_t accum_bytes, bool packed) {
  using detail::align_up;
  using detail::storage_alignment;
  tile_state_layout l{};
  l.packed               = packed;
  const auto count       = static_cast<std::size_t>(tiles > 0 ? tiles : 0);
  const std::size_t word = accum_bytes <= 4 ? 8 : 16;
  l.status_offset        = align_up(sizeof(unsigned long long), storage_alignment);
  l.zero_bytes           = l.status_offset + count * (packed ? word : sizeof(unsigned));
  std::size_t bytes      = align_up(l.zero_bytes, storage_alignment);
  if (!packed) {
    l.aggregates_offset = bytes;
    bytes += align_up(count * accum_bytes, storage_alignment);
    l.inclusives_offset = bytes;
    bytes += align_up(count * accum_bytes, storage_alignment);
  }
  l.bytes = bytes;
  if (!packed) l.zero_bytes = bytes;
  return l;
}

//! The device view of the states: publish, poll, and the tile counter.
template <class T, bool Packed>
struct tile_state;

template <class T>
struct tile_state<T, true> {
  static_assert(fits_status_word<T>, "packed tile states hold at most 8 bytes of trivially copyable value");
  using word = status_word<T>;
  unsigned long long* d_counter;    //!< next tile id
  typename word::storage* d_words;  //!< per tile: status and value

  __host__ static tile_state bind(void* d_temp, const tile_state_layout& l) {
    auto* base = static_cast<unsigned char*>(d_temp);
    return {reinterpret_cast<unsigned long long*>(base),
            reinterpret_cast<typename word::storage*>(base + l.status_offset)};
  }
  __device__ __forceinline__ void publish(std::int64_t tile, tile_status s, const T& v) const {
    word::store(d_words + tile, s, v);
  }
  //! The tile's status now, and its value in `v`; after an invalid status `v` holds nothing meaningful
  //! (a packed word writes its reset bits there, split states leave it alone).
  __device__ __forceinline__ tile_status poll(std::int64_t tile, T& v) const {
    return static_cast<tile_status>(word::load(d_words + tile, v));
  }
  __device__ __forceinline__ std::int64_t next_tile() const {
    return static_cast<std::int64_t>(atomicAdd(d_counter, 1ull));
  }
};

template <class T>
struct tile_state<T, false> {
  unsigned long long* d_counter;
  unsigned* d_status;
  T* d_aggregates;
  T* d_inclusives;

  __host__ static tile_state bind(void* d_temp, const tile_state_layout& l) {
    auto* base = static_cast<unsigned char*>(d_temp);
    return {reinterpret_cast<unsigned long long*>(base), reinterpret_cast<unsigned*>(base + l.status_offset),
            reinterpret_cast<T*>(base + l.aggregates_offset), reinterpret_cast<T*>(base + l.inclusives_offset)};
  }
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
  __device__ __forceinline__ std::int64_t next_tile() const {
    return static_cast<std::int64_t>(atomicAdd(d_counter, 1ull));
  }
};

//! Whether states of accumulator T are packed into one word: where they are asked to be (a tile
//! configuration's `packed_status`, a tuning's `tile_status`) and T fits a word.
template <bool PackedStatus, class T>
inline constexpr bool packs_state = PackedStatus&& fits_status_word<T>;

//! Puts the states in their reset state (all zero) on `stream`.
inline void reset_tile_states(void* d_temp, const tile_state_layout& l, cudaStream_t stream, const char* who) {
  detail::throw_on_error(cudaMemsetAsync(d_temp, 0, l.zero_bytes, stream), who);
}

//! The 16-byte words that `zero_tile_states` writes: `zero_bytes` rounded up, which stays inside the
//! layout's `bytes` (a multiple of storage_alignment, 256) in temporary storage aligned to 256.
constexpr std::int64_t tile_state_words(const tile_state_layout& l) {
  static_assert(detail::storage_alignment % 16 == 0, "16-byte words within the aligned layout");
  return static_cast<std::int64_t>((l.zero_bytes + 15) / 16);
}

//! The reset as device code: every thread of a grid of any size zeroes its share of the
//! `tile_state_words(l)` words from `d_temp`.
__device__ __forceinline__ void zero_tile_states(void* d_temp, std::int64_t words) {
  auto* d_words             = static_cast<uint4*>(d_temp);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  // Rolled: the dispatch's grid gives a thread one word or a few (at most 1024 blocks), and the
  // compiler's unrolled copy took 170 instructions in every kernel that has the reset route.
#pragma unroll 1
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride) {
    d_words[i] = uint4{0, 0, 0, 0};
  }
}

}  // namespace archscan::tile
