// GPU tests of the bitonic building blocks: warp::bitonic_sort, warp::bitonic_merge,
// block::bitonic_sort (full and ragged tiles), block::bitonic_merge and block tile I/O,
// each against std::sort on the host, keys-only and with values travelling with keys.
#include "common/bits.cuh"
#include "common/catch.hpp"
#include "common/key_types.cuh"

#include <gpusort/block/bitonic_merge.cuh>
#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/tile_io.cuh>
#include <gpusort/compare.cuh>
#include <gpusort/warp/bitonic_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

using gpusort::detail::no_value;
using namespace gpusort_test;

// top_ties: random bits, and every 97th key a copy of the one that sorts last, so that a
// ragged tile's largest key ties a few times (the set-aside path of the ragged sort).
enum class fill { random_bits, three_distinct, all_equal, top_ties };

// Random bit patterns: floats then include NaNs of both signs, ±0, ±inf and subnormals,
// which total_less must order like any other key.
template <class Key>
std::vector<Key> make_keys(std::size_t n, fill f, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto random_key = [&] {
    unsigned char bytes[sizeof(Key)];
    for (auto& b : bytes) b = static_cast<unsigned char>(rng());
    Key k;
    std::memcpy(&k, bytes, sizeof(Key));
    return k;
  };
  const Key pool[3] = {random_key(), random_key(), random_key()};
  std::vector<Key> keys(n);
  for (auto& k : keys) {
    switch (f) {
      case fill::random_bits:
      case fill::top_ties: k = random_key(); break;
      case fill::three_distinct: k = pool[rng() % 3]; break;
      case fill::all_equal: k = pool[0]; break;
    }
  }
  return keys;
}

#define CUDA_REQUIRE(call) REQUIRE((call) == cudaSuccess)

