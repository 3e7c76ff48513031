// The error contract of the entry points (DESIGN.md §2) where it needs no GPU: bad
// arguments are refused before any work, n == 0 is a no-op, a policy whose algorithm is not
// built says so instead of pretending to sort, automatic's size query covers its choices,
// and floating-point keys are sorted as order words only where that keeps each policy's promise.
#include "common/catch.hpp"

#include <gpusort/gpusort.cuh>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

// Host memory is enough here: every call below must return before touching the arrays.
struct host_arrays {
  std::vector<std::uint32_t> keys{5, 3, 9, 1};
  std::vector<std::uint32_t> values{0, 1, 2, 3};
  std::vector<std::uint32_t> original_keys = keys;
  std::vector<std::uint32_t> original_values = values;
  bool untouched() const { return keys == original_keys && values == original_values; }
};

}  // namespace

// A comparator of the user's own: its order may be anything, so no words. Outside the
// unnamed namespace: only named as a template argument, its operator() would be an unused
// function of internal linkage (nvcc warning #177).
struct own_float_less {
  __host__ __device__ bool operator()(float a, float b) const { return a < b; }
};

TEST_CASE("validate_sort_arguments follows the error contract", "[entry]") {
  using gpusort::detail::validate_sort_arguments;
  int x = 0;
  CHECK(validate_sort_arguments(&x, nullptr, false, -1) == cudaErrorInvalidValue);
  CHECK(validate_sort_arguments(nullptr, nullptr, true, 0) == cudaSuccess);
  CHECK(validate_sort_arguments(nullptr, nullptr, false, 1) == cudaErrorInvalidValue);
  CHECK(validate_sort_arguments(&x, nullptr, true, 1) == cudaErrorInvalidValue);
  CHECK(validate_sort_arguments(&x, nullptr, false, 1) == cudaSuccess);
  CHECK(validate_sort_arguments(&x, &x, true, std::int64_t(1) << 40) == cudaSuccess);
}

TEST_CASE("validate_temp_storage refuses too little storage", "[entry]") {
  using gpusort::detail::validate_temp_storage;
  int x = 0;
  CHECK(validate_temp_storage(nullptr, 0, 0) == cudaSuccess);
  CHECK(validate_temp_storage(&x, 0, 0) == cudaSuccess);
  CHECK(validate_temp_storage(nullptr, 100, 100) == cudaErrorInvalidValue);
  CHECK(validate_temp_storage(&x, 99, 100) == cudaErrorInvalidValue);
  CHECK(validate_temp_storage(&x, 100, 100) == cudaSuccess);
}

TEMPLATE_TEST_CASE("entry points refuse bad arguments before any work", "[entry]",
                   gpusort::policy::deterministic_sample, gpusort::policy::randomized_sample,
                   gpusort::policy::warpsort, gpusort::policy::merge,
                   gpusort::policy::automatic) {
  host_arrays a;
  std::size_t bytes = 12345;
  const TestType policy{};
  CHECK(gpusort::sort_keys(policy, nullptr, bytes, a.keys.data(), -1) == cudaErrorInvalidValue);
  CHECK(gpusort::sort_keys(policy, nullptr, bytes, static_cast<std::uint32_t*>(nullptr), 4) ==
        cudaErrorInvalidValue);
  CHECK(gpusort::sort_pairs(policy, nullptr, bytes, a.keys.data(),
                            static_cast<std::uint32_t*>(nullptr), 4) == cudaErrorInvalidValue);
  CHECK(gpusort::sort_keys(policy, a.keys.data(), -7) == cudaErrorInvalidValue);
  CHECK(gpusort::sort_pairs(policy, static_cast<std::uint32_t*>(nullptr), a.values.data(), 4,
                            gpusort::greater{}) == cudaErrorInvalidValue);
  CHECK(bytes == 12345);
  CHECK(a.untouched());
}

TEMPLATE_TEST_CASE("zero items is a no-op that needs no storage", "[entry]",
                   gpusort::policy::deterministic_sample, gpusort::policy::randomized_sample,
                   gpusort::policy::warpsort, gpusort::policy::merge,
                   gpusort::policy::automatic) {
  const TestType policy{};
  if constexpr (gpusort::detail::algorithm<TestType>::implemented) {
    std::size_t bytes = 12345;
    CHECK(gpusort::sort_keys(policy, nullptr, bytes, static_cast<std::uint32_t*>(nullptr), 0) ==
          cudaSuccess);
    CHECK(bytes == 0);
    CHECK(gpusort::sort_keys(policy, static_cast<std::uint32_t*>(nullptr), 0) == cudaSuccess);
  } else {
    std::size_t bytes = 0;
    CHECK(gpusort::sort_keys(policy, nullptr, bytes, static_cast<std::uint32_t*>(nullptr), 0) ==
          cudaErrorNotSupported);
  }
}

