// GPU tests of the warp blocks of GPU-Warpsort: warp::shared_bitonic_merge (a warp's merges
// in its shared memory, every block size it accepts, both directions; within a slice of a
// block's buffer, and by several warps together), warp::merge_runs
// (the t-item bitonic buffer merge) and warp::merge_four_runs (a tree of three), against plain host references, keys only and with
// values travelling with their keys; and
// warp::merge_path (the merge passes' partition) against thread::merge_path;
// warp::inclusive_sum against a host prefix sum; and detail::sort_warp_run (warpsort's step-1
// runs, policy::merge's and deterministic_sample's tile sorts built of those blocks) at the
// shapes the library launches, full, padded and tagged runs.
#include "common/bits.cuh"
#include "common/catch.hpp"
#include "common/device_buffer.cuh"
#include "common/key_types.cuh"

#include <gpusort/compare.cuh>
#include <gpusort/detail/warp_runs.cuh>
#include <gpusort/thread/merge_path.cuh>
#include <gpusort/warp/inclusive_sum.cuh>
#include <gpusort/warp/merge_four_runs.cuh>
#include <gpusort/warp/merge_path.cuh>
#include <gpusort/warp/merge_runs.cuh>
#include <gpusort/warp/shared_bitonic_merge.cuh>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace {

using gpusort::detail::no_value;
using namespace gpusort_test;

#define CUDA_REQUIRE(call) REQUIRE((call) == cudaSuccess)


// Keys from `distinct` values (few: many ties; 0: random bits).
template <class Key>
std::vector<Key> make_keys(std::size_t n, int distinct, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> keys(n);
  for (auto& k : keys) {
    unsigned char bytes[sizeof(Key)];
    const std::uint64_t pick = distinct > 0 ? rng() % distinct : 0;
    for (std::size_t i = 0; i < sizeof(Key); ++i)
      bytes[i] = static_cast<unsigned char>(distinct > 0 ? pick * 37 + i : rng());
    std::memcpy(&k, bytes, sizeof(Key));
  }
  return keys;
}

// ---- kernels ------------------------------------------------------------------------------

// WARPS warps: the buffer filled from `keys` (row-major), every block of 2^BITS items merged
// (by the warps together, or, SLICED, each warp alone within its own ITEMS / WARPS items),
// the buffer written back.
template <int M, int ITEMS, int BITS, int WARPS, bool SLICED, class Key, class Value, class Compare>
__global__ void shared_merge_kernel(const Key* keys, const Value* values, Key* out,
                                    Value* out_values, Compare cmp) {
  __shared__ gpusort::warp::bitonic_buffer<Key, M, ITEMS> key_buffer;
  __shared__ gpusort::warp::bitonic_buffer<Value, M, ITEMS> value_buffer;
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  for (int i = threadIdx.x; i < ITEMS; i += 32 * WARPS) {
    key_buffer.store(i, keys[i]);
    if constexpr (pairs) value_buffer.store(i, values[i]);
  }
  __syncthreads();
  if constexpr (SLICED) {
    constexpr int groups = ITEMS / (32 * M) / WARPS;
    gpusort::warp::shared_bitonic_merge<M, ITEMS, BITS>(key_buffer, value_buffer, cmp,
                                                        threadIdx.x / 32 * groups, groups);
  } else {
    gpusort::warp::shared_bitonic_merge<M, ITEMS, BITS, WARPS>(key_buffer, value_buffer, cmp);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < ITEMS; i += 32 * WARPS) {
    out[i] = key_buffer.load(i);
    if constexpr (pairs) out_values[i] = value_buffer.load(i);
  }
}

