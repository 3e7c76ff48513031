// Example: the two-phase temporary storage protocol (CUB's) on a stream you created.
//
//   1. Call with d_temp_storage == nullptr: nothing is sorted, only temp_storage_bytes is
//      written.
//   2. Allocate that much (here once, stream-ordered) and call again with it: the keys are
//      sorted in place, asynchronously on the stream.
// The storage can be reused for any later sort that needs no more bytes; here two batches
// of the same size share it. Nothing in between synchronizes: the copies, the sorts and the
// frees are ordered by the stream alone, and the host waits once at the end.
#include <gpusort/gpusort.cuh>

#include "example_util.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  example::require_gpu("two_phase_stream");

  const std::int64_t n = 1 << 20;
  const int batches = 2;
  const std::size_t batch_bytes = n * sizeof(std::uint64_t);

  cudaStream_t stream = nullptr;
  example::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");

  // Pinned host memory, so that the copies are truly asynchronous on the stream.
  std::uint64_t* h_keys = nullptr;
  example::check(cudaMallocHost(&h_keys, batches * batch_bytes), "cudaMallocHost");
  std::mt19937_64 rng(99);
  for (std::int64_t i = 0; i < batches * n; ++i) h_keys[i] = rng();
  const std::vector<std::uint64_t> input(h_keys, h_keys + batches * n);

  std::uint64_t* d_keys = nullptr;
  example::check(cudaMallocAsync(reinterpret_cast<void**>(&d_keys), batches * batch_bytes, stream),
                 "cudaMallocAsync keys");
  example::check(cudaMemcpyAsync(d_keys, h_keys, batches * batch_bytes, cudaMemcpyHostToDevice,
                                 stream),
                 "copy to device");

  const gpusort::policy::merge policy{};
  // Phase 1: how many bytes? Pass the real keys and n: the size depends on n, and the
  // arguments are checked already in this call.
  std::size_t temp_bytes = 0;
  example::check(
      gpusort::sort_keys(policy, nullptr, temp_bytes, d_keys, n, gpusort::less{}, stream),
      "gpusort::sort_keys (size query)");
  void* d_temp = nullptr;
  example::check(cudaMallocAsync(&d_temp, temp_bytes, stream), "cudaMallocAsync temp");

  // Phase 2, once per batch, with the same storage.
  for (int b = 0; b < batches; ++b) {
    example::check(gpusort::sort_keys(policy, d_temp, temp_bytes, d_keys + b * n, n,
                                      gpusort::less{}, stream),
                   "gpusort::sort_keys");
  }

  example::check(cudaMemcpyAsync(h_keys, d_keys, batches * batch_bytes, cudaMemcpyDeviceToHost,
                                 stream),
                 "copy to host");
  example::check(cudaFreeAsync(d_temp, stream), "cudaFreeAsync temp");
  example::check(cudaFreeAsync(d_keys, stream), "cudaFreeAsync keys");
  example::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");  // the only wait

  // Each batch must equal std::sort of its own part of the input.
  bool ok = true;
  for (int b = 0; b < batches; ++b) {
    std::vector<std::uint64_t> expected(input.begin() + b * n, input.begin() + (b + 1) * n);
    std::sort(expected.begin(), expected.end());
    ok = ok && std::equal(expected.begin(), expected.end(), h_keys + b * n);
  }
  std::printf("two_phase_stream: %d batches of %lld keys sorted with %zu bytes of temp storage\n",
              batches, static_cast<long long>(n), temp_bytes);

  example::check(cudaFreeHost(h_keys), "cudaFreeHost");
  example::check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  return example::verdict("two_phase_stream", ok, "each batch equal to std::sort");
}
