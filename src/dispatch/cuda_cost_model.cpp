// The CUDA all-pairs cost model (cuda_cost_model.h). Constants fitted on the
// H100 (bench_apsp_auto, doc/algorithms.md): ring, grid, random out-degree 6,
// road subgraph and complete graphs, n = 1,000-16,384, all rows, paths on.
#include "dispatch/cuda_cost_model.h"

#include <algorithm>
#include <cmath>

namespace gsp::detail {

namespace {

// Floyd-Warshall: relaxations per second of the blocked engine at n >= 4096
// (1.2e13-1.4e13 measured, with paths), a fixed cost per call (launches,
// the first tiles: n = 1,000 takes 3 ms), and the rows' copy to host memory
// (55 GB/s measured into page-locked memory; 40 GB/s counted with the
// gather and the predecessor check). Matrices beyond 32,768 vertices (8 GiB
// with paths) may not fit beside other work and go out of core: 1.5x.
constexpr double kFwRate = 1.2e13;
constexpr double kFwFixed = 2.5e-3;
constexpr double kCopyRate = 40e9;
// Task-parallel: seconds per (source x (vertex + arc)) on shallow graphs
// (random out-degree 6: 0.21-0.27 ns at n = 8192-16384), times a depth
// factor (its rounds grow with the hop depth: about 27x on a ring, 5x on
// the road subgraph, 3x on a grid at n ~ 8192).
constexpr double kTaskPerSourceArc = 0.2e-9;
constexpr double kTaskFixed = 3e-3;
// Heap: one thread's Dijkstra costs (a n + b m) log2 n seconds with up to
// 8,192 threads at once (fitted at n ~ 8192 on ring, grid and road: a =
// 0.59 us, b = 0.47 us), and more per thread as more threads run, whose
// heaps compete for the caches: x (K / 8192)^0.55 (1.46 measured at 16,384).
constexpr double kHeapPerVertexLevel = 0.59e-6;
constexpr double kHeapPerArcLevel = 0.47e-6;
constexpr double kHeapThreads = 8192;
constexpr double kHeapCrowding = 0.55;
constexpr double kHeapFixed = 3e-3;
// Batched delta-stepping: passes of kDsPassSources sources, each costing
// one search's chain of grid phases (latency: a fixed part plus a part
// growing with the hop depth, as one search) plus its work per source and
// vertex-or-arc: with buckets (average out-degree <= 4, 48 bytes of state
// a label) 0.37 ns, with one bucket (24 bytes) 0.21 ns (H100,
// bench_batched, K = 1024 to 16384 in passes of 32: NY, Graph65536).
constexpr double kDsFixed = 1e-3;
constexpr double kDsPassSources = 32;
constexpr double kDsPassLatency = 0.15e-3;
constexpr double kDsPerDepth = 5e-6;
constexpr double kDsPerSourceArcBuckets = 0.37e-9;
constexpr double kDsPerSourceArcOneBucket = 0.21e-9;
constexpr double kDsBucketMaxDegree = 4.0;  // frontier_policy()'s kLocalWaveMaxDegree

}  // namespace

CudaApspCosts cuda_apsp_costs(const Graph& g, int32_t num_sources, bool paths) {
  const double n = std::max<double>(g.n(), 1);
  const double m = static_cast<double>(g.m());
  const double k = std::max<double>(num_sources, 1);
  CudaApspCosts c;
  const double bytes = k * n * (paths ? 8.0 : 4.0);
  c.floyd_warshall = kFwFixed + n * n * n / kFwRate * (n > 32768 ? 1.5 : 1.0) + bytes / kCopyRate;
  const double depth_factor = std::clamp(1.0 + g.hop_depth() / 40.0, 1.0, 30.0);
  c.task_parallel = kTaskFixed + k * (n + m) * kTaskPerSourceArc * depth_factor + bytes / kCopyRate;
  const double crowd = std::pow(std::max(1.0, k / kHeapThreads), kHeapCrowding);
  c.heap = kHeapFixed + (kHeapPerVertexLevel * n + kHeapPerArcLevel * m) * std::log2(n + 1) * crowd + bytes / kCopyRate;
  const double passes = std::ceil(k / kDsPassSources);
  c.delta_stepping = kDsFixed + passes * (kDsPassLatency + kDsPerDepth * g.hop_depth()) +
                     k * (n + m) * (m / n <= kDsBucketMaxDegree ? kDsPerSourceArcBuckets : kDsPerSourceArcOneBucket) +
                     bytes / kCopyRate;
  return c;
}

gsp_algorithm cuda_apsp_choice(const Graph& g, int32_t num_sources, bool paths) {
  const CudaApspCosts c = cuda_apsp_costs(g, num_sources, paths);
  gsp_algorithm best = GSP_APSP_FLOYD_WARSHALL;
  double t = c.floyd_warshall;
  if (g.n() <= 2000000 && c.task_parallel < t) { best = GSP_APSP_TASK_PARALLEL; t = c.task_parallel; }
  if (c.heap < t) { best = GSP_APSP_HEAP; t = c.heap; }
  if (c.delta_stepping < t) best = GSP_APSP_DELTA_STEPPING;
  return best;
}

}  // namespace gsp::detail
