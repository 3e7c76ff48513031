// gpusort/gpusort.cuh — everything single-GPU: entry points, policies, comparators and the
// public building blocks.
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/policy.cuh>
#include <gpusort/sort.cuh>

#include <gpusort/thread/compare_exchange.cuh>
#include <gpusort/thread/merge_path.cuh>
#include <gpusort/thread/pivot_select.cuh>
#include <gpusort/thread/sorting_network.cuh>

#include <gpusort/warp/bitonic_merge.cuh>
#include <gpusort/warp/bitonic_sort.cuh>
#include <gpusort/warp/inclusive_sum.cuh>
#include <gpusort/warp/merge_path.cuh>
#include <gpusort/warp/merge_runs.cuh>
#include <gpusort/warp/partition_point.cuh>
#include <gpusort/warp/segment_slices.cuh>
#include <gpusort/warp/shared_bitonic_merge.cuh>
#include <gpusort/warp/shuffle.cuh>

#include <gpusort/block/bitonic_merge.cuh>
#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/locate_splitters.cuh>
#include <gpusort/block/regular_sample.cuh>
#include <gpusort/block/sort_tile.cuh>
#include <gpusort/block/splitter_tree.cuh>
#include <gpusort/block/tile_io.cuh>

#include <gpusort/device/bucket_offsets.cuh>
#include <gpusort/device/merge.cuh>
#include <gpusort/device/sort_segments.cuh>
