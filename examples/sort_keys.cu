// Example: sort 32-bit keys in place with the convenience overload.
//
//   gpusort::sort_keys(policy, d_keys, n)
//
// takes and gives back its temporary storage itself (stream-ordered, on the default stream
// here), so one call sorts. The result is checked against std::sort of a host copy.
#include <gpusort/gpusort.cuh>

#include "example_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  example::require_gpu("sort_keys");

  // Not a multiple of any tile size, so the ragged last tile is exercised too.
  const std::int64_t n = 1000003;
  std::vector<std::uint32_t> keys(n);
  std::mt19937 rng(2024);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());

  std::uint32_t* d_keys = nullptr;
  example::check(cudaMalloc(&d_keys, n * sizeof(std::uint32_t)), "cudaMalloc");
  example::check(
      cudaMemcpy(d_keys, keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice),
      "copy to device");

  // policy::merge{} with its fields left at 0: the tuned defaults. The comparator defaults
  // to gpusort::less (ascending) and the stream to 0.
  example::check(gpusort::sort_keys(gpusort::policy::merge{}, d_keys, n), "gpusort::sort_keys");

  // The sort is asynchronous; this blocking copy on the default stream waits for it.
  std::vector<std::uint32_t> sorted(n);
  example::check(
      cudaMemcpy(sorted.data(), d_keys, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
      "copy to host");
  example::check(cudaFree(d_keys), "cudaFree");

  std::sort(keys.begin(), keys.end());
  std::printf("sort_keys: sorted %lld keys, first %u, last %u\n", static_cast<long long>(n),
              sorted.front(), sorted.back());
  return example::verdict("sort_keys", sorted == keys, "equal to std::sort");
}
