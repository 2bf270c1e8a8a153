#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Answers about kernels that cannot change while the process runs (attributes set, blocks an
//! SM, the largest cluster), kept per kernel, question and device in one table for the whole program.
//!
//! One table instead of a cache per kernel template: a cache in a template keyed by the kernel is a
//! function, a guard and a static per kernel, each named after the kernel's type, and the names of
//! archscan's kernels run to kilobytes (the compile-cost program's object kept 139 KB of such names).
//! A kernel is known here by its address, which is the address of the copy in the translation unit
//! that asks (nvcc 13 gives each unit its own copy of a template kernel, dispatch/family.cuh): each
//! copy is asked about, and answered for, on its own.
//!
//! Reads take no lock (launches read the table on every call); writes, once per kernel, question and
//! device, take one. A slot, once written, never changes. When the table is full, questions are asked
//! again on every call: slower, never wrong.

#include <atomic>
#include <cstdint>
#include <mutex>

namespace archscan::detail {

//! What is asked about a kernel (dispatch/family.cuh).
enum class kernel_question : unsigned {
  configured,        //!< its shared-memory attributes set (configure_kernel without occupancy)
  blocks_per_sm,     //!< its attributes set and its blocks an SM (configure_kernel with occupancy)
  largest_cluster,   //!< the most blocks a cluster of it may have on the device
  dependent_launch,  //!< whether it may launch as a programmatic dependent on the device
};

class kernel_answers {
 public:
  //! Slots: a program asks about a few kernels per scan-family call site, each on each of its devices.
  static constexpr int capacity = 4096;

  //! The answer kept for `q` about `kernel` on `device`, or -1 where none is kept.
  static int find(const void* kernel, kernel_question q, int device) noexcept {
    const std::uint32_t key = key_of(q, device);
    table& t                = the_table();
    for (int probe = 0, i = first_slot(kernel, key); probe < capacity; ++probe, i = (i + 1) % capacity) {
      const void* k = t.slots[i].kernel.load(std::memory_order_acquire);
      if (k == nullptr) return -1;  // slots fill in probe order and are never emptied
      if (k == kernel && t.slots[i].key == key) return t.slots[i].answer;
    }
    return -1;
  }

  //! Keeps `answer` (>= 0) for `q` about `kernel` on `device`, unless one is kept already or the table
  //! is full.
  static void keep(const void* kernel, kernel_question q, int device, int answer) {
    const std::uint32_t key = key_of(q, device);
    table& t                = the_table();
    const std::lock_guard<std::mutex> lock(t.writing);
    for (int probe = 0, i = first_slot(kernel, key); probe < capacity; ++probe, i = (i + 1) % capacity) {
      slot& s       = t.slots[i];
      const void* k = s.kernel.load(std::memory_order_relaxed);  // written only under the lock
      if (k == kernel && s.key == key) return;
      if (k == nullptr) {
        s.key    = key;
        s.answer = answer;
        s.kernel.store(kernel, std::memory_order_release);  // last: a reader that sees it sees the rest
        return;
      }
    }
  }

 private:
  struct slot {
    std::atomic<const void*> kernel{nullptr};
    std::uint32_t key = 0;  //!< question and device
    int answer        = 0;
  };
  struct table {
    std::mutex writing;
    slot slots[capacity];
  };
  //! One table for the program (an inline function's static: one across translation units), 64 KiB
  //! of zeros constant-initialized, so built before any thread can ask.
  static table& the_table() noexcept {
    static table t;
    return t;
  }
  //! Devices up to 2^24 (CUDA numbers them from 0 within a process).
  static constexpr std::uint32_t key_of(kernel_question q, int device) noexcept {
    return static_cast<std::uint32_t>(device) << 8 | static_cast<std::uint32_t>(q);
  }
  static int first_slot(const void* kernel, std::uint32_t key) noexcept {
    const std::uint64_t h = (reinterpret_cast<std::uintptr_t>(kernel) >> 4 ^ key) * 0x9e3779b97f4a7c15ull;
    static_assert(capacity == 1 << 12, "the slot is the hash's top 12 bits");
    return static_cast<int>(h >> 52);
  }
};

}  // namespace archscan::detail
