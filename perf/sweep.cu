//! \file archscan-sweep: tile shapes and schedules of the kepler and turing families against CUB, in one
//! run, to choose the rows of their tunings. Exclusive sums of int32 and double at 2^14..2^28; median of
//! 25 calls after 3 warm-up, cold L2; ratio = CUB time / variant time (> 1: faster than CUB). Results are
//! checked against CUB. The chosen rows are recorded in tuning_*.cuh and perf/NOTES.md.

#include <cstdio>
#include <string>
#include <tuple>

#include <cub/device/device_scan.cuh>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"

namespace {
using namespace archscan::perf;

//! A turing tuning with the 4- and 8-byte rows (threads, items, __launch_bounds__ minimum blocks)
//! and the schedule replaced.
template <int T4, int I4, int M4, int T8, int I8, int M8, archscan::tile_schedule S, unsigned Backoff = 32,
          unsigned Delay = 0>
struct turing_shape : archscan::turing_tuning {
  struct row_4 {
    static constexpr int block_threads     = T4;
    static constexpr int items_per_thread  = I4;
    static constexpr int min_blocks_per_sm = M4;
  };
  struct row_8 {
    static constexpr int block_threads     = T8;
    static constexpr int items_per_thread  = I8;
    static constexpr int min_blocks_per_sm = M8;
  };
  template <std::size_t B>
  using row = std::conditional_t<(B <= 4), row_4, std::conditional_t<(B <= 8), row_8, turing_tuning::row<B>>>;
  static constexpr archscan::tile_schedule schedule = S;
  static constexpr unsigned backoff_min_ns          = Backoff;
  static constexpr unsigned lookback_delay_ns       = Delay;
  static std::string describe() {
    auto shape = [](int t, int i, int m) {
      return std::to_string(t) + "x" + std::to_string(i) + " (min " + std::to_string(m) + ")";
    };
    return "turing " + shape(T4, I4, M4) + " / " + shape(T8, I8, M8) +
           (S == archscan::tile_schedule::resident ? " resident" : " grid=tiles") +
           (Backoff ? " backoff " + std::to_string(Backoff) + "ns" : " spin") +
           (Delay ? " delay " + std::to_string(Delay) + "ns" : "");
  }
};

//! A kepler tuning with the 4- and 8-byte rows and the register cap replaced.
template <int T4, int I4, int T8, int I8, int MinBlocks, unsigned Delay = 0>
struct kepler_shape : archscan::kepler_tuning {
  struct row_4_bytes {
    static constexpr int block_threads          = T4;
    static constexpr int items_per_thread       = I4;
    static constexpr int small_items_per_thread = 4;
  };
  struct row_8_bytes {
    static constexpr int block_threads          = T8;
    static constexpr int items_per_thread       = I8;
    static constexpr int small_items_per_thread = 3;
  };
  static constexpr int min_blocks_per_sm = MinBlocks;
  static constexpr unsigned lookback_delay_ns = Delay;
  static std::string describe() {
    return "kepler " + std::to_string(T4) + "x" + std::to_string(I4) + " / " + std::to_string(T8) + "x" +
           std::to_string(I8) + " minblocks " + std::to_string(MinBlocks) +
           (Delay ? " delay " + std::to_string(Delay) + "ns" : "");
  }
};

using archscan::tile_schedule;
using variants = std::tuple<
    turing_shape<256, 20, 2, 128, 12, 4, tile_schedule::one_per_block>,  // the tuning of run F
    turing_shape<128, 40, 8, 256, 16, 4, tile_schedule::one_per_block, 200, 1500>,
    turing_shape<128, 40, 8, 256, 16, 4, tile_schedule::one_per_block, 200, 2000>,
    turing_shape<128, 40, 8, 256, 16, 4, tile_schedule::one_per_block, 400, 1500>,
    kepler_shape<256, 24, 256, 12, 2>,  // the tuning of run F
    kepler_shape<256, 24, 256, 12, 4>,
    kepler_shape<256, 32, 256, 16, 4>,
    kepler_shape<128, 40, 128, 20, 8>,
    kepler_shape<128, 32, 128, 16, 8>,
    kepler_shape<256, 24, 256, 12, 2, 1000>,
    kepler_shape<256, 32, 256, 16, 4, 1000>,
    kepler_shape<128, 40, 128, 20, 8, 1000>,
    kepler_shape<128, 32, 128, 16, 8, 1500>>;

constexpr int log2_sizes[] = {14, 16, 20, 24, 26, 28};

template <class T>
const char* type_name() {
  return std::is_same_v<T, int> ? "int32" : "double";
}

template <class T>
bool run_type(cudaStream_t s, l2_flusher& flusher) {
  bool ok = true;
  for (int lg : log2_sizes) {
    const std::size_t n = std::size_t{1} << lg;
    device_buffer<T> in(n), out(n), ref(n);
    fill_random(in.get(), n, 0x5eedu ^ n, s);
    std::size_t bytes = 0;
    check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s), "cub");
    device_buffer<unsigned char> temp(bytes);
    auto cub_call = [&] {
      check(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s),
            "cub");
    };
    const double cub_ms = median(time_calls(s, flusher, false, 3, 25, cub_call));
    std::printf("| CUB | %s | 2^%d | %.2f | %.1f | 1.000 |\n", type_name<T>(), lg, cub_ms * 1e3,
                2.0 * n * sizeof(T) / (cub_ms * 1e-3) / 1e9);
    auto one = [&](auto tag) {
      using tuning = typename decltype(tag)::type;
      const archscan::policy<tuning, false> policy{};
      auto call = [&] { thrust::exclusive_scan(policy.on(s), in.get(), in.get() + n, out.get()); };
      call();
      const mismatch_report m = compare(out.get(), ref.get(), n, s);
      const double ms         = median(time_calls(s, flusher, false, 3, 25, call));
      std::printf("| %s | %s | 2^%d | %.2f | %.1f | %.3f |%s\n", tuning::describe().c_str(), type_name<T>(), lg,
                  ms * 1e3, 2.0 * n * sizeof(T) / (ms * 1e-3) / 1e9, cub_ms / ms, m.count ? " MISMATCH" : "");
      ok = ok && m.count == 0;
    };
    std::apply([&](auto... v) { (one(std::common_type<decltype(v)>{}), ...); }, variants{});
  }
  return ok;
}

}  // namespace

int main() {
  return run_program("archscan-sweep", [&](const cudaDeviceProp& prop) {
    std::printf("# Tile-shape sweep\n\nDevice: %s; %s. Exclusive sums, non-blocking policies; median of 25 calls "
                "after 3 warm-up, cold L2; ratio = CUB time / time.\n\n| variant | type | n | median (us) | GB/s | "
                "ratio to CUB |\n|---|---|---:|---:|---:|---:|\n",
                prop.name, version_line().c_str());
    stream_handle stream;
    l2_flusher flusher(prop);
    bool ok = run_type<int>(stream.get(), flusher);
    ok &= run_type<double>(stream.get(), flusher);
    return ok;
  });
}
