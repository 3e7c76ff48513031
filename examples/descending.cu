// Example: sort in descending order with gpusort::greater.
//
// greater{}(a, b) is b < a, so any key with operator< sorts largest first; here signed
// 64-bit keys of both signs. The result is checked against std::sort with std::greater.
#include <gpusort/gpusort.cuh>

#include "example_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

int main() {
  example::require_gpu("descending");

  const std::int64_t n = 500009;
  std::vector<std::int64_t> keys(n);
  std::mt19937_64 rng(11);
  for (auto& k : keys) k = static_cast<std::int64_t>(rng());  // both signs

  std::int64_t* d_keys = nullptr;
  example::check(cudaMalloc(&d_keys, n * sizeof(std::int64_t)), "cudaMalloc");
  example::check(
      cudaMemcpy(d_keys, keys.data(), n * sizeof(std::int64_t), cudaMemcpyHostToDevice),
      "copy to device");

  example::check(gpusort::sort_keys(gpusort::policy::merge{}, d_keys, n, gpusort::greater{}),
                 "gpusort::sort_keys");

  std::vector<std::int64_t> sorted(n);
  example::check(
      cudaMemcpy(sorted.data(), d_keys, n * sizeof(std::int64_t), cudaMemcpyDeviceToHost),
      "copy to host");
  example::check(cudaFree(d_keys), "cudaFree");

  std::sort(keys.begin(), keys.end(), std::greater<std::int64_t>());
  std::printf("descending: sorted %lld keys, largest %lld, smallest %lld\n",
              static_cast<long long>(n), static_cast<long long>(sorted.front()),
              static_cast<long long>(sorted.back()));
  return example::verdict("descending", sorted == keys, "equal to std::sort(std::greater)");
}
