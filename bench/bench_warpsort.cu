// GPU-Warpsort studies on today's GPU (Ye et al., Fig. 11-14), next to CUB on the same inputs:
//   step1/...      Fig. 11: step 1 alone, each run sorted by its own warp (chunks in
//                  registers and shuffles, merged in the warp's shared memory, no barrier)
//                  or by a block (block::bitonic_sort, barriers).
//   step2/...      Fig. 12/13: steps 1-2, the warp merges by the bitonic buffer (as the policy
//                  does, two runs a pass, or four through a tree of buffers) or by rank
//                  (merge-path, one sequential merge per lane, two runs a pass).
//   merge/...      Fig. 13 for the whole sort: the same four step 2s.
//   ways/...       the whole sort with two-way and with four-way step-2 passes, u32, u64 and
//                  u32:u32 from 2^22 to 2^28: where four-way passes pay (four_way_from).
//   width/...      the merge buffer t = policy.merge_width: 64, 128, 256 (512, 1024 for 4-byte
//                  items) and the tuned choice, for every item type of bench_sort (u32,
//                  u64, u32:u32, 16-byte keys): the defaults per item size come from it.
//   steps/...      Fig. 14: the sort stopped after step k = 1..4 (step k's own time is the
//                  difference of neighbours); u32 keys and u32:u32 pairs, 2^20/2^24/2^28.
//   dist/...       the full sort over every distribution at 2^24 and 2^26 (sorted and reverse
//                  sorted must stay within 1.3x of uniform: step 4 is balanced by output).
// CUB radix and merge sorts run on each size and item type. A run stopped early is checked
// for order within the segments it has sorted (runs after step 1, after steps 2-3).
// Filter with --benchmark_filter, e.g. 'steps/u32:u32'.
#include "common/harness.cuh"

#include <gpusort/gpusort.cuh>

#include <cstdint>
#include <string>
#include <type_traits>

using namespace gpusort_bench;
using gpusort::detail::warpsort_step1;
using gpusort::detail::warpsort_step2;

namespace {

template <warpsort_step1 STEP1, warpsort_step2 STEP2, class Compare = gpusort::less>
struct warpsort_variant {
  gpusort::policy::warpsort policy{};
  int last_step = 4;
  Compare cmp{};

