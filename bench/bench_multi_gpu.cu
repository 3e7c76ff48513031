// bench_multi_gpu — the multi-GPU pivot merge sort (Tanasic et al.): peer transport
// (multi::sort_keys) and NCCL transport (nccl::sort_keys, one communicator of all GPUs in
// this process, a host thread per rank), against the best single-GPU sort on one GPU.
//
// Per-stage breakdown through the bench-only hook detail::multi_stage_times (the public
// entry points time nothing): local sort, pivot, swap and merge, in ms per sort (stages of
// concurrent halves add up), and the swap bandwidth: bytes that crossed between shards per
// second of swap. Total n: 2^31 u32 keys and 2^30 u64 keys spread evenly when there are
// several GPUs; on one GPU 2^28 and 2^27, the shards then sharing that GPU (copies between
// them are device copies, so the swap figures are not interconnect figures there).
// The sorts synchronize, so a run's time is host time around the call (input restored from
// a pristine copy outside it). The devices' default memory pools keep their memory between
// sorts (keep_default_pools says why; GPUSORT_BENCH_RELEASE_POOLS=1 measures without).
// Each result is checked: every shard sorted, shards in order.
#include <benchmark/benchmark.h>

#include "common/harness.cuh"

#include <gpusort/gpusort.cuh>
#include <gpusort/multi_gpu.cuh>
#if GPUSORT_BENCH_NCCL
#include <gpusort/nccl.cuh>
#endif

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using gpusort_bench::device_buffer;
using gpusort_bench::distribution;

int device_count() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) return 0;
  return devices;
}

// Shards of n keys, shard i on device i % devices, with a pristine copy each.
template <class Key>
struct multi_data {
  struct part {
    int device;
    std::unique_ptr<device_buffer<Key>> keys, pristine;
  };
  std::vector<part> parts;

  multi_data(int shards, std::int64_t n, distribution d) {
    const int devices = device_count();
    for (int i = 0; i < shards; ++i) {
      const int device = i % devices;
      const std::int64_t count = n / shards + (i < n % shards ? 1 : 0);
      gpusort_test::throw_on_cuda_error(cudaSetDevice(device), "cudaSetDevice");
      part p{device, std::make_unique<device_buffer<Key>>(count),
             std::make_unique<device_buffer<Key>>(count)};
      gpusort_test::throw_on_cuda_error(
          gpusort_test::generate(p.pristine->data(), count, d, gpusort_bench::default_seed + i),
          "generate");
      parts.push_back(std::move(p));
    }
    sync_all();
  }
  void restore() {
    for (auto& p : parts) {
      gpusort_test::throw_on_cuda_error(cudaSetDevice(p.device), "cudaSetDevice");
      gpusort_test::throw_on_cuda_error(cudaMemcpyAsync(p.keys->data(), p.pristine->data(),
                                                        p.keys->bytes(), cudaMemcpyDeviceToDevice),
                                        "restore");
    }
    sync_all();
  }
  void sync_all() {
    for (auto& p : parts) {
      gpusort_test::throw_on_cuda_error(cudaSetDevice(p.device), "cudaSetDevice");
      gpusort_test::throw_on_cuda_error(cudaDeviceSynchronize(), "sync");
    }
  }
  // Every shard sorted, and each shard's first key not below the previous shard's last.
  std::string check() {
    bool have_last = false;
    Key last{};
    for (auto& p : parts) {
      const std::int64_t count = p.keys->size();
      if (count == 0) continue;
      gpusort_test::throw_on_cuda_error(cudaSetDevice(p.device), "cudaSetDevice");
      const auto r = gpusort_test::device_check_sorted(p.keys->data(), count, gpusort::less{});
      if (!r) return r.message;
      const auto first = gpusort_test::copy_to_host(p.keys->data(), 1);
      if (have_last && first[0] < last) return "shards out of order";
      last = gpusort_test::copy_to_host(p.keys->data() + count - 1, 1)[0];
      have_last = true;
    }
    return {};
  }
};

void set_stage_counters(benchmark::State& state, const gpusort::detail::multi_stage_times& t,
                        std::int64_t runs, std::int64_t n, double seconds, std::size_t key_bytes) {
  const double r = static_cast<double>(runs);
  state.counters["local_sort_ms"] = t.local_sort_ms / r;
  state.counters["pivot_ms"] = t.pivot_ms / r;
  state.counters["swap_ms"] = t.swap_ms / r;
  state.counters["merge_ms"] = t.merge_ms / r;
  state.counters["swap_GB/s"] = t.swap_ms > 0 ? t.swap_bytes / (t.swap_ms * 1e-3) * 1e-9 : 0;
  state.counters["swapped_GB"] = t.swap_bytes / r * 1e-9;
  state.counters["Mkeys/s"] = static_cast<double>(n) / (seconds / r) * 1e-6;
  state.counters["GB/s"] = 2.0 * static_cast<double>(n) * key_bytes / (seconds / r) * 1e-9;
}

