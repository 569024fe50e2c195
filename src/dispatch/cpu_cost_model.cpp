// The CPU single-source cost model (cpu_cost_model.h): a bounded
// breadth-first probe of the graph's depth, per-engine time estimates with
// measured constants, and AUTO's CPU choice between Dijkstra and
// delta-stepping. Measurements and the reasoning: doc/algorithms.md, "CPU
// single-source AUTO".
#include "dispatch/cpu_cost_model.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engines/cpu/common/cpu_util.h"

namespace gsp::detail {

namespace {

// ---------------------------------------------------------------- constants
// Seconds. One thread: fitted (least squares of the log ratio) to the wall
// times of 25 graphs on a 2-core AMD EPYC VM, 2026-11-25, the faster
// engine rightly named on all 25; measured again on 13 graphs
// (doc/algorithms.md, "CPU single-source AUTO"): estimates within
// 0.48x-2.4x on one thread, right engine on all. Threads: from the 16-core Xeon
// host of bench/RESULTS.md (NY, Graph65536, R-MAT on 16 threads) and the
// round cost of rings on the 2-core VM.

// Dijkstra: per vertex a heap step whose cost grows with log2 of the heap,
// which holds about one breadth-first level (n / hops vertices: 1 on a
// ring, where Dijkstra costs only its arcs), plus per arc.
constexpr double kDijkstraFixed = 0.6e-6;
constexpr double kDijkstraPerVertexLog = 18.6e-9;
constexpr double kDijkstraPerArc = 4.9e-9;

// Delta-stepping on one thread: per vertex and per arc (its buckets cost
// nothing measurable on one thread, even 31,000 of them on a ring).
constexpr double kDeltaFixed = 1.1e-6;
constexpr double kDeltaPerVertex = 8.8e-9;
constexpr double kDeltaPerArc = 7.5e-9;

// Delta-stepping on T >= 2 threads: a team from the pool (team.h), the
// one-thread work shared with a speed-up of 1 + kParallelGain (T - 1)
// (16 threads: 3.1x on NY, 5x on Graph65536, 7.5x on R-MAT), and rounds
// that each end at two barriers (~4 us at 2 threads, ~19 us at 16). A
// bucket takes about kRoundsPerBucket rounds.
constexpr double kTeamFixed = 20.0e-6;
constexpr double kTeamPerThread = 5.0e-6;
constexpr double kParallelGain = 0.25;
constexpr double kRoundFixed = 2.0e-6;
constexpr double kRoundPerThread = 1.1e-6;
constexpr double kRoundsPerBucket = 1.5;

// The typical queue Bellman-Ford (SLF/LLL) run: 18-54 ns per vertex and
// arc measured. No bound: adversarial graphs take far longer, which is why
// AUTO uses it only for negative weights.
constexpr double kBellmanFordPerItem = 25.0e-9;

// --------------------------------------------------------------- the probe
struct ProbeRun {
  bool full = false;    // reached the vertex budget (else the search ended)
  int32_t levels = 0;   // levels completed
  int32_t r_eighth = 0; // level at which budget / 8 vertices were reached
  int32_t r_full = 0;   // level at which the budget was reached
  int64_t reached = 1;
};

// Breadth-first search from `start`, stopped after `budget` vertices or
// 32 * budget arcs (a hub: treated as reaching the budget at once). The
// visited set is an open-addressing table 4 times the budget, so the probe
// costs O(budget) whatever n.
ProbeRun bfs_probe(const Csr& fwd, int32_t start, int32_t budget) {
  size_t cap = 16;
  while (cap < 4 * static_cast<size_t>(budget)) cap <<= 1;
  std::vector<int32_t> seen(cap, -1);
  const auto insert = [&](int32_t v) {
    size_t h = (static_cast<uint32_t>(v) * 2654435761u) & (cap - 1);
    while (seen[h] != -1) {
      if (seen[h] == v) return false;
      h = (h + 1) & (cap - 1);
    }
    seen[h] = v;
    return true;
  };
  ProbeRun run;
  const int64_t eighth = std::max<int64_t>(2, budget / 8);
  const int64_t arc_cap = 32 * static_cast<int64_t>(budget);
  int64_t arcs = 0;
  std::vector<int32_t> level{start}, next;
  insert(start);
  for (int32_t r = 0; !level.empty(); ++r) {
    next.clear();
    for (const int32_t u : level) {
      const int64_t end = fwd.offsets[static_cast<size_t>(u) + 1];
      for (int64_t e = fwd.offsets[static_cast<size_t>(u)]; e < end; ++e) {
        if (++arcs > arc_cap) {
          run.reached = budget;
          if (run.r_eighth == 0) run.r_eighth = r + 1;
          run.r_full = r + 1;
          run.full = true;
          return run;
        }
        const int32_t v = fwd.targets[static_cast<size_t>(e)];
        if (!insert(v)) continue;
        next.push_back(v);
        ++run.reached;
        if (run.reached == eighth) run.r_eighth = r + 1;
        if (run.reached >= budget) {
          run.r_full = r + 1;
          run.full = true;
          return run;
        }
      }
    }
    level.swap(next);
    run.levels = r + (level.empty() ? 0 : 1);
  }
  return run;
}

// Depth extrapolated from one probe that reached its budget: vertices
// within r hops grow like r^dim, dim from the levels at 1/8 and all of the
// budget (at least 1: a path), then r^dim = n solved for r.
double extrapolated_hops(const ProbeRun& run, double n) {
  if (run.r_eighth <= 0 || run.r_full <= run.r_eighth) return run.r_full + 1.0;  // explosive growth
  const double dim = std::max(1.0, std::log(8.0) / std::log(static_cast<double>(run.r_full) / run.r_eighth));
  const double hops = run.r_full * std::pow(n / static_cast<double>(run.reached), 1.0 / dim);
  return std::clamp(hops, static_cast<double>(run.r_full), n);
}

// ---------------------------------------------------------------- estimates
double dijkstra_seconds(double n, double m, double hops) {
  const double width = std::max(1.0, n / hops);
  return kDijkstraFixed + kDijkstraPerVertexLog * n * std::log2(width) + kDijkstraPerArc * m;
}

double delta_stepping_seconds(double n, double m, double buckets, int threads) {
  const double work = kDeltaPerVertex * n + kDeltaPerArc * m;
  if (threads <= 1) return kDeltaFixed + work;
  const double t = threads;
  const double rounds = kRoundsPerBucket * buckets + 2.0;
  return kTeamFixed + kTeamPerThread * t + work / (1.0 + kParallelGain * (t - 1.0)) +
         rounds * (kRoundFixed + kRoundPerThread * t);
}

}  // namespace

double estimate_hop_depth(const Graph& graph) {
  const int32_t n = graph.n();
  if (n <= 1 || graph.m() == 0) return 1.0;
  const int32_t budget = std::clamp(n / 32, 32, 1024);
  double hops = 0;
  int32_t levels = 0;
  bool any_full = false;
  for (const int32_t start : {0, n / 2}) {
    const ProbeRun run = bfs_probe(graph.forward(), start, budget);
    levels = std::max(levels, run.levels);
    if (run.full) {
      any_full = true;
      hops = std::max(hops, extrapolated_hops(run, n));
    }
  }
  // Neither search reached its budget: what they reach is small, and they
  // saw all of its depth.
  return std::max(1.0, any_full ? hops : static_cast<double>(levels));
}

double cpu_dijkstra_seconds_per_settled(const Graph& graph) {
  const double n = std::max(1, graph.n()), m = static_cast<double>(graph.m());
  const double width = std::max(2.0, n / std::max(1.0, graph.hop_depth()));
  return kDijkstraPerVertexLog * std::log2(width) + kDijkstraPerArc * m / n;
}

CpuSsspCosts cpu_sssp_costs(const Graph& graph, int32_t threads) {
  CpuSsspCosts c;
  const double n = graph.n(), m = static_cast<double>(graph.m());
  c.hops = graph.hop_depth();
  c.ds_threads = cpu::delta_stepping_threads(graph, std::max(1, threads));
  // A longest shortest path of `hops` arcs of about the mean weight.
  c.ds_buckets = 1.0 + c.hops * graph.mean_weight() / cpu::choose_delta(graph);
  c.dijkstra = dijkstra_seconds(n, m, c.hops);
  c.delta_stepping = delta_stepping_seconds(n, m, c.ds_buckets, c.ds_threads);
  c.bellman_ford = kDijkstraFixed + kBellmanFordPerItem * (n + m);
  return c;
}

gsp_algorithm cpu_sssp_choice(const Graph& graph, int32_t threads) {
  if (graph.has_negative_weight()) return GSP_SSSP_BELLMAN_FORD;
  const CpuSsspCosts c = cpu_sssp_costs(graph, threads);
  return c.delta_stepping < c.dijkstra ? GSP_SSSP_DELTA_STEPPING : GSP_SSSP_DIJKSTRA;
}

double cpu_sssp_seconds_estimate(const Graph& graph, int32_t threads) {
  const CpuSsspCosts c = cpu_sssp_costs(graph, threads);
  if (graph.has_negative_weight()) return c.bellman_ford;
  return std::min(c.dijkstra, c.delta_stepping);
}

}  // namespace gsp::detail
