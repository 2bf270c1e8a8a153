#pragma once
//! \file What every perf program shares: checked CUDA calls, the no-GPU exit, CUB's calls with their
//! storage, event timing, L2 flushing, random inputs and the device-side comparison with CUB's results.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda/std/version>
#include <cuda_runtime_api.h>

#include <archscan/associativity.cuh>

namespace archscan::perf {

//! How tables and benchmark names spell a measured value type.
template <class T>
const char* value_type_name() {
  if constexpr (std::is_same_v<T, std::int8_t>) return "int8";
  if constexpr (std::is_same_v<T, std::int16_t>) return "int16";
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  if constexpr (std::is_same_v<T, float>) return "float";
  return "double";
}

//! Throws with the call's name and CUDA's message when `e` is not cudaSuccess.
inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

//! Checks the launch error of the kernel just launched (and clears it).
inline void check_launch(const char* what) { check(cudaGetLastError(), what); }

//! The device every perf program uses (device 0). Exits with one line and status 2 when none is usable.
inline cudaDeviceProp require_gpu(const char* program) {
  int count       = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::fprintf(stderr, "%s: no usable CUDA device (%s)\n", program,
                 err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0");
    std::exit(2);
  }
  cudaDeviceProp prop{};
  check(cudaSetDevice(0), "cudaSetDevice");
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  return prop;
}

//! The main of a perf program: the GPU check, then `body(prop)`, which returns true when every result
//! matched its reference. Exit status 0; 1 after a mismatch (reported as MISMATCH lines by the body)
//! or an exception (one line on stderr); 2 without a usable GPU.
template <class Body>
int run_program(const char* program, Body body) {
  const cudaDeviceProp prop = require_gpu(program);
  try {
    if (body(prop)) return 0;
    std::fprintf(stderr, "%s: FAILED: results differ from their reference (see MISMATCH lines)\n", program);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
  }
  return 1;
}

//! "3.5.0": the CCCL release this program was compiled with (CCCL_VERSION is MMMmmmppp).
inline std::string cccl_version() {
  return std::to_string(CCCL_VERSION / 1000000) + "." + std::to_string(CCCL_VERSION / 1000 % 1000) + "." +
         std::to_string(CCCL_VERSION % 1000);
}

//! "driver 13.0, runtime 13.0, CCCL 3.0.1": the versions a result depends on.
inline std::string version_line() {
  int driver = 0, runtime = 0;
  check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
  auto cuda = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  return "CUDA driver API " + cuda(driver) + ", CUDA runtime " + cuda(runtime) + ", CCCL " + cccl_version();
}

//! Owning device buffer of `n` items of `T` (cudaMalloc; freed on destruction).
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t n) : n_(n) {
    if (n > 0) check(cudaMalloc(&p_, n * sizeof(T)), "cudaMalloc");
  }
  device_buffer(const device_buffer&)            = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  device_buffer& operator=(device_buffer&& o) noexcept {
    std::swap(p_, o.p_), std::swap(n_, o.n_);
    return *this;
  }
  ~device_buffer() {
    if (p_) cudaFree(p_);
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_          = nullptr;
  std::size_t n_ = 0;
};

//! A non-blocking stream, destroyed with the object.
class stream_handle {
 public:
  stream_handle() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
  stream_handle(const stream_handle&)            = delete;
  stream_handle& operator=(const stream_handle&) = delete;
  ~stream_handle() { cudaStreamDestroy(s_); }
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_{};
};

//! Writes a buffer of twice the L2 size before a timed call, so that call starts with a cold L2.
class l2_flusher {
 public:
  explicit l2_flusher(const cudaDeviceProp& prop)
      : buf_(2 * static_cast<std::size_t>(std::max(prop.l2CacheSize, 1 << 20))) {}
  void flush(cudaStream_t s) {
    check(cudaMemsetAsync(buf_.get(), ++value_ & 0xff, buf_.size(), s), "cudaMemsetAsync (L2 flush)");
  }

 private:
  device_buffer<unsigned char> buf_;
  int value_ = 0;
};

