// A second translation unit that includes every single-process header, as a client's
// program with several .cu files does: a header-only library must define no non-template
// (non-inline) entity, kernels included, or this program fails to link.
#include <gpusort/gpusort.cuh>
#include <gpusort/multi_gpu.cuh>
