// Studies of policy::deterministic_sample (Dehne & Zaboli), next to CUB on the same inputs:
//  * ds_samples/...: total time as a function of s (policy.samples_per_tile), the paper's
//    Fig. 3, u32 uniform at 2^24 and 2^26, for the device's default tile and both tile
//    shapes, and at 2^28; u64, u32:u32 and 16-byte keys at 2^24 and 2^26, 64-byte keys at
//    2^22 to 2^26 and with u64 values at 2^24, with the device tile (s:0 is the default).
//    Counters: levels of the plan, tile, s, temp storage per item byte.
//  * ds_steps/...: cumulative time of the steps of the first level (the paper's Fig. 5):
//    through:local_sort (steps 1–3), sample_sort (4), sample_indexing (5–6), prefix_sum (7),
//    relocation (8), bucket_sort (9: the further levels and the bucket sort = the whole
//    sort). A step's time is the difference of two consecutive rows. Only the whole sort is
//    verified (prefixes leave the data partly sorted).
//  * ds_dist/...: the default policy on every distribution at 2^26 (slowest / fastest), u32,
//    u64 and u32:u32.
// Baselines: cub_radix / cub_merge at the same sizes. Filter with --benchmark_filter.
#include "common/harness.cuh"

#include <gpusort/gpusort.cuh>

#include <cstdint>
#include <string>

using namespace gpusort_bench;

