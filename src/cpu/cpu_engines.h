// Entry points of the CPU engines (src/cpu/). The dispatcher calls sssp() /
// apsp() with a resolved algorithm; each routes to its engine file.
#pragma once

#include "core/engine.h"

namespace gsp::detail::cpu {

// True if the CPU backend has an engine for this algorithm.
bool supports(gsp_algorithm algorithm);
// SSSP: GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_DELTA_STEPPING.
void sssp(const SsspJob& job);
// APSP: GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP (repeated
// Dijkstra, one task per source), GSP_APSP_JOHNSON.
void apsp(const ApspJob& job);
// Float64 evidence for a negative cycle anywhere in the graph: queue
// Bellman-Ford from a virtual source joined to every vertex, with labels in
// int64 / double (sssp_core.h). dispatch.cpp asks it before it lets a float
// engine call a float graph a negative-cycle graph.
bool has_negative_cycle(const Graph& graph);

}  // namespace gsp::detail::cpu