template <class T>
struct device_array {
  T* ptr = nullptr;
  explicit device_array(const std::vector<T>& host) {
    CUDA_REQUIRE(cudaMalloc(&ptr, std::max<std::size_t>(1, host.size()) * sizeof(T)));
    if (!host.empty())
      CUDA_REQUIRE(cudaMemcpy(ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> to_host(std::size_t n) const {
    std::vector<T> host(n);
    if (n) CUDA_REQUIRE(cudaMemcpy(host.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  ~device_array() { cudaFree(ptr); }
};

// ---- kernels --------------------------------------------------------------------------

template <class Compare>
struct reversed {
  Compare cmp;
  template <class Key>
  __host__ __device__ bool operator()(const Key& a, const Key& b) const { return cmp(b, a); }
};

template <int ITEMS, class Key, class Value, class Compare>
__global__ void warp_sort_kernel(Key* keys, Value* values, Compare cmp) {
  constexpr int span = 32 * ITEMS;
  const int warp_global = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  Key k[ITEMS];
  Value v[ITEMS];
  const long long base = static_cast<long long>(warp_global) * span + lane * ITEMS;
  for (int r = 0; r < ITEMS; ++r) {
    k[r] = keys[base + r];
    if constexpr (!std::is_same<Value, no_value>::value) v[r] = values[base + r];
  }
  gpusort::warp::bitonic_sort<ITEMS>(k, v, cmp);
  for (int r = 0; r < ITEMS; ++r) {
    keys[base + r] = k[r];
    if constexpr (!std::is_same<Value, no_value>::value) values[base + r] = v[r];
  }
}

template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS)
    block_sort_kernel(Key* keys, Value* values, long long n, Compare cmp, bool merge_only) {
  constexpr int tile = THREADS * ITEMS;
  __shared__ union {
    gpusort::block::ragged_bitonic_sort_storage<Key, Value, THREADS, ITEMS> sort;
    gpusort::block::bitonic_sort_storage<Key, Value, THREADS, ITEMS> merge;
    gpusort::block::tile_buffer<THREADS, ITEMS, Key> key_io;
    gpusort::block::tile_buffer<THREADS, ITEMS, Value> value_io;
  } shared;
  const long long offset = static_cast<long long>(blockIdx.x) * tile;
  const int valid = static_cast<int>(n - offset < tile ? n - offset : tile);
  Key k[ITEMS];
  Value v[ITEMS];
  gpusort::block::load_blocked<THREADS>(keys + offset, k, valid, shared.key_io);
  if constexpr (!std::is_same<Value, no_value>::value)
    gpusort::block::load_blocked<THREADS>(values + offset, v, valid, shared.value_io);
  if (merge_only) {
    gpusort::block::bitonic_merge<THREADS>(k, v, cmp, shared.merge);
  } else {
    gpusort::block::bitonic_sort<THREADS>(k, v, valid, cmp, shared.sort);
  }
  __syncthreads();
  gpusort::block::store_blocked<THREADS>(keys + offset, k, valid, shared.key_io);
  if constexpr (!std::is_same<Value, no_value>::value)
    gpusort::block::store_blocked<THREADS>(values + offset, v, valid, shared.value_io);
}

// ---- checks ---------------------------------------------------------------------------

// Sorts each chunk of `chunk` items of `input` on the host and compares bit for bit; with
// values, each output value is the input index of the key beside it, used exactly once.
template <class Key, class Value, class Compare>
void check_chunks_sorted(const std::vector<Key>& input, const std::vector<Key>& out_keys,
                         const std::vector<Value>& out_values, std::size_t chunk,
                         Compare cmp, bool with_values) {
  std::vector<char> used(input.size(), 0);
  for (std::size_t begin = 0; begin < input.size(); begin += chunk) {
    const std::size_t end = std::min(input.size(), begin + chunk);
    std::vector<Key> expected(input.begin() + begin, input.begin() + end);
    std::sort(expected.begin(), expected.end(), cmp);
    for (std::size_t i = begin; i < end; ++i) {
      INFO("chunk at " << begin << ", item " << i);
      REQUIRE(same_bits(out_keys[i], expected[i - begin]));
      if (with_values) {
        const std::size_t from = index_of_value(out_values[i]);
        REQUIRE(from >= begin);
        REQUIRE(from < end);
        REQUIRE(!used[from]);
        used[from] = 1;
        REQUIRE(same_bits(input[from], out_keys[i]));
      }
    }
  }
}

template <class Value>
std::vector<Value> index_values(std::size_t n) {
  std::vector<Value> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = value_of_index<Value>(i);
  return values;
}

template <int ITEMS, class Key, class Value, class Compare>
void run_warp_sort(Compare cmp, fill f, bool descending) {
  constexpr int span = 32 * ITEMS;
  const std::size_t n = span * 6;  // 6 warps in 3 blocks of 64 threads
  const auto input = make_keys<Key>(n, f, 42 + ITEMS);
  const auto values = index_values<Value>(n);
  device_array<Key> d_keys(input);
  device_array<Value> d_values(values);
  if (descending) {
    warp_sort_kernel<ITEMS, Key, Value><<<3, 64>>>(d_keys.ptr, d_values.ptr, reversed<Compare>{cmp});
  } else {
    warp_sort_kernel<ITEMS, Key, Value><<<3, 64>>>(d_keys.ptr, d_values.ptr, cmp);
  }
  CUDA_REQUIRE(cudaGetLastError());
  CUDA_REQUIRE(cudaDeviceSynchronize());
  constexpr bool with_values = !std::is_same<Value, no_value>::value;
  auto out = d_keys.to_host(n);
  auto out_values = with_values ? d_values.to_host(n) : values;
  if (descending) {
    check_chunks_sorted(input, out, out_values, span, reversed<Compare>{cmp}, with_values);
  } else {
    check_chunks_sorted(input, out, out_values, span, cmp, with_values);
  }
}

template <int THREADS, int ITEMS, class Key, class Value, class Compare>
void run_block_sort(Compare cmp, fill f, long long n) {
  constexpr int tile = THREADS * ITEMS;
  auto input = make_keys<Key>(n, f, 7 + n);
  if (f == fill::top_ties && n > 0) {
    const Key top = *std::max_element(input.begin(), input.end(), cmp);
    for (long long i = 0; i < n; i += 97) input[i] = top;
  }
  const auto values = index_values<Value>(n);
  device_array<Key> d_keys(input);
  device_array<Value> d_values(values);
  const unsigned blocks = static_cast<unsigned>((n + tile - 1) / tile);
  if (blocks) {
    block_sort_kernel<THREADS, ITEMS><<<blocks, THREADS>>>(d_keys.ptr, d_values.ptr, n, cmp, false);
    CUDA_REQUIRE(cudaGetLastError());
    CUDA_REQUIRE(cudaDeviceSynchronize());
  }
  constexpr bool with_values = !std::is_same<Value, no_value>::value;
  check_chunks_sorted(input, d_keys.to_host(n), with_values ? d_values.to_host(n) : values, tile,
                      cmp, with_values);
}

// Each tile holds a sorted run followed by a reverse-sorted run: a bitonic sequence.
template <int THREADS, int ITEMS, class Key, class Compare>
void run_block_merge(Compare cmp, fill f, int first_run) {
  constexpr int tile = THREADS * ITEMS;
  const int tiles = 3;
  auto input = make_keys<Key>(tile * tiles, f, 99 + first_run);
  for (int t = 0; t < tiles; ++t) {
    auto begin = input.begin() + t * tile;
    std::sort(begin, begin + first_run, cmp);
    std::sort(begin + first_run, begin + tile, [&](const Key& a, const Key& b) { return cmp(b, a); });
  }
  const auto values = index_values<std::uint32_t>(input.size());
  device_array<Key> d_keys(input);
  device_array<std::uint32_t> d_values(values);
  block_sort_kernel<THREADS, ITEMS><<<tiles, THREADS>>>(d_keys.ptr, d_values.ptr,
                                                       static_cast<long long>(input.size()), cmp, true);
  CUDA_REQUIRE(cudaGetLastError());
  CUDA_REQUIRE(cudaDeviceSynchronize());
  check_chunks_sorted(input, d_keys.to_host(input.size()), d_values.to_host(input.size()), tile,
                      cmp, true);
}

}  // namespace

TEST_CASE("warp::bitonic_sort sorts each warp's items", "[warp][sanitize]") {
  const fill f = GENERATE(fill::random_bits, fill::three_distinct, fill::all_equal);
  const bool descending = GENERATE(false, true);
  run_warp_sort<1, std::uint32_t, std::uint32_t>(gpusort::less{}, f, descending);
  run_warp_sort<4, std::int32_t, std::uint64_t>(gpusort::less{}, f, descending);
  run_warp_sort<8, float, std::uint32_t>(gpusort::total_less{}, f, descending);
  run_warp_sort<4, key16, value16>(key16_less{}, f, descending);
  run_warp_sort<2, key12, std::uint32_t>(key12_less{}, f, descending);
  // Keys alone whose ties are the same bits (ascending: their own comparators), whose
  // cross-lane steps let the upper lane take an equal partner's key.
  run_warp_sort<16, std::uint64_t, no_value>(gpusort::less{}, f, descending);
  run_warp_sort<32, std::uint32_t, no_value>(gpusort::greater{}, f, descending);
  run_warp_sort<8, double, no_value>(gpusort::total_less{}, f, descending);
  run_warp_sort<4, std::int32_t, no_value>(gpusort::less{}, f, descending);
}

TEST_CASE("block::bitonic_sort sorts full and ragged tiles", "[block][sanitize]") {
  const fill f = GENERATE(fill::random_bits, fill::three_distinct, fill::all_equal, fill::top_ties);
  // Sizes around the 1024-item tile: single item, ragged last tiles, exact multiples.
  const long long n = GENERATE(0LL, 1LL, 2LL, 31LL, 33LL, 1023LL, 1024LL, 1025LL, 3000LL, 4096LL);
  CAPTURE(n);
  run_block_sort<128, 8, std::uint32_t, std::uint32_t>(gpusort::greater{}, f, n);
  run_block_sort<64, 16, std::uint64_t, std::uint64_t>(gpusort::less{}, f, n);
  run_block_sort<128, 8, double, value16>(gpusort::total_less{}, f, n);
  run_block_sort<32, 32, float, no_value>(gpusort::total_less{}, f, n);
  run_block_sort<128, 4, key16, std::uint32_t>(key16_less{}, f, n);
  run_block_sort<64, 8, key12, no_value>(key12_less{}, f, n);
  run_block_sort<256, 4, std::int64_t, no_value>(gpusort::less{}, f, n);
  run_block_sort<256, 16, std::int32_t, no_value>(gpusort::less{}, f, n);
}

TEST_CASE("block::bitonic_sort at the tile sizes the sorts use", "[block]") {
  const fill f = GENERATE(fill::random_bits, fill::three_distinct, fill::top_ties);
  const long long n = GENERATE(4096LL * 5, 4096LL * 5 - 1, 8192LL * 3 + 17);
  CAPTURE(n);
  run_block_sort<256, 8, std::uint32_t, std::uint32_t>(gpusort::less{}, f, n);
  run_block_sort<512, 8, std::uint32_t, no_value>(gpusort::less{}, f, n);
  run_block_sort<256, 8, std::uint64_t, no_value>(gpusort::less{}, f, n);
}

TEST_CASE("block::bitonic_merge merges a sorted and a reverse-sorted run", "[block][sanitize]") {
  const fill f = GENERATE(fill::random_bits, fill::three_distinct, fill::all_equal);
  const int first_run = GENERATE(0, 1, 100, 512, 1023);
  CAPTURE(first_run);
  run_block_merge<128, 8, std::uint32_t>(gpusort::less{}, f, first_run);
  run_block_merge<32, 32, std::uint64_t>(gpusort::less{}, f, first_run);  // one warp: warp merge
  run_block_merge<256, 4, key16>(key16_less{}, f, first_run);
}

// A comparator that short-circuits reads some fields only on some paths; picking its
// operands by a per-lane reference once kept every struct key of these networks in local
// memory (16-byte key sorts 1.6-4x slower). Stack use is what ptxas gave each kernel.
TEST_CASE("the networks keep struct keys in registers under a short-circuiting comparator",
          "[warp][block]") {
  const auto local_bytes = [](const void* kernel) {
    cudaFuncAttributes attributes{};
    CUDA_REQUIRE(cudaFuncGetAttributes(&attributes, kernel));
    return attributes.localSizeBytes;
  };
  CHECK(local_bytes(reinterpret_cast<const void*>(
            &warp_sort_kernel<4, key16, no_value, key16_less>)) == 0);
  CHECK(local_bytes(reinterpret_cast<const void*>(
            &warp_sort_kernel<2, key12, std::uint32_t, key12_less>)) == 0);
  CHECK(local_bytes(reinterpret_cast<const void*>(
            &block_sort_kernel<128, 4, key16, std::uint32_t, key16_less>)) == 0);
}
