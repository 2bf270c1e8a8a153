//! \file archscan-sweep: tile shapes and schedules of the kepler and turing families against CUB, in one
//! run, to choose the rows of their tunings. Exclusive sums of int32 and double at 2^14..2^28; median of
//! 25 calls after 3 warm-up, cold L2; ratio = CUB time / variant time (> 1: faster than CUB). Results are
//! checked against CUB. The chosen rows are recorded in tuning_*.cuh and docs/design-notes.md.

#include <cstdio>
#include <new>
#include <string>
#include <tuple>

#include <cub/device/device_scan.cuh>
#include <thrust/device_allocator.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"
#include "policies.cuh"

namespace {
using namespace archscan::perf;

//! A turing tuning with the 4- and 8-byte rows (threads, items, __launch_bounds__ minimum blocks)
//! and the look-back's waiting replaced. (The other schedule, resident blocks looping over tiles, is
//! an ablation: perf/ablations_turing.cuh.)
template <int T4, int I4, int M4, int T8, int I8, int M8, unsigned Backoff = 32, unsigned Delay = 0>
struct turing_shape : archscan::turing_tuning {
  using row_4                                 = shape_row<T4, I4, M4>;
  using row_8                                 = shape_row<T8, I8, M8>;
  static constexpr unsigned backoff_min_ns    = Backoff;
  static constexpr unsigned lookback_delay_ns = Delay;
  static std::string describe() {
    auto shape = [](int t, int i, int m) {
      return std::to_string(t) + "x" + std::to_string(i) + " (min " + std::to_string(m) + ")";
    };
    return "turing " + shape(T4, I4, M4) + " / " + shape(T8, I8, M8) +
           (Backoff ? " backoff " + std::to_string(Backoff) + "ns" : " spin") +
           (Delay ? " delay " + std::to_string(Delay) + "ns" : "");
  }
};

//! The policies' own tunings.
struct turing_as_is : archscan::turing_tuning {
  static std::string describe() { return "turing (tuning/turing.cuh)"; }
};
struct kepler_as_is : archscan::kepler_tuning {
  static std::string describe() { return "kepler (tuning/kepler.cuh)"; }
};

//! A kepler tuning with the 4- and 8-byte rows and the register cap replaced.
template <int T4, int I4, int T8, int I8, int MinBlocks, unsigned Delay = 0>
struct kepler_shape : archscan::kepler_tuning {
  using row_4                                 = shape_row<T4, I4, MinBlocks, 4>;
  using row_8                                 = shape_row<T8, I8, MinBlocks, 3>;
  static constexpr unsigned lookback_delay_ns = Delay;
  static std::string describe() {
    return "kepler " + std::to_string(T4) + "x" + std::to_string(I4) + " / " + std::to_string(T8) + "x" +
           std::to_string(I8) + " minblocks " + std::to_string(MinBlocks) +
           (Delay ? " delay " + std::to_string(Delay) + "ns" : "");
  }
};

using variants =
    std::tuple<turing_shape<256, 20, 2, 128, 12, 4>,  // the first tuning (H100, 2026-11-21)
               turing_shape<128, 40, 8, 256, 16, 4, 200, 1500>, turing_shape<128, 40, 8, 256, 16, 4, 200, 2000>,
               turing_shape<128, 40, 8, 256, 16, 4, 400, 1500>,
               kepler_shape<256, 24, 256, 12, 2>,  // the first tuning (H100, 2026-11-21)
               kepler_shape<256, 24, 256, 12, 4>, kepler_shape<256, 32, 256, 16, 4>, kepler_shape<128, 40, 128, 20, 8>,
               kepler_shape<128, 32, 128, 16, 8>, kepler_shape<256, 24, 256, 12, 2, 1000>,
               kepler_shape<256, 32, 256, 16, 4, 1000>, kepler_shape<128, 40, 128, 20, 8, 1000>,
               kepler_shape<128, 32, 128, 16, 8, 1500>>;

constexpr int log2_sizes[] = {14, 16, 20, 24, 26, 28};

//! `archscan-sweep small`: the cost of one call at small sizes (the target: no more than CUB's at
//! 2^10..2^16): the cooperative wave (small tiles or not) against the look-back, the carveout, and
//! the cost of the pool allocation (storage preallocated).
struct turing_lookback_only : archscan::turing_tuning {
  static constexpr int wave_max_tiles = 0;
  static std::string describe() { return "turing, look-back only"; }
};
struct turing_wave_full_tiles : archscan::turing_tuning {
  static constexpr bool wave_small_tiles = false;
  static std::string describe() { return "turing wave, full tiles only"; }
};
struct turing_carveout_unset : archscan::turing_tuning {
  static constexpr int carveout_percent = carveout_unset;
  static std::string describe() { return "turing, carveout unset"; }
};
//! Marks a variant to be timed with its temporary storage preallocated (a user allocator that hands
//! out one buffer), as CUB's timed call has it.
template <class Tuning>
struct preallocated : Tuning {
  static std::string describe() { return Tuning::describe() + ", storage preallocated"; }
};
template <class V>
struct preallocated_base {
  using type                  = V;
  static constexpr bool value = false;
};
template <class Tuning>
struct preallocated_base<preallocated<Tuning>> {
  using type                  = Tuning;
  static constexpr bool value = true;
};

//! A Thrust allocator that returns one preallocated buffer (enough for any call of the sweep).
struct fixed_allocator : thrust::device_allocator<char> {
  char* buffer      = nullptr;
  std::size_t bytes = 0;
  fixed_allocator(char* b, std::size_t n) : buffer(b), bytes(n) {}
  thrust::device_ptr<char> allocate(std::size_t n) {
    if (n > bytes) throw std::bad_alloc();
    return thrust::device_ptr<char>(buffer);
  }
  void deallocate(thrust::device_ptr<char>, std::size_t) {}
};

//! kepler's grid fill (guide 1.4.1): tiles shrink to `Small4`/`Small8` items per thread when full tiles
//! give fewer than `BlocksPerSm` blocks per SM; `Fill` false keeps full tiles.
template <bool Fill, int BlocksPerSm, int Small4, int Small8>
struct kepler_fill : archscan::kepler_tuning {
  struct row_4 : archscan::kepler_tuning::row_4 {
    static constexpr int small_items_per_thread = Small4;
  };
  struct row_8 : archscan::kepler_tuning::row_8 {
    static constexpr int small_items_per_thread = Small8;
  };
  static constexpr bool fill_grid            = Fill;
  static constexpr double fill_blocks_per_sm = BlocksPerSm;
  static std::string describe() {
    return Fill ? "kepler, fill below " + std::to_string(BlocksPerSm) + " blocks/SM with " + std::to_string(Small4) +
                      " / " + std::to_string(Small8) + " items"
                : std::string("kepler, no grid fill");
  }
};

using small_variants = std::tuple<turing_as_is, turing_wave_full_tiles, turing_lookback_only, turing_carveout_unset,
                                  preallocated<turing_as_is>, preallocated<turing_lookback_only>, kepler_as_is,
                                  kepler_fill<false, 4, 4, 3>, kepler_fill<true, 4, 4, 3>, kepler_fill<true, 1, 8, 4>>;

constexpr int small_log2_sizes[] = {10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22};

template <class T>
const char* type_name() {
  return std::is_same_v<T, int> ? "int32" : "double";
}

template <class T, class Variants, std::size_t Sizes>
bool run_type(cudaStream_t s, l2_flusher& flusher, const int (&sizes)[Sizes], int reps) {
  bool ok = true;
  for (int lg : sizes) {
    const std::size_t n = std::size_t{1} << lg;
    device_buffer<T> in(n), out(n), ref(n);
    fill_random(in.get(), n, 0x5eedu ^ n, s);
    const cub_call cub_scan([&](void* d_temp, std::size_t& bytes) {  // timed, and the reference
      return cub::DeviceScan::ExclusiveSum(d_temp, bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s);
    });
    const double cub_ms = median(time_calls(s, flusher, false, 3, reps, cub_scan));
    std::printf("| CUB | %s | 2^%d | %.2f | %.1f | 1.000 |\n", type_name<T>(), lg, cub_ms * 1e3,
                2.0 * n * sizeof(T) / (cub_ms * 1e-3) / 1e9);
    device_buffer<char> storage(std::size_t{16} << 20);
    auto one = [&](auto tag) {
      using variant = typename decltype(tag)::type;
      using tuning  = typename preallocated_base<variant>::type;
      const archscan::policy<tuning, false> policy{};
      fixed_allocator alloc(storage.get(), storage.size());
      auto call = [&] {
        if constexpr (preallocated_base<variant>::value) {
          thrust::exclusive_scan(policy(alloc).on(s), in.get(), in.get() + n, out.get());
        } else {
          thrust::exclusive_scan(policy.on(s), in.get(), in.get() + n, out.get());
        }
      };
      call();
      const mismatch_report m = compare(out.get(), ref.get(), n, s);
      const double ms         = median(time_calls(s, flusher, false, 3, reps, call));
      std::printf("| %s | %s | 2^%d | %.2f | %.1f | %.3f |%s\n", variant::describe().c_str(), type_name<T>(), lg,
                  ms * 1e3, 2.0 * n * sizeof(T) / (ms * 1e-3) / 1e9, cub_ms / ms, m.count ? " MISMATCH" : "");
      ok = ok && m.count == 0;
    };
    std::apply([&](auto... v) { (one(std::common_type<decltype(v)>{}), ...); }, Variants{});
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool small = argc > 1 && std::string(argv[1]) == "small";
  return run_program("archscan-sweep", [&](const cudaDeviceProp& prop) {
    std::printf(
        "# Tile-shape sweep\n\nDevice: %s; %s. Exclusive sums, non-blocking policies; median of %d calls "
        "after 3 warm-up, cold L2; ratio = CUB time / time.\n\n| variant | type | n | median (us) | GB/s | "
        "ratio to CUB |\n|---|---|---:|---:|---:|---:|\n",
        prop.name, version_line().c_str(), small ? 101 : 25);
    stream_handle stream;
    l2_flusher flusher(prop);
    bool ok = true;
    if (small) {
      ok &= run_type<int, small_variants>(stream.get(), flusher, small_log2_sizes, 101);
      ok &= run_type<double, small_variants>(stream.get(), flusher, small_log2_sizes, 101);
    } else {
      ok &= run_type<int, variants>(stream.get(), flusher, log2_sizes, 25);
      ok &= run_type<double, variants>(stream.get(), flusher, log2_sizes, 25);
    }
    return ok;
  });
}
