// nccl::sort_keys / sort_pairs: one process per GPU, started by this binary itself.
//
// Run without arguments, it is the parent: it makes an NCCL unique id, writes it to a file
// in a fresh temp directory and starts one child per GPU (fork + exec of itself with
// `--rank r ranks file`); it passes when every child does. Each child joins the communicator
// on GPU r, and for every case generates the same global input, takes its shard, sorts
// with gpusort::nccl, and sends its shard to rank 0, which verifies the concatenation
// (sorted, a permutation, values with their keys) on its GPU. Cases: every distribution on u32,
// u64, key16 and u16 keys with equal and unequal counts (one rank empty when there are
// several), pairs (u32 and __half keys), and the error contract (a negative count on rank 0: every rank gets
// ncclInvalidArgument, data untouched). NCCL refuses two ranks on one GPU, so ranks = GPUs
// (one on a one-GPU machine). Exit 77 (skip) without a GPU, in the parent and the children.
#include "common/device_buffer.cuh"
#include "common/distributions.cuh"
#include "common/key_types.cuh"
#include "common/verify.cuh"

#include <gpusort/nccl.cuh>

#include <cuda_runtime.h>
#include <nccl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

using namespace gpusort_test;
using gpusort::detail::no_value;

namespace {

constexpr int skip_code = 77;

struct rank_context {
  int rank, ranks;
  ncclComm_t comm;
  int failures = 0;
  int cases = 0;
};

std::vector<std::int64_t> rank_counts(int ranks, std::int64_t n, bool equal) {
  std::vector<std::int64_t> counts(ranks, 0);
  std::int64_t given = 0;
  for (int r = 0; r < ranks; ++r) {
    const bool empty = !equal && ranks > 1 && r == 1;
    counts[r] = empty ? 0 : equal ? n / ranks : n * (r + 1) / (ranks * (ranks + 1) / 2);
    given += counts[r];
  }
  counts[ranks - 1] += n - given;
  return counts;
}

#define NCCL_TEST_CHECK(cond, what)                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "rank %d: FAILED %s (%s:%d)\n", ctx.rank, what, __FILE__, \
                   __LINE__);                                                         \
      ++ctx.failures;                                                                 \
      return;                                                                         \
    }                                                                                 \
  } while (0)

