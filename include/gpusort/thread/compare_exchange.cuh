// gpusort/thread/compare_exchange.cuh — the comparator of every sorting network.
//
// Orders two register slots so that the first does not follow the second (or the reverse
// when `descending`); a value moves with its key. Equal keys are never swapped.
#pragma once

#include <cstring>
#include <type_traits>

namespace gpusort {
namespace thread {

// c ? x : y, for 8-byte keys word by word: the compiler turns the two selects of a whole
// 64-bit integer by its own comparison into min.u64 and max.u64, which the GPU lacks, so
// each compares again (8 integer instructions a compare-exchange instead of 6, in networks
// that the integer pipe bounds).
template <class T>
__host__ __device__ __forceinline__ T select_words(bool c, const T& x, const T& y) {
  if constexpr (sizeof(T) == 8 && std::is_trivially_copyable<T>::value) {
    unsigned int wx[2], wy[2], w[2];
    std::memcpy(wx, &x, 8);
    std::memcpy(wy, &y, 8);
    w[0] = c ? wx[0] : wy[0];
    w[1] = c ? wx[1] : wy[1];
    T out;
    std::memcpy(&out, w, 8);
    return out;
  } else {
    return c ? x : y;
  }
}

// Both comparisons are evaluated and the result chosen by selects: a branch on the data
// here makes every network diverge and serialise (measured: 3-4x slower tile sorts).
template <class Key, class Value, class Compare>
__host__ __device__ __forceinline__ void compare_exchange(Key& a, Key& b, Value& va, Value& vb,
                                                          Compare cmp, bool descending = false) {
  const bool b_first = cmp(b, a);
  const bool a_first = cmp(a, b);
  const bool swap = descending ? a_first : b_first;
  const Key low = select_words(swap, b, a);
  const Key high = select_words(swap, a, b);
  const Value low_value = swap ? vb : va;
  const Value high_value = swap ? va : vb;
  a = low;
  b = high;
  va = low_value;
  vb = high_value;
}

}  // namespace thread
}  // namespace gpusort
