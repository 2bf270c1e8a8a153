//! \file archscan-roof: how close a kernel that only copies comes to a cudaMemcpyAsync at large n, by the
//! bytes each SM keeps in flight (native's fraction-of-copy targets: what a tile-shaped kernel could
//! reach on this GPU if its scan cost nothing).
//!   archscan-roof [reps = 31] [sections = int32,narrow,wide]
//! Section int32: int32 at 2^24 .. 2^30 items, each case timed as archscan-bench times one (an L2
//! flush, CUDA events around the one call, median of `reps` after 3 warm-up calls):
//!   memcpy            cudaMemcpyAsync of the input to the output (the targets' yardstick)
//!   copy_grid         one 16-byte vector a thread over as many 256-thread blocks as it takes
//!   tile_TxI_bB       a tile of T threads x I int32 items a block, one tile a block in tile order: every
//!                     lane loads its I / 4 vectors (striped, so each load instruction is coalesced), then
//!                     stores them; B blocks an SM at most (dynamic shared memory bounds the residency), so
//!                     B x T x I x 4 bytes an SM in flight. 256x32 at 4 is native's int32 tile and residency.
//!   tile_..._x        the same with the stores' exchange through shared memory and a barrier, as a scan
//!                     tile's store phase has (each warp stores what another warp loaded)
//!   native            thrust::exclusive_scan(archscan::native_nosync) of the input
//!   native_unstaged   native's row without the staged look-back (tuning/shape.cuh, example_staged_row)
//!   native_staged     native's row staged from every look-back size, where the device takes it
//!                     (tuning/native.cuh, staged_min_memory_gbps); _b2: at 2 blocks an SM;
//!                     _prefetchP: with the L2 prefetch P percent of the first set ahead (native: 50)
//!   cub               cub::DeviceScan::ExclusiveSum
//! Section narrow: int16 and int8 at 2^26 .. 2^30 (their packed rows: tuning/native.cuh, packed_rows):
//! memcpy, native, native_unstaged (never staged), native_staged (from every look-back size, 3 blocks an
//! SM; _b2: 2) and cub.
//! Section wide: int64 and double at 2^21 .. 2^30 (row_8): memcpy, native, native_unstaged and
//! native_staged as above (the row's large tiles from its large_from_items), the same with full tiles
//! at every size (_full; only full tiles stage; _b2: 2 blocks an SM) and cub.
//! Every copy is checked against its input, native against CUB (double: against the unstaged scan of
//! the same tiles, bit for bit). One table on stdout: the median time,
//! the bytes read and written a second, the fraction of the copy (memcpy's time over the case's), and
//! the blocks an SM the occupancy calculator allows (with the bytes an SM then keeps in flight). Exit
//! status 1 after a mismatch.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cub/device/device_scan.cuh>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"
#include "policies.cuh"

namespace {
using namespace archscan::perf;

__global__ void copy_grid_kernel(const int4* in, int4* out, std::size_t vectors) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < vectors) out[i] = in[i];
}

//! One tile a block: `Vectors` 16-byte vectors a lane, striped over the block, loaded together, then
//! stored (through shared memory when `Exchange`: lane t stores the vectors lane t + 32 loaded, so every
//! warp waits at the barrier for another's loads, as a scan tile's transposed stores do). The tiles
//! cover the input exactly (n a multiple of the tile). MinBlocks caps the registers as native's rows do.
template <int Threads, int Vectors, int MinBlocks, bool Exchange>
__global__ void __launch_bounds__(Threads, MinBlocks) tile_copy_kernel(const int4* in, int4* out) {
  extern __shared__ int4 stage[];
  const std::size_t base = blockIdx.x * std::size_t{Threads} * Vectors;
  int4 v[Vectors];
#pragma unroll
  for (int k = 0; k < Vectors; ++k) v[k] = in[base + static_cast<std::size_t>(k) * Threads + threadIdx.x];
  unsigned lane = threadIdx.x;
  if constexpr (Exchange) {
#pragma unroll
    for (int k = 0; k < Vectors; ++k) stage[k * Threads + threadIdx.x] = v[k];
    __syncthreads();
    lane = (threadIdx.x + 32) % Threads;
#pragma unroll
    for (int k = 0; k < Vectors; ++k) v[k] = stage[k * Threads + lane];
  }
#pragma unroll
  for (int k = 0; k < Vectors; ++k) out[base + static_cast<std::size_t>(k) * Threads + lane] = v[k];
}

