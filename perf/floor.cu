//! \file archscan-floor: what one small call costs, piece by piece (native's launch floor: a scan of
//! n <= 2^16 items within 1.05x of a cudaMemcpyAsync of the same bytes).
//!   archscan-floor [reps = 201]
//! For int32 at 2^10, 2^11, 2^12, 2^13 and 2^16 items, each timed as archscan-bench times a case (perf/common.cuh:
//! an L2 flush, then CUDA events around the one call, median of `reps`; and again with a hot L2):
//!   memcpy           cudaMemcpyAsync of the input to the output (the target's yardstick)
//!   empty            one block of 32 threads that does nothing (the launch alone)
//!   copy_block       one block of 256 threads copies the input (one SM's load and store latency)
//!   copy_block_32k   the same with 32 KiB of dynamic shared memory (a native int32 tile's size class:
//!                    does leaving the memset's carveout cost a reconfiguration?)
//!   copy_block_96k   the same with 96 KiB (opted in)
//!   copy_grid        one 16-byte vector a thread over as many blocks as it takes (a copy kernel)
//!   copy_cluster16   16 blocks in one thread block cluster, each copying a sixteenth, with a cluster
//!                    barrier between load and store (native's cluster route without the scan)
//!   copy_cluster16_32k  the same with 32 KiB of shared memory a block
//!   copy_grid_coop   copy_grid launched cooperatively, with a grid barrier between load and store
//!                    (native's wave route without the scan)
//!   memset_copy_grid a cudaMemsetAsync of 4 KiB, then copy_grid (two launches: the look-back's reset
//!                    and scan without a dependent launch)
//!   native           thrust::exclusive_scan(archscan::native_nosync) of the input
//!   native_TxI       the same with native's int32 row as T threads of I items in every tile (a user's
//!                    tuning): where one tile of that shape covers n, what the tile's own latency costs
//!                    (native: 256x4 up to 2^10, 256x32 up to 2^13)
//!   cub              cub::DeviceScan::ExclusiveSum (storage allocated before)
//! Every copy is checked against its input, native against CUB. One table on stdout (medians in us, and
//! each over memcpy's; and `host`, the median time the host spends enqueueing one call, which the cold
//! column's flush hides and the hot column's idle GPU waits out); exit status 1 after a mismatch.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <cooperative_groups.h>
#include <cub/device/device_scan.cuh>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"
#include "policies.cuh"

namespace {
using namespace archscan::perf;

__global__ void empty_kernel() {}

//! Copies `vectors` 16-byte vectors, one a thread a step, over the whole grid. Dynamic shared memory
//! (the launch's), if any (`touch`), is written once, so that the launch must place it.
__global__ void copy_kernel(const int4* in, int4* out, std::size_t vectors, bool touch) {
  extern __shared__ int4 smem[];
  if (touch && threadIdx.x == 0) smem[0] = int4{};
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < vectors;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = in[i];
}

//! One cluster: every block loads its share into registers, the cluster meets, then every block stores.
__global__ void copy_cluster_kernel(const int4* in, int4* out, std::size_t vectors, bool touch) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ int4 smem[];
  if (touch && threadIdx.x == 0) smem[0] = int4{};
  constexpr int per_thread = 8;  // 2^16 ints over 16 blocks of 128 threads
  int4 v[per_thread];
  const std::size_t base = blockIdx.x * std::size_t{blockDim.x} * per_thread + threadIdx.x;
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    const std::size_t i = base + static_cast<std::size_t>(k) * blockDim.x;
    if (i < vectors) v[k] = in[i];
  }
  cooperative_groups::this_cluster().sync();
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    const std::size_t i = base + static_cast<std::size_t>(k) * blockDim.x;
    if (i < vectors) out[i] = v[k];
  }
#else
  (void)in, (void)out, (void)vectors, (void)touch;
  __trap();
#endif
}

