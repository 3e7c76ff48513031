// gpusort/detail/ping_pong.cuh — the two arrays that a sort's doubling passes alternate
// between.
//
// Passes that double the run length from `first_run` until one run covers n items each read
// one array and write the other. Started in the right one, the last pass lands in `home`
// (the caller's arrays) and no final copy is needed: with an odd number of passes the
// first write (the tile sort) goes to the spare arrays.
#pragma once

#include <cstdint>

namespace gpusort {
namespace detail {

__host__ __device__ inline int doubling_passes(std::int64_t n, std::int64_t first_run) {
  int passes = 0;
  for (std::int64_t run = first_run; run < n; run *= 2) ++passes;
  return passes;
}

template <class Key, class Value>
struct ping_pong {
  Key* keys;  // what the next pass reads (and the tile sort writes)
  Value* values;
  Key* other_keys;  // what the next pass writes
  Value* other_values;

  __host__ __device__ static ping_pong ending_in(Key* home_keys, Value* home_values,
                                                 Key* spare_keys, Value* spare_values,
                                                 int passes) {
    return passes % 2 == 0 ? ping_pong{home_keys, home_values, spare_keys, spare_values}
                           : ping_pong{spare_keys, spare_values, home_keys, home_values};
  }

  // After a pass: what it wrote is what the next one reads.
  __host__ __device__ void flip() {
    Key* k = keys;
    keys = other_keys;
    other_keys = k;
    Value* v = values;
    values = other_values;
    other_values = v;
  }
};

}  // namespace detail
}  // namespace gpusort
