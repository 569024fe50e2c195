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
// int32 sums; double labels hold the distance key alone, and a second
// kernel picks each predecessor among the tight arcs (tight_pred_kernel() in
// sssp_family.cuh). The rows go to host memory while the next pass searches
// (pass_pipeline.cuh, shared with apsp_spmm.cu). Ties at equal distance
// through zero-weight arcs (and for double, arcs whose weight rounding
// absorbs) can leave a cycle in a predecessor row (as in one search); on
// graphs with a weight <= 0, and for double in passes with an absorbed
// tight arc, every row is checked and rebuilt on the host
// (core/pred_repair.h).
//
// Why this design, measured against the others: doc/gpu-apsp-sparse.md,
// "Many sources at once".
#include <algorithm>
#include <limits>

#include "apsp_sparse/apsp_sparse_common.cuh"
#include "apsp_sparse/pass_pipeline.cuh"
#include "core/tuning.h"
#include "sssp/frontier_search.cuh"

namespace gsp::detail::gpu {
namespace {

using family::FrontierPolicy;
using family::FrontierSearch;

// Splits the words of labels [0, labels) (count copies of n) into distance
// and predecessor rows (key-only words: predecessors -1, for
// tight_pred_kernel()); with int32 weights, raises flag3 (u, v)
// when some reached vertex has an arc whose sum would overflow (the CPU
// engines' checked_add rule), testing exactly only where d + max_w could.
template <class W, class P>
__global__ void unpack_copies_kernel(int64_t labels, int32_t n, P packed, W* dist, int32_t* pred, DeviceCsr<W> g,
                                     W max_w, int* flag3) {
  using family::Key;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < labels;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const auto p = packed[i];
    if (is_unreached(p)) {
      dist[i] = sparse::dist_inf<W>();
      if (pred != nullptr) pred[i] = -1;
      continue;
    }
    const int64_t base = (i / n) * n;
    const W d = family::dist_of<W>(p);
    dist[i] = d;
    if (pred != nullptr) {
      if constexpr (family::kKeyOnly<W, std::remove_cv_t<decltype(p)>>) {
        pred[i] = -1;
      } else {
        const int32_t parent = word_parent(p);
        pred[i] = parent < 0 ? -1 : static_cast<int32_t>(parent - base);
      }
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
// With the batched deltas (frontier_search.cuh, batched_delta()) a pass of
// NY is latency-bound (a chain of grid phases, ~15 ms) below about 128
// copies and work-bound above. Measured on the H200 (bench sweep, K sources
// spread over the graph, paths, host rows) at 64 / 128 / 256 / 512 sources a
// pass: NY K = 1024 0.159 / 0.133 / 0.137 / 0.182 s, Graph65536 K = 4096
// 0.240 / 0.233 / 0.230 / 0.231 s, R-MAT 2^20 K = 256 0.477 / 0.505 / 0.525
// / 0.510 s: 128 is within 6% of the best on all three. Wider passes also
// hold more label state than the L2 cache.
constexpr int64_t kPassSources = 128;

// Sources from which a pass takes the batched bucket width (batched_delta()):
// below it a pass is a chain of grid phases whatever its width, and the
// single search's wide buckets have fewer phases (NY: 8 sources took 6.5 ms
// with them; a pass of 64 takes 15 ms either way, 30 ms with the wide ones).
constexpr int32_t kBatchedFrom = 32;

// Sources per pass: kPassSources, or fewer where the device memory budget
// or 32-bit labels allow fewer, in passes of equal width. A label costs its
// search state plus its slot in the output rows (distance, predecessor),
// which hold one pass's rows while the next pass searches.
template <class W>
int32_t pass_width(RunContext& ctx, const Graph& graph, const FrontierPolicy& p, int32_t num_sources, bool paths) {
  const int64_t n = graph.n();
  const size_t per_copy =
      (family::frontier_bytes_per_label<W>(p) + sizeof(W) + (paths ? 4 : 0)) * static_cast<size_t>(n) + 4;
  // The control block, the arrays' alignment, the sources, the ELL copy.
  size_t fixed = (size_t(64) << 10) + static_cast<size_t>(n) * family::kEllSlots * sizeof(family::EllEntry<W>);
  if (p.split) fixed += static_cast<size_t>(graph.m()) * (4 + sizeof(W)) + static_cast<size_t>(n) * 8;
  const size_t left = ctx.budget_left();
  const int64_t by_memory = left > fixed ? static_cast<int64_t>((left - fixed) / per_copy) : 0;
  const int64_t by_index = (std::numeric_limits<int32_t>::max() - 4096) / std::max<int64_t>(1, n);
  const int64_t want = ctx.options().tuning.cuda_batch_sources.value_or(kPassSources);
  int64_t width = std::min<int64_t>({by_memory, by_index, want, num_sources});
  if (width < 1) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "apsp_delta_stepping: one source needs " +
                                                  std::to_string(per_copy + fixed) +
                                                  " bytes of device memory, and only " + std::to_string(left) +
                                                  " are left under the budget (options.device_memory_limit)");
  }
  return static_cast<int32_t>(sparse::balanced_batch(width, num_sources, 32));
}

// The passes' searches for sparse::run_passes (pass_pipeline.cuh).
template <class W>
struct DeltaSteppingPasses {
  RunContext& ctx;
  const Graph& graph;
  const DeviceCsr<W>& g;
  FrontierSearch<W>& search;
  int64_t rounds = 0;
  unsigned long long relaxations = 0;

