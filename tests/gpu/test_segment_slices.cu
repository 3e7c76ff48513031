// GPU test of warp::for_each_slice: over lists of ranges (empty ones, one holding almost
// everything, more than 32 of them, none) and grids of a few or many warps, every item of
// every range is visited exactly once and nothing outside the ranges is.
#include "common/catch.hpp"
#include "common/device_buffer.cuh"

#include <gpusort/warp/segment_slices.cuh>

#include <cstdint>
#include <random>
#include <vector>

namespace {

using gpusort_test::device_buffer;

constexpr int slice = 64;

// Each item a slice covers gets +1; a slice longer than `slice` or reaching past its range
// adds to *bad.
__global__ void visit_kernel(const std::int64_t* begins, const std::int64_t* ends, std::int64_t count,
                             int* visits, int* bad) {
  const int warps = blockDim.x / 32;
  const int lane = threadIdx.x % 32;
  gpusort::warp::for_each_slice<slice>(
      begins, ends, count, static_cast<std::int64_t>(blockIdx.x) * warps + threadIdx.x / 32,
      static_cast<std::int64_t>(gridDim.x) * warps, [&](std::int64_t lo, std::int64_t hi) {
        if (lane == 0 && (hi <= lo || hi - lo > slice)) atomicAdd(bad, 1);
        for (std::int64_t i = lo + lane; i < hi; i += 32) atomicAdd(&visits[i], 1);
      });
}

// Visit counts for ranges [begins[k], ends[k]) of an array of `items`, on a grid of `blocks`
// blocks of `threads`.
std::vector<int> visit(const std::vector<std::int64_t>& begins, const std::vector<std::int64_t>& ends,
                       std::int64_t items, int blocks, int threads) {
  device_buffer<std::int64_t> d_begins(static_cast<std::int64_t>(begins.size()));
  device_buffer<std::int64_t> d_ends(static_cast<std::int64_t>(ends.size()));
  d_begins.copy_from_host(begins);
  d_ends.copy_from_host(ends);
  device_buffer<int> visits(items);
  device_buffer<int> bad(1);
  REQUIRE(cudaMemset(visits.data(), 0, visits.bytes()) == cudaSuccess);
  REQUIRE(cudaMemset(bad.data(), 0, bad.bytes()) == cudaSuccess);
  visit_kernel<<<blocks, threads>>>(d_begins.data(), d_ends.data(),
                                    static_cast<std::int64_t>(begins.size()), visits.data(), bad.data());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  REQUIRE(bad.to_host()[0] == 0);
  return visits.to_host();
}

// Ranges that tile parts of [0, items) with gaps between them, `lengths` long each.
void check_lengths(const std::vector<std::int64_t>& lengths, int blocks, int threads) {
  std::vector<std::int64_t> begins, ends;
  std::int64_t at = 0;
  for (std::int64_t length : lengths) {
    at += 3;  // a gap no range covers
    begins.push_back(at);
    ends.push_back(at + length);
    at += length;
  }
  const std::int64_t items = at + 3;
  const std::vector<int> visits = visit(begins, ends, items, blocks, threads);
  std::vector<int> expected(static_cast<std::size_t>(items), 0);
  for (std::size_t k = 0; k < begins.size(); ++k)
    for (std::int64_t i = begins[k]; i < ends[k]; ++i) expected[static_cast<std::size_t>(i)] = 1;
  REQUIRE(visits == expected);
}

}  // namespace

TEST_CASE("for_each_slice: every item of every range once", "[segment_slices][sanitize]") {
  const int blocks = GENERATE(1, 3, 40);
  const int threads = GENERATE(32, 256);
  SECTION("no ranges") { check_lengths({}, blocks, threads); }
  SECTION("one range that holds almost everything, among empty ones") {
    check_lengths({0, 100003, 0, 0, 1}, blocks, threads);
  }
  SECTION("exactly one slice, and one item more") { check_lengths({slice, slice + 1}, blocks, threads); }
  SECTION("more than 32 ranges of random lengths") {
    std::mt19937 rng(7);
    std::vector<std::int64_t> lengths(77);
    for (auto& length : lengths) length = rng() % 5 == 0 ? 0 : rng() % (9 * slice);
    check_lengths(lengths, blocks, threads);
  }
}
