// gpusort/detail/positioned.cuh — a strict total order on (key, position) pairs.
//
// The deterministic sample sort (Dehne & Zaboli) bounds every bucket by 2n/s only if the
// keys are distinct. Pairing each key with a unique position and breaking ties between
// equal keys by that position makes them distinct without changing the order of unequal
// keys, so all-equal input splits into buckets as evenly as uniform input does.
// An item's position is `tile_offset + i`, i its index in its sorted tile: positions are
// unique, and increase along a sorted tile, so a sorted tile is also sorted by `precedes`.
#pragma once

#include <cstdint>

namespace gpusort {
namespace detail {

// True when (a, pos_a) comes strictly before (b, pos_b): a orders before b under `cmp`, or
// the two keys are equivalent and a's position is smaller.
template <class Key, class Compare>
__host__ __device__ __forceinline__ bool precedes(const Key& a, std::int64_t pos_a, const Key& b,
                                                  std::int64_t pos_b, Compare cmp) {
  return cmp(a, b) || (!cmp(b, a) && pos_a < pos_b);
}

}  // namespace detail
}  // namespace gpusort
