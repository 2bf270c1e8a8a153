#pragma once
//! \file archscan-bench's cases: one template per algorithm, instantiated in one translation unit per
//! algorithm (bench_<algorithm>.cu) so that each compiles in reasonable time.
//!
//! A case is (algorithm, value type, n, implementation). Its Google Benchmark name is
//! "algorithm/type/n/implementation"; it runs `reps` iterations, each one timed call (CUDA events,
//! state.SetIterationTime), after `warmup` untimed calls and, unless --hot, an L2 flush before each
//! timed call. Google Benchmark's own time is the mean of the iterations; the statistics we report are
//! our own counters: `median_us`, `spread` ((q3 - q1) / median), GB/s and Gitems/s from the median.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"
#include "policies.cuh"
#include "report.hpp"

namespace archscan::perf::bench {

// ---- run-wide settings and results (bench_main.cu) ----------------------------------------------------

struct settings {
  bool hot   = false;  //!< skip the L2 flush
  int warmup = 2;
  int reps   = 15;
  std::vector<std::size_t> sizes;  //!< items a case: 2^10..2^30 by default (--sizes)
  double copy_GBps = 0;            //!< measured at start
  cudaDeviceProp prop{};
  std::size_t usable_bytes = 0;    //!< device memory a case may use
  std::size_t key_run      = 100;  //!< by-key inputs: runs of this many equal keys (--key-run)
};
settings& config();
cudaStream_t stream();
l2_flusher& flusher();
//! Every measured case, in run order (for the markdown table).
std::vector<report::result>& recorded();
//! CUB's median per case key ("algorithm/type/n") of this run, for the ratio counter.
std::map<std::string, double>& cub_medians();
//! Set when any result differs from CUB's or a CUDA call fails: the program then exits non-zero.
bool& failed();

// ---- value types ----------------------------------------------------------------------------------------

//! Name, operator, identity and input generator of each measured value type.
template <class T>
struct value_traits {
  using op  = ::cuda::std::plus<T>;  // typed: every implementation accumulates in T
  using gen = random_value<T>;
  static T identity() { return T{}; }
  static const char* name() { return value_type_name<T>(); }
};
template <>
struct value_traits<mat2x2> {
  using op  = mat_mul;
  using gen = random_mat;
  static mat2x2 identity() { return {1, 0, 0, 1}; }
  static const char* name() { return "mat2x2"; }
};
template <>
struct value_traits<declared_mat2x2> {  // the probe's (bench_probe_other.cu)
  using op  = declared_mat_mul;
  using gen = basic_random_mat<declared_mat2x2>;
  static declared_mat2x2 identity() { return {1, 0, 0, 1}; }
  static const char* name() { return "mat2x2d"; }
};

//! The transform of transform_inclusive_scan: x + x (for the matrix: a shear that keeps it invertible-ish).
struct twice {
  template <class T>
  __host__ __device__ T operator()(const T& x) const {
    if constexpr (std::is_same_v<T, mat2x2>)
      return {x.a, x.b + x.a, x.c, x.d + x.c};
    else
      return static_cast<T>(x + x);
  }
};

using key_type = std::int32_t;

// ---- one case's data ---------------------------------------------------------------------------------

template <class T>
struct case_data {
  std::size_t n = 0;
  device_buffer<T> in, out, ref;
  device_buffer<key_type> keys;
  device_buffer<std::uint8_t> flags;  //!< flag_offsets_alg's input (0 or 1 each)
  device_buffer<unsigned char> cub_temp;
  std::size_t cub_temp_bytes = 0;
};

//! The one live case's buffers (type-erased), for all algorithms and types: a new case frees the old
//! case's memory before allocating its own.
struct case_slot {
  std::string key;
  std::shared_ptr<void> data;
};
case_slot& slot();

void fill_keys(key_type* keys, std::size_t n, cudaStream_t s);

// ---- the algorithms ------------------------------------------------------------------------------------
// Each has a name, whether it reads keys, the CUB call (temp == nullptr: size query) and the Thrust-style
// call for any policy (archscan's and thrust::cuda's).

struct exclusive_scan_alg {
  static constexpr const char* name = "exclusive_scan";
  static constexpr bool keyed       = false;
  template <class T>
  static cudaError_t cub(void* temp, std::size_t& bytes, const case_data<T>& d, T* out, cudaStream_t s) {
    return cub::DeviceScan::ExclusiveScan(temp, bytes, d.in.get(), out, typename value_traits<T>::op{},
                                          value_traits<T>::identity(), static_cast<std::int64_t>(d.n), s);
  }
  template <class T, class Policy>
  static void call(const Policy& p, const case_data<T>& d, T* out) {
    thrust::exclusive_scan(p, d.in.get(), d.in.get() + d.n, out, value_traits<T>::identity(),
                           typename value_traits<T>::op{});
  }
};

struct inclusive_scan_alg {
  static constexpr const char* name = "inclusive_scan";
  static constexpr bool keyed       = false;
  template <class T>
  static cudaError_t cub(void* temp, std::size_t& bytes, const case_data<T>& d, T* out, cudaStream_t s) {
    return cub::DeviceScan::InclusiveScan(temp, bytes, d.in.get(), out, typename value_traits<T>::op{},
                                          static_cast<std::int64_t>(d.n), s);
  }
  template <class T, class Policy>
  static void call(const Policy& p, const case_data<T>& d, T* out) {
    thrust::inclusive_scan(p, d.in.get(), d.in.get() + d.n, out, typename value_traits<T>::op{});
  }
};

struct exclusive_scan_by_key_alg {
  static constexpr const char* name = "exclusive_scan_by_key";
  static constexpr bool keyed       = true;
  template <class T>
  static cudaError_t cub(void* temp, std::size_t& bytes, const case_data<T>& d, T* out, cudaStream_t s) {
    return cub::DeviceScan::ExclusiveScanByKey(temp, bytes, d.keys.get(), d.in.get(), out,
                                               typename value_traits<T>::op{}, value_traits<T>::identity(),
                                               static_cast<std::int64_t>(d.n), ::cuda::std::equal_to<key_type>{}, s);
  }
  template <class T, class Policy>
  static void call(const Policy& p, const case_data<T>& d, T* out) {
    thrust::exclusive_scan_by_key(p, d.keys.get(), d.keys.get() + d.n, d.in.get(), out, value_traits<T>::identity(),
                                  ::cuda::std::equal_to<key_type>{}, typename value_traits<T>::op{});
  }
};

struct transform_inclusive_scan_alg {
  static constexpr const char* name = "transform_inclusive_scan";
  static constexpr bool keyed       = false;
  template <class T>
  static cudaError_t cub(void* temp, std::size_t& bytes, const case_data<T>& d, T* out, cudaStream_t s) {
    return cub::DeviceScan::InclusiveScan(temp, bytes, thrust::make_transform_iterator(d.in.get(), twice{}), out,
                                          typename value_traits<T>::op{}, static_cast<std::int64_t>(d.n), s);
  }
  template <class T, class Policy>
  static void call(const Policy& p, const case_data<T>& d, T* out) {
    thrust::transform_inclusive_scan(p, d.in.get(), d.in.get() + d.n, out, twice{}, typename value_traits<T>::op{});
  }
};

//! Stream compaction's offsets: 8-bit flags (0 or 1) in, their exclusive sum from 0 as 32-bit offsets
//! out (`T` is the offsets' type: int32).
struct flag_offsets_alg {
  static constexpr const char* name = "flag_offsets";
  static constexpr bool keyed       = false;
  template <class T>
  static cudaError_t cub(void* temp, std::size_t& bytes, const case_data<T>& d, T* out, cudaStream_t s) {
    return cub::DeviceScan::ExclusiveScan(temp, bytes, d.flags.get(), out, ::cuda::std::plus<T>{}, T{0},
                                          static_cast<std::int64_t>(d.n), s);
  }
  template <class T, class Policy>
  static void call(const Policy& p, const case_data<T>& d, T* out) {
    thrust::exclusive_scan(p, d.flags.get(), d.flags.get() + d.n, out, T{0}, ::cuda::std::plus<T>{});
  }
};
template <class Alg>
constexpr bool reads_flags = std::is_same_v<Alg, flag_offsets_alg>;

//! Random 0/1 flags.
struct random_flag {
  __host__ __device__ std::uint8_t operator()(std::uint64_t h) const { return static_cast<std::uint8_t>((h >> 7) & 1); }
};

//! Bytes that must move per call: input read, output written, keys read.
template <class Alg, class T>
constexpr double bytes_moved(std::size_t n) {
  const double input = reads_flags<Alg> ? sizeof(std::uint8_t) : sizeof(T);
  return static_cast<double>(n) * (input + sizeof(T) + (Alg::keyed ? sizeof(key_type) : 0));
}

template <class Alg, class T>
case_data<T>& current_case(std::size_t n) {
  case_slot& cs          = slot();
  const std::string want = std::string(Alg::name) + "/" + value_traits<T>::name() + "/" + std::to_string(n);
  if (cs.key != want) {
    cs.data.reset();
    cs.key.clear();
    auto d               = std::make_shared<case_data<T>>();
    d->n                 = n;
    d->in                = device_buffer<T>(n);
    d->out               = device_buffer<T>(n);
    d->ref               = device_buffer<T>(n);
    const cudaStream_t s = stream();
    fill_random(d->in.get(), n, 0xa5ca0000u ^ n, s, typename value_traits<T>::gen{});
    if (Alg::keyed) {
      d->keys = device_buffer<key_type>(n);
      fill_keys(d->keys.get(), n, s);
    }
    if constexpr (reads_flags<Alg>) {
      d->flags = device_buffer<std::uint8_t>(n);
      fill_random(d->flags.get(), n, 0xf1a90000u ^ n, s, random_flag{});
    }
    check(Alg::cub(nullptr, d->cub_temp_bytes, *d, d->ref.get(), s), "CUB temporary storage query");
    d->cub_temp = device_buffer<unsigned char>(d->cub_temp_bytes);
    check(Alg::cub(d->cub_temp.get(), d->cub_temp_bytes, *d, d->ref.get(), s), "CUB reference scan");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (reference)");
    cs.data = d;
    cs.key  = want;
  }
  return *static_cast<case_data<T>*>(cs.data.get());
}

//! Measures one case: check against CUB once, warm up, then `reps` timed iterations.
template <class Alg, class T, class Call>
void measure(benchmark::State& state, const std::string& impl, std::size_t n, Call call) {
  const std::string case_key = std::string(Alg::name) + "/" + value_traits<T>::name() + "/" + std::to_string(n);
  try {
    case_data<T>& d      = current_case<Alg, T>(n);
    const cudaStream_t s = stream();
    if (impl != report::reference_impl && impl != report::copy_impl) {  // CUB is the reference itself
      check(cudaMemsetAsync(d.out.get(), 0, n * sizeof(T), s), "cudaMemsetAsync");
      call(d, d.out.get());
      const mismatch_report m = compare(d.out.get(), d.ref.get(), n, s);
      if (m.count) {
        failed()              = true;
        const std::string msg = std::to_string(m.count) + " items differ from CUB, first at " + std::to_string(m.first);
        std::fprintf(stderr, "MISMATCH: %s/%s: %s\n", case_key.c_str(), impl.c_str(), msg.c_str());
        state.SkipWithError(("MISMATCH: " + msg).c_str());
        return;
      }
    }
    for (int i = 0; i < config().warmup; ++i) call(d, d.out.get());
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (warm-up)");

    event_timer timer;
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(config().reps));
    for (auto _ : state) {
      if (!config().hot) flusher().flush(s);
      const double t = timer.time_ms(s, [&] { call(d, d.out.get()); });
      state.SetIterationTime(t * 1e-3);
      ms.push_back(t);
    }

    report::result r;
    r.algorithm = Alg::name;
    r.type      = value_traits<T>::name();
    r.n         = n;
    r.impl      = impl;
    r.median_us = median(ms) * 1e3;
    r.spread    = r.median_us > 0 ? (quantile(ms, 0.75) - quantile(ms, 0.25)) * 1e3 / r.median_us : 0;
    r.bytes     = bytes_moved<Alg, T>(n);
    r.copy_GBps = config().copy_GBps;
    if (impl == report::reference_impl) cub_medians()[case_key] = r.median_us;
    const auto cub = cub_medians().find(case_key);

    state.counters["n"]             = static_cast<double>(n);
    state.counters["median_us"]     = r.median_us;
    state.counters["spread"]        = r.spread;
    state.counters["bytes"]         = r.bytes;
    state.counters["Gitems_per_s"]  = r.items_per_s() / 1e9;
    state.counters["GBps"]          = r.gbps();
    state.counters["copy_GBps"]     = r.copy_GBps;
    state.counters["copy_fraction"] = r.copy_fraction();
    if (cub != cub_medians().end()) state.counters["ratio_to_cub"] = cub->second / r.median_us;
    recorded().push_back(r);
  } catch (const std::exception& e) {
    failed() = true;
    std::fprintf(stderr, "ERROR: %s/%s: %s\n", case_key.c_str(), impl.c_str(), e.what());
    state.SkipWithError(e.what());
  }
}

