// gpusort/thread/compare_exchange.cuh — the comparator of every sorting network.
//
// Orders two register slots so that the first does not follow the second (or the reverse
// when `descending`); a value moves with its key. Equal keys are never swapped.
#pragma once

namespace gpusort {
namespace thread {

template <class Key, class Value, class Compare>
__host__ __device__ inline void compare_exchange(Key& a, Key& b, Value& va, Value& vb,
                                                 Compare cmp, bool descending = false) {
  const bool out_of_order = descending ? cmp(a, b) : cmp(b, a);
  if (out_of_order) {
    Key k = a;
    a = b;
    b = k;
    Value v = va;
    va = vb;
    vb = v;
  }
}

}  // namespace thread
}  // namespace gpusort
