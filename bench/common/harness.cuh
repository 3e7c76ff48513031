// bench/common/harness.cuh — how every gpusort benchmark times a sort (DESIGN.md §5).
//
// * Input: generated on the GPU (tests/common/distributions.cuh) once per benchmark into a
//   pristine copy; before every run the working arrays are restored from it with a
//   device-to-device copy that lies OUTSIDE the timed region. Pair sorts carry the input
//   indices as values.
// * Timing: a CUDA event before and after the sort on the benchmark's stream; the elapsed
//   device time is the iteration's manual time (UseManualTime). Warm-up runs (not timed)
//   come first, so allocations, module loading and caches do not land in the figures.
// * Reporting: `configure()` asks for repetitions and aggregates only: mean, median,
//   stddev, cv and min over the repetitions; quote the median. Counters per run:
//   Mkeys/s = n / time and GB/s = 2 * n * sizeof(item) / time (item = key, or key + value
//   for pairs: each item read and written once — the effective bandwidth to set against the
//   measured device-to-device copy, `run_copy`).
// * Checking: after the timed runs the result is verified on the GPU (sorted under cmp;
//   for pairs also that every value still names its key); a wrong sort reports an error
//   instead of a figure.
// * Baselines: CUB's DeviceRadixSort (key16 / key12 through a decomposer) and
//   DeviceMergeSort, in `cub_baseline`, for every binary to run on the same inputs.
//
// A sort under test is a callable with CUB's two-phase convention:
//   cudaError_t sort(void* d_temp, std::size_t& temp_bytes, sort_data<Key, Value>& data,
//                    cudaStream_t stream);
// called once with d_temp == nullptr for the size (outside timing), then timed. It sorts
// data.keys() (and data.values()) in place, or sets data.result_keys / result_values to
// where the output went (CUB radix sort's double buffer).
#pragma once

#include <benchmark/benchmark.h>

#include "device_buffer.cuh"
#include "distributions.cuh"
#include "key_types.cuh"
#include "verify.cuh"

#include <gpusort/compare.cuh>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

namespace gpusort_bench {

using gpusort_test::device_buffer;
using gpusort_test::distribution;
using gpusort_test::key12;
using gpusort_test::key16;
using gpusort_test::key64;
using gpusort_test::value16;

constexpr std::uint64_t default_seed = 0x5eed;
constexpr int default_repetitions = 5;
constexpr int warmup_runs = 2;

// ---- names --------------------------------------------------------------------------------

template <class T>
const char* type_name() {
  if constexpr (std::is_same<T, std::uint32_t>::value) return "u32";
  else if constexpr (std::is_same<T, std::int32_t>::value) return "i32";
  else if constexpr (std::is_same<T, std::uint64_t>::value) return "u64";
  else if constexpr (std::is_same<T, std::int64_t>::value) return "i64";
  else if constexpr (std::is_same<T, float>::value) return "f32";
  else if constexpr (std::is_same<T, double>::value) return "f64";
  else if constexpr (std::is_same<T, key16>::value) return "key16";
  else if constexpr (std::is_same<T, key12>::value) return "key12";
  else if constexpr (std::is_same<T, key64>::value) return "key64";
  else if constexpr (std::is_same<T, value16>::value) return "value16";
  else return "T";
}

// "u32" for keys, "u32:u32" for pairs.
template <class Key, class Value = void>
std::string item_name() {
  if constexpr (std::is_void<Value>::value) return type_name<Key>();
  else return std::string(type_name<Key>()) + ":" + type_name<Value>();
}

// "2^24" for powers of two, the number otherwise.
inline std::string size_name(std::int64_t n) {
  for (int e = 0; e < 63; ++e)
    if (n == (std::int64_t(1) << e)) return "2^" + std::to_string(e);
  return std::to_string(n);
}

// ---- data ---------------------------------------------------------------------------------

template <class Key, class Value = void>
class sort_data {
 public:
  static constexpr bool pairs = !std::is_void<Value>::value;
  // Keys-only data has no values; `char` keeps the members well-formed.
  using value_type = std::conditional_t<pairs, Value, char>;
  static constexpr std::size_t item_bytes = sizeof(Key) + (pairs ? sizeof(value_type) : 0);

