// gpusort/detail/automatic.cuh — policy::automatic: the built policy measured fastest.
//
// Keys without values whose ties are identical (ties_are_identical: equal keys are the same
// bits, so no sort can be told from a stable one) of 1, 2, 4 and 8 bytes go to the policy
// measured fastest at their size: merge up to randomized_from, randomized_sample from there.
// Everything else (pairs, keys whose ties may differ in bits, other key sizes) goes to merge,
// so automatic stays stable as merge is. (Floats under total_less, and float, __half and
// __nv_bfloat16 keys alone under less and greater with their zeros' input order recorded,
// arrive here as their order words, detail/total_order_words.cuh.) The size query cannot see
// the comparator, so for those keys it asks for the larger of merge's and randomized_sample's
// temp storage at n.
//
// The sizes come from bench_sort (bench/RESULTS.md run 97, H100, one process with CUB;
// uniform keys, median ms, merge / warpsort / randomized_sample; n in units of 2^20):
//   u32  2.5  0.147 / 0.197 / 0.319     4  0.189 / 0.228 / 0.361     5  0.237 / 0.320 / 0.404
//        6    0.337 / 0.339 / 0.431     7  0.402 / 0.405 / 0.468     8  0.417 / 0.428 / 0.506
//        10   0.544 / 0.561 / 0.520    12  0.668 / 0.626 / 0.590
//   u64  3.5  0.365 / 0.415 / 0.506     4  0.424 / 0.441 / 0.536     5  0.578 / 0.559 / 0.540
//        8    0.834 / 0.854 / 0.717
// Merge is as fast as warpsort or faster wherever the randomized sort is not the fastest, so
// automatic no longer takes warpsort (it did from 2^22 after run 44, when warpsort led merge
// there by 10 %: u32 at 2^22 0.254 / 0.228; merge's four-way passes and tiles have since
// gained more). 1- and 2-byte keys (H200, bench/RESULTS.md run 53, ms, merge / warpsort /
// randomized_sample):
//   u16  8    0.436 / 0.442 / 0.521    10  0.569 / 0.571 / 0.541    16  0.883 / 0.840 / 0.737
//        32   1.808 / 1.663 / 1.269
//   u8   4    0.240 / 0.262 / 0.275     5  0.298 / 0.366 / 0.256    16  0.767 / 0.830 / 0.372
// At 2^24 randomized_sample is also twice as fast as merge on all-equal and few-distinct keys
// (its equality buckets) and at least as fast on every other distribution.
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
  else if constexpr (sizeof(Key) == 2 || sizeof(Key) == 4) return 10 * (std::int64_t(1) << 20);
  else if constexpr (sizeof(Key) == 1 || sizeof(Key) == 8) return 5 * (std::int64_t(1) << 20);
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
    if (may_randomize<Key, Value>(n))
      return std::max(merge_bytes,
                      randomized::temp_storage_bytes<Key, Value>(policy::randomized_sample{}, n));
    return merge_bytes;
  }

  // if constexpr, not only the size checks: a policy that is never chosen for these items
  // (pairs, other key sizes) is not compiled for them.
  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::automatic&, void* temp, Key* keys, Value* values,
                          std::int64_t n, Compare cmp, cudaStream_t stream) {
    if constexpr (ties_are_identical<Key, Compare>::value) {
      if constexpr (automatic_randomized_from<Key, Value>() > 0) {
        if (may_randomize<Key, Value>(n))
          return randomized::sort(policy::randomized_sample{}, temp, keys, values, n, cmp, stream);
      }
    }
    return merge::sort(policy::merge{}, temp, keys, values, n, cmp, stream);
  }
};

}  // namespace detail
}  // namespace gpusort
