#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file Which inputs the read-only data path (`__ldg`, load_kind::read_only) can load: raw pointers to
//! the arithmetic types `__ldg` has overloads for, not volatile ones. Every other input loads through
//! its iterator. The data must not change while the kernel runs: in-place scans qualify, since a tile writes only
//! addresses that it alone has read, and after reading them.

#include <type_traits>

namespace archscan::detail {

template <class U>
inline constexpr bool ldg_value =
    std::is_same_v<U, char> || std::is_same_v<U, signed char> || std::is_same_v<U, unsigned char> ||
    std::is_same_v<U, short> || std::is_same_v<U, unsigned short> || std::is_same_v<U, int> ||
    std::is_same_v<U, unsigned> || std::is_same_v<U, long> || std::is_same_v<U, unsigned long> ||
    std::is_same_v<U, long long> || std::is_same_v<U, unsigned long long> || std::is_same_v<U, float> ||
    std::is_same_v<U, double>;

template <class It>
inline constexpr bool ldg_input = false;
template <class U>
inline constexpr bool ldg_input<U*> = ldg_value<std::remove_const_t<U>>;  // not volatile: __ldg caches

//! Whether a tile of a tuning that asks for the read-only path (`ReadOnly`: its `load` is
//! load_kind::read_only, tuning/shape.cuh) reads input iterator `It` with `__ldg`.
template <bool ReadOnly, class It>
inline constexpr bool loads_read_only = ReadOnly&& ldg_input<It>;

}  // namespace archscan::detail
