// policy::merge on the inputs of bench_sort (bench/sort/sort_grid.cuh).
#include "sort_grid.cuh"

void gpusort_bench::register_merge_grid() {
  register_policy_grid<gpusort::policy::merge>("gpusort_merge");
}
