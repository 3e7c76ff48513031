// policy::randomized_sample on the inputs of bench_sort (bench/sort/sort_grid.cuh).
#include "sort_grid.cuh"

void gpusort_bench::register_randomized_sample_grid() {
  register_policy_grid<gpusort::policy::randomized_sample>("gpusort_randomized_sample");
}
