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
//! over them, and partial ones that keep narrow items packed (tile/packed_io.cuh), move 16 bytes per
//! lane (block/striped_vectors.cuh, block/vector_transpose.cuh, detail/vector_access.cuh); by-key
//! tiles read their keys and values as vectors and form the flags in registers (tile/keyed_loads.cuh,
//! detail/keyed.cuh); on sm_90, a warp's large segment whose blocked items are already in the
//! memory's order goes out as one bulk copy (the tuning's bulk_store_min_bytes, detail/bulk_copy.cuh).
//! The staged look-back's copies into shared memory and its reads from there are
//! tile/staged_tile.cuh's.
//!
//! Partial tiles pad their missing items with a copy of the tile's first item (by-key tiles: its
//! value, with no flag; no identity is needed): padding sits after every real item, so it reaches no
//! real output, only the last tile's aggregate, which no tile reads.

#include <cstdint>
#include <type_traits>

#include <archscan/block/striped_vectors.cuh>
#include <archscan/block/vector_transpose.cuh>
#include <archscan/block/warp_totals_scan.cuh>
#include <archscan/block/warp_transpose.cuh>
#include <archscan/detail/bulk_copy.cuh>
#include <archscan/detail/keyed.cuh>
#include <archscan/detail/math.cuh>
#include <archscan/detail/problem.cuh>
#include <archscan/detail/read_only.cuh>
#include <archscan/detail/vector_access.cuh>

namespace archscan::tile {

//! `Config`: one tile shape of a tuning (tuning/tile_config.cuh): its threads, its items_per_thread
//! (the row's full, small, large or single tiles', tuning/shape.cuh; fewer where the tile would not
//! fit, `items`) and how its items move.
template <class Problem, class Config>
struct transposed_io {
  using T                      = typename Problem::accum_type;
  static constexpr int threads = Config::threads;
  static_assert(threads % 32 == 0 && threads <= 1024, "block threads: a multiple of 32, at most 1024");
  //! What `finish` makes of a scanned item: what the stores write (converted to the output's type).
  using finished =
      std::decay_t<decltype(std::declval<const typename Problem::finish_type&>()(std::declval<const T&>()))>;

  //! By-key tiles (detail/keyed.cuh) hold a thread's items split, as their values and one word of
  //! flags (bit j: item j closes its segment), not as keyed<V> items: a register less an item (the
  //! flags' byte took one each), and exchanges of values, not of whole items, so smaller exchange
  //! regions. The items the scan folds are the same, so are the bits.
  static constexpr bool splits_keyed = detail::is_keyed_v<T> && Config::items_per_thread <= 32;
  using split_value                  = typename detail::keyed_value<T>::type;
  //! What loads exchange through the warp transpose: the values of split by-key items, else items.
  using exchanged = std::conditional_t<splits_keyed, split_value, T>;

