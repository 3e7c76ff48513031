// tests/common/staged_sort.cuh — n random u32 keys staged for one sort through the two-phase
// API: on the host, copied to the device, with the temp storage the policy asks for. For the
// tests that watch how a sort runs (its launches, its capture into a CUDA graph) rather than
// what it sorts; sorted_like_host still checks the result.
#pragma once

#include "common/catch.hpp"
#include "common/device_buffer.cuh"

#include <gpusort/sort.cuh>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace gpusort_test {

template <class Policy>
struct staged_sort {
  std::vector<std::uint32_t> host;
  device_buffer<std::uint32_t> keys;
  std::size_t temp_bytes = 0;
  device_buffer<unsigned char> temp;

  staged_sort(const Policy& policy, std::int64_t n) : host(random_keys(n)), keys(n) {
    keys.copy_from_host(host);
    // cudaMemcpy from pageable memory may return before its DMA lands; only the legacy stream
    // is ordered after it, and these tests sort on streams of their own.
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    REQUIRE(gpusort::sort_keys(policy, nullptr, temp_bytes, keys.data(), n) == cudaSuccess);
    temp = device_buffer<unsigned char>(static_cast<std::int64_t>(temp_bytes));
  }

  cudaError_t sort(const Policy& policy, cudaStream_t stream) {
    return gpusort::sort_keys(policy, temp.data(), temp_bytes, keys.data(), keys.size(),
                              gpusort::less{}, stream);
  }

  // Whether the device keys are the host's std::sort of the input (once the sort finished).
  bool sorted_like_host() const {
    std::vector<std::uint32_t> expected = host;
    std::sort(expected.begin(), expected.end());
    return keys.to_host() == expected;
  }

  static std::vector<std::uint32_t> random_keys(std::int64_t n) {
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
    std::mt19937 rng(static_cast<unsigned>(n));
    for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
    return keys;
  }
};

// Captures a sort of n random u32 keys into a CUDA graph, replays it and compares the result
// with the host's sort; returns the graph's nodes.
template <class Policy>
std::size_t replay_captured_sort(const Policy& policy, std::int64_t n) {
  staged_sort<Policy> staged(policy, n);
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  const cudaError_t sorted = staged.sort(policy, stream);
  REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
  REQUIRE(sorted == cudaSuccess);
  std::size_t nodes = 0;
  REQUIRE(cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  REQUIRE(staged.sorted_like_host());
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  return nodes;
}

}  // namespace gpusort_test
