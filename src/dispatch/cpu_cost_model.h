// The CPU single-source cost model: the estimated wall time of one
// gsp_sssp_run() on the CPU backend for each CPU engine, from the graph's
// size, its weights and a bounded breadth-first probe of its depth, and
// AUTO's CPU choice (the engine with the smaller estimate). The constants,
// the measurements behind them and what the model does not see are in
// doc/algorithms.md, "CPU single-source AUTO".
#pragma once

#include <cstdint>

#include "core/graph.h"
#include "gsp/gsp.h"

namespace gsp::detail {

// Estimated seconds of one single-source run on the CPU (wall time of
// gsp_sssp_run with paths, result allocation included) per engine.
struct CpuSsspCosts {
  double dijkstra = 0;        // binary-heap Dijkstra, one thread
  double delta_stepping = 0;  // delta-stepping on ds_threads threads, default delta
  double bellman_ford = 0;    // queue Bellman-Ford, typical case (no bound; see the .cpp)
  int32_t ds_threads = 1;     // threads delta-stepping uses when `threads` are asked for
  double ds_buckets = 0;      // estimated buckets (distance / delta) of delta-stepping
  double hops = 1;            // graph.hop_depth()
};

// The estimates for a run asked to use `threads` threads (the dispatcher's
// resolved options.num_threads; below 1 counts as 1).
CpuSsspCosts cpu_sssp_costs(const Graph& graph, int32_t threads);

// AUTO's single-source engine on the CPU: GSP_SSSP_BELLMAN_FORD with a
// negative weight, else GSP_SSSP_DIJKSTRA or GSP_SSSP_DELTA_STEPPING,
// whichever is estimated faster at `threads`. Deterministic: the same graph
// and thread count give the same choice (nothing is timed at run time).
gsp_algorithm cpu_sssp_choice(const Graph& graph, int32_t threads);

// Estimated seconds of one single-source CPU run with AUTO's choice at
// `threads` threads (that engine's entry of cpu_sssp_costs(); the typical
// Bellman-Ford for negative weights). One thread: within 0.48x-2.4x of the
// measured time on the 13 graphs of doc/algorithms.md. Threads: rougher
// (constants from one 16-core host; a 2-core VM ran threads slower than one
// thread). An order-of-magnitude guide for decisions such as CPU versus
// CUDA, not a prediction.
double cpu_sssp_seconds_estimate(const Graph& graph, int32_t threads);

// Estimated seconds per vertex a one-thread Dijkstra settles (its heap step
// and the vertex's arcs): what a search that stops early costs per vertex.
double cpu_dijkstra_seconds_per_settled(const Graph& graph);

}  // namespace gsp::detail