//! One CUB device call and its temporary storage, CUB being every program's reference and baseline.
//! `run(d_temp, bytes)` makes the call (a lambda around one cub::Device* function). The constructor asks
//! it for the storage's size once and allocates that, so that each `()` runs the call alone, as a
//! caller of CUB that keeps its storage would: `cub_call{run}()` for a single call. At least one byte
//! is allocated: CUB takes a null storage pointer for a size query and would not run.
template <class Run>
class cub_call {
 public:
  explicit cub_call(Run run) : run_(std::move(run)) {
    check(run_(nullptr, bytes_), "CUB (temporary storage size)");
    temp_ = device_buffer<unsigned char>(std::max<std::size_t>(bytes_, 1));
  }
  void operator()() const {
    std::size_t bytes = bytes_;
    check(run_(temp_.get(), bytes), "CUB");
  }

 private:
  Run run_;
  std::size_t bytes_ = 0;
  device_buffer<unsigned char> temp_;
};

//! Times one enqueued call with CUDA events on `s`; returns milliseconds.
class event_timer {
 public:
  event_timer() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  event_timer(const event_timer&)            = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  template <class F>
  double time_ms(cudaStream_t s, F&& call) {
    check(cudaEventRecord(start_, s), "cudaEventRecord");
    call();
    check(cudaEventRecord(stop_, s), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

//! Median of `v` (taken by value: it is reordered).
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

//! Quantile `q` in [0,1] of `v` by linear interpolation.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo    = static_cast<std::size_t>(pos);
  const auto hi    = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

//! Timing protocol shared by every program: `warmup` untimed calls, then `reps` timed calls, each after
//! an L2 flush unless `hot`. Returns the per-call times in ms.
template <class F>
std::vector<double> time_calls(cudaStream_t s, l2_flusher& flusher, bool hot, int warmup, int reps, F&& call) {
  event_timer timer;
  for (int i = 0; i < warmup; ++i) call();
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (warm-up)");
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    if (!hot) flusher.flush(s);
    ms.push_back(timer.time_ms(s, call));
  }
  return ms;
}

//! Device-to-device copy bandwidth in GB/s (bytes read + written), median of 10 cudaMemcpyAsync calls of
//! `bytes` bytes after a warm-up. The roof every throughput is compared with.
inline double measure_copy_bandwidth(cudaStream_t s, std::size_t bytes) {
  device_buffer<unsigned char> a(bytes), b(bytes);
  check(cudaMemsetAsync(a.get(), 1, bytes, s), "cudaMemsetAsync");
  event_timer timer;
  auto copy = [&] { check(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync"); };
  for (int i = 0; i < 3; ++i) copy();
  std::vector<double> ms;
  for (int i = 0; i < 10; ++i) ms.push_back(timer.time_ms(s, copy));
  return 2.0 * static_cast<double>(bytes) / (median(ms) * 1e-3) / 1e9;
}

// ---- random inputs ------------------------------------------------------------------------------------

//! splitmix64: a counter-based hash, so inputs are random, reproducible and generated on the device.
__host__ __device__ inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

//! Maps a hash to a nonzero item. Integers: +-1..4 (sums of 2^30 items stay far from int32 overflow on
//! average); floating point: [0.5, 1.5) (positive, so prefix sums grow and relative error is meaningful).
template <class T>
struct random_value {
  __host__ __device__ T operator()(std::uint64_t h) const {
    if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(0.5 + static_cast<double>(h >> 11) * 0x1.0p-53);
    } else {
      const int mag = static_cast<int>(h & 3) + 1;
      return static_cast<T>((h & 4) ? -mag : mag);
    }
  }
};

//! The benchmarks' user type (archscan-bench, archscan-profile): a 2x2 matrix of 32-bit integers mod 2^32; its product
//! is associative, not commutative.
struct mat2x2 {
  std::uint32_t a, b, c, d;
};
//! The product of matrices `M` (mat2x2, declared_mat2x2).
template <class M>
struct basic_mat_mul {
  __host__ __device__ M operator()(const M& x, const M& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};
using mat_mul = basic_mat_mul<mat2x2>;
template <class M>
struct basic_random_mat {
  __host__ __device__ M operator()(std::uint64_t h) const {
    return {static_cast<std::uint32_t>(h & 7) + 1, static_cast<std::uint32_t>((h >> 8) & 7),
            static_cast<std::uint32_t>((h >> 16) & 7), static_cast<std::uint32_t>((h >> 24) & 7) + 1};
  }
};
using random_mat = basic_random_mat<mat2x2>;

//! The same matrices as a type of their own whose product is declared exactly associative
//! (archscan/associativity.cuh; mod 2^32 it never rounds): a probe measures what the declaration
//! gains beside the undeclared product.
struct declared_mat2x2 {
  std::uint32_t a, b, c, d;
};
using declared_mat_mul = basic_mat_mul<declared_mat2x2>;

}  // namespace archscan::perf

template <>
struct archscan::exactly_associative<archscan::perf::declared_mat_mul, archscan::perf::declared_mat2x2>
    : std::true_type {};

namespace archscan::perf {

template <class T, class Gen>
__global__ void fill_kernel(T* out, std::size_t n, std::uint64_t seed, Gen gen) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = gen(mix(seed ^ mix(i)));
}

//! Fills `out[0, n)` with `gen(hash(seed, i))` on stream `s`.
template <class T, class Gen = random_value<T>>
void fill_random(T* out, std::size_t n, std::uint64_t seed, cudaStream_t s, Gen gen = {}) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536));
  fill_kernel<<<blocks, 256, 0, s>>>(out, n, seed, gen);
  check_launch("fill_kernel");
}