TEST_CASE("a policy that is not built does not pretend to sort", "[entry]") {
  host_arrays a;
  std::size_t bytes = 0;
  // Report every unbuilt policy; a built one is covered by its GPU tests.
  if constexpr (!gpusort::detail::algorithm<gpusort::policy::warpsort>::implemented) {
    CHECK(gpusort::sort_keys(gpusort::policy::warpsort{}, nullptr, bytes, a.keys.data(), 4) ==
          cudaErrorNotSupported);
    CHECK(gpusort::sort_pairs(gpusort::policy::warpsort{}, a.keys.data(), a.values.data(), 4) ==
          cudaErrorNotSupported);
  }
  CHECK(a.untouched());
}

TEST_CASE("automatic asks for the storage of every policy it may pick", "[entry][automatic]") {
  namespace policy = gpusort::policy;
  using gpusort::detail::algorithm;
  using gpusort::detail::no_value;
  const auto merge_bytes = [](auto key, auto value, std::int64_t n) {
    return algorithm<policy::merge>::temp_storage_bytes<decltype(key), decltype(value)>(
        policy::merge{}, n);
  };
  const auto randomized_bytes = [](auto key, std::int64_t n) {
    return algorithm<policy::randomized_sample>::temp_storage_bytes<decltype(key), no_value>(
        policy::randomized_sample{}, n);
  };
  // Keys of 1, 2, 4 and 8 bytes without values may go to the randomized sort from
  // `randomized_from` items on; the size query cannot see the comparator, so there it must
  // cover merge and the randomized sort.
  const auto check_keys = [&](auto key, std::int64_t randomized_from) {
    using Key = decltype(key);
    CAPTURE(sizeof(key), randomized_from);
    REQUIRE(randomized_from == gpusort::detail::automatic_randomized_from<Key, no_value>());
    for (std::int64_t n : {std::int64_t(1025), std::int64_t(1) << 22, randomized_from - 1,
                           randomized_from, 3 * randomized_from + 5}) {
      CAPTURE(n);
      std::size_t bytes = 0;
      REQUIRE(gpusort::sort_keys(policy::automatic{}, nullptr, bytes, &key, n) == cudaSuccess);
      const std::size_t merge_only = merge_bytes(key, no_value{}, n);
      const std::size_t other = n >= randomized_from ? randomized_bytes(key, n) : 0;
      CHECK(bytes == gpusort::detail::temp_bytes_from_any_start(std::max(merge_only, other)));
    }
  };
  check_keys(std::uint8_t{}, 5 * (std::int64_t(1) << 20));
  check_keys(std::uint16_t{}, 10 * (std::int64_t(1) << 20));
  check_keys(std::uint32_t{}, 10 * (std::int64_t(1) << 20));
  check_keys(std::uint64_t{}, 5 * (std::int64_t(1) << 20));
  // Pairs, and keys of other sizes, are always merge's.
  for (std::int64_t n : {std::int64_t(1025), (std::int64_t(1) << 26) + 3}) {
    CAPTURE(n);
    std::size_t bytes = 0;
    std::uint64_t key = 0;
    std::uint32_t value = 0;
    REQUIRE(gpusort::sort_pairs(policy::automatic{}, nullptr, bytes, &key, &value, n) ==
            cudaSuccess);
    CHECK(bytes == gpusort::detail::temp_bytes_from_any_start(
                       merge_bytes(std::uint64_t{}, std::uint32_t{}, n)));
    REQUIRE(gpusort::detail::automatic_randomized_from<std::uint16_t, std::uint32_t>() == 0);
    struct three_bytes { unsigned char b[3]; };
    REQUIRE(gpusort::detail::automatic_randomized_from<three_bytes, no_value>() == 0);
  }
}

TEST_CASE("floating-point keys go through order words only where the result keeps the policy's promise",
          "[entry][total_less]") {
  using gpusort::detail::no_value;
  using gpusort::detail::sorts_as_total_order_words;
  namespace policy = gpusort::policy;
  // total_less: the words order exactly as it does, ties are the same bits; every policy,
  // keys and pairs.
  STATIC_REQUIRE(sorts_as_total_order_words<policy::merge, float, no_value, gpusort::total_less>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::automatic, double, no_value, gpusort::total_less>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::warpsort, float, std::uint32_t, gpusort::total_less>);
  // less and greater hold -0 and +0 equivalent, the words do not: only float keys alone
  // (where the words measured faster), and the stable policies record the zeros' signs
  // (detail/zero_signs.cuh).
  using gpusort::detail::keeps_zero_order;
  STATIC_REQUIRE(sorts_as_total_order_words<policy::warpsort, float, no_value, gpusort::less>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::randomized_sample, float, no_value, gpusort::greater>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::deterministic_sample, float, no_value, gpusort::less>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::merge, float, no_value, gpusort::less>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::automatic, float, no_value, gpusort::greater>);
  STATIC_REQUIRE(keeps_zero_order<policy::merge, gpusort::less>);
  STATIC_REQUIRE(keeps_zero_order<policy::automatic, gpusort::greater>);
  STATIC_REQUIRE(!keeps_zero_order<policy::merge, gpusort::total_less>);
  STATIC_REQUIRE(!keeps_zero_order<policy::warpsort, gpusort::less>);
  STATIC_REQUIRE(!sorts_as_total_order_words<policy::randomized_sample, double, no_value, gpusort::less>);
  STATIC_REQUIRE(!sorts_as_total_order_words<policy::warpsort, float, std::uint32_t, gpusort::less>);
  // 16-bit floats as float (measured faster under total_less, and alone under less).
  STATIC_REQUIRE(sorts_as_total_order_words<policy::merge, __half, no_value, gpusort::total_less>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::automatic, __nv_bfloat16, std::uint32_t, gpusort::total_less>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::randomized_sample, __half, no_value, gpusort::less>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::warpsort, __nv_bfloat16, no_value, gpusort::greater>);
  STATIC_REQUIRE(sorts_as_total_order_words<policy::merge, __half, no_value, gpusort::less>);
  STATIC_REQUIRE(!sorts_as_total_order_words<policy::deterministic_sample, __half, std::uint32_t, gpusort::less>);
  // Other keys, other comparators: never.
  STATIC_REQUIRE(!sorts_as_total_order_words<policy::warpsort, std::uint32_t, no_value, gpusort::less>);
  STATIC_REQUIRE(!sorts_as_total_order_words<policy::warpsort, float, no_value, own_float_less>);
  STATIC_REQUIRE(gpusort::detail::algorithm<policy::merge>::stable);
  STATIC_REQUIRE(!gpusort::detail::algorithm<policy::randomized_sample>::stable);
}