// Warp w merges its RUNS runs (run r of warp w: begins[w * RUNS + r], counts[...]) into out
// at out_begin[w], by warp::merge_runs (2 runs) or warp::merge_four_runs (4).
template <int M, int RUNS, class Key, class Value, class Compare>
__global__ void merge_runs_kernel(const Key* keys, const Value* values, const long long* begins,
                                  const long long* counts, const long long* out_begin, Key* out,
                                  Value* out_values, int warps, Compare cmp) {
  using storage_type = std::conditional_t<RUNS == 2, gpusort::warp::merge_runs_storage<Key, Value, M>,
                                          gpusort::warp::merge_four_runs_storage<Key, Value, M>>;
  __shared__ storage_type storage[2];
  const int w = blockIdx.x * 2 + threadIdx.x / 32;
  if (w >= warps) return;
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  const Key* run_keys[RUNS];
  const Value* run_values[RUNS];
  std::int64_t run_counts[RUNS];
  for (int r = 0; r < RUNS; ++r) {
    run_keys[r] = keys + begins[w * RUNS + r];
    run_values[r] = pairs ? values + begins[w * RUNS + r] : values;
    run_counts[r] = counts[w * RUNS + r];
  }
  Key* to = out + out_begin[w];
  Value* to_values = pairs ? out_values + out_begin[w] : out_values;
  if constexpr (RUNS == 2)
    gpusort::warp::merge_runs<M>(run_keys[0], run_values[0], run_counts[0], run_keys[1], run_values[1],
                                 run_counts[1], to, to_values, cmp, storage[threadIdx.x / 32]);
  else
    gpusort::warp::merge_four_runs<M>(run_keys, run_values, run_counts, to, to_values, cmp,
                                      storage[threadIdx.x / 32]);
}

// ---- checks -------------------------------------------------------------------------------

// Every block of 2^BITS items made bitonic (a sorted half, then a reverse-sorted half),
// merged; block b must come out ascending under cmp (even b, or the whole buffer) or
// descending (odd b), holding the same items, each value still with its key.
template <int M, int ITEMS, int BITS, class Key, class Value, int WARPS = 1, bool SLICED = false,
          class Compare>
void run_shared_merge(Compare cmp, int distinct) {
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  constexpr int block = 1 << BITS;
  CAPTURE(M, ITEMS, BITS, WARPS, SLICED, distinct);
  auto keys = make_keys<Key>(ITEMS, distinct, 31 + BITS + M);
  for (int b = 0; b < ITEMS; b += block) {
    std::sort(keys.begin() + b, keys.begin() + b + block / 2, cmp);
    std::sort(keys.begin() + b + block / 2, keys.begin() + b + block,
              [&](const Key& x, const Key& y) { return cmp(y, x); });
  }
  std::vector<Value> values(ITEMS);
  if constexpr (pairs)
    for (int i = 0; i < ITEMS; ++i) values[i] = value_of_index<Value>(i);
  device_buffer<Key> d_keys(keys), d_out(std::vector<Key>(static_cast<std::size_t>(ITEMS)));
  device_buffer<Value> d_values(values), d_out_values(values);
  shared_merge_kernel<M, ITEMS, BITS, WARPS, SLICED><<<1, 32 * WARPS>>>(
      d_keys.data(), pairs ? d_values.data() : nullptr, d_out.data(),
      pairs ? d_out_values.data() : nullptr, cmp);
  CUDA_REQUIRE(cudaGetLastError());
  CUDA_REQUIRE(cudaDeviceSynchronize());
  const auto out = d_out.to_host();
  const auto out_values = d_out_values.to_host();
  std::vector<char> used(ITEMS, 0);
  for (int b = 0; b < ITEMS; b += block) {
    const bool descending = block < ITEMS && (b / block) % 2 == 1;
    std::vector<Key> expected(keys.begin() + b, keys.begin() + b + block);
    std::sort(expected.begin(), expected.end(), cmp);
    if (descending) std::reverse(expected.begin(), expected.end());
    for (int i = 0; i < block; ++i) {
      INFO("block " << b / block << ", item " << i);
      const Key& got = out[b + i];
      REQUIRE(!cmp(got, expected[i]));
      REQUIRE(!cmp(expected[i], got));
      if constexpr (pairs) {
        const std::size_t from = index_of_value(out_values[b + i]);
        REQUIRE(from >= static_cast<std::size_t>(b));
        REQUIRE(from < static_cast<std::size_t>(b + block));
        REQUIRE(!used[from]);
        used[from] = 1;
        REQUIRE(same_bits(keys[from], got));
      }
    }
  }
}

