// policy::automatic on the inputs of bench_sort (bench/sort/sort_grid.cuh): what it costs
// against the best single policy of the same run, row by row.
#include "sort_grid.cuh"

void gpusort_bench::register_automatic_grid() {
  register_policy_grid<gpusort::policy::automatic>("gpusort_automatic");
}
