// The policy machinery: stream and allocator forms, blocking and non-blocking behaviour, concurrent
// streams, CUDA graph capture (every scan form), archscan's storage pool, user allocators and
// allocation failure.

#include <functional>
#include <new>
#include <type_traits>
#include <vector>

#include <cuda.h>
#include <thrust/device_vector.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace {

using namespace archscan::test;

// ---- compile-time properties (checked on every machine) -------------------------------------------

template <class P, class A, class = void>
struct accepts_allocator : std::false_type {};
template <class P, class A>
struct accepts_allocator<P, A, std::void_t<decltype(std::declval<const P&>()(std::declval<A&>()))>> : std::true_type {};

using alloc_t     = thrust::device_allocator<char>;
using stream_form = decltype(archscan::turing.on(cudaStream_t{}));
static_assert(accepts_allocator<std::decay_t<decltype(archscan::turing)>, alloc_t>::value,
              "policy(alloc) is the allocator form");
static_assert(!accepts_allocator<stream_form, alloc_t>::value,
              "policy.on(s)(alloc) would drop the stream, so it must not compile");
static_assert(std::is_same_v<decltype(archscan::kepler_nosync.on(cudaStream_t{})),
                             archscan::stream_policy<archscan::kepler_tuning, false>>);
// Storage from the pool is returned before a blocking call synchronizes; a user allocator's after.
static_assert(archscan::dispatch::pool_storage<stream_form>);
static_assert(archscan::dispatch::pool_storage<std::decay_t<decltype(archscan::turing)>>);
static_assert(!archscan::dispatch::pool_storage<decltype(archscan::turing(std::declval<alloc_t&>()))>);
static_assert(
    !archscan::dispatch::pool_storage<decltype(archscan::turing(std::declval<alloc_t&>()).on(cudaStream_t{}))>);

TEST(PolicyTypes, StreamIsKeptThroughAllocatorForm) {
  alloc_t alloc;
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(0x1234);  // never used for work here
  auto p               = archscan::blelloch(alloc).on(s);
  EXPECT_EQ(thrust::cuda_cub::stream(p), s);
  auto q = archscan::blelloch_nosync.on(s);
  EXPECT_EQ(thrust::cuda_cub::stream(q), s);
  EXPECT_TRUE(archscan::blelloch.blocking);
  EXPECT_FALSE(archscan::blelloch_nosync.blocking);
}

// ---- GPU behaviour ----------------------------------------------------------------------------------

template <class C>
class PolicyTest : public ::testing::Test {};
TYPED_TEST_SUITE(PolicyTest, policy_cases, case_names);

std::vector<int> host_exclusive(const std::vector<int>& v, int init) {
  std::vector<int> r(v.size());
  int acc = init;
  for (std::size_t i = 0; i < v.size(); ++i) {
    r[i] = acc;
    acc += v[i];
  }
  return r;
}

TYPED_TEST(PolicyTest, BlockingReturnsWithStreamIdle) {
  ARCHSCAN_REQUIRE_GPU();
  using P = typename TypeParam::policy;
  cudaStream_t s;
  ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const std::int64_t n = 1 << 24;
  const auto items     = random_values<int>(n, 1);
  device_buffer<int> in(items), out(n);
  out.poison();
  thrust::exclusive_scan(P{}.on(s), in.begin(), in.end(), out.begin(), 0);
  if (P::blocking) EXPECT_EQ(cudaStreamQuery(s), cudaSuccess) << "a blocking policy returned before its work ended";
  ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s));
  EXPECT_EQ(out.to_host(), host_exclusive(items, 0));
  cudaStreamDestroy(s);
}

TYPED_TEST(PolicyTest, TwoStreamsConcurrently) {
  ARCHSCAN_REQUIRE_GPU();
  using P = typename TypeParam::policy;
  cudaStream_t s[2];
  for (auto& x : s) ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  const std::int64_t n[2] = {(1 << 22) + 3, (1 << 21) - 5};
  const auto a = random_values<int>(n[0], 2), b = random_values<int>(n[1], 3);
  device_buffer<int> in0(a), in1(b), out0(n[0]), out1(n[1]);
  out0.poison();
  out1.poison();
  for (int rep = 0; rep < 3; ++rep) {
    thrust::exclusive_scan(P{}.on(s[0]), in0.begin(), in0.end(), out0.begin(), rep);
    thrust::exclusive_scan(P{}.on(s[1]), in1.begin(), in1.end(), out1.begin(), -rep);
    ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s[0]));
    ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s[1]));
    ASSERT_EQ(out0.to_host(), host_exclusive(a, rep));
    ASSERT_EQ(out1.to_host(), host_exclusive(b, -rep));
  }
  for (auto& x : s) cudaStreamDestroy(x);
}