  //! The element types that full tiles load and store as 16-byte vectors (detail/vector_access.cuh),
  //! void where the iterator does not qualify or the tuning does not ask for it. Inputs read their
  //! vectors from `in_source` (a pointer, or the array under a transform iterator) and make each
  //! element an item with its reader.
  using in_source = detail::vector_source<typename Problem::input_iterator>;
  using in_element =
      std::conditional_t<Config::vector_access && in_source::template reads<T>, typename in_source::element, void>;
  using in_reader = typename in_source::template reader<T>;
  using out_element =
      std::conditional_t<Config::vector_access, detail::vector_element_t<typename Problem::output_iterator>, void>;
  //! By-key inputs (detail/keyed.cuh) read their keys and values themselves when both qualify.
  using keyed_in = detail::keyed_source<typename Problem::input_iterator>;
  //! Keys and values as arithmetic elements only: keys move between lanes by shuffles.
  using key_element = std::conditional_t<Config::vector_access,
                                         detail::arithmetic_vector_element_t<typename keyed_in::key_iterator>, void>;
  using value_element =
      std::conditional_t<Config::vector_access, detail::arithmetic_vector_element_t<typename keyed_in::value_iterator>,
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
    const std::size_t transposed =
        detail::max_of(transposed_bytes<exchanged, Items>(), transposed_bytes<finished, Items>());
    const std::size_t vectors =
        detail::max_of(vector_warp_bytes<in_element, Items>(), vector_warp_bytes<out_element, Items>(),
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
  static constexpr std::size_t smem_limit = Config::opt_in_large_smem ? 64 * 1024 : 48 * 1024;
  //! The warp transpose, unless even one item per thread would overflow the limit (accumulators of
  //! hundreds of bytes): then each thread loads its own items, which for such items are whole
  //! cache lines anyway.
  static constexpr bool transposes = Config::warp_transpose && smem_for<1, true>() <= smem_limit;
  //! The row's items per thread, fewer where the tile would overflow the limit.
  template <int Items>
  static constexpr int fitted_items() {
    if constexpr (Items <= 1 || smem_for<Items, transposes>() <= smem_limit) {
      return Items;
    } else {
      return fitted_items<Items - 1>();
    }
  }
  static constexpr int items      = fitted_items<Config::items_per_thread>();
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
    constexpr std::size_t min_bytes = Config::bulk_store_min_bytes;
    if constexpr (vector_stores && !packs_items && min_bytes > 0) {
      using v = block::vector_transpose<out_element, items>;
      return v::lane_vectors % 2 == 1 && v::warp_bytes >= min_bytes;
    } else {
      return false;
    }
  }();
  static constexpr bool bulk_stores         = bulk_store_fit && detail::has_bulk_copy;
  static constexpr std::size_t region_bytes = warp_region_bytes<items>();
  using scan                                = block::warp_totals_scan<T, threads>;

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
    __device__ U* transpose_region() const {
      return reinterpret_cast<U*>(warp_region);
    }
    //! Every warp's exchange region, as one array (warp 0's first).
    template <class U>
    __device__ U* regions() const {
      return reinterpret_cast<U*>(warp_region - (threadIdx.x / 32) * region_bytes);
    }
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
  //! How many of this warp's segment's items lie in a tile of `rest` items (may be <= 0 or more than
  //! the segment holds).
  __device__ static int warp_rest(int rest) {
    return rest - static_cast<int>(threadIdx.x) / 32 * transpose::warp_items;
  }
  //! With narrow index arithmetic (guide 4.1.4) the iterators advance once per thread (64-bit) and
  //! items are constant 32-bit offsets from there; otherwise every access forms its 64-bit index.
  __device__ static Problem advanced(const Problem& p, std::int64_t first) {
    Problem q = p;
    if constexpr (Config::narrow_index_arithmetic) {
      q.in  = p.in + first;
      q.out = p.out + first;
    }
    return q;
  }

  //! Item `first + off` (global index); `q` has its iterators advanced to `first` already.
  __device__ __forceinline__ static T load(const Problem& q, const Problem& p, std::int64_t first, int off) {
    if constexpr (detail::loads_read_only<Config::read_only_loads, typename Problem::input_iterator>) {
      return static_cast<T>(Config::narrow_index_arithmetic ? __ldg(q.in + off) : __ldg(p.in + (first + off)));
    }
    if constexpr (Config::narrow_index_arithmetic) return q.load(off);
    return p.load(first + off);
  }

  __device__ __forceinline__ static void store(const Problem& q, const Problem& p, std::int64_t first, int off,
                                               const finished& y) {
    if constexpr (Config::narrow_index_arithmetic) {
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
        block::load_vectors(in + warp_first(base), v);
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
        block::store_vectors(p.out + warp_first(base), v);
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

  //! ---- Whether the staged look-back (tile/staged_tile.cuh) may take the tile ----
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
};

}  // namespace archscan::tile
