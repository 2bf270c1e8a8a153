#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The transposed tile's shape and the moves of its items (tile/transposed_tile.cuh scans them):
//! how many threads and items a tile takes, how it lays out its shared memory, and how its items
//! travel between memory and registers.
//!
//! Loads are coalesced and warp-striped, then each warp transposes its items to the blocked
//! arrangement (block/warp_transpose.cuh); stores go back the same way. All of a tile's input is read
//! before any of its output is written, and only the tile's own range, so in-place scans are safe.
//! With the tuning's `vector_access`, full tiles of raw arithmetic pointers or of transform iterators
//! over them, and partial ones that keep narrow items packed, move 16 bytes per lane
//! (block/vector_transpose.cuh, detail/vector_access.cuh); by-key tiles read their keys and values
//! as vectors and form the flags in registers (detail/keyed.cuh); on sm_90, a warp's large segment
//! whose blocked items are already in the memory's order goes out as one bulk copy (the tuning's
//! bulk_store_min_bytes, detail/bulk_copy.cuh). The staged look-back's copies into shared memory
//! (detail/async_copy.cuh) and its reads from there are here too.
//!
//! Partial tiles pad their missing items with a copy of the tile's first item (by-key tiles: its
//! value, with no flag; no identity is needed): padding sits after every real item, so it reaches no
//! real output, only the last tile's aggregate, which no tile reads.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <archscan/block/vector_transpose.cuh>
#include <archscan/block/warp_totals_scan.cuh>
#include <archscan/block/warp_transpose.cuh>
#include <archscan/detail/async_copy.cuh>
#include <archscan/detail/bulk_copy.cuh>
#include <archscan/detail/keyed.cuh>
#include <archscan/detail/math.cuh>
#include <archscan/detail/problem.cuh>
#include <archscan/detail/read_only.cuh>
#include <archscan/detail/vector_access.cuh>
#include <archscan/tuning.cuh>

namespace archscan::tile {

//! `Row`: the tuning's row for the accumulator; `ItemsPerThread`: its items_per_thread, its
//! small_items_per_thread for problems of few small tiles, its large_items_per_thread (native,
//! tuning/shape.cuh) for large problems, or one of its single tiles' item counts (native, from
//! single_items_per_thread up to single_max_items_per_thread) for problems that one such tile covers
//! (fewer where the tile would not fit, `items`).
template <class Problem, class Tuning, class Row, int ItemsPerThread>
struct transposed_io {
  using T = typename Problem::accum_type;
  static constexpr int threads = detail::tile_threads<Row, ItemsPerThread>;
  static_assert(threads % 32 == 0 && threads <= 1024, "block threads: a multiple of 32, at most 1024");
  //! What `finish` makes of a scanned item: what the stores write (converted to the output's type).
  using finished = std::decay_t<decltype(std::declval<const typename Problem::finish_type&>()(std::declval<const T&>()))>;

  //! By-key tiles (detail/keyed.cuh) hold a thread's items split, as their values and one word of
  //! flags (bit j: item j closes its segment), not as keyed<V> items: a register less an item (the
  //! flags' byte took one each), and exchanges of values, not of whole items, so smaller exchange
  //! regions. The items the scan folds are the same, so are the bits.
  static constexpr bool splits_keyed = detail::is_keyed_v<T> && ItemsPerThread <= 32;
  using split_value                  = typename detail::keyed_value<T>::type;
  //! What loads exchange through the warp transpose: the values of split by-key items, else items.
  using exchanged = std::conditional_t<splits_keyed, split_value, T>;

