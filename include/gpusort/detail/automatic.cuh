// gpusort/detail/automatic.cuh — policy::automatic: the built policy measured fastest.
//
// The choice is made from the measurements in bench/RESULTS.md. On the H100 (run 11: u32,
// u64, u32:u32 and 16-byte keys at 2^24 to 2^28, uniform) policy::merge was the fastest of
// the four single-GPU policies in every case, by 1.2x to 5x, so automatic is the merge sort
// with its tuned defaults (stable). A per-size table takes over when another policy wins a
// measured case.
#pragma once

#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/policy.cuh>

namespace gpusort {
namespace detail {

template <>
struct algorithm<policy::automatic> {
  static constexpr bool implemented = true;
  using chosen = algorithm<policy::merge>;

  template <class Key, class Value>
  static cudaError_t check_policy(const policy::automatic&) {
    return chosen::check_policy<Key, Value>(policy::merge{});
  }

  template <class Key, class Value>
  static std::size_t temp_storage_bytes(const policy::automatic&, std::int64_t n) {
    return chosen::temp_storage_bytes<Key, Value>(policy::merge{}, n);
  }

  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::automatic&, void* temp, Key* keys, Value* values,
                          std::int64_t n, Compare cmp, cudaStream_t stream) {
    return chosen::sort(policy::merge{}, temp, keys, values, n, cmp, stream);
  }
};

}  // namespace detail
}  // namespace gpusort
