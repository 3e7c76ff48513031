// gpusort/detail/ranked.cuh — making a bitonic network stable.
//
// Bitonic networks do not keep equal keys in order. Pairing each key with its rank in
// the input of the network (its index in the tile, or its place in the concatenation of
// the two runs being merged) and breaking ties by that rank gives the order a stable sort
// would produce. The rank lives in registers and shared memory only, never in the arrays.
// A negative rank marks an empty slot of a partly filled tile: it sorts after every item
// and its key is never read, so no sentinel key is needed.
#pragma once

namespace gpusort {
namespace detail {

template <class Key>
struct ranked {
  Key key;
  int rank;
};

constexpr int absent_rank = -1;

template <class Compare>
struct rank_tiebreak {
  Compare cmp;
  template <class Key>
  __host__ __device__ bool operator()(const ranked<Key>& a, const ranked<Key>& b) const {
    if (a.rank < 0) return false;
    if (b.rank < 0) return true;
    if (cmp(a.key, b.key)) return true;
    if (cmp(b.key, a.key)) return false;
    return a.rank < b.rank;
  }
};

}  // namespace detail
}  // namespace gpusort