  //! The element types that full tiles load and store as 16-byte vectors (detail/vector_access.cuh),
  //! void where the iterator does not qualify or the tuning does not ask for it. Inputs read their
  //! vectors from `in_source` (a pointer, or the array under a transform iterator) and make each
  //! element an item with its reader.
  using in_source   = detail::vector_source<typename Problem::input_iterator>;
  using in_element  = std::conditional_t<Tuning::vector_access && in_source::template reads<T>,
                                        typename in_source::element, void>;
  using in_reader   = typename in_source::template reader<T>;
  using out_element = std::conditional_t<Tuning::vector_access,
                                         detail::vector_element_t<typename Problem::output_iterator>, void>;
  //! By-key inputs (detail/keyed.cuh) read their keys and values themselves when both qualify.
  using keyed_in      = detail::keyed_source<typename Problem::input_iterator>;
  //! Keys and values as arithmetic elements only: keys move between lanes by shuffles.
  using key_element =
      std::conditional_t<Tuning::vector_access, detail::arithmetic_vector_element_t<typename keyed_in::key_iterator>,
                         void>;
  using value_element =
      std::conditional_t<Tuning::vector_access, detail::arithmetic_vector_element_t<typename keyed_in::value_iterator>,
                         void>;
  template <class U, int Items>
  static constexpr bool vectors_fit() {
    if constexpr (std::is_void_v<U>) {
      return false;
    } else {
      return block::vector_transpose<U, Items>::fits;
    }
  }
  template <class U, int Items>
  static constexpr std::size_t vector_warp_bytes() {
    if constexpr (vectors_fit<U, Items>()) return block::vector_transpose<U, Items>::warp_bytes;
    return 0;
  }
  template <class U, int Items>
  static constexpr std::size_t transposed_bytes() {
    return sizeof(U) * block::warp_transpose<U, threads, Items>::warp_slots;
  }
  //! Each warp's exchange region: room for the transposes (loaded and finished items) and for every
  //! vector exchange, one at a time (every exchange ends with its reads done), in the same place.
  template <int Items>
  static constexpr std::size_t warp_region_bytes() {
    const std::size_t transposed = detail::max_of(transposed_bytes<exchanged, Items>(), transposed_bytes<finished, Items>());
    const std::size_t vectors    = detail::max_of(vector_warp_bytes<in_element, Items>(), vector_warp_bytes<out_element, Items>(),
                                                  vector_warp_bytes<key_element, Items>(), vector_warp_bytes<value_element, Items>());
    return detail::align_up(transposed > vectors ? transposed : vectors, 16);
  }
  //! Shared memory of a tile with `Items` per thread (exchange regions, block scan, broadcasts).
  template <int Items, bool Transpose>
  static constexpr std::size_t smem_for() {
    const std::size_t buffer = Transpose ? (threads / 32) * warp_region_bytes<Items>() : 0;
    const std::size_t scans  = sizeof(typename block::warp_totals_scan<T, threads>::storage);
    return detail::align_up(buffer, 16) + detail::align_up(scans, 16) + detail::align_up(sizeof(T), 16) + 16;
  }
  //! What a tile may take: the 48 KiB every block may use, or with the opt-in (guide 4.3.1) 64 KiB, what
  //! the smallest CUDA 13 target (sm_75) grants, so that every row runs on every device.
  static constexpr std::size_t smem_limit = Tuning::opt_in_large_smem ? 64 * 1024 : 48 * 1024;
  //! The warp transpose, unless even one item per thread would overflow the limit (accumulators of
  //! hundreds of bytes): then each thread loads its own items, which for such items are whole
  //! cache lines anyway.
  static constexpr bool transposes = Tuning::warp_transpose && smem_for<1, true>() <= smem_limit;
  //! The row's items per thread, fewer where the tile would overflow the limit.
  template <int Items>
  static constexpr int fitted_items() {
    if constexpr (Items <= 1 || smem_for<Items, transposes>() <= smem_limit) {
      return Items;
    } else {
      return fitted_items<Items - 1>();
    }
  }
  static constexpr int items      = fitted_items<ItemsPerThread>();
  static constexpr int tile_items = threads * items;
  static constexpr int smem_bytes = static_cast<int>(smem_for<items, transposes>());
  static_assert(alignof(T) <= 16, "accumulators aligned beyond 16 bytes are not supported");

