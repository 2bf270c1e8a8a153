// archscan-across: the harness's multi-GPU mode. One process, one thread per GPU, communicators over
// the first k GPUs (k = 1 .. every visible GPU). Exclusive sums of int32, `archscan::native_nosync`:
//   one_gpu      the scan of n items on GPU 0 (no communicator): the baseline;
//   across       k ranks, each scanning its n items, across a communicator of k ranks;
//   gather_scan  the naive baseline from the same parts: every rank sends its slice to rank 0
//                (ncclSend/ncclRecv), and rank 0 scans the whole there;
//   allgather8   one ncclAllGather of 8 bytes per rank (the latency floor of any exchange).
// Timing: CUDA events on each rank's stream around a batch of back-to-back calls, after warm-up; a
// sample is the slowest rank's time per call; the median of the samples is reported, with the
// device's name. Every across result is checked on the device against the closed form of the scan
// of its input (item i = i mod 7). Writes a markdown table to stdout and JSON to --json FILE.
//
//   archscan-across [--json FILE] [--max-log2 30] [--samples 15]
//
// Processes mode, one process per GPU as multi-GPU jobs usually run (the threads of one process
// share the CUDA driver, and at small n their calls wait on each other there): start PROCS copies,
//   id=$(mktemp -u); for r in 0 1; do archscan-across --procs 2 --rank $r --id $id [--json F] & done; wait
// Rank r runs on GPU r; rank 0 writes the NCCL id to the file ID (a fresh path) and prints. Rows:
// allgather8, and one_gpu (every rank at once, each on its own GPU, no communicator) and across at
// 2^16 and 2^20 items per GPU, where the host's share of a call decides its time. A sample is the
// slowest rank's, as in threads mode (the ranks meet in an all-reduce before each sample).

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

#include <archscan/nccl.cuh>

#include "common.cuh"

namespace {

using archscan::perf::check;

void nccl_check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(r));
}

//! A reusable barrier for the rank threads (C++17 has none).
class barrier {
 public:
  explicit barrier(int n) : n_(n) {}
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    const int gen = gen_;
    if (++count_ == n_) {
      count_ = 0;
      ++gen_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return gen != gen_; });
    }
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int n_, count_ = 0, gen_ = 0;
};

struct mod7 {
  __host__ __device__ int operator()(std::int64_t i) const { return static_cast<int>(i % 7); }
};
//! Exclusive sum of item j = (lo + j) mod 7 over the global sequence, against its closed form.
struct wrong_prefix {
  const int* out;
  std::int64_t lo;
  __device__ bool operator()(std::int64_t j) const {
    const std::int64_t count = lo + j, q = count / 7, r = count % 7;
    return out[j] != static_cast<int>(21 * q + r * (r - 1) / 2);  // int32 wraps alike on both sides
  }
};

//! Calls per sample: enough that a batch lasts well over the event resolution.
int batch_of(std::int64_t bytes) { return bytes >= (std::int64_t{1} << 28) ? 2 : bytes >= (1 << 24) ? 5 : 20; }

//! Microseconds per call: on the stream (events), and on the host to issue it (where the two are
//! close, a small call is bound by the host, not the GPU).
struct timing {
  double us;
  double host_us;
};

//! One sample: `batch` back-to-back calls on stream `s`, in milliseconds per call on the stream (events)
//! and on the host (to issue them).
template <class Call>
std::pair<double, double> time_batch(archscan::perf::event_timer& timer, cudaStream_t s, int batch, const Call& call) {
  double host    = 0;
  const double t = timer.time_ms(s, [&] {
    const auto t0 = std::chrono::steady_clock::now();
    for (int b = 0; b < batch; ++b) call();
    host = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  });
  return {t / batch, host / batch};
}

