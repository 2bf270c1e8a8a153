#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The moves of a transposed tile's packed items (tile/transposed_io.cuh, `packs_items`): one- and
//! two-byte values kept in the words of their 16-byte vectors from the load to the store
//! (block/vector_transpose.cuh, `packed`), unpacked only where tile/transposed_tile.cuh folds them.

#include <cstdint>
#include <cstring>

#include <archscan/block/striped_vectors.cuh>
#include <archscan/detail/vector_access.cuh>
#include <archscan/tile/transposed_io.cuh>

namespace archscan::tile {

//! `Problem`, `Config`: transposed_io's.
template <class Problem, class Config>
struct packed_io : transposed_io<Problem, Config> {
  using io = transposed_io<Problem, Config>;
  using io::stride;
  using io::thread_start;
  using io::tile_items;
  using io::warp_first;
  using io::warp_rest;
  using typename io::in_element;
  using typename io::in_reader;
  using typename io::in_source;
  using typename io::out_element;
  using typename io::packed_vectors;
  using typename io::smem_view;

  //! The tile's items, packed (packs_items): 16-byte vectors when the input is 16-byte aligned (a
  //! partial tile's vectors that cross its end item by item), else one by one (predicated). Missing
  //! items repeat the tile's first item, as load_items. Under a transform iterator the values are
  //! transformed as they arrive: one by one, or after the vectors' exchange a word of them at a
  //! time. Register pressure decided this form (sm_90, 64 registers): transformed value by value in
  //! the packed words (packed::get, packed::set) int8 and int16 tiles spilled 144-156 bytes, in the
  //! striped vectors int16 tiles 26, and word by word once after both paths 144-434; this form
  //! takes a plain scan's registers.
  __device__ static void load_packed(const Problem& p, std::int64_t base, int rest, const smem_view& s,
                                     typename packed_vectors::packed& x) {
    const in_element* in = in_source::pointer(p.in);
    if (detail::aligned_16(in)) {
      typename packed_vectors::vector v[packed_vectors::lane_vectors];
      if (rest == tile_items) {
        block::load_vectors(in + warp_first(base), v);
      } else {
        block::load_vectors(in + warp_first(base), warp_rest(rest), in[base], v);
      }
      packed_vectors::striped_to_packed(v, x, s.vector_region());
      transform_packed(p, x);
      return;
    }
    const int start         = thread_start();
    const in_element* first = in + (base + start);
    const in_element fill   = first[-start];
    [[maybe_unused]] in_reader read(p.in);
    packed_vectors::striped_to_packed(
        [&](int k) -> in_element {
          const in_element u = rest == tile_items || start + k * stride < rest ? first[k * stride] : fill;
          if constexpr (in_source::transforms) return read(u);
          return u;
        },
        x, s.vector_region());
  }

  //! The packed values of a transform iterator's array made items (load_packed's vector path): each
  //! word's values through the iterator's functor. Nothing for other inputs.
  __device__ static void transform_packed(const Problem& p, typename packed_vectors::packed& x) {
    if constexpr (in_source::transforms) {
      in_reader read(p.in);
      constexpr int per_word = static_cast<int>(sizeof(x.words[0]) / sizeof(in_element));
#pragma unroll
      for (int w = 0; w < packed_vectors::lane_vectors * 4; ++w) {
        in_element u[per_word];
        std::memcpy(u, &x.words[w], sizeof(u));
#pragma unroll
        for (int i = 0; i < per_word; ++i) u[i] = read(u[i]);
        std::memcpy(&x.words[w], u, sizeof(u));
      }
    }
  }

  //! The first `rest` of the tile's scanned items, packed: 16-byte vectors when the output is 16-byte
  //! aligned (those crossing a partial tile's end item by item), else one by one.
  __device__ static void store_packed(const Problem& p, std::int64_t base, int rest, const smem_view& s,
                                      const typename packed_vectors::packed& y) {
    if (detail::aligned_16(p.out)) {
      typename packed_vectors::vector v[packed_vectors::lane_vectors];
      packed_vectors::packed_to_striped(y, v, s.vector_region());
      if (rest == tile_items) {
        block::store_vectors(p.out + warp_first(base), v);
      } else {
        block::store_vectors(p.out + warp_first(base), warp_rest(rest), v);
      }
      return;
    }
    const int start    = thread_start();
    out_element* first = p.out + (base + start);
    packed_vectors::packed_to_striped(
        y,
        [&](int k, typename packed_vectors::bits_t bits) {  // the output element's bits
          if (rest == tile_items || start + k * stride < rest) std::memcpy(first + k * stride, &bits, sizeof(bits));
        },
        s.vector_region());
  }
};

}  // namespace archscan::tile
