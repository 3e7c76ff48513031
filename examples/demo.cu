// gpusort_demo: every gpusort policy against CUB on the same random keys.
//
//   gpusort_demo [n] [seed]        n: a count or 2^k (default 2^26), seed: default 0x5eed
//
// Generates n random 32-bit keys on the GPU from the seed, sorts them with each gpusort
// policy and with cub::DeviceRadixSort and cub::DeviceMergeSort, verifies every result and
// prints one table: median time, throughput, and the time as a ratio of CUB's.
//
// Timing: CUDA events around the sort call only, on one stream; before every run the keys
// are restored from a pristine copy outside the events; one untimed warm-up run, then the
// median of five. Temporary storage is taken before timing (the two-phase API), as a
// program that sorts repeatedly would.
// Verification: CUB's radix sort is the reference; its output must be sorted and hold the
// same multiset of keys as the input (a sum of hashed keys). Every other result must be
// sorted and equal to the reference, key for key.
// Exit status: 0 when every sort that is built verified, 1 otherwise, 77 without a GPU.
#include <gpusort/gpusort.cuh>

#include "example_util.cuh"

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using key_type = std::uint32_t;

constexpr std::int64_t default_n = std::int64_t(1) << 26;
constexpr std::uint64_t default_seed = 0x5eed;
constexpr int warmup_runs = 1;
constexpr int timed_runs = 5;
constexpr int threads_per_block = 256;
constexpr std::int64_t max_blocks = 4096;  // grid-stride loops cover the rest

// A 64-bit mixing function (the splitmix64 finalizer): consecutive inputs give unrelated
// outputs, so key i can be computed from (seed, i) alone, in any order, on any thread.
__host__ __device__ std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

__global__ void generate_keys(key_type* keys, std::int64_t n, std::uint64_t seed) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    keys[i] = static_cast<key_type>(mix64(seed + mix64(static_cast<std::uint64_t>(i))) >> 32);
}

// What check_keys counts over one array.
struct check_counts {
  unsigned long long out_of_order;  // positions i with keys[i + 1] < keys[i]
  unsigned long long mismatched;    // positions where keys and reference differ
  unsigned long long fingerprint;   // sum of mix64(key) mod 2^64: equal for equal multisets
};

constexpr int warp_threads = 32;

__device__ unsigned long long warp_sum(unsigned long long v) {
  for (int offset = warp_threads / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // the sum in lane 0
}

__global__ void check_keys(const key_type* keys, const key_type* reference, std::int64_t n,
                           check_counts* counts) {
  unsigned long long out_of_order = 0, mismatched = 0, fingerprint = 0;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const key_type k = keys[i];
    out_of_order += (i + 1 < n && keys[i + 1] < k) ? 1 : 0;
    mismatched += (reference != nullptr && reference[i] != k) ? 1 : 0;
    fingerprint += mix64(k);
  }
  // One atomic per warp rather than per thread: every thread of the grid gets here.
  out_of_order = warp_sum(out_of_order);
  mismatched = warp_sum(mismatched);
  fingerprint = warp_sum(fingerprint);
  if (threadIdx.x % warp_threads == 0) {
    atomicAdd(&counts->out_of_order, out_of_order);
    atomicAdd(&counts->mismatched, mismatched);
    atomicAdd(&counts->fingerprint, fingerprint);
  }
}

int grid_for(std::int64_t n) {
  return static_cast<int>(
      std::max<std::int64_t>(1, std::min(max_blocks, (n + threads_per_block - 1) /
                                                          threads_per_block)));
}

// The arrays and the stream every method works on.
struct workspace {
  std::int64_t n = 0;
  key_type* pristine = nullptr;   // the generated input, never sorted
  key_type* keys = nullptr;       // what each sort sorts in place
  key_type* alternate = nullptr;  // CUB radix sort's second buffer
  key_type* reference = nullptr;  // CUB radix sort's result
  check_counts* counts = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::size_t bytes() const { return static_cast<std::size_t>(n) * sizeof(key_type); }
};

check_counts inspect(const workspace& w, const key_type* keys, const key_type* reference) {
  example::check(cudaMemsetAsync(w.counts, 0, sizeof(check_counts), w.stream), "cudaMemset");
  check_keys<<<grid_for(w.n), threads_per_block, 0, w.stream>>>(keys, reference, w.n, w.counts);
  example::check(cudaGetLastError(), "check_keys launch");
  check_counts result{};
  example::check(
      cudaMemcpyAsync(&result, w.counts, sizeof result, cudaMemcpyDeviceToHost, w.stream),
      "copy counts");
  example::check(cudaStreamSynchronize(w.stream), "check_keys");
  return result;
}