// ---- comparison with the reference --------------------------------------------------------------------

//! Bitwise for integers and user structs; |a - b| <= rtol * |b| for floating point.
template <class T>
struct tolerance {
  static constexpr double rtol = std::is_same_v<T, float> ? 1e-3 : std::is_same_v<T, double> ? 1e-9 : 0.0;
};

template <class T>
__host__ __device__ bool same_item(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    const double d = static_cast<double>(a) - static_cast<double>(b);
    return fabs(d) <= tolerance<T>::rtol * fabs(static_cast<double>(b));
  } else {
    const auto* pa = reinterpret_cast<const unsigned char*>(&a);
    const auto* pb = reinterpret_cast<const unsigned char*>(&b);
    for (std::size_t i = 0; i < sizeof(T); ++i)
      if (pa[i] != pb[i]) return false;
    return true;
  }
}

template <class T>
__global__ void count_mismatches_kernel(const T* got, const T* want, std::size_t n, unsigned long long* count,
                                        unsigned long long* first) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    if (!same_item(got[i], want[i])) {
      atomicAdd(count, 1ull);
      atomicMin(first, static_cast<unsigned long long>(i));
    }
}

//! Result of comparing an output with the reference.
struct mismatch_report {
  unsigned long long count = 0;
  unsigned long long first = 0;  //!< index of the first mismatch, when count > 0
};

//! Compares `got` with `want` on the device (synchronizes `s`).
template <class T>
mismatch_report compare(const T* got, const T* want, std::size_t n, cudaStream_t s) {
  device_buffer<unsigned long long> d(2);
  const unsigned long long init[2] = {0, ~0ull};
  check(cudaMemcpyAsync(d.get(), init, sizeof init, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync");
  if (n > 0) {
    const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536));
    count_mismatches_kernel<<<blocks, 256, 0, s>>>(got, want, n, d.get(), d.get() + 1);
    check_launch("count_mismatches_kernel");
  }
  unsigned long long h[2];
  check(cudaMemcpyAsync(h, d.get(), sizeof h, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (compare)");
  return {h[0], h[0] ? h[1] : 0};
}

//! Free and total device memory in bytes.
inline std::pair<std::size_t, std::size_t> device_memory() {
  std::size_t free_b = 0, total_b = 0;
  check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  return {free_b, total_b};
}

}  // namespace archscan::perf