// One case on every rank: shard r of the same global input, sorted, gathered on rank 0.
template <class Key, class Value, class Compare>
void run_case(rank_context& ctx, distribution dist, std::int64_t n, bool equal, Compare cmp) {
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  using stored_value = std::conditional_t<pairs, Value, char>;
  ++ctx.cases;
  const auto counts = rank_counts(ctx.ranks, n, equal);
  std::int64_t offset = 0;
  for (int r = 0; r < ctx.rank; ++r) offset += counts[r];
  const std::int64_t count = counts[ctx.rank];

  device_buffer<Key> input(n), shard(count);
  device_buffer<stored_value> input_values(pairs ? n : 0), shard_values(pairs ? count : 0);
  NCCL_TEST_CHECK(generate(input.data(), n, dist, 0xfeed) == cudaSuccess, "generate");
  if constexpr (pairs) NCCL_TEST_CHECK(iota_values(input_values.data(), n) == cudaSuccess, "iota");
  if (count > 0) {
    NCCL_TEST_CHECK(cudaMemcpy(shard.data(), input.data() + offset, count * sizeof(Key),
                               cudaMemcpyDeviceToDevice) == cudaSuccess, "copy shard");
    if constexpr (pairs)
      NCCL_TEST_CHECK(cudaMemcpy(shard_values.data(), input_values.data() + offset,
                                 count * sizeof(Value), cudaMemcpyDeviceToDevice) == cudaSuccess,
                      "copy shard values");
  }
  ncclResult_t result;
  if constexpr (pairs) {
    result = gpusort::nccl::sort_pairs(ctx.comm, shard.data(), shard_values.data(), count, cmp);
  } else {
    result = gpusort::nccl::sort_keys(ctx.comm, shard.data(), count, cmp);
  }
  if (result != ncclSuccess)
    std::fprintf(stderr, "rank %d: %s %s n=%lld: %s\n", ctx.rank, name(dist),
                 equal ? "equal" : "unequal", static_cast<long long>(n), ncclGetErrorString(result));
  NCCL_TEST_CHECK(result == ncclSuccess, "nccl sort");

  // Gather on rank 0.
  device_buffer<Key> gathered(ctx.rank == 0 ? n : 0);
  device_buffer<stored_value> gathered_values(ctx.rank == 0 && pairs ? n : 0);
  NCCL_TEST_CHECK(ncclGroupStart() == ncclSuccess, "group start");
  if (ctx.rank == 0) {
    std::int64_t at = 0;
    for (int r = 0; r < ctx.ranks; ++r) {
      if (counts[r] > 0 && r == 0) {
        cudaMemcpy(gathered.data(), shard.data(), count * sizeof(Key), cudaMemcpyDeviceToDevice);
        if (pairs)
          cudaMemcpy(gathered_values.data(), shard_values.data(), count * sizeof(stored_value),
                     cudaMemcpyDeviceToDevice);
      } else if (counts[r] > 0) {
        ncclRecv(gathered.data() + at, counts[r] * sizeof(Key), ncclUint8, r, ctx.comm, 0);
        if (pairs)
          ncclRecv(gathered_values.data() + at, counts[r] * sizeof(stored_value), ncclUint8, r,
                   ctx.comm, 0);
      }
      at += counts[r];
    }
  } else if (count > 0) {
    ncclSend(shard.data(), count * sizeof(Key), ncclUint8, 0, ctx.comm, 0);
    if (pairs) ncclSend(shard_values.data(), count * sizeof(stored_value), ncclUint8, 0, ctx.comm, 0);
  }
  NCCL_TEST_CHECK(ncclGroupEnd() == ncclSuccess, "group end");
  NCCL_TEST_CHECK(cudaDeviceSynchronize() == cudaSuccess, "gather");
  if (ctx.rank != 0) return;
  check_result verdict;
  if constexpr (pairs) {
    verdict = verify_pairs(input.data(), gathered.data(), gathered_values.data(), n, cmp, false);
  } else {
    verdict = verify_keys(input.data(), gathered.data(), n, cmp);
  }
  if (!verdict)
    std::fprintf(stderr, "rank 0: %s %s n=%lld: %s\n", name(dist), equal ? "equal" : "unequal",
                 static_cast<long long>(n), verdict.message.c_str());
  NCCL_TEST_CHECK(verdict.ok, "verification");
}

// A negative count on rank 0: every rank is told ncclInvalidArgument, no data touched.
void run_bad_arguments(rank_context& ctx) {
  ++ctx.cases;
  const std::int64_t n = 1000;
  device_buffer<std::uint32_t> keys(n);
  NCCL_TEST_CHECK(generate(keys.data(), n, distribution::uniform, 9) == cudaSuccess, "generate");
  const auto before = keys.to_host();
  const std::int64_t count = ctx.rank == 0 ? -1 : n;
  NCCL_TEST_CHECK(gpusort::nccl::sort_keys(ctx.comm, keys.data(), count) == ncclInvalidArgument,
                  "negative count refused on every rank");
  NCCL_TEST_CHECK(gpusort::nccl::sort_keys(ctx.comm, static_cast<std::uint32_t*>(nullptr),
                                           ctx.rank == 0 ? n : 0) == ncclInvalidArgument,
                  "null keys refused on every rank");
  NCCL_TEST_CHECK(gpusort::nccl::sort_keys(static_cast<ncclComm_t>(nullptr), keys.data(), n) ==
                      ncclInvalidArgument,
                  "null communicator refused");
  NCCL_TEST_CHECK(cudaDeviceSynchronize() == cudaSuccess, "sync");
  NCCL_TEST_CHECK(keys.to_host() == before, "data untouched");
}

