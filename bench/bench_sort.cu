// The gpusort policies through the public two-phase API, side by side with CUB's radix and
// merge sorts on the same inputs in the same process (DESIGN.md §5): uniform u32, u64,
// u32:u32 pairs and 16-byte keys at 2^20, 2^24 and 2^28 (2^27 for 16-byte keys), and u32
// keys over every distribution at 2^24. Filter with --benchmark_filter, e.g. 'n:2\^28'.
#include "common/harness.cuh"

#include <gpusort/gpusort.cuh>

#include <algorithm>
#include <cstdint>
#include <string>

using namespace gpusort_bench;

namespace {

// A gpusort policy as a sort callable for run_sort / bench_sort.
template <class Policy, class Compare>
struct gpusort_sort {
  Policy policy{};
  Compare cmp{};
  template <class Key, class Value>
  cudaError_t operator()(void* d_temp, std::size_t& temp_bytes, sort_data<Key, Value>& data,
                         cudaStream_t stream) const {
    if constexpr (sort_data<Key, Value>::pairs)
      return gpusort::sort_pairs(policy, d_temp, temp_bytes, data.keys(), data.values(),
                                 data.size(), cmp, stream);
    else
      return gpusort::sort_keys(policy, d_temp, temp_bytes, data.keys(), data.size(), cmp,
                                stream);
  }
};

template <class Policy, class Key, class Value = void, class Compare = gpusort::less>
void register_policy(const char* policy_name, std::int64_t n, distribution d) {
  const std::string name = std::string(policy_name) + "/" + item_name<Key, Value>() + "/" +
                           gpusort_test::name(d) + "/n:" + size_name(n);
  configure(benchmark::RegisterBenchmark(name.c_str(), [n, d](benchmark::State& state) {
    bench_sort<Key, Value>(state, n, d, gpusort_sort<Policy, Compare>{}, Compare{});
  }));
}

// Every built policy and both CUB baselines on one input.
template <class Key, class Value = void, class Compare = gpusort::less>
void register_all_sorts(std::int64_t n, distribution d) {
  register_policy<gpusort::policy::merge, Key, Value, Compare>("gpusort_merge", n, d);
  cub_baseline::register_baselines<Key, Value, Compare>(n, d);
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv, [] {
    using gpusort_test::key16;
    using gpusort_test::key16_less;
    for (int e : {20, 24, 28}) {
      const std::int64_t n = std::int64_t(1) << e;
      register_all_sorts<std::uint32_t>(n, distribution::uniform);
      register_all_sorts<std::uint64_t>(n, distribution::uniform);
      register_all_sorts<std::uint32_t, std::uint32_t>(n, distribution::uniform);
      register_all_sorts<key16, void, key16_less>(std::int64_t(1) << std::min(e, 27),
                                                  distribution::uniform);
    }
    for (distribution d : gpusort_test::all_distributions) {
      if (d != distribution::uniform)
        register_all_sorts<std::uint32_t>(std::int64_t(1) << 24, d);
    }
  });
}