  sort_data(std::int64_t n, distribution d, std::uint64_t seed = default_seed)
      : n_(n), pristine_keys_(n), keys_(n) {
    gpusort_test::throw_on_cuda_error(gpusort_test::generate(pristine_keys_.data(), n, d, seed),
                                      "sort_data: generate");
    if constexpr (pairs) {
      pristine_values_ = device_buffer<value_type>(n);
      values_ = device_buffer<value_type>(n);
      gpusort_test::throw_on_cuda_error(gpusort_test::iota_values(pristine_values_.data(), n),
                                        "sort_data: iota");
    }
    gpusort_test::throw_on_cuda_error(cudaDeviceSynchronize(), "sort_data: generate (sync)");
    gpusort_test::throw_on_cuda_error(restore(0), "sort_data: restore");
    gpusort_test::throw_on_cuda_error(cudaDeviceSynchronize(), "sort_data: restore (sync)");
  }

  std::int64_t size() const { return n_; }
  Key* keys() { return keys_.data(); }
  value_type* values() { return pairs ? values_.data() : nullptr; }
  const Key* pristine_keys() const { return pristine_keys_.data(); }

  // Second arrays for out-of-place sorts, allocated on first use (call them in the sizing
  // call, which is not timed).
  Key* spare_keys() {
    if (spare_keys_.size() != n_) spare_keys_ = device_buffer<Key>(n_);
    return spare_keys_.data();
  }
  value_type* spare_values() {
    if (!pairs) return nullptr;
    if (spare_values_.size() != n_) spare_values_ = device_buffer<value_type>(n_);
    return spare_values_.data();
  }

  // Where the output of the last run lies: keys()/values() unless the sort says otherwise.
  const Key* result_keys = nullptr;
  const value_type* result_values = nullptr;
  // verify() checks sortedness within runs of this many items (0: the whole array), for
  // benchmarks of tile-local sorts.
  std::int64_t verify_segment = 0;

  // Pristine input back into the working arrays (stream-ordered), result pointers reset.
  cudaError_t restore(cudaStream_t stream) {
    result_keys = keys_.data();
    result_values = pairs ? values_.data() : nullptr;
    if (n_ == 0) return cudaSuccess;
    cudaError_t status = cudaMemcpyAsync(keys_.data(), pristine_keys_.data(), keys_.bytes(),
                                         cudaMemcpyDeviceToDevice, stream);
    if (pairs && status == cudaSuccess)
      status = cudaMemcpyAsync(values_.data(), pristine_values_.data(), values_.bytes(),
                               cudaMemcpyDeviceToDevice, stream);
    return status;
  }

  // The output of the last run is sorted under cmp (pairs: values still name their keys).
  template <class Compare>
  gpusort_test::check_result verify(Compare cmp, cudaStream_t stream) const {
    gpusort_test::check_result r =
        gpusort_test::device_check_sorted(result_keys, n_, cmp, verify_segment, stream);
    if constexpr (pairs) {
      if (r)
        r = gpusort_test::device_check_pairs(pristine_keys_.data(), result_keys, result_values,
                                             n_, stream);
    }
    return r;
  }

