#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The contract between dispatch/dispatch_scan.cuh and a kernel family, and what families share.
//!
//! A family `F` (a tag in tuning/shape.cuh) specializes `family_dispatch<F>` with two steps:
//!
//!   template <class Tuning, class Hooks, class Problem>
//!   static plan_type plan(const Problem&, const detail::device_facts&);
//!
//!   template <class Tuning, class Hooks, class Problem>
//!   static void launch(const Problem&, const plan_type&, const detail::device_facts&, void* d_temp,
//!                      cudaStream_t);
//!
//! `plan` makes every decision of the call once: tile shape, path, grid, and the temporary storage
//! (`plan_type::temp_bytes`) that every path it may take needs. It configures the kernels whose
//! occupancy it asks (shared-memory attributes, occupancy queries: host calls, cached per device and
//! kernel) and throws `thrust::system_error` for a problem it cannot run. `launch` enqueues the
//! planned kernels on the stream, checks every launch (detail::throw_on_launch_error), never plans
//! again and never synchronizes.
//!
//! `launch` also configures every kernel it launches, in the function that launches it (the answers
//! kept, detail/kernel_answers.cuh, make that a lookup without a lock after the first call). nvcc 13 gives the host
//! stub of each `__global__` template instantiation internal linkage (`-static-global-template-stub`, on by default),
//! so a program whose translation units instantiate the same kernel holds one copy of it per unit, while the linker
//! keeps one copy of each inline host function. `plan` and `launch` may then come from different units and name
//! different copies: an attribute set in `plan` need not be on the copy `launch` starts
//! (test/dispatch/shared_memory_test.cu, KernelCopiesOfTwoUnits).
//!
//! `Problem` is a detail::scan_problem with n > 0; `d_temp` holds `temp_bytes`
//! bytes of uninitialized, 256-byte-aligned device memory (nullptr when 0 bytes). `Hooks` are test
//! and ablation hooks (hooks.cuh), `no_hooks` for every shipped policy.

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include <archscan/detail/device.cuh>
#include <archscan/detail/error.cuh>
#include <archscan/detail/kernel_answers.cuh>
#include <archscan/detail/problem.cuh>

