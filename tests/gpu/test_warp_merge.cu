// GPU tests of the warp blocks of GPU-Warpsort: warp::load_blocked / store_blocked (the
// barrier-free tile I/O) and warp::merge_runs (the t-item bitonic buffer merge), against
// plain host references, keys only and with values travelling with their keys; and
// warp::merge_path (the merge passes' partition) against thread::merge_path; and
// warp::inclusive_sum against a host prefix sum.
#include "common/bits.cuh"
#include "common/catch.hpp"
#include "common/device_buffer.cuh"
#include "common/key_types.cuh"

#include <gpusort/compare.cuh>
#include <gpusort/thread/merge_path.cuh>
#include <gpusort/warp/inclusive_sum.cuh>
#include <gpusort/warp/merge_path.cuh>
#include <gpusort/warp/merge_runs.cuh>
#include <gpusort/warp/tile_io.cuh>

#include <algorithm>
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

// Each warp loads its tile (ragged at `valid`) and stores it back to `out`; the slots past
// `valid` must hold a copy of item 0 (counted in *bad otherwise).
template <int ITEMS, class T>
__global__ void tile_io_kernel(const T* in, T* out, int valid, int* bad) {
  __shared__ gpusort::warp::tile_buffer<ITEMS, T> buffers[2];
  const int w = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const T* tile = in + w * 32 * ITEMS;
  T items[ITEMS];
  gpusort::warp::load_blocked<ITEMS>(tile, items, valid, buffers[w]);
  for (int r = 0; r < ITEMS; ++r) {
    const T& expected = lane * ITEMS + r < valid ? tile[lane * ITEMS + r] : tile[0];
    const unsigned char* x = reinterpret_cast<const unsigned char*>(&items[r]);
    const unsigned char* y = reinterpret_cast<const unsigned char*>(&expected);
    bool same = true;
    for (std::size_t i = 0; i < sizeof(T); ++i) same = same && x[i] == y[i];
    if (!same) atomicAdd(bad, 1);
  }
  gpusort::warp::store_blocked<ITEMS>(out + w * 32 * ITEMS, items, valid, buffers[w]);
}

// Warp w merges runs a[w] and b[w] (given by offsets and counts) into out at out_offsets[w].
template <int M, class Key, class Value, class Compare>
__global__ void merge_runs_kernel(const Key* keys, const Value* values, const long long* a_begin,
                                  const long long* a_count, const long long* b_begin,
                                  const long long* b_count, const long long* out_begin,
                                  Key* out, Value* out_values, int warps, Compare cmp) {
  __shared__ gpusort::warp::merge_runs_storage<Key, Value, M> storage[2];
  const int w = blockIdx.x * 2 + threadIdx.x / 32;
  if (w >= warps) return;
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  gpusort::warp::merge_runs<M>(keys + a_begin[w], pairs ? values + a_begin[w] : values, a_count[w],
                               keys + b_begin[w], pairs ? values + b_begin[w] : values, b_count[w],
                               out + out_begin[w], pairs ? out_values + out_begin[w] : out_values,
                               cmp, storage[threadIdx.x / 32]);
}

// ---- checks -------------------------------------------------------------------------------

template <int ITEMS, class T>
void run_tile_io(int valid) {
  constexpr int tile = 32 * ITEMS;
  const auto input = make_keys<T>(2 * tile, 0, 5 + valid);
  const std::vector<T> poison(2 * tile, make_keys<T>(1, 0, 999)[0]);
  device_buffer<T> d_in(input), d_out(poison);
  device_buffer<int> d_bad(std::vector<int>(1, 0));
  tile_io_kernel<ITEMS><<<1, 64>>>(d_in.data(), d_out.data(), valid, d_bad.data());
  CUDA_REQUIRE(cudaGetLastError());
  CUDA_REQUIRE(cudaDeviceSynchronize());
  REQUIRE(d_bad.to_host()[0] == 0);
  const auto out = d_out.to_host();
  for (int w = 0; w < 2; ++w) {
    for (int i = 0; i < tile; ++i) {
      INFO("warp " << w << " item " << i << " valid " << valid);
      // Within `valid` a round trip; past it nothing is written (the poison stays).
      const T expected = i < valid ? input[w * tile + i] : poison[0];
      REQUIRE(same_bits(out[w * tile + i], expected));
    }
  }
}

