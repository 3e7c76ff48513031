// gpusort/block/four_way_merge.cuh — the whole block merges four sorted segments in shared
// memory, stably, into a blocked tile in registers (thread t gets outputs t*ITEMS..).
//
// Two levels of pairwise merges, each split among the threads by merge_path so that every
// thread emits ITEMS outputs whatever the data: first a with b and c with d (one array of
// output, the two merges side by side), then those two results. Each thread merges its
// piece serially, ties to the earlier segment, so the result is the stable four-way merge
// (segments in order a, b, c, d) without ranks. With values, the first level records where
// each item came from, and the second fetches values once, from where the caller staged them.
#pragma once

#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/thread/merge_path.cuh>

#include <type_traits>

namespace gpusort {
namespace block {

template <int THREADS, int ITEMS, class Key, class Value>
struct four_way_merge_storage {
  tile_buffer<THREADS, ITEMS, Key> keys;  // the caller stages the four segments here, in order
  tile_buffer<THREADS, ITEMS, Value> values;
  tile_buffer<THREADS, ITEMS, Key> halves;  // merge(a, b) ++ merge(c, d)
  // Where each item of `halves` sits in `keys` (only with values).
  tile_buffer<THREADS, ITEMS, std::conditional_t<detail::has_values<Value>, int, detail::no_value>>
      origins;
};

namespace four_way_detail {

// A sorted segment of a shared buffer.
template <class Buffer>
struct segment {
  Buffer* buffer;
  int at;
  int count;
  __device__ __forceinline__ auto operator[](std::int64_t i) const {
    return (*buffer)[at + static_cast<int>(i)];
  }
};

// Outputs [first, first + count) (count <= ITEMS) of the stable merge of x and y:
// emit(r, key, slot of the item in x's and y's buffer) for r = 0..count-1.
template <int ITEMS, class Segment, class Compare, class Emit>
__device__ __forceinline__ void merge_serially(Segment x, Segment y, int first, int count,
                                               Compare cmp, Emit emit) {
  int i = static_cast<int>(thread::merge_path(x, x.count, y, y.count, first, cmp));
  int j = first - i;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    if (r < count) {
      const bool from_x = i < x.count && (j >= y.count || !cmp(y[j], x[i]));
      if (from_x) {
        emit(r, x[i], x.at + i);
        ++i;
      } else {
        emit(r, y[j], y.at + j);
        ++j;
      }
    }
  }
}

}  // namespace four_way_detail

// counts: the four segments' lengths, staged one after another in storage.keys (and values);
// their sum is at most THREADS * ITEMS. Outputs past the sum are left as they were.
template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void four_way_merge(const int (&counts)[4], Key (&keys)[ITEMS],
                                               Value (&values)[ITEMS], Compare cmp,
                                               four_way_merge_storage<THREADS, ITEMS, Key, Value>& shared) {
  using namespace four_way_detail;
  constexpr bool with_values = detail::has_values<Value>;
  using staged = segment<tile_buffer<THREADS, ITEMS, Key>>;
  const int ab = counts[0] + counts[1];
  const int total = ab + counts[2] + counts[3];
  const int first = min(static_cast<int>(threadIdx.x) * ITEMS, total);
  const int last = min(first + ITEMS, total);

  // Level 1: outputs [0, ab) merge a with b, outputs [ab, total) merge c with d; a thread
  // whose outputs straddle ab works on both.
  const auto to_halves = [&](int position) {
    return [&shared, position](int r, const Key& key, int slot) {
      shared.halves[position + r] = key;
      if constexpr (with_values) shared.origins[position + r] = slot;
    };
  };
  if (first < ab) {
    const int end = min(last, ab);
    merge_serially<ITEMS>(staged{&shared.keys, 0, counts[0]},
                          staged{&shared.keys, counts[0], counts[1]}, first, end - first, cmp,
                          to_halves(first));
  }
  if (last > ab) {
    const int begin = max(first, ab);
    merge_serially<ITEMS>(staged{&shared.keys, ab, counts[2]},
                          staged{&shared.keys, ab + counts[2], counts[3]}, begin - ab,
                          last - begin, cmp, to_halves(begin));
  }
  __syncthreads();

  // Level 2: the two halves.
  using half = segment<tile_buffer<THREADS, ITEMS, Key>>;
  merge_serially<ITEMS>(half{&shared.halves, 0, ab}, half{&shared.halves, ab, total - ab}, first,
                        last - first, cmp, [&](int r, const Key& key, int slot) {
                          keys[r] = key;
                          if constexpr (with_values) values[r] = shared.values[shared.origins[slot]];
                        });
  __syncthreads();
}

}  // namespace block
}  // namespace gpusort
