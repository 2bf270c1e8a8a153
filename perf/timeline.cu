//! \file archscan-timeline: when each tile of native's exclusive sums starts, has its aggregate, has
//! its prefix and has issued its stores, on the GPU's global timer, with the SM it ran on; the same
//! for native with its look-back folded as a tree (native_tree).
//!   archscan-timeline OUT.json [TYPE:LOG2N,...]
//! Cases (without a list): double at 2^21 (one wave), 2^22, 2^23 and 2^24, int32 at 2^22 and 2^23 (2^23: the bytes of
//! double's 2^22). Each case: a warm-up call, then five calls each after an L2 flush, the marks of
//! every call kept (perf/timeline.py reads them), the results checked against CUB. The marks come
//! from the `mark` hook (hooks.cuh) on native's own tuning: thread 0 reads the global timer and
//! stores it at each event (and the SM at the first), a few instructions a tile beside native's
//! own; they may move the kernel's register allocation, so its times are close to, not the same
//! as, the benchmark's (double 2^22: 41.5 us a call here, 38.6 us in archscan-bench, H100).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <nlohmann/json.hpp>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"

namespace {
using namespace archscan::perf;

constexpr int events = static_cast<int>(archscan::tile_event::count);
constexpr int slots  = events + 1;  // the events' times, then the SM

__device__ std::uint64_t* d_marks;       // slots words a tile
__device__ std::int64_t d_marked_tiles;  // room in d_marks, in tiles

struct timeline_hooks {
  __device__ static void mark(std::int64_t tile, archscan::tile_event e) {
    if (tile >= d_marked_tiles) return;
    std::uint64_t now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    std::uint64_t* at       = d_marks + tile * slots;
    at[static_cast<int>(e)] = now;
    if (e == archscan::tile_event::started) {
      unsigned sm;
      asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
      at[events] = sm;
    }
  }
};
//! The same marks on native with its look-back folded as a tree (not deterministic): how its
//! prefixes arrive beside the ordered walk's.
struct tree_timeline_hooks : timeline_hooks {
  static constexpr bool tree_fold = true;
};

template <class Hooks>
struct marked {
  using tuning                      = archscan::with_hooks<archscan::native_tuning, Hooks>;
  static constexpr const char* name = std::is_same_v<Hooks, timeline_hooks> ? "native" : "native_tree";
};

template <class Marked, class T>
nlohmann::json run_case(const char* type, std::size_t n, l2_flusher& flusher, cudaStream_t s, bool& ok) {
  // Tiles hold at least 1024 items (native's smallest, 256 threads x 4).
  const std::int64_t room = static_cast<std::int64_t>(n / 1024 + 64);
  device_buffer<T> in(n), out(n), ref(n);
  device_buffer<std::uint64_t> marks(static_cast<std::size_t>(room) * slots);
  std::uint64_t* marks_ptr = marks.get();
  check(cudaMemcpyToSymbol(d_marks, &marks_ptr, sizeof(marks_ptr)), "cudaMemcpyToSymbol");
  check(cudaMemcpyToSymbol(d_marked_tiles, &room, sizeof(room)), "cudaMemcpyToSymbol");
  fill_random(in.get(), n, 0x7113u ^ n, s);
  const cuda::std::plus<T> sum;
  const archscan::policy<typename Marked::tuning, false> native;
  auto call = [&] { thrust::exclusive_scan(native.on(s), in.get(), in.get() + n, out.get(), T{}, sum); };

  cub_call{[&](void* d_temp, std::size_t& bytes) {  // the reference
    return cub::DeviceScan::ExclusiveScan(d_temp, bytes, in.get(), ref.get(), sum, T{}, static_cast<std::int64_t>(n),
                                          s);
  }}();
  call();  // warm-up
  nlohmann::json runs = nlohmann::json::array();
  event_timer timer;
  for (int r = 0; r < 5; ++r) {
    check(cudaMemsetAsync(marks.get(), 0, marks.size() * sizeof(std::uint64_t), s), "cudaMemsetAsync");
    flusher.flush(s);
    const double ms = timer.time_ms(s, call);
    std::vector<std::uint64_t> h(marks.size());
    check(cudaMemcpyAsync(h.data(), marks.get(), h.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, s), "copy");
    check(cudaStreamSynchronize(s), "sync");
    nlohmann::json tiles = nlohmann::json::array();
    for (std::int64_t t = 0; t < room && h[static_cast<std::size_t>(t * slots)] != 0; ++t) {
      tiles.push_back(std::vector<std::uint64_t>(h.begin() + t * slots, h.begin() + (t + 1) * slots));
    }
    runs.push_back({{"ms", ms}, {"tiles", tiles}});
  }
  const auto bad = compare(out.get(), ref.get(), n, s);
  if (bad.count != 0) {
    std::printf("MISMATCH %s %s n=%zu: %zu items differ from CUB\n", Marked::name, type, n, bad.count);
    ok = false;
  }
  std::printf("%s %s n=2^%d: %zu tiles marked\n", Marked::name, type,
              static_cast<int>(std::log2(static_cast<double>(n))), runs.back()["tiles"].size());
  return {{"policy", Marked::name},
          {"type", type},
          {"n", n},
          {"events", {"started", "aggregated", "prefixed", "stored", "sm"}},
          {"runs", runs}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr,
                 "usage: archscan-timeline OUT.json [CASES]\n  CASES: TYPE:LOG2N,... (double, int32), native alone\n");
    return 2;
  }
  return run_program("archscan-timeline", [&](const cudaDeviceProp& prop) {
    stream_handle stream;
    l2_flusher flusher(prop);
    bool ok              = true;
    nlohmann::json cases = nlohmann::json::array();
    auto both            = [&](auto t, const char* type, int log_n) {
      using T             = decltype(t);
      const std::size_t n = std::size_t{1} << log_n;
      cases.push_back(run_case<marked<timeline_hooks>, T>(type, n, flusher, stream.get(), ok));
      cases.push_back(run_case<marked<tree_timeline_hooks>, T>(type, n, flusher, stream.get(), ok));
    };
    if (argc == 3) {  // the cases asked for, native alone (a large case's marks are megabytes a policy)
      std::string list = argv[2];
      for (std::size_t at = 0; at < list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        const std::string one   = list.substr(at, comma - at);
        const std::size_t colon = one.find(':');
        const std::string type  = one.substr(0, colon);
        const std::size_t n     = std::size_t{1} << std::stoi(one.substr(colon + 1));
        if (type == "double") {
          cases.push_back(run_case<marked<timeline_hooks>, double>("double", n, flusher, stream.get(), ok));
        } else if (type == "int32") {
          cases.push_back(run_case<marked<timeline_hooks>, std::int32_t>("int32", n, flusher, stream.get(), ok));
        } else {
          std::fprintf(stderr, "unknown type in %s\n", one.c_str());
          return false;
        }
        at = comma + 1;
      }
    } else {
      for (int log_n : {21, 22, 23, 24}) both(double{}, "double", log_n);
      for (int log_n : {22, 23}) both(std::int32_t{}, "int32", log_n);
    }
    std::ofstream(argv[1]) << nlohmann::json{
        {"device", prop.name}, {"sms", prop.multiProcessorCount}, {"cases", cases}};
    return ok;
  });
}
