// policy::randomized_sample on floating-point keys under total_less (with NaN, ±0, ±inf) and
// the 16- and 12-byte struct keys of DESIGN.md §4, keys and 16-byte pairs (a file of its own
// so that its instantiations compile in parallel with the main test's u32 cases).
#include "sort_cases.cuh"

#include <cstdint>
#include <iterator>

using namespace gpusort_test;

namespace {
using rs_policy = gpusort::policy::randomized_sample;
}

TEST_CASE("randomized_sample: floating-point keys (with NaN, ±0, ±inf) and struct keys", "[randomized_sample]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::few_distinct_2, distribution::all_equal,
                             distribution::reverse_sorted);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(999983));
  check_float_and_struct_key_types(rs_policy{}, sort_case{dist, n, /*special_floats=*/true});
}

TEST_CASE("randomized_sample: 16-byte pairs on every distribution", "[randomized_sample]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(65537), std::int64_t(1) << 20);
  check_sort<rs_policy, key16, value16>(rs_policy{}, {dist, n}, key16_less{}, false);
}

// 4-byte keys alone at k >= 512 are scattered in chunks of two loads (as u32 in the main file).
TEST_CASE("randomized_sample: float keys in chunks of two loads", "[randomized_sample][sanitize]") {
  rs_policy policy{};
  policy.buckets = GENERATE(512, 1024);
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17);
  const std::int64_t n = GENERATE(std::int64_t(40009), std::int64_t(300007));
  check_sort<rs_policy, float, gpusort::detail::no_value>(policy, {dist, n, /*special_floats=*/true},
                                                         gpusort::total_less{}, false);
}