//! The work captured on a stream since cudaStreamBeginCapture, instantiated; destroyed with it.
struct captured_graph {
  cudaGraph_t graph    = nullptr;
  cudaGraphExec_t exec = nullptr;
  explicit captured_graph(cudaStream_t s) {
    EXPECT_EQ(cudaStreamEndCapture(s, &graph), cudaSuccess);
    EXPECT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  }
  ~captured_graph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
};

// Non-blocking policies inside stream capture: the graph is replayed with new inputs each time.
// Blocking policies must refuse capture with thrust::system_error (they would have to synchronize).
TYPED_TEST(PolicyTest, GraphCapture) {
  ARCHSCAN_REQUIRE_GPU();
  using P = typename TypeParam::policy;
  cudaStream_t s;
  ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const std::int64_t n = (1 << 20) + 77;
  device_buffer<int> in(n), out(n);
  ARCHSCAN_CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  if (!P::blocking) {
    thrust::exclusive_scan(P{}.on(s), in.begin(), in.end(), out.begin(), 7);
    const captured_graph g(s);
    ASSERT_NE(g.exec, nullptr);
    for (int replay = 0; replay < 4; ++replay) {
      const auto items = random_values<int>(n, 100 + replay);
      ARCHSCAN_CUDA_OK(cudaMemcpy(in.get(), items.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
      out.poison();
      ARCHSCAN_CUDA_OK(cudaGraphLaunch(g.exec, s));
      ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s));
      ASSERT_EQ(out.to_host(), host_exclusive(items, 7)) << "replay " << replay;
    }
  } else {
    EXPECT_THROW(thrust::exclusive_scan(P{}.on(s), in.begin(), in.end(), out.begin(), 7), thrust::system_error);
    cudaGraph_t graph = nullptr;
    cudaStreamEndCapture(s, &graph);  // the capture was invalidated by the refused synchronization
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();
  }
  cudaStreamDestroy(s);
}

//! A transform scan's functor with a non-const call operator.
struct negate_item {
  __host__ __device__ int operator()(int x) { return -x; }
};

// Every scan form of a `_nosync` policy captured into one graph, at sizes that take each route with
// launches of its own: the look-back (native: the states' reset, then the scan as its dependent
// launch; staged on devices that stage), a wave, by key and through a transform. A synchronization
// added on any of those paths fails the capture.
TYPED_TEST(PolicyTest, GraphCaptureEveryScanForm) {
  ARCHSCAN_REQUIRE_GPU();
  using P = typename TypeParam::policy;
  if (P::blocking) GTEST_SKIP() << "blocking policies refuse capture (GraphCapture checks the refusal)";
  cudaStream_t s;
  ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const std::int64_t large = (std::int64_t{1} << 24) + 5;
  const std::int64_t mid   = (std::int64_t{1} << 20) + 77;
  device_buffer<int> in(large), out(large), keys(mid), by_key(mid), transformed(mid);
  ARCHSCAN_CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  thrust::exclusive_scan(P{}.on(s), in.begin(), in.end(), out.begin(), 7);
  thrust::inclusive_scan_by_key(P{}.on(s), keys.begin(), keys.end(), in.begin(), by_key.begin());
  thrust::transform_inclusive_scan(P{}.on(s), in.begin(), in.begin() + mid, transformed.begin(), negate_item{},
                                   thrust::plus<int>());
  const captured_graph g(s);
  ASSERT_NE(g.exec, nullptr);
  for (int replay = 0; replay < 2; ++replay) {
    const auto items    = random_values<int>(large, 300 + replay);
    const auto key_runs = random_key_runs(mid, 400 + replay);
    ARCHSCAN_CUDA_OK(cudaMemcpy(in.get(), items.data(), sizeof(int) * large, cudaMemcpyHostToDevice));
    ARCHSCAN_CUDA_OK(cudaMemcpy(keys.get(), key_runs.data(), sizeof(int) * mid, cudaMemcpyHostToDevice));
    out.poison();
    by_key.poison();
    transformed.poison();
    ARCHSCAN_CUDA_OK(cudaGraphLaunch(g.exec, s));
    ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s));
    ASSERT_EQ(out.to_host(), host_exclusive(items, 7)) << "replay " << replay;
    const std::vector<int> head(items.begin(), items.begin() + mid);
    ASSERT_EQ(by_key.to_host(), host_scan_by_key(key_runs, head, std::plus<int>(), std::equal_to<int>(), false, 0))
        << "replay " << replay;
    std::vector<int> negated(head.size());
    for (std::size_t i = 0; i < head.size(); ++i) negated[i] = -head[i];
    ASSERT_EQ(transformed.to_host(), host_scan(negated, std::plus<int>(), false, false, 0)) << "replay " << replay;
  }
  cudaStreamDestroy(s);
}

