// Host tests of compare.cuh (less, greater, total_less), of detail::valid_first and of the
// merge sort's packed ranks (detail::order_word, detail::rank_codec) and of the order words
// floating-point keys are sorted as (detail/total_order_words.cuh; which policies do so under
// which comparators: test_entry_points.cu).
#include "common/catch.hpp"

#include <gpusort/compare.cuh>
#include <gpusort/detail/ragged.cuh>
#include <gpusort/detail/ranked.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

template <class F, class U>
F from_bits(U bits) {
  static_assert(sizeof(F) == sizeof(U), "bit pattern and float differ in size");
  F f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

template <class U, class F>
U to_bits(const F& f) {
  U u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The reference order: IEEE-754 totalOrder written out as bit patterns, smallest first.
// Within one sign NaNs order by payload; signalling NaNs (quiet bit clear) sit nearer the
// infinities, as totalOrder requires. Each list covers both NaN kinds with the smallest
// and largest payloads, ±inf, ±max normal, ±1, ±min normal, ±max and ±min subnormal, ±0.
const std::uint32_t float_order[] = {
    0xffffffffu,  // -qNaN, largest payload
    0xffc00001u,  // -qNaN, payload 1
    0xffc00000u,  // -qNaN (the default negative NaN)
    0xffbfffffu,  // -sNaN, largest payload
    0xff800001u,  // -sNaN, smallest payload
    0xff800000u,  // -inf
    0xff7fffffu,  // -max normal
    0xbf800000u,  // -1
    0x80800000u,  // -min normal
    0x807fffffu,  // -max subnormal
    0x80000001u,  // -min subnormal
    0x80000000u,  // -0
    0x00000000u,  // +0
    0x00000001u,  // +min subnormal
    0x007fffffu,  // +max subnormal
    0x00800000u,  // +min normal
    0x3f800000u,  // +1
    0x7f7fffffu,  // +max normal
    0x7f800000u,  // +inf
    0x7f800001u,  // +sNaN, smallest payload
    0x7fbfffffu,  // +sNaN, largest payload
    0x7fc00000u,  // +qNaN
    0x7fc00001u,  // +qNaN, payload 1
    0x7fffffffu,  // +qNaN, largest payload
};

const std::uint64_t double_order[] = {
    0xffffffffffffffffull,  // -qNaN, largest payload
    0xfff8000000000000ull,  // -qNaN
    0xfff7ffffffffffffull,  // -sNaN, largest payload
    0xfff0000000000001ull,  // -sNaN, smallest payload
    0xfff0000000000000ull,  // -inf
    0xffefffffffffffffull,  // -max normal
    0xbff0000000000000ull,  // -1
    0x8010000000000000ull,  // -min normal
    0x800fffffffffffffull,  // -max subnormal
    0x8000000000000001ull,  // -min subnormal
    0x8000000000000000ull,  // -0
    0x0000000000000000ull,  // +0
    0x0000000000000001ull,  // +min subnormal
    0x000fffffffffffffull,  // +max subnormal
    0x0010000000000000ull,  // +min normal
    0x3ff0000000000000ull,  // +1
    0x7fefffffffffffffull,  // +max normal
    0x7ff0000000000000ull,  // +inf
    0x7ff0000000000001ull,  // +sNaN, smallest payload
    0x7ff7ffffffffffffull,  // +sNaN, largest payload
    0x7ff8000000000000ull,  // +qNaN
    0x7fffffffffffffffull,  // +qNaN, largest payload
};

const std::uint16_t half_order[] = {  // 1 sign, 5 exponent, 10 mantissa bits
    0xffff, 0xfe00, 0xfdff, 0xfc01,   // -qNaN max, -qNaN, -sNaN max, -sNaN min
    0xfc00, 0xfbff, 0xbc00, 0x8400,   // -inf, -max normal, -1, -min normal
    0x83ff, 0x8001, 0x8000, 0x0000,   // -max sub, -min sub, -0, +0
    0x0001, 0x03ff, 0x0400, 0x3c00,   // +min sub, +max sub, +min normal, +1
    0x7bff, 0x7c00, 0x7c01, 0x7dff,   // +max normal, +inf, +sNaN min, +sNaN max
    0x7e00, 0x7fff,                   // +qNaN, +qNaN max
};

const std::uint16_t bfloat16_order[] = {  // 1 sign, 8 exponent, 7 mantissa bits
    0xffff, 0xffc0, 0xffbf, 0xff81,       // -qNaN max, -qNaN, -sNaN max, -sNaN min
    0xff80, 0xff7f, 0xbf80, 0x8080,       // -inf, -max normal, -1, -min normal
    0x807f, 0x8001, 0x8000, 0x0000,       // -max sub, -min sub, -0, +0
    0x0001, 0x007f, 0x0080, 0x3f80,       // +min sub, +max sub, +min normal, +1
    0x7f7f, 0x7f80, 0x7f81, 0x7fbf,       // +max normal, +inf, +sNaN min, +sNaN max
    0x7fc0, 0x7fff,                       // +qNaN, +qNaN max
};

// total_less must agree with the listed order on every pair (so it is irreflexive and
// total on the sample), and, checked separately, be transitive with transitive
// incomparability: a strict weak ordering.
template <class F, class U, std::size_t N>
void check_total_less_against(const U (&order)[N]) {
  const gpusort::total_less lt;
  std::vector<F> values;
  for (U bits : order) values.push_back(from_bits<F>(bits));
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = 0; j < N; ++j) {
      CAPTURE(i, j, std::uint64_t(order[i]), std::uint64_t(order[j]));
      REQUIRE(lt(values[i], values[j]) == (i < j));
    }
  }
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = 0; j < N; ++j) {
      for (std::size_t k = 0; k < N; ++k) {
        const bool ij = lt(values[i], values[j]), jk = lt(values[j], values[k]);
        const bool ik = lt(values[i], values[k]);
        CAPTURE(i, j, k);
        if (ij && jk) REQUIRE(ik);
        const bool eq_ij = !ij && !lt(values[j], values[i]);
        const bool eq_jk = !jk && !lt(values[k], values[j]);
        if (eq_ij && eq_jk) REQUIRE((!ik && !lt(values[k], values[i])));
      }
    }
  }
}

