#pragma once
//! \file One tile's status and value in a single word, written and read by one memory access, so that
//! no reader can see a status without its value (the look-back of the kepler and turing families).
//!
//!  - values of at most 4 bytes: a 64-bit word (status in the high half), accessed with 64-bit
//!    relaxed atomics;
//!  - values of 5 to 8 bytes: a 16-byte aligned word (status, value) accessed with one 128-bit
//!    `ld/st.relaxed.gpu.v2.u64`. Aligned 16-byte accesses of a thread are single transactions in the
//!    memory system of every sm_70+ GPU (the same property Thrust's CUB back end relies on for its
//!    8-byte tile states); the PTX memory model does not promise it for vectors, which is why values
//!    of 4 bytes or less use a true 64-bit atomic and larger ones a release/acquire flag instead.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda/atomic>

namespace archscan::tile {

//! Whether values of type T travel in one status word.
template <class T>
inline constexpr bool fits_status_word = sizeof(T) <= 8 && std::is_trivially_copyable_v<T>;

template <class T, bool Wide = (sizeof(T) > 4)>
struct status_word;

template <class T>
struct status_word<T, false> {
  using storage = unsigned long long;
  __device__ __forceinline__ static void store(storage* p, unsigned status, const T& v) {
    unsigned bits = 0;
    memcpy(&bits, &v, sizeof(T));
    cuda::atomic_ref<storage, cuda::thread_scope_device>(*p).store((static_cast<storage>(status) << 32) | bits,
                                                                   cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ static unsigned load(const storage* p, T& v) {
    const storage w = cuda::atomic_ref<storage, cuda::thread_scope_device>(*const_cast<storage*>(p))
                          .load(cuda::memory_order_relaxed);
    const auto bits = static_cast<unsigned>(w);
    memcpy(&v, &bits, sizeof(T));
    return static_cast<unsigned>(w >> 32);
  }
};

template <class T>
struct status_word<T, true> {
  struct alignas(16) storage {
    unsigned long long status;
    unsigned long long bits;
  };
  __device__ __forceinline__ static void store(storage* p, unsigned status, const T& v) {
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof(T));
    const unsigned long long s = status;
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(s), "l"(bits) : "memory");
  }
  __device__ __forceinline__ static unsigned load(const storage* p, T& v) {
    unsigned long long s = 0, bits = 0;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(s), "=l"(bits) : "l"(p) : "memory");
    memcpy(&v, &bits, sizeof(T));
    return static_cast<unsigned>(s);
  }
};

}  // namespace archscan::tile
