#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Counters that prove which code path a Thrust call took.
//!
//! Every archscan scan-family overload counts its entries (one relaxed atomic add per call). Tests use
//! the counts to show that a call made with an archscan policy reached archscan, not Thrust's CUB path.

#include <cstdint>

namespace archscan::instrumentation {

//! The sixteen scan-family overloads of Thrust 3.0 (`scan.h`, `transform_scan.h`).
enum class entry : int {
  inclusive_scan,                      // (first, last, result)
  inclusive_scan_op,                   // (..., op)
  inclusive_scan_init_op,              // (..., init, op)
  exclusive_scan,                      // (first, last, result)
  exclusive_scan_init,                 // (..., init)
  exclusive_scan_init_op,              // (..., init, op)
  inclusive_scan_by_key,               // (k1, kl, v, out)
  inclusive_scan_by_key_pred,          // (..., pred)
  inclusive_scan_by_key_pred_op,       // (..., pred, op)
  exclusive_scan_by_key,               // (k1, kl, v, out)
  exclusive_scan_by_key_init,          // (..., init)
  exclusive_scan_by_key_init_pred,     // (..., init, pred)
  exclusive_scan_by_key_init_pred_op,  // (..., init, pred, op)
  transform_inclusive_scan,            // (..., unary, op)
  transform_inclusive_scan_init,       // (..., unary, init, op)
  transform_exclusive_scan,            // (..., unary, init, op)
  count
};

//! The Thrust entry point `e` belongs to (all its overloads share one name), as NVTX ranges name it.
constexpr char const* algorithm_name(entry e) noexcept {
  switch (e) {
    case entry::inclusive_scan:
    case entry::inclusive_scan_op:
    case entry::inclusive_scan_init_op:
      return "inclusive_scan";
    case entry::exclusive_scan:
    case entry::exclusive_scan_init:
    case entry::exclusive_scan_init_op:
      return "exclusive_scan";
    case entry::inclusive_scan_by_key:
    case entry::inclusive_scan_by_key_pred:
    case entry::inclusive_scan_by_key_pred_op:
      return "inclusive_scan_by_key";
    case entry::exclusive_scan_by_key:
    case entry::exclusive_scan_by_key_init:
    case entry::exclusive_scan_by_key_init_pred:
    case entry::exclusive_scan_by_key_init_pred_op:
      return "exclusive_scan_by_key";
    case entry::transform_inclusive_scan:
    case entry::transform_inclusive_scan_init:
      return "transform_inclusive_scan";
    case entry::transform_exclusive_scan:
      return "transform_exclusive_scan";
    default:
      return "scan";
  }
}

//! How many times `e` has been entered in this process (all threads).
std::uint64_t calls(entry e) noexcept;

namespace detail {
void count(entry e) noexcept;
}

}  // namespace archscan::instrumentation
