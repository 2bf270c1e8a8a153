// Stream-ordered temporary storage from one archscan-owned memory pool per device.
//
// A pool of our own (not the device's default pool) so that archscan neither changes the user's pool
// attributes nor is trimmed by them: its release threshold keeps up to `kept_bytes` cached across
// synchronizations, so a blocking policy does not map fresh memory on every call. During stream
// capture the allocation comes from the device's current pool instead (cudaMallocAsync, which becomes
// a graph allocation node): creating or configuring a pool is not a capturable operation, and a graph
// allocation belongs to the graph, not to any pool.

#include <cstdint>
#include <mutex>
#include <vector>

#include <cuda_runtime_api.h>

namespace archscan::detail {
namespace {

constexpr std::uint64_t kept_bytes = 256ull << 20;  // cached past a sync; larger peaks are trimmed

struct pools {
  std::mutex m;
  std::vector<cudaMemPool_t> by_device;
};

pools& all_pools() {
  static pools* p = new pools;  // never destroyed: callers may free during static destruction
  return *p;
}

cudaMemPool_t pool_for(int device) {
  pools& ps = all_pools();
  std::lock_guard<std::mutex> lock(ps.m);
  if (ps.by_device.size() <= static_cast<std::size_t>(device)) ps.by_device.resize(device + 1, nullptr);
  cudaMemPool_t& pool = ps.by_device[device];
  if (pool == nullptr) {
    cudaMemPoolProps props{};
    props.allocType     = cudaMemAllocationTypePinned;
    props.handleTypes   = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id   = device;
    if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) {
      cudaGetLastError();
      pool = nullptr;
      return nullptr;
    }
    std::uint64_t threshold = kept_bytes;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  }
  return pool;
}

}  // namespace

void* pool_allocate(std::size_t bytes, cudaStream_t stream) noexcept {
  if (bytes == 0) bytes = 1;  // a distinct, valid pointer, as Thrust's allocators give
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  if (capture != cudaStreamCaptureStatusNone) {
    void* p = nullptr;
    if (cudaMallocAsync(&p, bytes, stream) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    return p;
  }
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  cudaMemPool_t pool = pool_for(device);
  if (pool == nullptr) return nullptr;
  void* p = nullptr;
  if (cudaMallocFromPoolAsync(&p, bytes, pool, stream) != cudaSuccess) {
    cudaGetLastError();  // out of memory is reported by the caller as bad_alloc
    return nullptr;
  }
  return p;
}

void pool_deallocate(void* p, cudaStream_t stream) noexcept {
  if (p != nullptr && cudaFreeAsync(p, stream) != cudaSuccess) cudaGetLastError();
}

}  // namespace archscan::detail