//! Runs `call(rank)` on `ranks` threads (one per GPU 0..ranks-1) `batch` times per sample, after 2
//! warm-up calls; returns the medians over samples of the slowest rank's times per call.
timing time_on_ranks(int ranks, int samples, int batch, const std::vector<cudaStream_t>& streams,
                     const std::function<void(int)>& call) {
  // ms[i][r], host_ms[i][r]: sample i, rank r, per call.
  std::vector<std::vector<double>> ms(static_cast<std::size_t>(samples),
                                      std::vector<double>(static_cast<std::size_t>(ranks)));
  auto host_ms = ms;
  barrier sync(ranks);
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      check(cudaSetDevice(r), "cudaSetDevice");
      cudaStream_t s = streams[static_cast<std::size_t>(r)];
      archscan::perf::event_timer timer;  // created on this rank's device
      for (int w = 0; w < 2; ++w) call(r);
      check(cudaStreamSynchronize(s), "warm-up");
      for (int i = 0; i < samples; ++i) {
        sync.wait();
        std::tie(ms[static_cast<std::size_t>(i)][static_cast<std::size_t>(r)],
                 host_ms[static_cast<std::size_t>(i)][static_cast<std::size_t>(r)]) =
            time_batch(timer, s, batch, [&] { call(r); });
      }
    });
  }
  for (auto& t : threads) t.join();
  const auto slowest_median = [](const std::vector<std::vector<double>>& per_sample) {
    std::vector<double> slowest;
    for (const auto& sample : per_sample) slowest.push_back(*std::max_element(sample.begin(), sample.end()));
    return 1000.0 * archscan::perf::median(slowest);
  };
  return {slowest_median(ms), slowest_median(host_ms)};
}

__global__ void empty_kernel() {}

//! Host microseconds per call of `f`, over `reps` calls (after one), on this thread.
template <class F>
double host_us_per_call(int reps, F&& f) {
  f();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps;
}

struct row {
  std::string what;
  int gpus;
  std::int64_t per_gpu;
  timing t;
};

//! Rank 0 makes the NCCL id and leaves it in the file `path`; the others wait for it there.
ncclUniqueId shared_id(int rank, const std::string& path) {
  ncclUniqueId id{};
  if (rank == 0) {
    nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    std::ofstream(path + ".tmp", std::ios::binary).write(id.internal, sizeof(id.internal));
    std::rename((path + ".tmp").c_str(), path.c_str());  // the others never see half a file
  } else {
    std::ifstream in;
    while (!(in = std::ifstream(path, std::ios::binary))) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    in.read(id.internal, sizeof(id.internal));
  }
  return id;
}

