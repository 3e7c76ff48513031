// Example: the same sort over NCCL, one process per GPU (the way it runs across hosts).
//
//   gpusort::nccl::sort_keys(comm, d_keys, count)
//
// The parent makes an NCCL unique id and starts one process per GPU (fork + exec of itself,
// the id passed on the command line in hex). Every rank generates its own keys, sorts with
// gpusort::nccl::sort_keys and checks that its shard is sorted and that its first key is
// not below the previous rank's last key (received from that rank with ncclRecv). On a
// one-GPU machine this is one rank: NCCL does not put two ranks on one GPU.
#include <gpusort/nccl.cuh>

#include "example_util.cuh"

#include <nccl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

std::string to_hex(const ncclUniqueId& id) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (char c : id.internal) {
    s += digits[(static_cast<unsigned char>(c) >> 4) & 15];
    s += digits[static_cast<unsigned char>(c) & 15];
  }
  return s;
}

ncclUniqueId from_hex(const char* s) {
  ncclUniqueId id;
  for (std::size_t i = 0; i < sizeof(id.internal); ++i) {
    const std::string byte(s + 2 * i, 2);
    id.internal[i] = static_cast<char>(std::stoi(byte, nullptr, 16));
  }
  return id;
}

void check_nccl(ncclResult_t result, const char* what) {
  if (result != ncclSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, ncclGetErrorString(result));
    std::exit(EXIT_FAILURE);
  }
}

int run_rank(int rank, int ranks, const char* id_hex) {
  example::check(cudaSetDevice(rank), "cudaSetDevice");
  ncclComm_t comm;
  check_nccl(ncclCommInitRank(&comm, ranks, from_hex(id_hex), rank), "ncclCommInitRank");

  // Unequal counts: rank r holds (r + 1) million keys.
  const std::int64_t count = (rank + 1) * std::int64_t(1000000);
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(count));
  std::mt19937 rng(rank + 1);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  std::uint32_t* d_keys = nullptr;
  example::check(cudaMalloc(&d_keys, count * sizeof(std::uint32_t)), "cudaMalloc");
  example::check(cudaMemcpy(d_keys, keys.data(), count * sizeof(std::uint32_t),
                            cudaMemcpyHostToDevice),
                 "copy keys");

  check_nccl(gpusort::nccl::sort_keys(comm, d_keys, count), "gpusort::nccl::sort_keys");

  // The boundary with the previous rank: its last key must not exceed our first.
  std::uint32_t* d_boundary = nullptr;
  example::check(cudaMalloc(&d_boundary, sizeof(std::uint32_t)), "cudaMalloc");
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  if (rank + 1 < ranks) ncclSend(d_keys + count - 1, 1, ncclUint32, rank + 1, comm, 0);
  if (rank > 0) ncclRecv(d_boundary, 1, ncclUint32, rank - 1, comm, 0);
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  std::uint32_t previous_last = 0;
  example::check(cudaMemcpy(&previous_last, d_boundary, sizeof(previous_last),
                            cudaMemcpyDeviceToHost),
                 "copy boundary");
  std::vector<std::uint32_t> sorted(static_cast<std::size_t>(count));
  example::check(cudaMemcpy(sorted.data(), d_keys, count * sizeof(std::uint32_t),
                            cudaMemcpyDeviceToHost),
                 "copy keys back");
  bool ok = std::is_sorted(sorted.begin(), sorted.end()) &&
            (rank == 0 || previous_last <= sorted.front());
  std::printf("nccl_sort: rank %d of %d: %lld keys, %u .. %u\n", rank, ranks,
              static_cast<long long>(count), sorted.front(), sorted.back());
  cudaFree(d_boundary);
  cudaFree(d_keys);
  ncclCommDestroy(comm);
  return example::verdict("nccl_sort", ok, "shard sorted and in order after the previous rank");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "--rank") == 0)
    return run_rank(std::atoi(argv[2]), std::atoi(argv[3]), argv[4]);
  example::require_gpu("nccl_sort");
  int ranks = 0;
  example::check(cudaGetDeviceCount(&ranks), "cudaGetDeviceCount");
  ncclUniqueId id;
  check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");  // its bootstrap root lives here
  const std::string id_hex = to_hex(id), count = std::to_string(ranks);
  std::vector<pid_t> children;
  for (int r = 0; r < ranks; ++r) {
    const std::string rank = std::to_string(r);
    const pid_t pid = fork();
    if (pid == 0) {
      char* child_argv[] = {argv[0], const_cast<char*>("--rank"), const_cast<char*>(rank.c_str()),
                            const_cast<char*>(count.c_str()), const_cast<char*>(id_hex.c_str()),
                            nullptr};
      execv("/proc/self/exe", child_argv);
      _exit(127);
    }
    if (pid > 0) children.push_back(pid);
  }
  bool ok = static_cast<int>(children.size()) == ranks;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  return example::verdict("nccl_sort", ok, "every rank");
}
