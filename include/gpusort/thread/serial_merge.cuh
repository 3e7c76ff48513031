// gpusort/thread/serial_merge.cuh — one thread's stretch of a stable merge of two sorted
// ranges in memory, one comparison an output.
//
// For merges that read their runs straight from memory rather than staging them in shared
// memory (randomized_sample's fallback, one block merging a whole segment's runs in device
// memory; warpsort's rank merge, each lane its share of a warp's pieces): each thread finds
// where its stretch [first, last) of the output starts with merge_path and then merges
// serially from there, reading a and b and writing out[first, last) directly. Stretches of different threads are independent, so threads that
// own consecutive stretches together write the whole merge.
//
// Stable: on ties the item of a comes first, as in merge_path. Values travel with their
// keys; pass detail::no_value pointers (null) to merge keys alone.
// Preconditions: a[0, a_count) and b[0, b_count) sorted under cmp (a strict weak ordering);
// 0 <= first <= last <= a_count + b_count; out does not overlap a or b.
// Complexity: merge_path's search, then last - first comparisons.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/thread/merge_path.cuh>

#include <cstdint>

namespace gpusort {
namespace thread {

template <class Key, class Value, class Compare>
__host__ __device__ inline void serial_merge(const Key* a, const Value* a_values,
                                             std::int64_t a_count, const Key* b,
                                             const Value* b_values, std::int64_t b_count,
                                             std::int64_t first, std::int64_t last, Key* out,
                                             Value* out_values, Compare cmp) {
  std::int64_t i = merge_path(a, a_count, b, b_count, first, cmp);
  std::int64_t j = first - i;
  for (std::int64_t k = first; k < last; ++k) {
    const bool from_a = j >= b_count || (i < a_count && !cmp(b[j], a[i]));
    if (from_a) {
      out[k] = a[i];
      if constexpr (detail::has_values<Value>) out_values[k] = a_values[i];
      ++i;
    } else {
      out[k] = b[j];
      if constexpr (detail::has_values<Value>) out_values[k] = b_values[j];
      ++j;
    }
  }
}

}  // namespace thread
}  // namespace gpusort
