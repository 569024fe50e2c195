// GSP_APSP_DELTA_STEPPING on CUDA: many single-source delta-stepping
// searches advanced together, in passes of `copies` sources.
//
// A pass searches the disjoint union of `copies` copies of the graph, one
// source in each: label c * n + v is vertex v of copy c (source-major, so
// copy c's labels are row c of the result as they stand). The union is
// searched by the frontier engine of GSP_SSSP_DELTA_STEPPING itself
// (frontier_*.cuh, frontier_search.cuh) with the same policy as one search
// on the graph: the copies share the buckets (all sources start at 0, so
// bucket b holds every copy's labels in [b delta, (b+1) delta)), the near
// and far lists, the grid barriers and the one persistent launch. A single
// road-graph search is latency-bound (NY: ~150 grid phases, each a chain of
// dependent L2 round trips over a frontier of a few hundred vertices), so K
// searches in one pass cost little more than one until the phases fill the
// GPU; the arcs (CSR, ELL copy) are read by all copies and stay in L2.
//
// After a pass, one kernel splits the packed (distance, parent) words into
// distance and predecessor rows (parents back to vertex numbers) and checks
// int32 sums; the rows go to host memory straight into the result when the
// sink has one (page-locked: full-speed copies), else through pinned
// staging blocks to the sink. Ties at equal distance through zero-weight
// arcs can leave a cycle in a predecessor row (as in one search); on graphs
// with a weight <= 0 every row is checked and rebuilt on the host
// (engines/cpu/common/pred_repair.h).
//
// Why this design, measured against the others: doc/gpu-apsp-sparse.md,
// "Many sources at once".
#include <algorithm>
#include <limits>
#include <memory>

#include "apsp_sparse/apsp_sparse_common.cuh"
#include "dispatch/tuning.h"
#include "sssp/frontier_search.cuh"

namespace gsp::detail::gpu {
namespace {

using family::FrontierPolicy;
using family::FrontierSearch;

// Splits the packed words of labels [0, labels) (count copies of n) into
// distance and predecessor rows; with int32 weights, raises flag3 (u, v)
// when some reached vertex has an arc whose sum would overflow (the CPU
// engines' checked_add rule), testing exactly only where d + max_w could.
template <class W, class P>
__global__ void unpack_copies_kernel(int64_t labels, int32_t n, P packed, W* dist, int32_t* pred,
                                     DeviceCsr<W> g, W max_w, int* flag3) {
  using family::Key;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < labels;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const unsigned long long p = packed[i];
    if (p == family::kUnreached) {
      dist[i] = sparse::dist_inf<W>();
      if (pred != nullptr) pred[i] = -1;
      continue;
    }
    const int64_t base = (i / n) * n;
    const W d = family::dist_of<W>(p);
    dist[i] = d;
    if (pred != nullptr) {
      const int32_t parent = static_cast<int32_t>(static_cast<uint32_t>(p));
      pred[i] = parent < 0 ? -1 : static_cast<int32_t>(parent - base);
    }
    if constexpr (std::is_same_v<W, int32_t>) {
      if (static_cast<long long>(d) + max_w < 2147483647LL) continue;
      const int32_t v = static_cast<int32_t>(i - base);
      for (int64_t a = g.offsets[v]; a < g.offsets[v + 1]; ++a) {
        int32_t s;
        if (!Key<int32_t>::add(d, g.weights[a], &s)) {
          if (atomicCAS(flag3, 0, 1) == 0) {
            flag3[1] = v;
            flag3[2] = g.targets[a];
          }
          break;
        }
      }
    }
  }
}

// Sources per pass (GSP_CUDA_BATCH_SOURCES overrides it for benchmarking).
// Measured on the H100 (bench_batched, K = 1024, paths, host rows), with
// the label records: NY 0.72 / 0.56 / 0.48 / 0.48 / 0.51 / 0.84 s at 8 / 16
// / 32 / 64 / 128 / 1024 sources a pass, Graph65536 0.103 / 0.103 / 0.094 /
// 0.089 / 0.088 / 0.092 s, R-MAT 2^20 (K = 256) 0.82 / 0.74 / 0.71 / 0.69 /
// 0.68 s: fewer than 32 leave the phases latency-bound (a pass costs at
// least one search's chain of grid phases), wider ones hold more label
// state than the L2 cache; 32 is within 7% of the best on all three.
constexpr int64_t kPassSources = 32;

// Sources per pass: kPassSources, or fewer where the device memory budget
// or 32-bit labels allow fewer, in passes of equal width.
int32_t pass_width(RunContext& ctx, const Graph& graph, const FrontierPolicy& p,
                   int32_t num_sources) {
  const int64_t n = graph.n();
  const size_t per_copy = family::frontier_bytes_per_label(p) * static_cast<size_t>(n) + 4;
  // The control block, the arrays' alignment, the sources, the ELL copy.
  size_t fixed = (size_t(64) << 10) + static_cast<size_t>(n) * family::kEllSlots * 8;
  if (p.split) fixed += static_cast<size_t>(graph.m()) * 8 + static_cast<size_t>(n) * 8;
  const size_t left = ctx.budget_left();
  const int64_t by_memory = left > fixed ? static_cast<int64_t>((left - fixed) / per_copy) : 0;
  const int64_t by_index = (std::numeric_limits<int32_t>::max() - 4096) / std::max<int64_t>(1, n);
  const int64_t want = tuning().cuda_batch_sources.value_or(kPassSources);
  int64_t width = std::min<int64_t>({by_memory, by_index, want, num_sources});
  if (width < 1) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY,
                "apsp_delta_stepping: one source needs " + std::to_string(per_copy + fixed) +
                    " bytes of device memory, and only " + std::to_string(left) +
                    " are left under the budget (options.device_memory_limit)");
  }
  return static_cast<int32_t>(sparse::balanced_batch(width, num_sources, 32));
}

