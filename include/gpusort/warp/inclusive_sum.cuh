// gpusort/warp/inclusive_sum.cuh — warp::inclusive_sum: a prefix sum over the 32 lanes.
//
// Five shuffle steps (Hillis–Steele); every lane of the warp must call it. Lane i gets
// x(0) + … + x(i), lanes in the order of threadIdx.x.
#pragma once

#include <type_traits>

namespace gpusort {
namespace warp {

template <class T>
__device__ __forceinline__ T inclusive_sum(T x) {
  static_assert(std::is_arithmetic<T>::value, "a sum of numbers that __shfl_up_sync moves");
  const int lane = static_cast<int>(threadIdx.x % 32);
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T below = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x += below;
  }
  return x;
}

}  // namespace warp
}  // namespace gpusort
