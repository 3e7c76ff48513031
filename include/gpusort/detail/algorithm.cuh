// gpusort/detail/algorithm.cuh — how an entry point reaches the algorithm of a policy.
//
// Each algorithm header specialises `algorithm<Policy>` with
//   static constexpr bool stable;  (whether equal keys keep their input order, as policy.cuh
//       documents per policy)
//   template <class Key, class Value> static cudaError_t check_policy(const Policy&);
//       (cudaErrorInvalidValue for tuning fields it cannot honour)
//   template <class Key, class Value> static std::size_t temp_storage_bytes(const Policy&, std::int64_t n);
//   template <class Key, class Value, class Compare>
//   static cudaError_t sort(const Policy&, void* temp, Key* keys, Value* values, std::int64_t n,
//                           Compare, cudaStream_t);
// (`Value` is detail::no_value and `values` null for keys-only sorts; n > 0 and the
// arguments already validated). A policy without a specialisation is not implemented:
// its entry points return cudaErrorNotSupported and leave the data untouched.
#pragma once

namespace gpusort {
namespace detail {

template <class Policy>
struct algorithm {
  static constexpr bool implemented = false;
};

}  // namespace detail
}  // namespace gpusort
