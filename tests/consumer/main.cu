// A client of gpusort: only public headers, only public API (the README's example).
// Without a CUDA device it has proven what it is for, that gpusort's package compiles and
// links in a foreign project, and exits 0; with one it also sorts and checks the result.
#include <gpusort/gpusort.cuh>
#include <gpusort/multi_gpu.cuh>  // also in second_unit.cu: both units link together

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

int fail(const char* what, cudaError_t status) {
  std::printf("consumer: %s: %s\n", what, cudaGetErrorString(status));
  return 1;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("consumer: built and linked; no CUDA device, nothing to run\n");
    return 0;
  }

  const std::int64_t n = 100003;  // not a multiple of any tile size
  std::vector<std::uint32_t> keys(n);
  std::uint32_t state = 12345;
  for (auto& k : keys) k = state = state * 1664525u + 1013904223u;

  std::uint32_t* d_keys = nullptr;
  if (cudaError_t e = cudaMalloc(&d_keys, n * sizeof(std::uint32_t))) return fail("cudaMalloc", e);
  cudaMemcpy(d_keys, keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice);
  const cudaError_t sorted = gpusort::sort_keys(gpusort::policy::merge{}, d_keys, n);
  if (sorted != cudaSuccess) return fail("sort_keys", sorted);
  std::vector<std::uint32_t> result(n);
  if (cudaError_t e = cudaMemcpy(result.data(), d_keys, n * sizeof(std::uint32_t),
                                 cudaMemcpyDeviceToHost))
    return fail("cudaMemcpy", e);
  cudaFree(d_keys);

  std::sort(keys.begin(), keys.end());
  if (result != keys) {
    std::printf("consumer: sort_keys result differs from std::sort\n");
    return 1;
  }
  std::printf("consumer: sorted %lld keys\n", static_cast<long long>(n));
  return 0;
}
