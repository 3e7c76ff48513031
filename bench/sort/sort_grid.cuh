// bench/sort/sort_grid.cuh — the inputs bench_sort measures every sort on, and how a gpusort
// policy is registered on them (DESIGN.md §5): uniform u32, u64, u32:u32 pairs and 16-byte
// keys at 2^10, 2^14, 2^16, 2^20, 2^24 and 2^28 (2^27 for 16-byte keys; 2^14 is the largest
// n policy::merge sorts in one launch), 64-byte keys at 2^24, u32 and u64 keys also at 2^21 to
// 2^27 and at the sizes between 2^21 and 2^24 where automatic switches policy, and every item
// type but 64-byte keys over every distribution at 2^24. Each policy registers from a
// translation unit of its own (bench/sort/<policy>.cu), so that the heavy instantiations
// compile in parallel.
#pragma once

#include "common/harness.cuh"

#include <gpusort/sort.cuh>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace gpusort_bench {

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

// Calls visit.apply<Key, Value, Compare>(n, distribution) for every input of the grid.
template <class Visitor>
void for_each_sort_input(Visitor&& visit) {
  using gpusort_test::key16;
  using gpusort_test::key16_less;
  for (int e : {10, 14, 16, 20, 24, 28}) {
    const std::int64_t n = std::int64_t(1) << e;
    visit.template apply<std::uint32_t, void, gpusort::less>(n, distribution::uniform);
    visit.template apply<std::uint64_t, void, gpusort::less>(n, distribution::uniform);
    visit.template apply<std::uint32_t, std::uint32_t, gpusort::less>(n, distribution::uniform);
    visit.template apply<key16, void, key16_less>(std::int64_t(1) << std::min(e, 27),
                                                  distribution::uniform);
  }
  // Wide keys, where the sorts' tiles and warp buffers shrink to fit shared memory.
  visit.template apply<gpusort_test::key64, void, gpusort_test::key64_less>(std::int64_t(1) << 24,
                                                                            distribution::uniform);
  // Where merge, warpsort and randomized_sample cross over for 4- and 8-byte keys
  // (detail/automatic.cuh): every power of two from 2^21 to 2^27, and 5/4, 3/2 and 7/4 of
  // 2^21, 2^22 and 2^23, where the policy switches.
  std::vector<std::int64_t> crossover;
  for (int e : {21, 22, 23, 25, 26, 27}) crossover.push_back(std::int64_t(1) << e);
  for (int e : {21, 22, 23})
    for (int quarters : {5, 6, 7}) crossover.push_back(quarters * (std::int64_t(1) << (e - 2)));
  for (std::int64_t n : crossover) {
    visit.template apply<std::uint32_t, void, gpusort::less>(n, distribution::uniform);
    visit.template apply<std::uint64_t, void, gpusort::less>(n, distribution::uniform);
  }
  // Every item type of the grid: where keys tie, pairs' values and 16-byte keys' other words
  // are what tells the items apart.
  for (distribution d : gpusort_test::all_distributions) {
    if (d == distribution::uniform) continue;
    visit.template apply<std::uint32_t, void, gpusort::less>(std::int64_t(1) << 24, d);
    visit.template apply<std::uint64_t, void, gpusort::less>(std::int64_t(1) << 24, d);
    visit.template apply<std::uint32_t, std::uint32_t, gpusort::less>(std::int64_t(1) << 24, d);
    visit.template apply<key16, void, key16_less>(std::int64_t(1) << 24, d);
  }
}

// Registers `Policy` as "<name>/<item>/<distribution>/n:<n>" on every input of the grid.
template <class Policy>
struct policy_registrar {
  const char* policy_name;
  template <class Key, class Value, class Compare>
  void apply(std::int64_t n, distribution d) const {
    // Refused beyond one block's segment (README: wide items), so not measured.
    if constexpr (std::is_same<Policy, gpusort::policy::randomized_sample>::value &&
                  sizeof(Key) >= 32)
      return;
    const std::string name = std::string(policy_name) + "/" + item_name<Key, Value>() + "/" +
                             gpusort_test::name(d) + "/n:" + size_name(n);
    configure(benchmark::RegisterBenchmark(name.c_str(), [n, d](benchmark::State& state) {
      bench_sort<Key, Value>(state, n, d, gpusort_sort<Policy, Compare>{}, Compare{});
    }));
  }
};

template <class Policy>
void register_policy_grid(const char* policy_name) {
  for_each_sort_input(policy_registrar<Policy>{policy_name});
}

// One function per translation unit (bench/sort/*.cu).
void register_cub_grid();
void register_merge_grid();
void register_warpsort_grid();
void register_randomized_sample_grid();
void register_deterministic_sample_grid();
void register_automatic_grid();

}  // namespace gpusort_bench
