//! \file archscan-digest: the bits of archscan::native's results, one 64-bit digest a case, so that two
//! GPUs' results can be compared bit for bit (native's promise: a result is a function of n, the operator, the
//! type and the tuning only, not of the device it ran on).
//!   archscan-digest [OUT.json]
//! Cases, inputs as archscan-bench makes them (fill_random, fixed seeds): exclusive and inclusive sums
//! of int32, float and double; the inclusive composition of float affine maps (non-commutative, 8
//! bytes); float sums by key (a key changes at about one item in 16). Sizes 1000, 1024, 1025, 2048,
//! 4096, 4097, 2^16+1, 2^20+3, 2^24+5 and 2^27+7 (the maps and doubles to 2^26+7). Each case runs
//! twice on a poisoned output: the two digests must agree (run to run), and the first output must be
//! right: sums and by-key sums against CUB's (int32 bit for bit, floating point within
//! perf/common.cuh's tolerance), the maps against their composition in order in double precision,
//! native's largest errors within twice CUB's plus 8 sqrt(n) float units (float products of many
//! slopes near 1 round with a bias: CUB's own slopes are 1.3% off at 2^24 items, 4.9% at 2^26).
//! Exit status 1 otherwise, with a MISMATCH line.
//! The digest is the wrapping sum over items of mix(i, the item's bits): order-free, so its own
//! reduction cannot change it. Prints one line a case; OUT.json gets the device and the digests.
//! Compare two files with perf/digest_compare.py A.json B.json.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <nlohmann/json.hpp>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>

#include <archscan/archscan.cuh>

#include "common.cuh"

namespace {
using namespace archscan::perf;

//! x -> a x + b; composing `first` then `second` is not the same as the other way round.
struct affine {
  float a, b;
};
struct compose {
  __host__ __device__ affine operator()(const affine& first, const affine& second) const {
    return {first.a * second.a, first.b * second.a + second.b};
  }
};
//! Slopes within 1e-3 of 1 (a product of 2^26 of them stays finite), offsets in [-1, 1).
struct random_affine {
  __host__ __device__ affine operator()(std::uint64_t h) const {
    const float u = static_cast<float>(h >> 40) * 0x1.0p-24f;
    const float v = static_cast<float>((h >> 16) & 0xffffff) * 0x1.0p-24f;
    return {1.0f + (u - 0.5f) * 2e-3f, 2.0f * v - 1.0f};
  }
};
//! Keys that change at about one item in 16 (a 1 among 0s opens and closes a segment).
struct random_key {
  __host__ __device__ int operator()(std::uint64_t h) const { return h % 32 == 0 ? 1 : 0; }
};

//! The sizes every case runs (`max_n` the largest): 1000 to 4097 about native's single tiles (of 1024,
//! 2048 and 4096 items).
std::vector<std::size_t> sizes_up_to(std::size_t max_n) {
  std::vector<std::size_t> sizes = {1000,
                                    1024,
                                    1025,
                                    2048,
                                    4096,
                                    4097,
                                    (std::size_t{1} << 16) + 1,
                                    (std::size_t{1} << 20) + 3,
                                    (std::size_t{1} << 24) + 5};
  sizes.push_back(max_n);
  return sizes;
}

//! How far the inclusive compositions `d_got` of the maps `d_in` are from their composition in order
//! in double precision: the largest relative error of a slope, and of an offset against the sum of
//! the magnitudes of its terms (b_j times the slopes after it; the offsets' random signs cancel, so
//! their own size is no yardstick). Printed, with `who` made them.
struct map_errors {
  double slope = 0, offset = 0;
};
map_errors errors_of_maps(const affine* d_got, const affine* d_in, std::size_t n, const char* who) {
  std::vector<affine> got(n), in(n);
  check(cudaMemcpy(got.data(), d_got, n * sizeof(affine), cudaMemcpyDeviceToHost), "cudaMemcpy");
  check(cudaMemcpy(in.data(), d_in, n * sizeof(affine), cudaMemcpyDeviceToHost), "cudaMemcpy");
  double a = 1, b = 0, magnitude = 0;
  map_errors e;
  for (std::size_t i = 0; i < n; ++i) {
    a         = a * in[i].a;
    b         = b * in[i].a + in[i].b;
    magnitude = magnitude * std::fabs(in[i].a) + std::fabs(in[i].b);
    e.slope   = std::fmax(e.slope, std::fabs(got[i].a - a) / std::fabs(a));
    e.offset  = std::fmax(e.offset, std::fabs(got[i].b - b) / magnitude);
  }
  std::printf(
      "  maps by %s, n=%zu: largest slope error %.3g (relative), offset error %.3g (of its terms' magnitudes)\n", who,
      n, e.slope, e.offset);
  return e;
}

//! mix(i, bits of item i), for the order-free digest.
template <class T>
struct item_hash {
  const T* d_items;
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "items of at most one word");
    std::uint64_t bits = 0;
    std::memcpy(&bits, d_items + i, sizeof(T));
    return mix(i ^ mix(bits));
  }
};

template <class T>
std::uint64_t digest(const T* d_items, std::size_t n, cudaStream_t s) {
  const thrust::counting_iterator<std::uint64_t> first(0);
  return thrust::transform_reduce(thrust::cuda::par.on(s), first, first + n, item_hash<T>{d_items}, std::uint64_t{0},
                                  ::cuda::std::plus<std::uint64_t>{});
}

struct outcome {
  bool ok              = true;
  nlohmann::json cases = nlohmann::json::array();
};

