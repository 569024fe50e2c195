// The CUDA all-pairs cost model (cuda_cost_model.h). Constants fitted on the
// H100 (bench_apsp_auto, doc/algorithms.md): ring, grid, random out-degree 6,
// road subgraph and complete graphs, n = 1,000-16,384, all rows, paths on.
#include "dispatch/cuda_cost_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
// (random out-degree 6: 0.21-0.27 ns at n = 8192-16384, K = n), times a
// depth factor (its rounds grow with the hop depth: about 27x on a ring, 5x
// on the road subgraph, 3x on a grid at n ~ 8192), times a batch factor:
// the cost of a unit of work falls as the call's work W = K (n + m) grows
// (wider batches amortise each round's fixed costs), (W / 1.9e9)^-0.45
// clamped to [0.45, 1.6], fitted on the H100 (bench_batched engine rows,
// paths on): Graph65536 0.18 / 0.39 / 1.03 / 4.04 s at K = 1024 / 4096 /
// 16384 / 65536 (estimates 0.20 / 0.51 / 1.19 / 4.14), R-MAT 2^20 0.36 /
// 0.59 / 1.18 s at K = 64 / 256 / 1024 (0.32 / 0.69 / 1.93).
constexpr double kTaskPerSourceArc = 0.2e-9;
constexpr double kTaskFixed = 3e-3;
constexpr double kTaskBatchWork = 1.9e9;
constexpr double kTaskBatchExponent = -0.45;
constexpr double kTaskBatchMin = 0.45;
constexpr double kTaskBatchMax = 1.6;
// Heap: one thread's Dijkstra costs (a n + b m) log2 n seconds with up to
// 8,192 threads at once (fitted at n ~ 8192 on ring, grid and road: a =
// 0.59 us, b = 0.47 us), and more per thread as more threads run, whose
// heaps compete for the caches: x (K / 8192)^0.55 (1.46 measured at 16,384).
constexpr double kHeapPerVertexLevel = 0.59e-6;
constexpr double kHeapPerArcLevel = 0.47e-6;
constexpr double kHeapThreads = 8192;
constexpr double kHeapCrowding = 0.55;
constexpr double kHeapFixed = 3e-3;
// Heap batches: each source keeps n distances, parents, heap slots and
// positions on the device (apsp_heap.cu); sources beyond what fits in
// memory run in further batches of threads, one after the other.
constexpr double kHeapBytesPerVertex = 20;
// Batched delta-stepping: passes of kDsPassSources sources, each costing
// the larger of its latency (a chain of grid phases: a fixed part plus a
// part growing with the hop depth) and its work (per source and
// vertex-or-arc), plus the last pass's copy to host memory (the others
// overlap the next pass). From kDsBatchedFrom sources on a pass uses the
// batched bucket width (narrow buckets: more phases, little re-relaxation);
// fitted on the H200 (pass sweep, paths on, host rows or streamed): NY
// 0.0149 / 0.133 / 1.89 s at K = 64 / 1024 / 16384 (a pass ~15 ms,
// latency-bound up to ~128 sources), Graph65536 0.060 / 0.230 / 0.94 /
// 3.63 s at K = 1024 / 4096 / 16384 / 65536, R-MAT 2^20 0.124 / 0.48 /
// 1.79 s at K = 64 / 256 / 1024: 0.10-0.13 ns per source and
// vertex-or-arc. Fewer sources run as one search (wide buckets: a latency
// of 2.6 ms on NY, 0.36 ns (m / n <= 4) or 0.155 ns (above, then one
// bucket) per source and vertex-or-arc, H100, passes of up to 32; with the
// expanders' narrower buckets since, one search on the H200 took 0.164 ns
// on uniform 2^22 x 8 and 0.136 ns on R-MAT 2^22 x 16).
constexpr double kDsFixed = 1e-3;
constexpr double kDsPassSources = 128;
constexpr double kDsBatchedFrom = 32;
constexpr double kDsPassLatency = 0.15e-3;
constexpr double kDsPerDepthBatched = 30e-6;
constexpr double kDsPerSourceArcBatched = 0.13e-9;
constexpr double kDsPerDepthSearch = 5e-6;
constexpr double kDsPerSourceArcBuckets = 0.36e-9;
constexpr double kDsPerSourceArcExpander = 0.155e-9;
constexpr double kDsBucketMaxDegree = 4.0;  // frontier_policy()'s kLocalWaveMaxDegree
// Min-plus SpMM: passes of up to kSpmmPassSources sources, each a number of
// rounds, each round the larger of its work (a grid barrier plus work per
// source and vertex-or-arc; an average over the rounds, whose active
// vertices shrink) and a term for skewed in-degrees, plus per pass its
// predecessor kernel and transposes. Rounds follow the arc count of the
// longest shortest path, estimated from the hop depth. Fitted on the H100
// (paths on, K = 1024, passes of 128): Graph65536 (hop depth 7.1) 22.9
// rounds a pass, 1.9 ms a pass streaming all 65,536 sources; NY (hop depth
// 383) 1,005 rounds, 0.23 s a pass; R-MAT 2^20 (hop depth 2.0, largest
// in-degree 69,271) 15.9 rounds, 0.76 s a pass with hubs split over warps
// (the skew term is fitted to that one graph: its cause is not isolated,
// doc/gpu-apsp-sparse.md).
constexpr double kSpmmPassSources = 128;
constexpr double kSpmmRoundsPerDepth = 2.7;
constexpr double kSpmmRoundsFixed = 4.0;
constexpr double kSpmmRoundFixed = 3e-6;
constexpr double kSpmmPerSourceArcRound = 1.25e-12;
constexpr double kSpmmPerHubArc = 1.1e-6;
constexpr double kSpmmPassFixed = 50e-6;
// Device memory assumed when the caller sets no limit: an H100's 80 GB
// less the context and the graph.
constexpr double kNominalDeviceBytes = 70e9;

}  // namespace