// Merges groups of RUNS sorted runs with the given lengths, a warp each, laid out one after
// the other; each group's output must be its items sorted, each value still with its key.
template <int M, class Key, class Value, std::size_t RUNS, class Compare>
void run_merge_runs(Compare cmp, const std::vector<std::array<long long, RUNS>>& lengths,
                    int distinct) {
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  std::vector<long long> begins, counts, out_begin, group_count;
  long long total = 0;
  for (const auto& group : lengths) {
    out_begin.push_back(total);
    for (long long length : group) {
      begins.push_back(total);
      counts.push_back(length);
      total += length;
    }
    group_count.push_back(total - out_begin.back());
  }
  auto keys = make_keys<Key>(static_cast<std::size_t>(total), distinct, 17 + total + M);
  for (std::size_t r = 0; r < begins.size(); ++r)
    std::sort(keys.begin() + begins[r], keys.begin() + begins[r] + counts[r], cmp);
  std::vector<Value> values(static_cast<std::size_t>(total));
  if constexpr (pairs)
    for (long long i = 0; i < total; ++i) values[i] = value_of_index<Value>(i);
  device_buffer<Key> d_keys(keys), d_out(std::vector<Key>(static_cast<std::size_t>(total)));
  device_buffer<Value> d_values(values), d_out_values(values);
  device_buffer<long long> d_begins(begins), d_counts(counts), d_out_begin(out_begin);
  const int warps = static_cast<int>(lengths.size());
  merge_runs_kernel<M, static_cast<int>(RUNS)><<<(warps + 1) / 2, 64>>>(
      d_keys.data(), pairs ? d_values.data() : nullptr, d_begins.data(), d_counts.data(),
      d_out_begin.data(), d_out.data(), pairs ? d_out_values.data() : nullptr, warps, cmp);
  CUDA_REQUIRE(cudaGetLastError());
  CUDA_REQUIRE(cudaDeviceSynchronize());
  const auto out = d_out.to_host();
  const auto out_values = d_out_values.to_host();
  std::vector<char> used(static_cast<std::size_t>(total), 0);
  for (std::size_t w = 0; w < lengths.size(); ++w) {
    const long long first = out_begin[w], count = group_count[w];
    std::vector<Key> expected(keys.begin() + first, keys.begin() + first + count);
    std::sort(expected.begin(), expected.end(), cmp);
    for (long long i = 0; i < count; ++i) {
      INFO("M " << M << ", " << RUNS << " runs, group " << w << " of " << count << " items, output " << i);
      const Key& got = out[first + i];
      // Equal under cmp at every position (ties may come in any order, not stable).
      REQUIRE(!cmp(got, expected[i]));
      REQUIRE(!cmp(expected[i], got));
      if constexpr (pairs) {
        const std::size_t from = index_of_value(out_values[first + i]);
        REQUIRE(from >= static_cast<std::size_t>(first));
        REQUIRE(from < static_cast<std::size_t>(first + count));
        REQUIRE(!used[from]);
        used[from] = 1;
        REQUIRE(same_bits(keys[from], got));
      }
    }
  }
}

// Warp w: the co-rank of diagonals[w] in the merge of a and b, every lane's answer (each
// lane writes its own slot, so a lane that disagreed would show).
template <class Key, class Compare>
__global__ void merge_path_kernel(const Key* a, long long a_count, const Key* b, long long b_count,
                                  const long long* diagonals, int count, long long* co_ranks,
                                  Compare cmp) {
  const int w = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
  if (w >= count) return;
  co_ranks[w * 32 + threadIdx.x % 32] = gpusort::warp::merge_path(a, a_count, b, b_count, diagonals[w], cmp);
}