//! Processes mode (see the top of this file): this process is rank `rank` of `procs`.
bool run_processes(int rank, int procs, const std::string& id_path, int samples, const std::string& json_path,
                   const cudaDeviceProp& prop) {
  check(cudaSetDevice(rank), "cudaSetDevice");
  ncclComm_t comm = nullptr;
  nccl_check(ncclCommInitRank(&comm, procs, shared_id(rank, id_path), rank), "ncclCommInitRank");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  thrust::device_vector<double> d_meet(1), d_times(2 * static_cast<std::size_t>(samples));
  auto* meet          = thrust::raw_pointer_cast(d_meet.data());
  auto* times         = thrust::raw_pointer_cast(d_times.data());
  const auto meet_all = [&] {  // every rank here before a sample starts
    nccl_check(ncclAllReduce(meet, meet, 1, ncclFloat64, ncclMax, comm, s), "ncclAllReduce");
    check(cudaStreamSynchronize(s), "meeting");
  };
  archscan::perf::event_timer timer;
  const auto time_calls = [&](int batch, const std::function<void()>& call) -> timing {
    for (int w = 0; w < 2; ++w) call();
    check(cudaStreamSynchronize(s), "warm-up");
    std::vector<double> ms(2 * static_cast<std::size_t>(samples));  // device times, then host times
    for (int i = 0; i < samples; ++i) {
      meet_all();
      std::tie(ms[static_cast<std::size_t>(i)], ms[static_cast<std::size_t>(samples + i)]) =
          time_batch(timer, s, batch, call);
    }
    // The slowest rank's sample, then the medians.
    check(cudaMemcpy(times, ms.data(), ms.size() * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy");
    nccl_check(ncclAllReduce(times, times, ms.size(), ncclFloat64, ncclMax, comm, s), "ncclAllReduce");
    check(cudaMemcpyAsync(ms.data(), times, ms.size() * sizeof(double), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(s), "slowest rank");
    return {1000.0 * archscan::perf::median(std::vector<double>(ms.begin(), ms.begin() + samples)),
            1000.0 * archscan::perf::median(std::vector<double>(ms.begin() + samples, ms.end()))};
  };
  std::vector<row> rows;
  bool ok = true;
  thrust::device_vector<char> gather_buf(8 * static_cast<std::size_t>(procs));
  rows.push_back({"allgather8", procs, 0, time_calls(20, [&] {
                    char* b = thrust::raw_pointer_cast(gather_buf.data());
                    nccl_check(ncclAllGather(b + 8 * rank, b, 8, ncclUint8, comm, s), "ncclAllGather");
                  })});
  for (const std::int64_t n : {std::int64_t{1} << 16, std::int64_t{1} << 20}) {
    thrust::device_vector<int> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
    thrust::transform(thrust::counting_iterator<std::int64_t>(rank * n),
                      thrust::counting_iterator<std::int64_t>((rank + 1) * n), in.begin(), mod7{});
    rows.push_back({"one_gpu", procs, n, time_calls(20, [&] {
                      thrust::exclusive_scan(archscan::native_nosync.on(s), in.begin(), in.end(), out.begin());
                    })});
    rows.push_back({"across", procs, n, time_calls(20, [&] {
                      thrust::exclusive_scan(archscan::native_nosync.on(s).across(comm), in.begin(), in.end(),
                                             out.begin());
                    })});
    const auto bad = thrust::count_if(thrust::cuda::par.on(s), thrust::counting_iterator<std::int64_t>(0),
                                      thrust::counting_iterator<std::int64_t>(n),
                                      wrong_prefix{thrust::raw_pointer_cast(out.data()), rank * n});
    if (bad != 0) {
      std::printf("MISMATCH: across, processes mode, rank %d, %lld items: %lld wrong\n", rank,
                  static_cast<long long>(n), static_cast<long long>(bad));
      ok = false;
    }
  }
  ncclCommDestroy(comm);
  if (rank != 0) return ok;
  std::printf(
      "# archscan-across, processes mode (one process per GPU), %d x %s (CCCL %s): exclusive sums of int32, "
      "native_nosync; median of %d samples, microseconds\n\n",
      procs, prop.name, archscan::perf::cccl_version().c_str(), samples);
  std::printf("| what | GPUs | items per GPU | us | host us to issue |\n| --- | ---: | ---: | ---: | ---: |\n");
  nlohmann::json j;
  j["device"] = prop.name;
  j["mode"]   = "processes";
  j["gpus"]   = procs;
  j["cccl"]   = archscan::perf::cccl_version();
  for (const row& r : rows) {
    std::printf("| %s | %d | %lld | %.2f | %.2f |\n", r.what.c_str(), r.gpus, static_cast<long long>(r.per_gpu), r.t.us,
                r.t.host_us);
    j["rows"].push_back(
        {{"what", r.what}, {"gpus", r.gpus}, {"items_per_gpu", r.per_gpu}, {"us", r.t.us}, {"host_us", r.t.host_us}});
  }
  if (!json_path.empty()) std::ofstream(json_path) << j.dump(1) << "\n";
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::string json_path, id_path;
  int max_log2 = 30, samples = 15, procs = 0, rank = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--json") json_path = argv[i + 1];
    if (a == "--max-log2") max_log2 = std::stoi(argv[i + 1]);
    if (a == "--samples") samples = std::stoi(argv[i + 1]);
    if (a == "--procs") procs = std::stoi(argv[i + 1]);
    if (a == "--rank") rank = std::stoi(argv[i + 1]);
    if (a == "--id") id_path = argv[i + 1];
  }
  if (procs > 0) {
    return archscan::perf::run_program("archscan-across", [&](const cudaDeviceProp& prop) {
      return run_processes(rank, procs, id_path, samples, json_path, prop);
    });
  }
  return archscan::perf::run_program("archscan-across", [&](const cudaDeviceProp& prop) {
    int devices = 0;
    check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
    std::vector<cudaStream_t> streams(static_cast<std::size_t>(devices));
    for (int d = 0; d < devices; ++d) {
      check(cudaSetDevice(d), "cudaSetDevice");
      check(cudaStreamCreateWithFlags(&streams[static_cast<std::size_t>(d)], cudaStreamNonBlocking),
            "cudaStreamCreate");
    }
    std::vector<row> rows;
    std::vector<std::pair<std::string, double>> host_costs;  // what a scan across ranks issues, one thread
    bool ok = true;
    std::vector<std::int64_t> sizes;
    for (int lg : {16, 20, 24, 28, 29, 30})
      if (lg <= max_log2) sizes.push_back(std::int64_t{1} << lg);

    for (int k = 1; k <= devices; ++k) {
      std::vector<ncclComm_t> comms(static_cast<std::size_t>(k));
      std::vector<int> devlist(static_cast<std::size_t>(k));
      for (int d = 0; d < k; ++d) devlist[static_cast<std::size_t>(d)] = d;
      nccl_check(ncclCommInitAll(comms.data(), k, devlist.data()), "ncclCommInitAll");
      // allgather8: the floor of one exchange.
      {
        std::vector<void*> bufs(static_cast<std::size_t>(k));
        for (int r = 0; r < k; ++r) {
          check(cudaSetDevice(r), "cudaSetDevice");
          check(cudaMalloc(&bufs[static_cast<std::size_t>(r)], 8 * static_cast<std::size_t>(k)), "cudaMalloc");
        }
        const timing us = time_on_ranks(k, samples, 20, streams, [&](int r) {
          auto* b = static_cast<char*>(bufs[static_cast<std::size_t>(r)]);
          nccl_check(ncclAllGather(b + 8 * r, b, 8, ncclUint8, comms[static_cast<std::size_t>(r)],
                                   streams[static_cast<std::size_t>(r)]),
                     "ncclAllGather");
        });
        rows.push_back({"allgather8", k, 0, us});
        for (int r = 0; r < k; ++r) {
          check(cudaSetDevice(r), "cudaSetDevice");
          cudaFree(bufs[static_cast<std::size_t>(r)]);
        }
      }
      for (const std::int64_t n : sizes) {
        // Each rank's slice: items [r n, (r + 1) n) of the global sequence, generated on its GPU.
        std::vector<thrust::device_vector<int>*> in(static_cast<std::size_t>(k)), out(static_cast<std::size_t>(k));
        for (int r = 0; r < k; ++r) {
          check(cudaSetDevice(r), "cudaSetDevice");
          in[static_cast<std::size_t>(r)]  = new thrust::device_vector<int>(static_cast<std::size_t>(n));
          out[static_cast<std::size_t>(r)] = new thrust::device_vector<int>(static_cast<std::size_t>(n));
          thrust::transform(thrust::counting_iterator<std::int64_t>(r * n),
                            thrust::counting_iterator<std::int64_t>((r + 1) * n),
                            in[static_cast<std::size_t>(r)]->begin(), mod7{});
        }
        const int batch = batch_of(n * 4);
        if (k == 1) {
          rows.push_back({"one_gpu", 1, n, time_on_ranks(1, samples, batch, streams, [&](int) {
                            thrust::exclusive_scan(archscan::native_nosync.on(streams[0]), in[0]->begin(), in[0]->end(),
                                                   out[0]->begin());
                          })});
        }
        rows.push_back({"across", k, n, time_on_ranks(k, samples, batch, streams, [&](int r) {
                          const auto p = archscan::native_nosync.on(streams[static_cast<std::size_t>(r)])
                                             .across(comms[static_cast<std::size_t>(r)]);
                          thrust::exclusive_scan(p, in[static_cast<std::size_t>(r)]->begin(),
                                                 in[static_cast<std::size_t>(r)]->end(),
                                                 out[static_cast<std::size_t>(r)]->begin());
                        })});
        for (int r = 0; r < k; ++r) {
          check(cudaSetDevice(r), "cudaSetDevice");
          const auto bad =
              thrust::count_if(thrust::cuda::par.on(streams[static_cast<std::size_t>(r)]),
                               thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(n),
                               wrong_prefix{thrust::raw_pointer_cast(out[static_cast<std::size_t>(r)]->data()), r * n});
          if (bad != 0) {
            std::printf("MISMATCH: across, %d GPUs, rank %d, %lld items: %lld wrong\n", k, r, static_cast<long long>(n),
                        static_cast<long long>(bad));
            ok = false;
          }
        }
        // gather_scan: rank 0 receives every slice, then scans k n items (where GPU 0 holds them).
        if (k > 1 && n * k * 8 < (std::int64_t{1} << 36)) {
          check(cudaSetDevice(0), "cudaSetDevice");
          thrust::device_vector<int> all(static_cast<std::size_t>(n * k)), all_out(static_cast<std::size_t>(n * k));
          rows.push_back(
              {"gather_scan", k, n, time_on_ranks(k, samples, batch, streams, [&](int r) {
                 cudaStream_t s = streams[static_cast<std::size_t>(r)];
                 nccl_check(ncclGroupStart(), "ncclGroupStart");
                 if (r == 0) {
                   for (int from = 1; from < k; ++from)
                     nccl_check(ncclRecv(thrust::raw_pointer_cast(all.data()) + from * n, static_cast<std::size_t>(n),
                                         ncclInt32, from, comms[0], s),
                                "ncclRecv");
                 } else {
                   nccl_check(
                       ncclSend(thrust::raw_pointer_cast(in[static_cast<std::size_t>(r)]->data()),
                                static_cast<std::size_t>(n), ncclInt32, 0, comms[static_cast<std::size_t>(r)], s),
                       "ncclSend");
                 }
                 nccl_check(ncclGroupEnd(), "ncclGroupEnd");
                 if (r == 0) {
                   check(cudaMemcpyAsync(thrust::raw_pointer_cast(all.data()), thrust::raw_pointer_cast(in[0]->data()),
                                         n * sizeof(int), cudaMemcpyDeviceToDevice, s),
                         "cudaMemcpyAsync");
                   thrust::exclusive_scan(archscan::native_nosync.on(s), all.begin(), all.end(), all_out.begin());
                 }
               })});
        }
        for (int r = 0; r < k; ++r) {
          check(cudaSetDevice(r), "cudaSetDevice");
          delete in[static_cast<std::size_t>(r)];
          delete out[static_cast<std::size_t>(r)];
        }
      }
      if (k == devices) {  // the host's share of one call, piece by piece, on GPU 0 alone
        check(cudaSetDevice(0), "cudaSetDevice");
        cudaStream_t s = streams[0];
        const int reps = 2000;
        host_costs.push_back(
            {"ncclCommCount + ncclCommUserRank + ncclCommCuDevice + cudaGetDevice", host_us_per_call(reps, [&] {
               int c = 0, u = 0, d = 0;
               ncclCommCount(comms[0], &c);
               ncclCommUserRank(comms[0], &u);
               ncclCommCuDevice(comms[0], &d);
               cudaGetDevice(&d);
             })});
        host_costs.push_back({"kernel launch (13 blocks of 128 threads, empty)",
                              host_us_per_call(reps, [&] { empty_kernel<<<13, 128, 0, s>>>(); })});
        host_costs.push_back({"cudaMallocAsync + cudaFreeAsync (64 KiB)", host_us_per_call(reps, [&] {
                                void* p = nullptr;
                                cudaMallocAsync(&p, 1 << 16, s);
                                cudaFreeAsync(p, s);
                              })});
        check(cudaStreamSynchronize(s), "host costs");
        thrust::device_vector<int> v(1 << 16);
        host_costs.push_back(
            {"archscan::native_nosync exclusive_scan, 2^16 int32 (one GPU)", host_us_per_call(reps, [&] {
               thrust::exclusive_scan(archscan::native_nosync.on(s), v.begin(), v.end(), v.begin());
             })});
        check(cudaStreamSynchronize(s), "host costs");
      }
      for (auto c : comms) ncclCommDestroy(c);
    }

    std::printf(
        "# archscan-across on %d x %s (CCCL %s): exclusive sums of int32, native_nosync; median of %d samples, "
        "microseconds\n\n",
        devices, prop.name, archscan::perf::cccl_version().c_str(), samples);
    std::printf(
        "| what | GPUs | items per GPU | us | GB/s per GPU (read+write) | host us to issue |\n| --- | ---: | ---: | "
        "---: | ---: | ---: |\n");
    nlohmann::json j;
    j["device"]  = prop.name;
    j["gpus"]    = devices;
    j["cccl"]    = archscan::perf::cccl_version();
    j["samples"] = samples;
    for (const row& r : rows) {
      const double gbs = r.per_gpu > 0 ? 8.0 * static_cast<double>(r.per_gpu) / (r.t.us * 1e3) : 0.0;
      std::printf("| %s | %d | %lld | %.2f | %.0f | %.2f |\n", r.what.c_str(), r.gpus,
                  static_cast<long long>(r.per_gpu), r.t.us, gbs, r.t.host_us);
      j["rows"].push_back(
          {{"what", r.what}, {"gpus", r.gpus}, {"items_per_gpu", r.per_gpu}, {"us", r.t.us}, {"host_us", r.t.host_us}});
    }
    std::printf("\n| host cost per call (one thread, GPU 0) | us |\n| --- | ---: |\n");
    for (const auto& [what, us] : host_costs) {
      std::printf("| %s | %.2f |\n", what.c_str(), us);
      j["host_costs"].push_back({{"what", what}, {"us", us}});
    }
    if (!json_path.empty()) std::ofstream(json_path) << j.dump(1) << "\n";
    return ok;
  });
}
