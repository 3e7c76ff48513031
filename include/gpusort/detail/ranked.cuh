// gpusort/detail/ranked.cuh — making a bitonic network stable.
//
// Bitonic networks do not keep equal keys in order. Pairing each key with its rank in
// the input of the network (its index in the tile, or its place in the concatenation of
// the two runs being merged) and breaking ties by that rank gives the order a stable sort
// would produce. The rank lives in registers and shared memory only, never in the arrays.
// A negative rank marks an empty slot of a partly filled tile: it sorts after every item
// whatever its key (a copy of a real one), so no sentinel key is needed.
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/no_value.cuh>

#include <type_traits>

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

// Whether keys that compare equal are always the same bits: then the order among them
// cannot be observed and a keys-only sort is stable without ranks. True for integers under
// less / greater and for floating point under total_less (not under less: -0 == +0).
template <class Key, class Compare>
struct ties_are_identical
    : std::bool_constant<(std::is_integral<Key>::value &&
                          (std::is_same<Compare, less>::value || std::is_same<Compare, greater>::value)) ||
                         (std::is_same<Compare, total_less>::value &&
                          !std::is_integral<Key>::value)> {};

// A stable sort of these items needs ranks unless values ride along or ties are identical.
template <class Key, class Value, class Compare>
constexpr bool needs_ranks = !std::is_same<Value, no_value>::value || !ties_are_identical<Key, Compare>::value;

}  // namespace detail
}  // namespace gpusort
