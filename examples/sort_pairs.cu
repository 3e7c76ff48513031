// Example: sort keys and let a value travel with each key.
//
//   gpusort::sort_pairs(policy, d_keys, d_values, n)
//
// The values here are each key's input position, the usual way to get a sorting
// permutation ("argsort"): after the sort, values[i] says where keys[i] came from. The keys
// have many duplicates, and policy::merge is stable, so equal keys keep their input order:
// the result must be exactly what std::stable_sort gives.
#include <gpusort/gpusort.cuh>

#include "example_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  example::require_gpu("sort_pairs");

  const std::int64_t n = 1 << 20;
  const std::uint32_t distinct_keys = 1000;  // ~1000 copies of each key: stability shows
  std::vector<std::uint32_t> keys(n);
  std::vector<std::uint32_t> positions(n);
  std::mt19937 rng(7);
  for (std::int64_t i = 0; i < n; ++i) {
    keys[i] = static_cast<std::uint32_t>(rng() % distinct_keys);
    positions[i] = static_cast<std::uint32_t>(i);
  }

  std::uint32_t* d_keys = nullptr;
  std::uint32_t* d_values = nullptr;
  example::check(cudaMalloc(&d_keys, n * sizeof(std::uint32_t)), "cudaMalloc keys");
  example::check(cudaMalloc(&d_values, n * sizeof(std::uint32_t)), "cudaMalloc values");
  example::check(cudaMemcpy(d_keys, keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice),
                 "copy keys");
  example::check(cudaMemcpy(d_values, positions.data(), n * sizeof(std::uint32_t),
                            cudaMemcpyHostToDevice),
                 "copy values");

  example::check(gpusort::sort_pairs(gpusort::policy::merge{}, d_keys, d_values, n),
                 "gpusort::sort_pairs");

  std::vector<std::uint32_t> sorted_keys(n);
  std::vector<std::uint32_t> permutation(n);
  example::check(cudaMemcpy(sorted_keys.data(), d_keys, n * sizeof(std::uint32_t),
                            cudaMemcpyDeviceToHost),
                 "copy keys back");
  example::check(cudaMemcpy(permutation.data(), d_values, n * sizeof(std::uint32_t),
                            cudaMemcpyDeviceToHost),
                 "copy values back");
  example::check(cudaFree(d_keys), "cudaFree keys");
  example::check(cudaFree(d_values), "cudaFree values");

  // The reference: the input positions stably ordered by their keys.
  std::vector<std::uint32_t> expected = positions;
  std::stable_sort(expected.begin(), expected.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  bool ok = permutation == expected;
  // Each value still names its own key (implied by the above, spelled out for the reader).
  for (std::int64_t i = 0; ok && i < n; ++i) ok = keys[permutation[i]] == sorted_keys[i];

  std::printf("sort_pairs: sorted %lld pairs; key %u came first, from input position %u\n",
              static_cast<long long>(n), sorted_keys.front(), permutation.front());
  return example::verdict("sort_pairs", ok, "equal to std::stable_sort, values travelled");
}
