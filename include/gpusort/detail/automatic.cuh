// gpusort/detail/automatic.cuh — policy::automatic: the built policy measured fastest.
//
// The choice is made from the measurements in bench/RESULTS.md (run 16, H100 and H200, one
// process each with CUB; u32, u64, u32:u32 and 16-byte keys from 2^10 to 2^28, u32 keys over
// every distribution at 2^24). policy::merge is the fastest of the four single-GPU
// policies, or within 10 % of it, everywhere but for large inputs of 4- and 8-byte keys
// without values, where policy::randomized_sample leads since its tree walk was batched
// (run 16). Uniform keys, median ms, merge / randomized_sample:
//             H100                       H200
//   u32 2^25  2.20 / 2.35  2^26 4.41 / 4.02  |  2.02 / 2.25  4.01 / 4.00
//   u32 2^28  18.8 / 16.2                     |  17.0 / 15.9
//   u64 2^24  1.99 / 2.11  2^25 3.86 / 3.47  |  1.77 / 2.01  3.39 / 3.38
//   u64 2^28  33.0 / 25.7                     |  28.7 / 25.4
// So those keys switch at 2^26 (4 bytes) and 2^25 (8 bytes), where the two are level on the
// H200 and randomized_sample leads by 9-10 % on the H100; the same sizes serve both devices.
// randomized_sample is not stable, so it is chosen only where ties are invisible
// (ties_are_identical: equal keys are the same bits) and automatic stays stable as merge
// is. The size query cannot see the comparator, so for those keys and sizes it asks for the
// larger of the two policies' temp storage.
// Not chosen from the measurements: randomized_sample is 1.8-2x faster on u32 keys with few
// distinct values at 2^24, but telling those inputs apart would cost a pass and a host
// synchronisation before the sort.
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
  else if constexpr (sizeof(Key) == 4) return std::int64_t(1) << 26;
  else if constexpr (sizeof(Key) == 8) return std::int64_t(1) << 25;
  else return 0;
}

template <>
struct algorithm<policy::automatic> {
  static constexpr bool implemented = true;
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