 private:
  std::int64_t n_;
  device_buffer<Key> pristine_keys_, keys_, spare_keys_;
  device_buffer<value_type> pristine_values_, values_, spare_values_;
};

// ---- timing -------------------------------------------------------------------------------

namespace harness_detail {

class event_pair {
 public:
  event_pair() {
    gpusort_test::throw_on_cuda_error(cudaEventCreate(&start), "cudaEventCreate");
    gpusort_test::throw_on_cuda_error(cudaEventCreate(&stop), "cudaEventCreate");
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
  ~event_pair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
};

class stream_holder {
 public:
  stream_holder() {
    gpusort_test::throw_on_cuda_error(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                                      "cudaStreamCreate");
  }
  stream_holder(const stream_holder&) = delete;
  stream_holder& operator=(const stream_holder&) = delete;
  ~stream_holder() { cudaStreamDestroy(s); }
  cudaStream_t s = nullptr;
};

inline std::string cuda_message(const char* what, cudaError_t status) {
  return std::string(what) + ": " + cudaGetErrorName(status) + " " + cudaGetErrorString(status);
}

// The common loop: `prepare()` runs before each call outside the timed region, `body()` is
// timed with events. Returns false (after SkipWithError) when a call failed.
template <class Prepare, class Body>
bool timed_loop(benchmark::State& state, cudaStream_t stream, Prepare&& prepare, Body&& body,
                double& total_seconds, std::int64_t& runs) {
  for (int w = 0; w < warmup_runs; ++w) {
    cudaError_t status = prepare();
    if (status == cudaSuccess) status = body();
    if (status == cudaSuccess) status = cudaStreamSynchronize(stream);
    if (status != cudaSuccess) {
      state.SkipWithError(cuda_message("warm-up", status).c_str());
      return false;
    }
  }
  event_pair events;
  total_seconds = 0;
  runs = 0;
  for (auto _ : state) {
    cudaError_t status = prepare();
    if (status == cudaSuccess) status = cudaEventRecord(events.start, stream);
    if (status == cudaSuccess) status = body();
    if (status == cudaSuccess) status = cudaEventRecord(events.stop, stream);
    if (status == cudaSuccess) status = cudaEventSynchronize(events.stop);
    float ms = 0;
    if (status == cudaSuccess) status = cudaEventElapsedTime(&ms, events.start, events.stop);
    if (status != cudaSuccess) {
      state.SkipWithError(cuda_message("timed run", status).c_str());
      return false;
    }
    state.SetIterationTime(ms * 1e-3);
    total_seconds += ms * 1e-3;
    ++runs;
  }
  return true;
}

inline void set_throughput(benchmark::State& state, std::int64_t n, std::size_t item_bytes,
                           double total_seconds, std::int64_t runs) {
  if (runs == 0 || total_seconds <= 0) return;
  const double seconds = total_seconds / static_cast<double>(runs);
  state.counters["Mkeys/s"] = static_cast<double>(n) / seconds * 1e-6;
  state.counters["GB/s"] = 2.0 * static_cast<double>(n) * item_bytes / seconds * 1e-9;
}

}  // namespace harness_detail

// Times `sort` on `data` (see the header comment for its signature), then verifies the
// output under `cmp`.
template <class Key, class Value, class Sort, class Compare = gpusort::less>
void run_sort(benchmark::State& state, sort_data<Key, Value>& data, Sort&& sort,
              Compare cmp = {}) {
  try {
    harness_detail::stream_holder stream;
    std::size_t temp_bytes = 0;
    cudaError_t status = sort(nullptr, temp_bytes, data, stream.s);
    if (status != cudaSuccess) {
      state.SkipWithError(harness_detail::cuda_message("temp storage size", status).c_str());
      return;
    }
    // Never a null pointer for the timed calls, which would make them size queries again.
    device_buffer<unsigned char> temp(
        std::max<std::int64_t>(static_cast<std::int64_t>(temp_bytes), 1));
    double total_seconds = 0;
    std::int64_t runs = 0;
    const bool ok = harness_detail::timed_loop(
        state, stream.s, [&] { return data.restore(stream.s); },
        [&] { return sort(temp.data(), temp_bytes, data, stream.s); }, total_seconds, runs);
    if (!ok) return;
    harness_detail::set_throughput(state, data.size(), data.item_bytes, total_seconds, runs);
    state.counters["temp_MB"] = static_cast<double>(temp_bytes) * 1e-6;
    const gpusort_test::check_result r = data.verify(cmp, stream.s);
    if (!r) state.SkipWithError(("wrong result: " + r.message).c_str());
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// Convenience: generates the input (n items of distribution d) and runs run_sort. Skips, with
// a message, when the GPU lacks the memory (pristine + working + spare arrays + temp).
template <class Key, class Value = void, class Sort, class Compare = gpusort::less>
void bench_sort(benchmark::State& state, std::int64_t n, distribution d, Sort&& sort,
                Compare cmp = {}) {
  try {
    sort_data<Key, Value> data(n, d);
    run_sort(state, data, sort, cmp);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    for (auto _ : state) {
    }
  }
}

// Device-to-device copy of `bytes` bytes: the bandwidth ceiling. GB/s counts bytes read plus
// bytes written (2 * bytes / time), as the sorts' effective bandwidth does.
inline void run_copy(benchmark::State& state, std::size_t bytes) {
  try {
    harness_detail::stream_holder stream;
    device_buffer<unsigned char> src(static_cast<std::int64_t>(bytes)),
        dst(static_cast<std::int64_t>(bytes));
    gpusort_test::throw_on_cuda_error(cudaMemset(src.data(), 1, bytes), "copy: memset");
    double total_seconds = 0;
    std::int64_t runs = 0;
    const bool ok = harness_detail::timed_loop(
        state, stream.s, [] { return cudaSuccess; },
        [&] {
          return cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice,
                                 stream.s);
        },
        total_seconds, runs);
    if (!ok || runs == 0) return;
    const double seconds = total_seconds / static_cast<double>(runs);
    state.counters["GB/s"] = 2.0 * static_cast<double>(bytes) / seconds * 1e-9;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    for (auto _ : state) {
    }
  }
}

// Manual time in milliseconds, repetitions, aggregates only (median among them), plus min.
template <class B>
B* configure(B* b, int repetitions = default_repetitions) {
  return b->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Repetitions(repetitions)
      ->ReportAggregatesOnly(true)
      ->ComputeStatistics("min", [](const std::vector<double>& v) {
        return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
      });
}

// Device name, CUDA and CUB versions into the JSON/console context, for bench/RESULTS.md.
inline void add_device_context() {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
    benchmark::AddCustomContext("gpu", prop.name);
    benchmark::AddCustomContext("gpu_memory_GiB", std::to_string(prop.totalGlobalMem >> 30));
  }
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  benchmark::AddCustomContext("cuda_runtime", std::to_string(runtime));
  benchmark::AddCustomContext("cub", std::to_string(CUB_VERSION));
}

// ---- CUB baselines ------------------------------------------------------------------------

namespace cub_baseline {

// Radix-sort decomposers: the key's words, most significant first (CUB 3).
struct key16_decomposer {
  __host__ __device__ ::cuda::std::tuple<std::uint64_t&, std::uint64_t&> operator()(
      key16& k) const {
    return {k.hi, k.lo};
  }
};
struct key12_decomposer {
  __host__ __device__ ::cuda::std::tuple<std::uint32_t&, std::uint32_t&, std::uint32_t&>
  operator()(key12& k) const {
    return {k.a, k.b, k.c};
  }
};

template <class Key>
constexpr bool needs_decomposer =
    std::is_same<Key, key16>::value || std::is_same<Key, key12>::value;

template <class Key>
using decomposer_for =
    std::conditional_t<std::is_same<Key, key16>::value, key16_decomposer, key12_decomposer>;

// cub::DeviceRadixSort, ascending, with a DoubleBuffer between data.keys() and
// data.spare_keys() (CUB's least-temp-storage mode); records where the output ended up.
template <class Key, class Value>
cudaError_t radix(void* d_temp, std::size_t& temp_bytes, sort_data<Key, Value>& data,
                  cudaStream_t stream) {
  const std::int64_t n = data.size();
  cub::DoubleBuffer<Key> keys(data.keys(), data.spare_keys());
  cudaError_t status;
  if constexpr (sort_data<Key, Value>::pairs) {
    cub::DoubleBuffer<Value> values(data.values(), data.spare_values());
    if constexpr (needs_decomposer<Key>)
      status = cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, keys, values, n,
                                               decomposer_for<Key>{}, stream);
    else
      status = cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, keys, values, n, 0,
                                               static_cast<int>(sizeof(Key) * 8), stream);
    data.result_values = values.Current();
  } else {
    if constexpr (needs_decomposer<Key>)
      status = cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, keys, n, decomposer_for<Key>{},
                                              stream);
    else
      status = cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, keys, n, 0,
                                              static_cast<int>(sizeof(Key) * 8), stream);
  }
  data.result_keys = keys.Current();
  return status;
}