// Runs `sort(times)` per iteration on restored data; manual time = host time of the call.
template <class Key, class Sort>
void run_multi(benchmark::State& state, int shards, std::int64_t n, Sort&& sort) {
  try {
    multi_data<Key> data(shards, n, distribution::uniform);
    for (int w = 0; w < gpusort_bench::warmup_runs; ++w) {
      data.restore();
      gpusort::detail::multi_stage_times ignored;
      gpusort_test::throw_on_cuda_error(sort(data, &ignored), "warm-up");
    }
    gpusort::detail::multi_stage_times totals;
    double seconds = 0;
    std::int64_t runs = 0;
    for (auto _ : state) {
      data.restore();
      const auto start = std::chrono::steady_clock::now();
      gpusort_test::throw_on_cuda_error(sort(data, &totals), "sort");
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      state.SetIterationTime(s);
      seconds += s;
      ++runs;
    }
    set_stage_counters(state, totals, runs, n, seconds, sizeof(Key));
    state.counters["shards"] = shards;
    const std::string wrong = data.check();
    if (!wrong.empty()) state.SkipWithError(("wrong result: " + wrong).c_str());
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    for (auto _ : state) {
    }
  }
}

template <class Key>
void bench_peer(benchmark::State& state, int shards, std::int64_t n) {
  run_multi<Key>(state, shards, n,
                 [](multi_data<Key>& data, gpusort::detail::multi_stage_times* times) {
                   std::vector<gpusort::detail::multi_shard<Key, gpusort::detail::no_value>> list;
                   for (auto& p : data.parts)
                     list.push_back({p.device, p.keys->data(), nullptr, p.keys->size()});
                   return gpusort::detail::multi_sort_peer(list, gpusort::less{}, times);
                 });
}

#if GPUSORT_BENCH_NCCL
// One communicator over the GPUs (one rank per GPU, as NCCL requires), ranks driven by host
// threads. Stage times: rank 0's.
template <class Key>
void bench_nccl(benchmark::State& state, std::int64_t n) {
  const int ranks = device_count();
  std::vector<ncclComm_t> comms(ranks);
  std::vector<int> devices(ranks);
  for (int r = 0; r < ranks; ++r) devices[r] = r;
  if (ncclCommInitAll(comms.data(), ranks, devices.data()) != ncclSuccess) {
    state.SkipWithError("ncclCommInitAll failed");
    for (auto _ : state) {
    }
    return;
  }
  run_multi<Key>(state, ranks, n,
                 [&](multi_data<Key>& data, gpusort::detail::multi_stage_times* times) {
                   std::vector<ncclResult_t> results(ranks, ncclSuccess);
                   std::vector<gpusort::detail::multi_stage_times> rank_times(ranks);
                   std::vector<std::thread> threads;
                   for (int r = 0; r < ranks; ++r)
                     threads.emplace_back([&, r] {
                       cudaSetDevice(r);
                       results[r] = gpusort::detail::multi_sort_nccl(
                           comms[r], data.parts[r].keys->data(),
                           static_cast<gpusort::detail::no_value*>(nullptr),
                           data.parts[r].keys->size(), gpusort::less{}, cudaStream_t{0},
                           &rank_times[r]);
                     });
                   for (auto& t : threads) t.join();
                   times->local_sort_ms += rank_times[0].local_sort_ms;
                   times->pivot_ms += rank_times[0].pivot_ms;
                   times->swap_ms += rank_times[0].swap_ms;
                   times->merge_ms += rank_times[0].merge_ms;
                   times->swap_bytes += rank_times[0].swap_bytes;
                   for (ncclResult_t r : results)
                     if (r != ncclSuccess) return cudaErrorUnknown;
                   return cudaSuccess;
                 });
  for (auto c : comms) ncclCommDestroy(c);
}
#endif

// The 1-GPU baseline: the best single-GPU sort (policy::automatic) on all n keys, if they fit.
template <class Key>
void bench_single(benchmark::State& state, std::int64_t n) {
  cudaSetDevice(0);
  gpusort_bench::bench_sort<Key>(state, n, distribution::uniform,
                                 [](void* temp, std::size_t& bytes,
                                    gpusort_bench::sort_data<Key>& data, cudaStream_t stream) {
                                   return gpusort::sort_keys(gpusort::policy::automatic{}, temp,
                                                             bytes, data.keys(), data.size(),
                                                             gpusort::less{}, stream);
                                 });
}