//! Runs `scan(out)` twice on a poisoned `out` and records the digest; `check(out)` (false: wrong)
//! judges the first run's output.
template <class T, class Scan, class Check>
void run_case(outcome& o, const char* alg, const char* type, std::size_t n, T* d_out, cudaStream_t s, Scan scan,
              Check check_result) {
  std::uint64_t d[2];
  bool right = true;
  for (int run = 0; run < 2; ++run) {
    check(cudaMemsetAsync(d_out, 0xff, n * sizeof(T), s), "poison");
    scan();
    d[run] = digest(d_out, n, s);
    if (run == 0) right = check_result();
  }
  const bool ok = right && d[0] == d[1];
  o.ok          = o.ok && ok;
  if (!right) std::fprintf(stderr, "MISMATCH: %s %s at n=%zu is wrong\n", alg, type, n);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(d[0]));
  std::printf("%-26s %-7s %10zu  %s  %s\n", alg, type, n, hex,
              !right         ? "WRONG"
              : d[0] != d[1] ? "DIFFERS RUN TO RUN"
                             : "ok");
  o.cases.push_back({{"alg", alg}, {"type", type}, {"n", n}, {"digest", hex}, {"ok", ok}});
}

//! Exclusive and inclusive sums of `T` at every size up to `max_n`.
template <class T>
void sums(outcome& o, const char* type, std::size_t max_n, cudaStream_t s) {
  for (const std::size_t n : sizes_up_to(max_n)) {
    device_buffer<T> in(n), out(n), ref(n);
    fill_random(in.get(), n, 0xd16e57 ^ n, s);
    for (const bool exclusive : {true, false}) {
      auto scan = [&] {
        if (exclusive) {
          thrust::exclusive_scan(archscan::native_nosync.on(s), in.get(), in.get() + n, out.get());
        } else {
          thrust::inclusive_scan(archscan::native_nosync.on(s), in.get(), in.get() + n, out.get());
        }
      };
      auto against_cub = [&] {  // bit for bit for integers, within tolerance<T> for floating point
        const auto n64 = static_cast<std::int64_t>(n);
        cub_call{[&](void* temp, std::size_t& bytes) {
          if (exclusive) return cub::DeviceScan::ExclusiveSum(temp, bytes, in.get(), ref.get(), n64, s);
          return cub::DeviceScan::InclusiveSum(temp, bytes, in.get(), ref.get(), n64, s);
        }}();
        return compare(out.get(), ref.get(), n, s).count == 0;
      };
      run_case(o, exclusive ? "exclusive_scan" : "inclusive_scan", type, n, out.get(), s, scan, against_cub);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_program("archscan-digest", [&](const cudaDeviceProp& prop) {
    stream_handle stream;
    const cudaStream_t s = stream.get();
    std::printf("archscan-digest on %s (%d SMs), %s\n", prop.name, prop.multiProcessorCount, version_line().c_str());
    outcome o;
    const std::size_t big = (std::size_t{1} << 27) + 7, smaller = (std::size_t{1} << 26) + 7;
    sums<int>(o, "int32", big, s);
    sums<float>(o, "float", big, s);
    sums<double>(o, "double", smaller, s);
    for (const std::size_t n : sizes_up_to(smaller)) {
      device_buffer<affine> in(n), out(n), ref(n);
      fill_random(in.get(), n, 0xaff1e ^ n, s, random_affine{});
      cub_call{[&](void* temp, std::size_t& bytes) {  // CUB's rounding beside native's, as a yardstick
        return cub::DeviceScan::InclusiveScan(temp, bytes, in.get(), ref.get(), compose{}, static_cast<std::int64_t>(n),
                                              s);
      }}();
      const map_errors cub_errors = errors_of_maps(ref.get(), in.get(), n, "CUB");
      run_case(
          o, "inclusive_scan", "affine", n, out.get(), s,
          [&] { thrust::inclusive_scan(archscan::native_nosync.on(s), in.get(), in.get() + n, out.get(), compose{}); },
          [&] {
            // Within twice CUB's error, give or take 8x the scale of n float roundings in a random walk
            // (sqrt(n) units of 2^-24): where CUB's error happens to be small, another association's
            // may be a few times larger and still ordinary (n = 2048: 3.4e-6 against CUB's 1.0e-6).
            const double walk  = 8 * std::sqrt(static_cast<double>(n)) * 0x1p-24;
            const map_errors e = errors_of_maps(out.get(), in.get(), n, "native");
            return e.slope <= 2 * cub_errors.slope + walk && e.offset <= 2 * cub_errors.offset + walk;
          });
    }
    for (const std::size_t n : sizes_up_to(big)) {
      device_buffer<int> keys(n);
      device_buffer<float> in(n), out(n), ref(n);
      fill_random(keys.get(), n, 0x6e75 ^ n, s, random_key{});
      fill_random(in.get(), n, 0xb7c3 ^ n, s);
      cub_call{[&](void* temp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSumByKey(temp, bytes, keys.get(), in.get(), ref.get(),
                                                  static_cast<std::int64_t>(n), ::cuda::std::equal_to<>{}, s);
      }}();
      run_case(
          o, "exclusive_scan_by_key", "float", n, out.get(), s,
          [&] {
            thrust::exclusive_scan_by_key(archscan::native_nosync.on(s), keys.get(), keys.get() + n, in.get(),
                                          out.get());
          },
          [&] { return compare(out.get(), ref.get(), n, s).count == 0; });
    }
    if (argc > 1) {
      const nlohmann::json j = {
          {"device", prop.name}, {"sms", prop.multiProcessorCount}, {"versions", version_line()}, {"cases", o.cases}};
      std::ofstream(argv[1]) << j.dump(1) << "\n";
    }
    return o.ok;
  });
}