namespace archscan::dispatch {

template <class Family>
struct family_dispatch;

//! Lets kernel `k` take `smem` bytes of dynamic shared memory where that is more than the 48 KiB every
//! block may use without asking (an explicit opt-in since Volta; Turing Tuning Guide 4.3.1). Throws
//! `thrust::system_error` when the device cannot give a block that much. `family` names the caller
//! in the message.
inline void opt_in_dynamic_smem_at(const void* k, int smem, const detail::device_facts& facts, const char* family) {
  if (smem <= 48 * 1024) return;
  const std::string who(family);
  if (smem > facts.max_smem_optin) {
    detail::throw_on_error(cudaErrorInvalidConfiguration,
                           (who + ": accumulator too large for a block's shared memory").c_str());
  }
  detail::throw_on_error(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
                         (who + ": cudaFuncSetAttribute (max dynamic shared memory)").c_str());
}
template <class Kernel>
void opt_in_dynamic_smem(Kernel k, int smem, const detail::device_facts& facts, const char* family) {
  opt_in_dynamic_smem_at(reinterpret_cast<const void*>(k), smem, facts, family);
}

//! Throws when a grid of `blocks` blocks cannot be launched (gridDim.x is at most 2^31 - 1).
inline void check_grid(std::int64_t blocks, const char* what) {
  if (blocks > 0x7fffffff) detail::throw_on_error(cudaErrorInvalidValue, what);
}

//! A launch configuration with one attribute (cooperative, a cluster's dimension, a programmatic
//! dependency), for cudaLaunchKernelEx and the occupancy queries. `config` points at `attribute`: neither is copied.
struct attributed_launch {
  cudaLaunchAttribute attribute;
  cudaLaunchConfig_t config{};
  attributed_launch(const cudaLaunchAttribute& a, std::int64_t grid, int threads, int smem_bytes, cudaStream_t stream)
      : attribute(a) {
    config.gridDim          = dim3(static_cast<unsigned>(grid));
    config.blockDim         = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = static_cast<std::size_t>(smem_bytes);
    config.stream           = stream;
    config.attrs            = &attribute;
    config.numAttrs         = 1;
  }
  attributed_launch(const attributed_launch&)            = delete;
  attributed_launch& operator=(const attributed_launch&) = delete;
};

//! A grid that is one cluster of `blocks` blocks (along x), for the occupancy query and the launch.
struct one_cluster : attributed_launch {
  one_cluster(int blocks, int threads, int smem, cudaStream_t stream)
      : attributed_launch(dimension(blocks), blocks, threads, smem, stream) {}
  static cudaLaunchAttribute dimension(int blocks) {
    cudaLaunchAttribute a{};
    a.id               = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = static_cast<unsigned>(blocks);
    a.val.clusterDim.y = 1;
    a.val.clusterDim.z = 1;
    return a;
  }
};

//! Launches `kernel` cooperatively (every block resident at once, as a grid barrier needs) on
//! `stream` with `args`. Returns false, with nothing launched and no error left pending, when the
//! driver refuses for lack of room (e.g. under MPS): the caller then takes its plan's fallback. Any
//! other failure throws `thrust::system_error` naming `what`.
template <class... Params, class... Args>
bool launch_cooperative(void (*kernel)(Params...), std::int64_t grid, int threads, int smem_bytes, cudaStream_t stream,
                        const char* what, Args&&... args) {
  cudaLaunchAttribute cooperative{};
  cooperative.id              = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  const attributed_launch launch(cooperative, grid, threads, smem_bytes, stream);
  const cudaError_t status = cudaLaunchKernelEx(&launch.config, kernel, static_cast<Args&&>(args)...);
  if (status == cudaErrorCooperativeLaunchTooLarge) {
    cudaGetLastError();
    return false;
  }
  detail::throw_on_error(status, (std::string(what) + " (cooperative launch)").c_str());
  detail::throw_on_launch_error(what);
  return true;
}

//! Launches `kernel` on `stream` with `args` as a programmatic dependent of the kernel queued just
//! before it on the stream (detail/dependent_launch.cuh): it may start once that kernel's blocks allow
//! it and must wait for it (`wait_for_prerequisite_grids`) before using what it writes. Should the
//! driver refuse the attribute, the kernel is launched plainly after it (the same order, later).
//! Any other failure throws `thrust::system_error` naming `what`.
template <class... Params, class... Args>
void launch_dependent(void (*kernel)(Params...), std::int64_t grid, int threads, int smem_bytes, cudaStream_t stream,
                      const char* what, Args&&... args) {
  cudaLaunchAttribute dependent{};
  dependent.id                                         = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  const attributed_launch launch(dependent, grid, threads, smem_bytes, stream);
  const cudaError_t status = cudaLaunchKernelEx(&launch.config, kernel, args...);
  if (status == cudaErrorNotSupported || status == cudaErrorInvalidValue) {
    cudaGetLastError();  // not a sticky error: nothing was launched
    kernel<<<static_cast<unsigned>(grid), threads, static_cast<std::size_t>(smem_bytes), stream>>>(
        static_cast<Args&&>(args)...);
  } else {
    detail::throw_on_error(status, what);
  }
  detail::throw_on_launch_error(what);
}

//! The answer of `ask()` (>= 0) to `q` about kernel `k` (this unit's copy) on device `device`, asked
//! once per kernel, question and device and read back after (detail/kernel_answers.cuh). Kernel
//! attributes and occupancy cannot change while the process runs, and the answers are host calls
//! worth keeping off every launch.
template <class Ask>
int once_per_device(const void* k, detail::kernel_question q, int device, Ask&& ask) {
  const int kept = detail::kernel_answers::find(k, q, device);
  if (kept >= 0) return kept;
  const int answer = ask();
  detail::kernel_answers::keep(k, q, device, answer);
  return answer;
}

//! Kernel `k` with `args`: as a programmatic dependent of the kernel queued just before it where
//! `dependent`, else plainly.
template <class... Params, class... Args>
void launch_maybe_dependent(bool dependent, void (*k)(Params...), std::int64_t grid, int threads, int smem,
                            cudaStream_t stream, const char* what, const Args&... args) {
  if (dependent) {
    launch_dependent(k, grid, threads, smem, stream, what, args...);
    return;
  }
  k<<<static_cast<unsigned>(grid), threads, static_cast<std::size_t>(smem), stream>>>(args...);
  detail::throw_on_launch_error(what);
}

//! The largest cluster of kernel `k` (launched with `threads` threads and `smem` bytes of dynamic
//! shared memory a block, its attributes set already) that fits on the device, at most `most` blocks
//! (0: none of 2 or more, or `k` was not compiled for sm_90 on), asked once per device and kernel.
//! Sizes past 8, the portable limit, need the kernel's consent
//! (cudaFuncAttributeNonPortableClusterSizeAllowed), which this asks for.
inline int largest_cluster_at(const void* k, int threads, int smem, const detail::device_facts& facts, int most) {
  return once_per_device(k, detail::kernel_question::largest_cluster, facts.device, [&] {
    // A build without sm_90 code runs on this device from older PTX, where a cluster route only traps.
    cudaFuncAttributes attributes{};
    detail::throw_on_error(cudaFuncGetAttributes(&attributes, k), "archscan: cudaFuncGetAttributes");
    if (attributes.ptxVersion < 90) most = 0;
    if (most > 8 && cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
      cudaGetLastError();
      most = 8;
    }
    int fits = 0;
    for (int size = most; size >= 2 && fits == 0; --size) {
      const one_cluster launch(size, threads, smem, nullptr);
      int clusters = 0;
      if (cudaOccupancyMaxActiveClusters(&clusters, k, &launch.config) != cudaSuccess) {
        cudaGetLastError();  // this size is refused: try a smaller one
      } else if (clusters >= 1) {
        fits = size;
      }
    }
    return fits;
  });
}
template <auto k>
int largest_cluster(int threads, int smem, const detail::device_facts& facts, int most) {
  return largest_cluster_at(reinterpret_cast<const void*>(k), threads, smem, facts, most);
}

//! Whether kernel `k` may be launched as a programmatic dependent on this device: sm_90 on, and its
//! code built for sm_90 on (a kernel run from older PTX has no `griddepcontrol.wait`). Asked once per
//! device and kernel.
inline bool dependent_launch_ok_at(const void* k, const detail::device_facts& facts) {
  return once_per_device(k, detail::kernel_question::dependent_launch, facts.device, [&] {
           if (facts.cc_major < 9) return 0;
           cudaFuncAttributes attributes{};
           detail::throw_on_error(cudaFuncGetAttributes(&attributes, k), "archscan: cudaFuncGetAttributes");
           return attributes.ptxVersion >= 90 ? 1 : 0;
         }) == 1;
}
template <auto k>
bool dependent_launch_ok(const detail::device_facts& facts) {
  return dependent_launch_ok_at(reinterpret_cast<const void*>(k), facts);
}

//! The carveout (percent of the multiprocessor's shared memory) that holds `blocks` blocks of
//! `block_smem` bytes each plus the per-block reservation; at least 1, at most 100.
constexpr int fit_carveout(int blocks, int block_smem, int reserved_per_block, int smem_per_sm) {
  const long long need = static_cast<long long>(blocks) * (block_smem + reserved_per_block);
  const long long pct  = (need * 100 + smem_per_sm - 1) / smem_per_sm;
  return pct < 1 ? 1 : pct > 100 ? 100 : static_cast<int>(pct);
}

//! A kernel's address as a type: code that picks one of several kernels at run time hands it on
//! to templates that take the kernel as an argument (configure_kernel).
template <auto k>
using kernel_constant = std::integral_constant<decltype(k), k>;

//! Sets kernel `k`'s shared-memory attributes (carveout: a percentage, `carveout_fit` or
//! `carveout_unset`, the tuning's values of those) and, with `occupancy`, returns how many of its
//! blocks fit on one multiprocessor (else 1), once per device and kernel (later calls read the kept
//! answer). `k` is the copy of the kernel in the calling translation unit: call it from the function
//! that launches `k` (see the contract above).
//! `opt_in_smem`: where more than `smem`, the dynamic shared memory the kernel may take at most (a
//! kernel launched with more on some routes than on others).
inline int configure_kernel_at(const void* k, bool occupancy, int threads, int smem, const detail::device_facts& facts,
                               int carveout, int carveout_fit, int opt_in_smem) {
  const auto q = occupancy ? detail::kernel_question::blocks_per_sm : detail::kernel_question::configured;
  return once_per_device(k, q, facts.device, [&] {
    opt_in_dynamic_smem_at(k, std::max(smem, opt_in_smem), facts, "archscan");  // guide 4.3.1
    auto set_carveout = [&](int percent) {
      detail::throw_on_error(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, percent),
                             "archscan: cudaFuncSetAttribute (carveout)");
    };
    auto resident_blocks = [&] {
      int blocks = 0;
      detail::throw_on_error(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads, smem),
                             "archscan: cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      return blocks;
    };
    int blocks = 1;
    if (carveout == carveout_fit) {
      // Blocks that fit with all the shared memory, then just the shared memory they use: the rest
      // stays L1 (guide 4.3.1), and the occupancy limits (threads, registers, blocks) are the device's.
      set_carveout(100);
      blocks             = resident_blocks();
      const int reserved = facts.cc_major >= 8 ? 1024 : 0;  // per-block system reservation (sm_80 on)
      set_carveout(fit_carveout(std::max(blocks, 1), smem, reserved, facts.smem_per_sm));
      blocks = resident_blocks();
    } else {
      if (carveout >= 0) set_carveout(carveout);
      if (occupancy) blocks = resident_blocks();
    }
    if (blocks < 1) {
      detail::throw_on_error(cudaErrorInvalidConfiguration, "archscan: no block of the kernel fits");
    }
    return blocks;
  });
}
//! configure_kernel_at for kernel `k` under `Tuning`'s carveout, with occupancy where `Occupancy`.
template <class Tuning, auto k, bool Occupancy>
int configure_kernel(int threads, int smem, const detail::device_facts& facts, int carveout = Tuning::carveout_percent,
                     int opt_in_smem = 0) {
  return configure_kernel_at(reinterpret_cast<const void*>(k), Occupancy, threads, smem, facts, carveout,
                             Tuning::carveout_fit, opt_in_smem);
}

}  // namespace archscan::dispatch
