// Tests of the test harness itself (tests/common): the generators produce the promised
// inputs, and every check catches the kind of wrong "sort" it exists for while a correct
// reference sort (CUB's stable merge sort) passes them all.
#include "common/catch.hpp"
#include "common/distributions.cuh"
#include "common/key_types.cuh"
#include "common/verify.cuh"

#include <gpusort/compare.cuh>

#include <cub/device/device_merge_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace gpusort_test;

namespace {

constexpr std::uint64_t seed_a = 12345;
constexpr std::uint64_t seed_b = 67890;

template <class Key>
std::vector<Key> generated(std::int64_t n, distribution d, std::uint64_t seed) {
  device_buffer<Key> keys(n);
  throw_on_cuda_error(generate(keys.data(), n, d, seed), "generate");
  throw_on_cuda_error(cudaDeviceSynchronize(), "generate (sync)");
  return keys.to_host();
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class T>
__global__ void write_one(T* p, std::int64_t at, T value) {
  p[at] = value;
}

// The reference: CUB's stable merge sort of (key, value) pairs, in place.
template <class Key, class Value, class Compare>
void reference_sort_pairs(Key* d_keys, Value* d_values, std::int64_t n, Compare cmp) {
  std::size_t bytes = 0;
  throw_on_cuda_error(
      cub::DeviceMergeSort::StableSortPairs(nullptr, bytes, d_keys, d_values, n, cmp),
      "reference sort (size)");
  device_buffer<unsigned char> temp(
      std::max<std::int64_t>(static_cast<std::int64_t>(bytes), 1));
  throw_on_cuda_error(
      cub::DeviceMergeSort::StableSortPairs(temp.data(), bytes, d_keys, d_values, n, cmp),
      "reference sort");
  throw_on_cuda_error(cudaDeviceSynchronize(), "reference sort (sync)");
}

}  // namespace

// ---- generators ---------------------------------------------------------------------------

TEMPLATE_TEST_CASE("generate: the GPU produces the host reference, bit for bit", "[harness]",
                   std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double,
                   key16, key12) {
  const std::int64_t n = GENERATE(0, 1, 2, 33, 4097, 100003);
  for (distribution d : all_distributions) {
    INFO("distribution " << name(d) << ", n = " << n);
    CHECK(same_bytes(generated<TestType>(n, d, seed_a), generate_on_host<TestType>(n, d, seed_a)));
  }
}

TEMPLATE_TEST_CASE("generate: every distribution has its defining property", "[harness]",
                   std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double,
                   key16, key12) {
  using Key = TestType;
  const std::int64_t n = 1 << 16;
  const gpusort::less lt;
  const gpusort::greater gt;

  SECTION("sorted is non-decreasing, reverse sorted non-increasing") {
    CHECK(check_sorted(generated<Key>(n, distribution::sorted, seed_a), lt));
    CHECK(check_sorted(generated<Key>(n, distribution::reverse_sorted, seed_a), gt));
    // ... and not trivially so: the other direction fails.
    CHECK(!check_sorted(generated<Key>(n, distribution::sorted, seed_a), gt).ok);
    CHECK(!check_sorted(generated<Key>(n, distribution::reverse_sorted, seed_a), lt).ok);
  }
  SECTION("all equal has one value, few distinct exactly 2 and 17") {
    CHECK(distinct_bit_patterns(generated<Key>(n, distribution::all_equal, seed_a)) == 1);
    CHECK(distinct_bit_patterns(generated<Key>(n, distribution::few_distinct_2, seed_a)) == 2);
    CHECK(distinct_bit_patterns(generated<Key>(n, distribution::few_distinct_17, seed_a)) == 17);
    CHECK(distinct_bit_patterns(generated<Key>(n, distribution::uniform, seed_a)) > n / 2);
  }
  SECTION("organ pipe rises to the middle and mirrors") {
    const auto keys = generated<Key>(n, distribution::organ_pipe, seed_a);
    const std::vector<Key> first(keys.begin(), keys.begin() + n / 2);
    const std::vector<Key> second(keys.begin() + n / 2, keys.end());
    CHECK(check_sorted(first, lt));
    CHECK(check_sorted(second, gt));
    std::size_t asymmetric = 0;
    for (std::int64_t i = 0; i < n; ++i) asymmetric += !bytes_equal(keys[i], keys[n - 1 - i]);
    CHECK(asymmetric == 0);
    CHECK(!check_sorted(keys, lt).ok);
  }
  SECTION("almost sorted is sorted with about 1 % of positions swapped") {
    const auto sorted = generated<Key>(n, distribution::sorted, seed_a);
    const auto almost = generated<Key>(n, distribution::almost_sorted, seed_a);
    const std::size_t moved = positions_differing(sorted, almost);
    CAPTURE(moved);
    CHECK(moved >= static_cast<std::size_t>(n / 125));  // 0.8 %
    CHECK(moved <= static_cast<std::size_t>(n / 83));   // 1.2 %
    // Sorting the almost-sorted input gives back exactly the sorted one.
    CHECK(check_permutation(almost, sorted, lt));
    CHECK(!check_sorted(almost, lt).ok);
  }
  SECTION("the same seed gives the same data, another seed other data") {
    for (distribution d : all_distributions) {
      INFO("distribution " << name(d));
      const auto a = generated<Key>(n, d, seed_a);
      CHECK(same_bytes(a, generated<Key>(n, d, seed_a)));
      CHECK(positions_differing(a, generated<Key>(n, d, seed_b)) > 0);
    }
  }
}

TEST_CASE("generate: the shapes match their definitions", "[harness]") {
  const std::int64_t n = 1 << 20;

  SECTION("uniform fills 16 equal bins within 5 %") {
    const auto keys = generated<std::uint32_t>(n, distribution::uniform, seed_a);
    std::vector<std::int64_t> bins(16, 0);
    for (auto k : keys) ++bins[k >> 28];
    for (int b = 0; b < 16; ++b) {
      INFO("bin " << b << " holds " << bins[b]);
      CHECK(std::abs(bins[b] - n / 16) < n / 16 / 20);
    }
  }
  SECTION("gaussian (mean of 4 uniforms) concentrates around the middle") {
    // For the mean of four uniforms on [0,1): sd = 1/sqrt(48); P(|x - 1/2| < 1/4) ~ 0.92.
    auto central_fraction = [&](distribution d) {
      const auto keys = generated<std::uint64_t>(n, d, seed_a);
      std::int64_t central = 0;
      const std::uint64_t mid = std::uint64_t(1) << 63, quarter = std::uint64_t(1) << 62;
      for (auto k : keys) central += (k > mid ? k - mid : mid - k) < quarter;
      return static_cast<double>(central) / n;
    };
    CHECK(central_fraction(distribution::gaussian) > 0.89);
    CHECK(central_fraction(distribution::gaussian) < 0.95);
    CHECK(std::abs(central_fraction(distribution::uniform) - 0.5) < 0.01);
  }
  SECTION("zipf: value k has frequency ~ 1/k per octave") {
    // i32 keys are exactly k. Octave e (k in [2^e, 2^(e+1))) has probability 1/31.
    const auto keys = generated<std::int32_t>(n, distribution::zipf, seed_a);
    std::int64_t ones = 0, twos = 0, below_1024 = 0;
    for (auto k : keys) {
      REQUIRE(k >= 1);
      ones += k == 1;
      twos += k == 2;
      below_1024 += k < 1024;
    }
    CHECK(std::abs(static_cast<double>(ones) / n - 1.0 / 31) < 0.003);
    CHECK(std::abs(static_cast<double>(twos) / n - 1.0 / 62) < 0.003);
    CHECK(std::abs(static_cast<double>(below_1024) / n - 10.0 / 31) < 0.01);
  }
  SECTION("bucket sorted: sub-block j of every block lies in range j") {
    const auto keys = generated<std::uint64_t>(n, distribution::bucket_sorted, seed_a);
    const std::int64_t p = paper_processors;
    const std::int64_t block_len = (n + p - 1) / p, sub_len = (block_len + p - 1) / p;
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < n; ++i)
      wrong += static_cast<std::int64_t>(keys[i] >> (64 - paper_processors_log2)) !=
               (i % block_len) / sub_len;
    CHECK(wrong == 0);
  }
  SECTION("staggered: block b lies in range 2b+1 (first half) or 2b-p, all ranges used") {
    const auto keys = generated<std::uint64_t>(n, distribution::staggered, seed_a);
    const std::int64_t p = paper_processors, block_len = (n + p - 1) / p;
    std::int64_t wrong = 0;
    std::vector<int> used(p, 0);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t b = i / block_len;
      const std::int64_t range = b < p / 2 ? 2 * b + 1 : 2 * b - p;
      const auto got = static_cast<std::int64_t>(keys[i] >> (64 - paper_processors_log2));
      wrong += got != range;
      used[got] = 1;
    }
    CHECK(wrong == 0);
    CHECK(std::count(used.begin(), used.end(), 1) == p);
  }
}