  void start(const int32_t* sources, int32_t count) { search.start_copies(sources, count); }
  void wait() {
    const family::Ctrl h = search.wait();
    if (h.status != 0) throw Error(GSP_ERR_INTERNAL, "apsp_delta_stepping: a pass did not converge");
    rounds += h.rounds;
    relaxations += h.relax;
  }
  [[noreturn]] void overflow(int32_t u, int32_t v) { throw_overflow(u, v); }
  void emit(int32_t count, W* dist, int32_t* pred, int* flags) {
    const int64_t labels = static_cast<int64_t>(count) * graph.n();
    unpack_copies_kernel<W><<<family::grid_for(ctx, labels, 256), 256, 0, ctx.stream()>>>(
        labels, graph.n(), search.packed(), dist, pred, g, static_cast<W>(graph.max_weight()), flags);
    GSP_CUDA_LAUNCH();
    if constexpr (family::kKeyOnly<W, family::LabelWord<W>>) {
      if (pred != nullptr) family::tight_preds<W>(ctx, g, labels, dist, search.sources(), -1, pred, flags + 3);
    }
  }
};

template <class W>
void run_batched(RunContext& ctx, const ApspJob& job) {
  const Graph& graph = *job.graph;
  sparse::require_non_negative(job, "apsp_delta_stepping");
  if (!(job.options->delta >= 0)) throw Error(GSP_ERR_INVALID_ARGUMENT, "delta must be >= 0");
  sparse::fill_stats(ctx, job);
  const int32_t n = graph.n();
  if (n == 0 || job.num_sources == 0) return;
  const sparse::PassTrace trace(job.options->tuning.cuda_trace);
  trace.at("engine began", job.num_sources, n);
  auto ready = sparse::start_result_ready<W>(ctx, job);  // beside the set-up below
  const bool paths = job.options->want_paths;
  DeviceCsr<W> g = device_graph<W>(ctx, graph);
  trace.at("graph on the device");
  // Few sources run as one search would (their phases are latency-bound
  // whatever delta); from kBatchedFrom on, the bucket width of a pass.
  const bool batched = job.num_sources >= kBatchedFrom;
  const FrontierPolicy policy = family::frontier_policy(graph, job.options->delta, false, job.options->tuning, batched);
  const int32_t width = pass_width<W>(ctx, graph, policy, job.num_sources, paths);
  // Stages: each pass's initial labels are set-up; its search and unpacking
  // compute, which the copy (and repair) of the pass before overlaps; the
  // last pass's rows, after the last search, copy.
  StageClock clock(ctx);
  FrontierSearch<W> search(ctx, graph, g, policy, width, &clock);
  trace.at("search set up", width);
  DeltaSteppingPasses<W> passes{ctx, graph, g, search};
  // Ties through zero-weight arcs can leave a cycle in a row: with an arc
  // <= 0 every row is checked (double: also the rows of passes where
  // tight_pred_kernel() found an arc that rounding absorbs, flags[3]).
  sparse::run_passes<W>(ctx, job, width, paths && graph.min_weight() <= 0, clock, passes, std::move(ready));
  if (job.stats != nullptr) {
    job.stats->iterations = passes.rounds;
    job.stats->relaxations = static_cast<int64_t>(passes.relaxations);
  }
}

}  // namespace

void apsp_delta_stepping(RunContext& ctx, const ApspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) { run_batched<decltype(w)>(ctx, job); });
}

}  // namespace gsp::detail::gpu
