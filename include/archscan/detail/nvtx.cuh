#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file NVTX ranges around archscan's scan calls, so that Nsight Systems (or any NVTX tool) shows each
//! call by name, in the `archscan` domain: `archscan::<algorithm> <family> n=<items>`, with ` across_ranks`
//! appended for a policy bound to a communicator (`.across(comm)`), e.g.
//! `archscan::exclusive_scan native n=1048576`. `<algorithm>` is the Thrust entry point
//! (`inclusive_scan`, `exclusive_scan`, their `_by_key` and `transform_` forms), `<family>` the tuning's
//! kernel family, `<items>` the call's n (a rank's own slice across ranks).
//!
//! Through NVTX3's header-only C++ API (`<nvtx3/nvtx3.hpp>`, from the CUDA toolkit). The range is a push/pop
//! range on the calling thread, opened before the call's first CUDA call and closed when it returns or throws.
//! It spans the host side of the call: with a `_nosync` policy, the enqueueing, not the kernels' run (Nsight
//! Systems ties the kernels launched inside it to the range).
//! Cost without a tool: NVTX's domain handle is null when no tool is attached (nvtxDomainCreateA returns
//! null unless a tool implements it), and `nvtx3::domain::get` caches it, so a call then reads one cached
//! handle and builds no name. With a tool, the name is formatted into a buffer on the stack (no heap
//! allocation) and the tool copies it during the push.
//!
//! Defining `ARCHSCAN_DISABLE_NVTX` (in every unit that includes archscan) compiles it all out: no NVTX
//! include, `scan_range` is an empty type. NVTX's own `NVTX_DISABLE` turns the NVTX calls into no-ops.

#include <cstddef>
#include <cstdint>

#ifndef ARCHSCAN_DISABLE_NVTX
#include <optional>

#include <nvtx3/nvtx3.hpp>
#endif

namespace archscan {

//! archscan's NVTX domain (NVTX3's domain type: a struct with a static `name`).
struct nvtx_domain {
  static constexpr char const* name = "archscan";
};

namespace detail {

//! Room for the longest name: "archscan::" + a 24-character algorithm + a family + 20 digits + suffix.
inline constexpr std::size_t scan_range_name_capacity = 128;

//! Writes the range's name (see the file comment) into `out`, NUL-terminated and truncated to fit;
//! returns its length. Allocation-free.
inline std::size_t format_scan_range_name(char (&out)[scan_range_name_capacity], char const* algorithm,
                                          char const* family, std::int64_t n, bool across) noexcept {
  std::size_t len = 0;
  auto put        = [&](char const* s) {
    for (; *s != '\0' && len + 1 < scan_range_name_capacity; ++s) out[len++] = *s;
  };
  put("archscan::");
  put(algorithm);
  put(" ");
  put(family);
  put(" n=");
  char digits[24];
  std::size_t d = 0;
  // Digits of |n|, computed unsigned so that the most negative value does not overflow.
  std::uint64_t v = n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  do {
    digits[d++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  if (n < 0) digits[d++] = '-';
  while (d > 0 && len + 1 < scan_range_name_capacity) out[len++] = digits[--d];
  if (across) put(" across_ranks");
  out[len] = '\0';
  return len;
}

//! The NVTX range of one scan call, open for the object's lifetime (scoped: closed on return or throw),
//! named from the algorithm, the family, n and whether the call scans across ranks (thrust/run_scan.cuh's
//! `scan_range` names them from the overload and the policy).
class nvtx_scan_range {
 public:
  nvtx_scan_range(char const* algorithm, char const* family, std::int64_t n, bool across) noexcept {
#ifndef ARCHSCAN_DISABLE_NVTX
    // Null when no tool is attached: then nothing is formatted and nothing is pushed.
    if (static_cast<nvtxDomainHandle_t>(nvtx3::domain::get<nvtx_domain>()) == nullptr) return;
    char name[scan_range_name_capacity];
    format_scan_range_name(name, algorithm, family, n, across);
    range_.emplace(nvtx3::event_attributes{nvtx3::message{name}});
#else
    (void)algorithm;
    (void)family;
    (void)n;
    (void)across;
#endif
  }
  nvtx_scan_range(nvtx_scan_range const&)            = delete;
  nvtx_scan_range& operator=(nvtx_scan_range const&) = delete;

 private:
#ifndef ARCHSCAN_DISABLE_NVTX
  std::optional<nvtx3::scoped_range_in<nvtx_domain>> range_;
#endif
};

}  // namespace detail
}  // namespace archscan
