// gpusort/detail/automatic.cuh — policy::automatic: the built policy measured fastest.
//
// The choice is made from the measurements in bench/RESULTS.md (H100; u32, u64, u32:u32 and
// 16-byte keys from 2^10 to 2^28, and u32 keys over every distribution at 2^24):
// policy::merge is the fastest of the four single-GPU policies everywhere but for 8-byte
// keys without values at the top of the range, where policy::randomized_sample wins
// (u64 at 2^28: 29.9 against 35.2 ms; at 2^24 merge is ahead, 2.11 against 2.19 ms). The
// switch sits between those two measured sizes, at 2^26. The randomized sort is not stable,
// so it is chosen only where ties are invisible (ties_are_identical: equal keys are the same
// bits), and automatic stays stable as merge is. The size query cannot see the comparator,
// so for those keys and sizes it asks for the larger of the two policies' temp storage.
// Not yet chosen from the measurements: the randomized sort is also 2x faster on u32 keys
// with few distinct values, but telling those inputs apart would cost a pass and a
// host synchronisation before the sort.
#pragma once

#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/detail/randomized_sample_sort.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/policy.cuh>

#include <algorithm>
#include <cstdint>

namespace gpusort {
namespace detail {

// From this many items on, 8-byte keys without values go to the randomized sample sort.
constexpr std::int64_t automatic_randomized_from = std::int64_t(1) << 26;

template <class Key, class Value>
constexpr bool automatic_randomizes_large = sizeof(Key) == 8 && !has_values<Value>;

template <>
struct algorithm<policy::automatic> {
  static constexpr bool implemented = true;
  using merge = algorithm<policy::merge>;
  using randomized = algorithm<policy::randomized_sample>;

  template <class Key, class Value>
  static cudaError_t check_policy(const policy::automatic&) {
    if (cudaError_t e = merge::check_policy<Key, Value>(policy::merge{})) return e;
    if constexpr (automatic_randomizes_large<Key, Value>)
      return randomized::check_policy<Key, Value>(policy::randomized_sample{});
    return cudaSuccess;
  }

  template <class Key, class Value>
  static std::size_t temp_storage_bytes(const policy::automatic&, std::int64_t n) {
    const std::size_t merge_bytes = merge::temp_storage_bytes<Key, Value>(policy::merge{}, n);
    if constexpr (automatic_randomizes_large<Key, Value>) {
      if (n >= automatic_randomized_from)
        return std::max(merge_bytes, randomized::temp_storage_bytes<Key, Value>(
                                         policy::randomized_sample{}, n));
    }
    return merge_bytes;
  }

  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::automatic&, void* temp, Key* keys, Value* values,
                          std::int64_t n, Compare cmp, cudaStream_t stream) {
    if constexpr (automatic_randomizes_large<Key, Value> && ties_are_identical<Key, Compare>::value) {
      if (n >= automatic_randomized_from)
        return randomized::sort(policy::randomized_sample{}, temp, keys, values, n, cmp, stream);
    }
    return merge::sort(policy::merge{}, temp, keys, values, n, cmp, stream);
  }
};

}  // namespace detail
}  // namespace gpusort