int run_rank(int rank, int ranks, const char* id_file) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return skip_code;
  if (cudaSetDevice(rank % devices) != cudaSuccess) return EXIT_FAILURE;
  ncclUniqueId id;
  FILE* f = std::fopen(id_file, "rb");
  if (f == nullptr || std::fread(&id, sizeof(id), 1, f) != 1) {
    std::fprintf(stderr, "rank %d: cannot read the NCCL id from %s\n", rank, id_file);
    if (f != nullptr) std::fclose(f);
    return EXIT_FAILURE;
  }
  std::fclose(f);
  rank_context ctx{rank, ranks, nullptr};
  if (ncclCommInitRank(&ctx.comm, ranks, id, rank) != ncclSuccess) {
    std::fprintf(stderr, "rank %d: ncclCommInitRank failed\n", rank);
    return EXIT_FAILURE;
  }
  try {
    for (distribution d : all_distributions) {
      for (bool equal : {true, false}) {
        run_case<std::uint32_t, no_value>(ctx, d, 300007, equal, gpusort::less{});
        run_case<std::uint64_t, no_value>(ctx, d, 100003, equal, gpusort::less{});
        run_case<key16, no_value>(ctx, d, 100003, equal, key16_less{});
        run_case<std::uint32_t, std::uint32_t>(ctx, d, 200003, equal, gpusort::less{});
        run_case<std::uint16_t, no_value>(ctx, d, 300007, equal, gpusort::less{});
        run_case<__half, std::uint32_t>(ctx, d, 200003, equal, gpusort::total_less{});
      }
    }
    for (std::int64_t n : {0, 1, 2, 4097}) {
      run_case<std::uint32_t, no_value>(ctx, distribution::uniform, n, false, gpusort::less{});
      run_case<key16, value16>(ctx, distribution::few_distinct_2, n, true, key16_less{});
    }
    run_case<std::uint32_t, no_value>(ctx, distribution::uniform, std::int64_t(1) << 24, true,
                                      gpusort::less{});
    run_bad_arguments(ctx);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    ++ctx.failures;
  }
  ncclCommDestroy(ctx.comm);
  std::printf("rank %d of %d: %d case(s), %d failure(s)\n", rank, ranks, ctx.cases, ctx.failures);
  return ctx.failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "--rank") == 0)
    return run_rank(std::atoi(argv[2]), std::atoi(argv[3]), argv[4]);

  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device (%s)\n", cudaGetErrorString(status));
    return skip_code;
  }
  const int ranks = devices;
  // The id's bootstrap root lives in this process, which waits for the children.
  ncclUniqueId id;
  if (ncclGetUniqueId(&id) != ncclSuccess) {
    std::fprintf(stderr, "ncclGetUniqueId failed\n");
    return EXIT_FAILURE;
  }
  char dir[] = "/tmp/gpusort_nccl_XXXXXX";
  if (mkdtemp(dir) == nullptr) return EXIT_FAILURE;
  const std::string id_file = std::string(dir) + "/id";
  FILE* f = std::fopen(id_file.c_str(), "wb");
  if (f == nullptr || std::fwrite(&id, sizeof(id), 1, f) != 1) return EXIT_FAILURE;
  std::fclose(f);

  std::vector<pid_t> children;
  for (int r = 0; r < ranks; ++r) {
    const pid_t pid = fork();
    if (pid == 0) {
      const std::string rank = std::to_string(r), count = std::to_string(ranks);
      char* child_argv[] = {argv[0], const_cast<char*>("--rank"), const_cast<char*>(rank.c_str()),
                            const_cast<char*>(count.c_str()), const_cast<char*>(id_file.c_str()),
                            nullptr};
      execv("/proc/self/exe", child_argv);
      _exit(127);
    }
    if (pid < 0) {
      std::fprintf(stderr, "fork failed\n");
      break;
    }
    children.push_back(pid);
  }
  int failed = static_cast<int>(ranks - children.size()), skipped = 0;
  for (pid_t pid : children) {
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    const int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    if (code == skip_code) ++skipped;
    else if (code != 0) ++failed;
  }
  std::remove(id_file.c_str());
  rmdir(dir);
  if (failed > 0) {
    std::printf("test_nccl_sort: %d of %d rank(s) failed\n", failed, ranks);
    return EXIT_FAILURE;
  }
  if (skipped == ranks) return skip_code;
  std::printf("test_nccl_sort: %d rank(s) passed\n", ranks);
  return EXIT_SUCCESS;
}