//! A tile copy's shape: its kernel, and the dynamic shared memory that lets at most `blocks` of it
//! share an SM (at least the exchange's tile).
struct tile_case {
  std::string name;
  const void* kernel;
  int threads, items, blocks;
  bool exchange;
};

template <int Threads, int Items, int Blocks, bool Exchange>
tile_case make_tile_case() {
  static_assert(Items % 4 == 0, "whole 16-byte vectors of int32");
  return {"tile_" + std::to_string(Threads) + "x" + std::to_string(Items) + "_b" + std::to_string(Blocks) +
              (Exchange ? "_x" : ""),
          reinterpret_cast<const void*>(tile_copy_kernel<Threads, Items / 4, Blocks, Exchange>),
          Threads,
          Items,
          Blocks,
          Exchange};
}

//! The dynamic shared memory a block takes so that no more than `blocks` fit an SM.
int residency_smem(const cudaDeviceProp& prop, const tile_case& c) {
  const int per_block =
      static_cast<int>(prop.sharedMemPerMultiprocessor / c.blocks) - static_cast<int>(prop.reservedSharedMemPerBlock);
  const int tile = c.exchange ? c.threads * c.items * 4 : 0;
  return std::min(std::max(per_block, tile), static_cast<int>(prop.sharedMemPerBlockOptin));
}

struct row {
  std::string name;
  const char* type;
  std::size_t bytes;  // an item's
  std::size_t n;
  double us;
  int blocks_per_sm;     // 0: not a tile copy
  double kib_in_flight;  // an SM's resident tiles' bytes
};

}  // namespace