// A second, independently written reference for arbitrary bit patterns: sign first
// (negative before positive), then magnitude bits, reversed for negatives.
template <class U>
bool reference_total_less(U x, U y) {
  const int shift = 8 * sizeof(U) - 1;
  const bool nx = (x >> shift) != 0, ny = (y >> shift) != 0;
  const U mag = U(~(U(1) << shift));
  if (nx != ny) return nx;
  return nx ? (y & mag) < (x & mag) : (x & mag) < (y & mag);
}

template <class F, class U>
void check_total_less_random(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const gpusort::total_less lt;
  for (int trial = 0; trial < 100000; ++trial) {
    U x = U(rng()), y = U(rng());
    if (trial % 4 == 0) y = U(x ^ U(rng() & 3));  // near neighbours, including x == y
    CAPTURE(std::uint64_t(x), std::uint64_t(y));
    REQUIRE(lt(from_bits<F>(x), from_bits<F>(y)) == reference_total_less(x, y));
  }
}

template <class F, class U>
void check_total_less_agrees_with_lt(std::uint64_t seed) {
  // On non-NaN values totalOrder refines <: it only adds -0 < +0.
  std::mt19937_64 rng(seed);
  const gpusort::total_less lt;
  for (int trial = 0; trial < 100000; ++trial) {
    const F x = from_bits<F>(U(rng())), y = from_bits<F>(U(rng() >> (trial % 64)));
    if (std::isnan(x) || std::isnan(y)) continue;
    CAPTURE(x, y);
    if (x < y) REQUIRE(lt(x, y));
    if (y < x) REQUIRE(lt(y, x));
  }
  const F neg_zero = from_bits<F>(U(U(1) << (8 * sizeof(U) - 1))), pos_zero = F(0);
  REQUIRE((!(neg_zero < pos_zero) && lt(neg_zero, pos_zero) && !lt(pos_zero, neg_zero)));
}

}  // namespace

