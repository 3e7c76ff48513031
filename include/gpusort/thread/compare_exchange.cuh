// gpusort/thread/compare_exchange.cuh — the comparator of every sorting network.
//
// Orders two register slots so that the first does not follow the second (or the reverse
// when `descending`); a value moves with its key. Equal keys are never swapped.
#pragma once

namespace gpusort {
namespace thread {

// Both comparisons are evaluated and the result chosen by selects: a branch on the data
// here makes every network diverge and serialise (measured: 3-4x slower tile sorts).
template <class Key, class Value, class Compare>
__host__ __device__ __forceinline__ void compare_exchange(Key& a, Key& b, Value& va, Value& vb,
                                                          Compare cmp, bool descending = false) {
  const bool b_first = cmp(b, a);
  const bool a_first = cmp(a, b);
  const bool swap = descending ? a_first : b_first;
  const Key low = swap ? b : a;
  const Key high = swap ? a : b;
  const Value low_value = swap ? vb : va;
  const Value high_value = swap ? va : vb;
  a = low;
  b = high;
  va = low_value;
  vb = high_value;
}

}  // namespace thread
}  // namespace gpusort