//! One vector a thread, loaded, then a grid barrier (every block resident: a cooperative launch), then
//! stored.
__global__ void copy_grid_barrier_kernel(const int4* in, int4* out, std::size_t vectors) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  int4 v{};
  if (i < vectors) v = in[i];
  cooperative_groups::this_grid().sync();
  if (i < vectors) out[i] = v;
}

struct row {
  std::string name;
  std::size_t n;
  double cold_us, hot_us, host_us;
};

//! The median host time of enqueueing one call, each behind an L2 flush (so the GPU is busy and the
//! launch queue never fills while the host is timed).
double host_us(cudaStream_t s, l2_flusher& flusher, int reps, const std::function<void()>& call) {
  std::vector<double> us;
  for (int i = 0; i < reps; ++i) {
    flusher.flush(s);
    const auto t0 = std::chrono::steady_clock::now();
    call();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    if (i % 16 == 15) check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  return median(us);
}

double median_us(cudaStream_t s, l2_flusher& flusher, bool hot, int reps, const std::function<void()>& call) {
  return median(time_calls(s, flusher, hot, 5, reps, call)) * 1e3;
}

}  // namespace

int main(int argc, char** argv) {
  return run_program("archscan-floor", [&](const cudaDeviceProp& prop) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 201;
    stream_handle stream;
    const cudaStream_t s = stream.get();
    l2_flusher flusher(prop);
    const bool clusters    = prop.major >= 9;
    constexpr int big_smem = 96 * 1024;
    check(cudaFuncSetAttribute(copy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, big_smem), "smem opt-in");
    if (clusters) {
      check(cudaFuncSetAttribute(copy_cluster_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
            "cluster size opt-in");
    }
    std::printf("archscan-floor on %s (%d SMs), %s; %d calls a case, median\n", prop.name, prop.multiProcessorCount,
                version_line().c_str(), reps);
    bool ok = true;
    std::vector<row> rows;
    device_buffer<unsigned char> scratch(4096);
    for (const std::size_t n : {std::size_t{1} << 10, std::size_t{1} << 11, std::size_t{1} << 12, std::size_t{1} << 13,
                                std::size_t{1} << 16}) {
      device_buffer<int> in(n), out(n), ref(n);
      fill_random(in.get(), n, 0xf100u ^ n, s);
      const std::size_t vectors = n / 4;
      const auto* vin           = reinterpret_cast<const int4*>(in.get());
      auto* vout                = reinterpret_cast<int4*>(out.get());
      const cub_call cub_scan([&](void* d_temp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(d_temp, bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s);
      });

      auto block_copy = [&](int smem) {
        return [&, smem] {
          copy_kernel<<<1, 256, smem, s>>>(vin, vout, vectors, smem > 0);
          check_launch("copy_kernel");
        };
      };
      auto cluster_copy = [&](int smem) {
        return [&, smem] {
          cudaLaunchAttribute a{};
          a.id               = cudaLaunchAttributeClusterDimension;
          a.val.clusterDim.x = 16;
          a.val.clusterDim.y = 1;
          a.val.clusterDim.z = 1;
          cudaLaunchConfig_t config{};
          config.gridDim          = dim3(16);
          config.blockDim         = dim3(128);
          config.dynamicSmemBytes = static_cast<std::size_t>(smem);
          config.stream           = s;
          config.attrs            = &a;
          config.numAttrs         = 1;
          check(cudaLaunchKernelEx(&config, copy_cluster_kernel, vin, vout, vectors, smem > 0), "copy_cluster_kernel");
        };
      };
      cub_scan();                                                             // the reference for native
      const auto grid_blocks = static_cast<unsigned>((vectors + 255) / 256);  // a vector a thread, 256 threads a block
      auto grid_copy         = [&] {
        copy_kernel<<<grid_blocks, 256, 0, s>>>(vin, vout, vectors, false);
        check_launch("copy_kernel");
      };
      enum class expect { none, copy, scan };  //!< what the output must equal after the call
      struct named_call {
        const char* name;
        std::function<void()> call;
        expect out;
      };
      std::vector<named_call> calls = {
          {"memcpy",
           [&] { check(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(int), cudaMemcpyDeviceToDevice, s), "memcpy"); },
           expect::copy},
          {"empty",
           [&] {
             empty_kernel<<<1, 32, 0, s>>>();
             check_launch("empty_kernel");
           },
           expect::none},
          {"copy_block", block_copy(0), expect::copy},
          {"copy_block_32k", block_copy(32 * 1024), expect::copy},
          {"copy_block_96k", block_copy(big_smem), expect::copy},
          {"copy_grid", grid_copy, expect::copy},
      };
      if (clusters) {
        calls.push_back({"copy_cluster16", cluster_copy(0), expect::copy});
        calls.push_back({"copy_cluster16_32k", cluster_copy(32 * 1024), expect::copy});
      }
      calls.push_back({"copy_grid_coop",
                       [&] {
                         const int4* from  = vin;
                         int4* to          = vout;
                         std::size_t count = vectors;
                         void* args[]      = {&from, &to, &count};
                         check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(copy_grid_barrier_kernel),
                                                           dim3(grid_blocks), dim3(256), args, 0, s),
                               "copy_grid_barrier_kernel");
                       },
                       expect::copy});
      calls.push_back({"memset_copy_grid",
                       [&] {
                         check(cudaMemsetAsync(scratch.get(), 0, 4096, s), "memset");
                         grid_copy();
                       },
                       expect::copy});
      calls.push_back(
          {"native", [&] { thrust::exclusive_scan(archscan::native_nosync.on(s), in.get(), in.get() + n, out.get()); },
           expect::scan});
      auto shaped = [&](const auto& policy) {
        return [&, policy] { thrust::exclusive_scan(policy.on(s), in.get(), in.get() + n, out.get()); };
      };
      calls.push_back({"native_256x4", shaped(nosync_policy<native_int32_shaped<256, 4>>), expect::scan});
      calls.push_back({"native_256x8", shaped(nosync_policy<native_int32_shaped<256, 8>>), expect::scan});
      calls.push_back({"native_256x16", shaped(nosync_policy<native_int32_shaped<256, 16>>), expect::scan});
      calls.push_back({"native_128x8", shaped(nosync_policy<native_int32_shaped<128, 8>>), expect::scan});
      calls.push_back({"native_64x16", shaped(nosync_policy<native_int32_shaped<64, 16>>), expect::scan});
      calls.push_back({"cub", [&] { cub_scan(); }, expect::none});
      for (const auto& c : calls) {
        check(cudaMemsetAsync(out.get(), 0xff, n * sizeof(int), s), "poison");
        c.call();
        if (c.out != expect::none) {
          const mismatch_report m = compare(out.get(), c.out == expect::copy ? in.get() : ref.get(), n, s);
          if (m.count != 0) {
            std::fprintf(stderr, "MISMATCH: %s at n=%zu: %llu items differ from its reference, first at %llu\n", c.name,
                         n, m.count, m.first);
            ok = false;
          }
        }
        rows.push_back({c.name, n, median_us(s, flusher, false, reps, c.call),
                        median_us(s, flusher, true, reps, c.call), host_us(s, flusher, reps, c.call)});
      }
    }
    std::printf(
        "\n| case | n | cold L2 (us) | x memcpy | hot L2 (us) | x memcpy | host (us) |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    double copy_cold = 0, copy_hot = 0;
    for (const row& r : rows) {
      if (r.name == "memcpy") copy_cold = r.cold_us, copy_hot = r.hot_us;
      std::printf("| %s | 2^%d | %.2f | %.2f | %.2f | %.2f | %.2f |\n", r.name.c_str(), __builtin_ctzll(r.n), r.cold_us,
                  r.cold_us / copy_cold, r.hot_us, r.hot_us / copy_hot, r.host_us);
    }
    return ok;
  });
}
