// Tuning study of policy::randomized_sample: the distribution degree k (policy.buckets) and
// the oversampling factor a swept on uniform u32 keys at 2^24 and 2^26 (every k·a <= 4096,
// the one-block sample), the default policy on every distribution at 2^26 for u32, u64 and
// u32:u32 (the requirement: no slower than 1.3x uniform), and CUB radix / merge on the same
// inputs.
// Names: "rs/u32/uniform/n:2^26/k:512/a:8", "rs_default/u32/<dist>/n:2^26", "cub_*/...".
#include "common/harness.cuh"

#include <gpusort/gpusort.cuh>

#include <cstdint>
#include <string>

using namespace gpusort_bench;

namespace {

struct randomized_sample_sort {
  gpusort::policy::randomized_sample policy{};
  template <class Key, class Value>
  cudaError_t operator()(void* d_temp, std::size_t& temp_bytes, sort_data<Key, Value>& data,
                         cudaStream_t stream) const {
    if constexpr (sort_data<Key, Value>::pairs)
      return gpusort::sort_pairs(policy, d_temp, temp_bytes, data.keys(), data.values(),
                                 data.size(), gpusort::less{}, stream);
    else
      return gpusort::sort_keys(policy, d_temp, temp_bytes, data.keys(), data.size(),
                                gpusort::less{}, stream);
  }
};

template <class Key, class Value = void>
void register_run(const std::string& name, std::int64_t n, distribution d,
                  gpusort::policy::randomized_sample policy) {
  configure(benchmark::RegisterBenchmark(name.c_str(), [n, d, policy](benchmark::State& state) {
    bench_sort<Key, Value>(state, n, d, randomized_sample_sort{policy});
  }));
}

template <class Key, class Value = void>
std::string suffix(std::int64_t n, distribution d) {
  return "/" + item_name<Key, Value>() + "/" + gpusort_test::name(d) + "/n:" + size_name(n);
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv, [] {
    constexpr int max_sample = 4096;  // k·a: one block's sample tile (randomized_sample_tuning)
    for (int e : {24, 26}) {
      const std::int64_t n = std::int64_t(1) << e;
      for (int k : {256, 512, 1024}) {
        for (int a : {1, 2, 4, 8, 16, 32}) {
          if (k * a > max_sample) continue;
          gpusort::policy::randomized_sample policy{};
          policy.buckets = k;
          policy.oversampling = a;
          register_run<std::uint32_t>("rs" + suffix<std::uint32_t>(n, distribution::uniform) +
                                          "/k:" + std::to_string(k) + "/a:" + std::to_string(a),
                                      n, distribution::uniform, policy);
        }
      }
      register_run<std::uint32_t>("rs_default" + suffix<std::uint32_t>(n, distribution::uniform), n,
                                  distribution::uniform, {});
      cub_baseline::register_baselines<std::uint32_t>(n, distribution::uniform);
    }
    const std::int64_t n = std::int64_t(1) << 26;
    for (distribution d : gpusort_test::all_distributions) {
      // u32 uniform at 2^26 is registered with the sweep above.
      if (d != distribution::uniform)
        register_run<std::uint32_t>("rs_default" + suffix<std::uint32_t>(n, d), n, d, {});
      register_run<std::uint64_t>("rs_default" + suffix<std::uint64_t>(n, d), n, d, {});
      register_run<std::uint32_t, std::uint32_t>(
          "rs_default" + suffix<std::uint32_t, std::uint32_t>(n, d), n, d, {});
    }
    // The issue's targets at 2^28: u32, u64, u32:u32 (ratios to CUB in the same run), and
    // every k with its largest sample at 2^28.
    const std::int64_t big = std::int64_t(1) << 28;
    for (int k : {256, 512, 1024}) {
      gpusort::policy::randomized_sample policy{};
      policy.buckets = k;
      policy.oversampling = max_sample / k;
      register_run<std::uint32_t>("rs" + suffix<std::uint32_t>(big, distribution::uniform) + "/k:" +
                                      std::to_string(k) + "/a:" + std::to_string(max_sample / k),
                                  big, distribution::uniform, policy);
    }
    register_run<std::uint32_t>("rs_default" + suffix<std::uint32_t>(big, distribution::uniform),
                                big, distribution::uniform, {});
    register_run<std::uint64_t>("rs_default" + suffix<std::uint64_t>(big, distribution::uniform),
                                big, distribution::uniform, {});
    register_run<std::uint32_t, std::uint32_t>(
        "rs_default" + suffix<std::uint32_t, std::uint32_t>(big, distribution::uniform), big,
        distribution::uniform, {});
    register_copy(static_cast<std::size_t>(big) * sizeof(std::uint32_t));
  });
}
