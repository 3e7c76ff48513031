// gpusort/detail/automatic.cuh — policy::automatic: the built policy measured fastest.
//
// The choice is made from the measurements in bench/RESULTS.md (H100 and H200; u32, u64,
// u32:u32 and 16-byte keys from 2^10 to 2^28, u32 keys over every distribution at 2^24):
// policy::merge is the fastest of the four single-GPU policies, or within 10 % of the
// fastest, on every uniform input of the grid on both devices (largest gaps, both on the
// H100: u32 at 2^10, 8.5 % behind warpsort; u64 at 2^28, 5 % behind randomized_sample).
// Run 14 (H100) had randomized_sample 12-16 % ahead for 8-byte keys from 2^26, and
// automatic switched there; after run 15's merge fixes that lead is 1-5 % on the H100 (u64
// at 2^28: 31.7 against 33.3 ms) and merge leads by 6-12 % on the H200 (29.2 against
// 30.7 ms), where the switch would break the 10 % bound. So automatic is merge everywhere:
// stable, one temp-storage rule, and no dependence on the comparator.
// Not chosen from the measurements: randomized_sample is 1.8-2x faster on u32 keys with few
// distinct values, but telling those inputs apart would cost a pass and a host
// synchronisation before the sort.
#pragma once

#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/policy.cuh>

#include <cstdint>

namespace gpusort {
namespace detail {

template <>
struct algorithm<policy::automatic> {
  static constexpr bool implemented = true;
  using merge = algorithm<policy::merge>;

  template <class Key, class Value>
  static cudaError_t check_policy(const policy::automatic&) {
    return merge::check_policy<Key, Value>(policy::merge{});
  }

  template <class Key, class Value>
  static std::size_t temp_storage_bytes(const policy::automatic&, std::int64_t n) {
    return merge::temp_storage_bytes<Key, Value>(policy::merge{}, n);
  }

  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::automatic&, void* temp, Key* keys, Value* values,
                          std::int64_t n, Compare cmp, cudaStream_t stream) {
    return merge::sort(policy::merge{}, temp, keys, values, n, cmp, stream);
  }
};

}  // namespace detail
}  // namespace gpusort
