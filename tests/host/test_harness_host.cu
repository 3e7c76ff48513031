// Host tests of the test harness (tests/common), runnable without a GPU: the generators,
// evaluated on the CPU by generate_on_host (the same integer arithmetic the GPU kernel runs),
// have their defining properties, and the host checks pass std::stable_sort while catching
// each kind of wrong "sort". tests/gpu/test_harness.cu tests the GPU side.
#include "common/catch.hpp"
#include "common/distributions.cuh"
#include "common/key_types.cuh"
#include "common/verify.cuh"

#include <gpusort/compare.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace gpusort_test;

namespace {

constexpr std::uint64_t seed_a = 2024;
constexpr std::uint64_t seed_b = 4202;

}  // namespace

TEMPLATE_TEST_CASE("host generator: every distribution has its defining property",
                   "[harness]", std::uint16_t, std::int16_t, std::uint32_t, std::int32_t,
                   std::uint64_t, std::int64_t, __half, __nv_bfloat16, float, double, key16, key12) {
  using Key = TestType;
  const std::int64_t n = 1 << 14;
  const gpusort::less lt;
  const gpusort::greater gt;

  CHECK(check_sorted(generate_on_host<Key>(n, distribution::sorted, seed_a), lt));
  CHECK(check_sorted(generate_on_host<Key>(n, distribution::reverse_sorted, seed_a), gt));
  CHECK(!check_sorted(generate_on_host<Key>(n, distribution::uniform, seed_a), lt).ok);
  CHECK(distinct_bit_patterns(generate_on_host<Key>(n, distribution::all_equal, seed_a)) == 1);
  CHECK(distinct_bit_patterns(generate_on_host<Key>(n, distribution::few_distinct_2, seed_a)) ==
        2);
  CHECK(distinct_bit_patterns(generate_on_host<Key>(n, distribution::few_distinct_17, seed_a)) ==
        17);

  const auto organ = generate_on_host<Key>(n, distribution::organ_pipe, seed_a);
  CHECK(check_sorted(std::vector<Key>(organ.begin(), organ.begin() + n / 2), lt));
  CHECK(check_sorted(std::vector<Key>(organ.begin() + n / 2, organ.end()), gt));

  const auto sorted = generate_on_host<Key>(n, distribution::sorted, seed_a);
  const auto almost = generate_on_host<Key>(n, distribution::almost_sorted, seed_a);
  const std::size_t moved = positions_differing(sorted, almost);
  CAPTURE(moved);
  CHECK(moved >= static_cast<std::size_t>(n / 125));
  CHECK(moved <= static_cast<std::size_t>(n / 83));
  CHECK(check_permutation(almost, sorted, lt));

  for (distribution d : all_distributions) {
    INFO("distribution " << name(d));
    const auto a = generate_on_host<Key>(n, d, seed_a);
    CHECK(positions_differing(a, generate_on_host<Key>(n, d, seed_a)) == 0);
    CHECK(positions_differing(a, generate_on_host<Key>(n, d, seed_b)) > 0);
  }
}

TEST_CASE("host generator: special floats include NaN of both signs, ±0 and ±inf",
          "[harness]") {
  auto keys = generate_on_host<float>(1 << 14, distribution::uniform, seed_a);
  add_special_floats_on_host(keys, seed_b);
  const special_float_counts counts = count_special_floats(keys);
  INFO("NaN +" << counts.pos_nan << " -" << counts.neg_nan << ", zero +" << counts.pos_zero << " -"
               << counts.neg_zero << ", inf +" << counts.pos_inf << " -" << counts.neg_inf);
  CHECK(counts.every_kind_present());
  // total_less sorts them all; less would not be a strict weak order here.
  auto sorted = keys;
  std::sort(sorted.begin(), sorted.end(), gpusort::total_less{});
  CHECK(check_sorted(sorted, gpusort::total_less{}));
  CHECK(check_permutation(keys, sorted, gpusort::total_less{}));
}

TEMPLATE_TEST_CASE("host generator: 16-bit floats are finite and spread over both signs",
                   "[harness]", __half, __nv_bfloat16) {
  const auto keys = generate_on_host<TestType>(1 << 16, distribution::uniform, seed_a);
  const special_float_counts counts = count_special_floats(keys);
  CHECK(counts.pos_nan + counts.neg_nan + counts.pos_inf + counts.neg_inf == 0);
  std::int64_t negative = 0;
  for (const TestType& k : keys) negative += static_cast<float>(k) < 0.0f;
  CHECK(negative > (1 << 14));
  CHECK(negative < 3 * (1 << 14));
  CHECK(distinct_bit_patterns(keys) > (1 << 15));
}

TEMPLATE_TEST_CASE("host generator: 16-bit special floats include NaN of both signs, ±0 and ±inf",
                   "[harness]", __half, __nv_bfloat16) {
  auto keys = generate_on_host<TestType>(1 << 14, distribution::uniform, seed_a);
  add_special_floats_on_host(keys, seed_b);
  CHECK(count_special_floats(keys).every_kind_present());
  auto sorted = keys;
  std::sort(sorted.begin(), sorted.end(), gpusort::total_less{});
  CHECK(check_sorted(sorted, gpusort::total_less{}));
  CHECK(check_permutation(keys, sorted, gpusort::total_less{}));
  auto without_nan = generate_on_host<TestType>(1 << 14, distribution::uniform, seed_a);
  add_special_floats_on_host(without_nan, seed_b, /*with_nan=*/false);
  const special_float_counts counts = count_special_floats(without_nan);
  CHECK(counts.pos_nan + counts.neg_nan == 0);
  CHECK(counts.pos_inf + counts.neg_inf > 0);
}