  template <class Key, class Value>
  cudaError_t operator()(void* d_temp, std::size_t& temp_bytes, sort_data<Key, Value>& data,
                         cudaStream_t stream) const {
    constexpr bool pairs = sort_data<Key, Value>::pairs;
    using V = std::conditional_t<pairs, Value, gpusort::detail::no_value>;
    V* values = nullptr;
    if constexpr (pairs) values = data.values();
    if (d_temp == nullptr) {
      // The policy's own size query; also sets which segments a stopped run has sorted.
      const gpusort::detail::warpsort_shape<Key, V> shape(
          data.size(), gpusort::detail::warpsort_four_way<STEP2, Key, V>(data.size()));
      data.verify_segment = last_step >= 4   ? 0
                            : last_step == 1 ? gpusort::detail::warpsort_tuning<Key, V>::run
                                             : shape.run_after_step2;
      if constexpr (pairs)
        return gpusort::sort_pairs(policy, nullptr, temp_bytes, data.keys(), values, data.size(),
                                   cmp, stream);
      else
        return gpusort::sort_keys(policy, nullptr, temp_bytes, data.keys(), data.size(), cmp,
                                  stream);
    }
    Key* result_keys = nullptr;
    V* result_values = nullptr;
    const cudaError_t status = gpusort::detail::warpsort_sort<STEP1, STEP2>(
        policy, d_temp, data.keys(), values, data.size(), cmp, stream, last_step, &result_keys,
        &result_values);
    data.result_keys = result_keys;
    if constexpr (pairs) data.result_values = result_values;
    return status;
  }
};

using default_variant = warpsort_variant<warpsort_step1::warp_bitonic, warpsort_step2::bitonic_merge>;
using pairwise = warpsort_variant<warpsort_step1::warp_bitonic, warpsort_step2::pairwise_bitonic_merge>;
using four_way = warpsort_variant<warpsort_step1::warp_bitonic, warpsort_step2::four_way_bitonic_merge>;


template <class Key, class Value, class Sort, class Compare = gpusort::less>
void add(const std::string& name, std::int64_t n, distribution d, Sort sort, Compare cmp = {}) {
  const std::string full = name + "/" + item_name<Key, Value>() + "/" + gpusort_test::name(d) +
                           "/n:" + size_name(n);
  configure(benchmark::RegisterBenchmark(full.c_str(), [n, d, sort, cmp](benchmark::State& state) {
    bench_sort<Key, Value>(state, n, d, sort, cmp);
  }));
}

// Two-way against four-way step-2 passes, the whole sort, each at the t the policy tunes for
// that form, not at the t of the policy's own passes (for u32 keys 256 from 2^25).
template <class Key, class Value>
void register_ways_study(std::int64_t n) {
  using V = std::conditional_t<sort_data<Key, Value>::pairs, Value, gpusort::detail::no_value>;
  const int two = gpusort::detail::warpsort_tuned_width<Key, V>(n, false);
  const int four = gpusort::detail::warpsort_tuned_width<Key, V>(n, true);
  add<Key, Value>("ways/two", n, distribution::uniform, pairwise{{two}, 4});
  add<Key, Value>("ways/four", n, distribution::uniform, four_way{{four}, 4});
}

// The merge buffer width t, the whole sort.
template <class Key, class Value, class Compare = gpusort::less>
void register_width_study(std::int64_t n) {
  for (int width : {64, 128, 256, 512, 1024}) {
    using V = std::conditional_t<std::is_void<Value>::value, gpusort::detail::no_value, Value>;
    if (!gpusort::detail::warpsort_supports_width<Key, V>(width)) continue;
    warpsort_variant<warpsort_step1::warp_bitonic, warpsort_step2::bitonic_merge, Compare> v{{}, 4};
    v.policy.merge_width = width;
    add<Key, Value>("width/t:" + std::to_string(width), n, distribution::uniform, v, Compare{});
  }
  add<Key, Value>("width/tuned", n, distribution::uniform,
                  warpsort_variant<warpsort_step1::warp_bitonic, warpsort_step2::bitonic_merge, Compare>{{}, 4},
                  Compare{});
}

template <class Key, class Value>
void register_studies(std::int64_t n) {
  const distribution u = distribution::uniform;
  // Fig. 11: step 1, warp vs block.
  add<Key, Value>("step1/warp_bitonic", n, u,
                  warpsort_variant<warpsort_step1::warp_bitonic, warpsort_step2::bitonic_merge>{{}, 1});
  add<Key, Value>("step1/block_bitonic", n, u,
                  warpsort_variant<warpsort_step1::block_bitonic, warpsort_step2::bitonic_merge>{{}, 1});
  // Fig. 12/13: steps 1-2 and the whole sort, bitonic buffer vs rank merge.
  add<Key, Value>("step2/bitonic_merge", n, u, default_variant{{}, 2});
  add<Key, Value>("step2/pairwise_bitonic_merge", n, u, pairwise{{}, 2});
  add<Key, Value>("step2/four_way_bitonic_merge", n, u, four_way{{}, 2});
  add<Key, Value>("step2/rank_merge", n, u,
                  warpsort_variant<warpsort_step1::warp_bitonic, warpsort_step2::rank_merge>{{}, 2});
  add<Key, Value>("merge/bitonic_merge", n, u, default_variant{{}, 4});
  add<Key, Value>("merge/pairwise_bitonic_merge", n, u, pairwise{{}, 4});
  add<Key, Value>("merge/four_way_bitonic_merge", n, u, four_way{{}, 4});
  add<Key, Value>("merge/rank_merge", n, u,
                  warpsort_variant<warpsort_step1::warp_bitonic, warpsort_step2::rank_merge>{{}, 4});
  register_width_study<Key, Value>(n);
  // Fig. 14: cumulative time after each step.
  for (int step = 1; step <= 4; ++step)
    add<Key, Value>("steps/after_step:" + std::to_string(step), n, u, default_variant{{}, step});
  cub_baseline::register_baselines<Key, Value, gpusort::less>(n, u);
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv, [] {
    for (int e : {20, 24, 28}) {
      const std::int64_t n = std::int64_t(1) << e;
      register_studies<std::uint32_t, void>(n);
      register_studies<std::uint32_t, std::uint32_t>(n);
      register_width_study<std::uint64_t, void>(n);
      cub_baseline::register_baselines<std::uint64_t, void, gpusort::less>(n, distribution::uniform);
      const std::int64_t n16 = std::int64_t(1) << (e < 27 ? e : 27);
      register_width_study<gpusort_test::key16, void, gpusort_test::key16_less>(n16);
      cub_baseline::register_baselines<gpusort_test::key16, void, gpusort_test::key16_less>(
          n16, distribution::uniform);
    }
    // t between the sizes above, where the tuned t doubles: 1, 5/4, 3/2 and 7/4 of 2^20 to
    // 2^23.
    for (int e : {20, 21, 22, 23}) {
      for (int quarters : {4, 5, 6, 7}) {
        if (e == 20 && quarters == 4) continue;  // 2^20: registered above
        const std::int64_t n = quarters * (std::int64_t(1) << (e - 2));
        register_width_study<std::uint32_t, void>(n);
        register_width_study<std::uint64_t, void>(n);
        register_width_study<std::uint32_t, std::uint32_t>(n);
      }
    }
    // Where 4-byte keys' t doubles to 1024 (only they reach it): 1, 5/4, 3/2 and 7/4 of 2^24
    // to 2^27.
    for (int e : {24, 25, 26, 27}) {
      for (int quarters : {4, 5, 6, 7}) {
        if (e == 24 && quarters == 4) continue;  // 2^24: registered above
        register_width_study<std::uint32_t, void>(quarters * (std::int64_t(1) << (e - 2)));
      }
    }
    for (int e = 22; e <= 28; ++e) {
      const std::int64_t n = std::int64_t(1) << e;
      register_ways_study<std::uint32_t, void>(n);
      register_ways_study<std::uint64_t, void>(n);
      register_ways_study<std::uint32_t, std::uint32_t>(n);
      if (e % 4 != 0) {  // 2^24 and 2^28: registered above
        cub_baseline::register_baselines<std::uint32_t, void, gpusort::less>(n, distribution::uniform);
        cub_baseline::register_baselines<std::uint64_t, void, gpusort::less>(n, distribution::uniform);
        cub_baseline::register_baselines<std::uint32_t, std::uint32_t, gpusort::less>(n, distribution::uniform);
      }
    }
    for (distribution d : gpusort_test::all_distributions) {
      // 2^26: four-way step-2 passes (four_way_from).
      for (std::int64_t n : {std::int64_t(1) << 24, std::int64_t(1) << 26}) {
        add<std::uint32_t, void>("dist/warpsort", n, d, default_variant{});
        add<std::uint32_t, std::uint32_t>("dist/warpsort", n, d, default_variant{});
      }
      if (d != distribution::uniform)  // uniform's baselines are registered above
        cub_baseline::register_baselines<std::uint32_t, void, gpusort::less>(std::int64_t(1) << 24, d);
    }
  });
}
