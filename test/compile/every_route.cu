// Compile-only: the kernels of every family over the value widths and scan forms the suite runs
// (one to eight bytes, a 16-byte non-commutative product, a 256-byte value that no tile transposes,
// by key with narrow and wide values, uint8 flags to int32 offsets, transform scans). Every route a
// family's dispatch can choose (one tile, a wave, a cluster, the look-back, native's large and staged
// tiles) is instantiated here, so the machine code of this unit covers what runs. tools/same_sass.sh
// compiles it, with public_api.cu, at two revisions and compares the kernels' SASS: the gate for a
// change that must not change what the GPU runs. Never run.

#include <cstdint>

#include <cuda/functional>
#include <cuda/std/functional>
#include <thrust/device_vector.h>
#include <thrust/iterator/transform_iterator.h>

#include <archscan/archscan.cuh>

namespace {

//! 2x2 matrices of uint32 under multiplication mod 2^32 (test/support/values.cuh's mat2).
struct mat2 {
  std::uint32_t a, b, c, d;
};
struct mat2_mul {
  __host__ __device__ mat2 operator()(const mat2& x, const mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};

//! A value too large for any tile to transpose through shared memory.
struct wide {
  float v[64];
};
struct wide_add {
  __host__ __device__ wide operator()(const wide& x, const wide& y) const {
    wide r;
    for (int i = 0; i < 64; ++i) r.v[i] = x.v[i] + y.v[i];
    return r;
  }
};

struct halve {
  __host__ __device__ float operator()(float x) const { return 0.5f * x; }
};

template <class Policy, class T>
void sums(const Policy& p, thrust::device_vector<T>& v, thrust::device_vector<T>& o) {
  thrust::inclusive_scan(p, v.begin(), v.end(), o.begin());
  thrust::exclusive_scan(p, v.begin(), v.end(), o.begin(), T{1});
}

template <class Policy, class V>
void by_key(const Policy& p, thrust::device_vector<int>& k, thrust::device_vector<V>& v, thrust::device_vector<V>& o) {
  thrust::inclusive_scan_by_key(p, k.begin(), k.end(), v.begin(), o.begin());
  thrust::exclusive_scan_by_key(p, k.begin(), k.end(), v.begin(), o.begin(), V{1});
}

template <class Policy>
void every_width(const Policy& p) {
  thrust::device_vector<std::int8_t> i8(1), o8(1);
  thrust::device_vector<std::int16_t> i16(1), o16(1);
  thrust::device_vector<int> i32(1), o32(1), keys(1);
  thrust::device_vector<std::int64_t> i64(1), o64(1);
  thrust::device_vector<float> f(1), of(1);
  thrust::device_vector<double> d(1), od(1);
  thrust::device_vector<std::uint8_t> flags(1);
  thrust::device_vector<mat2> m(1), om(1);
  sums(p, i8, o8);
  sums(p, i16, o16);
  sums(p, i32, o32);
  sums(p, i64, o64);
  sums(p, f, of);
  sums(p, d, od);
  thrust::exclusive_scan(p, flags.begin(), flags.end(), o32.begin(), 0);
  thrust::inclusive_scan(p, m.begin(), m.end(), om.begin(), mat2_mul{});
  thrust::exclusive_scan(p, m.begin(), m.end(), om.begin(), mat2{1, 0, 0, 1}, mat2_mul{});
  thrust::inclusive_scan(p, i32.begin(), i32.end(), o32.begin(), ::cuda::maximum<>{});
  by_key(p, keys, i32, o32);
  by_key(p, keys, d, od);
  thrust::exclusive_scan_by_key(p, keys.begin(), keys.end(), m.begin(), om.begin(), mat2{1, 0, 0, 1},
                                ::cuda::std::equal_to<>{}, mat2_mul{});
  thrust::transform_inclusive_scan(p, f.begin(), f.end(), of.begin(), halve{}, ::cuda::std::plus<>{});
  thrust::transform_exclusive_scan(p, f.begin(), f.end(), of.begin(), halve{}, 0.0f, ::cuda::std::plus<>{});
}

}  // namespace

void archscan_every_route(cudaStream_t s) {
  every_width(archscan::blelloch_nosync.on(s));
  every_width(archscan::kepler_nosync.on(s));
  every_width(archscan::turing_nosync.on(s));
  every_width(archscan::native_nosync.on(s));
  thrust::device_vector<wide> w(1), ow(1);
  thrust::inclusive_scan(archscan::native_nosync.on(s), w.begin(), w.end(), ow.begin(), wide_add{});
  thrust::inclusive_scan(archscan::turing_nosync.on(s), w.begin(), w.end(), ow.begin(), wide_add{});
}