//! Registers every implementation of `Alg` for type `T` at every configured size that fits in memory:
//! CUB, the copy, and the archscan policies of `Policies` (perf/policies.cuh).
template <class Alg, class T, class Policies = every_policy>
void register_type() {
  for (const std::size_t n : config().sizes) {
    // in, out, reference, keys; CUB's and Thrust's temporary storage are small next to these.
    const double need = static_cast<double>(n) * (3.0 * sizeof(T) + (Alg::keyed ? sizeof(key_type) : 0));
    if (need > static_cast<double>(config().usable_bytes)) {
      std::fprintf(stderr, "note: %s/%s/%zu skipped: %.1f GB do not fit in %.1f GB of device memory\n", Alg::name,
                   value_traits<T>::name(), n, need / 1e9, static_cast<double>(config().usable_bytes) / 1e9);
      continue;
    }
    const std::string base = std::string(Alg::name) + "/" + value_traits<T>::name() + "/" + std::to_string(n) + "/";
    auto add               = [&](const std::string& impl, auto call) {
      benchmark::RegisterBenchmark((base + impl).c_str(),
                                                 [impl, n, call](benchmark::State& st) { measure<Alg, T>(st, impl, n, call); })
          ->Iterations(config().reps)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    };
    // CUB first: every other implementation's ratio is taken against it in the same run.
    add(report::reference_impl, [](case_data<T>& d, T* out) {
      check(Alg::cub(d.cub_temp.get(), d.cub_temp_bytes, d, out, stream()), "cub::DeviceScan");
    });
    add(report::copy_impl, [](case_data<T>& d, T* out) {
      check(cudaMemcpyAsync(out, d.in.get(), d.n * sizeof(T), cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
    });
    // The like-for-like reference of a blocking policy, which returns with its results ready.
    add(report::reference_sync_impl, [](case_data<T>& d, T* out) {
      check(Alg::cub(d.cub_temp.get(), d.cub_temp_bytes, d, out, stream()), "cub::DeviceScan");
      check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
    });
    Policies::each([&](const auto& p) {
      add(p.name, [policy = p.policy](case_data<T>& d, T* out) { Alg::call(policy.on(stream()), d, out); });
    });
    add("thrust::cuda::par", [](case_data<T>& d, T* out) { Alg::call(thrust::cuda::par.on(stream()), d, out); });
    add("thrust::cuda::par_nosync",
        [](case_data<T>& d, T* out) { Alg::call(thrust::cuda::par_nosync.on(stream()), d, out); });
  }
}

//! Registers `Alg` for the integer value types (one translation unit).
template <class Alg>
void register_integer_types() {
  register_type<Alg, std::int8_t>();
  register_type<Alg, std::int16_t>();
  register_type<Alg, std::int32_t>();
  register_type<Alg, std::int64_t>();
}
//! Registers `Alg` for floating point and the user type (another translation unit).
template <class Alg>
void register_other_types() {
  register_type<Alg, float>();
  register_type<Alg, double>();
  register_type<Alg, mat2x2>();
}

// ---- which translation units a build has ----------------------------------------------------------------
// Each bench_<scan>_<types>.cu adds its registration function here through a static `registrar`, so the
// sources that CMake links (ARCHSCAN_BENCH_SCANS) alone decide which scans a build measures: perf/cccl_ab.sh
// builds the exclusive scans only, and main needs no list of its own.

using register_fn = void (*)();
//! The registration functions of the linked translation units, by rank. main calls them in rank order,
//! so the run order does not depend on the (unspecified) order of static initialization across files.
//! Ranks: exclusive 0-1, inclusive 2-3, by_key 4-5, transform 6-7 (integer types, then the others),
//! the probe build's 8-9 (native's variants, perf/native_probe.sh).
std::map<int, register_fn>& registry();
//! Adds `f` to registry() at `rank`; a rank taken twice is a build mistake and aborts at start-up.
struct registrar {
  registrar(int rank, register_fn f);
};

}  // namespace archscan::perf::bench
