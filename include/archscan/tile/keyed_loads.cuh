#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The loads of a transposed tile's by-key items (tile/transposed_io.cuh, `splits_keyed`): each
//! thread's items as their values and one word of flags (bit j: item j closes its segment), read from
//! a keyed input's keys and values (detail/keyed.cuh), for tile/transposed_tile.cuh.

#include <cstdint>
#include <type_traits>

#include <archscan/block/striped_vectors.cuh>
#include <archscan/block/vector_transpose.cuh>
#include <archscan/detail/keyed.cuh>
#include <archscan/detail/vector_access.cuh>
#include <archscan/tile/transposed_io.cuh>

namespace archscan::tile {

//! `Problem`, `Config`: transposed_io's.
template <class Problem, class Config>
struct keyed_loads : transposed_io<Problem, Config> {
  using io = transposed_io<Problem, Config>;
  using io::items;
  using io::keyed_vector_loads;
  using io::stride;
  using io::thread_start;
  using io::tile_items;
  using io::transposes;
  using io::warp_first;
  using io::warp_rest;
  using typename io::key_element;
  using typename io::keyed_in;
  using typename io::smem_view;
  using typename io::split_value;
  using typename io::transpose;
  using typename io::value_element;

  //! load_items for split by-key tiles: the values of the tile's items in `v` (blocked) and their
  //! flags in `closes` (bit j for item j). Tiles whose keys and values are 16-byte aligned load both
  //! as vectors (load_keyed; a partial tile's vectors that cross its end item by item); the rest load
  //! item by item (each item its value, key and the next key), warp-striped: values exchanged to
  //! blocked, flags gathered by ballots. Missing items of a partial tile: the tile's first value, no
  //! flag.
  __device__ static void load_split(const Problem& p, std::int64_t base, int rest, const smem_view& s,
                                    split_value (&v)[items], unsigned& closes) {
    if constexpr (keyed_vector_loads) {
      if (load_keyed(p, base, rest, s, v, closes)) return;
    }
    // By-key items come only from make_keyed_input (detail/keyed.cuh), whose keys and values the
    // tile reads itself.
    static_assert(!std::is_void_v<typename keyed_in::key_iterator>, "by-key tiles read a keyed_source input");
    const unsigned bits = load_keys_apart(p, base, rest, v);  // bit k: item k (striped or blocked) closes
    if constexpr (transposes) {
      transpose::striped_to_blocked(v, s.transpose_region());
      closes = blocked_flags(bits);
    } else {
      closes = bits;
    }
  }

  //! The item-by-item loads of a by-key input (keyed_in): this thread's values in `v`, and the flags
  //! (bit k: item k closes its segment) as keyed_item forms them. No branches: a missing item of a
  //! partial tile reads the tile's first item (its value is the fill), and a last item compares its
  //! key with itself, so the compiler may issue later items' loads before earlier items' compares.
  //! Formed item by item behind branches, each item's compare waited out a memory round trip before
  //! the next item's loads: a partial by-key tile took longer than the rest of a small scan.
  __device__ static unsigned load_keys_apart(const Problem& p, std::int64_t base, int rest, split_value (&v)[items]) {
    const auto item       = keyed_in::item(p.in);
    const int start       = thread_start();
    const std::int64_t i0 = keyed_in::index(p.in) + base;  // the tile's first item
    unsigned bits         = 0;
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const bool real      = rest == tile_items || start + k * stride < rest;
      const std::int64_t i = real ? i0 + start + k * stride : i0;
      const bool has_next  = i + 1 < item.n;
      const auto key       = item.keys[i];
      const auto next      = item.keys[has_next ? i + 1 : i];
      v[k]                 = static_cast<split_value>(item.values[i]);
      bits |= static_cast<unsigned>(real && has_next && !item.pred(key, next)) << k;
    }
    return bits;
  }

  //! A warp's flags from the striped arrangement (bit k of lane l: item k * 32 + l of the warp's
  //! segment) to the blocked one (bit j of lane l: item l * items + j): ballot k is the segment's
  //! word k; lane k keeps it, and each lane takes the one or two words its items span.
  __device__ static unsigned blocked_flags(unsigned striped) {
    const int lane = static_cast<int>(threadIdx.x) % 32;
    unsigned word  = 0;
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const unsigned b = __ballot_sync(0xffffffffu, ((striped >> k) & 1u) != 0);
      if (lane == k) word = b;
    }
    const int bit0    = lane * items;
    const unsigned lo = __shfl_sync(0xffffffffu, word, bit0 / 32);
    const unsigned hi = __shfl_sync(0xffffffffu, word, (bit0 / 32 + 1) % 32);
    const unsigned in = __funnelshift_r(lo, hi, static_cast<unsigned>(bit0 % 32));
    return items == 32 ? in : in & ((1u << items) - 1u);
  }

  //! A by-key tile from 16-byte vectors of keys and of values, when both are 16-byte aligned (else
  //! false, nothing loaded). Every load is issued before the first exchange. The key after a lane's
  //! last item is the next lane's first; after the warp's last, lane 31 reads it from memory. A partial
  //! tile (`rest` items) loads its whole vectors as a full one and the vector crossing its end item by
  //! item, padded with the tile's first key and value; the flags of its last item and of the padding
  //! are cleared (the last item has no next key), so padding behaves as load_keys_apart's: one load
  //! per vector instead of three per item.
  __device__ static bool load_keyed(const Problem& p, std::int64_t base, int rest, const smem_view& s,
                                    split_value (&x)[items], unsigned& closes) {
    using key_vectors        = block::vector_transpose<key_element, items>;
    using value_vectors      = block::vector_transpose<value_element, items>;
    const auto item          = keyed_in::item(p.in);
    const std::int64_t start = keyed_in::index(p.in);  // the problem's first item (a slice may start past 0)
    if (!detail::aligned_16(item.keys + start) || !detail::aligned_16(item.values + start)) return false;
    const int lane           = static_cast<int>(threadIdx.x) % 32;
    const std::int64_t first = start + warp_first(base);  // the warp's first item
    const std::int64_t after = first + transpose::warp_items;
    typename key_vectors::vector kv[key_vectors::lane_vectors];
    typename value_vectors::vector vv[value_vectors::lane_vectors];
    if (rest == tile_items) {
      block::load_vectors(item.keys + first, kv);
      block::load_vectors(item.values + first, vv);
    } else {
      const int warp_items = warp_rest(rest);
      block::load_vectors(item.keys + first, warp_items, item.keys[start + base], kv);
      block::load_vectors(item.values + first, warp_items, item.values[start + base], vv);
    }
    key_element after_key{};
    if (lane == 31 && after < item.n) after_key = item.keys[after];
    key_element k[items];
    value_element v[items];
    key_vectors::striped_to_blocked(kv, k, s.vector_region());
    value_vectors::striped_to_blocked(vv, v, s.vector_region());
    const key_element next_first = __shfl_down_sync(0xffffffffu, k[0], 1);
    const std::int64_t i         = first + lane * items;  // this lane's first item
    item.form(i, k, v, lane == 31 ? after_key : next_first, x, closes);
    if (rest != tile_items) {  // only items with a real next item may close: [i, item.n - 1)
      const std::int64_t closing = item.n - 1 - i;
      closes &= closing >= items ? ~0u : closing > 0 ? (1u << closing) - 1u : 0u;
    }
    return true;
  }
};

}  // namespace archscan::tile