  template <class U>
  using transpose_of = block::warp_transpose<U, threads, items>;
  using transpose    = transpose_of<exchanged>;
  //! Full tiles load (store) 16-byte vectors when the input (output) qualifies and is aligned at run time.
  static constexpr bool vector_loads  = transposes && vectors_fit<in_element, items>();
  static constexpr bool vector_stores = transposes && vectors_fit<out_element, items>();
  //! Tiles of one- or two-byte values whose input and output take vectors of the same width keep
  //! their items packed in the vectors' words from the load to the store (block::vector_transpose's
  //! `packed`), unpacked where folded: a quarter (half) of the registers of an item per register, so
  //! more blocks fit on an SM (a tuning's `packed_rows`). The same folds in the same order: the same
  //! bits as the other paths.
  //! Under a transform iterator, only where the items are of the array's type: the packed values are
  //! transformed once, as they arrive, and are then the items (load_packed).
  static constexpr bool packs_items = vector_loads && vector_stores &&
                                      detail::narrow_same_width<in_element, out_element>() &&
                                      in_source::template packs<T>;
  using packed_vectors = block::vector_transpose<std::conditional_t<packs_items, in_element, unsigned char>, items>;
  //! By-key tiles (full and partial) load keys and values as 16-byte vectors and form the flags in registers.
  static constexpr bool keyed_vector_loads =
      splits_keyed && transposes && vectors_fit<key_element, items>() && vectors_fit<value_element, items>();
  //! Those full tiles of unpacked items store each warp's segment by the bulk copy unit (sm_90 and newer)
  //! when a lane's vectors are an odd count, so that its blocked items are already in the memory's
  //! order, and the segment has at least the tuning's bulk_store_min_bytes (tuning/native.cuh).
  //! Whatever the pass; the device pass for sm_90 on alone takes it (`bulk_stores`).
  static constexpr bool bulk_store_fit = [] {
    constexpr std::size_t min_bytes = detail::bulk_store_min_bytes<Tuning>::value;
    if constexpr (vector_stores && !packs_items && min_bytes > 0) {
      using v = block::vector_transpose<out_element, items>;
      return v::lane_vectors % 2 == 1 && v::warp_bytes >= min_bytes;
    } else {
      return false;
    }
  }();
  static constexpr bool bulk_stores = bulk_store_fit && detail::has_bulk_copy;
  static constexpr std::size_t region_bytes = warp_region_bytes<items>();
  using scan      = block::warp_totals_scan<T, threads>;

  //! Carved out of the kernel's dynamic shared memory (raw bytes: T need not be trivially constructible).
  struct smem_view {
    unsigned char* warp_region;  //!< this warp's exchange region (transposes only)
    typename scan::storage* scan_storage;
    T* tile_prefix;
    std::int64_t* tile_ids;  //!< two slots, used alternately, so no barrier ends a tile

    __device__ explicit smem_view(unsigned char* raw) {
      std::size_t at = 0;
      warp_region    = raw + (threadIdx.x / 32) * region_bytes;
      at += transposes ? (threads / 32) * region_bytes : 0;
      scan_storage = reinterpret_cast<typename scan::storage*>(raw + at);
      at += detail::align_up(sizeof(typename scan::storage), 16);
      tile_prefix = reinterpret_cast<T*>(raw + at);
      at += detail::align_up(sizeof(T), 16);
      tile_ids = reinterpret_cast<std::int64_t*>(raw + at);
    }
    template <class U = exchanged>
    __device__ U* transpose_region() const { return reinterpret_cast<U*>(warp_region); }
    //! Every warp's exchange region, as one array (warp 0's first).
    template <class U>
    __device__ U* regions() const { return reinterpret_cast<U*>(warp_region - (threadIdx.x / 32) * region_bytes); }
    __device__ uint4* vector_region() const { return reinterpret_cast<uint4*>(warp_region); }
  };

  //! ---- Where a thread's items sit, and the loads and stores ----
  //! This thread's place in a tile: its items sit at offsets start + k * stride from the tile's first
  //! (warp-striped when transposing, else blocked).
  static constexpr int stride = transposes ? 32 : 1;
  __device__ static int thread_start() {
    const int lane    = static_cast<int>(threadIdx.x) % 32;
    const int warp_id = static_cast<int>(threadIdx.x) / 32;
    return transposes ? warp_id * transpose::warp_items + lane : static_cast<int>(threadIdx.x) * items;
  }
  //! The first item of this warp's segment of the tile at `base` (transposing tiles): where its
  //! 16-byte vectors start.
  __device__ static std::int64_t warp_first(std::int64_t base) {
    return base + static_cast<int>(threadIdx.x) / 32 * transpose::warp_items;
  }
  //! With narrow index arithmetic (guide 4.1.4) the iterators advance once per thread (64-bit) and
  //! items are constant 32-bit offsets from there; otherwise every access forms its 64-bit index.
  __device__ static Problem advanced(const Problem& p, std::int64_t first) {
    Problem q = p;
    if constexpr (Tuning::narrow_index_arithmetic) {
      q.in  = p.in + first;
      q.out = p.out + first;
    }
    return q;
  }

  //! Item `first + off` (global index); `q` has its iterators advanced to `first` already.
  __device__ __forceinline__ static T load(const Problem& q, const Problem& p, std::int64_t first, int off) {
    if constexpr (detail::loads_read_only<Tuning::load == load_kind::read_only, typename Problem::input_iterator>) {
      return static_cast<T>(Tuning::narrow_index_arithmetic ? __ldg(q.in + off) : __ldg(p.in + (first + off)));
    }
    if constexpr (Tuning::narrow_index_arithmetic) return q.load(off);
    return p.load(first + off);
  }