// One line of the table.
struct row {
  std::string method;
  std::string status;  // empty when the sort ran; else "not built yet" or the error
  float ms = 0;
  bool verified = false;
};

// Runs sort(d_temp) on w.keys, restored from w.pristine before each run outside the timed
// region; returns the median time of the timed runs in `ms`.
template <class Sort>
cudaError_t time_sort(workspace& w, void* d_temp, Sort&& sort, float& ms) {
  std::vector<float> times;
  for (int run = 0; run < warmup_runs + timed_runs; ++run) {
    if (cudaError_t e = cudaMemcpyAsync(w.keys, w.pristine, w.bytes(), cudaMemcpyDeviceToDevice,
                                        w.stream))
      return e;
    if (cudaError_t e = cudaEventRecord(w.start, w.stream)) return e;
    if (cudaError_t e = sort(d_temp)) return e;
    if (cudaError_t e = cudaEventRecord(w.stop, w.stream)) return e;
    if (cudaError_t e = cudaEventSynchronize(w.stop)) return e;
    float elapsed = 0;
    if (cudaError_t e = cudaEventElapsedTime(&elapsed, w.start, w.stop)) return e;
    if (run >= warmup_runs) times.push_back(elapsed);
  }
  std::sort(times.begin(), times.end());
  ms = times[times.size() / 2];
  return cudaSuccess;
}

// The two-phase protocol around time_sort: size query, storage, timed runs, storage freed.
// sort(d_temp, temp_bytes) follows CUB's convention (d_temp == nullptr: size query).
template <class Sort>
row measure(const char* method, workspace& w, Sort&& sort) {
  row r{method, "", 0, false};
  std::size_t temp_bytes = 0;
  cudaError_t e = sort(nullptr, temp_bytes);
  if (e == cudaErrorNotSupported) {
    r.status = "not built yet";
    return r;
  }
  void* d_temp = nullptr;
  // At least one byte: a null d_temp would turn every timed call into another size query.
  if (e == cudaSuccess) e = cudaMalloc(&d_temp, std::max<std::size_t>(temp_bytes, 1));
  if (e == cudaSuccess)
    e = time_sort(w, d_temp, [&](void* temp) { return sort(temp, temp_bytes); }, r.ms);
  if (d_temp != nullptr) cudaFree(d_temp);
  if (e != cudaSuccess) r.status = std::string("error: ") + cudaGetErrorName(e);
  return r;
}

template <class Policy>
row measure_gpusort(const char* method, workspace& w, const Policy& policy) {
  row r = measure(method, w, [&](void* d_temp, std::size_t& temp_bytes) {
    return gpusort::sort_keys(policy, d_temp, temp_bytes, w.keys, w.n, gpusort::less{}, w.stream);
  });
  if (r.status.empty()) {
    const check_counts c = inspect(w, w.keys, w.reference);
    r.verified = c.out_of_order == 0 && c.mismatched == 0;
  }
  return r;
}

std::int64_t parse_count(const char* text) {
  char* end = nullptr;
  if (text[0] == '2' && text[1] == '^') {
    const long e = std::strtol(text + 2, &end, 10);
    return (*end == '\0' && e >= 0 && e < 63) ? std::int64_t(1) << e : -1;
  }
  const long long n = std::strtoll(text, &end, 10);
  return *end == '\0' ? n : -1;
}