// Every diagonal of the merge of two sorted runs of the given lengths (keys from `distinct`
// values: many ties when few), searched by a warp each and compared with
// thread::merge_path on the host.
template <class Key, class Compare>
void run_merge_path(long long a_count, long long b_count, int distinct, Compare cmp) {
  CAPTURE(a_count, b_count, distinct);
  std::vector<Key> a = make_keys<Key>(static_cast<std::size_t>(a_count), distinct, 11);
  std::vector<Key> b = make_keys<Key>(static_cast<std::size_t>(b_count), distinct, 12);
  std::sort(a.begin(), a.end(), cmp);
  std::sort(b.begin(), b.end(), cmp);
  std::vector<long long> diagonals;
  const long long total = a_count + b_count;
  const long long step = total > 3000 ? total / 1500 : 1;  // about 1500 diagonals, ends included
  for (long long d = 0; d <= total; d += step) diagonals.push_back(d);
  if (diagonals.back() != total) diagonals.push_back(total);
  const int count = static_cast<int>(diagonals.size());
  device_buffer<Key> d_a(a), d_b(b);
  device_buffer<long long> d_diagonals(diagonals), d_co_ranks(std::int64_t(count) * 32);
  merge_path_kernel<<<(count * 32 + 127) / 128, 128>>>(d_a.data(), a_count, d_b.data(), b_count,
                                                       d_diagonals.data(), count,
                                                       d_co_ranks.data(), cmp);
  CUDA_REQUIRE(cudaDeviceSynchronize());
  const std::vector<long long> co_ranks = d_co_ranks.to_host();
  int wrong = 0;
  for (int w = 0; w < count; ++w) {
    const long long want = gpusort::thread::merge_path(a.data(), a_count, b.data(), b_count,
                                                       diagonals[w], cmp);
    for (int lane = 0; lane < 32; ++lane) wrong += co_ranks[w * 32 + lane] != want;
  }
  CHECK(wrong == 0);
}

// Lengths around the buffer half t/2 = 16*M: empty runs, ragged last blocks, one run much
// longer than the other, both multiples of t/2.
template <int M>
std::vector<std::array<long long, 2>> awkward_lengths() {
  const long long h = 16 * M;
  return {{0, 1},          {1, 0},         {1, 1},          {h, h},           {h - 1, h + 1},
          {h + 1, 0},      {0, 3 * h + 5}, {5 * h, 3},      {7, 9 * h - 1},   {4 * h, 4 * h},
          {10 * h + 3, 10 * h + 11},       {2 * h - 1, 1}, {1000, 999},      {4096, 4096}};
}

// Four runs: the same lengths around t/2, empty runs in every place, one pair much longer than
// the other, and a merge of four equal runs of warpsort's first pass.
template <int M>
std::vector<std::array<long long, 4>> awkward_four_lengths() {
  const long long h = 16 * M;
  return {{0, 0, 0, 1},         {1, 0, 0, 0},         {0, 1, 0, 0},         {0, 0, 1, 0},
          {1, 1, 1, 1},         {h, h, h, h},         {h - 1, h + 1, 1, h}, {0, 3 * h + 5, 0, 7},
          {5 * h, 3, 0, 0},     {0, 0, 7, 9 * h - 1}, {10 * h + 3, 1, 2, 10 * h + 11},
          {2 * h - 1, 1, h + 1, 2 * h}, {1000, 999, 998, 1001}, {4096, 4096, 4096, 4096}};
}

// n items (values: their indices) sorted in place by launch_warp_runs in runs of
// WARPS * WARP_RUN (the last may be short: FILL padded or tagged); every run must come out
// sorted under cmp, holding its own items, each value still with its key.
template <int ITEMS, int WARP_RUN, int WARPS, gpusort::detail::run_fill FILL, class Key,
          class Value, class Compare>
