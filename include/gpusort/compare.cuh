// gpusort/compare.cuh — the comparators every policy accepts.
//
// All three are transparent (templated call operator) and usable in host and device code.
// `total_less` gives floating-point keys a strict weak ordering that includes NaN:
// IEEE-754 totalOrder, -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpusort {

struct less {
  template <class A, class B>
  __host__ __device__ constexpr bool operator()(const A& a, const B& b) const {
    return a < b;
  }
};

struct greater {
  template <class A, class B>
  __host__ __device__ constexpr bool operator()(const A& a, const B& b) const {
    return b < a;
  }
};

namespace detail {

template <class F> struct float_bits;
template <> struct float_bits<float> { using type = std::uint32_t; };
template <> struct float_bits<double> { using type = std::uint64_t; };
template <> struct float_bits<__half> { using type = std::uint16_t; };
template <> struct float_bits<__nv_bfloat16> { using type = std::uint16_t; };

// Floats of at most 4 bytes: one compare instruction under less, as their words are.
template <class Key>
constexpr bool is_narrow_float = std::is_same<Key, float>::value || std::is_same<Key, __half>::value ||
                                 std::is_same<Key, __nv_bfloat16>::value;

// Maps a float's bit pattern to an unsigned integer whose natural order is totalOrder:
// negatives have all bits flipped (larger magnitude sorts first), non-negatives get the
// sign bit set (they sort after every negative).
template <class F>
__host__ __device__ inline typename float_bits<F>::type total_order_key(const F& f) {
  using U = typename float_bits<F>::type;
  U u;
  std::memcpy(&u, &f, sizeof(U));
  constexpr U sign = U(U(1) << (8 * sizeof(U) - 1));
  return (u & sign) ? U(~u) : U(u | sign);
}

// The inverse of total_order_key.
template <class F>
__host__ __device__ inline F from_total_order_key(typename float_bits<F>::type word) {
  using U = typename float_bits<F>::type;
  constexpr U sign = U(U(1) << (8 * sizeof(U) - 1));
  const U raw = (word & sign) ? U(word & U(~sign)) : U(~word);
  F f;
  std::memcpy(&f, &raw, sizeof(F));
  return f;
}

}  // namespace detail

struct total_less {
  template <class F>
  __host__ __device__ bool operator()(const F& a, const F& b) const {
    static_assert(sizeof(typename detail::float_bits<F>::type) == sizeof(F),
                  "total_less orders float, double, __half and __nv_bfloat16");
    return detail::total_order_key(a) < detail::total_order_key(b);
  }
};

}  // namespace gpusort