TEMPLATE_TEST_CASE("add_special_floats: NaN of both signs, signed zeros and infinities",
                   "[harness]", float, double) {
  using F = TestType;
  const std::int64_t n = 1 << 16;
  device_buffer<F> keys(n);
  REQUIRE(generate(keys.data(), n, distribution::uniform, seed_a) == cudaSuccess);
  REQUIRE(add_special_floats(keys.data(), n, seed_b) == cudaSuccess);
  const auto got = keys.to_host();

  auto expected = generate_on_host<F>(n, distribution::uniform, seed_a);
  add_special_floats_on_host(expected, seed_b);
  CHECK(same_bytes(got, expected));

  const special_float_counts counts = count_special_floats(got);
  INFO("NaN +" << counts.pos_nan << " -" << counts.neg_nan << ", zero +" << counts.pos_zero << " -"
               << counts.neg_zero << ", inf +" << counts.pos_inf << " -" << counts.neg_inf);
  CHECK(counts.every_kind_present());
  const std::size_t changed =
      positions_differing(got, generate_on_host<F>(n, distribution::uniform, seed_a));
  CHECK(changed > static_cast<std::size_t>(n / special_float_period * 9 / 10));
  CHECK(changed < static_cast<std::size_t>(n / special_float_period * 11 / 10));
}

