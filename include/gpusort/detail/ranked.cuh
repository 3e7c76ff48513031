// gpusort/detail/ranked.cuh — making a bitonic network stable.
//
// Bitonic networks do not keep equal keys in order. Pairing each key with its rank in
// the input of the network (its index in the tile, or its place in the concatenation of
// the two runs being merged) and breaking ties by that rank gives the order a stable sort
// would produce. The rank lives in registers and shared memory only, never in the arrays.
// A negative rank marks an empty slot of a partly filled tile: it sorts after every item
// whatever its key (a copy of a real one), so no sentinel key is needed.
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
  // Evaluated without short cuts: a branch per comparison makes the networks diverge.
  template <class Key>
  __host__ __device__ __forceinline__ bool operator()(const ranked<Key>& a,
                                                      const ranked<Key>& b) const {
    const bool a_first = cmp(a.key, b.key);
    const bool b_first = cmp(b.key, a.key);
    const bool a_present = a.rank >= 0;
    const bool b_absent = b.rank < 0;
    return a_present & (b_absent | a_first | (!b_first & (a.rank < b.rank)));
  }
};

}  // namespace detail
}  // namespace gpusort