void run_warp_runs(std::int64_t n, Compare cmp, int distinct) {
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  constexpr std::int64_t run = std::int64_t(WARPS) * WARP_RUN;
  INFO("ITEMS " << ITEMS << ", WARP_RUN " << WARP_RUN << ", WARPS " << WARPS << ", fill "
                << static_cast<int>(FILL) << ", n " << n << ", distinct " << distinct);
  const std::vector<Key> keys = make_keys<Key>(static_cast<std::size_t>(n), distinct, 41 + n);
  std::vector<Value> values(static_cast<std::size_t>(n));
  if constexpr (pairs)
    for (std::int64_t i = 0; i < n; ++i) values[i] = value_of_index<Value>(i);
  device_buffer<Key> d_keys(keys);
  device_buffer<Value> d_values(values);
  Value* d_vals = pairs ? d_values.data() : nullptr;
  CUDA_REQUIRE((gpusort::detail::launch_warp_runs<ITEMS, WARP_RUN, WARPS, FILL,
                                                  gpusort::detail::plain_items<Key>>(
      d_keys.data(), d_vals, d_keys.data(), d_vals, n, 0, (n + run - 1) / run, cmp,
      cudaStream_t{})));
  CUDA_REQUIRE(cudaDeviceSynchronize());
  const auto out = d_keys.to_host();
  const auto out_values = d_values.to_host();
  std::vector<char> used(static_cast<std::size_t>(n), 0);
  std::int64_t wrong = 0, first_wrong = -1;
  for (std::int64_t begin = 0; begin < n; begin += run) {
    const std::int64_t end = std::min(n, begin + run);
    std::vector<Key> expected(keys.begin() + begin, keys.begin() + end);
    std::sort(expected.begin(), expected.end(), cmp);
    for (std::int64_t i = begin; i < end; ++i) {
      // Equal under cmp at every position (ties in any order: not stable).
      bool ok = !cmp(out[i], expected[i - begin]) && !cmp(expected[i - begin], out[i]);
      if constexpr (pairs) {
        const std::size_t from = index_of_value(out_values[i]);
        ok = ok && from >= static_cast<std::size_t>(begin) && from < static_cast<std::size_t>(end) &&
             !used[from] && same_bits(keys[from], out[i]);
        if (from < used.size()) used[from] = 1;
      }
      if (!ok && wrong++ == 0) first_wrong = i;
    }
  }
  INFO("first wrong item " << first_wrong);
  CHECK(wrong == 0);
}

}  // namespace

template <class T>
__global__ void inclusive_sum_kernel(const T* in, T* out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = gpusort::warp::inclusive_sum(in[i]);
}

// Every warp of a 3-warp block sums its own lanes, which start again at each warp.
template <class T>
void run_inclusive_sum(const std::vector<T>& input) {
  REQUIRE(input.size() == 96);
  device_buffer<T> d_in(input), d_out(std::vector<T>(input.size(), T(-1)));
  inclusive_sum_kernel<<<1, 96>>>(d_in.data(), d_out.data());
  CUDA_REQUIRE(cudaGetLastError());
  CUDA_REQUIRE(cudaDeviceSynchronize());
  const auto out = d_out.to_host();
  for (std::size_t w = 0; w < 3; ++w) {
    T sum = 0;
    for (std::size_t lane = 0; lane < 32; ++lane) {
      sum += input[w * 32 + lane];
      INFO("warp " << w << ", lane " << lane);
      REQUIRE(out[w * 32 + lane] == sum);
    }
  }
}

TEST_CASE("warp::inclusive_sum sums each warp's lanes up to each lane", "[warp][sanitize]") {
  std::mt19937_64 rng(17);
  std::vector<int> small(96);
  for (auto& x : small) x = static_cast<int>(rng() % 2001) - 1000;  // negatives too
  run_inclusive_sum(small);
  std::vector<std::int64_t> large(96);  // sums beyond 32 bits
  for (auto& x : large) x = static_cast<std::int64_t>(rng() >> 30);
  run_inclusive_sum(large);
  run_inclusive_sum(std::vector<int>(96, 0));
}

