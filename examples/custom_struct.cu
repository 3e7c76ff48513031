// Example: sort your own struct with your own comparator.
//
// Any trivially copyable type can be a key, and any strict weak ordering callable in device
// code can be the comparator: no radix decomposition, no operator< needed. Here a work queue
// is ordered by priority (highest first), then by deadline (earliest first). The id is not
// part of the order, so tasks that compare equal keep their input order: policy::merge is
// stable, and the result must equal std::stable_sort's with the same comparator.
#include <gpusort/gpusort.cuh>

#include "example_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

struct task {
  std::int32_t priority;   // larger runs first
  std::uint32_t deadline;  // then earlier first
  std::uint64_t id;        // not compared: a tie keeps its input order
};

// __host__ __device__ so that the GPU sort and the host reference use the very same order.
struct by_urgency {
  __host__ __device__ bool operator()(const task& a, const task& b) const {
    if (a.priority != b.priority) return a.priority > b.priority;
    return a.deadline < b.deadline;
  }
};

int main() {
  example::require_gpu("custom_struct");

  const std::int64_t n = 300007;
  std::vector<task> tasks(n);
  std::mt19937 rng(42);
  for (std::int64_t i = 0; i < n; ++i) {
    // Few priorities and deadlines, so that many tasks tie and stability matters.
    tasks[i] = task{static_cast<std::int32_t>(rng() % 8) - 4,
                    static_cast<std::uint32_t>(rng() % 1000), static_cast<std::uint64_t>(i)};
  }

  task* d_tasks = nullptr;
  example::check(cudaMalloc(&d_tasks, n * sizeof(task)), "cudaMalloc");
  example::check(cudaMemcpy(d_tasks, tasks.data(), n * sizeof(task), cudaMemcpyHostToDevice),
                 "copy to device");

  // The comparator is the fourth argument of the convenience overload.
  example::check(gpusort::sort_keys(gpusort::policy::merge{}, d_tasks, n, by_urgency{}),
                 "gpusort::sort_keys");

  std::vector<task> sorted(n);
  example::check(cudaMemcpy(sorted.data(), d_tasks, n * sizeof(task), cudaMemcpyDeviceToHost),
                 "copy to host");
  example::check(cudaFree(d_tasks), "cudaFree");

  std::stable_sort(tasks.begin(), tasks.end(), by_urgency{});
  bool ok = true;
  for (std::int64_t i = 0; ok && i < n; ++i) {
    ok = sorted[i].priority == tasks[i].priority && sorted[i].deadline == tasks[i].deadline &&
         sorted[i].id == tasks[i].id;
  }
  std::printf("custom_struct: sorted %lld tasks; most urgent: priority %d, deadline %u, id %llu\n",
              static_cast<long long>(n), sorted.front().priority, sorted.front().deadline,
              static_cast<unsigned long long>(sorted.front().id));
  return example::verdict("custom_struct", ok, "equal to std::stable_sort (by_urgency)");
}
