// The gpusort policies through the public two-phase API, side by side with CUB's radix and
// merge sorts on the same inputs in the same process (DESIGN.md §5); the inputs are listed
// in bench/sort/sort_grid.cuh. Filter with --benchmark_filter, e.g. 'n:2\^28' or
// 'gpusort_warpsort|cub'.
#include "sort/sort_grid.cuh"

int main(int argc, char** argv) {
  return gpusort_bench::run_main(argc, argv, [] {
    gpusort_bench::register_cub_grid();
    gpusort_bench::register_merge_grid();
    gpusort_bench::register_warpsort_grid();
    gpusort_bench::register_randomized_sample_grid();
    gpusort_bench::register_deterministic_sample_grid();
    gpusort_bench::register_automatic_grid();
  });
}