// cub::DeviceMergeSort (in place, not the stable variant) under cmp.
template <class Compare = gpusort::less>
struct merge {
  Compare cmp{};
  template <class Key, class Value>
  cudaError_t operator()(void* d_temp, std::size_t& temp_bytes, sort_data<Key, Value>& data,
                         cudaStream_t stream) const {
    if constexpr (sort_data<Key, Value>::pairs)
      return cub::DeviceMergeSort::SortPairs(d_temp, temp_bytes, data.keys(), data.values(),
                                             data.size(), cmp, stream);
    else
      return cub::DeviceMergeSort::SortKeys(d_temp, temp_bytes, data.keys(), data.size(), cmp,
                                            stream);
  }
};

// A callable form of radix for run_sort / bench_sort.
struct radix_sort {
  template <class Key, class Value>
  cudaError_t operator()(void* d_temp, std::size_t& temp_bytes, sort_data<Key, Value>& data,
                         cudaStream_t stream) const {
    return radix(d_temp, temp_bytes, data, stream);
  }
};

// Registers "cub_radix/<item>/<dist>/n:<size>" and "cub_merge/..." for one item type, so a
// binary can put the baselines next to its own figures. Returns nothing; use --benchmark_filter
// to pick. `Compare` orders the keys (the merge sort's comparator and the verification's).
template <class Key, class Value = void, class Compare = gpusort::less>
void register_baselines(std::int64_t n, distribution d, int repetitions = default_repetitions) {
  const std::string suffix =
      "/" + item_name<Key, Value>() + "/" + gpusort_test::name(d) + "/n:" + size_name(n);
  // CUB 3's radix sort does not compile for 64-byte keys (its histogram kernel's shared
  // memory outgrows 48 KB): only the merge sort is their baseline.
  if constexpr (sizeof(Key) <= 16)
    configure(benchmark::RegisterBenchmark(("cub_radix" + suffix).c_str(),
                                           [n, d](benchmark::State& state) {
                                             bench_sort<Key, Value>(state, n, d, radix_sort{},
                                                                    Compare{});
                                           }),
              repetitions);
  configure(benchmark::RegisterBenchmark(("cub_merge" + suffix).c_str(),
                                         [n, d](benchmark::State& state) {
                                           bench_sort<Key, Value>(state, n, d, merge<Compare>{},
                                                                  Compare{});
                                         }),
            repetitions);
}

}  // namespace cub_baseline

// Registers "memcpy_d2d/<bytes>" for the bandwidth ceiling.
inline void register_copy(std::size_t bytes, int repetitions = default_repetitions) {
  configure(benchmark::RegisterBenchmark(
                ("memcpy_d2d/bytes:" + size_name(static_cast<std::int64_t>(bytes))).c_str(),
                [bytes](benchmark::State& state) { run_copy(state, bytes); }),
            repetitions);
}

// main() for a benchmark binary whose benchmarks are registered by `register_all()`.
// Without a GPU it only lists (--benchmark_list_tests) or exits 77, ctest's skip code.
template <class Register>
int run_main(int argc, char** argv, Register&& register_all) {
  int devices = 0;
  const bool have_gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    listing = listing || std::string(argv[i]).rfind("--benchmark_list_tests", 0) == 0;
  if (!have_gpu && !listing) {
    std::fprintf(stderr, "no CUDA device: nothing to measure\n");
    return 77;
  }
  if (have_gpu) add_device_context();
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace gpusort_bench