TEST_CASE("warp::shared_bitonic_merge sorts every block, both directions", "[warp][sanitize]") {
  const int distinct = GENERATE(0, 3, 1);
  // warpsort's step-1 buffers (u32 keys 32 x 4 chunks, pairs 16 x 4, 16-byte keys 8 x 4):
  // every block size it merges, and the whole buffer.
  run_shared_merge<32, 4096, 11, std::uint32_t, no_value>(gpusort::less{}, distinct);
  run_shared_merge<32, 4096, 12, std::uint32_t, no_value>(gpusort::less{}, distinct);
  run_shared_merge<16, 2048, 10, std::uint32_t, std::uint32_t>(gpusort::greater{}, distinct);
  run_shared_merge<16, 2048, 11, std::uint64_t, no_value>(gpusort::less{}, distinct);
  run_shared_merge<8, 1024, 9, key16, no_value>(key16_less{}, distinct);
  run_shared_merge<8, 1024, 10, key16, value16>(key16_less{}, distinct);
  // 12-byte keys (three planes), merge_runs' small buffers, blocks of 32 M items.
  run_shared_merge<4, 512, 8, key12, std::uint32_t>(key12_less{}, distinct);
  run_shared_merge<2, 64, 6, float, std::uint64_t>(gpusort::total_less{}, distinct);
  run_shared_merge<4, 1024, 7, std::uint32_t, no_value>(gpusort::less{}, distinct);
  // warpsort's step-1 block runs: each warp merges within its part (sliced), then the warps
  // merge together (u32 keys 2 x 4096, pairs 2 x 2048; 16-byte pairs and u64 keys smaller).
  run_shared_merge<32, 8192, 11, std::uint32_t, no_value, 2, true>(gpusort::less{}, distinct);
  run_shared_merge<32, 8192, 12, std::uint32_t, no_value, 2, true>(gpusort::less{}, distinct);
  run_shared_merge<32, 8192, 13, std::uint32_t, no_value, 2>(gpusort::less{}, distinct);
  run_shared_merge<32, 8192, 12, std::uint32_t, no_value, 2>(gpusort::less{}, distinct);
  run_shared_merge<16, 4096, 12, std::uint32_t, std::uint32_t, 2>(gpusort::greater{}, distinct);
  run_shared_merge<16, 4096, 11, std::uint32_t, std::uint32_t, 2, true>(gpusort::greater{}, distinct);
  run_shared_merge<8, 1024, 10, key16, value16, 2>(key16_less{}, distinct);
  run_shared_merge<16, 4096, 12, std::uint64_t, no_value, 4>(gpusort::less{}, distinct);
  run_shared_merge<16, 4096, 10, std::uint64_t, no_value, 4, true>(gpusort::less{}, distinct);
}

TEST_CASE("warp::merge_runs merges two sorted runs", "[warp][sanitize]") {
  const int distinct = GENERATE(0, 3, 1);
  CAPTURE(distinct);
  run_merge_runs<2, std::uint32_t, no_value>(gpusort::less{}, awkward_lengths<2>(), distinct);
  run_merge_runs<4, std::uint32_t, std::uint32_t>(gpusort::greater{}, awkward_lengths<4>(), distinct);
  run_merge_runs<8, std::uint32_t, no_value>(gpusort::less{}, awkward_lengths<8>(), distinct);
  run_merge_runs<8, std::uint32_t, std::uint32_t>(gpusort::less{}, awkward_lengths<8>(), distinct);  // warpsort's pairs
  run_merge_runs<8, float, std::uint64_t>(gpusort::total_less{}, awkward_lengths<8>(), distinct);
  run_merge_runs<4, key16, value16>(key16_less{}, awkward_lengths<4>(), distinct);
  run_merge_runs<2, key12, std::uint32_t>(key12_less{}, awkward_lengths<2>(), distinct);
  run_merge_runs<4, key12, no_value>(key12_less{}, awkward_lengths<4>(), distinct);
  // 2-byte items, which cp.async cannot stage: ties copied one a lane at a time.
  run_merge_runs<4, std::uint16_t, std::uint16_t>(gpusort::less{}, awkward_lengths<4>(), distinct);
  // Blocks of 16 registers a lane or more, loaded one ahead (the others: one per run).
  run_merge_runs<32, std::uint32_t, no_value>(gpusort::less{}, awkward_lengths<32>(), distinct);
  run_merge_runs<8, key16, no_value>(key16_less{}, awkward_lengths<8>(), distinct);
}