TEST_CASE("the reference bit patterns are the values they claim", "[compare]") {
  // Guards the tables above against typos.
  const float qnan = from_bits<float>(0x7fc00000u), snan = from_bits<float>(0x7f800001u);
  REQUIRE((std::isnan(qnan) && std::isnan(snan) && !std::signbit(qnan)));
  REQUIRE(std::signbit(from_bits<float>(0xffc00000u)));
  REQUIRE(from_bits<float>(0xff800000u) == -std::numeric_limits<float>::infinity());
  REQUIRE(from_bits<float>(0x7f7fffffu) == std::numeric_limits<float>::max());
  REQUIRE(from_bits<float>(0x00800000u) == std::numeric_limits<float>::min());
  REQUIRE(from_bits<float>(0x00000001u) == std::numeric_limits<float>::denorm_min());
  REQUIRE(from_bits<double>(0xfff0000000000000ull) == -std::numeric_limits<double>::infinity());
  REQUIRE(from_bits<double>(0x7fefffffffffffffull) == std::numeric_limits<double>::max());
  REQUIRE(from_bits<double>(0x0010000000000000ull) == std::numeric_limits<double>::min());
  REQUIRE(from_bits<double>(0x0000000000000001ull) == std::numeric_limits<double>::denorm_min());
  REQUIRE(std::isnan(from_bits<double>(0x7ff0000000000001ull)));
  REQUIRE(__half2float(from_bits<__half>(std::uint16_t(0x3c00))) == 1.0f);
  REQUIRE(__half2float(from_bits<__half>(std::uint16_t(0x7bff))) == 65504.0f);
  REQUIRE(std::isinf(__half2float(from_bits<__half>(std::uint16_t(0xfc00)))));
  REQUIRE(std::isnan(__half2float(from_bits<__half>(std::uint16_t(0x7c01)))));
  REQUIRE(__bfloat162float(from_bits<__nv_bfloat16>(std::uint16_t(0x3f80))) == 1.0f);
  REQUIRE(__bfloat162float(from_bits<__nv_bfloat16>(std::uint16_t(0x0080))) ==
          std::numeric_limits<float>::min());
  REQUIRE(std::isnan(__bfloat162float(from_bits<__nv_bfloat16>(std::uint16_t(0xff81)))));
}

TEST_CASE("total_less is IEEE-754 totalOrder on special values", "[compare][total_less]") {
  SECTION("float") { check_total_less_against<float>(float_order); }
  SECTION("double") { check_total_less_against<double>(double_order); }
  SECTION("__half") { check_total_less_against<__half>(half_order); }
  SECTION("__nv_bfloat16") { check_total_less_against<__nv_bfloat16>(bfloat16_order); }
}

TEST_CASE("total_less on random bit patterns", "[compare][total_less]") {
  SECTION("float") {
    check_total_less_random<float, std::uint32_t>(1u);
    check_total_less_agrees_with_lt<float, std::uint32_t>(2u);
  }
  SECTION("double") {
    check_total_less_random<double, std::uint64_t>(3u);
    check_total_less_agrees_with_lt<double, std::uint64_t>(4u);
  }
  SECTION("__half") { check_total_less_random<__half, std::uint16_t>(5u); }
  SECTION("__nv_bfloat16") { check_total_less_random<__nv_bfloat16, std::uint16_t>(6u); }
}

// The float of bit pattern `bits`, mapped to its order word and back: the same bits.
template <class F, class Bits>
bool order_word_round_trips(Bits bits) {
  F f;
  std::memcpy(&f, &bits, sizeof f);
  const F back = gpusort::detail::from_total_order_key<F>(gpusort::detail::total_order_key(f));
  Bits back_bits;
  std::memcpy(&back_bits, &back, sizeof back);
  return back_bits == bits;
}

TEST_CASE("from_total_order_key inverts total_order_key on every kind of bit pattern",
          "[compare][total_less]") {
  std::mt19937_64 rng(23);
  std::vector<std::uint32_t> bits32 = {0u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00001u,
                                       0xffc00000u, 0x00000001u, 0x80000001u, 0xffffffffu};
  for (int i = 0; i < 20000; ++i) bits32.push_back(static_cast<std::uint32_t>(rng()));
  for (std::uint32_t b : bits32) REQUIRE(order_word_round_trips<float>(b));
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t b = i < 4 ? std::uint64_t(i) << 62 : rng();
    REQUIRE(order_word_round_trips<double>(b));
  }
}