// every_split: the shard counts below the number of GPUs too (2, 4, ... of them).
template <class Key>
void register_key(std::int64_t n, bool every_split = true) {
  const int devices = device_count();
  const std::string suffix = std::string("/") + gpusort_bench::type_name<Key>() + "/n:" +
                             gpusort_bench::size_name(n);
  // The baseline only where GPU 0 holds the keys, their pristine copy and the sort's temp
  // storage. A row whose first repetition fails crashes Google Benchmark 1.8 (ComputeStats
  // reads that repetition's statistics, which a skipped one lacks; google/benchmark#1406):
  // 2^35 keys on 4 H200s ended that way before this check.
  std::size_t free_bytes = 0, total_bytes = 0;
  cudaSetDevice(0);
  const std::size_t single_bytes =
      2 * static_cast<std::size_t>(n) * sizeof(Key) +
      gpusort::detail::sort_temp_bytes<gpusort::policy::automatic, Key, gpusort::detail::no_value>(
          gpusort::policy::automatic{}, n);
  if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess && single_bytes <= free_bytes) {
    gpusort_bench::configure(benchmark::RegisterBenchmark(("single_gpu_automatic" + suffix).c_str(),
                                                          [n](benchmark::State& s) {
                                                            bench_single<Key>(s, n);
                                                          }));
  } else {
    benchmark::AddCustomContext("single_gpu_automatic" + suffix,
                                "not run: needs " + std::to_string(single_bytes >> 30) +
                                    " GiB on one GPU, GPU 0 has " +
                                    std::to_string(free_bytes >> 30) + " GiB free");
  }
  // Shard counts: every GPU, and on one GPU 2 and 4 shards sharing it (stage logic figures).
  std::vector<int> shard_counts;
  if (devices > 1) {
    for (int g = 2; g < devices && every_split; g *= 2) shard_counts.push_back(g);
    shard_counts.push_back(devices);
  } else {
    shard_counts = {1, 2, 4};
  }
  for (int shards : shard_counts) {
    gpusort_bench::configure(benchmark::RegisterBenchmark(
        ("multi_peer" + suffix + "/shards:" + std::to_string(shards)).c_str(),
        [n, shards](benchmark::State& s) { bench_peer<Key>(s, shards, n); }));
  }
#if GPUSORT_BENCH_NCCL
  gpusort_bench::configure(benchmark::RegisterBenchmark(
      ("multi_nccl" + suffix + "/ranks:" + std::to_string(devices)).c_str(),
      [n](benchmark::State& s) { bench_nccl<Key>(s, n); }));
#endif
}

// The sorts take their buffers with cudaMallocAsync from each device's default pool, which
// by default hands its memory back to the driver at every synchronization: each sort then
// maps (and unmaps) a shard-sized buffer and the local sort's temp storage on every GPU anew.
// A caller that sorts repeatedly keeps it by raising the pools' release threshold, as done
// here so that the multi-GPU rows, like the single-GPU baseline (whose temp storage is taken
// outside the timed region), time the sort and not the mapping. GPUSORT_BENCH_RELEASE_POOLS=1
// leaves the pools at their default, to measure that cost.
bool keep_default_pools(int devices) {
  const char* release = std::getenv("GPUSORT_BENCH_RELEASE_POOLS");
  if (release != nullptr && std::string(release) == "1") return false;
  for (int d = 0; d < devices; ++d) {
    cudaMemPool_t pool = nullptr;
    std::uint64_t keep = ~std::uint64_t(0);
    gpusort_test::throw_on_cuda_error(cudaDeviceGetDefaultMemPool(&pool, d), "default pool");
    gpusort_test::throw_on_cuda_error(
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "release threshold");
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  return gpusort_bench::run_main(argc, argv, [] {
    const int devices = device_count();
    if (devices == 0) return;
    benchmark::AddCustomContext("gpus", std::to_string(devices));
    benchmark::AddCustomContext("pools_kept", keep_default_pools(devices) ? "yes" : "no");
    // GPUSORT_BENCH_MULTI_LOG2N=e: u32 keys alone, 2^e of them over every GPU (and on GPU 0
    // alone where it holds them: register_key).
    if (const char* log2n = std::getenv("GPUSORT_BENCH_MULTI_LOG2N")) {
      register_key<std::uint32_t>(std::int64_t(1) << std::atoi(log2n), false);
      return;
    }
    const bool several = devices > 1;
    register_key<std::uint32_t>(several ? std::int64_t(1) << 31 : std::int64_t(1) << 28);
    register_key<std::uint64_t>(several ? std::int64_t(1) << 30 : std::int64_t(1) << 27);
  });
}
