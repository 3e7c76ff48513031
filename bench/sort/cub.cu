// CUB's radix and merge sorts on the inputs of bench_sort (bench/sort/sort_grid.cuh).
#include "sort_grid.cuh"

namespace {
struct cub_registrar {
  template <class Key, class Value, class Compare>
  void apply(std::int64_t n, gpusort_bench::distribution d) const {
    gpusort_bench::cub_baseline::register_baselines<Key, Value, Compare>(n, d);
  }
};
}  // namespace

void gpusort_bench::register_cub_grid() { for_each_sort_input(cub_registrar{}); }
