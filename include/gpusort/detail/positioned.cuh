// gpusort/detail/positioned.cuh — a strict total order on (key, position) pairs.
//
// The deterministic sample sort (Dehne & Zaboli) bounds every bucket by 2n/s only if the
// keys are distinct. Pairing each key with a unique position and breaking ties between
// equal keys by that position makes them distinct without changing the order of unequal
// keys, so all-equal input splits into buckets as evenly as uniform input does.
// An item's position is `tile_offset + i`, i its index in its sorted tile: positions are
// unique, and increase along a sorted tile, so a sorted tile is also sorted by `precedes`.
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/ranked.cuh>

#include <cstdint>

namespace gpusort {
namespace detail {

// True when (a, pos_a) comes strictly before (b, pos_b): a orders before b under `cmp`, or
// the two keys are equivalent and a's position is smaller.
template <class Key, class Compare>
__host__ __device__ __forceinline__ bool precedes(const Key& a, std::int64_t pos_a, const Key& b,
                                                  std::int64_t pos_b, Compare cmp) {
  return cmp(a, b) || (!cmp(b, a) && pos_a < pos_b);
}

// A sample of the deterministic sample sort as one item, so that the sort of all samples
// (Algorithm 1 step 4) can order it with a comparator. A negative position marks an empty
// slot of the fixed-size sample table (a tile that does not exist); its key must still be a
// real key, because the comparator reads it without a branch. Position: a signed integer
// that holds every index of the array (32 bits make a 4-byte key's sample 8 bytes, not 16).
template <class Key, class Position = std::int64_t>
struct positioned_key {
  Key key;
  Position position;
};

constexpr std::int64_t absent_position = -1;

// precedes() on positioned_key, empty slots after every sample. Evaluated without short
// cuts: a branch per comparison makes the sorting networks diverge.
template <class Compare>
struct positioned_less {
  Compare cmp;
  template <class Key, class Position>
  __host__ __device__ __forceinline__ bool operator()(const positioned_key<Key, Position>& a,
                                                      const positioned_key<Key, Position>& b) const {
    const bool a_first = cmp(a.key, b.key);
    const bool b_first = cmp(b.key, a.key);
    const bool a_present = a.position >= 0;
    const bool b_absent = b.position < 0;
    return a_present & (b_absent | a_first | (!b_first & (a.position < b.position)));
  }
};

// How a sample (key, position) is stored for a sort of all samples: as a positioned_key under
// positioned_less, or, where the key maps in order onto a 32-bit word (order_word) and the
// positions fit 31 bits, as one 64-bit word, order word above position, under plain less:
// the sort then compares one unsigned word whose ties are identical bits (the networks'
// cheapest case) instead of two keys and two positions. An absent sample is the largest
// word, after every real one (whose position is below 2^31).
template <class Key, class Compare, class Position,
          bool PACKED = order_word<Key, Compare>::exists && sizeof(Position) == 4>
struct sample_codec {
  using sample = positioned_key<Key, Position>;
  __host__ __device__ static sample make(const Key& key, std::int64_t position) {
    return {key, static_cast<Position>(position)};
  }
  __host__ __device__ static sample absent(const Key& any_key) {
    return {any_key, static_cast<Position>(absent_position)};
  }
  __host__ __device__ static Key key(const sample& s) { return s.key; }
  __host__ __device__ static std::int64_t position(const sample& s) { return s.position; }
  __host__ __device__ static positioned_less<Compare> compare(Compare cmp) { return {cmp}; }
};

template <class Key, class Compare, class Position>
struct sample_codec<Key, Compare, Position, true> {
  using sample = std::uint64_t;
  using word = order_word<Key, Compare>;
  __host__ __device__ static sample make(const Key& key, std::int64_t position) {
    return static_cast<std::uint64_t>(word::encode(key)) << 32 |
           static_cast<std::uint32_t>(position);
  }
  __host__ __device__ static sample absent(const Key&) { return ~std::uint64_t(0); }
  __host__ __device__ static Key key(sample s) {
    return word::decode(static_cast<std::uint32_t>(s >> 32));
  }
  __host__ __device__ static std::int64_t position(sample s) {
    return static_cast<std::uint32_t>(s);
  }
  __host__ __device__ static less compare(Compare) { return {}; }
};

}  // namespace detail
}  // namespace gpusort