// Merges `cases` pairs of runs with the given lengths, laid out one after the other.
template <int M, class Key, class Value, class Compare>
void run_merge_runs(Compare cmp, const std::vector<std::pair<long long, long long>>& lengths,
                    int distinct) {
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  std::vector<long long> a_begin, a_count, b_begin, b_count, out_begin;
  long long total = 0;
  for (const auto& l : lengths) {
    a_begin.push_back(total);
    a_count.push_back(l.first);
    b_begin.push_back(total + l.first);
    b_count.push_back(l.second);
    out_begin.push_back(total);
    total += l.first + l.second;
  }
  auto keys = make_keys<Key>(static_cast<std::size_t>(total), distinct, 17 + total + M);
  for (std::size_t w = 0; w < lengths.size(); ++w) {
    std::sort(keys.begin() + a_begin[w], keys.begin() + a_begin[w] + a_count[w], cmp);
    std::sort(keys.begin() + b_begin[w], keys.begin() + b_begin[w] + b_count[w], cmp);
  }
  std::vector<Value> values(static_cast<std::size_t>(total));
  if constexpr (pairs)
    for (long long i = 0; i < total; ++i) values[i] = value_of_index<Value>(i);
  device_buffer<Key> d_keys(keys), d_out(std::vector<Key>(static_cast<std::size_t>(total)));
  device_buffer<Value> d_values(values), d_out_values(values);
  device_buffer<long long> d_ab(a_begin), d_ac(a_count), d_bb(b_begin), d_bc(b_count), d_ob(out_begin);
  const int warps = static_cast<int>(lengths.size());
  merge_runs_kernel<M><<<(warps + 1) / 2, 64>>>(d_keys.data(), pairs ? d_values.data() : nullptr,
                                                d_ab.data(), d_ac.data(), d_bb.data(), d_bc.data(), d_ob.data(),
                                                d_out.data(), pairs ? d_out_values.data() : nullptr,
                                                warps, cmp);
  CUDA_REQUIRE(cudaGetLastError());
  CUDA_REQUIRE(cudaDeviceSynchronize());
  const auto out = d_out.to_host();
  const auto out_values = d_out_values.to_host();
  std::vector<char> used(static_cast<std::size_t>(total), 0);
  for (std::size_t w = 0; w < lengths.size(); ++w) {
    std::vector<Key> expected(keys.begin() + a_begin[w],
                              keys.begin() + a_begin[w] + a_count[w] + b_count[w]);
    std::sort(expected.begin(), expected.end(), cmp);
    for (long long i = 0; i < a_count[w] + b_count[w]; ++i) {
      INFO("M " << M << " runs " << a_count[w] << " + " << b_count[w] << ", output " << i);
      const Key& got = out[out_begin[w] + i];
      // Equal under cmp at every position (ties may come in any order, not stable).
      REQUIRE(!cmp(got, expected[i]));
      REQUIRE(!cmp(expected[i], got));
      if constexpr (pairs) {
        const std::size_t from = index_of_value(out_values[out_begin[w] + i]);
        REQUIRE(from >= static_cast<std::size_t>(a_begin[w]));
        REQUIRE(from < static_cast<std::size_t>(a_begin[w] + a_count[w] + b_count[w]));
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
std::vector<std::pair<long long, long long>> awkward_lengths() {
  const long long h = 16 * M;
  return {{0, 1},          {1, 0},         {1, 1},          {h, h},           {h - 1, h + 1},
          {h + 1, 0},      {0, 3 * h + 5}, {5 * h, 3},      {7, 9 * h - 1},   {4 * h, 4 * h},
          {10 * h + 3, 10 * h + 11},       {2 * h - 1, 1}, {1000, 999},      {4096, 4096}};
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

TEST_CASE("warp::load_blocked / store_blocked round trip, full and ragged", "[warp][sanitize]") {
  const int valid = GENERATE(1, 31, 32, 33, 127, 128);
  run_tile_io<4, std::uint32_t>(valid);
  run_tile_io<4, key16>(valid);
  run_tile_io<4, key12>(valid);
}

TEST_CASE("warp::merge_runs merges two sorted runs", "[warp][sanitize]") {
  const int distinct = GENERATE(0, 3, 1);
  CAPTURE(distinct);
  run_merge_runs<2, std::uint32_t, no_value>(gpusort::less{}, awkward_lengths<2>(), distinct);
  run_merge_runs<4, std::uint32_t, std::uint32_t>(gpusort::greater{}, awkward_lengths<4>(), distinct);
  run_merge_runs<8, std::uint32_t, no_value>(gpusort::less{}, awkward_lengths<8>(), distinct);
  run_merge_runs<8, float, std::uint64_t>(gpusort::total_less{}, awkward_lengths<8>(), distinct);
  run_merge_runs<4, key16, value16>(key16_less{}, awkward_lengths<4>(), distinct);
  run_merge_runs<2, key12, std::uint32_t>(key12_less{}, awkward_lengths<2>(), distinct);
  run_merge_runs<4, key12, no_value>(key12_less{}, awkward_lengths<4>(), distinct);
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
