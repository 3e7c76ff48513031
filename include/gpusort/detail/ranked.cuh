// gpusort/detail/ranked.cuh — making a bitonic network stable.
//
// Bitonic networks do not keep equal keys in order. Pairing each key with its rank in
// the input of the network (its index in the tile, or its place in the concatenation of
// the two runs being merged) and breaking ties by that rank gives the order a stable sort
// would produce. The rank lives in registers and shared memory only, never in the arrays.
// A negative rank marks an empty slot of a partly filled tile: it sorts after every item
// whatever its key (a copy of a real one), so no sentinel key is needed.
// Keys that map one-to-one and in order onto 32-bit words (order_word) carry their rank in
// the low half of one 64-bit word instead (rank_codec): the networks then compare one
// unsigned word instead of two keys and two ranks, and move two registers instead of three.
// The rank also says where an item came from, so values need not ride through a network:
// they wait in shared memory and each output fetches its own by rank afterwards.
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/no_value.cuh>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpusort {
namespace detail {

template <class Key>
struct ranked {
  Key key;
  int rank;
};

constexpr int absent_rank = -1;

template <class Compare>
struct rank_tiebreak {
  Compare cmp;
  // Evaluated without short cuts: a branch per comparison makes the networks diverge.
  template <class Key>
  __host__ __device__ __forceinline__ bool operator()(const ranked<Key>& a,
                                                      const ranked<Key>& b) const {
    const bool a_first = cmp(a.key, b.key);
    const bool b_first = cmp(b.key, a.key);
    const bool a_present = a.rank >= 0;
    const bool b_absent = b.rank < 0;
    return a_present & (b_absent | a_first | (!b_first & (a.rank < b.rank)));
  }
};

// Whether keys that compare equal are always the same bits: then the order among them
// cannot be observed and a keys-only sort is stable without ranks. True for integers under
// less / greater and for floating point under total_less (not under less: -0 == +0).
template <class Key, class Compare>
struct ties_are_identical
    : std::bool_constant<(std::is_integral<Key>::value &&
                          (std::is_same<Compare, less>::value || std::is_same<Compare, greater>::value)) ||
                         (std::is_same<Compare, total_less>::value &&
                          !std::is_integral<Key>::value)> {};

// A stable sort of these items needs ranks unless values ride along or ties are identical.
template <class Key, class Value, class Compare>
constexpr bool needs_ranks = !std::is_same<Value, no_value>::value || !ties_are_identical<Key, Compare>::value;

// An order-preserving bijection of Key onto 32-bit words under Compare, where one exists:
// cmp(a, b) == (encode(a) < encode(b)) and decode(encode(k)) == k. Integers of at most 32 bits
// under less (signed ones with the sign bit flipped) or greater (all bits flipped), and
// 32- and 16-bit floating point under total_less (total_order_key).
template <class Key, class Compare, class = void>
struct order_word {
  static constexpr bool exists = false;
};

template <class Key, class Compare>
struct order_word<Key, Compare,
                  std::enable_if_t<std::is_integral<Key>::value && sizeof(Key) <= 4 &&
                                   (std::is_same<Compare, less>::value ||
                                    std::is_same<Compare, greater>::value)>> {
  static constexpr bool exists = true;
  static constexpr std::uint32_t sign = std::is_signed<Key>::value ? 0x80000000u : 0u;
  static constexpr std::uint32_t flip = std::is_same<Compare, greater>::value ? ~0u : 0u;
  // Through 32 bits, so that a narrower signed key is sign-extended first.
  using wide = std::conditional_t<std::is_signed<Key>::value, std::int32_t, std::uint32_t>;
  __host__ __device__ static std::uint32_t encode(Key key) {
    return static_cast<std::uint32_t>(static_cast<wide>(key)) ^ sign ^ flip;
  }
  __host__ __device__ static Key decode(std::uint32_t word) {
    return static_cast<Key>(static_cast<wide>(word ^ flip ^ sign));
  }
};

template <class Key>
struct order_word<Key, total_less,
                  std::enable_if_t<(std::is_same<Key, float>::value || std::is_same<Key, __half>::value ||
                                    std::is_same<Key, __nv_bfloat16>::value)>> {
  static constexpr bool exists = true;
  using bits = typename float_bits<Key>::type;
  __host__ __device__ static std::uint32_t encode(const Key& key) { return total_order_key(key); }
  __host__ __device__ static Key decode(std::uint32_t word) {
    return from_total_order_key<Key>(static_cast<bits>(word));
  }
};

// Floating point of at most 32 bits under less or greater has no order word only because -0
// and +0 tie with different bits. With +0's word for both and the sign of a zero kept in the
// low bit below the rank, such keys pack with their ranks all the same (rank_codec): ties
// still order by rank, as the rank sits above the bit. A NaN, which leaves less and greater
// no strict weak ordering, goes to one end by its sign, as in detail/total_order_words.cuh.
template <class Key, class Compare, class = void>
struct zero_tied_word {
  static constexpr bool exists = false;
};

template <class Key, class Compare>
struct zero_tied_word<Key, Compare,
                      std::enable_if_t<is_narrow_float<Key> && (std::is_same<Compare, less>::value ||
                                                                std::is_same<Compare, greater>::value)>> {
  static constexpr bool exists = true;
  using bits = typename float_bits<Key>::type;
  static constexpr bits negative_zero_bits = bits(bits(1) << (8 * sizeof(bits) - 1));
  static constexpr bits flip = std::is_same<Compare, greater>::value ? bits(~bits(0)) : bits(0);
  __host__ __device__ static bool is_negative_zero(const Key& key) {
    bits b;
    std::memcpy(&b, &key, sizeof(bits));
    return b == negative_zero_bits;
  }
  __host__ __device__ static std::uint32_t encode(const Key& key) {
    // +0's word is the sign bit alone (total_order_key), which -0's bits are.
    return bits((is_negative_zero(key) ? negative_zero_bits : total_order_key(key)) ^ flip);
  }
  __host__ __device__ static Key decode(std::uint32_t word, bool negative_zero) {
    if (!negative_zero) return from_total_order_key<Key>(bits(bits(word) ^ flip));
    const bits b = negative_zero_bits;
    Key key;
    std::memcpy(&key, &b, sizeof(bits));
    return key;
  }
};

// How a network carries (key, rank) items and compares them: ranked<Key> under
// rank_tiebreak in general; one 64-bit word, order word above rank, under plain less where
// the key has an order word (an absent slot is the largest word: after every real item,
// whose rank is below 2^31), or, for zero_tied_word keys, order word above rank above the
// sign of a zero (ranks below 2^31 shifted up one bit still leave an absent slot the largest).
enum class rank_packing { none, order_word, zero_tied_word };

template <class Key, class Compare>
constexpr rank_packing rank_packing_of = order_word<Key, Compare>::exists      ? rank_packing::order_word
                                         : zero_tied_word<Key, Compare>::exists ? rank_packing::zero_tied_word
                                                                                : rank_packing::none;

// Whether (key, rank) items of these keys are one 64-bit word.
template <class Key, class Compare>
constexpr bool packs_ranks = rank_packing_of<Key, Compare> != rank_packing::none;

template <class Key, class Compare, rank_packing PACKING = rank_packing_of<Key, Compare>>
struct rank_codec {
  using item = ranked<Key>;
  __host__ __device__ static item make(const Key& key, int rank) { return {key, rank}; }
  __host__ __device__ static Key key(const item& i) { return i.key; }
  __host__ __device__ static int rank(const item& i) { return i.rank; }
  __host__ __device__ static rank_tiebreak<Compare> compare(Compare cmp) { return {cmp}; }
};

template <class Key, class Compare>
struct rank_codec<Key, Compare, rank_packing::order_word> {
  using item = std::uint64_t;
  using word = order_word<Key, Compare>;
  __host__ __device__ static item make(const Key& key, int rank) {
    return rank < 0 ? ~item(0)
                    : item(word::encode(key)) << 32 | static_cast<std::uint32_t>(rank);
  }
  __host__ __device__ static Key key(item i) { return word::decode(static_cast<std::uint32_t>(i >> 32)); }
  // An absent slot's word decodes to absent_rank.
  __host__ __device__ static int rank(item i) { return static_cast<int>(static_cast<std::uint32_t>(i)); }
  __host__ __device__ static less compare(Compare) { return {}; }
};

template <class Key, class Compare>
struct rank_codec<Key, Compare, rank_packing::zero_tied_word> {
  using item = std::uint64_t;
  using word = zero_tied_word<Key, Compare>;
  __host__ __device__ static item make(const Key& key, int rank) {
    return rank < 0 ? ~item(0)
                    : item(word::encode(key)) << 32 | static_cast<std::uint32_t>(rank) << 1 |
                          static_cast<std::uint32_t>(word::is_negative_zero(key));
  }
  __host__ __device__ static Key key(item i) {
    return word::decode(static_cast<std::uint32_t>(i >> 32), (i & 1) != 0);
  }
  __host__ __device__ static int rank(item i) {
    return i == ~item(0) ? absent_rank : static_cast<int>(static_cast<std::uint32_t>(i) >> 1);
  }
  __host__ __device__ static less compare(Compare) { return {}; }
};

}  // namespace detail
}  // namespace gpusort
