// The CPU engine of many-to-many tables (gsp_table_run): per source, the
// binary-heap Dijkstra of the other CPU engines (dijkstra_loop,
// engines/cpu/sssp/sssp_core.h), stopped as soon as every distinct target is
// settled, so a nearby target costs only its neighbourhood. A table whose
// targets are one vertex (K x 1, point to point) on a graph without negative
// arcs runs a bidirectional search per source instead (point_to_point.h),
// which settles about half as many vertices on a road graph. A job may cap
// the vertices each search settles (TableJob::settle_budget): AUTO bets on
// a nearby target and gives up for the device when it was not. Labels live in
// per-thread arrays reused across sources and validated by a generation
// stamp of one byte (stamped_search.h): no O(n) reset per source, only a
// zeroing of the stamps per thread and call and once every 255 sources
// (calloc: untouched zero pages when the memory is fresh; a reused heap
// chunk is cleared, most of a near query's time; fresh mmap pages every
// call measured slower, 0.2-0.4 ms, for the page faults of the scattered
// vertices a search touches). Negative arcs: Johnson's reduced costs
// (engines/cpu/apsp_sparse/johnson.h), potentials computed once per table.
// Paths are walked back from each target at the end of its source's search.
#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/host_memory.h"
#include "engines/cpu/apsp_sparse/johnson.h"
#include "engines/cpu/apsp_sparse/point_to_point.h"
#include "engines/cpu/apsp_sparse/stamped_search.h"
#include "engines/cpu/cpu_backend.h"
#include "engines/cpu/common/cpu_util.h"
#include "engines/cpu/sssp/sssp_core.h"

