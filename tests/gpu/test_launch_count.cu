// The single-launch promise of policy::merge and policy::automatic (issue: n <= 2^14 in one
// launch), counted: CUPTI calls back on every kernel launch of the runtime API, so the test
// sees the launches a sort makes, whatever path inside the library makes them. The count is
// checked to be a count: above 2^14 keys the same sort must make several.
#include "common/catch.hpp"
#include "common/staged_sort.cuh"

#include <gpusort/gpusort.cuh>

#include <cupti.h>

#include <atomic>
#include <cstdint>

namespace {

std::atomic<int> kernel_launches{0};
thread_local int launch_depth = 0;  // a launch entry point that calls another counts once

void CUPTIAPI count_launches(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                             const void* data) {
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API) return;
  switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
      if (call->callbackSite == CUPTI_API_ENTER) {
        if (launch_depth++ == 0) ++kernel_launches;
      } else {
        --launch_depth;
      }
      break;
    default:
      break;
  }
}

// Kernel launches of one sort of n random keys (sorted, checked against the host).
template <class Policy>
int launches_of_sort(const Policy& policy, std::int64_t n) {
  gpusort_test::staged_sort<Policy> staged(policy, n);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CUpti_SubscriberHandle subscriber = nullptr;
  REQUIRE(cuptiSubscribe(&subscriber, count_launches, nullptr) == CUPTI_SUCCESS);
  REQUIRE(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API) == CUPTI_SUCCESS);
  kernel_launches = 0;
  const cudaError_t sorted = staged.sort(policy, 0);
  const int launches = kernel_launches;
  REQUIRE(cuptiUnsubscribe(subscriber) == CUPTI_SUCCESS);
  REQUIRE(sorted == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  REQUIRE(staged.sorted_like_host());
  return launches;
}

}  // namespace

TEST_CASE("merge and automatic: up to 2^14 keys in a single launch", "[merge][automatic]") {
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(9999),
                                  std::int64_t(1) << 14);
  CAPTURE(n);
  CHECK(launches_of_sort(gpusort::policy::merge{}, n) == 1);
  CHECK(launches_of_sort(gpusort::policy::automatic{}, n) == 1);
}

TEST_CASE("merge: above 2^14 keys the passes are launches of their own", "[merge]") {
  CHECK(launches_of_sort(gpusort::policy::merge{}, (std::int64_t(1) << 14) + 1) > 1);
}