TEST_CASE("less and greater follow operator<", "[compare]") {
  const gpusort::less lt;
  const gpusort::greater gt;
  const int ints[] = {std::numeric_limits<int>::min(), -7, -1, 0, 1, 7,
                      std::numeric_limits<int>::max()};
  for (int x : ints) {
    for (int y : ints) {
      CAPTURE(x, y);
      REQUIRE(lt(x, y) == (x < y));
      REQUIRE(gt(x, y) == (y < x));
    }
  }
  // Non-NaN floats, -0 and +0 included: ±0 are equivalent under less, unlike total_less.
  const double doubles[] = {-std::numeric_limits<double>::infinity(), -1e300, -1.0, -0.0, 0.0,
                            std::numeric_limits<double>::denorm_min(), 1.0,
                            std::numeric_limits<double>::infinity()};
  for (double x : doubles) {
    for (double y : doubles) {
      CAPTURE(x, y);
      REQUIRE(lt(x, y) == (x < y));
      REQUIRE(gt(x, y) == (y < x));
    }
  }
  REQUIRE((!lt(-0.0, 0.0) && !lt(0.0, -0.0)));
  // Transparent: mixed argument types use the built-in comparison.
  REQUIRE(lt(1, 1.5));
  REQUIRE(!lt(2.5, 2));
  REQUIRE(gt(2.5, 2));
  // Unsigned keys: greater gives the descending order, less the ascending one.
  std::vector<unsigned> v = {5u, 0u, 4294967295u, 7u, 7u, 1u};
  std::sort(v.begin(), v.end(), gt);
  REQUIRE(v == std::vector<unsigned>({4294967295u, 7u, 7u, 5u, 1u, 0u}));
  std::sort(v.begin(), v.end(), lt);
  REQUIRE(v == std::vector<unsigned>({0u, 1u, 5u, 7u, 7u, 4294967295u}));
}

// ---------------------------------------------------------------------------------------
// detail::valid_first over detail::maybe

TEST_CASE("valid_first puts every invalid item after all valid ones", "[compare][ragged]") {
  using gpusort::detail::maybe;
  using item = maybe<int>;

  SECTION("strict weak ordering on a small exhaustive sample") {
    const gpusort::detail::valid_first<gpusort::less> vf{gpusort::less{}};
    // Invalid items carry keys of their own: the order must not depend on them.
    const item sample[] = {{-3, true}, {0, true},   {0, true}, {5, true},
                           {-3, false}, {0, false}, {9, false}};
    const std::size_t n = sizeof(sample) / sizeof(sample[0]);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(!vf(sample[i], sample[i]));
      for (std::size_t j = 0; j < n; ++j) {
        const item& x = sample[i];
        const item& y = sample[j];
        CAPTURE(i, j);
        // Expected: valid before invalid, valid among themselves by key, invalid all tied.
        const bool expected = x.valid && (!y.valid || x.key < y.key);
        REQUIRE(vf(x, y) == expected);
        for (std::size_t k = 0; k < n; ++k) {
          const item& z = sample[k];
          if (vf(x, y) && vf(y, z)) REQUIRE(vf(x, z));
          const bool eq_xy = !vf(x, y) && !vf(y, x), eq_yz = !vf(y, z) && !vf(z, y);
          if (eq_xy && eq_yz) REQUIRE((!vf(x, z) && !vf(z, x)));
        }
      }
    }
  }

  SECTION("sorting with it matches a partition-then-sort reference") {
    std::mt19937 rng(7u);
    for (int trial = 0; trial < 200; ++trial) {
      const int n = int(rng() % 40);
      const int descending = trial % 2;
      std::vector<item> items(n);
      for (auto& it : items) it = item{int(rng() % 10) - 5, rng() % 3 != 0};
      if (trial % 10 == 0) {
        for (auto& it : items) it.valid = false;  // nothing valid at all
      }
      std::vector<int> expected_keys;
      std::size_t invalid = 0;
      for (const auto& it : items) {
        if (it.valid) {
          expected_keys.push_back(it.key);
        } else {
          ++invalid;
        }
      }
      if (descending) {
        std::sort(expected_keys.begin(), expected_keys.end(), gpusort::greater{});
        std::stable_sort(items.begin(), items.end(),
                         gpusort::detail::valid_first<gpusort::greater>{gpusort::greater{}});
      } else {
        std::sort(expected_keys.begin(), expected_keys.end());
        std::stable_sort(items.begin(), items.end(),
                         gpusort::detail::valid_first<gpusort::less>{gpusort::less{}});
      }
      CAPTURE(trial, n, descending);
      const std::size_t valid = expected_keys.size();
      for (std::size_t i = 0; i < items.size(); ++i) {
        REQUIRE(items[i].valid == (i < valid));
        if (i < valid) REQUIRE(items[i].key == expected_keys[i]);
      }
      REQUIRE(items.size() - valid == invalid);
    }
  }

  SECTION("with total_less, NaN keys stay among the valid items") {
    const gpusort::detail::valid_first<gpusort::total_less> vf{gpusort::total_less{}};
    const maybe<float> nan_valid{from_bits<float>(0x7fc00000u), true};
    const maybe<float> neg_nan_valid{from_bits<float>(0xffc00000u), true};
    const maybe<float> one_invalid{1.0f, false};
    REQUIRE(vf(nan_valid, one_invalid));
    REQUIRE(!vf(one_invalid, nan_valid));
    REQUIRE(vf(neg_nan_valid, nan_valid));
    REQUIRE(!vf(nan_valid, neg_nan_valid));
  }
}