CudaApspCosts cuda_apsp_costs(const Graph& g, int32_t num_sources, bool paths, double device_bytes) {
  const double n = std::max<double>(g.n(), 1);
  const double m = static_cast<double>(g.m());
  const double k = std::max<double>(num_sources, 1);
  const double memory = device_bytes > 0 ? device_bytes : kNominalDeviceBytes;
  CudaApspCosts c;
  const double bytes = k * n * (paths ? 8.0 : 4.0);
  c.floyd_warshall = kFwFixed + n * n * n / kFwRate * (n > 32768 ? 1.5 : 1.0) + bytes / kCopyRate;
  const double depth_factor = std::clamp(1.0 + g.hop_depth() / 40.0, 1.0, 30.0);
  const double task_work = k * (n + m);
  const double batch_factor =
      std::clamp(std::pow(task_work / kTaskBatchWork, kTaskBatchExponent), kTaskBatchMin, kTaskBatchMax);
  c.task_parallel = kTaskFixed + task_work * kTaskPerSourceArc * depth_factor * batch_factor + bytes / kCopyRate;
  const double per_batch = std::clamp(std::floor(memory / (kHeapBytesPerVertex * n)), 1.0, k);
  const double batches = std::ceil(k / per_batch);
  const double crowd = std::pow(std::max(1.0, per_batch / kHeapThreads), kHeapCrowding);
  c.heap = kHeapFixed + batches * (kHeapPerVertexLevel * n + kHeapPerArcLevel * m) * std::log2(n + 1) * crowd +
           bytes / kCopyRate;
  const double width = std::min(k, kDsPassSources);
  const double passes = std::ceil(k / kDsPassSources);
  const bool batched = k >= kDsBatchedFrom;
  const double pass_latency = kDsPassLatency + (batched ? kDsPerDepthBatched : kDsPerDepthSearch) * g.hop_depth();
  const double per_source_arc = batched                       ? kDsPerSourceArcBatched
                                : m / n <= kDsBucketMaxDegree ? kDsPerSourceArcBuckets
                                                              : kDsPerSourceArcExpander;
  const double pass_work = width * (n + m) * per_source_arc;
  // Narrow buckets overlap a pass's latency with its work; a search's wide
  // buckets do little work per phase, so its phases add up (NY, K = 8: 6.5 ms).
  const double pass = batched ? std::max(pass_latency, pass_work) : pass_latency + pass_work;
  c.delta_stepping = kDsFixed + passes * pass + width * n * (paths ? 8.0 : 4.0) / kCopyRate;
  const double spmm_width = std::min(k, kSpmmPassSources);
  const double spmm_rounds = kSpmmRoundsFixed + kSpmmRoundsPerDepth * g.hop_depth();
  const double spmm_round = std::max(kSpmmRoundFixed + spmm_width * (n + m) * kSpmmPerSourceArcRound,
                                     static_cast<double>(g.max_in_degree()) * kSpmmPerHubArc);
  const double spmm_pass = kSpmmPassFixed + spmm_rounds * spmm_round;
  c.spmm = kDsFixed + std::ceil(k / kSpmmPassSources) * spmm_pass + spmm_width * n * (paths ? 8.0 : 4.0) / kCopyRate;
  return c;
}

double CudaApspCosts::of(gsp_algorithm algorithm) const {
  switch (algorithm) {
    case GSP_APSP_FLOYD_WARSHALL: return floyd_warshall;
    case GSP_APSP_TASK_PARALLEL: return task_parallel;
    case GSP_APSP_HEAP: return heap;
    case GSP_APSP_DELTA_STEPPING: return delta_stepping;
    case GSP_APSP_SPMM: return spmm;
    default: return std::numeric_limits<double>::infinity();
  }
}

gsp_algorithm cuda_apsp_choice(const Graph& g, int32_t num_sources, bool paths, double device_bytes) {
  const CudaApspCosts c = cuda_apsp_costs(g, num_sources, paths, device_bytes);
  gsp_algorithm best = GSP_APSP_FLOYD_WARSHALL;
  double t = c.floyd_warshall;
  if (g.n() <= 2000000 && c.task_parallel < t) {
    best = GSP_APSP_TASK_PARALLEL;
    t = c.task_parallel;
  }
  if (c.heap < t) {
    best = GSP_APSP_HEAP;
    t = c.heap;
  }
  if (c.delta_stepping < t) {
    best = GSP_APSP_DELTA_STEPPING;
    t = c.delta_stepping;
  }
  if (c.spmm < t) best = GSP_APSP_SPMM;
  return best;
}

}  // namespace gsp::detail
