// The CPU engine of many-to-many tables (gsp_table_run): per source, the
// binary-heap Dijkstra of the other CPU engines (dijkstra_loop,
// engines/cpu/sssp/sssp_core.h), stopped as soon as every distinct target is
// settled, so a nearby target costs only its neighbourhood. A job may cap
// the vertices each search settles (TableJob::settle_budget): AUTO bets on
// a nearby target and gives up for the device when it was not. Labels live in
// per-thread arrays reused across sources and validated by a generation
// stamp: no O(n) reset per source, only one zeroing of the stamps per
// thread and call (calloc: untouched zero pages when the memory is fresh; a
// reused heap chunk is cleared, about 30 us for the NY road graph's 264k
// vertices; fresh mmap pages every call measured slower, 0.2-0.4 ms, for
// the page faults of the scattered vertices a search touches). Negative arcs: Johnson's reduced
// costs (engines/cpu/apsp_sparse/johnson.h), potentials computed once per table. Paths are
// walked back from each target at the end of its source's search.
#include <algorithm>
#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "core/host_memory.h"
#include "engines/cpu/common/cpu_engines.h"
#include "engines/cpu/common/cpu_util.h"
#include "engines/cpu/apsp_sparse/johnson.h"
#include "engines/cpu/sssp/sssp_core.h"

namespace gsp::detail::cpu {
namespace {

// One thread's search state, allocated on its first source.
template <class K>
struct Scratch {
  HostArray<uint32_t> seen;  // seen[v] == gen: dist[v] (and pred[v]) hold this search's label
  HostArray<K> dist;
  HostArray<int32_t> pred;
  HeapVec<K> heap;
  OverflowArcs overflowed;  // arcs whose sum left the key's range
  std::vector<int32_t> walk;
  uint32_t gen = 0;  // one per source: at most K < 2^31 searches per thread, never wraps