  __device__ __forceinline__ static void store(const Problem& q, const Problem& p, std::int64_t first, int off,
                                               const finished& y) {
    if constexpr (Tuning::narrow_index_arithmetic) {
      q.put(off, y);
    } else {
      p.put(first + off, y);
    }
  }

  //! Loads the `rest` (<= tile_items) items of the tile starting at `base` into `x`, blocked.
  __device__ static void load_items(const Problem& p, std::int64_t base, int rest, const smem_view& s, T (&x)[items]) {
    if constexpr (vector_loads) {
      const in_element* in = in_source::pointer(p.in);
      if (rest == tile_items && detail::aligned_16(in)) {  // whole vectors, from the warp's segment
        using vectors = block::vector_transpose<in_element, items>;
        typename vectors::vector v[vectors::lane_vectors];
        load_vectors(in + warp_first(base), v);
        vectors::striped_to_blocked(v, x, s.vector_region(), in_reader(p.in));
        return;
      }
    }
    const int start          = thread_start();
    const std::int64_t first = base + start;  // global index of this thread's first item
    const Problem q          = advanced(p, first);
    if (rest == tile_items) {  // no predicates: constant offsets from one address
#pragma unroll
      for (int k = 0; k < items; ++k) x[k] = load(q, p, first, k * stride);
    } else {  // predicated loads; missing items repeat the tile's first item
      const T fill = load(q, p, first, -start);
#pragma unroll
      for (int k = 0; k < items; ++k) x[k] = start + k * stride < rest ? load(q, p, first, k * stride) : fill;
    }
    if constexpr (transposes) transpose::striped_to_blocked(x, s.transpose_region());
  }

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
        load_vectors(in + warp_first(base), v);
      } else {
        load_vectors(in + warp_first(base), warp_rest(rest), in[base], v);
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
        store_vectors(p.out + warp_first(base), v);
      } else {
        store_vectors(p.out + warp_first(base), warp_rest(rest), v);
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

  //! This lane's 16-byte vectors of the warp segment starting at `warp_start` (vector k * 32 + lane
  //! in `v[k]`), for the exchange to the blocked arrangement.
  template <class U, int LaneVectors>
  __device__ static void load_vectors(const U* warp_start, uint4 (&v)[LaneVectors]) {
    const auto* src = reinterpret_cast<const uint4*>(warp_start) + threadIdx.x % 32;
#pragma unroll
    for (int k = 0; k < LaneVectors; ++k) v[k] = src[k * 32];
  }

  //! The inverse of load_vectors: this lane's vectors to the warp segment starting at `warp_start`.
  template <class U, int LaneVectors>
  __device__ static void store_vectors(U* warp_start, const uint4 (&v)[LaneVectors]) {
    auto* dst = reinterpret_cast<uint4*>(warp_start) + threadIdx.x % 32;
#pragma unroll
    for (int k = 0; k < LaneVectors; ++k) dst[k * 32] = v[k];
  }

  //! How many of this warp's segment's items lie in a tile of `rest` items (may be <= 0 or more than
  //! the segment holds).
  __device__ static int warp_rest(int rest) {
    return rest - static_cast<int>(threadIdx.x) / 32 * transpose::warp_items;
  }

  //! load_vectors for a segment of which only the first `rest` items exist: whole vectors up to there,
  //! the one that crosses it item by item, `fill` in place of the missing items: a partial tile then
  //! issues about the instructions of a full one, not a load and a shared-memory store per item.
  template <class U, int LaneVectors>
  __device__ static void load_vectors(const U* warp_start, int rest, U fill, uint4 (&v)[LaneVectors]) {
    constexpr int vector_items = static_cast<int>(sizeof(uint4) / sizeof(U));
    const int lane             = static_cast<int>(threadIdx.x) % 32;
#pragma unroll
    for (int k = 0; k < LaneVectors; ++k) {
      const int first = (k * 32 + lane) * vector_items;  // the vector's first item in the segment
      if (first + vector_items <= rest) {
        v[k] = reinterpret_cast<const uint4*>(warp_start)[k * 32 + lane];
      } else {
        U u[vector_items];
#pragma unroll
        for (int i = 0; i < vector_items; ++i) u[i] = first + i < rest ? warp_start[first + i] : fill;
        std::memcpy(&v[k], u, sizeof(uint4));
      }
    }
  }

  //! store_vectors of the segment's first `rest` items only.
  template <class U, int LaneVectors>
  __device__ static void store_vectors(U* warp_start, int rest, const uint4 (&v)[LaneVectors]) {
    constexpr int vector_items = static_cast<int>(sizeof(uint4) / sizeof(U));
    const int lane             = static_cast<int>(threadIdx.x) % 32;
#pragma unroll
    for (int k = 0; k < LaneVectors; ++k) {
      const int first = (k * 32 + lane) * vector_items;
      if (first + vector_items <= rest) {
        reinterpret_cast<uint4*>(warp_start)[k * 32 + lane] = v[k];
      } else if (first < rest) {
        U u[vector_items];
        std::memcpy(u, &v[k], sizeof(uint4));
#pragma unroll
        for (int i = 0; i < vector_items; ++i) {
          if (first + i < rest) warp_start[first + i] = u[i];
        }
      }
    }
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
    using key_vectors   = block::vector_transpose<key_element, items>;
    using value_vectors = block::vector_transpose<value_element, items>;
    const auto item          = keyed_in::item(p.in);
    const std::int64_t start = keyed_in::index(p.in);  // the problem's first item (a slice may start past 0)
    if (!detail::aligned_16(item.keys + start) || !detail::aligned_16(item.values + start)) return false;
    const int lane           = static_cast<int>(threadIdx.x) % 32;
    const std::int64_t first = start + warp_first(base);  // the warp's first item
    const std::int64_t after = first + transpose::warp_items;
    typename key_vectors::vector kv[key_vectors::lane_vectors];
    typename value_vectors::vector vv[value_vectors::lane_vectors];
    if (rest == tile_items) {
      load_vectors(item.keys + first, kv);
      load_vectors(item.values + first, vv);
    } else {
      const int warp_items = warp_rest(rest);
      load_vectors(item.keys + first, warp_items, item.keys[start + base], kv);
      load_vectors(item.values + first, warp_items, item.values[start + base], vv);
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

  //! Stores the first `rest` of the tile's finished items `y` (blocked).
  __device__ static void store_items(const Problem& p, std::int64_t base, int rest, const smem_view& s,
                                     finished (&y)[items]) {
    if constexpr (vector_stores) {
      // Full tiles only: partial tiles stored as vectors (the one crossing the end item by item)
      // measured 2-5% slower for 4- and 8-byte items than these coalesced item-by-item stores.
      if (rest == tile_items && detail::aligned_16(p.out)) {
        using vectors = block::vector_transpose<out_element, items>;
        out_element w[items];
#pragma unroll
        for (int j = 0; j < items; ++j) w[j] = static_cast<out_element>(y[j]);
        if constexpr (bulk_stores) {
          vectors::blocked_to_linear(w, s.vector_region());
          detail::warp_bulk_store(p.out + warp_first(base), s.vector_region(), vectors::warp_bytes);
          return;
        }
        typename vectors::vector v[vectors::lane_vectors];
        vectors::blocked_to_striped(w, v, s.vector_region());
        store_vectors(p.out + warp_first(base), v);
        return;
      }
    }
    // In the striped order when transposing (coalesced), else blocked.
    if constexpr (transposes) transpose_of<finished>::blocked_to_striped(y, s.template transpose_region<finished>());
    const int start          = thread_start();
    const std::int64_t first = base + start;
    const Problem q          = advanced(p, first);
#pragma unroll
    for (int k = 0; k < items; ++k) {
      if (rest == tile_items || start + k * stride < rest) store(q, p, first, k * stride, y[k]);
    }
  }

  //! ---- What the staged look-back (tile/staged_tile.cuh) moves ----
  //! Whether this tile may run staged: its full tiles load and store 16-byte vectors of elements of
  //! one width, its items not split by key, and packed items only in an accumulator of their own width
  //! (the packed rows': a stage is read a vector at a time; narrow items in a wider accumulator have
  //! neither been measured nor tested staged, so they keep the ordinary look-back).
  static constexpr bool stages_fit = [] {
    if constexpr (vector_loads && vector_stores && !splits_keyed) {
      return sizeof(in_element) == sizeof(out_element) && (!packs_items || sizeof(T) == sizeof(in_element));
    } else {
      return false;
    }
  }();
  using stage_vectors = block::vector_transpose<std::conditional_t<stages_fit, in_element, unsigned>, items>;
  //! A stage: the tile's input as each warp's vectors, at their exchange slots (block/vector_transpose.cuh).
  static constexpr int stage_bytes = stages_fit ? (threads / 32) * static_cast<int>(stage_vectors::warp_bytes) : 0;
  static_assert(stage_bytes <= static_cast<int>((threads / 32) * region_bytes),
                "the first stage is the exchange regions");

  //! Whether a call's input and output are 16-byte aligned, as the staged look-back needs (host or device).
  __host__ __device__ static bool stage_aligned(const Problem& p) {
    if constexpr (stages_fit) {
      return detail::aligned_16(in_source::pointer(p.in)) && detail::aligned_16(p.out);
    } else {
      return false;
    }
  }

  //! The staged look-back's copy of tile `tile`'s input into `stage`: every worker its vectors (warp-
  //! striped, so each warp's copies are coalesced) at their exchange slots, by the copy unit, one group.
  //! A partial tile's vector that crosses its end is read element by element (a partial copy would
  //! still address the whole 16 bytes past the input's end), padded with zeros, as later vectors are
  //! (read_stage_vector replaces the padding by the tile's first item).
  __device__ static void copy_tile(const Problem& p, std::int64_t tile, uint4* stage) {
    constexpr int vector_items = stage_vectors::vector_items;
    const in_element* in       = in_source::pointer(p.in);
    const std::int64_t base    = tile * tile_items;
    const std::int64_t left    = p.n - base;
    const int segment_rest     = warp_rest(left < tile_items ? static_cast<int>(left) : tile_items);
    const auto* src            = reinterpret_cast<const uint4*>(in + warp_first(base));
    uint4* region              = stage + threadIdx.x / 32 * stage_vectors::warp_vectors;
    const int lane             = static_cast<int>(threadIdx.x) % 32;
#pragma unroll
    for (int k = 0; k < stage_vectors::lane_vectors; ++k) {
      const int v    = k * 32 + lane;
      const int real = segment_rest - v * vector_items;  // real elements from this vector's first on
      uint4* to      = region + stage_vectors::slot(v);
      if (real >= vector_items) {
        detail::copy_16_async(to, src + v);
      } else {
        in_element u[vector_items];
        const in_element* from = in + warp_first(base) + v * vector_items;
#pragma unroll
        for (int i = 0; i < vector_items; ++i) {
          if (i < real) {
            u[i] = from[i];
          } else {
            std::memset(&u[i], 0, sizeof(in_element));
          }
        }
        std::memcpy(to, u, sizeof(uint4));
      }
    }
    detail::commit_copies();
  }

  //! A partial tile's padding (read_stage_vector): its first item, from the stage (warp 0's vector 0
  //! sits at slot 0). Read before any worker may write that slot (store_stage).
  __device__ static T stage_fill(const Problem& p, const uint4* stage) {
    in_element first;
    std::memcpy(&first, stage, sizeof(first));
    return in_reader(p.in)(first);
  }

  //! Vector j of this worker's blocked items of the tile in `stage` into `x` (x[i]: item j *
  //! vector_items + i), as load_items gives them: each element made an item by the input's reader;
  //! past the end of a partial tile (`left` < tile_items items from its first), `fill` (stage_fill).
  //! One vector's items at a time, so that tiles of many narrow items (packed rows) stage without
  //! holding all of them in registers.
  __device__ static void read_stage_vector(const Problem& p, const uint4* stage, int j, std::int64_t left,
                                           const T& fill, T (&x)[stage_vectors::vector_items]) {
    constexpr int vector_items = stage_vectors::vector_items;
    const int lane             = static_cast<int>(threadIdx.x) % 32;
    const uint4 w = stage[threadIdx.x / 32 * stage_vectors::warp_vectors +
                          stage_vectors::slot(lane * stage_vectors::lane_vectors + j)];
    in_element u[vector_items];
    std::memcpy(u, &w, sizeof(w));
    in_reader read(p.in);
#pragma unroll
    for (int i = 0; i < vector_items; ++i) x[i] = read(u[i]);
    if (left < tile_items) {  // uniform: the last tile
      const int first = static_cast<int>(warp_first(0)) + lane * items + j * vector_items;  // blocked
#pragma unroll
      for (int i = 0; i < vector_items; ++i) {
        if (first + i >= left) x[i] = fill;
      }
    }
  }
};

}  // namespace archscan::tile