// ---------------------------------------------------------------------------------------
// detail::order_word and detail::rank_codec: the packed (key, rank) words of the merge sort

namespace {

// Packed (key, rank) words of a and b order as rank_tiebreak orders the items, for every
// pair of ranks (absent among them).
template <class Key, class Compare, std::size_t R>
void check_packed_order(const Key& a, const Key& b, const int (&ranks)[R], Compare cmp) {
  using codec = gpusort::detail::rank_codec<Key, Compare>;
  const gpusort::detail::rank_tiebreak<Compare> tiebreak{cmp};
  const auto wordless = codec::compare(cmp);
  for (int ra : ranks) {
    for (int rb : ranks) {
      if (ra == rb && ra >= 0) continue;  // one rank, one item
      const bool expected = tiebreak(gpusort::detail::ranked<Key>{a, ra}, gpusort::detail::ranked<Key>{b, rb});
      REQUIRE(wordless(codec::make(a, ra), codec::make(b, rb)) == expected);
    }
  }
}

// Every key of `keys` against every other: the order word keeps cmp's order exactly and
// gives the key back; packed (key, rank) words order as rank_tiebreak does, absent last.
template <class Key, class Compare>
void check_order_word(const std::vector<Key>& keys, Compare cmp) {
  using word = gpusort::detail::order_word<Key, Compare>;
  using codec = gpusort::detail::rank_codec<Key, Compare>;
  static_assert(word::exists, "a key type with an order word");
  const int ranks[] = {gpusort::detail::absent_rank, 0, 1, 4095, 1 << 30};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Key a = keys[i];
    CAPTURE(i);
    const Key back = word::decode(word::encode(a));
    REQUIRE(std::memcmp(&back, &a, sizeof(Key)) == 0);
    for (std::size_t j = 0; j < keys.size(); ++j) {
      const Key b = keys[j];
      CAPTURE(j);
      REQUIRE(cmp(a, b) == (word::encode(a) < word::encode(b)));
      check_packed_order(a, b, ranks, cmp);
    }
  }
}

template <class Key>
std::vector<Key> integer_keys(std::uint64_t seed) {
  std::vector<Key> keys = {std::numeric_limits<Key>::min(), std::numeric_limits<Key>::max(),
                           Key(0), Key(1), Key(std::numeric_limits<Key>::max() - 1)};
  if (std::numeric_limits<Key>::is_signed) keys.push_back(Key(-1));
  std::mt19937_64 rng(seed);
  for (int k = 0; k < 40; ++k) keys.push_back(static_cast<Key>(rng()));
  return keys;
}

template <class F, class U, std::size_t N>
std::vector<F> float_keys(const U (&order)[N], std::uint64_t seed) {
  std::vector<F> keys;
  for (U bits : order) keys.push_back(from_bits<F>(bits));
  std::mt19937_64 rng(seed);
  for (int k = 0; k < 30; ++k) keys.push_back(from_bits<F>(U(rng())));
  return keys;
}

}  // namespace