namespace {

using ds_policy = gpusort::policy::deterministic_sample;
using stop = gpusort::detail::deterministic_sample_stop_after;

template <class Key, class Value>
using ds_setup = gpusort::detail::deterministic_sample_setup<
    Key, std::conditional_t<std::is_void<Value>::value, gpusort::detail::no_value, Value>>;

// The policy through the internal sort function, stopping after `through`.
template <class Compare = gpusort::less>
struct ds_sort {
  ds_policy policy{};
  stop through = stop::bucket_sort;
  Compare cmp{};
  template <class Key, class Value>
  cudaError_t operator()(void* d_temp, std::size_t& temp_bytes, sort_data<Key, Value>& data,
                         cudaStream_t stream) const {
    using value_type = std::conditional_t<sort_data<Key, Value>::pairs, Value, gpusort::detail::no_value>;
    auto* values = reinterpret_cast<value_type*>(data.values());
    if (d_temp == nullptr) {
      if constexpr (sort_data<Key, Value>::pairs)
        return gpusort::sort_pairs(policy, nullptr, temp_bytes, data.keys(), values, data.size(), cmp);
      else
        return gpusort::sort_keys(policy, nullptr, temp_bytes, data.keys(), data.size(), cmp);
    }
    return gpusort::detail::deterministic_sample_sort(policy, d_temp, data.keys(), values,
                                                      data.size(), cmp, stream, through);
  }
};

template <class Key, class Value>
void plan_counters(benchmark::State& state, const ds_policy& policy, std::int64_t n) {
  ds_setup<Key, Value> setup;
  if (ds_setup<Key, Value>::make(policy, n, setup) != cudaSuccess) return;
  state.counters["levels"] = setup.plan.levels;
  state.counters["tile"] = setup.tile_items;
  state.counters["s"] = setup.samples;
  state.counters["temp_per_item_byte"] =
      static_cast<double>(setup.layout.total) /
      (static_cast<double>(n) * sort_data<Key, Value>::item_bytes);
}

// Full sorts (verified by run_sort).
template <class Key, class Value = void, class Compare = gpusort::less>
void register_full(const std::string& study, std::int64_t n, distribution d, ds_policy policy,
                   const std::string& suffix = "") {
  const std::string name = study + "/" + item_name<Key, Value>() + "/" + gpusort_test::name(d) +
                           "/n:" + size_name(n) + suffix;
  configure(benchmark::RegisterBenchmark(name.c_str(), [n, d, policy](benchmark::State& state) {
    bench_sort<Key, Value>(state, n, d, ds_sort<Compare>{policy, stop::bucket_sort}, Compare{});
    plan_counters<Key, Value>(state, policy, n);
  }));
}

// Wide items' time against s with the device tile, every candidate of the default's search
// from 16 to 512 and the default (s:0), next to CUB.
template <class Key, class Value, class Compare>
void register_wide_sweep(std::int64_t n) {
  for (int s : {0, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512})
    register_full<Key, Value, Compare>("ds_samples", n, distribution::uniform, ds_policy{s, 0},
                                       "/s:" + std::to_string(s) + "/tile:device");
  cub_baseline::register_baselines<Key, Value, Compare>(n, distribution::uniform);
}

// A prefix of the steps: timed like run_sort, verified only when it is the whole sort.
template <class Key, class Compare = gpusort::less>
void bench_prefix(benchmark::State& state, std::int64_t n, ds_policy policy, stop through) {
  try {
    sort_data<Key> data(n, distribution::uniform);
    if (through == stop::bucket_sort) {
      run_sort(state, data, ds_sort<Compare>{policy, through}, Compare{});
    } else {
      harness_detail::stream_holder stream;
      const ds_sort<Compare> sort{policy, through};
      std::size_t temp_bytes = 0;
      gpusort_test::throw_on_cuda_error(sort(nullptr, temp_bytes, data, stream.s), "size");
      device_buffer<unsigned char> temp(std::max<std::int64_t>(static_cast<std::int64_t>(temp_bytes), 1));
      double total_seconds = 0;
      std::int64_t runs = 0;
      if (!harness_detail::timed_loop(
              state, stream.s, [&] { return data.restore(stream.s); },
              [&] { return sort(temp.data(), temp_bytes, data, stream.s); }, total_seconds, runs))
        return;
      harness_detail::set_throughput(state, n, sizeof(Key), total_seconds, runs);
    }
    plan_counters<Key, void>(state, policy, n);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

const char* step_name(stop s) {
  switch (s) {
    case stop::local_sort: return "local_sort";
    case stop::sample_sort: return "sample_sort";
    case stop::sample_indexing: return "sample_indexing";
    case stop::prefix_sum: return "prefix_sum";
    case stop::relocation: return "relocation";
    case stop::bucket_sort: return "bucket_sort";
  }
  return "?";
}

// The cumulative prefixes of the steps, "ds_steps/<item>/uniform/n:<n>/through:<k>_<step>".
template <class Key, class Compare = gpusort::less>
void register_steps(std::int64_t n) {
  for (stop through : {stop::local_sort, stop::sample_sort, stop::sample_indexing, stop::prefix_sum,
                       stop::relocation, stop::bucket_sort}) {
    const std::string name = "ds_steps/" + item_name<Key, void>() + "/uniform/n:" + size_name(n) +
                             "/through:" + std::to_string(static_cast<int>(through)) + "_" +
                             step_name(through);
    configure(benchmark::RegisterBenchmark(name.c_str(), [n, through](benchmark::State& state) {
      bench_prefix<Key, Compare>(state, n, ds_policy{}, through);
    }));
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv, [] {
    using tuning = gpusort::detail::deterministic_sample_tuning<std::uint32_t, gpusort::detail::no_value>;
    // (a) time vs s (Fig. 3).
    for (int e : {24, 26}) {
      const std::int64_t n = std::int64_t(1) << e;
      for (int s : {8, 16, 32, 64, 128, 256, 512, 1024}) {
        const std::string s_name = "/s:" + std::to_string(s);
        register_full<std::uint32_t>("ds_samples", n, distribution::uniform, ds_policy{s, 0},
                                     s_name + "/tile:device");
        for (int tile : {tuning::tile, tuning::half_tile})
          register_full<std::uint32_t>("ds_samples", n, distribution::uniform, ds_policy{s, tile},
                                       s_name + "/tile:" + std::to_string(tile));
      }
      cub_baseline::register_baselines<std::uint32_t>(n, distribution::uniform);
    }
    // At 2^28: the default's s (256, two levels) against its neighbours.
    for (int s : {32, 64, 128, 256, 512})
      register_full<std::uint32_t>("ds_samples", std::int64_t(1) << 28, distribution::uniform,
                                   ds_policy{s, 0}, "/s:" + std::to_string(s) + "/tile:device");
    // The other item types of bench_sort, device tile, and the default s (s:0).
    for (int e : {24, 26}) {
      const std::int64_t n = std::int64_t(1) << e;
      for (int s : {0, 16, 32, 64, 128, 256, 512}) {
        const std::string s_name = "/s:" + std::to_string(s) + "/tile:device";
        register_full<std::uint64_t>("ds_samples", n, distribution::uniform, ds_policy{s, 0}, s_name);
        register_full<std::uint32_t, std::uint32_t>("ds_samples", n, distribution::uniform,
                                                    ds_policy{s, 0}, s_name);
        register_full<gpusort_test::key16, void, gpusort_test::key16_less>(
            "ds_samples", n, distribution::uniform, ds_policy{s, 0}, s_name);
      }
    }
    // 64-byte keys at 2^22 to 2^26 (256 MB to 4 GB): 1K tiles, so s moves the levels and the
    // samples to sort more than for narrow keys; the halfway candidates of the default's
    // search (3·2^k) too. With u64 values (72-byte items, also 1K tiles) at 2^24: the sweep
    // that keeps them on the 16-byte costs (bench/RESULTS.md run 43).
    for (int e : {22, 24, 26})
      register_wide_sweep<gpusort_test::key64, void, gpusort_test::key64_less>(std::int64_t(1) << e);
    register_wide_sweep<gpusort_test::key64, std::uint64_t, gpusort_test::key64_less>(std::int64_t(1) << 24);
    // (b) per-step breakdown (Fig. 5), cumulative prefixes.
    for (int e : {24, 26, 28}) register_steps<std::uint32_t>(std::int64_t(1) << e);
    register_steps<gpusort_test::key64, gpusort_test::key64_less>(std::int64_t(1) << 24);
    // Distribution insensitivity at 2^26, for each item type of the issue's speed targets.
    for (distribution d : gpusort_test::all_distributions) {
      register_full<std::uint32_t>("ds_dist", std::int64_t(1) << 26, d, ds_policy{});
      register_full<std::uint64_t>("ds_dist", std::int64_t(1) << 26, d, ds_policy{});
      register_full<std::uint32_t, std::uint32_t>("ds_dist", std::int64_t(1) << 26, d, ds_policy{});
    }
    cub_baseline::register_baselines<std::uint32_t>(std::int64_t(1) << 28, distribution::uniform);
  });
}
