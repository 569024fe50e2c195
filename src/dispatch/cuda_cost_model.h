// The CUDA all-pairs / many-sources cost model: estimated seconds of one
// gsp_apsp_run (every requested row in host memory, paths on) for each CUDA
// engine on the H100, from n, m, the number of sources K and the graph's
// hop depth, and AUTO's choice (the smallest estimate). The constants and
// the measurements they were fitted to are in doc/algorithms.md, "CUDA
// all-pairs AUTO" (bench/bench_apsp_auto.c measures them again).
#pragma once

#include <cstdint>

#include "core/graph.h"
#include "gsp/gsp.h"

namespace gsp::detail {

struct CudaApspCosts {
  double floyd_warshall = 0;  // n^3 relaxations whatever K, plus the rows' copy
  double task_parallel = 0;   // K x n vertex sweeps per round, rounds growing with depth
  double heap = 0;            // one Dijkstra per thread: m log n per source, in batches that fit
  double delta_stepping = 0;  // K searches per pass: latency per pass + work per source
  double spmm = 0;            // passes of up to 128 sources, rounds growing with depth

  // The estimate of `algorithm` (one of the above; +inf for any other).
  double of(gsp_algorithm algorithm) const;
};

// device_bytes: the memory the engines may use (options.device_memory_limit);
// 0: a nominal H100's.
CudaApspCosts cuda_apsp_costs(const Graph& graph, int32_t num_sources, bool paths, double device_bytes = 0);

// AUTO's engine for a non-negative graph on CUDA: GSP_APSP_FLOYD_WARSHALL,
// GSP_APSP_TASK_PARALLEL, GSP_APSP_HEAP, GSP_APSP_DELTA_STEPPING or
// GSP_APSP_SPMM, whichever is estimated fastest (task-parallel only below its launch-grid
// cap of about 2.1 M vertices).
gsp_algorithm cuda_apsp_choice(const Graph& graph, int32_t num_sources, bool paths, double device_bytes = 0);

}  // namespace gsp::detail