int main(int argc, char** argv) {
  return run_program("archscan-roof", [&](const cudaDeviceProp& prop) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 31;
    // Sections to run (argv[2], comma-separated): int32, narrow, wide; all by default.
    const std::string sections = argc > 2 ? argv[2] : "int32,narrow,wide";
    const auto wants           = [&](const char* section) {
      return ("," + sections + ",").find("," + std::string(section) + ",") != std::string::npos;
    };
    stream_handle stream;
    const cudaStream_t s = stream.get();
    l2_flusher flusher(prop);
    std::printf("archscan-roof on %s (%d SMs, %zu KiB shared memory an SM), %s; %d calls a case, median\n", prop.name,
                prop.multiProcessorCount, prop.sharedMemPerMultiprocessor / 1024, version_line().c_str(), reps);
    const std::vector<tile_case> tiles = {
        make_tile_case<256, 32, 2, false>(), make_tile_case<256, 32, 3, false>(),  make_tile_case<256, 32, 4, false>(),
        make_tile_case<256, 32, 4, true>(),  make_tile_case<256, 32, 6, false>(),  make_tile_case<256, 16, 8, false>(),
        make_tile_case<256, 64, 2, false>(), make_tile_case<256, 64, 3, false>(),  make_tile_case<512, 32, 2, false>(),
        make_tile_case<512, 32, 2, true>(),  make_tile_case<1024, 32, 1, false>(),
    };
    for (const tile_case& c : tiles)
      check(cudaFuncSetAttribute(c.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, residency_smem(prop, c)),
            "shared memory opt-in");
    bool ok = true;
    std::vector<row> rows;
    // One case: `call` once on a poisoned output, checked against `want` (none: nullptr), then timed.
    auto measure = [&](const std::string& name, const char* type, auto* d_out, const auto* want, std::size_t n,
                       const std::function<void()>& call, int blocks_per_sm, double kib_in_flight) {
      using T = std::remove_pointer_t<decltype(d_out)>;
      check(cudaMemsetAsync(d_out, 0xff, n * sizeof(T), s), "poison");
      call();
      if (want != nullptr) {
        const mismatch_report m = compare(static_cast<const T*>(d_out), want, n, s);
        if (m.count != 0) {
          std::fprintf(stderr, "MISMATCH: %s %s at n=%zu: %llu items differ from its reference, first at %llu\n", type,
                       name.c_str(), n, m.count, m.first);
          ok = false;
        }
      }
      rows.push_back({name, type, sizeof(T), n, median(time_calls(s, flusher, false, 3, reps, call)) * 1e3,
                      blocks_per_sm, kib_in_flight});
    };
    for (const int log_n : {24, 25, 26, 27, 28, 29, 30}) {
      if (!wants("int32")) break;
      const std::size_t n = std::size_t{1} << log_n;
      device_buffer<int> in(n), out(n), ref(n);
      fill_random(in.get(), n, 0x700fu ^ n, s);
      const std::size_t vectors = n / 4;
      const auto* vin           = reinterpret_cast<const int4*>(in.get());
      auto* vout                = reinterpret_cast<int4*>(out.get());
      const cub_call cub_scan([&](void* d_temp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(d_temp, bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s);
      });
      cub_scan();  // the reference for native

      enum class expect { none, copy, scan };
      struct named_call {
        std::string name;
        std::function<void()> call;
        expect out;
        int blocks_per_sm;
        double kib_in_flight;
      };
      std::vector<named_call> calls;
      calls.push_back(
          {"memcpy",
           [&] { check(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(int), cudaMemcpyDeviceToDevice, s), "memcpy"); },
           expect::copy, 0, 0});
      calls.push_back({"copy_grid",
                       [&] {
                         copy_grid_kernel<<<static_cast<unsigned>((vectors + 255) / 256), 256, 0, s>>>(vin, vout,
                                                                                                       vectors);
                         check_launch("copy_grid_kernel");
                       },
                       expect::copy, 0, 0});
      for (const tile_case& c : tiles) {
        const int smem = residency_smem(prop, c);
        int resident   = 0;
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, c.kernel, c.threads,
                                                            static_cast<std::size_t>(smem)),
              "occupancy");
        const auto grid = static_cast<unsigned>(n / (static_cast<std::size_t>(c.threads) * c.items));
        calls.push_back({c.name,
                         [&, c, smem, grid] {
                           void* args[] = {&vin, &vout};
                           check(cudaLaunchKernel(c.kernel, dim3(grid), dim3(static_cast<unsigned>(c.threads)), args,
                                                  static_cast<std::size_t>(smem), s),
                                 "tile_copy_kernel");
                         },
                         expect::copy, resident, resident * c.threads * c.items * 4 / 1024.0});
      }
      calls.push_back(
          {"native", [&] { thrust::exclusive_scan(archscan::native_nosync.on(s), in.get(), in.get() + n, out.get()); },
           expect::scan, 0, 0});
      auto variant = [&](const auto& policy) {
        return [&, policy] { thrust::exclusive_scan(policy.on(s), in.get(), in.get() + n, out.get()); };
      };
      // The staged look-back (tuning/shape.cuh, example_staged_row): native takes it from 2^27 on devices of
      // fast memory; here off, from every look-back size, and at 2 blocks an SM.
      constexpr std::int64_t never = INT64_MAX;
      calls.push_back({"native_unstaged", variant(nosync_policy<native_int32_shaped<256, 32, 4, 1500, 50, never>>),
                       expect::scan, 0, 0});
      calls.push_back(
          {"native_staged", variant(nosync_policy<native_int32_shaped<256, 32, 4, 1500, 50, 0>>), expect::scan, 0, 0});
      calls.push_back({"native_staged_b2", variant(nosync_policy<native_int32_shaped<256, 32, 4, 1500, 50, 0, 2>>),
                       expect::scan, 0, 0});
      calls.push_back({"native_staged_prefetch35", variant(nosync_policy<native_int32_shaped<256, 32, 4, 1500, 35, 0>>),
                       expect::scan, 0, 0});
      calls.push_back({"native_staged_prefetch75", variant(nosync_policy<native_int32_shaped<256, 32, 4, 1500, 75, 0>>),
                       expect::scan, 0, 0});
      calls.push_back({"cub", [&] { cub_scan(); }, expect::none, 0, 0});
      for (const auto& c : calls) {
        const int* want = c.out == expect::none ? nullptr : c.out == expect::copy ? in.get() : ref.get();
        measure(c.name, "int32", out.get(), want, n, c.call, c.blocks_per_sm, c.kib_in_flight);
      }
    }
    // The narrow types' packed rows, staged or not (each case checked against CUB).
    auto narrow_cases = [&](auto zero, const char* type) {
      using T = decltype(zero);
      for (const int log_n : {26, 27, 28, 29, 30}) {
        const std::size_t n = std::size_t{1} << log_n;
        device_buffer<T> in(n), out(n), ref(n);
        fill_random(in.get(), n, 0x700fu ^ n ^ sizeof(T), s);
        const cub_call cub_scan([&](void* d_temp, std::size_t& bytes) {
          return cub::DeviceScan::ExclusiveSum(d_temp, bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s);
        });
        cub_scan();
        auto scan = [&](const auto& policy) {
          return [&, policy] { thrust::exclusive_scan(policy.on(s), in.get(), in.get() + n, out.get()); };
        };
        constexpr std::int64_t never                                           = INT64_MAX;
        const std::vector<std::pair<std::string, std::function<void()>>> calls = {
            {"memcpy",
             [&] {
               check(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(T), cudaMemcpyDeviceToDevice, s), "memcpy");
             }},
            {"native", scan(archscan::native_nosync)},
            {"native_unstaged", scan(nosync_policy<native_packed_staged<never>>)},
            {"native_staged", scan(nosync_policy<native_packed_staged<0>>)},
            {"native_staged_b2", scan(nosync_policy<native_packed_staged<0, 2>>)},
            {"cub", [&] { cub_scan(); }},
        };
        for (const auto& [name, call] : calls) {
          const T* want = name == "cub" ? nullptr : name == "memcpy" ? in.get() : ref.get();
          measure(name, type, out.get(), want, n, call, 0, 0);
        }
      }
    };
    if (wants("narrow")) {
      narrow_cases(std::int16_t{}, "int16");
      narrow_cases(std::int8_t{}, "int8");
    }
    // The 8-byte row, staged or not, with its large tiles or its full tiles at every look-back size (only
    // full tiles stage). int64 is checked against CUB; double, whose sums round by association, against
    // the unstaged scan of the same tiles, bit for bit (staging changes the timing, not the folds).
    auto wide_cases = [&](auto zero, const char* type) {
      using T                      = decltype(zero);
      constexpr bool exact         = std::is_integral_v<T>;
      constexpr std::int64_t never = INT64_MAX;
      for (const int log_n : {21, 22, 23, 24, 26, 28, 30}) {
        const std::size_t n = std::size_t{1} << log_n;
        device_buffer<T> in(n), out(n), ref(n), ref_full(n);
        fill_random(in.get(), n, 0x800fu ^ n ^ sizeof(T), s);
        const cub_call cub_scan([&](void* d_temp, std::size_t& bytes) {
          return cub::DeviceScan::ExclusiveSum(d_temp, bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s);
        });
        auto scan_into = [&](const auto& policy, T* d_out) {
          return [&, policy, d_out] { thrust::exclusive_scan(policy.on(s), in.get(), in.get() + n, d_out); };
        };
        using unstaged      = native_row8_staged<never>;
        using unstaged_full = native_row8_staged<never, 3, never>;
        if (exact) {
          cub_scan();
          scan_into(nosync_policy<unstaged_full>, ref_full.get())();  // checked below against CUB's
        } else {
          scan_into(nosync_policy<unstaged>, ref.get())();
          scan_into(nosync_policy<unstaged_full>, ref_full.get())();
        }
        const T* tiles_ref = ref.get();
        const T* full_ref  = exact ? ref.get() : ref_full.get();
        struct wide_call {
          std::string name;
          std::function<void()> call;
          const T* want;
        };
        const std::vector<wide_call> calls = {
            {"memcpy",
             [&] { check(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(T), cudaMemcpyDeviceToDevice, s), "memcpy"); },
             in.get()},
            {"native", scan_into(archscan::native_nosync, out.get()), tiles_ref},
            {"native_unstaged", scan_into(nosync_policy<unstaged>, out.get()), tiles_ref},
            {"native_staged", scan_into(nosync_policy<native_row8_staged<0>>, out.get()), tiles_ref},
            {"native_unstaged_full", scan_into(nosync_policy<unstaged_full>, out.get()), full_ref},
            {"native_staged_full", scan_into(nosync_policy<native_row8_staged<0, 3, never>>, out.get()), full_ref},
            {"native_staged_full_b2", scan_into(nosync_policy<native_row8_staged<0, 2, never>>, out.get()), full_ref},
            {"cub", [&] { cub_scan(); }, nullptr},
        };
        for (const auto& c : calls) measure(c.name, type, out.get(), c.want, n, c.call, 0, 0);
      }
    };
    if (wants("wide")) {
      wide_cases(std::int64_t{}, "int64");
      wide_cases(double{}, "double");
    }
    std::printf(
        "\n| case | type | n | us | GB/s | fraction of copy | blocks an SM | KiB an SM in flight |\n"
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    double copy_us = 0;
    for (const row& r : rows) {
      if (r.name == "memcpy") copy_us = r.us;
      const double gbps = 2.0 * static_cast<double>(r.n * r.bytes) / (r.us * 1e-6) / 1e9;
      std::printf("| %s | %s | 2^%d | %.1f | %.0f | %.3f | %s | %s |\n", r.name.c_str(), r.type, __builtin_ctzll(r.n),
                  r.us, gbps, copy_us / r.us, r.blocks_per_sm ? std::to_string(r.blocks_per_sm).c_str() : "-",
                  r.blocks_per_sm ? std::to_string(static_cast<int>(r.kib_in_flight)).c_str() : "-");
    }
    return ok;
  });
}
