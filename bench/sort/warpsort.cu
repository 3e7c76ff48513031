// policy::warpsort on the inputs of bench_sort (bench/sort/sort_grid.cuh).
#include "sort_grid.cuh"

void gpusort_bench::register_warpsort_grid() {
  register_policy_grid<gpusort::policy::warpsort>("gpusort_warpsort");
}