  void ensure(int32_t n, bool paths) {
    if (!seen.empty() || n == 0) return;
    seen.assign_zero(static_cast<size_t>(n));
    dist.resize_uninitialized(static_cast<size_t>(n));
    if (paths) pred.resize_uninitialized(static_cast<size_t>(n));
  }
  K label(int32_t v) const { return seen[static_cast<size_t>(v)] == gen ? dist[static_cast<size_t>(v)] : key_inf<K>(); }
};

[[noreturn]] void throw_float_overflow(int32_t s, int32_t u, int32_t v) {
  throw Error(GSP_ERR_OVERFLOW, "the float distance from " + std::to_string(s) + " to " + std::to_string(v) +
                                    " overflows: arc " + std::to_string(u) + " -> " + std::to_string(v) +
                                    " leads beyond FLT_MAX = 3.4e38 (the target is reachable); use smaller weights");
}

// The labels of one search in a thread's Scratch (dijkstra_loop's Labels,
// sssp_core.h): a vertex has a label only if its stamp is this search's, so
// start() touches the source alone. An infinite sum cannot be a label here
// (the stamp would call the vertex reached): it is set aside as overflowed.
template <class K>
struct StampedLabels {
  static constexpr bool kInfSumOverflows = true;
  uint32_t* seen;
  K* dist;
  int32_t* pred;
  uint32_t gen;
  void start(int32_t s) {
    seen[s] = gen;
    dist[s] = K(0);
    if (pred != nullptr) pred[s] = -1;
  }
  K at(int32_t u) const { return dist[u]; }
  bool improves(int32_t v, K nd) const { return seen[v] != gen || nd < dist[v]; }
  void set(int32_t v, K nd, int32_t u) {
    seen[v] = gen;
    dist[v] = nd;
    if (pred != nullptr) pred[v] = u;
  }
};

// Dijkstra from s (dijkstra_loop, the one the SSSP and APSP engines run)
// over keys wfn(e) >= 0 until `distinct` targets (marked in is_target) are
// settled or the reachable part is exhausted. A sum that leaves the key's
// range (int32, float) never improves a label; if the search had to exhaust
// the graph and such an arc's head stayed unlabelled, a reachable vertex
// has a distance that does not fit, as gsp_apsp_run reports
// (GSP_ERR_OVERFLOW); after an early exit every target is settled with its
// exact distance. With budget > 0, a search that would settle more than
// `budget` vertices stops and sets *gave_up instead. Returns the
// relaxations.
template <class K, class W, class WFn>
int64_t search(const CsrView<W>& g, int32_t s, const uint8_t* is_target, int32_t distinct, Scratch<K>& sc,
               bool paths, int64_t budget, bool* gave_up, WFn&& wfn) {
  const uint32_t gen = ++sc.gen;
  const StampedLabels<K> labels{sc.seen.data(), sc.dist.data(), paths ? sc.pred.data() : nullptr, gen};
  int32_t left = distinct;
  int64_t settled = 0;
  const int64_t relax = dijkstra_loop<K>(g, s, labels, sc.heap, sc.overflowed, std::forward<WFn>(wfn), [&](int32_t u) {
    if (budget > 0 && ++settled > budget) return *gave_up = true;
    return is_target[u] != 0 && --left == 0;
  });
  if (*gave_up) return relax;
  if (left > 0) {
    for (const auto& uv : sc.overflowed) {
      if (sc.seen[static_cast<size_t>(uv.second)] == gen) continue;
      if constexpr (std::is_same_v<K, float>) throw_float_overflow(s, uv.first, uv.second);
      throw_overflow(uv.first, uv.second);
    }
  }
  return relax;
}

// The table over keys K: wfn(e) is arc e's key (its weight, or its reduced
// cost), cell(x, s, t) maps a settled key to the weight type.
template <class W, class K, class WFn, class CellFn>
int64_t run(const TableJob& job, const CsrView<W>& g, Team& team, std::atomic<bool>* over_budget, WFn&& wfn,
            CellFn&& cell) {
  const int32_t n = g.n, kk = job.num_sources, tt = job.num_targets;
  const RunOptions& o = *job.options;
  const bool paths = job.paths != nullptr;
  // Targets marked once, shared read-only.
  HostArray<uint8_t> is_target;
  is_target.assign_zero(static_cast<size_t>(n));
  int32_t distinct = 0;
  for (int32_t j = 0; j < tt; ++j) {
    uint8_t& m = is_target[static_cast<size_t>(job.targets[j])];
    distinct += m == 0;
    m = 1;
  }
  std::vector<std::vector<int32_t>> rows(paths ? static_cast<size_t>(kk) : 0);
  std::vector<Scratch<K>> scratch(static_cast<size_t>(team.size()));
  std::vector<int64_t> relax(static_cast<size_t>(team.size()), 0);
  W* out = static_cast<W*>(job.dist);
  std::atomic<int32_t> next{0}, done{0};
  std::atomic<bool> failed{false};
  team.run([&](int tid) {
    Scratch<K>& sc = scratch[static_cast<size_t>(tid)];
    try {
      for (int32_t i; !failed.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < kk;) {
        sc.ensure(n, paths);
        const int32_t s = job.sources[i];
        bool gave_up = false;
        relax[static_cast<size_t>(tid)] +=
            search<K>(g, s, is_target.data(), distinct, sc, paths, job.settle_budget, &gave_up, wfn);
        if (gave_up) {
          *over_budget = true;
          failed = true;
          break;
        }
        const size_t row = static_cast<size_t>(i) * static_cast<size_t>(tt);
        for (int32_t j = 0; j < tt; ++j) {
          const int32_t t = job.targets[j];
          const K x = sc.label(t);
          out[row + static_cast<size_t>(j)] = cell(x, s, t);
          if (paths) {
            job.paths->offsets[row + static_cast<size_t>(j) + 1] =
                x == key_inf<K>() ? 0 : TablePaths::append_path(sc.pred.data(), s, t, n, rows[static_cast<size_t>(i)]);
          }
        }
        const int32_t finished = done.fetch_add(1) + 1;
        if (tid == 0) o.report(static_cast<double>(finished) / kk);  // the caller's thread
      }
    } catch (...) {
      failed = true;
      throw;
    }
  });
  if (paths && !over_budget->load()) job.paths->assemble(rows);
  int64_t total = 0;
  for (int64_t r : relax) total += r;
  return total;
}

// Host memory beyond the result: per thread, the stamps, labels, (paths)
// predecessors and a heap of about n entries; Johnson's potentials and
// reduced costs (as cpu_engines.cpp counts them for GSP_APSP_JOHNSON).
void require_table_workspace(const Graph& g, int threads, bool johnson, bool paths) {
  const uint64_t n = static_cast<uint64_t>(g.n()), m = static_cast<uint64_t>(g.m());
  const uint64_t per_vertex = 4 + 8 + (paths ? 4 : 0) + 16;
  uint64_t need = bytes_add(n, bytes_mul(static_cast<uint64_t>(threads), bytes_mul(per_vertex, n)));
  if (johnson) need = bytes_add(need, bytes_add(bytes_mul(8, m), bytes_mul(26, n)));
  require_host_memory(need, std::string("the CPU engine's working memory (table: per-thread labels and heaps") +
                                (johnson ? ", Johnson's reduced arcs" : "") + ", " + std::to_string(n) +
                                " vertices, " + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)"));
}

template <class W>
bool table_typed(const TableJob& job) {
  const Graph& graph = *job.graph;
  const CsrView<W> g = graph.view<W>();
  const bool johnson = graph.has_negative_weight();
  const int threads = std::max(1, std::min(resolved_threads(job.options), job.num_sources));
  require_table_workspace(graph, threads, johnson, job.paths != nullptr);
  // Stages: Johnson's potentials are the set-up; the searches, which write
  // the cells and their paths as they settle the targets, are the compute.
  StageLaps laps(job.stats);
  int64_t relax = 0;
  std::atomic<bool> over_budget{false};
  if (!johnson) {
    Team team(threads);
    relax = run<W, W>(
        job, g, team, &over_budget, [&](int64_t e) { return g.weights[e]; }, [](W x, int32_t, int32_t) { return x; });
  } else {
    using K = typename JohnsonWeights<W>::Key;
    const JohnsonWeights<W> jw = johnson_weights<W>(graph, job.options);
    laps.lap(Stage::kSetup);
    Team team(threads);
    relax = run<W, K>(
        job, g, team, &over_budget, [&](int64_t e) { return jw.reduced[static_cast<size_t>(e)]; },
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
