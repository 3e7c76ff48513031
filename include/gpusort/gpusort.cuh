// gpusort/gpusort.cuh — everything single-GPU: entry points, policies, comparators and the
// public building blocks.
#pragma once

#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/tile_io.cuh>
#include <gpusort/compare.cuh>
#include <gpusort/policy.cuh>
#include <gpusort/sort.cuh>
#include <gpusort/thread/compare_exchange.cuh>
#include <gpusort/thread/sorting_network.cuh>
#include <gpusort/warp/bitonic_merge.cuh>
#include <gpusort/warp/bitonic_sort.cuh>
#include <gpusort/warp/shuffle.cuh>
