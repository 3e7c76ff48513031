// gpusort/detail/ragged.cuh — ordering a partly filled tile without sentinel keys.
//
// A generic key type has no +infinity to pad a tile with, so a slot past the end of the
// input carries `valid == false` and compares after every real key. The networks stay
// written once: the ragged tile is sorted with `maybe<Key>` and `valid_first<Compare>`.
#pragma once

namespace gpusort {
namespace detail {

template <class Key>
struct maybe {
  Key key;
  bool valid;
};

template <class Compare>
struct valid_first {
  Compare cmp;
  // Evaluated without short cuts (no divergent branch); the key of an invalid slot must
  // still be a real key (block::load_blocked fills such slots with a copy of item 0).
  template <class Key>
  __host__ __device__ __forceinline__ bool operator()(const maybe<Key>& a, const maybe<Key>& b) const {
    const bool a_first = cmp(a.key, b.key);
    return a.valid & (!b.valid | a_first);
  }
};

}  // namespace detail
}  // namespace gpusort
