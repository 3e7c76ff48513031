// gpusort/warp/shuffle.cuh — butterfly shuffle of any trivially copyable type.
//
// __shfl_xor_sync moves 32-bit words; keys and values of user types (12- and 16-byte
// structs, 2-byte halves) are moved word by word through a local copy.
#pragma once

#include <gpusort/detail/no_value.cuh>

#include <cstring>
#include <type_traits>

namespace gpusort {
namespace warp {

template <class T>
__device__ inline T shuffle_xor(const T& x, int lane_mask) {
  static_assert(std::is_trivially_copyable<T>::value, "gpusort sorts trivially copyable types");
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned int w[words] = {};
  std::memcpy(w, &x, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = __shfl_xor_sync(0xffffffffu, w[i], lane_mask);
  T y;
  std::memcpy(&y, w, sizeof(T));
  return y;
}

__device__ inline gpusort::detail::no_value shuffle_xor(gpusort::detail::no_value, int) { return {}; }

}  // namespace warp
}  // namespace gpusort