TEST_CASE("host generator: special floats without NaN, for less and greater", "[harness]") {
  auto keys = generate_on_host<double>(1 << 14, distribution::uniform, seed_a);
  add_special_floats_on_host(keys, seed_b, /*with_nan=*/false);
  const special_float_counts counts = count_special_floats(keys);
  CHECK(counts.pos_nan + counts.neg_nan == 0);
  CHECK(counts.pos_zero > 0);
  CHECK(counts.neg_zero > 0);
  CHECK(counts.pos_inf > 0);
  CHECK(counts.neg_inf > 0);
}

TEST_CASE("host checks: std::stable_sort passes, each kind of wrong sort is caught",
          "[harness]") {
  const std::int64_t n = 5003;
  const gpusort::less cmp;
  const auto input = generate_on_host<std::uint32_t>(n, distribution::few_distinct_17, seed_a);
  std::vector<std::uint64_t> order(n);
  for (std::int64_t i = 0; i < n; ++i) order[i] = make_index_value<std::uint64_t>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint64_t a, std::uint64_t b) { return input[a] < input[b]; });
  std::vector<std::uint32_t> keys(n);
  for (std::int64_t i = 0; i < n; ++i) keys[i] = input[order[i]];
  std::vector<std::uint64_t> values = order;

  CHECK(check_sorted(keys, cmp));
  CHECK(check_permutation(input, keys, cmp));
  CHECK(check_same_items(input, keys));
  CHECK(check_pairs(input, keys, values));
  CHECK(check_stable(keys, values, cmp));

  std::size_t boundary = 0;  // keys[boundary] < keys[boundary + 1]
  while (keys[boundary] == keys[boundary + 1]) ++boundary;
  std::size_t tie = 0;  // keys[tie] == keys[tie + 1]
  while (keys[tie] != keys[tie + 1]) ++tie;

  SECTION("one inversion") {
    std::swap(keys[boundary], keys[boundary + 1]);
    std::swap(values[boundary], values[boundary + 1]);
    const check_result r = check_sorted(keys, cmp);
    CHECK(!r.ok);
    CHECK(contains(r.message, "first at index " + std::to_string(boundary + 1)));
    CHECK(check_same_items(input, keys));
    CHECK(check_pairs(input, keys, values));
  }
  SECTION("an item duplicated over another, still sorted") {
    keys[boundary] = keys[boundary + 1];
    values[boundary] = values[boundary + 1];
    CHECK(check_sorted(keys, cmp));
    CHECK(!check_permutation(input, keys, cmp).ok);
    CHECK(!check_same_items(input, keys).ok);
    CHECK(!check_pairs(input, keys, values).ok);
  }
  SECTION("two values swapped between different keys") {
    std::swap(values[boundary], values[boundary + 1]);
    const check_result r = check_pairs(input, keys, values);
    CHECK(!r.ok);
    CHECK(contains(r.message, "at index " + std::to_string(boundary)));
  }
  SECTION("a broken tie order") {
    std::swap(values[tie], values[tie + 1]);
    CHECK(check_pairs(input, keys, values));
    const check_result r = check_stable(keys, values, cmp);
    CHECK(!r.ok);
    CHECK(contains(r.message, "index " + std::to_string(tie + 1)));
  }
  SECTION("a value that is no input index") {
    values[3] = static_cast<std::uint64_t>(n);
    CHECK(!check_pairs(input, keys, values).ok);
  }
}

TEST_CASE("host checks: a duplicate over a cmp-equal, bitwise different key is caught",
          "[harness]") {
  const std::vector<float> input = {1.0f, 0.0f, -0.0f, -1.0f};
  const std::vector<float> duplicated = {-1.0f, -0.0f, -0.0f, 1.0f};
  CHECK(check_sorted(duplicated, gpusort::less{}));
  const check_result r = check_permutation(input, duplicated, gpusort::less{});
  CHECK(!r.ok);
  CHECK(contains(r.message, "bitwise"));
  CHECK(check_permutation(input, std::vector<float>{-1.0f, 0.0f, -0.0f, 1.0f}, gpusort::less{}));
}

TEST_CASE("key types: lexicographic order and index values", "[harness]") {
  CHECK(key16_less{}(key16{1, 9}, key16{2, 0}));
  CHECK(key16_less{}(key16{1, 0}, key16{1, 1}));
  CHECK(!key16_less{}(key16{1, 1}, key16{1, 1}));
  CHECK(key12_less{}(key12{0, 5, 9}, key12{0, 6, 0}));
  CHECK(key12_less{}(key12{0, 5, 1}, key12{0, 5, 2}));
  CHECK(!key12_less{}(key12{1, 0, 0}, key12{0, 9, 9}));
  CHECK(gpusort::less{}(key16{0, 1}, key16{0, 2}));
  CHECK(gpusort::greater{}(key12{0, 0, 2}, key12{0, 0, 1}));

  const value16 v = make_index_value<value16>(123456789);
  CHECK(index_of(v) == 123456789u);
  value16 torn = v;
  torn.check ^= 1;
  CHECK(index_of(torn) == invalid_index);
}