TEST_CASE("order_word: integers of at most 32 bits under less and greater", "[compare][ranked]") {
  check_order_word(integer_keys<std::int32_t>(11), gpusort::less{});
  check_order_word(integer_keys<std::int32_t>(12), gpusort::greater{});
  check_order_word(integer_keys<std::uint32_t>(13), gpusort::less{});
  check_order_word(integer_keys<std::uint32_t>(14), gpusort::greater{});
  check_order_word(integer_keys<std::int16_t>(15), gpusort::less{});
  check_order_word(integer_keys<std::uint16_t>(16), gpusort::greater{});
  check_order_word(integer_keys<std::int8_t>(17), gpusort::greater{});
  check_order_word(integer_keys<std::uint8_t>(18), gpusort::less{});
  check_order_word(std::vector<char>{'a', '\0', char(-3), 'z'}, gpusort::less{});
}

TEST_CASE("order_word: 32- and 16-bit floating point under total_less", "[compare][ranked]") {
  check_order_word(float_keys<float>(float_order, 21), gpusort::total_less{});
  check_order_word(float_keys<__half>(half_order, 22), gpusort::total_less{});
  check_order_word(float_keys<__nv_bfloat16>(bfloat16_order, 23), gpusort::total_less{});
}

// Floating point of at most 32 bits under less or greater packs with its ranks though it has no
// order word (-0 and +0 tie): every key, every sign of zero and every NaN payload comes back with
// its rank, and packed words order as rank_tiebreak does wherever the comparator is a strict
// weak ordering (NaN left out), absent last.
template <class Key, class Compare>
void check_zero_tied_word(const std::vector<Key>& keys, Compare cmp) {
  using codec = gpusort::detail::rank_codec<Key, Compare>;
  static_assert(std::is_same<typename codec::item, std::uint64_t>::value, "packed words");
  const int ranks[] = {gpusort::detail::absent_rank, 0, 1, 4095, 1 << 30, std::numeric_limits<int>::max()};
  const auto is_nan = [](const Key& k) { return std::isnan(static_cast<float>(k)); };
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Key a = keys[i];
    CAPTURE(i);
    for (int r : ranks) {
      const auto item = codec::make(a, r);
      REQUIRE(codec::rank(item) == r);
      if (r < 0) continue;
      const Key back = codec::key(item);
      REQUIRE(std::memcmp(&back, &a, sizeof(Key)) == 0);
    }
    if (is_nan(a)) continue;
    for (std::size_t j = 0; j < keys.size(); ++j) {
      const Key b = keys[j];
      if (is_nan(b)) continue;
      CAPTURE(j);
      check_packed_order(a, b, ranks, cmp);
    }
  }
}

TEST_CASE("rank_codec: floating point of at most 32 bits under less and greater packs its ranks",
          "[compare][ranked]") {
  STATIC_REQUIRE(!gpusort::detail::order_word<float, gpusort::less>::exists);
  STATIC_REQUIRE(!gpusort::detail::packs_ranks<double, gpusort::less>);
  STATIC_REQUIRE(gpusort::detail::packs_ranks<float, gpusort::greater>);
  check_zero_tied_word(float_keys<float>(float_order, 31), gpusort::less{});
  check_zero_tied_word(float_keys<float>(float_order, 32), gpusort::greater{});
  check_zero_tied_word(float_keys<__half>(half_order, 33), gpusort::less{});
  check_zero_tied_word(float_keys<__nv_bfloat16>(bfloat16_order, 34), gpusort::greater{});
}

TEST_CASE("order_word: none where the comparator or the width does not allow one", "[compare][ranked]") {
  using gpusort::detail::order_word;
  STATIC_REQUIRE(!order_word<std::uint64_t, gpusort::less>::exists);      // 64 bits: no room for a rank
  STATIC_REQUIRE(!order_word<float, gpusort::less>::exists);              // -0 and +0 tie, unlike their bits
  STATIC_REQUIRE(!order_word<double, gpusort::total_less>::exists);
  STATIC_REQUIRE(!order_word<std::uint32_t, gpusort::total_less>::exists);
  STATIC_REQUIRE(std::is_same<gpusort::detail::rank_codec<std::uint64_t, gpusort::less>::item,
                              gpusort::detail::ranked<std::uint64_t>>::value);
  STATIC_REQUIRE(std::is_same<gpusort::detail::rank_codec<std::int32_t, gpusort::greater>::item,
                              std::uint64_t>::value);
}