//! The memory pool an allocation came from (null for a cudaMalloc), as the driver names it
//! (CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, through the runtime's entry point: the tests link no libcuda).
CUmemoryPool pool_of(const void* p) {
  using get_attribute_t = CUresult (*)(void*, CUpointer_attribute, CUdeviceptr);
  void* fn              = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuPointerGetAttribute", &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    ADD_FAILURE() << "no cuPointerGetAttribute";
    return nullptr;
  }
  CUmemoryPool pool = nullptr;
  const CUresult r  = reinterpret_cast<get_attribute_t>(fn)(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                                                           reinterpret_cast<CUdeviceptr>(p));
  return r == CUDA_SUCCESS ? pool : nullptr;
}

// policy.cuh: without a user allocator every algorithm's temporary storage (Thrust's
// get_temporary_buffer, which archscan's scans take too: dispatch/temporary_storage.cuh) comes from
// archscan's own per-device pool, never a cudaMalloc nor the device's default pool.
TEST(PolicyStorage, ComesFromArchscansOwnPool) {
  ARCHSCAN_REQUIRE_GPU();
  cudaStream_t s;
  ARCHSCAN_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  auto policy      = archscan::native_nosync.on(s);
  const auto large = archscan::get_temporary_buffer<int>(policy, std::ptrdiff_t{1} << 20);
  const auto small = archscan::get_temporary_buffer<double>(policy, 3);
  ASSERT_NE(large.first.get(), nullptr);
  ASSERT_NE(small.first.get(), nullptr);
  ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s));  // the allocations made in stream order
  const CUmemoryPool pool = pool_of(large.first.get());
  EXPECT_NE(pool, nullptr) << "not from a pool";
  int device = 0;
  ARCHSCAN_CUDA_OK(cudaGetDevice(&device));
  cudaMemPool_t default_pool;
  ARCHSCAN_CUDA_OK(cudaDeviceGetDefaultMemPool(&default_pool, device));
  EXPECT_NE(pool, reinterpret_cast<CUmemoryPool>(default_pool)) << "the device's default pool";
  EXPECT_EQ(pool_of(small.first.get()), pool) << "one pool per device";
  archscan::return_temporary_buffer(policy, small.first, small.second);
  archscan::return_temporary_buffer(policy, large.first, large.second);
  ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s));
  void* plain = nullptr;  // what the check tells apart
  ARCHSCAN_CUDA_OK(cudaMalloc(&plain, 256));
  EXPECT_EQ(pool_of(plain), nullptr);
  ARCHSCAN_CUDA_OK(cudaFree(plain));
  cudaStreamDestroy(s);
}

//! A device allocator that counts, and can be told to fail.
struct counting_allocator : thrust::device_allocator<char> {
  int* allocations;
  int* deallocations;
  bool fail = false;
  counting_allocator(int* a, int* d, bool f) : allocations(a), deallocations(d), fail(f) {}
  thrust::device_ptr<char> allocate(std::size_t n) {
    if (fail) throw std::bad_alloc();
    ++*allocations;
    return thrust::device_allocator<char>::allocate(n);
  }
  void deallocate(thrust::device_ptr<char> p, std::size_t n) {
    ++*deallocations;
    thrust::device_allocator<char>::deallocate(p, n);
  }
};

TYPED_TEST(PolicyTest, UserAllocatorProvidesTemporaryStorage) {
  ARCHSCAN_REQUIRE_GPU();
  using P    = typename TypeParam::policy;
  int allocs = 0, deallocs = 0;
  counting_allocator alloc(&allocs, &deallocs, false);
  const std::int64_t n = 1 << 22;
  const auto items     = random_values<int>(n, 9);
  device_buffer<int> in(items), out(n);
  cudaStream_t s;
  ARCHSCAN_CUDA_OK(cudaStreamCreate(&s));
  thrust::exclusive_scan(P{}(alloc).on(s), in.begin(), in.end(), out.begin(), 3);
  ARCHSCAN_CUDA_OK(cudaStreamSynchronize(s));
  EXPECT_EQ(out.to_host(), host_exclusive(items, 3));
  EXPECT_GE(allocs, 1) << "a multi-tile scan needs temporary storage, which must come from the user's allocator";
  EXPECT_EQ(allocs, deallocs);
  cudaStreamDestroy(s);
}

TYPED_TEST(PolicyTest, AllocationFailureThrowsBadAlloc) {
  ARCHSCAN_REQUIRE_GPU();
  using P    = typename TypeParam::policy;
  int allocs = 0, deallocs = 0;
  counting_allocator alloc(&allocs, &deallocs, true);
  const std::int64_t n = 1 << 22;
  device_buffer<int> in(random_values<int>(n, 10)), out(n);
  EXPECT_THROW(thrust::exclusive_scan(P{}(alloc), in.begin(), in.end(), out.begin(), 3), std::bad_alloc);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

}  // namespace
