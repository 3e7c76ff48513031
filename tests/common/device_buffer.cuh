// tests/common/device_buffer.cuh — an owning device array for tests and benchmarks.
//
// Test-harness code, not library code: allocation failures throw std::runtime_error (Catch2
// reports it as a failed test case; a benchmark turns it into SkipWithError).
// Copies to and from the host are synchronous.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpusort_test {

inline void throw_on_cuda_error(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(status) + " (" +
                             cudaGetErrorString(status) + ")");
}

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::int64_t n) : size_(n) {
    if (n < 0) throw std::invalid_argument("device_buffer: negative size");
    if (n > 0) {
      void* p = nullptr;
      throw_on_cuda_error(cudaMalloc(&p, static_cast<std::size_t>(n) * sizeof(T)),
                          "device_buffer: cudaMalloc");
      data_ = static_cast<T*>(p);
    }
  }
  // Allocates and copies `host`.
  explicit device_buffer(const std::vector<T>& host)
      : device_buffer(static_cast<std::int64_t>(host.size())) {
    copy_from_host(host);
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  device_buffer& operator=(device_buffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~device_buffer() { release(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::int64_t size() const { return size_; }

  void copy_from_host(const std::vector<T>& host) {
    if (static_cast<std::int64_t>(host.size()) != size_)
      throw std::invalid_argument("device_buffer::copy_from_host: size mismatch");
    if (size_ > 0)
      throw_on_cuda_error(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice),
                          "device_buffer: copy to device");
  }
  std::vector<T> to_host() const {
    std::vector<T> host(static_cast<std::size_t>(size_));
    if (size_ > 0)
      throw_on_cuda_error(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost),
                          "device_buffer: copy to host");
    return host;
  }
  std::size_t bytes() const { return static_cast<std::size_t>(size_) * sizeof(T); }

 private:
  void release() {
    if (data_ != nullptr) cudaFree(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::int64_t size_ = 0;
};

// Synchronous copies of n elements between a device pointer and host memory.
template <class T>
std::vector<T> copy_to_host(const T* d_src, std::int64_t n) {
  std::vector<T> host(static_cast<std::size_t>(n < 0 ? 0 : n));
  if (n > 0)
    throw_on_cuda_error(
        cudaMemcpy(host.data(), d_src, host.size() * sizeof(T), cudaMemcpyDeviceToHost),
        "copy_to_host");
  return host;
}

template <class T>
void copy_to_device(T* d_dst, const std::vector<T>& host) {
  if (!host.empty())
    throw_on_cuda_error(
        cudaMemcpy(d_dst, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
        "copy_to_device");
}

}  // namespace gpusort_test
