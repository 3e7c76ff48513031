// Micro-benchmark of the tile-local sort (Dehne & Zaboli step 2, and the bucket sort of step 9):
// gpusort::block::bitonic_sort against cub::BlockMergeSort on the same tiles. Each thread block
// loads one tile with block::load_blocked, sorts it in registers/shared memory and stores it
// with block::store_blocked; both sorts use the same tile I/O, the same THREADS x ITEMS and the
// same barrier before the store, so the difference is the sort alone. About 2^26 keys in
// tiles of 2K, 4K and 8K, u32 and u64, uniform. Names differ only in the sort
// ("block_sort/bitonic/..." vs "block_sort/cub_merge/..."), so the ratio is one division.
#include "common/harness.cuh"

#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/no_value.cuh>

#include <cub/block/block_merge_sort.cuh>

#include <cstdint>
#include <string>

using namespace gpusort_bench;

namespace {

constexpr std::int64_t total_keys = std::int64_t(1) << 26;

template <int THREADS, int ITEMS, class Key>
union bitonic_shared {
  gpusort::block::tile_buffer<THREADS, ITEMS, Key> io;
  gpusort::block::bitonic_sort_storage<Key, gpusort::detail::no_value, THREADS, ITEMS> sort;
};

template <int THREADS, int ITEMS, class Key>
union cub_shared {
  gpusort::block::tile_buffer<THREADS, ITEMS, Key> io;
  typename cub::BlockMergeSort<Key, THREADS, ITEMS>::TempStorage sort;
};

// One tile per block: load, sort with `sort_tile(items, shared)`, store. The two kernels
// below differ only in that call.
template <int THREADS, int ITEMS, class Shared, class Key, class SortTile>
__device__ __forceinline__ void sort_one_tile(Key* keys, SortTile sort_tile) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto& shared = *reinterpret_cast<Shared*>(shared_bytes);
  constexpr int tile = THREADS * ITEMS;
  Key* tile_keys = keys + static_cast<std::int64_t>(blockIdx.x) * tile;
  Key items[ITEMS];
  gpusort::block::load_blocked<THREADS, ITEMS>(tile_keys, items, tile, shared.io);
  sort_tile(items, shared);
  __syncthreads();  // the sort's storage becomes the store's buffer
  gpusort::block::store_blocked<THREADS, ITEMS>(tile_keys, items, tile, shared.io);
}

template <int THREADS, int ITEMS, class Key, class Compare>
__global__ void __launch_bounds__(THREADS) bitonic_tiles(Key* keys, Compare cmp) {
  using Shared = bitonic_shared<THREADS, ITEMS, Key>;
  sort_one_tile<THREADS, ITEMS, Shared>(keys, [cmp](Key (&items)[ITEMS], Shared& shared) {
    gpusort::detail::no_value values[ITEMS];
    gpusort::block::bitonic_sort<THREADS>(items, values, cmp, shared.sort);
  });
}

template <int THREADS, int ITEMS, class Key, class Compare>
__global__ void __launch_bounds__(THREADS) cub_merge_tiles(Key* keys, Compare cmp) {
  using Shared = cub_shared<THREADS, ITEMS, Key>;
  sort_one_tile<THREADS, ITEMS, Shared>(keys, [cmp](Key (&items)[ITEMS], Shared& shared) {
    cub::BlockMergeSort<Key, THREADS, ITEMS>(shared.sort).Sort(items, cmp);
  });
}

template <class Kernel>
cudaError_t allow_shared(Kernel kernel, std::size_t bytes) {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(bytes));
}

template <class Key, int THREADS, int ITEMS, bool BITONIC>
void bench_tiles(benchmark::State& state) {
  constexpr int tile = THREADS * ITEMS;
  const std::int64_t n = total_keys / tile * tile;
  using Compare = gpusort::less;
  auto kernel = BITONIC ? &bitonic_tiles<THREADS, ITEMS, Key, Compare>
                        : &cub_merge_tiles<THREADS, ITEMS, Key, Compare>;
  const std::size_t shared = BITONIC ? sizeof(bitonic_shared<THREADS, ITEMS, Key>)
                                     : sizeof(cub_shared<THREADS, ITEMS, Key>);
  try {
    sort_data<Key> data(n, distribution::uniform);
    data.verify_segment = tile;
    const cudaError_t status = allow_shared(kernel, shared);
    if (status != cudaSuccess) {
      state.SkipWithError(cudaGetErrorString(status));
      for (auto _ : state) {
      }
      return;
    }
    run_sort(state, data,
             [&](void* d_temp, std::size_t& temp_bytes, sort_data<Key>& d, cudaStream_t s) {
               if (d_temp == nullptr) {
                 temp_bytes = 0;
                 return cudaSuccess;
               }
               kernel<<<static_cast<unsigned>(n / tile), THREADS, shared, s>>>(d.keys(),
                                                                               Compare{});
               return cudaGetLastError();
             });
    state.counters["tiles"] = static_cast<double>(n / tile);
    state.counters["shared_KB"] = static_cast<double>(shared) / 1024.0;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

template <class Key, int THREADS, int ITEMS>
void register_tile_size() {
  const std::string shape = "/" + std::string(type_name<Key>()) + "/tile:" +
                            std::to_string(THREADS * ITEMS) + "/" + std::to_string(THREADS) + "x" +
                            std::to_string(ITEMS);
  configure(benchmark::RegisterBenchmark(("block_sort/bitonic" + shape).c_str(),
                                         &bench_tiles<Key, THREADS, ITEMS, true>));
  configure(benchmark::RegisterBenchmark(("block_sort/cub_merge" + shape).c_str(),
                                         &bench_tiles<Key, THREADS, ITEMS, false>));
}

// Each tile size in several block shapes: both sorts get their best shape (RESULTS.md
// compares best with best).
template <class Key>
void register_key() {
  register_tile_size<Key, 256, 8>();   // 2K
  register_tile_size<Key, 128, 16>();
  register_tile_size<Key, 64, 32>();
  register_tile_size<Key, 512, 8>();   // 4K
  register_tile_size<Key, 256, 16>();
  register_tile_size<Key, 128, 32>();
  register_tile_size<Key, 512, 16>();  // 8K
  register_tile_size<Key, 256, 32>();
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argc, argv, [] {
    register_key<std::uint32_t>();
    register_key<std::uint64_t>();
  });
}