namespace gsp::detail::cpu {
namespace {

// Dijkstra from s (dijkstra_loop, the one the SSSP and APSP engines run)
// over keys wfn(e) >= 0 until `distinct` targets (marked in is_target) are
// settled or the reachable part is exhausted. A sum that leaves the key's
// range (int32, float) never improves a label; if the search had to exhaust
// the graph and such an arc's head stayed unlabelled, a reachable vertex
// has a distance that does not fit, as gsp_apsp_run reports
// (GSP_ERR_OVERFLOW, check_exhausted_search); after an early exit every
// target is settled with its exact distance. With budget > 0, a search that
// would settle more than `budget` vertices stops and sets *gave_up instead.
// Returns the relaxations.
template <class K, class W, class WFn>
int64_t search(const CsrView<W>& g, int32_t s, const uint8_t* is_target, int32_t distinct, StampedSearch<K>& sc,
               int64_t budget, bool* gave_up, WFn&& wfn) {
  int32_t left = distinct;
  int64_t settled = 0;
  const int64_t relax =
      dijkstra_loop<K>(g, s, sc.next(), sc.heap, sc.overflowed, std::forward<WFn>(wfn), [&](int32_t u) {
        if (budget > 0 && ++settled > budget) return *gave_up = true;
        return is_target[u] != 0 && --left == 0;
      });
  if (!*gave_up && left > 0) check_exhausted_search(sc, s);
  return relax;
}

// The table over keys K: wfn(e) is arc e's key (its weight, or its reduced
// cost), cell(x, s, t) maps a settled key to the weight type. With
// `pair` (every target one vertex, keys the weights), each source runs the
// point-to-point search on it instead.
template <class W, class K, class WFn, class CellFn>
int64_t run(const TableJob& job, const CsrView<W>& g, const PointToPointGraph<W>* pair, Team& team,
            std::atomic<bool>* over_budget, WFn&& wfn, CellFn&& cell) {
  const int32_t n = g.n, kk = job.num_sources, tt = job.num_targets;
  const RunOptions& o = *job.options;
  const bool paths = job.paths != nullptr;
  // Targets marked once, shared read-only (the point-to-point search needs
  // no marks).
  HostArray<uint8_t> is_target;
  int32_t distinct = 0;
  if (pair == nullptr) {
    is_target.assign_zero(static_cast<size_t>(n));
    for (int32_t j = 0; j < tt; ++j) {
      uint8_t& m = is_target[static_cast<size_t>(job.targets[j])];
      distinct += m == 0;
      m = 1;
    }
  }
  std::vector<StampedSearch<K>> scratch(pair == nullptr ? static_cast<size_t>(team.size()) : 0);
  std::vector<PathTreeBuilder> trees(paths && pair == nullptr ? static_cast<size_t>(team.size()) : 0);
  std::vector<std::vector<int32_t>> pair_path(paths && pair != nullptr ? static_cast<size_t>(team.size()) : 0);
  std::vector<PointToPoint<W>> pairs(pair != nullptr ? static_cast<size_t>(team.size()) : 0);
  std::vector<int64_t> relax(static_cast<size_t>(team.size()), 0);
  W* out = static_cast<W*>(job.dist);
  // Source i's T cells from one search; false when it gave up.
  auto by_search = [&](int tid, int32_t i) {
    StampedSearch<K>& sc = scratch[static_cast<size_t>(tid)];
    sc.ensure(n, paths);
    const int32_t s = job.sources[i];
    bool gave_up = false;
    relax[static_cast<size_t>(tid)] +=
        search<K>(g, s, is_target.data(), distinct, sc, job.settle_budget, &gave_up, wfn);
    if (gave_up) return false;
    const size_t row = static_cast<size_t>(i) * static_cast<size_t>(tt);
    std::vector<uint8_t> reachable(paths ? static_cast<size_t>(tt) : 0);
    for (int32_t j = 0; j < tt; ++j) {
      const int32_t t = job.targets[j];
      const K x = sc.label(t);
      out[row + static_cast<size_t>(j)] = cell(x, s, t);
      if (paths) reachable[static_cast<size_t>(j)] = x != key_inf<K>();
    }
    if (paths) {
      trees[static_cast<size_t>(tid)].build(sc.pred.data(), n, s, job.targets, tt, reachable.data(), job.paths->row(i),
                                            job.paths->ends(i), job.paths->lengths(i));
    }
    return true;
  };
  // The same from the point-to-point search: one answer, T equal cells.
  auto by_pair = [&](int tid, int32_t i) {
    std::vector<int32_t>* path = paths ? &pair_path[static_cast<size_t>(tid)] : nullptr;
    if (path != nullptr) path->clear();
    const PointToPointAnswer<W> a =
        pairs[static_cast<size_t>(tid)].run(*pair, job.sources[i], job.targets[0], job.settle_budget, path);
    relax[static_cast<size_t>(tid)] += a.relaxations;
    if (a.gave_up) return false;
    const size_t row = static_cast<size_t>(i) * static_cast<size_t>(tt);
    std::fill(out + row, out + row + static_cast<size_t>(tt), a.dist);
    if (paths) {  // one chain, the path of every cell (none when t is unreachable)
      RowPaths& r = job.paths->row(i);
      r = RowPaths{};
      r.vertices = *path;
      const int32_t end = r.close_chain(0, -1);
      const int32_t len = static_cast<int32_t>(path->size());
      for (size_t j = 0; j < static_cast<size_t>(tt); ++j) job.paths->set(row + j, end, len);
    }
    return true;
  };
  std::atomic<int32_t> next{0}, done{0};
  std::atomic<bool> failed{false};
  team.run([&](int tid) {
    try {
      for (int32_t i; !failed.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < kk;) {
        if (!(pair != nullptr ? by_pair(tid, i) : by_search(tid, i))) {
          *over_budget = true;
          failed = true;
          break;
        }
        const int32_t finished = done.fetch_add(1) + 1;
        if (tid == 0) o.report(static_cast<double>(finished) / kk);  // the caller's thread
      }
    } catch (...) {
      failed = true;
      throw;
    }
  });
  int64_t total = 0;
  for (int64_t r : relax) total += r;
  return total;
}

// Host memory beyond the result: per thread, the stamps, labels, (paths)
// predecessors and the path tree's stamps and node numbers
// (PathTreeBuilder), and a heap of about n entries (twice, predecessors always,
// for the point-to-point search, whose reverse graph Graph::reverse checks
// where it builds it); Johnson's potentials and reduced costs (as
// cpu_backend.cpp counts them for GSP_APSP_JOHNSON).
void require_table_workspace(const Graph& g, int threads, bool johnson, bool paths, bool pair) {
  const uint64_t n = static_cast<uint64_t>(g.n()), m = static_cast<uint64_t>(g.m());
  const uint64_t per_vertex = pair ? 2 * (1 + 8 + 4 + 16) : 1 + 8 + (paths ? 4 + 8 : 0) + 16;
  uint64_t need = bytes_add(pair ? 0 : n, bytes_mul(static_cast<uint64_t>(threads), bytes_mul(per_vertex, n)));
  if (johnson) need = bytes_add(need, bytes_add(bytes_mul(8, m), bytes_mul(26, n)));
  require_host_memory(need, [&] {
    return std::string("the CPU engine's working memory (table: per-thread labels and heaps") +
           (pair ? " of both directions" : "") + (johnson ? ", Johnson's reduced arcs" : "") + ", " +
           std::to_string(n) + " vertices, " + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
  });
}

// Whether every target is one vertex (K x 1, repeats of one target included).
bool one_target(const TableJob& job) {
  return std::all_of(job.targets, job.targets + job.num_targets, [&](int32_t t) { return t == job.targets[0]; });
}

template <class W>
bool table_typed(const TableJob& job) {
  const Graph& graph = *job.graph;
  const CsrView<W> g = graph.view<W>();
  const bool johnson = graph.has_negative_weight();
  // AUTO's bet on a near target (a settle budget) is a fraction of a
  // device's run: it searches from both ends only where the reverse graph
  // exists already, whose first build (about 10 ms on NY) would cost more
  // than the bet.
  const bool pair = !johnson && one_target(job) && (job.settle_budget <= 0 || graph.has_reverse());
  const int threads = std::max(1, std::min(resolved_threads(job.options), job.num_sources));
  require_table_workspace(graph, threads, johnson, job.paths != nullptr, pair);
  // Stages: Johnson's potentials, or the reverse graph of the point-to-point
  // search when this is the graph's first, are the set-up; the searches,
  // which write the cells and their paths as they settle the targets, are
  // the compute.
  StageLaps laps(job.stats);
  int64_t relax = 0;
  std::atomic<bool> over_budget{false};
  if (!johnson) {
    std::optional<PointToPointGraph<W>> pg;
    if (pair) {
      pg = point_to_point_graph<W>(graph);
      laps.lap(Stage::kSetup);
    }
    Team team(threads);
    relax = run<W, W>(
        job, g, pg ? &*pg : nullptr, team, &over_budget, [&](int64_t e) { return g.weights[e]; },
        [](W x, int32_t, int32_t) { return x; });
  } else {
    using K = typename JohnsonWeights<W>::Key;
    const JohnsonWeights<W> jw = johnson_weights<W>(graph, job.options);
    laps.lap(Stage::kSetup);
    Team team(threads);
    relax = run<W, K>(
        job, g, nullptr, team, &over_budget, [&](int64_t e) { return jw.reduced[static_cast<size_t>(e)]; },
        [&](K x, int32_t s, int32_t t) { return narrow_distance<W>(jw.unreduce(x, s, t), s, t); });
    relax += jw.bf_relaxations;
  }
  laps.lap(Stage::kCompute);
  fill_stats(job.stats, johnson ? GSP_APSP_JOHNSON : GSP_APSP_HEAP, threads, job.num_sources, relax);
  return !over_budget.load();
}

}  // namespace

bool table(const TableJob& job) {
  require(job.graph != nullptr && job.options != nullptr && (job.dist != nullptr || job.num_targets == 0) &&
              (job.sources != nullptr || job.num_sources == 0) && (job.targets != nullptr || job.num_targets == 0),
          GSP_ERR_INTERNAL, "cpu::table: incomplete job");
  if (job.num_sources <= 0 || job.num_targets <= 0) return true;  // no cells
  bool done = true;
  with_weight_type(job.graph->dtype(), [&](auto w0) { done = table_typed<decltype(w0)>(job); });
  return done;
}

}  // namespace gsp::detail::cpu