TEST_CASE("the size query covers the order words and the zeros' record from where a comparator takes them",
          "[entry][total_less]") {
  namespace policy = gpusort::policy;
  using gpusort::detail::no_value;
  const auto query = [](std::int64_t n) {
    std::size_t bytes = 0;
    float key = 0;
    REQUIRE(gpusort::sort_keys(policy::merge{}, nullptr, bytes, &key, n) == cudaSuccess);
    return bytes;
  };
  const auto aligned = [](std::size_t bytes) { return gpusort::detail::temp_bytes_from_any_start(bytes); };
  const auto keys_bytes = [](std::int64_t n) {
    return gpusort::detail::algorithm<policy::merge>::temp_storage_bytes<float, no_value>(policy::merge{}, n);
  };
  const auto words_bytes = [](auto cmp, std::int64_t n) {
    return gpusort::detail::total_order_words_temp_bytes<policy::merge, float, no_value, decltype(cmp)>(
        policy::merge{}, n);
  };
  using gpusort::detail::total_order_words_from;
  using gpusort::detail::zero_order_words_from;
  // total_less takes the words from total_order_words_from, less and greater (with the zeros'
  // record) from zero_order_words_from: the record's bytes are asked for only from there.
  const std::int64_t before_words = total_order_words_from - 1, before_record = zero_order_words_from - 1;
  CHECK(query(before_words) == aligned(keys_bytes(before_words)));
  CHECK(query(before_record) ==
        aligned(std::max(keys_bytes(before_record), words_bytes(gpusort::total_less{}, before_record))));
  CHECK(query(before_record) < aligned(words_bytes(gpusort::less{}, before_record)));
  CHECK(query(zero_order_words_from) >= aligned(words_bytes(gpusort::less{}, zero_order_words_from)));
  CHECK(words_bytes(gpusort::less{}, zero_order_words_from) >
        words_bytes(gpusort::total_less{}, zero_order_words_from));
}

// With k tuned, k depends on n (u32 keys take k = 512 at 2^21 and 2^28), and with it the
// largest oversampling (4096 / k): the check, made without n, accepts what the default k for
// few items allows, so the sort must honour that at every n.
TEST_CASE("randomized_sample honours at every n an oversampling its check accepts",
          "[entry][randomized_sample]") {
  using gpusort::detail::algorithm;
  using gpusort::detail::no_value;
  using gpusort::detail::randomized_sample_parameters;
  using rs = gpusort::policy::randomized_sample;
  rs p{};
  p.oversampling = 16;
  REQUIRE(algorithm<rs>::check_policy<std::uint32_t, no_value>(p) == cudaSuccess);
  bool wider_k = false;
  for (const std::int64_t n : {std::int64_t(1) << 16, std::int64_t(1) << 21, std::int64_t(1) << 24,
                               std::int64_t(1) << 28, std::int64_t(1) << 29}) {
    CAPTURE(n);
    int log_k = 0, a = 0;
    CHECK(randomized_sample_parameters<std::uint32_t, no_value>(p, n, log_k, a));
    CHECK(a == std::min(16, 4096 >> log_k));
    wider_k |= log_k > 8;
  }
  CHECK(wider_k);
  p.oversampling = 17;
  CHECK(algorithm<rs>::check_policy<std::uint32_t, no_value>(p) == cudaErrorInvalidValue);
  p.buckets = 512;
  p.oversampling = 16;  // a k the caller chose is not second-guessed: 16 * 512 > 4096
  CHECK(algorithm<rs>::check_policy<std::uint32_t, no_value>(p) == cudaErrorInvalidValue);
}