template <class W>
void run_batched(RunContext& ctx, const ApspJob& job) {
  const Graph& graph = *job.graph;
  sparse::require_non_negative(job, "apsp_delta_stepping");
  if (!(job.options->delta >= 0)) throw Error(GSP_ERR_INVALID_ARGUMENT, "delta must be >= 0");
  sparse::fill_stats(ctx, job);
  const int32_t n = graph.n();
  if (n == 0 || job.num_sources == 0) return;
  const bool paths = job.options->want_paths;
  DeviceCsr<W> g = device_graph<W>(ctx, graph);
  const FrontierPolicy policy = family::frontier_policy(graph, job.options->delta, false);
  const int32_t width = pass_width(ctx, graph, policy, job.num_sources);
  FrontierSearch<W> search(ctx, graph, g, policy, width);
  DeviceBuffer<int> flag3(ctx, 3, "apsp_delta_stepping overflow flag");

  const bool repair = paths && graph.min_weight() <= 0;
  cpu::PredRepairScratch scratch;
  auto repair_rows = [&](int32_t first, int32_t rows, void* dist, int32_t* pred) {
    if (!repair || pred == nullptr) return;
    const auto view = graph.view<W>();
    for (int32_t r = 0; r < rows; ++r) {
      const size_t at = static_cast<size_t>(r) * n;
      cpu::repair_pred_row(view, job.sources[first + r], static_cast<const W*>(dist) + at,
                           pred + at, scratch);
    }
  };
  RowSink::Destination dest;
  bool direct = false;
  bool asked = false;
  std::unique_ptr<sparse::RowDeliverer> staged;

  int64_t rounds = 0;
  unsigned long long relaxations = 0;
  for (int32_t first = 0; first < job.num_sources; first += width) {
    const int32_t count = std::min(width, job.num_sources - first);
    search.start_copies(job.sources + first, count);
    if (!asked) {  // while the first pass runs: the result may allocate
      asked = true;
      direct = job.sink->destination(&dest);
      if (!direct) {
        staged = std::make_unique<sparse::RowDeliverer>(ctx, job);
        staged->set_fix(repair_rows);
      }
    }
    const family::Ctrl h = search.wait();
    if (h.status != 0) throw Error(GSP_ERR_INTERNAL, "apsp_delta_stepping: a pass did not converge");
    rounds += h.rounds;
    relaxations += h.relax;

    const int64_t labels = static_cast<int64_t>(count) * n;
    W* d_dist = reinterpret_cast<W*>(search.scratch0());
    int32_t* d_pred = paths ? search.scratch1() : nullptr;
    GSP_CUDA(cudaMemsetAsync(flag3.get(), 0, 3 * sizeof(int), ctx.stream()));
    unpack_copies_kernel<W><<<family::grid_for(ctx, labels, 256), 256, 0, ctx.stream()>>>(
        labels, n, search.packed(), d_dist, d_pred, g, static_cast<W>(graph.max_weight()),
        flag3.get());
    GSP_CUDA_LAUNCH();
    if constexpr (std::is_same_v<W, int32_t>) {
      int host_flag[3] = {0, 0, 0};
      GSP_CUDA(cudaMemcpyAsync(host_flag, flag3.get(), sizeof host_flag, cudaMemcpyDeviceToHost,
                               ctx.stream()));
      ctx.sync();
      if (host_flag[0] != 0) throw_overflow(host_flag[1], host_flag[2]);
    }
    if (direct) {
      const size_t at = static_cast<size_t>(first) * n;
      const size_t bytes = static_cast<size_t>(labels) * sizeof(W);
      W* host_dist = static_cast<W*>(dest.dist) + at;
      GSP_CUDA(cudaMemcpyAsync(host_dist, d_dist, bytes, cudaMemcpyDeviceToHost, ctx.stream()));
      int32_t* host_pred = (paths && dest.pred != nullptr) ? dest.pred + at : nullptr;
      if (host_pred != nullptr) {
        GSP_CUDA(cudaMemcpyAsync(host_pred, d_pred, static_cast<size_t>(labels) * 4,
                                 cudaMemcpyDeviceToHost, ctx.stream()));
      }
      ctx.sync();
      repair_rows(first, count, host_dist, host_pred);
      job.sink->rows_written(first, count);
    } else {
      staged->deliver(first, count, d_dist, d_pred);
    }
    job.options->report(static_cast<double>(first + count) / job.num_sources);
  }
  if (job.stats != nullptr) {
    job.stats->iterations = rounds;
    job.stats->relaxations = static_cast<int64_t>(relaxations);
  }
}

}  // namespace

void apsp_delta_stepping(RunContext& ctx, const ApspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) { run_batched<decltype(w)>(ctx, job); });
}

}  // namespace gsp::detail::gpu