void print_table(const std::vector<row>& rows, float radix_ms, float merge_ms, std::int64_t n) {
  std::printf("%-34s %10s %10s %13s %13s  %s\n", "method", "time ms", "Mkeys/s", "/ CUB radix",
              "/ CUB merge", "verified");
  for (const row& r : rows) {
    if (!r.status.empty()) {  // not built, or failed: no figures
      std::printf("%-34s %-49s  %s\n", r.method.c_str(), r.status.c_str(),
                  r.status == "not built yet" ? "-" : "NO");
      continue;
    }
    auto ratio = [&](float base) { return base > 0 ? r.ms / base : 0.0f; };
    std::printf("%-34s %10.3f %10.0f %13.2f %13.2f  %s\n", r.method.c_str(), r.ms,
                static_cast<double>(n) / r.ms / 1e3, ratio(radix_ms), ratio(merge_ms),
                r.verified ? "yes" : "NO");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (argc > 3 || first == "-h" || first == "--help") {
    std::fprintf(stderr, "usage: %s [n | 2^k] [seed]\n", argv[0]);
    return argc > 3 ? 2 : 0;
  }
  const std::int64_t n = argc > 1 ? parse_count(argv[1]) : default_n;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : default_seed;
  if (n < 1) {
    std::fprintf(stderr, "%s: n must be a positive count or 2^k, got '%s'\n", argv[0], argv[1]);
    return 2;
  }
  example::require_gpu("gpusort_demo");

  int device = 0;
  cudaDeviceProp prop{};
  example::check(cudaGetDevice(&device), "cudaGetDevice");
  example::check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");

  workspace w;
  w.n = n;
  example::check(cudaStreamCreateWithFlags(&w.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  example::check(cudaEventCreate(&w.start), "cudaEventCreate");
  example::check(cudaEventCreate(&w.stop), "cudaEventCreate");
  example::check(cudaMalloc(&w.pristine, w.bytes()), "cudaMalloc");
  example::check(cudaMalloc(&w.keys, w.bytes()), "cudaMalloc");
  example::check(cudaMalloc(&w.alternate, w.bytes()), "cudaMalloc");
  example::check(cudaMalloc(&w.reference, w.bytes()), "cudaMalloc");
  example::check(cudaMalloc(&w.counts, sizeof(check_counts)), "cudaMalloc");

  generate_keys<<<grid_for(n), threads_per_block, 0, w.stream>>>(w.pristine, n, seed);
  example::check(cudaGetLastError(), "generate_keys launch");
  const unsigned long long input_fingerprint = inspect(w, w.pristine, nullptr).fingerprint;

  std::printf("gpusort demo: %lld random u32 keys (seed 0x%llx) on %s\n",
              static_cast<long long>(n), static_cast<unsigned long long>(seed), prop.name);
  std::printf("time: median of %d runs after %d warm-up, CUDA events, input restored outside "
              "the timed region; ratios are time / CUB's time (below 1: faster than CUB)\n\n",
              timed_runs, warmup_runs);

  // CUB's radix sort first: its output is everyone's reference. DoubleBuffer mode (the one
  // that needs the least temporary storage); the result lands in either buffer.
  const key_type* radix_result = w.keys;
  row radix = measure("cub::DeviceRadixSort", w, [&](void* d_temp, std::size_t& temp_bytes) {
    cub::DoubleBuffer<key_type> buffers(w.keys, w.alternate);
    const cudaError_t e = cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, buffers, w.n, 0,
                                                         int(sizeof(key_type) * 8), w.stream);
    radix_result = buffers.Current();
    return e;
  });
  if (radix.status.empty()) {
    const check_counts c = inspect(w, radix_result, nullptr);
    radix.verified = c.out_of_order == 0 && c.fingerprint == input_fingerprint;
    example::check(cudaMemcpyAsync(w.reference, radix_result, w.bytes(), cudaMemcpyDeviceToDevice,
                                   w.stream),
                   "copy reference");
  }
  // Without a verified reference nothing else can be verified; keep going for the times.
  if (!radix.verified) std::fprintf(stderr, "gpusort_demo: CUB radix sort failed or is wrong\n");

  row cub_merge = measure("cub::DeviceMergeSort", w, [&](void* d_temp, std::size_t& temp_bytes) {
    return cub::DeviceMergeSort::SortKeys(d_temp, temp_bytes, w.keys, w.n, gpusort::less{},
                                          w.stream);
  });
  if (cub_merge.status.empty()) {
    const check_counts c = inspect(w, w.keys, w.reference);
    cub_merge.verified = radix.verified && c.out_of_order == 0 && c.mismatched == 0;
  }

  std::vector<row> rows;
  rows.push_back(measure_gpusort("gpusort deterministic_sample", w,
                                 gpusort::policy::deterministic_sample{}));
  rows.push_back(measure_gpusort("gpusort randomized_sample", w,
                                 gpusort::policy::randomized_sample{}));
  rows.push_back(measure_gpusort("gpusort warpsort", w, gpusort::policy::warpsort{}));
  rows.push_back(measure_gpusort("gpusort merge", w, gpusort::policy::merge{}));
  rows.push_back(measure_gpusort("gpusort automatic", w, gpusort::policy::automatic{}));
  for (row& r : rows) r.verified = r.verified && radix.verified;
  rows.push_back(radix);
  rows.push_back(cub_merge);

  const float radix_ms = radix.status.empty() ? radix.ms : 0;
  const float merge_ms = cub_merge.status.empty() ? cub_merge.ms : 0;
  print_table(rows, radix_ms, merge_ms, n);

  bool all_ok = true;
  for (const row& r : rows) all_ok = all_ok && (r.status == "not built yet" || r.verified);

  cudaFree(w.counts);
  cudaFree(w.reference);
  cudaFree(w.alternate);
  cudaFree(w.keys);
  cudaFree(w.pristine);
  cudaEventDestroy(w.start);
  cudaEventDestroy(w.stop);
  cudaStreamDestroy(w.stream);

  std::printf("\n%s\n", all_ok ? "all results verified" : "VERIFICATION FAILED");
  return all_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