TEST_CASE("generate and check_sorted handle more than 2^31 items", "[harness][large]") {
  const std::int64_t n = (std::int64_t(1) << 31) + 1001;
  std::size_t free_bytes = 0, total_bytes = 0;
  REQUIRE(cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess);
  if (free_bytes < static_cast<std::size_t>(n) * sizeof(std::uint32_t) * 3 / 2) return;

  device_buffer<std::uint32_t> keys(n);
  REQUIRE(generate(keys.data(), n, distribution::sorted, seed_a) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (std::int64_t i : {std::int64_t(0), (std::int64_t(1) << 31) - 1, std::int64_t(1) << 31,
                         n - 1}) {
    INFO("index " << i);
    CHECK(harness_detail::element_at(keys.data(), i) ==
          harness_detail::key_at<std::uint32_t>(distribution::sorted, seed_a, i, n));
  }
  CHECK(device_check_sorted(keys.data(), n, gpusort::less{}));
  // An inversion past 2^31 is found at its own index.
  const std::int64_t at = (std::int64_t(1) << 31) + 500;
  write_one<<<1, 1>>>(keys.data(), at, std::uint32_t(0));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const check_result r = device_check_sorted(keys.data(), n, gpusort::less{});
  CHECK(!r.ok);
  CHECK(contains(r.message, "first at index " + std::to_string(at)));
}

// ---- checks -------------------------------------------------------------------------------

namespace {

struct u32_pairs {
  using key = std::uint32_t;
  using value = std::uint32_t;
  using compare = gpusort::less;
  static constexpr bool special_floats = false;
};
struct u64_descending {
  using key = std::uint64_t;
  using value = std::uint64_t;
  using compare = gpusort::greater;
  static constexpr bool special_floats = false;
};
struct key16_value16 {
  using key = key16;
  using value = value16;
  using compare = key16_less;
  static constexpr bool special_floats = false;
};
struct double_total_order {
  using key = double;
  using value = std::uint32_t;
  using compare = gpusort::total_less;
  static constexpr bool special_floats = true;
};

// First i with keys[i], keys[i+1] distinct (want_equal = false) or equivalent (true).
template <class Key, class Compare>
std::size_t neighbour(const std::vector<Key>& keys, Compare cmp, bool want_equal) {
  for (std::size_t i = 0; i + 1 < keys.size(); ++i)
    if (equivalent(cmp, keys[i], keys[i + 1]) == want_equal) return i;
  return keys.size();
}

// Orders key16 by its high word only: keys with equal `hi` are equivalent but not identical.
struct hi_only_less {
  __host__ __device__ bool operator()(const key16& a, const key16& b) const { return a.hi < b.hi; }
};

}  // namespace

TEMPLATE_TEST_CASE("checks: the reference sort passes, each kind of wrong sort is caught",
                   "[harness]", u32_pairs, u64_descending, key16_value16, double_total_order) {
  using Key = typename TestType::key;
  using Value = typename TestType::value;
  using Compare = typename TestType::compare;
  const Compare cmp{};
  // Few distinct keys: long runs of equal keys for stability, 16 boundaries between runs.
  const std::int64_t n = 100003;

  device_buffer<Key> input(n);
  REQUIRE(generate(input.data(), n, distribution::few_distinct_17, seed_a) == cudaSuccess);
  if constexpr (TestType::special_floats) {
    REQUIRE(add_special_floats(input.data(), n, seed_b) == cudaSuccess);
  }
  guarded_buffer<Key> keys(input.to_host());
  guarded_buffer<Value> values(n);
  REQUIRE(iota_values(values.data(), n) == cudaSuccess);
  reference_sort_pairs(keys.data(), values.data(), n, cmp);

  const auto in_h = input.to_host();
  auto keys_h = keys.to_host();
  auto values_h = values.to_host();

  SECTION("the reference sort passes every check") {
    CHECK(verify_keys(input.data(), keys.data(), n, cmp));
    CHECK(verify_pairs(input.data(), keys.data(), values.data(), n, cmp, true));
    CHECK(check_sorted(keys_h, cmp));
    CHECK(check_permutation(in_h, keys_h, cmp));
    CHECK(check_same_items(in_h, keys_h));
    CHECK(device_check_same_items(input.data(), keys.data(), n));
    CHECK(check_pairs(in_h, keys_h, values_h));
    CHECK(check_stable(keys_h, values_h, cmp));
    CHECK(keys.check_guard());
    CHECK(values.check_guard());
    // The input itself is unsorted, so the checks are not vacuous.
    CHECK(!check_sorted(in_h, cmp).ok);
    CHECK(!device_check_sorted(input.data(), n, cmp).ok);
  }

  SECTION("one inversion is caught by the sortedness checks only") {
    const std::size_t i = neighbour(keys_h, cmp, false);
    REQUIRE(i < keys_h.size());
    std::swap(keys_h[i], keys_h[i + 1]);
    std::swap(values_h[i], values_h[i + 1]);
    keys.copy_from_host(keys_h);
    values.copy_from_host(values_h);
    const std::string where = "first at index " + std::to_string(i + 1);

    const check_result host = check_sorted(keys_h, cmp);
    const check_result device = device_check_sorted(keys.data(), n, cmp);
    CHECK(!host.ok);
    CHECK(!device.ok);
    CHECK(contains(host.message, where));
    CHECK(contains(device.message, where));
    CHECK(contains(device.message, "1 inversion"));
    CHECK(!verify_keys(input.data(), keys.data(), n, cmp).ok);
    // Still the same items, and the values travelled with their keys.
    CHECK(check_same_items(in_h, keys_h));
    CHECK(device_check_same_items(input.data(), keys.data(), n));
    CHECK(check_pairs(in_h, keys_h, values_h));
    CHECK(device_check_pairs(input.data(), keys.data(), values.data(), n));
  }

  SECTION("an item duplicated over another is caught although still sorted") {
    const std::size_t i = neighbour(keys_h, cmp, false);
    REQUIRE(i < keys_h.size());
    keys_h[i] = keys_h[i + 1];
    values_h[i] = values_h[i + 1];
    keys.copy_from_host(keys_h);
    values.copy_from_host(values_h);

    CHECK(check_sorted(keys_h, cmp));
    CHECK(device_check_sorted(keys.data(), n, cmp));
    const check_result host = check_permutation(in_h, keys_h, cmp);
    const check_result device = device_check_permutation(input.data(), keys.data(), n, cmp);
    CHECK(!host.ok);
    CHECK(!device.ok);
    CHECK(contains(host.message, "index " + std::to_string(i)));
    CHECK(contains(device.message, "first at index " + std::to_string(i)));
    CHECK(!verify_keys(input.data(), keys.data(), n, cmp).ok);
    CHECK(!check_same_items(in_h, keys_h).ok);
    CHECK(!device_check_same_items(input.data(), keys.data(), n).ok);
    CHECK(!check_pairs(in_h, keys_h, values_h).ok);
    const check_result pairs = device_check_pairs(input.data(), keys.data(), values.data(), n);
    CHECK(!pairs.ok);
    CHECK(contains(pairs.message, "do not appear exactly once"));
    CHECK(!verify_pairs(input.data(), keys.data(), values.data(), n, cmp, false).ok);
  }

  SECTION("two values swapped between different keys are caught by the pair checks") {
    const std::size_t i = neighbour(keys_h, cmp, false);
    REQUIRE(i < keys_h.size());
    std::swap(values_h[i], values_h[i + 1]);
    values.copy_from_host(values_h);

    CHECK(verify_keys(input.data(), keys.data(), n, cmp));
    const check_result host = check_pairs(in_h, keys_h, values_h);
    const check_result device = device_check_pairs(input.data(), keys.data(), values.data(), n);
    CHECK(!host.ok);
    CHECK(!device.ok);
    CHECK(contains(host.message, "at index " + std::to_string(i)));
    CHECK(contains(device.message, "first at index " + std::to_string(i)));
    CHECK(!verify_pairs(input.data(), keys.data(), values.data(), n, cmp, false).ok);
  }

  SECTION("a broken tie order is caught by the stability checks only") {
    const std::size_t i = neighbour(keys_h, cmp, true);
    REQUIRE(i < keys_h.size());
    REQUIRE(bytes_equal(keys_h[i], keys_h[i + 1]));
    std::swap(values_h[i], values_h[i + 1]);
    values.copy_from_host(values_h);

    CHECK(check_pairs(in_h, keys_h, values_h));
    CHECK(verify_pairs(input.data(), keys.data(), values.data(), n, cmp, false));
    const check_result host = check_stable(keys_h, values_h, cmp);
    const check_result device = device_check_stable(keys.data(), values.data(), n, cmp);
    CHECK(!host.ok);
    CHECK(!device.ok);
    CHECK(contains(host.message, "index " + std::to_string(i + 1)));
    CHECK(contains(device.message, "first at index " + std::to_string(i + 1)));
    CHECK(!verify_pairs(input.data(), keys.data(), values.data(), n, cmp, true).ok);
  }

  SECTION("a value that is no input index is caught") {
    values_h[7] = make_index_value<Value>(static_cast<std::uint64_t>(n));
    values.copy_from_host(values_h);
    CHECK(!check_pairs(in_h, keys_h, values_h).ok);
    const check_result device = device_check_pairs(input.data(), keys.data(), values.data(), n);
    CHECK(!device.ok);
    CHECK(contains(device.message, "values[7]"));
  }

  SECTION("a write one past the end, or one before the start, is caught by the guard") {
    write_one<<<1, 1>>>(keys.data(), n, keys_h[0]);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const check_result after = keys.check_guard();
    CHECK(!after.ok);
    CHECK(contains(after.message, "index " + std::to_string(n)));
    // The array itself is untouched: the sort checks cannot see it; only the guard can.
    CHECK(verify_keys(input.data(), keys.data(), n, cmp));

    keys.poison();
    CHECK(keys.check_guard());
    write_one<<<1, 1>>>(values.data(), -1, values_h[0]);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const check_result before = values.check_guard();
    CHECK(!before.ok);
    CHECK(contains(before.message, "index -1"));
  }
}

TEST_CASE("checks: a duplicate over a cmp-equal but bitwise different key is caught",
          "[harness]") {
  SECTION("key16 compared by its high word only") {
    const hi_only_less cmp;
    const std::int64_t n = 4099;
    std::vector<key16> input(n);
    for (std::int64_t i = 0; i < n; ++i)
      input[i] = key16{static_cast<std::uint64_t>((i * 7919) % 13), static_cast<std::uint64_t>(i)};
    std::vector<key16> output = input;
    std::stable_sort(output.begin(), output.end(), cmp);
    REQUIRE(check_permutation(input, output, cmp));

    const std::size_t i = neighbour(output, cmp, true);
    REQUIRE(output[i].lo != output[i + 1].lo);
    output[i] = output[i + 1];  // sorted, and cmp-equivalent position by position
    CHECK(check_sorted(output, cmp));
    const check_result host = check_permutation(input, output, cmp);
    CHECK(!host.ok);
    CHECK(contains(host.message, "bitwise"));

    device_buffer<key16> d_input(input), d_output(output);
    CHECK(device_check_sorted(d_output.data(), n, cmp));
    const check_result device = device_check_permutation(d_input.data(), d_output.data(), n, cmp);
    CHECK(!device.ok);
    CHECK(contains(device.message, "bitwise"));
  }
  SECTION("-0.0 written over +0.0 under less") {
    const std::vector<float> input = {1.0f, 0.0f, -0.0f, -1.0f};
    const std::vector<float> output = {-1.0f, -0.0f, -0.0f, 1.0f};
    CHECK(check_sorted(output, gpusort::less{}));
    CHECK(!check_permutation(input, output, gpusort::less{}).ok);
    device_buffer<float> d_input(input), d_output(output);
    CHECK(!device_check_permutation(d_input.data(), d_output.data(), 4, gpusort::less{}).ok);
    const std::vector<float> fine = {-1.0f, 0.0f, -0.0f, 1.0f};
    CHECK(check_permutation(input, fine, gpusort::less{}));
  }
}

TEST_CASE("checks: segmented sortedness looks only inside segments", "[harness]") {
  // Two sorted tiles of 4: sorted per tile, not as a whole.
  const std::vector<std::uint32_t> tiles = {1, 2, 3, 9, 0, 4, 5, 6};
  device_buffer<std::uint32_t> d(tiles);
  CHECK(device_check_sorted(d.data(), 8, gpusort::less{}, 4));
  CHECK(!device_check_sorted(d.data(), 8, gpusort::less{}).ok);
  const std::vector<std::uint32_t> broken = {1, 2, 3, 9, 0, 4, 6, 5};
  device_buffer<std::uint32_t> e(broken);
  const check_result r = device_check_sorted(e.data(), 8, gpusort::less{}, 4);
  CHECK(!r.ok);
  CHECK(contains(r.message, "first at index 7"));
}

TEST_CASE("value16 indices carry a checksum", "[harness]") {
  const value16 v = make_index_value<value16>(42);
  CHECK(index_of(v) == 42);
  value16 torn = v;
  torn.index = 43;
  CHECK(index_of(torn) == invalid_index);
  CHECK(index_of(make_index_value<std::uint32_t>(7)) == 7);
  CHECK(index_of(make_index_value<std::uint64_t>(std::uint64_t(1) << 40)) ==
        (std::uint64_t(1) << 40));
}
