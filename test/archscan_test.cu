// archscan.cuh, the header a user includes: each of the sixteen scan-family overloads, called through
// Thrust's public entry points with an archscan policy, reaches archscan (instrumentation counters), and
// other algorithms do not. Runs everywhere: with a GPU the calls complete; without one they reach
// archscan and then throw thrust::system_error from the first CUDA call, the error Thrust itself raises.

#include <array>
#include <functional>

#include <thrust/count.h>
#include <thrust/functional.h>
#include <thrust/mr/allocator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/memory_resource.h>
#include <thrust/transform.h>

#include <archscan/archscan.cuh>

#include "support/gpu.cuh"

namespace {

using archscan::instrumentation::entry;

std::array<std::uint64_t, static_cast<int>(entry::count)> snapshot() {
  std::array<std::uint64_t, static_cast<int>(entry::count)> s{};
  for (int e = 0; e < static_cast<int>(entry::count); ++e) s[e] = archscan::instrumentation::calls(entry(e));
  return s;
}

struct negate_op {
  __host__ __device__ int operator()(int x) const { return -x; }
};

// Device buffers where a GPU is usable; dangling-free placeholders (never dereferenced) otherwise.
struct buffers {
  int* keys              = nullptr;
  int* in                = nullptr;
  int* out               = nullptr;
  bool gpu               = archscan::test::gpu_available();
  static constexpr int n = 3;
  buffers() {
    if (!gpu) return;
    const int h[n] = {1, 2, 3};
    cudaMalloc(&keys, sizeof(h));
    cudaMalloc(&in, sizeof(h));
    cudaMalloc(&out, sizeof(h));
    cudaMemcpy(keys, h, sizeof(h), cudaMemcpyHostToDevice);
    cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  }
  ~buffers() {
    cudaFree(keys);
    cudaFree(in);
    cudaFree(out);
  }
};

template <class Policy>
void expect_routed(const Policy& policy, entry e, const std::function<void(const Policy&, buffers&)>& call) {
  buffers b;
  const auto before = snapshot();
  if (b.gpu) {
    call(policy, b);
  } else {
    EXPECT_THROW(call(policy, b), thrust::system_error);
  }
  const auto after = snapshot();
  for (int i = 0; i < static_cast<int>(entry::count); ++i) {
    EXPECT_EQ(after[i] - before[i], i == static_cast<int>(e) ? 1u : 0u)
        << "counter " << i << " for entry " << static_cast<int>(e);
  }
}

template <class Policy>
class OverloadTest : public ::testing::Test {};
using policies =
    ::testing::Types<archscan::policy<archscan::blelloch_tuning>, archscan::policy<archscan::blelloch_tuning, false>>;
TYPED_TEST_SUITE(OverloadTest, policies);

TYPED_TEST(OverloadTest, EveryScanOverloadReachesArchscan) {
  using P = TypeParam;
  const P p{};
  using B         = buffers;
  constexpr int n = B::n;
  expect_routed<P>(p, entry::inclusive_scan,
                   [](const P& q, B& b) { thrust::inclusive_scan(q, b.in, b.in + n, b.out); });
  expect_routed<P>(p, entry::inclusive_scan_op,
                   [](const P& q, B& b) { thrust::inclusive_scan(q, b.in, b.in + n, b.out, thrust::maximum<int>()); });
  expect_routed<P>(p, entry::inclusive_scan_init_op,
                   [](const P& q, B& b) { thrust::inclusive_scan(q, b.in, b.in + n, b.out, 5, thrust::plus<int>()); });
  expect_routed<P>(p, entry::exclusive_scan,
                   [](const P& q, B& b) { thrust::exclusive_scan(q, b.in, b.in + n, b.out); });
  expect_routed<P>(p, entry::exclusive_scan_init,
                   [](const P& q, B& b) { thrust::exclusive_scan(q, b.in, b.in + n, b.out, 7); });
  expect_routed<P>(p, entry::exclusive_scan_init_op,
                   [](const P& q, B& b) { thrust::exclusive_scan(q, b.in, b.in + n, b.out, 7, thrust::plus<int>()); });
  expect_routed<P>(p, entry::inclusive_scan_by_key,
                   [](const P& q, B& b) { thrust::inclusive_scan_by_key(q, b.keys, b.keys + n, b.in, b.out); });
  expect_routed<P>(p, entry::inclusive_scan_by_key_pred, [](const P& q, B& b) {
    thrust::inclusive_scan_by_key(q, b.keys, b.keys + n, b.in, b.out, thrust::equal_to<int>());
  });
  expect_routed<P>(p, entry::inclusive_scan_by_key_pred_op, [](const P& q, B& b) {
    thrust::inclusive_scan_by_key(q, b.keys, b.keys + n, b.in, b.out, thrust::equal_to<int>(), thrust::plus<int>());
  });
  expect_routed<P>(p, entry::exclusive_scan_by_key,
                   [](const P& q, B& b) { thrust::exclusive_scan_by_key(q, b.keys, b.keys + n, b.in, b.out); });
  expect_routed<P>(p, entry::exclusive_scan_by_key_init,
                   [](const P& q, B& b) { thrust::exclusive_scan_by_key(q, b.keys, b.keys + n, b.in, b.out, 1); });
  expect_routed<P>(p, entry::exclusive_scan_by_key_init_pred, [](const P& q, B& b) {
    thrust::exclusive_scan_by_key(q, b.keys, b.keys + n, b.in, b.out, 1, thrust::equal_to<int>());
  });
  expect_routed<P>(p, entry::exclusive_scan_by_key_init_pred_op, [](const P& q, B& b) {
    thrust::exclusive_scan_by_key(q, b.keys, b.keys + n, b.in, b.out, 1, thrust::equal_to<int>(), thrust::plus<int>());
  });
  expect_routed<P>(p, entry::transform_inclusive_scan, [](const P& q, B& b) {
    thrust::transform_inclusive_scan(q, b.in, b.in + n, b.out, negate_op{}, thrust::plus<int>());
  });
  expect_routed<P>(p, entry::transform_inclusive_scan_init, [](const P& q, B& b) {
    thrust::transform_inclusive_scan(q, b.in, b.in + n, b.out, negate_op{}, 3, thrust::plus<int>());
  });
  expect_routed<P>(p, entry::transform_exclusive_scan, [](const P& q, B& b) {
    thrust::transform_exclusive_scan(q, b.in, b.in + n, b.out, negate_op{}, 3, thrust::plus<int>());
  });
}

// The stream and allocator forms reach archscan too (not only the bare policy object).
TYPED_TEST(OverloadTest, StreamAndAllocatorFormsReachArchscan) {
  using P = TypeParam;
  const P p{};
  thrust::cuda::memory_resource mr;  // Thrust's cudaMalloc-backed resource
  using S = decltype(p.on(cudaStream_t{}));
  expect_routed<S>(p.on(cudaStream_t{}), entry::exclusive_scan,
                   [](const S& q, buffers& b) { thrust::exclusive_scan(q, b.in, b.in + buffers::n, b.out); });
  using A = decltype(p(&mr).on(cudaStream_t{}));
  expect_routed<A>(p(&mr).on(cudaStream_t{}), entry::exclusive_scan,
                   [](const A& q, buffers& b) { thrust::exclusive_scan(q, b.in, b.in + buffers::n, b.out); });
}

// Non-scan algorithms go to Thrust's CUDA backend: at compile time the policy is a Thrust CUDA policy,
// and at run time no archscan counter moves.
TYPED_TEST(OverloadTest, OtherAlgorithmsUseThrustBackend) {
  using P = TypeParam;
  static_assert(std::is_base_of_v<thrust::cuda_cub::execution_policy<P>, P>);
  const P p{};
  const auto before = snapshot();
  buffers b;
  auto others = [&] {
    thrust::sort(p, b.in, b.in + buffers::n);
    (void)thrust::reduce(p, b.in, b.in + buffers::n);
    (void)thrust::count(p, b.in, b.in + buffers::n, 2);
  };
  if (b.gpu) {
    others();
  } else {
    EXPECT_THROW(others(), thrust::system_error);
  }
  EXPECT_EQ(snapshot(), before);
}

// ... on the policy's stream: captured there, a non-scan algorithm's kernels land in the graph (work
// on another stream would be missing from it, and on the legacy stream would invalidate the capture).
TEST(OtherAlgorithms, RunOnThePolicysStream) {
  ARCHSCAN_REQUIRE_GPU();
  buffers b;
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  thrust::transform(archscan::native_nosync.on(s), b.in, b.in + buffers::n, b.out, thrust::negate<int>());
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(s, &graph), cudaSuccess);
  std::size_t nodes = 0;
  EXPECT_EQ(cudaGraphGetNodes(graph, nullptr, &nodes), cudaSuccess);
  EXPECT_GT(nodes, 0u);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
}

}  // namespace
