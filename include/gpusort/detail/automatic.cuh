// gpusort/detail/automatic.cuh — policy::automatic: the built policy measured fastest.
//
// The choice is made from the measurements in bench/RESULTS.md (runs 17 and 19, H100 and
// H200, one process each with CUB; u32, u64, u32:u32 and 16-byte keys from 2^10 to 2^28, u32
// keys over every distribution at 2^24). policy::merge is the fastest of the four single-GPU
// policies, or within 10 % of it, everywhere but for large inputs of 4- and 8-byte keys
// without values, where policy::randomized_sample leads since its classification runs in
// parallel (run 17) and its scatter ranks by atomics (run 19). Uniform keys, median ms,
// merge / randomized_sample:
//   H100 run 19  u32 2^23  0.536 / 0.601   2^24  1.11 / 0.920   2^25  2.13 / 1.61   2^28  18.3 / 13.3
//                u64 2^22  0.508 / 0.664   2^23  0.996 / 0.894  2^24  1.98 / 1.47   2^28  32.4 / 22.3
//   H200 run 17  u32 2^23  0.555 / 0.692   2^24  1.03 / 1.07    2^25  1.96 / 1.83   2^28  16.5 / 14.2
//                u64 2^23  0.948 / 1.05    2^24  1.73 / 1.69    2^25  3.32 / 2.92   2^28  28.1 / 22.6
// At 2^24 randomized_sample is twice as fast as merge on all-equal and few-distinct keys (its
// equality buckets) and, on the H100, at least as fast on every other distribution. So 4-byte
// keys switch at 2^24 and 8-byte keys at 2^23 (H100 run 19: randomized_sample 10 % faster
// there; the H200 was not measured after run 19's scatter change, and in run 17, before it,
// merge led there by 10 %).
// randomized_sample is not stable, so it is chosen only where ties are invisible
// (ties_are_identical: equal keys are the same bits) and automatic stays stable as merge
// is. The size query cannot see the comparator, so for those keys and sizes it asks for the
// larger of the two policies' temp storage.
#pragma once

#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/randomized_sample_sort.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/policy.cuh>

#include <algorithm>
#include <cstdint>

namespace gpusort {
namespace detail {

// From this many items on, keys of this size without values go to the randomized sample
// sort where their ties are identical; 0: never.
template <class Key, class Value>
constexpr std::int64_t automatic_randomized_from() {
  if constexpr (has_values<Value>) return 0;
  else if constexpr (sizeof(Key) == 4) return std::int64_t(1) << 24;
  else if constexpr (sizeof(Key) == 8) return std::int64_t(1) << 23;
  else return 0;
}

template <>
struct algorithm<policy::automatic> {
  static constexpr bool implemented = true;
  static constexpr bool stable = true;
  using merge = algorithm<policy::merge>;
  using randomized = algorithm<policy::randomized_sample>;

  template <class Key, class Value>
  static constexpr bool may_randomize(std::int64_t n) {
    constexpr std::int64_t from = automatic_randomized_from<Key, Value>();
    return from > 0 && n >= from;
  }

  template <class Key, class Value>
  static cudaError_t check_policy(const policy::automatic&) {
    if (cudaError_t e = merge::check_policy<Key, Value>(policy::merge{})) return e;
    if constexpr (automatic_randomized_from<Key, Value>() > 0)
      return randomized::check_policy<Key, Value>(policy::randomized_sample{});
    return cudaSuccess;
  }

  template <class Key, class Value>
  static std::size_t temp_storage_bytes(const policy::automatic&, std::int64_t n) {
    const std::size_t merge_bytes = merge::temp_storage_bytes<Key, Value>(policy::merge{}, n);
    if (!may_randomize<Key, Value>(n)) return merge_bytes;
    return std::max(merge_bytes,
                    randomized::temp_storage_bytes<Key, Value>(policy::randomized_sample{}, n));
  }

  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::automatic&, void* temp, Key* keys, Value* values,
                          std::int64_t n, Compare cmp, cudaStream_t stream) {
    if constexpr (ties_are_identical<Key, Compare>::value) {
      if (may_randomize<Key, Value>(n))
        return randomized::sort(policy::randomized_sample{}, temp, keys, values, n, cmp, stream);
    }
    return merge::sort(policy::merge{}, temp, keys, values, n, cmp, stream);
  }
};

}  // namespace detail
}  // namespace gpusort
