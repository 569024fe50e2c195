// Per-source APSP engines: repeated binary-heap Dijkstra (GSP_APSP_HEAP) and
// Johnson (Bellman-Ford potentials from a virtual source, then Dijkstra on
// reweighted arcs: engines/cpu/apsp_sparse/johnson.h). Sources run in parallel, one task per
// source, in blocks of sink->preferred_block_rows() rows delivered in order,
// written by the threads straight into the result where the sink has one
// (no staging copy; each thread's first touch pages its rows in).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "core/host_array.h"
#include "engines/cpu/common/cpu_util.h"
#include "engines/cpu/apsp_sparse/johnson.h"
#include "engines/cpu/sssp/sssp_core.h"

namespace gsp::detail::cpu {
namespace {

// row_fn(tid, source, dist_row, pred_row_or_null) computes one row (every
// entry); returns the relaxations it made.
template <class W, class RowFn>
int64_t per_source_blocks(const ApspJob& job, Team& team, RowFn&& row_fn) {
  const int32_t n = job.graph->n();
  const size_t un = static_cast<size_t>(n);
  const bool want = job.options->want_paths;
  const int32_t block = std::max<int32_t>(1, job.sink->preferred_block_rows());
  const int32_t cap = std::min(block, job.num_sources);
  // Into the result itself where the sink has one, else through a staging
  // block (left unfilled: the rows write every entry, and the threads that
  // write them first page them in, in parallel). A staging block filled on
  // the calling thread and copied into the result took NY (64 sources, rows
  // by delta-stepping, 16 cores of the H100 host) 0.112 s; straight into
  // the result 0.062 s (Graph65536: 0.045 -> 0.020 s).
  RowSink::Destination dest;
  const bool direct = job.sink->destination(&dest);
  HostArray<W> bd;
  HostArray<int32_t> bp;
  if (!direct) {
    bd.resize_uninitialized(static_cast<size_t>(cap) * un);
    if (want) bp.resize_uninitialized(static_cast<size_t>(cap) * un);
  }
  std::vector<int64_t> relax(static_cast<size_t>(team.size()), 0);
  for (int32_t first = 0; first < job.num_sources; first += block) {
    const int32_t rows = std::min(block, job.num_sources - first);
    W* const dist = direct ? static_cast<W*>(dest.dist) + static_cast<size_t>(first) * un : bd.data();
    int32_t* const pred = !want    ? nullptr
                          : direct ? (dest.pred != nullptr ? dest.pred + static_cast<size_t>(first) * un : nullptr)
                                   : bp.data();
    std::atomic<int32_t> next{0};
    team.run([&](int tid) {
      for (int32_t r; (r = next.fetch_add(1)) < rows;) {
        relax[static_cast<size_t>(tid)] += row_fn(tid, job.sources[first + r], dist + static_cast<size_t>(r) * un,
                                                  pred != nullptr ? pred + static_cast<size_t>(r) * un : nullptr);
      }
    });
    if (direct) {
      job.sink->rows_written(first, rows);
    } else {
      job.sink->rows(first, rows, bd.data(), pred);
    }
    job.options->report(static_cast<double>(first + rows) / job.num_sources);
  }
  int64_t total = 0;
  for (int64_t r : relax) total += r;
  return total;
}

int team_size(const ApspJob& job) { return std::max(1, std::min(resolved_threads(job.options), job.num_sources)); }

}  // namespace

template <class W>
void dijkstra_apsp(const ApspJob& job) {
  const Graph& graph = *job.graph;
  require_non_negative(graph, "repeated Dijkstra (GSP_APSP_HEAP)");
  const CsrView<W> g = graph.view<W>();
  Team team(team_size(job));
  if (job.rows_by_delta_stepping) {
    // One-thread delta-stepping per row, on the team's threads; it reports no
    // progress (callbacks run on the caller's thread, per block).
    RunOptions one = *job.options;
    one.num_threads = 1;
    one.progress = nullptr;
    const int64_t relax = per_source_blocks<W>(job, team, [&](int, int32_t s, W* d, int32_t* p) {
      RunStats st;
      SsspJob row;
      row.graph = &graph;
      row.source = s;
      row.algorithm = GSP_SSSP_DELTA_STEPPING;
      row.options = &one;
      row.dist = d;
      row.pred = p;
      row.stats = &st;
      delta_stepping_sssp<W>(row);
      return st.relaxations;
    });
    fill_stats(job.stats, GSP_APSP_HEAP, team.size(), job.num_sources, relax);
    if (job.stats != nullptr) job.stats->device_name += ", each row by delta-stepping";
    return;
  }
  std::vector<HeapVec<W>> heaps(static_cast<size_t>(team.size()));
  const int64_t relax = per_source_blocks<W>(job, team, [&](int tid, int32_t s, W* d, int32_t* p) {
    return dijkstra_run<W>(
        g, s, d, p, [&](int64_t e) { return g.weights[e]; }, heaps[static_cast<size_t>(tid)], job.options->limit);
  });
  fill_stats(job.stats, GSP_APSP_HEAP, team.size(), job.num_sources, relax);
}

template <class W>
void johnson_apsp(const ApspJob& job) {
  const Graph& graph = *job.graph;
  const CsrView<W> g = graph.view<W>();
  using K = typename JohnsonWeights<W>::Key;
  StageLaps laps(job.stats);  // the potentials are the set-up, the searches the compute
  const JohnsonWeights<W> jw = johnson_weights<W>(graph, job.options);
  laps.lap(Stage::kSetup);
  job.options->report(0.0);
  Team team(team_size(job));
  std::vector<HeapVec<K>> heaps(static_cast<size_t>(team.size()));
  std::vector<std::vector<K>> keys(static_cast<size_t>(team.size()));
  const int64_t relax = per_source_blocks<W>(job, team, [&](int tid, int32_t s, W* d, int32_t* p) {
    std::vector<K>& kd = keys[static_cast<size_t>(tid)];
    kd.resize(static_cast<size_t>(g.n));
    const int64_t r = dijkstra_run<K>(
        g, s, kd.data(), p, [&](int64_t e) { return jw.reduced[static_cast<size_t>(e)]; },
        heaps[static_cast<size_t>(tid)]);
    for (int32_t v = 0; v < g.n; ++v) d[v] = narrow_distance<W>(jw.unreduce(kd[static_cast<size_t>(v)], s, v), s, v);
    return r;
  });
  laps.lap(Stage::kCompute);
  fill_stats(job.stats, GSP_APSP_JOHNSON, team.size(), job.num_sources, relax + jw.bf_relaxations);
}

template void dijkstra_apsp<float>(const ApspJob&);
template void dijkstra_apsp<int32_t>(const ApspJob&);
template void dijkstra_apsp<double>(const ApspJob&);
template void johnson_apsp<float>(const ApspJob&);
template void johnson_apsp<int32_t>(const ApspJob&);
template void johnson_apsp<double>(const ApspJob&);

}  // namespace gsp::detail::cpu
