// policy::deterministic_sample on the inputs of bench_sort (bench/sort/sort_grid.cuh).
#include "sort_grid.cuh"

void gpusort_bench::register_deterministic_sample_grid() {
  register_policy_grid<gpusort::policy::deterministic_sample>("gpusort_deterministic_sample");
}
