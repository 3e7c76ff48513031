// Example: sort data spread over every GPU of the machine, from one process.
//
//   gpusort::multi::sort_keys(shards, num_shards)
//
// Each shard is an array on one GPU; afterwards the shards, read in order, are sorted, and
// each shard keeps its GPU and its size. Here shard i lives on GPU i, with deliberately
// unequal sizes; on a one-GPU machine the example puts two shards on that GPU, so it still
// shows a merge between shards.
#include <gpusort/multi_gpu.cuh>

#include "example_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  example::require_gpu("multi_gpu");
  int devices = 0;
  example::check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  const int shards = devices > 1 ? devices : 2;
  const std::int64_t per_shard = argc > 1 ? std::atoll(argv[1]) : std::int64_t(1) << 22;

  // Unequal sizes: shard i holds (i + 1) / shards of per_shard * 2 keys, roughly.
  std::vector<std::vector<std::uint32_t>> host(shards);
  std::vector<std::uint32_t> all;
  std::mt19937 rng(42);
  for (int i = 0; i < shards; ++i) {
    host[i].resize(static_cast<std::size_t>(per_shard * 2 * (i + 1) / (shards + 1)));
    for (auto& k : host[i]) k = static_cast<std::uint32_t>(rng());
    all.insert(all.end(), host[i].begin(), host[i].end());
  }

  std::vector<gpusort::multi::shard<std::uint32_t>> list(shards);
  for (int i = 0; i < shards; ++i) {
    const int device = i % devices;
    example::check(cudaSetDevice(device), "cudaSetDevice");
    std::uint32_t* d_keys = nullptr;
    example::check(cudaMalloc(&d_keys, host[i].size() * sizeof(std::uint32_t)), "cudaMalloc");
    example::check(cudaMemcpy(d_keys, host[i].data(), host[i].size() * sizeof(std::uint32_t),
                              cudaMemcpyHostToDevice),
                   "copy keys");
    list[i] = {device, d_keys, static_cast<std::int64_t>(host[i].size())};
  }

  example::check(gpusort::multi::sort_keys(list.data(), shards), "gpusort::multi::sort_keys");

  std::vector<std::uint32_t> sorted;
  for (int i = 0; i < shards; ++i) {
    std::vector<std::uint32_t> part(static_cast<std::size_t>(list[i].count));
    example::check(cudaSetDevice(list[i].device), "cudaSetDevice");
    example::check(cudaMemcpy(part.data(), list[i].keys, part.size() * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToHost),
                   "copy keys back");
    example::check(cudaFree(list[i].keys), "cudaFree");
    sorted.insert(sorted.end(), part.begin(), part.end());
    std::printf("multi_gpu: shard %d on GPU %d: %lld keys, %u .. %u\n", i, list[i].device,
                static_cast<long long>(part.size()), part.empty() ? 0u : part.front(),
                part.empty() ? 0u : part.back());
  }
  std::sort(all.begin(), all.end());
  return example::verdict("multi_gpu", sorted == all, "shards in order equal std::sort");
}
