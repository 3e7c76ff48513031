// Example: sort floats that contain NaN, signed zeros and infinities with gpusort::total_less.
//
// operator< is not a strict weak ordering once NaN is present (NaN compares false with
// everything), so sorting with gpusort::less would give an unspecified order. total_less is
// IEEE-754 totalOrder:
//   -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN
// so every value has its place: -0 comes before +0, and (positive) NaNs come last.
#include <gpusort/gpusort.cuh>

#include "example_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

}  // namespace

int main() {
  example::require_gpu("floats_total_less");

  const std::int64_t n = 1 << 18;
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            0.0f,
                            -0.0f,
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min()};
  const int num_specials = static_cast<int>(sizeof specials / sizeof specials[0]);
  std::vector<float> values(n);
  std::mt19937 rng(3);
  std::normal_distribution<float> normal(0.0f, 100.0f);
  for (auto& v : values) {
    // About one value in eight is special; the rest are ordinary numbers of both signs.
    v = rng() % 8 == 0 ? specials[rng() % num_specials] : normal(rng);
  }

  float* d_values = nullptr;
  example::check(cudaMalloc(&d_values, n * sizeof(float)), "cudaMalloc");
  example::check(cudaMemcpy(d_values, values.data(), n * sizeof(float), cudaMemcpyHostToDevice),
                 "copy to device");

  example::check(gpusort::sort_keys(gpusort::policy::merge{}, d_values, n, gpusort::total_less{}),
                 "gpusort::sort_keys");

  std::vector<float> sorted(n);
  example::check(cudaMemcpy(sorted.data(), d_values, n * sizeof(float), cudaMemcpyDeviceToHost),
                 "copy to host");
  example::check(cudaFree(d_values), "cudaFree");

  // Reference: std::sort with the same comparator (it is __host__ __device__). NaN != NaN,
  // so results are compared bit for bit.
  std::vector<float> expected = values;
  std::sort(expected.begin(), expected.end(), gpusort::total_less{});
  bool ok = std::equal(sorted.begin(), sorted.end(), expected.begin(),
                       [](float a, float b) { return bits_of(a) == bits_of(b); });

  // The properties the order promises, checked directly as well.
  const std::int64_t nans = std::count_if(values.begin(), values.end(),
                                          [](float v) { return std::isnan(v); });
  const bool nan_last = std::all_of(sorted.end() - nans, sorted.end(),
                                    [](float v) { return std::isnan(v); });
  const bool neg_inf_first = std::isinf(sorted.front()) && sorted.front() < 0;
  const auto first_pos_zero = std::find_if(sorted.begin(), sorted.end(), [](float v) {
    return v == 0.0f && !std::signbit(v);
  });
  const bool neg_zero_before_pos_zero = std::none_of(
      first_pos_zero, sorted.end(), [](float v) { return v == 0.0f && std::signbit(v); });
  ok = ok && nan_last && neg_inf_first && neg_zero_before_pos_zero;

  std::printf("floats_total_less: sorted %lld floats (%lld NaN): first %g, last %g; "
              "NaN last: %s, -inf first: %s, -0 before +0: %s\n",
              static_cast<long long>(n), static_cast<long long>(nans), sorted.front(),
              sorted.back(), nan_last ? "yes" : "no", neg_inf_first ? "yes" : "no",
              neg_zero_before_pos_zero ? "yes" : "no");
  return example::verdict("floats_total_less", ok, "equal to std::sort with total_less");
}