TEST_CASE("warp::merge_four_runs merges four sorted runs", "[warp][sanitize]") {
  const int distinct = GENERATE(0, 3, 1);
  CAPTURE(distinct);
  run_merge_runs<2, std::uint32_t, no_value>(gpusort::less{}, awkward_four_lengths<2>(), distinct);
  run_merge_runs<4, std::uint32_t, std::uint32_t>(gpusort::greater{}, awkward_four_lengths<4>(), distinct);
  run_merge_runs<8, std::uint32_t, std::uint32_t>(gpusort::less{}, awkward_four_lengths<8>(), distinct);  // warpsort's pairs
  run_merge_runs<8, std::uint64_t, no_value>(gpusort::less{}, awkward_four_lengths<8>(), distinct);
  run_merge_runs<8, float, no_value>(gpusort::total_less{}, awkward_four_lengths<8>(), distinct);
  run_merge_runs<4, std::uint16_t, std::uint16_t>(gpusort::less{}, awkward_four_lengths<4>(), distinct);
  run_merge_runs<4, key12, no_value>(key12_less{}, awkward_four_lengths<4>(), distinct);
  // Blocks loaded one ahead: warpsort's u32 keys at t = 512 and 1024.
  run_merge_runs<16, std::uint32_t, no_value>(gpusort::less{}, awkward_four_lengths<16>(), distinct);
  run_merge_runs<32, std::uint32_t, no_value>(gpusort::less{}, awkward_four_lengths<32>(), distinct);
}

TEST_CASE("warp::merge_path finds thread::merge_path's co-rank on every diagonal", "[warp][sanitize]") {
  const int distinct = GENERATE(0, 3, 1);
  for (const auto& [a_count, b_count] :
       std::vector<std::pair<long long, long long>>{{0, 0}, {0, 40}, {40, 0}, {1, 1}, {32, 33},
                                                    {33, 32}, {1000, 7}, {7, 1000},
                                                    {100000, 70001}}) {
    run_merge_path<std::uint32_t>(a_count, b_count, distinct, gpusort::less{});
    run_merge_path<key16>(a_count, b_count, distinct, key16_less{});
  }
}

TEST_CASE("detail::sort_warp_run sorts every run at the library's shapes", "[warp][sanitize]") {
  using gpusort::detail::run_fill;
  using u32 = std::uint32_t;
  const int distinct = GENERATE(0, 3, 1);
  // deterministic_sample's full tiles: one chunk a warp (u32 keys, 8 warps; its half tile, 4;
  // u32:u32 pairs, 16 warps of 16 items a lane), and two chunks a warp for u64 keys.
  run_warp_runs<32, 1024, 8, run_fill::full, u32, no_value>(3 * 8192, gpusort::less{}, distinct);
  run_warp_runs<32, 1024, 4, run_fill::full, u32, no_value>(2 * 4096, gpusort::less{}, distinct);
  run_warp_runs<16, 512, 16, run_fill::full, u32, u32>(2 * 8192, gpusort::greater{}, distinct);
  run_warp_runs<16, 1024, 8, run_fill::full, std::uint64_t, no_value>(2 * 8192, gpusort::less{},
                                                                     distinct);
  // warpsort's and policy::merge's runs: four chunks a warp, four warps; the array's short last
  // run padded (keys whose ties are identical) or tagged (pairs), and a remainder of less than
  // one chunk sorted by one warp.
  run_warp_runs<32, 4096, 4, run_fill::full, u32, no_value>(2 * 16384, gpusort::less{}, distinct);
  run_warp_runs<32, 4096, 4, run_fill::padded, u32, no_value>(16384 + 5000, gpusort::less{},
                                                              distinct);
  run_warp_runs<16, 2048, 4, run_fill::tagged, u32, u32>(8192 + 3001, gpusort::less{}, distinct);
  run_warp_runs<32, 1024, 1, run_fill::tagged, u32, no_value>(700, gpusort::less{}, distinct);
}
