// The CPU single-source cost model (cpu_cost_model.h): per-engine time
// estimates (from the graph's hop depth, core/hop_depth.h) with
// measured constants, and AUTO's CPU choice between Dijkstra and
// delta-stepping. Measurements and the reasoning: doc/algorithms.md, "CPU
// single-source AUTO".
#include "dispatch/cpu_cost_model.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engines/cpu/cpu_backend.h"

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
