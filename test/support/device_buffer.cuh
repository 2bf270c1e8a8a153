#pragma once
// A minimal owning device buffer for tests: allocation checked, poisoned on request, copied back.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace archscan::test {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class T>
class device_buffer {
 public:
  explicit device_buffer(std::int64_t n) : n_(n) {
    if (n_ > 0) check(cudaMalloc(&d_, sizeof(T) * static_cast<std::size_t>(n_)), "cudaMalloc");
  }
  explicit device_buffer(const std::vector<T>& h) : device_buffer(static_cast<std::int64_t>(h.size())) {
    if (n_ > 0) check(cudaMemcpy(d_, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice), "cudaMemcpy H2D");
  }
  device_buffer(const device_buffer&)            = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { cudaFree(d_); }

  T* get() const { return d_; }
  T* begin() const { return d_; }
  T* end() const { return d_ + n_; }
  std::int64_t size() const { return n_; }

  //! Fills every byte with 0xA5 so that an unwritten element cannot pass for a result. Waits for the
  //! fill: work on non-blocking streams is not ordered after the legacy default stream.
  void poison() {
    if (n_ > 0) check(cudaMemset(d_, 0xA5, sizeof(T) * static_cast<std::size_t>(n_)), "cudaMemset");
    check(cudaDeviceSynchronize(), "cudaMemset (poison)");
  }
  std::vector<T> to_host() const {
    check(cudaDeviceSynchronize(), "kernel execution");
    std::vector<T> h(static_cast<std::size_t>(n_));
    if (n_ > 0) check(cudaMemcpy(h.data(), d_, sizeof(T) * h.size(), cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
    return h;
  }

 private:
  T* d_ = nullptr;
  std::int64_t n_;
};

}  // namespace archscan::test
