// tests/common/bits.cuh — bitwise helpers of the building-block tests: keys compared by
// their bits (a permutation check must not treat -0 and +0, or two NaNs, as the same
// item), and values of any trivially copyable type that carry an input index in their
// first bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace gpusort_test {

template <class Key>
bool same_bits(const Key& a, const Key& b) {
  return std::memcmp(&a, &b, sizeof(Key)) == 0;
}

template <class Value>
Value value_of_index(std::size_t i) {
  Value v{};
  std::memcpy(&v, &i, std::min(sizeof(Value), sizeof(i)));
  return v;
}

template <class Value>
std::size_t index_of_value(const Value& v) {
  std::size_t i = 0;
  std::memcpy(&i, &v, std::min(sizeof(Value), sizeof(i)));
  return i;
}

}  // namespace gpusort_test
